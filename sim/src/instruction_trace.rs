//! The instruction trace (`wsim run --trace-instructions`): each warp instruction issued,
//! as its cycle, core, warp, PC and active lanes, for the cores, warps, PCs and cycles a
//! [`TraceFilter`] keeps, up to its limit (those past it are counted, not kept). The
//! cores record at issue through [`crate::shared::Shared`], one `Option` checked per issue
//! when no trace is asked for; the host turns the records into text. No I/O.

/// Which issued instructions a trace keeps: ranges are inclusive, a `None` keeps all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceFilter {
    pub cores: Option<(u32, u32)>,
    pub warps: Option<(u32, u32)>,
    pub pcs: Option<(u32, u32)>,
    pub cycles: Option<(u64, u64)>,
    /// The most records kept.
    pub limit: usize,
}

impl TraceFilter {
    fn keeps(&self, r: &Issued) -> bool {
        let within =
            |range: Option<(u32, u32)>, v: u32| range.is_none_or(|(a, b)| a <= v && v <= b);
        within(self.cores, r.core)
            && within(self.warps, r.warp)
            && within(self.pcs, r.pc)
            && self
                .cycles
                .is_none_or(|(a, b)| a <= r.cycle && r.cycle <= b)
    }
}

/// One warp instruction issued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Issued {
    pub cycle: u64,
    pub core: u32,
    pub warp: u32,
    pub pc: u32,
    /// The lanes active when it issued.
    pub lanes: u32,
}

/// The records so far, in issue order (by cycle, then core).
#[derive(Clone, Debug)]
pub struct InstructionTrace {
    pub filter: TraceFilter,
    pub records: Vec<Issued>,
    /// Instructions the filter kept past its limit.
    pub left_out: u64,
}

impl InstructionTrace {
    pub fn new(filter: TraceFilter) -> Self {
        InstructionTrace {
            filter,
            records: Vec::new(),
            left_out: 0,
        }
    }

    /// An instruction issued: kept if the filter keeps it and the limit allows.
    pub fn issued(&mut self, r: Issued) {
        if !self.filter.keeps(&r) {
            return;
        }
        if self.records.len() < self.filter.limit {
            self.records.push(r);
        } else {
            self.left_out += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_keeps_what_its_filter_does_up_to_its_limit() {
        let mut t = InstructionTrace::new(TraceFilter {
            cores: Some((1, 1)),
            warps: None,
            pcs: Some((0x100, 0x1ff)),
            cycles: Some((10, 20)),
            limit: 2,
        });
        let at = |cycle, core, pc| Issued {
            cycle,
            core,
            warp: 3,
            pc,
            lanes: 1,
        };
        for r in [
            at(9, 1, 0x100),
            at(10, 0, 0x100),
            at(10, 1, 0x200),
            at(10, 1, 0x1fc),
        ] {
            t.issued(r);
        }
        assert_eq!(t.records, [at(10, 1, 0x1fc)]);
        t.issued(at(20, 1, 0x100));
        t.issued(at(20, 1, 0x104));
        assert_eq!(t.records.len(), 2);
        assert_eq!(t.left_out, 1);
    }
}
