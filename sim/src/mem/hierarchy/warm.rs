//! Functional warming (the sampler's, docs/ARCHITECTURE.md "Sampled simulation"): an
//! access executed functionally changes the caches' tags and replacement order on its
//! way down as its request and the fills it causes would in detail, at once: no event,
//! link, credit, MSHR or statistic. A miss is filled from below, a dirty victim written
//! back below, a write-through write passes on, an atomic goes to the last-level cache.
//! DRAM's rows and queues are not warmed.
//!
//! What it cannot reproduce is the order of the accesses: the functional run's rounds
//! advance every warp of every core a few instructions at a time (lock step), while in
//! detail the warps run far apart (greedy-then-oldest, and a socket's first core ahead of
//! the others when the shared L1's MSHRs are full). Measured on PageRank EM (rmat scale 12,
//! the dissertation's machine, end of launch 21): the same requests reach the L2 in both
//! (over launches 19-20, 8,506 write-throughs and 4,338 atomics each, 28,695 and 28,619
//! reads), and the warmed machine given the detailed run's L2 tags and stamps runs the next
//! gather as the run does (71,183 cycles, 14,270 L2 hits; the run 70,953 and 14,217; warmed
//! as is 51,888 and 24,816); but its edges (1 MiB, the L2's size, under FIFO) are filled in
//! stream order when warmed and all over the launch in detail, so the warmed L2 holds the
//! last three quarters of the edge arrays whole and the run's L2 lines from all of them.

use super::{AccessKind, DramModel, Level, MemoryHierarchy};
use crate::mem::cache::Op;

impl<D: DramModel> MemoryHierarchy<D> {
    /// Warm the caches with `core`'s access of `kind` to the line at byte address `addr`.
    pub fn warm(&mut self, core: u32, addr: u32, kind: AccessKind) {
        let line = addr >> self.line_shift;
        if kind == AccessKind::Atomic {
            return self.warm_below(Level::L1, core, line, kind);
        }
        let fetch = kind == AccessKind::Fetch;
        let op = if kind == AccessKind::Write {
            Op::Write
        } else {
            Op::Read
        };
        let socket = self.socket(core);
        let warmed = self.l1(fetch, socket).warm(line, op);
        if let Some(victim) = warmed.victim {
            self.warm_below(Level::L1, core, victim, AccessKind::Write);
        }
        if warmed.below {
            let below = if op == Op::Write {
                AccessKind::Write
            } else {
                AccessKind::Read
            };
            self.warm_below(Level::L1, core, line, below);
        }
    }

    /// Lines the last-level cache (an L2 or the L3) installed while warming so far: with
    /// [`Self::llc_lines`], how much of its content the warming replaced.
    pub fn warm_fills(&self) -> u64 {
        self.warm_fills
    }

    /// The lines the last-level caches hold together (0 without an L2 or L3).
    pub fn llc_lines(&self) -> u64 {
        (self.lower.iter())
            .filter(|l| l.level == self.llc)
            .map(|l| l.cache.lines())
            .sum()
    }

    /// The part of a warming access below level `from`.
    fn warm_below(&mut self, from: Level, core: u32, line: u32, kind: AccessKind) {
        let at = self.below(from);
        if at == Level::Dram {
            return;
        }
        let node = self.node(at, core);
        if kind == AccessKind::Atomic && at != self.llc {
            return self.warm_below(at, core, line, kind);
        }
        let op = match kind {
            AccessKind::Write => Op::Write,
            AccessKind::Atomic => Op::Atomic,
            _ => Op::Read,
        };
        let warmed = self.lower[node].cache.warm(line, op);
        if at == self.llc && warmed.filled {
            self.warm_fills += 1;
        }
        if let Some(victim) = warmed.victim {
            self.warm_below(at, core, victim, AccessKind::Write);
        }
        if warmed.below {
            // A miss reads its line from below; a write-through write goes on as a write.
            let below = if kind == AccessKind::Write {
                AccessKind::Write
            } else {
                AccessKind::Read
            };
            self.warm_below(at, core, line, below);
        }
    }
}
