//! Zicsr: the CSR instructions and the CSRs a warp sees (machine-mode trap state, counters,
//! Vortex's machine-shape CSRs, wsim's phase and iteration marks; the Weaver's are the
//! unit's, in `core/weaver`).

use wsim_isa::{csr, Instr, Op};

use super::{ExecResult, Next, Trap};
use crate::core::warp::lanes;
use crate::core::Core;
use crate::shared::Shared;

impl Core {
    pub(super) fn csr_op(
        &mut self,
        w: usize,
        mask: u32,
        i: &Instr,
        sh: &mut Shared,
    ) -> ExecResult<Next> {
        let num = i.imm as u16;
        let immediate = matches!(i.op, Op::Csrrwi | Op::Csrrsi | Op::Csrrci);
        let writes = matches!(i.op, Op::Csrrw | Op::Csrrwi) || i.rs1 != 0;
        let illegal = |reason: String| Err(Trap::illegal(wsim_isa::encode(i), reason).into());
        if writes && num >> 10 == 3 {
            return illegal(format!("write to read-only CSR {num:#x}"));
        }
        // A CSR of the warp or the core that every lane reads alike, or writes with one
        // value and no destination: the first lane's access is the warp's (the others
        // would read what it wrote and write it again, which changes nothing).
        let lane = mask.trailing_zeros() as usize;
        let src = |l: usize| {
            if immediate {
                u32::from(i.rs1)
            } else {
                self.warps[w].x(i.rs1, l)
            }
        };
        let first = src(lane);
        if !per_lane(num) && (!writes || i.rd == 0) && lanes(mask).all(|l| src(l) == first) {
            let Some(old) = self.csr_read(w, lane, num, sh) else {
                return illegal(format!("unknown CSR {num:#x}"));
            };
            if writes {
                let new = match i.op {
                    Op::Csrrw | Op::Csrrwi => first,
                    Op::Csrrs | Op::Csrrsi => old | first,
                    _ => old & !first,
                };
                if num == csr::WSIM_PHASE {
                    sh.write_phase(new)?;
                }
                self.csr_write(w, lane, num, new, sh.cycle);
            } else {
                for l in lanes(mask) {
                    self.warps[w].set_x(i.rd, l, old);
                }
            }
            return Ok(Next::Advance);
        }
        // The phase last registered with the machine: lanes writing the same one again
        // (a warp's lanes usually do) would find it registered.
        let mut registered = None;
        for l in lanes(mask) {
            let Some(old) = self.csr_read(w, l, num, sh) else {
                return illegal(format!("unknown CSR {num:#x}"));
            };
            let src = if immediate {
                u32::from(i.rs1)
            } else {
                self.warps[w].x(i.rs1, l)
            };
            if writes {
                let new = match i.op {
                    Op::Csrrw | Op::Csrrwi => src,
                    Op::Csrrs | Op::Csrrsi => old | src,
                    _ => old & !src,
                };
                if num == csr::WSIM_PHASE && registered != Some(new) {
                    sh.write_phase(new)?;
                    registered = Some(new);
                }
                self.csr_write(w, l, num, new, sh.cycle);
            }
            self.warps[w].set_x(i.rd, l, old);
        }
        Ok(Next::Advance)
    }

    #[inline]
    fn csr_read(&self, w: usize, l: usize, num: u16, sh: &Shared) -> Option<u32> {
        let warp = &self.warps[w];
        let g = &sh.geometry;
        let t = &warp.trap;
        Some(match num {
            csr::FFLAGS => u32::from(warp.fflags[l]),
            csr::FRM => u32::from(warp.frm[l]),
            csr::FCSR => u32::from(warp.frm[l]) << 5 | u32::from(warp.fflags[l]),
            csr::MSTATUS => t.mstatus,
            // RV32 with I, M, A, F.
            csr::MISA => 0x4000_1121,
            csr::MEDELEG => t.medeleg,
            csr::MIDELEG => t.mideleg,
            csr::MIE => t.mie,
            csr::MTVEC => t.mtvec,
            csr::MSCRATCH => warp.mscratch[l],
            csr::MEPC => t.mepc,
            csr::MCAUSE => t.mcause,
            csr::MTVAL => t.mtval,
            csr::MIP => t.mip,
            csr::SATP => t.satp,
            csr::PMPCFG0 => t.pmpcfg0,
            csr::PMPADDR0 => t.pmpaddr0,
            csr::MHARTID => self.hart(w, l, sh),
            csr::MCYCLE | csr::CYCLE | csr::TIME => sh.cycle as u32,
            csr::MCYCLEH | csr::CYCLEH | csr::TIMEH => (sh.cycle >> 32) as u32,
            csr::MINSTRET | csr::INSTRET => warp.instret as u32,
            csr::MINSTRETH | csr::INSTRETH => (warp.instret >> 32) as u32,
            csr::VX_THREAD_ID => l as u32,
            csr::VX_WARP_ID => w as u32,
            csr::VX_CORE_ID => self.id,
            csr::VX_ACTIVE_WARPS => self
                .warps
                .iter()
                .enumerate()
                .fold(0, |m, (k, wp)| m | (u32::from(wp.is_live()) << k)),
            csr::VX_THREAD_MASK => warp.stack.mask(),
            csr::VX_NUM_THREADS => g.threads,
            csr::VX_NUM_WARPS => g.warps,
            csr::VX_NUM_CORES => g.cores,
            csr::VX_LOCAL_MEM_BASE => g.local_base,
            csr::WSIM_PHASE => self.phase,
            csr::WSIM_ITERATION => self.iteration,
            csr::WEAVER_EGHW_OFFSETS..=csr::WEAVER_ENTRIES => {
                return crate::core::weaver::csr_read(self.weaver.as_ref(), num, w, g);
            }
            _ => return None,
        })
    }

    fn csr_write(&mut self, w: usize, l: usize, num: u16, v: u32, now: u64) {
        let warp = &mut self.warps[w];
        let t = &mut warp.trap;
        match num {
            csr::FFLAGS => warp.fflags[l] = (v & 0x1F) as u8,
            csr::FRM => warp.frm[l] = (v & 7) as u8,
            csr::FCSR => {
                warp.fflags[l] = (v & 0x1F) as u8;
                warp.frm[l] = ((v >> 5) & 7) as u8;
            }
            csr::MSTATUS => t.mstatus = v,
            csr::MEDELEG => t.medeleg = v,
            csr::MIDELEG => t.mideleg = v,
            csr::MIE => t.mie = v,
            csr::MTVEC => t.mtvec = v,
            csr::MSCRATCH => warp.mscratch[l] = v,
            csr::MEPC => t.mepc = v & !3,
            csr::MCAUSE => t.mcause = v,
            csr::MTVAL => t.mtval = v,
            csr::MIP => t.mip = v,
            csr::SATP => t.satp = v,
            csr::PMPCFG0 => t.pmpcfg0 = v,
            csr::PMPADDR0 => t.pmpaddr0 = v,
            csr::WSIM_PHASE => {
                self.count_warp_phase(w, now);
                self.warps[w].phase = v;
                self.set_phase(v, now);
            }
            csr::WSIM_ITERATION => {
                self.iteration = v;
                self.iteration_mark = Some(v);
            }
            csr::WEAVER_EGHW_OFFSETS..=csr::WEAVER_ENTRIES => {
                if let Some(unit) = self.weaver.as_mut() {
                    unit.csr_write(num, v);
                }
            }
            // misa and the counters ignore writes (WARL / not modelled as writable).
            _ => {}
        }
    }
}

/// Whether lane `l`'s value of CSR `num` is its own (the others are the warp's or the
/// core's).
fn per_lane(num: u16) -> bool {
    matches!(
        num,
        csr::FFLAGS | csr::FRM | csr::FCSR | csr::MSCRATCH | csr::MHARTID | csr::VX_THREAD_ID
    )
}
