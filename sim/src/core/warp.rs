//! Architectural state of one warp: per-lane registers (structure of arrays), the SIMT
//! stacks, per-lane floating-point CSRs and the warp's machine-mode trap CSRs.

use super::simt_stack::SimtStack;

/// Vortex's explicit SPLIT/JOIN stack entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitEntry {
    /// Mask to restore (fall-through entry) or the else-path's lanes.
    pub mask: u32,
    /// Where the else path starts (the instruction after the SPLIT).
    pub pc: u32,
    /// `true`: restore `mask` and go on; `false`: run the else path from `pc`.
    pub fallthrough: bool,
}

/// Machine-mode trap state. A warp traps as a unit, so these are per warp, not per lane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrapCsrs {
    pub mstatus: u32,
    pub medeleg: u32,
    pub mideleg: u32,
    pub mie: u32,
    pub mtvec: u32,
    pub mepc: u32,
    pub mcause: u32,
    pub mtval: u32,
    pub mip: u32,
    pub satp: u32,
    pub pmpcfg0: u32,
    pub pmpaddr0: u32,
}

/// Why a warp is not eligible to issue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpWait {
    Ready,
    /// Arrived at barrier `id` (global if bit 31 is set) and waits for the others.
    Barrier {
        id: u32,
    },
}

#[derive(Clone, Debug)]
pub struct Warp {
    pub stack: SimtStack,
    pub splits: Vec<SplitEntry>,
    pub wait: WarpWait,
    threads: usize,
    /// Integer registers, register-major: `x[r * threads + lane]`.
    x: Vec<u32>,
    f: Vec<u32>,
    pub fflags: Vec<u8>,
    pub frm: Vec<u8>,
    pub mscratch: Vec<u32>,
    pub trap: TrapCsrs,
    /// Warp instructions retired.
    pub instret: u64,
    /// The statistics phase this warp last wrote (CSR 0x7C0; from launch, its spawner's),
    /// and the cycle
    /// from which its time in that phase is not yet counted.
    pub phase: u32,
    pub phase_since: u64,
}

impl Warp {
    pub fn new(threads: u32) -> Self {
        let t = threads as usize;
        Warp {
            stack: SimtStack::default(),
            splits: Vec::new(),
            wait: WarpWait::Ready,
            threads: t,
            x: vec![0; 32 * t],
            f: vec![0; 32 * t],
            fflags: vec![0; t],
            frm: vec![0; t],
            mscratch: vec![0; t],
            trap: TrapCsrs::default(),
            instret: 0,
            phase: 0,
            phase_since: 0,
        }
    }

    /// Whether the warp has live lanes.
    #[inline]
    pub fn is_live(&self) -> bool {
        !self.stack.is_empty()
    }

    /// Start at `pc` with `mask` at cycle `now` in statistics phase `phase`, clearing
    /// control state (registers keep their values, as in hardware).
    pub fn launch(&mut self, pc: u32, mask: u32, now: u64, phase: u32) {
        self.stack.start(pc, mask);
        self.phase = phase;
        self.phase_since = now;
        self.splits.clear();
        self.wait = WarpWait::Ready;
    }

    #[inline]
    pub fn x(&self, reg: u8, lane: usize) -> u32 {
        self.x[reg as usize * self.threads + lane]
    }

    /// Write an integer register; writes to x0 are discarded.
    #[inline]
    pub fn set_x(&mut self, reg: u8, lane: usize, value: u32) {
        if reg != 0 {
            self.x[reg as usize * self.threads + lane] = value;
        }
    }

    #[inline]
    pub fn f(&self, reg: u8, lane: usize) -> u32 {
        self.f[reg as usize * self.threads + lane]
    }

    #[inline]
    pub fn set_f(&mut self, reg: u8, lane: usize, value: u32) {
        self.f[reg as usize * self.threads + lane] = value;
    }
}

/// Iterate over the set bits of a lane mask, lowest first.
#[inline]
pub fn lanes(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let lane = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(lane)
        }
    })
}
