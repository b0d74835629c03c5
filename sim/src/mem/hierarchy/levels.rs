//! The caches below the cores' L1s at work: requests arriving at an L2, the L3 or DRAM,
//! the in-order input queue of each L2/L3 and its tag lookups, fills of the L1s and of the
//! lower caches, and the one-atomic-per-line rule at the last-level cache. A request in an
//! input holds a credit of the link it came over until the cache takes it (an atomic
//! waiting for its line keeps it); what a cache sends below goes through its outbox
//! (`credits.rs`), and a cache with messages waiting there takes no new request.

use std::collections::VecDeque;

use super::credits::Sender;
use super::{AccessKind, Completion, DramModel, Ev, Level, MemoryHierarchy, Msg, ROOM};
use crate::mem::cache::{Cache, CacheConfig, Op, Outcome, Stall, WritePolicy};

/// Lines with an atomic in flight at the LLC, each with the atomics waiting for it.
#[derive(Clone, Default)]
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
#[derive(Clone)]
pub(super) struct Lower {
    pub(super) level: Level,
    pub(super) cache: Cache<Msg>,
    pub(super) input: VecDeque<(Msg, u32)>,
    drain_scheduled: bool,
    pub(super) atomics: AtomicLines,
    /// The cycle each bank's atomic unit is free (used when this is the last level).
    alu_free: Vec<u64>,
}

impl Lower {
    pub(super) fn new(level: Level, c: &CacheConfig) -> Lower {
        Lower {
            level,
            cache: Cache::new(c),
            input: VecDeque::new(),
            drain_scheduled: false,
            atomics: AtomicLines::default(),
            alu_free: vec![0; c.banks.max(1) as usize],
        }
    }
}

/// Where an atomic executes: the atomic unit of a last-level cache's bank, or the DRAM
/// controller's.
#[derive(Clone, Copy, Debug)]
pub(super) enum AtomicUnit {
    Cache(usize),
    Dram,
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
        } else {
            let node = self.node(at, msg.core);
            self.lower[node].input.push_back((msg, line));
            self.wake(t, node);
        }
    }

    /// Make sure lower cache `node` looks at its outbox and its input queue at cycle `t`.
    pub(super) fn wake(&mut self, t: u64, node: usize) {
        let parked = self.outbox_busy(Sender::Lower(node));
        let n = &mut self.lower[node];
        if !n.drain_scheduled && (parked || !n.input.is_empty()) {
            n.drain_scheduled = true;
            self.schedule(t, Ev::Drain { node });
        }
    }

    /// Present the waiting requests to the tags in order until one is refused: a bank or
    /// port stall retries next cycle, a full MSHR file when a fill frees an entry, a full
    /// outbox when a credit comes back. Atomics on their way to a lower LLC pass through.
    pub(super) fn drain(&mut self, t: u64, node: usize) {
        self.lower[node].drain_scheduled = false;
        let me = Sender::Lower(node);
        if !self.flush_outbox(t, me) {
            return;
        }
        while let Some(&(msg, line)) = self.lower[node].input.front() {
            if self.outbox_busy(me) {
                break;
            }
            let level = self.lower[node].level;
            let came_over = self.link_index(self.above(level), msg.core);
            if msg.kind == AccessKind::Atomic && level != self.llc {
                self.lower[node].input.pop_front();
                self.return_link_credit(t, came_over);
                self.emit(me, t, t, level, msg, line);
                continue;
            }
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
                    self.return_link_credit(t, came_over);
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
        let me = Sender::Lower(node);
        match outcome {
            Outcome::Hit if msg.kind == AccessKind::Write => {}
            Outcome::Hit if msg.kind == AccessKind::Atomic => {
                let done = self.execute_atomic(AtomicUnit::Cache(node), at, msg, line);
                if write_through {
                    self.emit(me, t, done, from, msg.with(AccessKind::Write), line);
                }
            }
            Outcome::Hit => self.schedule(at, Ev::Up { from, msg, line }),
            Outcome::Miss => self.emit(me, t, at, from, msg.with(AccessKind::Read), line),
            Outcome::Merged => {}
            Outcome::WriteAround => self.emit(me, t, at, from, msg, line),
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
        let socket = self.socket(msg.core);
        let fetch = msg.kind == AccessKind::Fetch;
        let (cache, refused) = if fetch {
            (&mut self.l1i[socket], &mut self.l1i_refused[socket])
        } else {
            (&mut self.l1d[socket], &mut self.l1d_refused[socket])
        };
        // The cores of a socket share the L1: each waiter is completed for its own core.
        let mut ids = std::mem::take(&mut self.scratch_ids);
        let victim = cache.fill(line, msg.phase as usize, &mut ids);
        // The fill freed an MSHR: a core it refused that has no request among the waiters
        // (the MSHRs held other cores' misses) would otherwise never be told.
        for core in refused.drain(..) {
            if !ids.iter().any(|&(c, _)| c == core) {
                self.ready.push(Completion {
                    id: ROOM,
                    core,
                    at: t,
                });
            }
        }
        self.ready.extend(
            ids.drain(..)
                .map(|(core, id)| Completion { id, core, at: t }),
        );
        self.scratch_ids = ids;
        if let Some(v) = victim {
            let write = msg.with(AccessKind::Write);
            self.emit(Sender::L1d(socket as u32), t, t, Level::L1, write, v);
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
        let me = Sender::Lower(node);
        for &w in &waiters {
            match w.kind {
                AccessKind::Write => {}
                AccessKind::Atomic => {
                    let done = self.execute_atomic(AtomicUnit::Cache(node), t, w, line);
                    if write_through {
                        self.emit(me, t, done, from, w.with(AccessKind::Write), line);
                    }
                }
                _ => self.send_up(t, from, w, line),
            }
        }
        waiters.clear();
        self.scratch_msgs = waiters;
        if let Some(v) = victim {
            self.emit(me, t, t, from, msg.with(AccessKind::Write), v);
        }
        self.wake(t, node);
    }

    /// The atomic `msg` on `line` has its data at cycle `ready`: `unit` applies its
    /// operations (`alu_cycles` each, one after the other; one in all when it combines a
    /// word's lanes) when it is free, and the reply leaves when they are done. Returns
    /// that cycle.
    pub(super) fn execute_atomic(
        &mut self,
        unit: AtomicUnit,
        ready: u64,
        msg: Msg,
        line: u32,
    ) -> u64 {
        let ops = if self.combine_words {
            1
        } else {
            msg.ops.max(1)
        };
        let cost = u64::from(ops) * u64::from(self.alu_cycles);
        let free = match unit {
            AtomicUnit::Cache(node) => {
                let n = &mut self.lower[node];
                let bank = line as usize % n.alu_free.len();
                &mut n.alu_free[bank]
            }
            AtomicUnit::Dram => &mut self.dram_alu_free,
        };
        let done = ready.max(*free) + cost;
        *free = done;
        let from = self.llc;
        self.schedule(done, Ev::Up { from, msg, line });
        done
    }

    /// The atomic on `line` at the LLC is done: the next one may go.
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
