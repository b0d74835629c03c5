//! The copies of the machine the functional run leaves behind, from which a unit's
//! detailed simulation starts.

use std::collections::VecDeque;

use wsim_sim::Machine;

use crate::detail::{Job, Mark, Span};

/// A measured unit's warm-up reaches back at most this many units for the previous unit
/// of its kernel (the copies of the machine kept).
pub const REACH: usize = 8;

/// The copies of the machine at the starts of the last units, each with its unit and
/// the mark where it starts.
pub(crate) struct Starts {
    copies: VecDeque<(usize, Mark, Machine)>,
    keep: usize,
}

impl Starts {
    /// Keeping the copies of the last `keep` units' starts.
    pub fn new(keep: usize) -> Starts {
        Starts {
            copies: VecDeque::new(),
            keep,
        }
    }

    pub fn push(&mut self, unit: usize, start: Mark, machine: &Machine) {
        self.copies.push_back((unit, start, machine.clone()));
        if self.copies.len() > self.keep {
            self.copies.pop_front();
        }
    }

    /// The job that measures the current unit, from the copy at the start of unit `from`
    /// (or the earliest kept).
    pub fn job(&self, unit: usize, from: usize, end: Mark) -> Job {
        let (_, _, copy) = (self.copies.iter())
            .find(|(u, ..)| *u >= from)
            .expect("the current unit's start is kept");
        let (_, start, _) = self
            .copies
            .back()
            .expect("the current unit's start is kept");
        Job {
            machine: copy.clone(),
            units: vec![Span {
                unit,
                start: *start,
                end,
            }],
        }
    }
}
