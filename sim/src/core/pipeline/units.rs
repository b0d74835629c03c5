//! The functional units (ALU, MUL, DIV, FPU with its unpipelined divide/square-root unit,
//! LSU, SFU): when each can accept its next instruction, how long a result takes, and the
//! register banks operands are read from.

use wsim_isa::{Decoded, FpuClass, RegFile, RegRef, SfuKind, Unit};

use super::scoreboard::Producer;
use crate::core::exec::Executed;
use crate::core::Core;

/// Functional units of a core: the cycle each can accept its next instruction.
#[derive(Clone, Debug, Default)]
pub(in crate::core) struct Units([u64; 7]);

impl Units {
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

    pub(in crate::core) fn free_at(&self, unit: Unit) -> u64 {
        self.0[Self::index(unit)]
    }

    pub(super) fn occupy_until(&mut self, unit: Unit, cycle: u64) {
        self.0[Self::index(unit)] = cycle;
    }

    /// Occupy `unit` for `cycles` more, after what it already does.
    pub(in crate::core) fn hold(&mut self, unit: Unit, now: u64, cycles: u64) {
        let free = &mut self.0[Self::index(unit)];
        *free = (*free).max(now) + cycles;
    }
}

impl Core {
    /// Unit occupancy, result latency and memory requests of an issued instruction; for a
    /// Weaver decode, when the unit answers (`NEVER`: when its memory reads complete).
    pub(super) fn schedule(
        &mut self,
        w: usize,
        d: &Decoded,
        active: u32,
        now: u64,
        rec: &mut Executed,
    ) -> Option<u64> {
        let p = &self.pipe.p;
        let lat = &p.lat;
        let groups = |lanes: u32| u64::from(active.max(1).div_ceil(lanes));
        let conflicts = register_bank_conflicts(&d.info.srcs, p.register_banks);
        self.counters.register_bank_conflicts += conflicts;
        let (latency, occupancy, producer) = match d.info.unit {
            Unit::Alu => {
                self.counters.alu += 1;
                (lat.alu, groups(p.alu_lanes), Producer::Alu)
            }
            Unit::Mul => {
                self.counters.mul += 1;
                (lat.mul, groups(p.alu_lanes), Producer::Alu)
            }
            Unit::Div => {
                self.counters.div += 1;
                let occupancy = u64::from(lat.div) * groups(p.alu_lanes);
                (lat.div, occupancy, Producer::Alu)
            }
            Unit::Fpu(class) => {
                self.counters.fpu += 1;
                let l = match class {
                    FpuClass::AddMul => lat.fpu_fma,
                    FpuClass::Div | FpuClass::Sqrt => lat.fpu_div,
                    FpuClass::Cvt => lat.fpu_cvt,
                    FpuClass::Compare | FpuClass::Move => lat.fpu_misc,
                };
                let pipelined = !matches!(class, FpuClass::Div | FpuClass::Sqrt);
                let occ = if pipelined {
                    groups(p.fpu_lanes)
                } else {
                    u64::from(l) * groups(p.fpu_lanes)
                };
                (l, occ, Producer::Fpu)
            }
            Unit::Sfu(SfuKind::Weaver) => {
                self.counters.sfu += 1;
                let occupancy = groups(p.sfu_lanes);
                self.pipe
                    .units
                    .occupy_until(d.info.unit, now + occupancy + conflicts);
                let request = rec
                    .weaver
                    .take()
                    .expect("a Weaver instruction asks the unit");
                let at = now + conflicts + occupancy - 1;
                return self.schedule_weaver(w, d, at, request, &rec.accesses);
            }
            Unit::Sfu(_) => {
                self.counters.sfu += 1;
                (lat.sfu, groups(p.sfu_lanes), Producer::Sfu)
            }
            Unit::Lsu(kind) => {
                self.counters.lsu += 1;
                self.pipe
                    .units
                    .occupy_until(d.info.unit, now + groups(p.lsu_lanes) + conflicts);
                self.schedule_memory(w, d, kind, now + conflicts, &rec.accesses);
                return None;
            }
        };
        self.pipe
            .units
            .occupy_until(d.info.unit, now + occupancy + conflicts);
        if let Some(dst) = d.info.dst {
            let at = now + u64::from(latency) + conflicts + occupancy - 1;
            self.pipe.scoreboard[w].set_ready(dst, at, producer);
        }
        None
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
