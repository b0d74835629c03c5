//! Control flow: branches, jumps (with divergence and reconvergence through the warp's SIMT
//! stack) and the system instructions (ecall, ebreak, mret, wfi).

use wsim_isa::{Instr, Op};

use super::{Effect, ExecResult, Executed, Next, Trap, CAUSE_BREAKPOINT, CAUSE_ECALL_M};
use crate::core::simt_stack::Rejoin;
use crate::core::warp::lanes;
use crate::core::Core;
use crate::error::{ErrorKind, SimError};
use crate::shared::Shared;

/// Linux/newlib's `exit` system call number, honoured when no trap handler is set.
const SYS_EXIT: u32 = 93;

impl Core {
    pub(super) fn branch(
        &mut self,
        w: usize,
        pc: u32,
        mask: u32,
        i: &Instr,
        sh: &Shared,
        rec: &mut Executed,
    ) -> ExecResult<Next> {
        let warp = &self.warps[w];
        let mut taken = 0;
        for l in lanes(mask) {
            let (a, b) = (warp.x(i.rs1, l), warp.x(i.rs2, l));
            let t = match i.op {
                Op::Beq => a == b,
                Op::Bne => a != b,
                Op::Blt => (a as i32) < (b as i32),
                Op::Bge => (a as i32) >= (b as i32),
                Op::Bltu => a < b,
                _ => a >= b,
            };
            taken |= u32::from(t) << l;
        }
        let (next, target) = (pc.wrapping_add(4), pc.wrapping_add(i.imm as u32));
        rec.events.branch = true;
        if taken == mask {
            self.jump_checked(w, target)?;
        } else if taken == 0 {
            self.warps[w].stack.jump(next)?;
        } else {
            if !target.is_multiple_of(4) {
                return Err(Trap::misaligned_target(target).into());
            }
            rec.events.divergent = true;
            let rejoin = sh.program.rejoin(pc).into();
            self.warps[w]
                .stack
                .diverge(&[(next, mask & !taken, 0), (target, taken, 0)], rejoin)?;
        }
        Ok(Next::Moved)
    }

    pub(super) fn jal(&mut self, w: usize, pc: u32, mask: u32, i: &Instr) -> ExecResult<Next> {
        let target = pc.wrapping_add(i.imm as u32);
        if !target.is_multiple_of(4) {
            return Err(Trap::misaligned_target(target).into());
        }
        let warp = &mut self.warps[w];
        for l in lanes(mask) {
            warp.set_x(i.rd, l, pc.wrapping_add(4));
        }
        if i.rd != 0 {
            warp.stack.call(target)?;
        } else {
            warp.stack.jump(target)?;
        }
        Ok(Next::Moved)
    }

    fn jump_checked(&mut self, w: usize, target: u32) -> ExecResult<()> {
        if !target.is_multiple_of(4) {
            return Err(Trap::misaligned_target(target).into());
        }
        Ok(self.warps[w].stack.jump(target)?)
    }

    pub(super) fn jalr(
        &mut self,
        w: usize,
        pc: u32,
        mask: u32,
        i: &Instr,
        sh: &Shared,
        rec: &mut Executed,
    ) -> ExecResult<Next> {
        let warp = &mut self.warps[w];
        let mut targets = [0u32; 32];
        for l in lanes(mask) {
            targets[l] = warp.x(i.rs1, l).wrapping_add(i.imm as u32) & !1;
        }
        for l in lanes(mask) {
            if targets[l] % 4 != 0 {
                return Err(Trap::misaligned_target(targets[l]).into());
            }
            warp.set_x(i.rd, l, pc.wrapping_add(4));
        }
        let is_call = i.rd != 0;
        let is_return = !is_call && (i.rs1 == 1 || i.rs1 == 5);
        // Group lanes by target, in address order (determinism).
        let mut groups: Vec<(u32, u32, u32)> = Vec::new();
        for l in lanes(mask) {
            match groups.iter_mut().find(|g| g.0 == targets[l]) {
                Some(g) => g.1 |= 1 << l,
                None => groups.push((targets[l], 1 << l, u32::from(is_call))),
            }
        }
        let stack = &mut warp.stack;
        if groups.len() == 1 {
            let target = groups[0].0;
            if is_call {
                stack.call(target)?;
            } else if is_return {
                stack.ret(target)?;
            } else {
                stack.jump(target)?;
            }
            return Ok(Next::Moved);
        }
        groups.sort_unstable();
        rec.events.divergent = true;
        let rejoin = if is_call {
            // Each path runs its callee and comes back to the instruction after the call.
            Rejoin::At(pc.wrapping_add(4))
        } else if is_return {
            return Err(SimError::new(ErrorKind::Program(
                "lanes of one path return to different addresses".into(),
            ))
            .into());
        } else {
            let known = sh.program.indirect_targets(pc);
            let all_known = groups
                .iter()
                .all(|g| known.is_some_and(|k| k.binary_search(&g.0).is_ok()));
            if all_known {
                sh.program.rejoin(pc).into()
            } else {
                rec.events.unknown_indirect = true;
                Rejoin::FunctionExit
            }
        };
        self.warps[w].stack.diverge(&groups, rejoin)?;
        Ok(Next::Moved)
    }

    /// ecall, ebreak, mret, wfi.
    pub(super) fn system(
        &mut self,
        w: usize,
        pc: u32,
        mask: u32,
        i: &Instr,
        rec: &mut Executed,
    ) -> ExecResult<Next> {
        let warp = &mut self.warps[w];
        match i.op {
            Op::Ecall => {
                if warp.trap.mtvec != 0 {
                    return Err(Trap {
                        cause: CAUSE_ECALL_M,
                        tval: 0,
                        error: ErrorKind::Program(String::new()),
                    }
                    .into());
                }
                let lane = mask.trailing_zeros() as usize;
                let (a7, a0) = (warp.x(17, lane), warp.x(10, lane));
                if a7 != SYS_EXIT {
                    return Err(SimError::new(ErrorKind::Program(format!(
                        "ecall with a7 = {a7} and no trap handler (mtvec is 0); \
                         only exit (a7 = {SYS_EXIT}) is handled"
                    )))
                    .into());
                }
                rec.effect = Effect::Exit(a0);
                Ok(Next::Advance)
            }
            Op::Ebreak => Err(Trap {
                cause: CAUSE_BREAKPOINT,
                tval: pc,
                error: ErrorKind::Program("ebreak with no trap handler (mtvec is 0)".into()),
            }
            .into()),
            Op::Mret => {
                let t = &mut warp.trap;
                // MIE <- MPIE, MPIE <- 1.
                let mpie = (t.mstatus >> 7) & 1;
                t.mstatus = (t.mstatus & !0x8) | (mpie << 3) | 0x80;
                let target = t.mepc;
                warp.stack.jump(target)?;
                Ok(Next::Moved)
            }
            _ => Ok(Next::Advance), // wfi: no interrupts to wait for
        }
    }
}
