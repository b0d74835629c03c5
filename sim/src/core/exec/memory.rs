//! Loads, stores and atomics (RV32I, F's flw/fsw, A): global memory, the core's local
//! memory, the I/O words, LR reservations; alignment and mapping checks. Every address an
//! access touches goes into the record for the LSU.

use wsim_isa::{Instr, Op};

use super::{
    Effect, ExecResult, Executed, MemoryOp, Next, Trap, CAUSE_MISALIGNED_LOAD,
    CAUSE_MISALIGNED_STORE,
};
use crate::core::fpu;
use crate::core::warp::{lanes, Warp};
use crate::core::Core;
use crate::error::{ErrorKind, SimError};
use crate::shared::Shared;

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
    pub(super) fn load_op(
        &mut self,
        w: usize,
        mask: u32,
        i: &Instr,
        sh: &mut Shared,
        rec: &mut Executed,
    ) -> ExecResult<Next> {
        let (width, signed) = match i.op {
            Op::Lb => (1, true),
            Op::Lh => (2, true),
            Op::Lbu => (1, false),
            Op::Lhu => (2, false),
            _ => (4, false),
        };
        if let Some(addrs) = self.ordinary_addresses(w, mask, i, width, sh) {
            let warp = &mut self.warps[w];
            for l in lanes(mask) {
                rec.accesses.push(addrs[l]);
                let raw = sh.mem.read(addrs[l], width);
                write_back(warp, i, l, raw, width, signed);
            }
        } else {
            for l in lanes(mask) {
                let addr = self.warps[w].x(i.rs1, l).wrapping_add(i.imm as u32);
                self.stack_guard(w, l, addr, &Access::Load, sh)?;
                let raw = self.load_data(w, addr, width, sh, rec)?;
                write_back(&mut self.warps[w], i, l, raw, width, signed);
            }
        }
        rec.events.memory = Some(MemoryOp::Load);
        Ok(Next::Advance)
    }

    pub(super) fn store_op(
        &mut self,
        w: usize,
        mask: u32,
        i: &Instr,
        sh: &mut Shared,
        rec: &mut Executed,
    ) -> ExecResult<Next> {
        let width = match i.op {
            Op::Sb => 1,
            Op::Sh => 2,
            _ => 4,
        };
        if let Some(addrs) = self.ordinary_addresses(w, mask, i, width, sh) {
            let warp = &self.warps[w];
            for l in lanes(mask) {
                rec.accesses.push(addrs[l]);
                sh.mem.write(addrs[l], width, stored(warp, i, l));
            }
        } else {
            for l in lanes(mask) {
                let addr = self.warps[w].x(i.rs1, l).wrapping_add(i.imm as u32);
                let v = stored(&self.warps[w], i, l);
                self.stack_guard(w, l, addr, &Access::Store, sh)?;
                if let Some(code) = self.store_data(w, addr, width, v, sh, rec)? {
                    rec.effect = Effect::Exit(code);
                    return Ok(Next::Advance);
                }
            }
        }
        rec.events.memory = Some(MemoryOp::Store);
        Ok(Next::Advance)
    }

    pub(super) fn atomic(
        &mut self,
        w: usize,
        mask: u32,
        i: &Instr,
        sh: &mut Shared,
        rec: &mut Executed,
    ) -> ExecResult<Next> {
        // Lanes apply in lane order, so the results of colliding lanes are deterministic.
        for l in lanes(mask) {
            let hart = self.hart(w, l, sh);
            let warp = &self.warps[w];
            let addr = warp.x(i.rs1, l);
            // One access per lane: its load and store are one operation at the atomic unit.
            let recorded = rec.accesses.len() + 1;
            let src = if i.op == Op::AmoaddF {
                warp.f(i.rs2, l)
            } else {
                warp.x(i.rs2, l)
            };
            let old = self.load(addr, 4, Access::Atomic, sh, rec)?;
            let result = match i.op {
                Op::LrW => {
                    sh.reserve(hart, addr);
                    old
                }
                Op::ScW => {
                    if sh.take_reservation(hart, addr) {
                        self.store(addr, 4, src, sh, rec)?;
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
                        Op::AmoaddF => float_add(old, src),
                        _ => old.max(src),
                    };
                    self.store(addr, 4, new, sh, rec)?;
                    old
                }
            };
            rec.accesses.truncate(recorded);
            if i.op == Op::AmoaddF {
                self.warps[w].set_f(i.rd, l, result);
            } else {
                self.warps[w].set_x(i.rd, l, result);
            }
        }
        rec.events.memory = Some(MemoryOp::Atomic);
        Ok(Next::Advance)
    }

    /// The lanes' addresses of a load or store (`rs1 + imm`, a row at a time) when every
    /// one is an ordinary aligned access of memory, so no lane can fault or reach more
    /// than memory: the lowest to the highest lies in one mapped span clear of local
    /// memory and the I/O words (`Shared::ordinary`), and of the stacks or each lane in
    /// its own stack (what `stack_guard` allows). `None` sends the instruction lane by lane.
    #[inline(always)]
    fn ordinary_addresses(
        &self,
        w: usize,
        mask: u32,
        i: &Instr,
        width: u8,
        sh: &Shared,
    ) -> Option<[u32; 32]> {
        let base = self.warps[w].x_row(i.rs1);
        let addrs: [u32; 32] = std::array::from_fn(|l| base[l].wrapping_add(i.imm as u32));
        let (mut lo, mut hi, mut bits) = (u32::MAX, 0, 0);
        for l in lanes(mask) {
            lo = lo.min(addrs[l]);
            hi = hi.max(addrs[l]);
            bits |= addrs[l];
        }
        let end = u64::from(hi) + u64::from(width);
        let g = &sh.geometry;
        let own_stacks = || {
            let hart = self.hart(w, 0, sh);
            (addrs.iter().enumerate())
                .all(|(l, &a)| mask >> l & 1 == 0 || g.stack_owner(a) == Some(hart + l as u32))
        };
        let ordinary = mask != 0
            && !misaligned(bits, width)
            && sh.ordinary(lo, end)
            && (g.clear_of_stacks(lo, end) || own_stacks());
        ordinary.then_some(addrs)
    }

    /// mhartid of lane `l` of warp `w`.
    pub(super) fn hart(&self, w: usize, l: usize, sh: &Shared) -> u32 {
        let g = &sh.geometry;
        (self.id * g.warps + w as u32) * g.threads + l as u32
    }

    /// The guard below every thread's stack: lane `l` of warp `w` reaching below its own
    /// stack, into another thread's (which the memory map allows) or just below every stack
    /// (which it does not), has overflowed it rather than followed a wild pointer. Stacks
    /// above its own stay reachable: `wsim_spawn`'s argument may live on `main`'s.
    #[inline]
    fn stack_guard(
        &self,
        w: usize,
        l: usize,
        addr: u32,
        access: &Access,
        sh: &Shared,
    ) -> ExecResult<()> {
        let g = &sh.geometry;
        let a = u64::from(addr);
        if a >= g.stack_top || a + (1 << g.stack_log2) < g.stack_bottom {
            return Ok(());
        }
        let hart = self.hart(w, l, sh);
        let owner = match g.stack_owner(addr) {
            Some(owner) if owner > hart => Some(owner),
            None if g.map.check(addr, 1, access.name()).is_err() => None,
            _ => return Ok(()),
        };
        Err(SimError::new(ErrorKind::StackOverflow {
            what: access.name(),
            addr,
            hart,
            stack: g.stack_of(hart),
            owner,
        })
        .into())
    }

    /// Whether warp `w` performs misaligned loads and stores rather than faulting: when it
    /// installed a trap handler, i.e. runs a machine-mode environment such as riscv-tests',
    /// which expects them to work as on Spike. In a kernel they are errors (almost always
    /// bugs). Atomics must always be aligned.
    fn misaligned_supported(&self, w: usize, addr: u32, width: u8) -> bool {
        misaligned(addr, width) && self.warps[w].trap.mtvec != 0
    }

    /// A load or a misaligned one split into bytes.
    #[inline(always)]
    fn load_data(
        &mut self,
        w: usize,
        addr: u32,
        width: u8,
        sh: &mut Shared,
        rec: &mut Executed,
    ) -> ExecResult<u32> {
        if !self.misaligned_supported(w, addr, width) {
            return self.load(addr, width, Access::Load, sh, rec);
        }
        let mut value = 0;
        for k in 0..u32::from(width) {
            value |= self.load(addr.wrapping_add(k), 1, Access::Load, sh, rec)? << (8 * k);
        }
        Ok(value)
    }

    /// A store or a misaligned one split into bytes; `Some(code)` if it ends the run.
    #[inline(always)]
    fn store_data(
        &mut self,
        w: usize,
        addr: u32,
        width: u8,
        value: u32,
        sh: &mut Shared,
        rec: &mut Executed,
    ) -> ExecResult<Option<u32>> {
        if !self.misaligned_supported(w, addr, width) {
            return self.store(addr, width, value, sh, rec);
        }
        for k in 0..u32::from(width) {
            let byte = value >> (8 * k);
            if let Some(code) = self.store(addr.wrapping_add(k), 1, byte, sh, rec)? {
                return Ok(Some(code));
            }
        }
        Ok(None)
    }

    #[inline(always)]
    fn load(
        &mut self,
        addr: u32,
        width: u8,
        access: Access,
        sh: &mut Shared,
        rec: &mut Executed,
    ) -> ExecResult<u32> {
        check_access(addr, width, &access, sh)?;
        rec.accesses.push(addr);
        if let Some(off) = sh.geometry.local_offset(addr, width) {
            return Ok(self.local.read(off, width));
        }
        Ok(sh.mem.read(addr, width))
    }

    /// Store; `Some(code)` when the store ends the run (riscv-tests' `tohost`).
    #[inline(always)]
    fn store(
        &mut self,
        addr: u32,
        width: u8,
        value: u32,
        sh: &mut Shared,
        rec: &mut Executed,
    ) -> ExecResult<Option<u32>> {
        check_access(addr, width, &Access::Store, sh)?;
        rec.accesses.push(addr);
        if let Some(off) = sh.geometry.local_offset(addr, width) {
            self.local.write(off, width, value);
            return Ok(None);
        }
        sh.invalidate_reservations(addr);
        Ok(sh.store(addr, width, value)?)
    }
}

/// Lane `l`'s loaded `raw` value into load `i`'s destination, sign-extended as it asks.
#[inline(always)]
fn write_back(warp: &mut Warp, i: &Instr, l: usize, raw: u32, width: u8, signed: bool) {
    let v = match (width, signed) {
        (1, true) => raw as u8 as i8 as u32,
        (2, true) => raw as u16 as i16 as u32,
        _ => raw,
    };
    if i.op == Op::Flw {
        warp.set_f(i.rd, l, v);
    } else {
        warp.set_x(i.rd, l, v);
    }
}

/// The value store `i` writes from lane `l`.
#[inline(always)]
fn stored(warp: &Warp, i: &Instr, l: usize) -> u32 {
    if i.op == Op::Fsw {
        warp.f(i.rs2, l)
    } else {
        warp.x(i.rs2, l)
    }
}

/// amoadd.f's sum: IEEE single precision, round to nearest even. Like a GPU's atomic add,
/// it raises no exception flags (fflags is per lane and the sum happens in memory).
fn float_add(a: u32, b: u32) -> u32 {
    let (sum, _flags) = fpu::execute(Op::FaddS, a, b, 0, 0).expect("fadd.s is an FPU operation");
    sum
}

/// `addr` is not a multiple of `width` (1, 2 or 4): a mask, not a division.
#[inline]
fn misaligned(addr: u32, width: u8) -> bool {
    addr & (u32::from(width) - 1) != 0
}

#[inline(always)]
fn check_access(addr: u32, width: u8, access: &Access, sh: &Shared) -> ExecResult<()> {
    if misaligned(addr, width) {
        let cause = if matches!(access, Access::Load) {
            CAUSE_MISALIGNED_LOAD
        } else {
            CAUSE_MISALIGNED_STORE
        };
        return Err(Trap {
            cause,
            tval: addr,
            error: ErrorKind::Misaligned {
                what: access.name(),
                addr,
                width,
            },
        }
        .into());
    }
    let g = &sh.geometry;
    let unmapped = |reason| {
        SimError::new(ErrorKind::Unmapped {
            what: access.name(),
            addr,
            reason,
        })
        .into()
    };
    if addr < g.null_guard {
        return Err(unmapped("below io.null_guard: a null pointer?"));
    }
    let mapped = g.map.check(addr, width, access.name());
    // An unmapped access just past local memory is most likely an index run past it; a
    // mapped one there (I/O words, the program's data) is just an access.
    if mapped.is_err() && addr >= g.local_base && g.local_offset(addr, width).is_none() {
        let end = u64::from(g.local_base) + u64::from(g.local_size) + (1 << 20);
        if u64::from(addr) < end {
            return Err(unmapped("past the end of local memory"));
        }
    }
    Ok(mapped?)
}
