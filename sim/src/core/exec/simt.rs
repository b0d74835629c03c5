//! Vortex's SIMT extension: thread masks, warp spawn, explicit split/join, predicates,
//! barriers (local ones here; global ones go to the machine as an [`Effect`]), votes and
//! shuffles.

use wsim_isa::{Instr, Op};

use super::{Effect, ExecResult, Executed, Next};
use crate::core::warp::{lanes, SplitEntry, WarpWait};
use crate::core::Core;
use crate::error::{ErrorKind, SimError};
use crate::limits;
use crate::shared::Shared;

impl Core {
    pub(super) fn simt(
        &mut self,
        w: usize,
        pc: u32,
        mask: u32,
        i: &Instr,
        sh: &Shared,
        rec: &mut Executed,
    ) -> ExecResult<Next> {
        match i.op {
            Op::VxTmc | Op::VxPred => return self.thread_mask(w, mask, i, sh, rec),
            Op::VxSplit | Op::VxJoin => return self.split_join(w, pc, mask, i),
            Op::VxWspawn => rec.events.spawned = self.spawn(w, mask, i, sh),
            Op::VxBar => {
                let warp = &mut self.warps[w];
                let lane = mask.trailing_zeros() as usize;
                let (id, count) = (warp.x(i.rs1, lane), warp.x(i.rs2, lane));
                rec.events.barrier = Some(id);
                if id & 0x8000_0000 != 0 {
                    warp.wait = WarpWait::Barrier { id };
                    rec.effect = Effect::GlobalBarrier { id, count };
                } else {
                    rec.released = self.arrive_local(w, id, count);
                }
            }
            Op::VxWsync => {}
            _ => self.warp_primitive(w, mask, i, sh),
        }
        Ok(Next::Advance)
    }

    /// vx_tmc and vx_pred: a new thread mask, or the lanes retire.
    fn thread_mask(
        &mut self,
        w: usize,
        mask: u32,
        i: &Instr,
        sh: &Shared,
        rec: &mut Executed,
    ) -> ExecResult<Next> {
        let warp = &mut self.warps[w];
        let lane = mask.trailing_zeros() as usize;
        let new = if i.op == Op::VxTmc {
            warp.x(i.rs1, lane) & sh.geometry.lane_mask()
        } else {
            // vx_pred: the lanes whose rs1 is non-zero (zero with rd = 1), else rs2's mask.
            let negate = i.rd == 1;
            let mut taken = 0;
            for l in lanes(mask) {
                taken |= u32::from((warp.x(i.rs1, l) != 0) != negate) << l;
            }
            if taken != 0 {
                taken
            } else {
                warp.x(i.rs2, lane) & sh.geometry.lane_mask()
            }
        };
        if new == 0 {
            warp.stack.retire(mask)?;
            rec.events.retired = true;
            return Ok(Next::Moved);
        }
        warp.stack.set_mask(new);
        Ok(Next::Advance)
    }

    /// vx_wspawn: start the warps below the count that are not running; those started, a
    /// bit per warp.
    fn spawn(&mut self, w: usize, mask: u32, i: &Instr, sh: &Shared) -> u32 {
        let warp = &self.warps[w];
        let lane = mask.trailing_zeros() as usize;
        let (count, start) = (warp.x(i.rs1, lane), warp.x(i.rs2, lane));
        let phase = warp.phase;
        let count = count.min(self.warps.len() as u32) as usize;
        let mut spawned = 0;
        for k in 1..count {
            if !self.warps[k].is_live() {
                self.warps[k].launch(start, 1, sh.cycle, phase);
                spawned |= 1 << k;
            }
        }
        spawned
    }

    /// vx_split and vx_join: Vortex's explicit divergence stack.
    fn split_join(&mut self, w: usize, pc: u32, mask: u32, i: &Instr) -> ExecResult<Next> {
        let warp = &mut self.warps[w];
        let lane = mask.trailing_zeros() as usize;
        match i.op {
            Op::VxSplit => {
                let negate = i.rs2 == 1;
                let mut taken = 0;
                for l in lanes(mask) {
                    taken |= u32::from((warp.x(i.rs1, l) != 0) != negate) << l;
                }
                let depth = warp.splits.len() as u32;
                let diverges = taken != 0 && taken != mask;
                if warp.splits.len() + 1 + usize::from(diverges) > limits::SPLIT_STACK {
                    return Err(program(format!(
                        "vx_split with {depth} entries on the warp's split stack: a warp holds \
                         at most {} (limits::SPLIT_STACK); every vx_split needs its vx_join",
                        limits::SPLIT_STACK
                    )));
                }
                warp.splits.push(SplitEntry {
                    mask,
                    pc: 0,
                    fallthrough: true,
                });
                if diverges {
                    warp.splits.push(SplitEntry {
                        mask: mask & !taken,
                        pc: pc.wrapping_add(4),
                        fallthrough: false,
                    });
                    warp.stack.set_mask(taken);
                }
                for l in lanes(mask) {
                    warp.set_x(i.rd, l, depth);
                }
            }
            _ => {
                let depth = warp.x(i.rs1, lane) as usize;
                let Some(entry) = warp.splits.pop() else {
                    return Err(program("vx_join without a matching vx_split".into()));
                };
                let expected = if entry.fallthrough {
                    warp.splits.len()
                } else {
                    warp.splits.len() - 1
                };
                if depth != expected {
                    return Err(program(format!(
                        "vx_join with depth {depth}, but the split stack expects {expected}"
                    )));
                }
                warp.stack.set_mask(entry.mask);
                if !entry.fallthrough {
                    warp.stack.jump(entry.pc)?;
                    return Ok(Next::Moved);
                }
            }
        }
        Ok(Next::Advance)
    }

    /// Votes and shuffles: values across the warp's active lanes.
    fn warp_primitive(&mut self, w: usize, mask: u32, i: &Instr, sh: &Shared) {
        let warp = &mut self.warps[w];
        match i.op {
            Op::VxVoteAll | Op::VxVoteAny | Op::VxVoteUni | Op::VxVoteBallot => {
                let mut votes = 0u32;
                for l in lanes(mask) {
                    votes |= u32::from(warp.x(i.rs1, l) != 0) << l;
                }
                for l in lanes(mask) {
                    let members = warp.x(i.rs2, l) & mask;
                    let yes = votes & members;
                    let v = match i.op {
                        Op::VxVoteAll => u32::from(yes == members),
                        Op::VxVoteAny => u32::from(yes != 0),
                        Op::VxVoteUni => u32::from(yes == 0 || yes == members),
                        _ => yes,
                    };
                    warp.set_x(i.rd, l, v);
                }
            }
            _ => {
                // Shuffles. Read every source before writing: rd may be rs1.
                let threads = sh.geometry.threads as usize;
                let mut values = [0u32; 32];
                for l in lanes(mask) {
                    let src = shuffle_source(i.op, l, warp.x(i.rs2, l), threads);
                    values[l] = warp.x(i.rs1, src);
                }
                for l in lanes(mask) {
                    warp.set_x(i.rd, l, values[l]);
                }
            }
        }
    }

    /// Warp `w` arrives at local barrier `id` of `count` warps; the warps it releases (a
    /// bit per warp; 0 while the barrier waits for more).
    fn arrive_local(&mut self, w: usize, id: u32, count: u32) -> u32 {
        let released = self.barriers.arrive(w, id, count);
        if released == 0 {
            self.warps[w].wait = WarpWait::Barrier { id };
        }
        for k in lanes(released) {
            self.warps[k].wait = WarpWait::Ready;
        }
        released
    }
}

fn program(msg: String) -> super::Fault {
    SimError::new(ErrorKind::Program(msg)).into()
}

/// Source lane of a shuffle, CUDA `__shfl_*_sync` semantics: `ctl` = (c << 6) | b with
/// b = delta, xor mask or source lane and c = segment width - 1. A lane whose source falls
/// outside its segment (or the warp) reads its own value.
fn shuffle_source(op: Op, lane: usize, ctl: u32, threads: usize) -> usize {
    let b = (ctl & 0x3F) as usize;
    let c = ((ctl >> 6) & 0x3F) as usize;
    let seg_start = lane & !c;
    let seg_end = seg_start + c; // inclusive
    let src = match op {
        Op::VxShflUp => lane.checked_sub(b).filter(|&s| s >= seg_start),
        Op::VxShflDown => Some(lane + b).filter(|&s| s <= seg_end),
        Op::VxShflBfly => Some(lane ^ b).filter(|&s| s >= seg_start && s <= seg_end),
        _ => Some(seg_start + (b & c)),
    };
    src.filter(|&s| s < threads).unwrap_or(lane)
}
