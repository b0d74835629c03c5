//! What the Weaver's instructions do: WEAVER_REG fills the ST, WEAVER_DEC_ID hands the warp
//! a batch (in EGHW mode reading the graph's topology and edges itself and writing them
//! into the warp's buffer in local memory), WEAVER_DEC_LOC returns each lane's edge id,
//! WEAVER_SKIP drops a vertex's remaining edges.

use wsim_isa::{Instr, Op};

use super::{StEntry, WeaverRequest};
use crate::config::WeaverMode;
use crate::core::exec::Executed;
use crate::core::warp::lanes;
use crate::core::Core;
use crate::error::{ErrorKind, SimError, SimResult};
use crate::shared::Shared;

impl Core {
    /// A SparseWeaver instruction: the unit's answer into the warp's registers (and, for
    /// DEC_ID, its thread mask); what the unit was asked goes into the record.
    pub(in crate::core) fn execute_weaver(
        &mut self,
        w: usize,
        mask: u32,
        i: &Instr,
        sh: &Shared,
        rec: &mut Executed,
    ) -> SimResult<()> {
        let program = |msg: String| SimError::new(ErrorKind::Program(msg));
        if self.weaver.is_none() {
            return Err(program(
                "a SparseWeaver instruction, but this machine has no Weaver unit \
                 (weaver.enabled = off)"
                    .into(),
            ));
        }
        if i.op == Op::WeaverDecId {
            rec.weaver = Some(self.weaver_decode(w, mask, i, sh, rec)?);
            return Ok(());
        }
        let wv = self.weaver.as_mut().expect("checked above");
        let warp = &mut self.warps[w];
        let request = match i.op {
            Op::WeaverReg => {
                let mut entries = [(0, StEntry::default()); 32];
                let mut n = 0;
                for l in lanes(mask) {
                    let (vid, loc, deg) = (warp.x(i.rs1, l), warp.x(i.rs2, l), warp.x(i.rs3, l));
                    entries[n] = (l, StEntry { vid, loc, deg });
                    n += 1;
                }
                WeaverRequest::Register(wv.unit.register(w, &entries[..n]).map_err(program)?)
            }
            Op::WeaverDecLoc => {
                for l in lanes(mask) {
                    let eid = wv.unit.location(w, l).map_err(program)?;
                    warp.set_x(i.rd, l, eid);
                }
                WeaverRequest::Locate(mask.count_ones())
            }
            _ => {
                let mut edges = 0;
                for l in lanes(mask) {
                    edges += wv.unit.skip(w, warp.x(i.rs1, l)).map_err(program)?;
                }
                WeaverRequest::Skip {
                    lanes: mask.count_ones(),
                    edges,
                }
            }
        };
        rec.weaver = Some(request);
        Ok(())
    }

    /// WEAVER_DEC_ID: the next batch into the warp's lanes (the lanes that got work become
    /// its thread mask); in EGHW mode the unit reads the topology and the edges itself.
    fn weaver_decode(
        &mut self,
        w: usize,
        mask: u32,
        i: &Instr,
        sh: &Shared,
        rec: &mut Executed,
    ) -> SimResult<WeaverRequest> {
        let program = |msg: String| SimError::new(ErrorKind::Program(msg));
        let wv = self
            .weaver
            .as_mut()
            .expect("the caller checked for the unit");
        let warp = &mut self.warps[w];
        let eghw = wv.mode == WeaverMode::Eghw;
        if eghw && (wv.offsets == 0 || wv.edges == 0) {
            return Err(program(
                "weaver.dec_id in EGHW mode before the kernel set the graph's offsets \
                 and edges (CSRs 0x7C1 and 0x7C2)"
                    .into(),
            ));
        }
        let accesses = &mut rec.accesses;
        let offsets = wv.offsets;
        let mut topology = |vid: u32| {
            let at = offsets.wrapping_add(vid.wrapping_mul(4));
            accesses.extend([at, at.wrapping_add(4)]);
            let first = sh.mem.read_u32(at);
            (
                first,
                sh.mem.read_u32(at.wrapping_add(4)).wrapping_sub(first),
            )
        };
        let batch = wv.unit.decode(w, mask, eghw.then_some(&mut topology));
        for l in lanes(mask) {
            warp.set_x(i.rd, l, batch.vid[l]);
        }
        if batch.work != 0 {
            warp.stack.set_mask(batch.work);
        }
        if eghw {
            // The unit hands each lane its edge (neighbour, weight) through the
            // warp's buffer in local memory.
            let buffer = wv.buffer_of(w, sh.geometry.threads) as usize;
            for l in lanes(batch.work) {
                let e = batch.eid[l].wrapping_mul(4);
                let at = wv.edges.wrapping_add(e);
                let neighbour = sh.mem.read_u32(at);
                rec.accesses.push(at);
                let weight = if wv.weights == 0 {
                    0
                } else {
                    rec.accesses.push(wv.weights.wrapping_add(e));
                    sh.mem.read_u32(wv.weights.wrapping_add(e))
                };
                let slot = buffer + 8 * l;
                self.local.write(slot, 4, neighbour);
                self.local.write(slot + 4, 4, weight);
            }
        }
        Ok(WeaverRequest::Decode {
            trace: batch.trace,
            work: batch.work,
        })
    }
}
