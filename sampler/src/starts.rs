//! The copies of the machine the functional run leaves behind, from which a unit's
//! detailed simulation starts.
//!
//! Which units are measured is known only at their end (a unit's cluster is its whole
//! launch's), so the start of every unit might be needed. A copy at each start cost a
//! third of a sampled road BFS (the copy, its drop, and the run's next write to each page
//! then copying the page); a copy every [`CHECKPOINT`] units, and a measured unit's
//! detailed run first fast-forwarding functionally from the copy before its start, costs
//! far less. Execution is deterministic, so the fast-forwarded machine is the one the run
//! had at that start.

use std::collections::VecDeque;

use wsim_sim::Machine;

use crate::detail::{Job, Mark, Probing, Span};

/// A measured unit's warm-up reaches back at most this many units for the previous unit
/// of its kernel.
pub const REACH: usize = 8;

/// Units between two copies of the machine. Measured on a sampled road BFS (1,076 units,
/// 60 or 114 measured): 4, 8 and 16 within 6% of each other, 8 the fastest
/// (docs/ARCHITECTURE.md, "Sampled simulation").
pub const CHECKPOINT: usize = 8;

/// The copies of the machine at the starts of every [`CHECKPOINT`]-th unit, and where
/// each unit starts.
pub(crate) struct Starts {
    /// (unit, copy at its start), oldest first.
    copies: VecDeque<(usize, Machine)>,
    /// Where each unit so far starts, by unit.
    marks: Vec<Mark>,
    /// How far back a job's warm-up may start: units before the current one.
    reach: usize,
}

impl Starts {
    /// The first unit starting now, at `machine`; jobs start at most `reach` units before
    /// the unit they measure.
    pub fn new(machine: &Machine, reach: usize) -> Starts {
        Starts {
            copies: VecDeque::from([(0, machine.clone())]),
            marks: vec![Mark::Launches(0)],
            reach,
        }
    }

    /// Unit `unit` starts at `start` with the machine at `machine`.
    pub fn push(&mut self, unit: usize, start: Mark, machine: &Machine) {
        debug_assert_eq!(unit, self.marks.len());
        self.marks.push(start);
        if unit.is_multiple_of(CHECKPOINT) {
            self.copies.push_back((unit, machine.clone()));
        }
        // A job now starts at `unit - reach` or later: the copy before that suffices.
        let earliest = unit.saturating_sub(self.reach);
        while self.copies.get(1).is_some_and(|&(u, _)| u <= earliest) {
            self.copies.pop_front();
        }
    }

    /// Where unit `unit` starts.
    pub fn mark(&self, unit: usize) -> Mark {
        self.marks[unit]
    }

    /// Where each unit starts and ends, by unit (`units` of them; the last ends at the
    /// run's end when no launch's end does).
    pub fn spans(&self, units: usize) -> impl Iterator<Item = Span> + '_ {
        (0..units).map(|unit| Span {
            unit,
            start: self.marks[unit],
            end: self.marks.get(unit + 1).copied().unwrap_or(Mark::Exit),
            probe: Probing::None,
        })
    }

    /// The job that measures unit `unit` (the current one, from its start to `end`) after
    /// a warm-up from the start of unit `from`: a copy of the machine from the last copy
    /// at or before that start, fast-forwarded to it.
    pub fn job(&self, unit: usize, from: usize, end: Mark, check: bool) -> Job {
        let (at, copy) = (self.copies.iter())
            .rev()
            .find(|(u, _)| *u <= from)
            .expect("a copy at or before every start within reach is kept");
        Job {
            machine: copy.clone(),
            at: self.marks[*at],
            from,
            forward: (*at < from).then_some(self.marks[from]),
            units: vec![Span {
                unit,
                start: self.marks[unit],
                end,
                probe: Probing::None,
            }],
            check,
            whole: false,
        }
    }
}
