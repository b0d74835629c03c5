//! The caches below the cores' L1s at work: requests arriving at an L2, the L3 or DRAM,
//! the in-order input queue of each L2/L3 and its tag lookups, fills of the L1s and of the
//! lower caches, and the one-atomic-per-line rule at the last-level cache.

use std::collections::VecDeque;

use super::{AccessKind, Completion, DramModel, Ev, Level, MemoryHierarchy, Msg};
use crate::mem::cache::{Cache, CacheConfig, Op, Outcome, Stall, WritePolicy};

/// Lines with an atomic in flight at the LLC, each with the atomics waiting for it.
#[derive(Default)]
pub(super) struct AtomicLines(Vec<(u32, VecDeque<Msg>)>);

impl AtomicLines {
    fn busy(&self, line: u32) -> bool {
        self.0.iter().any(|(l, _)| *l == line)
    }
    fn lock(&mut self, line: u32) {
        self.0.push((line, VecDeque::new()));
    }
    fn park(&mut self, line: u32, msg: Msg) {
        if let Some((_, q)) = self.0.iter_mut().find(|(l, _)| *l == line) {
            q.push_back(msg);
        }
    }
    /// Unlock `line`; returns the atomics that waited for it, oldest first.
    fn release(&mut self, line: u32) -> VecDeque<Msg> {
        match self.0.iter().position(|(l, _)| *l == line) {
            Some(i) => self.0.swap_remove(i).1,
            None => VecDeque::new(),
        }
    }
    pub(super) fn waiting(&self) -> usize {
        self.0.iter().map(|(_, q)| q.len()).sum()
    }
}

/// An L2 or the L3: requests arriving from above wait in order for the tags.
pub(super) struct Lower {
    pub(super) level: Level,
    pub(super) cache: Cache<Msg>,
    pub(super) input: VecDeque<(Msg, u32)>,
    drain_scheduled: bool,
    pub(super) atomics: AtomicLines,
}

impl Lower {
    pub(super) fn new(level: Level, c: &CacheConfig) -> Lower {
        Lower {
            level,
            cache: Cache::new(c),
            input: VecDeque::new(),
            drain_scheduled: false,
            atomics: AtomicLines::default(),
        }
    }
}

impl<D: DramModel> MemoryHierarchy<D> {
    pub(super) fn arrive(&mut self, t: u64, at: Level, msg: Msg, line: u32) {
        if at == Level::Dram {
            if msg.kind == AccessKind::Atomic {
                if self.dram_atomics.busy(line) {
                    self.dram_atomics.park(line, msg);
                    return;
                }
                self.dram_atomics.lock(line);
            }
            self.dram_send(t, msg, line);
        } else if msg.kind == AccessKind::Atomic && at != self.llc {
            self.send_down(t, at, msg, line);
        } else {
            let node = self.node(at, msg.core);
            self.lower[node].input.push_back((msg, line));
            self.wake(t, node);
        }
    }

    /// Make sure lower cache `node` looks at its input queue at cycle `t`.
    fn wake(&mut self, t: u64, node: usize) {
        let n = &mut self.lower[node];
        if !n.drain_scheduled && !n.input.is_empty() {
            n.drain_scheduled = true;
            self.schedule(t, Ev::Drain { node });
        }
    }

    /// Present the waiting requests to the tags in order until one is refused: a bank or
    /// port stall retries next cycle, a full MSHR file when a fill frees an entry.
    pub(super) fn drain(&mut self, t: u64, node: usize) {
        self.lower[node].drain_scheduled = false;
        while let Some(&(msg, line)) = self.lower[node].input.front() {
            let n = &mut self.lower[node];
            if msg.kind == AccessKind::Atomic && n.atomics.busy(line) {
                n.input.pop_front();
                n.atomics.park(line, msg);
                continue;
            }
            let op = match msg.kind {
                AccessKind::Write => Op::Write,
                AccessKind::Atomic => Op::Atomic,
                _ => Op::Read,
            };
            match n.cache.access(t, line, op, msg.phase as usize, msg) {
                Ok(outcome) => {
                    n.input.pop_front();
                    if msg.kind == AccessKind::Atomic {
                        n.atomics.lock(line);
                    }
                    self.lower_outcome(t, node, msg, line, outcome);
                }
                Err(Stall::MshrFull) => break,
                Err(Stall::Bank | Stall::Port) => {
                    n.drain_scheduled = true;
                    self.schedule(t + 1, Ev::Drain { node });
                    break;
                }
            }
        }
    }

    fn lower_outcome(&mut self, t: u64, node: usize, msg: Msg, line: u32, outcome: Outcome) {
        let n = &self.lower[node];
        let from = n.level;
        let write_through = n.cache.config().write_policy == WritePolicy::WriteThrough;
        let at = t + u64::from(n.cache.config().hit_latency);
        match outcome {
            Outcome::Hit if msg.kind == AccessKind::Write => {}
            Outcome::Hit => {
                self.schedule(at, Ev::Up { from, msg, line });
                if msg.kind == AccessKind::Atomic && write_through {
                    let msg = msg.with(AccessKind::Write);
                    self.schedule(at, Ev::Down { from, msg, line });
                }
            }
            Outcome::Miss => {
                let msg = msg.with(AccessKind::Read);
                self.schedule(at, Ev::Down { from, msg, line });
            }
            Outcome::Merged => {}
            Outcome::WriteAround => self.schedule(at, Ev::Down { from, msg, line }),
        }
    }

    pub(super) fn respond(&mut self, t: u64, at: Level, msg: Msg, line: u32) {
        match (at, msg.kind) {
            (Level::L1, AccessKind::Atomic) => self.ready.push(Completion {
                id: msg.id,
                core: msg.core,
                at: t,
            }),
            (Level::L1, _) => self.fill_l1(t, msg, line),
            (_, AccessKind::Atomic) => self.send_up(t, at, msg, line),
            _ => self.fill_lower(t, self.node(at, msg.core), msg, line),
        }
    }

    /// The fill `msg` (the miss's request, back from below) reaches the L1.
    fn fill_l1(&mut self, t: u64, msg: Msg, line: u32) {
        let core = msg.core;
        let cache = if msg.kind == AccessKind::Fetch {
            &mut self.l1i[core as usize]
        } else {
            &mut self.l1d[core as usize]
        };
        let mut ids = std::mem::take(&mut self.scratch_ids);
        let victim = cache.fill(line, msg.phase as usize, &mut ids);
        self.ready
            .extend(ids.drain(..).map(|id| Completion { id, core, at: t }));
        self.scratch_ids = ids;
        if let Some(v) = victim {
            self.send_down(t, Level::L1, msg.with(AccessKind::Write), v);
        }
    }

    /// The fill `msg` (the miss's request, back from below) reaches lower cache `node`.
    fn fill_lower(&mut self, t: u64, node: usize, msg: Msg, line: u32) {
        let from = self.lower[node].level;
        let write_through =
            self.lower[node].cache.config().write_policy == WritePolicy::WriteThrough;
        let mut waiters = std::mem::take(&mut self.scratch_msgs);
        let victim = self.lower[node]
            .cache
            .fill(line, msg.phase as usize, &mut waiters);
        for &w in &waiters {
            match w.kind {
                AccessKind::Write => {}
                AccessKind::Atomic => {
                    self.send_up(t, from, w, line);
                    if write_through {
                        self.send_down(t, from, w.with(AccessKind::Write), line);
                    }
                }
                _ => self.send_up(t, from, w, line),
            }
        }
        waiters.clear();
        self.scratch_msgs = waiters;
        if let Some(v) = victim {
            self.send_down(t, from, msg.with(AccessKind::Write), v);
        }
        self.wake(t, node);
    }

    /// The atomic on `line` at the LLC has its data: the next one may go.
    pub(super) fn release_atomic(&mut self, t: u64, llc: Level, core: u32, line: u32) {
        if llc == Level::Dram {
            let mut waiting = self.dram_atomics.release(line);
            if let Some(next) = waiting.pop_front() {
                self.dram_atomics.lock(line);
                for &m in &waiting {
                    self.dram_atomics.park(line, m);
                }
                self.dram_send(t, next, line);
            }
            return;
        }
        let node = self.node(llc, core);
        let n = &mut self.lower[node];
        let waiting = n.atomics.release(line);
        // Ahead of later arrivals, in their order: the first takes the line, the rest park.
        for msg in waiting.into_iter().rev() {
            n.input.push_front((msg, line));
        }
        self.wake(t, node);
    }
}
