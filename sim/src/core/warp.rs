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
    /// Parked (`Machine::park_warp`): it issues nothing more; nothing releases it.
    Parked,
}

#[derive(Clone, Debug)]
pub struct Warp {
    pub stack: SimtStack,
    pub splits: Vec<SplitEntry>,
    pub wait: WarpWait,
    /// Integer registers, register-major: `x[r][lane]`, 32 lanes whatever the warp's
    /// width (lanes past it are never active): a register and a lane from an instruction
    /// index them without a bounds check, and a row is one vector.
    x: Box<[[u32; 32]; 32]>,
    f: Box<[[u32; 32]; 32]>,
    pub fflags: [u8; 32],
    pub frm: [u8; 32],
    pub mscratch: [u32; 32],
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
    pub fn new() -> Self {
        Warp {
            stack: SimtStack::default(),
            splits: Vec::new(),
            wait: WarpWait::Ready,
            x: Box::new([[0; 32]; 32]),
            f: Box::new([[0; 32]; 32]),
            fflags: [0; 32],
            frm: [0; 32],
            mscratch: [0; 32],
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

    /// Integer register `reg` of every lane.
    #[inline]
    pub fn x_row(&self, reg: u8) -> &[u32; 32] {
        &self.x[usize::from(reg & 31)]
    }

    #[inline]
    pub fn x(&self, reg: u8, lane: usize) -> u32 {
        self.x[usize::from(reg & 31)][lane & 31]
    }

    /// Write an integer register; writes to x0 are discarded.
    #[inline]
    pub fn set_x(&mut self, reg: u8, lane: usize, value: u32) {
        if reg != 0 {
            self.x[usize::from(reg & 31)][lane & 31] = value;
        }
    }

    /// `rd = f(rs1, b)` on the lanes of `mask`, `b` per lane from `rs2` or one immediate:
    /// whole register rows at a time (a loop the compiler vectorises) rather than lane by
    /// lane. `f` runs on every lane (it must not panic); the inactive lanes keep their
    /// values.
    #[inline(always)]
    pub fn alu_rows(
        &mut self,
        rd: u8,
        rs1: u8,
        b: Operand,
        mask: u32,
        f: impl Fn(u32, u32) -> u32,
    ) {
        if rd == 0 {
            return;
        }
        let a = &self.x[usize::from(rs1 & 31)];
        let b = match b {
            Operand::Reg(rs2) => self.x[usize::from(rs2 & 31)],
            Operand::Imm(imm) => [imm; 32],
        };
        let mut out = [0u32; 32];
        for l in 0..32 {
            out[l] = f(a[l], b[l]);
        }
        // A select per lane rather than a branch: one vector blend.
        let dst = &mut self.x[usize::from(rd & 31)];
        for (l, d) in dst.iter_mut().enumerate() {
            let keep = (mask >> l & 1).wrapping_sub(1);
            *d = out[l] & !keep | *d & keep;
        }
    }

    #[inline]
    pub fn f(&self, reg: u8, lane: usize) -> u32 {
        self.f[usize::from(reg & 31)][lane & 31]
    }

    #[inline]
    pub fn set_f(&mut self, reg: u8, lane: usize, value: u32) {
        self.f[usize::from(reg & 31)][lane & 31] = value;
    }
}

/// The second operand of a row-wise ALU operation ([`Warp::alu_rows`]).
#[derive(Clone, Copy, Debug)]
pub enum Operand {
    Reg(u8),
    Imm(u32),
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
