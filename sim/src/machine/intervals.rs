//! The run cut into intervals, one recorder for every kind: the program's iterations (its
//! writes of CSR 0x7C6) and its launches (`vx_wspawn`). A record holds every core's
//! counters over its interval, summed, and the memory system's events in it (whole-run
//! totals differenced). The machine hands the counters the cores flushed since its last
//! cut to every open interval ([`Intervals::add`]), so a kind is one more [`Series`], not
//! a copy of the cutting.

use crate::stats::{CoreCounters, Iteration, LaunchRecord, MemoryTally, Merge};

/// A record a series keeps: it learns its extent when it closes.
pub(super) trait Record {
    fn start_cycle(&self) -> u64;
    /// The interval ended after `cycles` machine cycles, in which the cores counted
    /// `counters` and the memory system `memory`.
    fn close(&mut self, cycles: u64, counters: CoreCounters, memory: MemoryTally);
}

impl Record for Iteration {
    fn start_cycle(&self) -> u64 {
        self.start_cycle
    }

    fn close(&mut self, cycles: u64, counters: CoreCounters, memory: MemoryTally) {
        self.cycles = cycles;
        self.counters = counters;
        self.memory = memory;
    }
}

impl Record for LaunchRecord {
    fn start_cycle(&self) -> u64 {
        self.start_cycle
    }

    fn close(&mut self, cycles: u64, counters: CoreCounters, memory: MemoryTally) {
        self.cycles = cycles;
        self.counters = counters;
        self.memory = memory;
    }
}

/// The records of one kind: those closed, in order, and the open one with the cores'
/// counters so far and the memory system's totals at its start.
#[derive(Clone, Debug)]
pub(super) struct Series<R> {
    closed: Vec<R>,
    open: Option<(R, CoreCounters, MemoryTally)>,
    /// The most records a run keeps (`limits`).
    limit: usize,
}

impl<R: Record> Series<R> {
    fn new(limit: usize) -> Self {
        Series {
            closed: Vec::new(),
            open: None,
            limit,
        }
    }

    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// The records closed so far, in order.
    pub fn closed(&self) -> &[R] {
        &self.closed
    }

    /// The open record, if any.
    pub fn open_record(&self) -> Option<&R> {
        self.open.as_ref().map(|(record, ..)| record)
    }

    /// Records closed so far (the index of the next).
    pub fn len(&self) -> usize {
        self.closed.len()
    }

    /// Open `record` with the memory system's totals `memory`; `false`, leaving none open,
    /// when the run already keeps as many records as it may.
    pub fn open(&mut self, record: R, memory: MemoryTally) -> bool {
        if self.closed.len() == self.limit {
            return false;
        }
        self.open = Some((record, CoreCounters::default(), memory));
        true
    }

    /// Close the open record, if any, at cycle `now` with the memory system's totals
    /// `memory`: the record closed.
    pub fn close(&mut self, now: u64, memory: &MemoryTally) -> Option<&mut R> {
        let (mut record, counters, at_start) = self.open.take()?;
        let cycles = now - record.start_cycle();
        record.close(cycles, counters, memory.since(&at_start));
        self.closed.push(record);
        self.closed.last_mut()
    }

    /// The records closed, leaving none.
    pub fn take(&mut self) -> Vec<R> {
        std::mem::take(&mut self.closed)
    }
}

/// Every kind of interval the run is cut into.
#[derive(Clone, Debug)]
pub(super) struct Intervals {
    pub iterations: Series<Iteration>,
    pub launches: Series<LaunchRecord>,
}

impl Intervals {
    pub fn new() -> Self {
        Intervals {
            iterations: Series::new(crate::limits::ITERATIONS),
            launches: Series::new(crate::limits::LAUNCHES),
        }
    }

    /// What the cores counted since the last cut: every open interval's.
    pub fn add(&mut self, counters: &CoreCounters) {
        for (_, sum, _) in self.iterations.open.iter_mut() {
            sum.merge(counters);
        }
        for (_, sum, _) in self.launches.open.iter_mut() {
            sum.merge(counters);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counted(instructions: u64) -> CoreCounters {
        CoreCounters {
            instructions,
            ..CoreCounters::default()
        }
    }

    #[test]
    fn counters_reach_every_interval_open_when_added() {
        let mut t = Intervals::new();
        let memory = MemoryTally::default();
        t.add(&counted(1)); // before any interval: nobody's
        assert!(t.iterations.open(Iteration::default(), memory));
        t.add(&counted(2));
        let launch = LaunchRecord {
            start_cycle: 10,
            ..LaunchRecord::default()
        };
        assert!(t.launches.open(launch, memory));
        t.add(&counted(4));
        let closed = t.launches.close(25, &memory).unwrap();
        assert_eq!((closed.cycles, closed.counters.instructions), (15, 4));
        t.add(&counted(8));
        let closed = t.iterations.close(30, &memory).unwrap();
        assert_eq!((closed.cycles, closed.counters.instructions), (30, 14));
        assert!(t.iterations.close(31, &memory).is_none(), "none open");
        assert_eq!((t.iterations.len(), t.launches.len()), (1, 1));
    }

    #[test]
    fn a_series_keeps_at_most_its_limit() {
        let mut s: Series<LaunchRecord> = Series::new(2);
        let memory = MemoryTally::default();
        for _ in 0..2 {
            assert!(s.open(LaunchRecord::default(), memory));
            s.close(0, &memory);
        }
        assert!(!s.open(LaunchRecord::default(), memory));
        assert!(!s.is_open());
        assert_eq!(s.take().len(), 2);
    }
}
