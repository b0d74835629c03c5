//! Functional execution: what one warp instruction does to the architectural state of its
//! active lanes. How long it takes is the timing model's business, not this module's.

use wsim_isa::{csr, Decoded, Instr, Op};

use super::fpu;
use super::simt_stack::Rejoin;
use super::warp::{lanes, SplitEntry, WarpWait};
use super::weaver::StEntry;
use super::{Core, WeaverRequest};
use crate::config::WeaverMode;
use crate::error::{ErrorKind, SimError, SimResult};
use crate::machine::Shared;
use crate::stats::FsmState;

/// What the machine outside the core must do after an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    /// The warp arrived at a global (cross-core) barrier and waits.
    GlobalBarrier {
        id: u32,
        count: u32,
    },
    /// The program ended the run (tohost or an `ecall` exit) with this status.
    Exit(u32),
}

// mcause values.
const CAUSE_MISALIGNED_FETCH: u32 = 0;
const CAUSE_ILLEGAL: u32 = 2;
const CAUSE_BREAKPOINT: u32 = 3;
const CAUSE_MISALIGNED_LOAD: u32 = 4;
const CAUSE_MISALIGNED_STORE: u32 = 6;
const CAUSE_ECALL_M: u32 = 11;

/// Linux/newlib's `exit` system call number, honoured when no trap handler is set.
const SYS_EXIT: u32 = 93;

/// A condition that traps to `mtvec` when the program installed a handler and is an
/// error otherwise.
struct Trap {
    cause: u32,
    tval: u32,
    error: ErrorKind,
}

/// The result of executing part of an instruction: `Err(Ok(trap))` is a trap to take
/// (or an error if no handler is installed), `Err(Err(e))` a fatal error.
type Exec<T> = Result<T, Result<Trap, SimError>>;

enum Access {
    Load,
    Store,
    Atomic,
}

impl Access {
    fn name(&self) -> &'static str {
        match self {
            Access::Load => "load",
            Access::Store => "store",
            Access::Atomic => "atomic",
        }
    }
}

impl Core {
    /// Execute the instruction at the PC of warp `w`'s executing path.
    pub fn execute(&mut self, w: usize, d: &Decoded, sh: &mut Shared) -> SimResult<Effect> {
        let pc = self.warps[w].stack.pc();
        let mask = self.warps[w].stack.mask();
        self.warps[w].instret += 1;
        self.counters.instructions += 1;
        self.counters.thread_instructions += u64::from(mask.count_ones());
        match self.execute_inner(w, pc, mask, &d.instr, sh) {
            Ok(effect) => Ok(effect),
            Err(Err(e)) => Err(e),
            Err(Ok(trap)) => self.take_trap(w, pc, trap).map(|()| Effect::None),
        }
    }

    /// Raise an illegal-instruction condition for a word that did not decode.
    pub fn illegal_word(&mut self, w: usize, word: u32, reason: &str) -> SimResult<()> {
        let pc = self.warps[w].stack.pc();
        // It issued (and traps): it takes its slot like any instruction.
        self.counters.instructions += 1;
        self.counters.thread_instructions += u64::from(self.warps[w].stack.mask().count_ones());
        let trap = Trap {
            cause: CAUSE_ILLEGAL,
            tval: word,
            error: ErrorKind::IllegalInstruction {
                word,
                reason: reason.to_string(),
            },
        };
        self.take_trap(w, pc, trap)
    }

    fn take_trap(&mut self, w: usize, pc: u32, trap: Trap) -> SimResult<()> {
        let warp = &mut self.warps[w];
        if warp.trap.mtvec == 0 {
            return Err(SimError::new(trap.error));
        }
        warp.trap.mepc = pc;
        warp.trap.mcause = trap.cause;
        warp.trap.mtval = trap.tval;
        // MPIE <- MIE, MIE <- 0, MPP <- M.
        let mie = (warp.trap.mstatus >> 3) & 1;
        warp.trap.mstatus = (warp.trap.mstatus & !0x88) | (mie << 7) | (3 << 11);
        self.counters.traps += 1;
        let vector = warp.trap.mtvec & !3;
        warp.stack.jump(vector)
    }

    fn execute_inner(
        &mut self,
        w: usize,
        pc: u32,
        mask: u32,
        i: &Instr,
        sh: &mut Shared,
    ) -> Exec<Effect> {
        let next = pc.wrapping_add(4);
        let warp = &mut self.warps[w];
        macro_rules! rr {
            ($f:expr) => {{
                for l in lanes(mask) {
                    let v = $f(warp.x(i.rs1, l), warp.x(i.rs2, l));
                    warp.set_x(i.rd, l, v);
                }
            }};
        }
        macro_rules! ri {
            ($f:expr) => {{
                let imm = i.imm as u32;
                for l in lanes(mask) {
                    let v = $f(warp.x(i.rs1, l), imm);
                    warp.set_x(i.rd, l, v);
                }
            }};
        }
        match i.op {
            Op::Lui => ri!(|_, imm| imm),
            Op::Auipc => ri!(|_, imm: u32| pc.wrapping_add(imm)),
            Op::Addi => ri!(|a: u32, b| a.wrapping_add(b)),
            Op::Slti => ri!(|a, b| ((a as i32) < (b as i32)) as u32),
            Op::Sltiu => ri!(|a, b| (a < b) as u32),
            Op::Xori => ri!(|a, b| a ^ b),
            Op::Ori => ri!(|a, b| a | b),
            Op::Andi => ri!(|a, b| a & b),
            Op::Slli => ri!(|a: u32, b| a << (b & 31)),
            Op::Srli => ri!(|a: u32, b| a >> (b & 31)),
            Op::Srai => ri!(|a, b| ((a as i32) >> (b & 31)) as u32),
            Op::Add => rr!(|a: u32, b| a.wrapping_add(b)),
            Op::Sub => rr!(|a: u32, b| a.wrapping_sub(b)),
            Op::Sll => rr!(|a: u32, b| a << (b & 31)),
            Op::Slt => rr!(|a, b| ((a as i32) < (b as i32)) as u32),
            Op::Sltu => rr!(|a, b| (a < b) as u32),
            Op::Xor => rr!(|a, b| a ^ b),
            Op::Srl => rr!(|a: u32, b| a >> (b & 31)),
            Op::Sra => rr!(|a, b| ((a as i32) >> (b & 31)) as u32),
            Op::Or => rr!(|a, b| a | b),
            Op::And => rr!(|a, b| a & b),
            Op::Mul => rr!(|a: u32, b| a.wrapping_mul(b)),
            Op::Mulh => rr!(|a, b| ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32),
            Op::Mulhsu => rr!(|a, b| ((i64::from(a as i32) * i64::from(b)) >> 32) as u32),
            Op::Mulhu => rr!(|a, b| ((u64::from(a) * u64::from(b)) >> 32) as u32),
            Op::Div => rr!(|a, b| match (a as i32, b as i32) {
                (_, 0) => u32::MAX,
                (i32::MIN, -1) => i32::MIN as u32,
                (x, y) => (x / y) as u32,
            }),
            Op::Divu => rr!(|a: u32, b| a.checked_div(b).unwrap_or(u32::MAX)),
            Op::Rem => rr!(|a, b| match (a as i32, b as i32) {
                (x, 0) => x as u32,
                (i32::MIN, -1) => 0,
                (x, y) => (x % y) as u32,
            }),
            Op::Remu => rr!(|a, b| if b == 0 { a } else { a % b }),

            Op::Beq | Op::Bne | Op::Blt | Op::Bge | Op::Bltu | Op::Bgeu => {
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
                let target = pc.wrapping_add(i.imm as u32);
                self.counters.branches += 1;
                if taken == mask {
                    self.jump_checked(w, target)?;
                } else if taken == 0 {
                    self.warps[w].stack.jump(next).map_err(Err)?;
                } else {
                    if !target.is_multiple_of(4) {
                        return Err(Ok(misaligned_target(target)));
                    }
                    self.counters.divergent_branches += 1;
                    let rejoin = sh.program.rejoin(pc);
                    self.warps[w]
                        .stack
                        .diverge(&[(next, mask & !taken, 0), (target, taken, 0)], rejoin)
                        .map_err(Err)?;
                }
                return Ok(Effect::None);
            }
            Op::Jal => {
                let target = pc.wrapping_add(i.imm as u32);
                if !target.is_multiple_of(4) {
                    return Err(Ok(misaligned_target(target)));
                }
                for l in lanes(mask) {
                    warp.set_x(i.rd, l, next);
                }
                let stack = &mut warp.stack;
                if i.rd != 0 {
                    stack.call(target)
                } else {
                    stack.jump(target)
                }
                .map_err(Err)?;
                return Ok(Effect::None);
            }
            Op::Jalr => return self.jalr(w, pc, mask, i, sh),

            Op::Lb | Op::Lh | Op::Lw | Op::Lbu | Op::Lhu | Op::Flw => {
                let (width, signed) = match i.op {
                    Op::Lb => (1, true),
                    Op::Lh => (2, true),
                    Op::Lbu => (1, false),
                    Op::Lhu => (2, false),
                    _ => (4, false),
                };
                for l in lanes(mask) {
                    let addr = self.warps[w].x(i.rs1, l).wrapping_add(i.imm as u32);
                    let raw = self.load_data(w, addr, width, sh)?;
                    let v = match (width, signed) {
                        (1, true) => raw as u8 as i8 as u32,
                        (2, true) => raw as u16 as i16 as u32,
                        _ => raw,
                    };
                    let warp = &mut self.warps[w];
                    if i.op == Op::Flw {
                        warp.set_f(i.rd, l, v);
                    } else {
                        warp.set_x(i.rd, l, v);
                    }
                }
                self.counters.loads += 1;
            }
            Op::Sb | Op::Sh | Op::Sw | Op::Fsw => {
                let width = match i.op {
                    Op::Sb => 1,
                    Op::Sh => 2,
                    _ => 4,
                };
                for l in lanes(mask) {
                    let warp = &self.warps[w];
                    let addr = warp.x(i.rs1, l).wrapping_add(i.imm as u32);
                    let v = if i.op == Op::Fsw {
                        warp.f(i.rs2, l)
                    } else {
                        warp.x(i.rs2, l)
                    };
                    if let Some(code) = self.store_data(w, addr, width, v, sh)? {
                        self.warps[w].stack.jump(next).map_err(Err)?;
                        return Ok(Effect::Exit(code));
                    }
                }
                self.counters.stores += 1;
            }
            Op::LrW
            | Op::ScW
            | Op::AmoswapW
            | Op::AmoaddW
            | Op::AmoxorW
            | Op::AmoandW
            | Op::AmoorW
            | Op::AmominW
            | Op::AmomaxW
            | Op::AmominuW
            | Op::AmomaxuW => {
                for l in lanes(mask) {
                    let hart = self.hart(w, l, sh);
                    let warp = &self.warps[w];
                    let (addr, src) = (warp.x(i.rs1, l), warp.x(i.rs2, l));
                    let old = self.load(addr, 4, Access::Atomic, sh)?;
                    let result = match i.op {
                        Op::LrW => {
                            sh.reserve(hart, addr);
                            old
                        }
                        Op::ScW => {
                            if sh.take_reservation(hart, addr) {
                                self.store(addr, 4, src, sh)?;
                                0
                            } else {
                                1
                            }
                        }
                        op => {
                            let new = match op {
                                Op::AmoswapW => src,
                                Op::AmoaddW => old.wrapping_add(src),
                                Op::AmoxorW => old ^ src,
                                Op::AmoandW => old & src,
                                Op::AmoorW => old | src,
                                Op::AmominW => (old as i32).min(src as i32) as u32,
                                Op::AmomaxW => (old as i32).max(src as i32) as u32,
                                Op::AmominuW => old.min(src),
                                _ => old.max(src),
                            };
                            self.store(addr, 4, new, sh)?;
                            old
                        }
                    };
                    self.warps[w].set_x(i.rd, l, result);
                }
                self.counters.atomics += 1;
            }
            Op::Fence => {}
            Op::FenceI => sh.refresh_code(),

            Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci => {
                self.csr_op(w, mask, i, sh)?;
            }
            Op::Ecall => {
                let warp = &self.warps[w];
                if warp.trap.mtvec != 0 {
                    return Err(Ok(Trap {
                        cause: CAUSE_ECALL_M,
                        tval: 0,
                        error: ErrorKind::Program(String::new()),
                    }));
                }
                let lane = mask.trailing_zeros() as usize;
                let (a7, a0) = (warp.x(17, lane), warp.x(10, lane));
                if a7 == SYS_EXIT {
                    self.warps[w].stack.jump(next).map_err(Err)?;
                    return Ok(Effect::Exit(a0));
                }
                return Err(Err(SimError::new(ErrorKind::Program(format!(
                    "ecall with a7 = {a7} and no trap handler (mtvec is 0); \
                     only exit (a7 = {SYS_EXIT}) is handled"
                )))));
            }
            Op::Ebreak => {
                return Err(Ok(Trap {
                    cause: CAUSE_BREAKPOINT,
                    tval: pc,
                    error: ErrorKind::Program("ebreak with no trap handler (mtvec is 0)".into()),
                }));
            }
            Op::Mret => {
                let t = &mut warp.trap;
                // MIE <- MPIE, MPIE <- 1.
                let mpie = (t.mstatus >> 7) & 1;
                t.mstatus = (t.mstatus & !0x8) | (mpie << 3) | 0x80;
                let target = t.mepc;
                warp.stack.jump(target).map_err(Err)?;
                return Ok(Effect::None);
            }
            Op::Wfi => {}

            Op::FmaddS
            | Op::FmsubS
            | Op::FnmsubS
            | Op::FnmaddS
            | Op::FaddS
            | Op::FsubS
            | Op::FmulS
            | Op::FdivS
            | Op::FsqrtS
            | Op::FsgnjS
            | Op::FsgnjnS
            | Op::FsgnjxS
            | Op::FminS
            | Op::FmaxS
            | Op::FcvtWS
            | Op::FcvtWuS
            | Op::FmvXW
            | Op::FeqS
            | Op::FltS
            | Op::FleS
            | Op::FclassS
            | Op::FcvtSW
            | Op::FcvtSWu
            | Op::FmvWX => {
                let int_src = matches!(i.op, Op::FcvtSW | Op::FcvtSWu | Op::FmvWX);
                let int_dst = matches!(
                    i.op,
                    Op::FcvtWS
                        | Op::FcvtWuS
                        | Op::FmvXW
                        | Op::FeqS
                        | Op::FltS
                        | Op::FleS
                        | Op::FclassS
                );
                for l in lanes(mask) {
                    let rm = match i.rm {
                        7 => warp.frm[l],
                        rm => rm,
                    };
                    if rm > 4 {
                        return Err(Ok(Trap {
                            cause: CAUSE_ILLEGAL,
                            tval: wsim_isa::encode(i),
                            error: ErrorKind::IllegalInstruction {
                                word: wsim_isa::encode(i),
                                reason: format!("dynamic rounding mode with frm = {rm}"),
                            },
                        }));
                    }
                    let a = if int_src {
                        warp.x(i.rs1, l)
                    } else {
                        warp.f(i.rs1, l)
                    };
                    let (b, c) = (warp.f(i.rs2, l), warp.f(i.rs3, l));
                    let (v, flags) =
                        fpu::execute(i.op, a, b, c, rm).expect("an F-extension operation");
                    warp.fflags[l] |= flags;
                    if int_dst {
                        warp.set_x(i.rd, l, v);
                    } else {
                        warp.set_f(i.rd, l, v);
                    }
                }
            }

            Op::VxTmc => {
                let lane = mask.trailing_zeros() as usize;
                let new = warp.x(i.rs1, lane) & sh.geometry.lane_mask();
                if new == 0 {
                    warp.stack.retire(mask).map_err(Err)?;
                    self.warp_left(w, sh.cycle + 1);
                    return Ok(Effect::None);
                }
                warp.stack.set_mask(new);
            }
            Op::VxWspawn => {
                let lane = mask.trailing_zeros() as usize;
                let (count, start) = (warp.x(i.rs1, lane), warp.x(i.rs2, lane));
                let phase = warp.phase;
                let count = count.min(self.warps.len() as u32) as usize;
                for other in self.warps.iter_mut().take(count).skip(1) {
                    if !other.is_live() {
                        other.launch(start, 1, sh.cycle, phase);
                        self.counters.warps_spawned += 1;
                    }
                }
            }
            Op::VxSplit => {
                let negate = i.rs2 == 1;
                let mut taken = 0;
                for l in lanes(mask) {
                    taken |= u32::from((warp.x(i.rs1, l) != 0) != negate) << l;
                }
                let depth = warp.splits.len() as u32;
                warp.splits.push(SplitEntry {
                    mask,
                    pc: 0,
                    fallthrough: true,
                });
                if taken != 0 && taken != mask {
                    warp.splits.push(SplitEntry {
                        mask: mask & !taken,
                        pc: next,
                        fallthrough: false,
                    });
                    warp.stack.set_mask(taken);
                }
                for l in lanes(mask) {
                    warp.set_x(i.rd, l, depth);
                }
            }
            Op::VxJoin => {
                let lane = mask.trailing_zeros() as usize;
                let depth = warp.x(i.rs1, lane) as usize;
                let Some(entry) = warp.splits.pop() else {
                    return Err(Err(SimError::new(ErrorKind::Program(
                        "vx_join without a matching vx_split".into(),
                    ))));
                };
                let expected = if entry.fallthrough {
                    warp.splits.len()
                } else {
                    warp.splits.len() - 1
                };
                if depth != expected {
                    return Err(Err(SimError::new(ErrorKind::Program(format!(
                        "vx_join with depth {depth}, but the split stack expects {expected}"
                    )))));
                }
                warp.stack.set_mask(entry.mask);
                if !entry.fallthrough {
                    warp.stack.jump(entry.pc).map_err(Err)?;
                    return Ok(Effect::None);
                }
            }
            Op::VxPred => {
                let negate = i.rd == 1;
                let lane = mask.trailing_zeros() as usize;
                let fallback = warp.x(i.rs2, lane) & sh.geometry.lane_mask();
                let mut taken = 0;
                for l in lanes(mask) {
                    taken |= u32::from((warp.x(i.rs1, l) != 0) != negate) << l;
                }
                let new = if taken != 0 { taken } else { fallback };
                if new == 0 {
                    warp.stack.retire(mask).map_err(Err)?;
                    self.warp_left(w, sh.cycle + 1);
                    return Ok(Effect::None);
                }
                warp.stack.set_mask(new);
            }
            Op::VxWsync => {}
            Op::VxBar => {
                let lane = mask.trailing_zeros() as usize;
                let (id, count) = (warp.x(i.rs1, lane), warp.x(i.rs2, lane));
                warp.stack.jump(next).map_err(Err)?;
                self.counters.barriers += 1;
                if id & 0x8000_0000 != 0 {
                    self.warps[w].wait = WarpWait::Barrier { id };
                    return Ok(Effect::GlobalBarrier { id, count });
                }
                self.arrive_local(w, id, count);
                return Ok(Effect::None);
            }
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
            Op::VxShflUp | Op::VxShflDown | Op::VxShflBfly | Op::VxShflIdx => {
                // Read every source before writing: rd may be rs1.
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
            Op::WeaverReg | Op::WeaverDecId | Op::WeaverDecLoc | Op::WeaverSkip => {
                self.execute_weaver(w, mask, i, sh).map_err(Err)?;
            }
        }
        self.warps[w].stack.jump(next).map_err(Err)?;
        Ok(Effect::None)
    }

    fn jump_checked(&mut self, w: usize, target: u32) -> Exec<()> {
        if !target.is_multiple_of(4) {
            return Err(Ok(misaligned_target(target)));
        }
        self.warps[w].stack.jump(target).map_err(Err)
    }

    fn jalr(&mut self, w: usize, pc: u32, mask: u32, i: &Instr, sh: &mut Shared) -> Exec<Effect> {
        let warp = &mut self.warps[w];
        let mut targets = [0u32; 32];
        for l in lanes(mask) {
            targets[l] = warp.x(i.rs1, l).wrapping_add(i.imm as u32) & !1;
        }
        for l in lanes(mask) {
            if targets[l] % 4 != 0 {
                return Err(Ok(misaligned_target(targets[l])));
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
            return if is_call {
                stack.call(target)
            } else if is_return {
                stack.ret(target)
            } else {
                stack.jump(target)
            }
            .map(|()| Effect::None)
            .map_err(Err);
        }
        groups.sort_unstable();
        self.counters.divergent_branches += 1;
        let rejoin = if is_call {
            // Each path runs its callee and comes back to the instruction after the call.
            Rejoin::At(pc.wrapping_add(4))
        } else if is_return {
            return Err(Err(SimError::new(ErrorKind::Program(
                "lanes of one path return to different addresses".into(),
            ))));
        } else {
            let known = sh.program.indirect_targets(pc);
            let all_known = groups
                .iter()
                .all(|g| known.is_some_and(|k| k.binary_search(&g.0).is_ok()));
            if all_known {
                sh.program.rejoin(pc)
            } else {
                self.counters.unknown_indirect_divergence += 1;
                Rejoin::FunctionExit
            }
        };
        self.warps[w].stack.diverge(&groups, rejoin).map_err(Err)?;
        Ok(Effect::None)
    }

    fn csr_op(&mut self, w: usize, mask: u32, i: &Instr, sh: &Shared) -> Exec<()> {
        let num = i.imm as u16;
        let immediate = matches!(i.op, Op::Csrrwi | Op::Csrrsi | Op::Csrrci);
        let writes = matches!(i.op, Op::Csrrw | Op::Csrrwi) || i.rs1 != 0;
        let illegal = |reason: &str| {
            let word = wsim_isa::encode(i);
            Err(Ok(Trap {
                cause: CAUSE_ILLEGAL,
                tval: word,
                error: ErrorKind::IllegalInstruction {
                    word,
                    reason: reason.to_string(),
                },
            }))
        };
        if writes && num >> 10 == 3 {
            return illegal(&format!("write to read-only CSR {num:#x}"));
        }
        for l in lanes(mask) {
            let Some(old) = self.csr_read(w, l, num, sh) else {
                return illegal(&format!("unknown CSR {num:#x}"));
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
                self.csr_write(w, l, num, new, sh.cycle);
            }
            self.warps[w].set_x(i.rd, l, old);
        }
        Ok(())
    }

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
            csr::WEAVER_EGHW_OFFSETS => self.weaver.as_ref()?.offsets,
            csr::WEAVER_EGHW_EDGES => self.weaver.as_ref()?.edges,
            csr::WEAVER_EGHW_WEIGHTS => self.weaver.as_ref()?.weights,
            csr::WEAVER_ENTRIES => self.weaver.as_ref().map_or(0, |u| u.unit.capacity()),
            csr::WEAVER_EGHW_BUFFER => {
                let unit = self.weaver.as_ref()?;
                g.local_base + unit.buffer_of(w, g.threads)
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
                self.set_phase(v);
            }
            csr::WSIM_ITERATION => {
                self.iteration = v;
                self.iteration_mark = Some(v);
            }
            csr::WEAVER_EGHW_OFFSETS | csr::WEAVER_EGHW_EDGES | csr::WEAVER_EGHW_WEIGHTS => {
                if let Some(unit) = self.weaver.as_mut() {
                    match num {
                        csr::WEAVER_EGHW_OFFSETS => unit.offsets = v,
                        csr::WEAVER_EGHW_EDGES => unit.edges = v,
                        _ => unit.weights = v,
                    }
                }
            }
            // misa and the counters ignore writes (WARL / not modelled as writable).
            _ => {}
        }
    }

    /// A SparseWeaver instruction: the unit's answer into the warp's registers (and, for
    /// DEC_ID, its thread mask); what the unit did is left in `last` for the timing model.
    fn execute_weaver(&mut self, w: usize, mask: u32, i: &Instr, sh: &Shared) -> SimResult<()> {
        let program = |msg: String| SimError::new(ErrorKind::Program(msg));
        let Some(wv) = self.weaver.as_mut() else {
            return Err(program(
                "a SparseWeaver instruction, but this machine has no Weaver unit \
                 (weaver.enabled = off)"
                    .into(),
            ));
        };
        let warp = &mut self.warps[w];
        let c = &mut self.counters.weaver;
        let request = match i.op {
            Op::WeaverReg => {
                let mut entries = [(0, StEntry::default()); 32];
                let mut n = 0;
                for l in lanes(mask) {
                    let (vid, loc, deg) = (warp.x(i.rs1, l), warp.x(i.rs2, l), warp.x(i.rs3, l));
                    entries[n] = (l, StEntry { vid, loc, deg });
                    n += 1;
                }
                let r = wv.unit.register(w, &entries[..n]).map_err(program)?;
                c.registrations += 1;
                c.entries_registered += u64::from(r.entries);
                c.table_writes += u64::from(r.entries);
                if r.new_round {
                    c.rounds += 1;
                    c.state_visits.add(FsmState::S0, 1);
                }
                WeaverRequest::Register(r)
            }
            Op::WeaverDecId => {
                let eghw = wv.mode == WeaverMode::Eghw;
                if eghw && (wv.offsets == 0 || wv.edges == 0) {
                    return Err(program(
                        "weaver.dec_id in EGHW mode before the kernel set the graph's offsets \
                         and edges (CSRs 0x7C1 and 0x7C2)"
                            .into(),
                    ));
                }
                let touched = &mut self.touched;
                let offsets = wv.offsets;
                let mut topology = |vid: u32| {
                    let at = offsets.wrapping_add(vid.wrapping_mul(4));
                    touched.extend([at, at.wrapping_add(4)]);
                    let first = sh.mem.read_u32(at);
                    (
                        first,
                        sh.mem.read_u32(at.wrapping_add(4)).wrapping_sub(first),
                    )
                };
                let batch = wv.unit.decode(w, mask, eghw.then_some(&mut topology));
                let t = batch.trace;
                c.decode_requests += 1;
                c.edges_skipped += t.edges_skipped;
                c.table_reads += u64::from(t.entries_loaded + u32::from(t.started));
                let v = &mut c.state_visits;
                v.add(FsmState::S1, u64::from(t.started));
                v.add(FsmState::S2, u64::from(t.fills));
                v.add(FsmState::S3, u64::from(t.entries_loaded));
                v.add(FsmState::S4, u64::from(t.entries_loaded));
                v.add(FsmState::S7, u64::from(t.ran_out));
                for l in lanes(mask) {
                    warp.set_x(i.rd, l, batch.vid[l]);
                }
                if batch.work == 0 {
                    c.empty_answers += 1;
                    v.add(FsmState::S8, 1);
                } else {
                    c.batches += 1;
                    c.lanes_filled += u64::from(batch.work.count_ones());
                    c.table_writes += u64::from(batch.work.count_ones());
                    v.add(FsmState::S5, 1);
                    v.add(FsmState::S6, 1);
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
                        self.touched.push(at);
                        let weight = if wv.weights == 0 {
                            0
                        } else {
                            self.touched.push(wv.weights.wrapping_add(e));
                            sh.mem.read_u32(wv.weights.wrapping_add(e))
                        };
                        let slot = buffer + 8 * l;
                        self.local[slot..slot + 4].copy_from_slice(&neighbour.to_le_bytes());
                        self.local[slot + 4..slot + 8].copy_from_slice(&weight.to_le_bytes());
                    }
                    c.table_writes += 2 * u64::from(batch.work.count_ones());
                }
                WeaverRequest::Decode {
                    trace: t,
                    work: batch.work,
                }
            }
            Op::WeaverDecLoc => {
                for l in lanes(mask) {
                    let eid = wv.unit.location(w, l).map_err(program)?;
                    warp.set_x(i.rd, l, eid);
                }
                c.location_requests += 1;
                c.table_reads += u64::from(mask.count_ones());
                WeaverRequest::Locate(mask.count_ones())
            }
            _ => {
                for l in lanes(mask) {
                    c.edges_skipped += wv.unit.skip(warp.x(i.rs1, l));
                }
                c.skips += u64::from(mask.count_ones());
                WeaverRequest::Skip
            }
        };
        wv.last = Some(request);
        Ok(())
    }

    /// mhartid of lane `l` of warp `w`.
    fn hart(&self, w: usize, l: usize, sh: &Shared) -> u32 {
        let g = &sh.geometry;
        (self.id * g.warps + w as u32) * g.threads + l as u32
    }

    /// Whether warp `w` performs misaligned loads and stores rather than faulting: when it
    /// installed a trap handler, i.e. runs a machine-mode environment such as riscv-tests',
    /// which expects them to work as on Spike. In a kernel they are errors (almost always
    /// bugs). Atomics must always be aligned.
    fn misaligned_supported(&self, w: usize, addr: u32, width: u8) -> bool {
        !addr.is_multiple_of(u32::from(width)) && self.warps[w].trap.mtvec != 0
    }

    /// A load or a misaligned one split into bytes.
    fn load_data(&mut self, w: usize, addr: u32, width: u8, sh: &mut Shared) -> Exec<u32> {
        if !self.misaligned_supported(w, addr, width) {
            return self.load(addr, width, Access::Load, sh);
        }
        let mut value = 0;
        for k in 0..u32::from(width) {
            value |= self.load(addr.wrapping_add(k), 1, Access::Load, sh)? << (8 * k);
        }
        Ok(value)
    }

    /// A store or a misaligned one split into bytes; `Some(code)` if it ends the run.
    fn store_data(
        &mut self,
        w: usize,
        addr: u32,
        width: u8,
        value: u32,
        sh: &mut Shared,
    ) -> Exec<Option<u32>> {
        if !self.misaligned_supported(w, addr, width) {
            return self.store(addr, width, value, sh);
        }
        for k in 0..u32::from(width) {
            if let Some(code) = self.store(addr.wrapping_add(k), 1, value >> (8 * k), sh)? {
                return Ok(Some(code));
            }
        }
        Ok(None)
    }

    fn load(&mut self, addr: u32, width: u8, access: Access, sh: &mut Shared) -> Exec<u32> {
        self.check_access(addr, width, &access, sh)?;
        self.touched.push(addr);
        if let Some(off) = sh.geometry.local_offset(addr, width) {
            let b = &self.local[off..off + width as usize];
            return Ok(match width {
                1 => u32::from(b[0]),
                2 => u32::from(u16::from_le_bytes([b[0], b[1]])),
                _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            });
        }
        Ok(sh.mem.read(addr, width))
    }

    /// Store; `Some(code)` when the store ends the run (riscv-tests' `tohost`).
    fn store(&mut self, addr: u32, width: u8, value: u32, sh: &mut Shared) -> Exec<Option<u32>> {
        self.check_access(addr, width, &Access::Store, sh)?;
        self.touched.push(addr);
        if let Some(off) = sh.geometry.local_offset(addr, width) {
            self.local[off..off + width as usize]
                .copy_from_slice(&value.to_le_bytes()[..width as usize]);
            return Ok(None);
        }
        sh.invalidate_reservations(addr);
        sh.store(addr, width, value).map_err(Err)
    }

    fn check_access(&self, addr: u32, width: u8, access: &Access, sh: &Shared) -> Exec<()> {
        if !addr.is_multiple_of(u32::from(width)) {
            let cause = if matches!(access, Access::Load) {
                CAUSE_MISALIGNED_LOAD
            } else {
                CAUSE_MISALIGNED_STORE
            };
            return Err(Ok(Trap {
                cause,
                tval: addr,
                error: ErrorKind::Misaligned {
                    what: access.name(),
                    addr,
                    width,
                },
            }));
        }
        let g = &sh.geometry;
        if addr < g.null_guard {
            return Err(Err(SimError::new(ErrorKind::Unmapped {
                what: access.name(),
                addr,
                reason: "below io.null_guard: a null pointer?",
            })));
        }
        if addr >= g.local_base && g.local_offset(addr, width).is_none() {
            let end = u64::from(g.local_base) + u64::from(g.local_size) + (1 << 20);
            if u64::from(addr) < end {
                return Err(Err(SimError::new(ErrorKind::Unmapped {
                    what: access.name(),
                    addr,
                    reason: "past the end of local memory",
                })));
            }
        }
        Ok(())
    }

    fn arrive_local(&mut self, w: usize, id: u32, count: u32) {
        let (_, arrived) = self.barriers.entry(id).or_insert((count, 0));
        *arrived |= 1 << w;
        if arrived.count_ones() >= count {
            let (_, released) = self.barriers.remove(&id).unwrap_or_default();
            for k in lanes(released) {
                self.warps[k].wait = WarpWait::Ready;
                self.pipe.wake(k);
            }
        } else {
            self.warps[w].wait = WarpWait::Barrier { id };
        }
    }
}

fn misaligned_target(target: u32) -> Trap {
    Trap {
        cause: CAUSE_MISALIGNED_FETCH,
        tval: target,
        error: ErrorKind::Misaligned {
            what: "jump target",
            addr: target,
            width: 4,
        },
    }
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
