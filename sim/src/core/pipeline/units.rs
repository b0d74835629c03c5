//! The functional units (ALU, MUL, DIV, FPU with its unpipelined divide/square-root unit,
//! LSU, SFU): when each can accept its next instruction, how long a result takes, and the
//! register banks operands are read from.

use wsim_isa::{Decoded, Flow, FpuClass, RegFile, RegRef, SfuKind, Unit};

use super::scoreboard::Producer;
use crate::core::exec::Executed;
use crate::core::Core;

/// Functional units of a core: the cycle each can accept its next instruction, and the
/// instructions each holds between dispatch and commit.
#[derive(Clone, Debug, Default)]
pub(in crate::core) struct Units {
    free: [u64; 7],
    /// Per queue ([`Units::queue`]), the cycles its instructions leave the unit: a new one
    /// enters only when one has left (Vortex SimX: a unit's output channel holds 2,
    /// `SimChannel` capacity, `FuncUnit` outputs). Empty: no limit.
    exits: [Vec<u64>; 3],
    /// Per queue, the first cycle an instruction may issue into it: the earliest exit
    /// less the dispatch latency (0 without a limit).
    queue_free: [u64; 3],
    dispatch: u64,
}

impl Units {
    /// `queue` instructions per unit (0: no limit), reached `dispatch` cycles after issue.
    pub(super) fn new(queue: usize, dispatch: u64) -> Self {
        Units {
            free: [0; 7],
            exits: std::array::from_fn(|_| vec![0; queue]),
            queue_free: [0; 3],
            dispatch,
        }
    }

    /// The unit an instruction occupies (fdiv/fsqrt have their own, unpipelined one).
    fn index(unit: Unit) -> usize {
        match unit {
            Unit::Alu => 0,
            Unit::Mul => 1,
            Unit::Div => 2,
            Unit::Fpu(FpuClass::Div | FpuClass::Sqrt) => 3,
            Unit::Fpu(_) => 4,
            Unit::Lsu(_) => 5,
            Unit::Sfu(_) => 6,
        }
    }

    /// The output queue an instruction's result waits in: SimX's ALU unit holds integer
    /// multiply and divide too, its FPU the divider; the LSU has its own queue and the
    /// Weaver its own timing.
    fn queue(unit: Unit) -> Option<usize> {
        match unit {
            Unit::Alu | Unit::Mul | Unit::Div => Some(0),
            Unit::Fpu(_) => Some(1),
            Unit::Sfu(SfuKind::Weaver) | Unit::Lsu(_) => None,
            Unit::Sfu(_) => Some(2),
        }
    }

    /// The first cycle an instruction for `unit` can issue.
    #[inline]
    pub(in crate::core) fn free_at(&self, unit: Unit) -> u64 {
        let free = self.free[Self::index(unit)];
        let queued = Self::queue(unit).map_or(0, |q| self.queue_free[q]);
        free.max(queued)
    }

    pub(super) fn occupy_until(&mut self, unit: Unit, cycle: u64) {
        self.free[Self::index(unit)] = cycle;
    }

    /// An instruction entered `unit`'s queue; it leaves at `exit`.
    fn enter(&mut self, unit: Unit, exit: u64) {
        if let Some(q) = Self::queue(unit) {
            if let Some(slot) = self.exits[q].iter_mut().min() {
                *slot = exit;
            }
            self.queue_free[q] =
                (self.exits[q].iter().min()).map_or(0, |&exit| exit.saturating_sub(self.dispatch));
        }
    }

    /// Occupy `unit` for `cycles` more, after what it already does.
    pub(in crate::core) fn hold(&mut self, unit: Unit, now: u64, cycles: u64) {
        let free = &mut self.free[Self::index(unit)];
        *free = (*free).max(now) + cycles;
    }
}

impl Core {
    /// Unit occupancy, result latency and memory requests of an issued instruction (at
    /// `pc`). The
    /// cycle it leaves its unit where that is known at issue (`NEVER` for a Weaver decode
    /// whose memory reads are still to complete); `None` for memory instructions and the
    /// Weaver's other requests.
    pub(super) fn schedule(
        &mut self,
        w: usize,
        pc: u32,
        d: &Decoded,
        active: u32,
        now: u64,
        rec: &mut Executed,
    ) -> Option<u64> {
        self.count_unit(d.info.unit);
        let p = &self.pipe.p;
        let lat = &p.lat;
        let groups = |lanes: u32| u64::from(active.max(1).div_ceil(lanes));
        let conflicts = register_bank_conflicts(&d.info.srcs, p.register_banks);
        self.counters.register_bank_conflicts += conflicts;
        let reach = p.reaches_unit(w, now + p.dispatch + conflicts);
        // (result latency, cycles between two groups of lanes, occupancy, producer)
        let (latency, interval, occupancy, producer) = match d.info.unit {
            Unit::Alu => {
                let l = if d.info.flow == Flow::None {
                    lat.alu
                } else {
                    lat.branch
                };
                (l, 1, groups(p.alu_lanes), Producer::Alu)
            }
            Unit::Mul => (lat.mul, 1, groups(p.alu_lanes), Producer::Alu),
            Unit::Div => {
                let interval = u64::from(lat.div);
                (
                    lat.div,
                    interval,
                    interval * groups(p.alu_lanes),
                    Producer::Alu,
                )
            }
            Unit::Fpu(class) => {
                let l = match class {
                    FpuClass::AddMul => lat.fpu_fma,
                    FpuClass::Div | FpuClass::Sqrt => lat.fpu_div,
                    FpuClass::Cvt => lat.fpu_cvt,
                    FpuClass::Compare | FpuClass::Move => lat.fpu_misc,
                };
                let pipelined = !matches!(class, FpuClass::Div | FpuClass::Sqrt);
                let interval = if pipelined { 1 } else { u64::from(l) };
                (l, interval, interval * groups(p.fpu_lanes), Producer::Fpu)
            }
            Unit::Sfu(SfuKind::Weaver) => {
                let occupancy = groups(p.sfu_lanes);
                self.pipe
                    .units
                    .occupy_until(d.info.unit, now + occupancy + conflicts);
                let request = rec
                    .weaver
                    .take()
                    .expect("a Weaver instruction asks the unit");
                let at = reach + occupancy - 1;
                return self.schedule_weaver(w, pc, d, at, request, &rec.accesses);
            }
            Unit::Sfu(_) => {
                // ecall and its kind run on Vortex's ALU, as branches.
                let l = if d.info.flow == Flow::System {
                    lat.branch
                } else {
                    lat.sfu
                };
                (l, 1, groups(p.sfu_lanes), Producer::Sfu)
            }
            Unit::Lsu(kind) => {
                self.pipe
                    .units
                    .occupy_until(d.info.unit, now + groups(p.lsu_lanes) + conflicts);
                self.schedule_memory(w, pc, d, kind, reach, &rec.accesses);
                return None;
            }
        };
        self.pipe
            .units
            .occupy_until(d.info.unit, now + occupancy + conflicts);
        // It reaches the unit after dispatch and leaves it with its last group's result.
        let exit = reach + u64::from(latency) + occupancy - interval;
        self.pipe.units.enter(d.info.unit, exit);
        if let Some(dst) = d.info.dst {
            self.pipe.written_back(w, dst, exit, producer);
        }
        Some(exit)
    }
}

/// Extra cycles to read the source registers: each register beyond the first in one bank.
fn register_bank_conflicts(srcs: &[Option<RegRef>; 3], banks: u32) -> u64 {
    // Register numbers are below 32, so are their banks: one bit per register (integer
    // then float) and one per bank read.
    let (mut seen, mut used, mut extra) = (0u64, 0u32, 0);
    for r in srcs.iter().flatten() {
        let reg = 1 << (u32::from(r.num) + 32 * u32::from(r.file == RegFile::Float));
        if seen & reg != 0 {
            continue;
        }
        seen |= reg;
        let bank = 1 << (u32::from(r.num) % banks);
        extra += u64::from(used & bank != 0);
        used |= bank;
    }
    extra
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(num: u8) -> Option<RegRef> {
        Some(RegRef {
            file: RegFile::Int,
            num,
        })
    }

    #[test]
    fn register_banks() {
        assert_eq!(register_bank_conflicts(&[r(1), r(2), None], 4), 0);
        assert_eq!(register_bank_conflicts(&[r(1), r(5), None], 4), 1);
        assert_eq!(
            register_bank_conflicts(&[r(1), r(1), None], 4),
            0,
            "one read of one register"
        );
        assert_eq!(register_bank_conflicts(&[r(1), r(5), r(9)], 4), 2);
    }
}
