//! A warp's instruction buffer (SimX's `ibuffer`): the instructions fetched and decoded for
//! it, oldest first, up to `core.ibuffer` of them; the scheduler issues from its head.

use std::collections::VecDeque;

use wsim_isa::{Decoded, Unit};

use super::scoreboard::slot;

/// What issuing a buffered instruction needs, worked out once when it is fetched: its
/// registers' scoreboard slots in the order they are checked (sources, then the
/// destination) and its unit.
#[derive(Clone, Copy, Debug)]
pub(super) struct Needs {
    pub regs: [u8; 4],
    pub count: u8,
    pub unit: Unit,
}

impl Needs {
    #[inline]
    pub(super) fn of(d: &Decoded) -> Self {
        let mut needs = Needs {
            regs: [0; 4],
            count: 0,
            unit: d.info.unit,
        };
        let [a, b, c] = d.info.srcs;
        for r in [a, b, c, d.info.dst].into_iter().flatten() {
            needs.regs[needs.count as usize & 3] = slot(r);
            needs.count += 1;
        }
        needs
    }
}

/// A fetched instruction in a warp's buffer.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fetched {
    pub pc: u32,
    /// The cycle it is decoded and ready to issue.
    pub ready: u64,
    /// What issuing it needs, if the word decodes.
    pub needs: Option<Needs>,
}

impl Fetched {
    #[inline]
    pub(super) fn new(pc: u32, ready: u64, decoded: &Option<Decoded>) -> Self {
        Fetched {
            pc,
            ready,
            needs: decoded.as_ref().map(Needs::of),
        }
    }
}

/// One warp's instruction buffer.
#[derive(Clone, Debug)]
pub(super) struct InstructionBuffer {
    entries: VecDeque<Fetched>,
    capacity: usize,
}

impl InstructionBuffer {
    pub(super) fn new(capacity: usize) -> Self {
        InstructionBuffer {
            entries: VecDeque::with_capacity(capacity),
            capacity,
        }
    }

    /// Whether another instruction fits.
    #[inline]
    pub(super) fn has_room(&self) -> bool {
        self.entries.len() < self.capacity
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The oldest instruction: the next to issue.
    #[inline]
    pub(super) fn front(&self) -> Option<&Fetched> {
        self.entries.front()
    }

    pub(super) fn push(&mut self, f: Fetched) {
        self.entries.push_back(f);
    }

    /// Take the oldest instruction (it issues).
    pub(super) fn pop(&mut self) -> Option<Fetched> {
        self.entries.pop_front()
    }

    /// Drop every instruction (the warp was redirected or retired).
    pub(super) fn clear(&mut self) {
        self.entries.clear();
    }
}
