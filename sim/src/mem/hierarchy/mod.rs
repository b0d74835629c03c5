//! The memory system below the cores: per-core L1 instruction and data caches, an optional
//! L2 per cluster, an optional L3 shared by all clusters, the links between them and DRAM.
//!
//! It models time only. The cores execute loads, stores and atomics functionally when they
//! issue; this module decides when each request completes.
//!
//! **Event driven and exact under skipped cycles.** Everything that happens is an event at
//! a cycle, processed in (cycle, creation order), interleaved with the DRAM model's own
//! events. Ticking every cycle or only at [`MemoryHierarchy::next_event`] gives the same
//! completions, at the same cycles, and the same statistics. Nothing in flight costs
//! nothing; links and latencies cost one event per hop, not one per cycle.
//!
//! Request flow and the semantics a core sees:
//! - **Fetch** goes to the core's L1I, **Read** and **Write** to its L1D. A hit completes
//!   after the cache's `hit_latency`. A miss leaves for the next level after `hit_latency`
//!   and completes when the fill comes back (the fill is forwarded, no second tag pass).
//! - A **write-through store completes when the L1D accepts it** (the completion carries
//!   the acceptance cycle): the core never waits for the round trip. The write still
//!   travels down, through every write-through level, to DRAM, taking link bandwidth,
//!   banks and DRAM time. A write-back store completes like a load (a write miss fetches
//!   the line first).
//! - An **Atomic** (one request per line of a warp's atomic instruction, carrying its
//!   lanes' operations on the line's busiest word) bypasses the L1 and L2/L3 caches above
//!   the last-level cache (LLC: L3 if enabled, else L2, else DRAM) and executes there as a
//!   read-modify-write: it allocates the line like a read; once the data is there, the
//!   bank's **atomic unit** applies the operations (`memory.atomics.alu_cycles` each, one
//!   word's one after the other, or one per word with `memory.atomics.same_word =
//!   "combined"`), then the line is dirtied (write-back) or written below
//!   (write-through; at DRAM, a read then a write). **One atomic per line is in the unit at
//!   a time**: another one to that line waits until the first is done, then goes in
//!   arrival order. The atomic completes when its reply reaches the core.
//! - Every accepted request produces exactly one [`Completion`].
//!
//! **Statistics by phase.** A request carries the phase its core was in when it made the
//! request, and every event counts in the whole run's statistics and in that phase's:
//! hits, misses, merges and stalls of the request at each level, its link transfers, its
//! DRAM access. What a request causes counts in its phase too: a miss's request below, the
//! fill's eviction and the dirty victim's write-back (the miss that brought the fill), a
//! write-through write's trip down, an atomic's write below. **By PC** too, when the run is
//! profiled ([`MemoryHierarchy::count_by_pc`]): a request also carries the instruction that
//! made it, and its events count under the key (phase, PC), which the statistics fold by
//! phase and by PC; a run not profiled has one key per phase.
//!
//! **Bounded, with back-pressure** (`credits.rs`): a request goes down only with a credit
//! of the buffer it is headed for (a lower cache's input, a DRAM queue), so a full DRAM
//! queue holds back the level above, which stops taking requests, whose input fills, until
//! the L1s refuse ([`Reject::QueueFull`]) and the cores' LSU queues fill. Nothing waits in
//! front of DRAM: [`HierarchyStats::dram_backlog_peak`] is 0 by construction.
//!
//! **Files**: `config.rs` the configuration; `links.rs` the topology and link crossings;
//! `credits.rs` back-pressure (credits, outboxes, fair order); `levels.rs` the L2/L3 and
//! L1 fills and atomics at the LLC; `dram_port.rs` the way to and from DRAM; `events.rs`
//! the event queue; `stats.rs` the statistics. This file holds the core-facing interface
//! and the vocabulary the blocks share (`Level`, `Msg`, `Ev`).

mod config;
mod credits;
mod dram_port;
mod events;
mod levels;
mod links;
mod stats;
mod warm;

use std::collections::HashMap;

use super::cache::{Cache, Op, Outcome, Stall};
use super::dram::Dram;
use super::interconnect::Link;
pub use config::{AtomicsConfig, MemConfig, SameWord};
use credits::{Credits, Outboxes, Sender};
pub use dram_port::DramModel;
use events::Calendar;
use levels::{AtomicLines, Lower};
pub use stats::{CacheLevel, HierarchyStats};

/// What a core asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    Read,
    Write,
    Atomic,
    Fetch,
}

/// One line-sized request of a core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemAccess {
    /// Returned in the completion; the hierarchy does not interpret it.
    pub id: u64,
    /// Must be below clusters x cores_per_cluster.
    pub core: u32,
    /// Any byte address in the line.
    pub addr: u32,
    pub kind: AccessKind,
    /// The statistics phase of the core that makes the request.
    pub phase: u32,
    /// An atomic: the operations of its lanes on the line's busiest word (the atomic unit
    /// applies them one after the other). 0 for the other kinds.
    pub ops: u32,
    /// The instruction that made it, which its events count under while the hierarchy
    /// counts by PC ([`MemoryHierarchy::count_by_pc`]); ignored otherwise.
    pub pc: u32,
}

/// Why a request was not accepted this cycle. The core retries later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reject {
    /// The L1 bank of the line already took an access this cycle.
    BankConflict,
    /// The L1 has no free MSHR for a new miss (or the line's MSHR is full of merges): the
    /// core is told when the L1 frees one, by one of its requests' completions or, when
    /// the MSHRs held only other cores' misses (a socket's shared L1), by a completion
    /// with the id [`ROOM`].
    MshrFull,
    /// The link below the L1s has `queue` requests waiting; checked before the cache.
    QueueFull,
    /// The buffer the request is headed for has no credit for it (back-pressure): the core
    /// is told when one comes, by a completion with the id [`ROOM`].
    NoCredit,
    /// The L1 took `ports` accesses this cycle.
    PortBusy,
}

/// The id of a completion that belongs to no request: room the core was refused for has
/// come (a credit below its L1, [`Reject::NoCredit`], or an MSHR of the L1 its socket
/// shares, [`Reject::MshrFull`]).
pub const ROOM: u64 = u64::MAX;

/// A finished request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Completion {
    pub id: u64,
    pub core: u32,
    /// The cycle it completed (at most the `now` of the tick that reports it).
    pub at: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    L1,
    L2,
    L3,
    Dram,
}

/// A request or reply travelling between levels. `core` routes replies back up; `id` is
/// the core's id for atomics (other requests below L1 are the caches' own); `phase` is the
/// index of its key, its phase and PC, in `MemoryHierarchy::keys`.
#[derive(Clone, Copy, Debug)]
struct Msg {
    core: u32,
    id: u64,
    kind: AccessKind,
    phase: u32,
    /// An atomic's operations on its line's busiest word.
    ops: u32,
}

impl Msg {
    fn with(self, kind: AccessKind) -> Msg {
        Msg {
            id: 0,
            kind,
            ..self
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Ev {
    /// A core's request completes.
    Done { core: u32, id: u64 },
    /// A request leaves `from` for the next level below.
    Down { from: Level, msg: Msg, line: u32 },
    /// A request reaches level `at`.
    Arrive { at: Level, msg: Msg, line: u32 },
    /// A reply leaves `from` for the level above.
    Up { from: Level, msg: Msg, line: u32 },
    /// A reply reaches level `at`.
    Respond { at: Level, msg: Msg, line: u32 },
    /// Present the waiting requests of lower cache `node` to its tags.
    Drain { node: usize },
}

/// The memory system below the cores. See the module documentation for its semantics.
#[derive(Clone)]
pub struct MemoryHierarchy<D: DramModel = Dram> {
    cores_per_cluster: u32,
    line_shift: u32,
    llc: Level,
    l2_enabled: bool,
    l3_enabled: bool,
    /// Cores sharing one L1I and one L1D (a socket).
    cores_per_socket: u32,
    /// Per socket; their waiters are (core, request id).
    l1i: Vec<Cache<(u32, u64)>>,
    l1d: Vec<Cache<(u32, u64)>>,
    /// Per socket, the cores its L1I and its L1D refused for want of an MSHR since their
    /// last fill: the fill frees one and tells them (their own misses may hold none).
    l1i_refused: Vec<Vec<u32>>,
    l1d_refused: Vec<Vec<u32>>,
    /// The L2s (one per cluster, if enabled), then the L3 (if enabled).
    lower: Vec<Lower>,
    /// The L1 links (one per cluster), the L2 links (if L2), the L3 link (if L3).
    links: Vec<Link>,
    clusters: usize,
    dram: D,
    /// The last cycle DRAM was ticked at.
    dram_time: u64,
    /// DRAM's next event after `dram_time`, kept up to date as DRAM changes only when it
    /// is ticked or given a request.
    dram_next: Option<u64>,
    /// Requests in DRAM by DRAM id; ids are reused through `free_slots`.
    dram_slots: Vec<Option<(Msg, u32)>>,
    free_slots: Vec<u64>,
    dram_atomics: AtomicLines,
    /// The DRAM controller's atomic unit (without caches below the L1s), free from then.
    dram_alu_free: u64,
    /// Cycles of one atomic operation on a word (`memory.atomics.alu_cycles`).
    alu_cycles: u32,
    /// Whether a request's lanes on one word are one operation (`memory.atomics.same_word`).
    combine_words: bool,
    credits: Credits,
    /// Messages senders could not send for want of credits, per sender.
    outboxes: Outboxes,
    events: Calendar<Ev>,
    /// The latest cycle the hierarchy has advanced to.
    now: u64,
    ready: Vec<Completion>,
    /// The (phase, PC) keys requests came with, in order of first appearance: every event
    /// of a request counts under its key's index here (the blocks' `Phased` counters), and
    /// the statistics fold the keys by phase and by PC. The PC is 0 unless the hierarchy
    /// counts by PC, so that a run not profiled has a key per phase.
    keys: Vec<(u32, u32)>,
    /// The last key looked up and its index (a core's phase rarely changes).
    last_key: ((u32, u32), usize),
    /// Counting by PC: the index of each key (too many to search).
    key_index: Option<HashMap<(u32, u32), usize>>,
    scratch_ids: Vec<(u32, u64)>,
    scratch_msgs: Vec<Msg>,
    dram_done: Vec<u64>,
    /// Lines the last-level cache installed while warming ([`Self::warm`]).
    warm_fills: u64,
}

impl MemoryHierarchy<Dram> {
    /// The hierarchy of `clusters` x `cores_per_cluster` cores over the DRAM model. `cfg`
    /// should have passed [`MemConfig::validate`].
    pub fn new(cfg: &MemConfig, clusters: u32, cores_per_cluster: u32) -> Self {
        Self::with_dram(cfg, clusters, cores_per_cluster, Dram::new(&cfg.dram))
    }
}
impl<D: DramModel> MemoryHierarchy<D> {
    /// The hierarchy over another main-memory model.
    pub fn with_dram(cfg: &MemConfig, clusters: u32, cores_per_cluster: u32, dram: D) -> Self {
        let clusters = clusters.max(1);
        let cores_per_cluster = cores_per_cluster.max(1);
        let cores = (clusters * cores_per_cluster) as usize;
        let mut lower = Vec::new();
        let mut links: Vec<Link> = (0..clusters).map(|_| Link::new(&cfg.l1_link)).collect();
        if cfg.l2_enabled {
            lower.extend((0..clusters).map(|_| Lower::new(Level::L2, &cfg.l2)));
            links.extend((0..clusters).map(|_| Link::new(&cfg.l2_link)));
        }
        if cfg.l3_enabled {
            lower.push(Lower::new(Level::L3, &cfg.l3));
            links.push(Link::new(&cfg.l3_link));
        }
        let llc = match (cfg.l2_enabled, cfg.l3_enabled) {
            (_, true) => Level::L3,
            (true, false) => Level::L2,
            (false, false) => Level::Dram,
        };
        let link_credits = links.iter().map(Link::queue).collect();
        MemoryHierarchy {
            cores_per_cluster,
            line_shift: cfg.l1d.line.max(1).ilog2(),
            llc,
            l2_enabled: cfg.l2_enabled,
            l3_enabled: cfg.l3_enabled,
            cores_per_socket: 1,
            l1i: (0..cores).map(|_| Cache::new(&cfg.l1i)).collect(),
            l1d: (0..cores).map(|_| Cache::new(&cfg.l1d)).collect(),
            l1i_refused: vec![Vec::new(); cores],
            l1d_refused: vec![Vec::new(); cores],
            lower,
            links,
            clusters: clusters as usize,
            dram,
            dram_time: 0,
            dram_next: None,
            dram_slots: Vec::new(),
            free_slots: Vec::new(),
            dram_atomics: AtomicLines::default(),
            dram_alu_free: 0,
            alu_cycles: cfg.atomics.alu_cycles,
            combine_words: cfg.atomics.same_word == SameWord::Combined,
            credits: Credits::new(link_credits),
            outboxes: Outboxes::default(),
            events: Calendar::new(),
            now: 0,
            ready: Vec::new(),
            keys: Vec::new(),
            last_key: ((0, 0), usize::MAX),
            key_index: None,
            scratch_ids: Vec::new(),
            scratch_msgs: Vec::new(),
            dram_done: Vec::new(),
            warm_fills: 0,
        }
    }

    /// The same hierarchy with `cores_per_socket` cores sharing each L1I and L1D (Vortex's
    /// sockets; 1: private L1s). It must divide the cores per cluster.
    pub fn with_sockets(mut self, cores_per_socket: u32) -> Self {
        let n = cores_per_socket.max(1);
        let sockets = self.l1d.len() / n as usize;
        self.l1i.truncate(sockets);
        self.l1d.truncate(sockets);
        self.l1i_refused.truncate(sockets);
        self.l1d_refused.truncate(sockets);
        self.cores_per_socket = n;
        self
    }

    /// Count every event by the PC of the instruction whose request caused it too, from
    /// now on (the profile by PC): [`Self::stats_by_pc`].
    pub fn count_by_pc(&mut self) {
        let index = (self.keys.iter().enumerate()).map(|(i, &key)| (key, i));
        self.key_index = Some(index.collect());
    }

    /// The index in `keys` of a request's statistics phase `phase` and PC `pc`.
    #[inline]
    fn key_index(&mut self, phase: u32, pc: u32) -> usize {
        let key = (phase, pc);
        let (last, index) = self.last_key;
        if last == key && index < self.keys.len() {
            return index;
        }
        let index = if self.key_index.is_none() {
            match self.keys.iter().position(|&k| k == key) {
                Some(i) => i,
                None => self.add_key(key),
            }
        } else {
            self.mapped_key(key)
        };
        self.last_key = (key, index);
        index
    }

    /// Counting by PC: the index of `key`, added if new.
    #[inline(never)]
    fn mapped_key(&mut self, key: (u32, u32)) -> usize {
        match self.key_index.as_ref().and_then(|map| map.get(&key)) {
            Some(&i) => i,
            None => self.add_key(key),
        }
    }

    /// A key not seen before: its index.
    #[cold]
    fn add_key(&mut self, key: (u32, u32)) -> usize {
        self.keys.push(key);
        let index = self.keys.len() - 1;
        if let Some(map) = &mut self.key_index {
            map.insert(key, index);
        }
        index
    }

    /// The socket (shared L1s) of `core`.
    pub(super) fn socket(&self, core: u32) -> usize {
        (core / self.cores_per_socket) as usize
    }

    /// The L1 instruction or data cache of `socket`.
    fn l1(&mut self, fetch: bool, socket: usize) -> &mut Cache<(u32, u64)> {
        if fetch {
            &mut self.l1i[socket]
        } else {
            &mut self.l1d[socket]
        }
    }

    /// The cores waiting for an MSHR of the L1 instruction or data cache of `socket`.
    fn l1_refused(&mut self, fetch: bool, socket: usize) -> &mut Vec<u32> {
        if fetch {
            &mut self.l1i_refused[socket]
        } else {
            &mut self.l1d_refused[socket]
        }
    }

    /// Whether a request of `sender` (on `core`'s path, in `cluster`) for `line` may go
    /// below the L1 now: the link has room to leave and the buffer it is headed for a
    /// credit (taken once the request is accepted). The receiver, or why not.
    fn room_below(
        &mut self,
        now: u64,
        cluster: usize,
        sender: Sender,
        core: u32,
        line: u32,
    ) -> Result<credits::Receiver, Reject> {
        // A socket's sleepers are tracked (credits.rs); a private L1's core is its own.
        let shared = self.cores_per_socket > 1;
        if shared {
            self.credits.asking(sender, core);
        }
        if self.links[cluster].down_full(now) {
            return Err(Reject::QueueFull);
        }
        let to = self.receiver(Level::L1, core, line);
        if self.outbox_busy(sender) || !self.can_send(now, sender, to) {
            if shared {
                self.credits.refuse(sender, core);
            }
            return Err(Reject::NoCredit);
        }
        Ok(to)
    }

    /// A core's request at cycle `now` (cycles never decrease; an earlier one counts as
    /// the latest seen). `Err` = not accepted this cycle: nothing changed but the stall
    /// counters. `Ok(Some(at))`: an instruction fetch that hit, complete at `at`; no
    /// completion comes for it (the caller applies it, sparing every hit the event's round
    /// trip). Panics if `req.core` is out of range (a caller bug, not a configuration).
    #[inline]
    pub fn access(&mut self, now: u64, req: MemAccess) -> Result<Option<u64>, Reject> {
        let now = now.max(self.now);
        self.advance(now);
        let core = req.core as usize;
        let cluster = core / self.cores_per_cluster as usize;
        let socket = self.socket(req.core);
        let line = req.addr >> self.line_shift;
        let pc = if self.key_index.is_some() { req.pc } else { 0 };
        let phase = self.key_index(req.phase, pc);
        let msg = Msg {
            core: req.core,
            id: req.id,
            kind: req.kind,
            phase: phase as u32,
            ops: req.ops,
        };
        let fetch = req.kind == AccessKind::Fetch;
        let sender = if fetch {
            Sender::L1i(socket as u32)
        } else {
            Sender::L1d(socket as u32)
        };
        let (op, miss_kind) = match req.kind {
            AccessKind::Write => (Op::Write, AccessKind::Read),
            AccessKind::Fetch => (Op::Read, AccessKind::Fetch),
            _ => (Op::Read, AccessKind::Read),
        };
        let atomic = req.kind == AccessKind::Atomic;
        let cache = self.l1(fetch, socket);
        let probe = cache.probe(line);
        // Atomics always go below; the others when the tags say so.
        let to = if atomic || cache.needs_below_probed(line, op, probe) {
            match self.room_below(now, cluster, sender, req.core, line) {
                Ok(to) => Some(to),
                Err(reject) => {
                    self.l1(fetch, socket).count_queue_full(phase);
                    return Err(reject);
                }
            }
        } else {
            None
        };
        if atomic {
            self.take_credit(sender, to.expect("an atomic has room below"));
            self.send_down(now, Level::L1, msg, line);
            return Ok(None);
        }
        let cache = self.l1(fetch, socket);
        let done_at = now + u64::from(cache.config().hit_latency);
        let outcome = cache.access_probed(now, line, op, phase, (req.core, req.id), probe);
        if let (Ok(Outcome::Miss | Outcome::WriteAround), Some(to)) = (outcome, to) {
            self.take_credit(sender, to);
        }
        match outcome {
            // The caller completes it itself: no event, no completion.
            Ok(Outcome::Hit) if fetch => return Ok(Some(done_at)),
            Ok(Outcome::Hit) => self.schedule(
                done_at,
                Ev::Done {
                    core: req.core,
                    id: req.id,
                },
            ),
            Ok(Outcome::Miss) => self.schedule(
                done_at,
                Ev::Down {
                    from: Level::L1,
                    msg: msg.with(miss_kind),
                    line,
                },
            ),
            Ok(Outcome::Merged) => {}
            Ok(Outcome::WriteAround) => {
                self.ready.push(Completion {
                    id: req.id,
                    core: req.core,
                    at: now,
                });
                self.schedule(
                    done_at,
                    Ev::Down {
                        from: Level::L1,
                        msg: msg.with(AccessKind::Write),
                        line,
                    },
                );
            }
            Err(Stall::Bank) => return Err(Reject::BankConflict),
            Err(Stall::Port) => return Err(Reject::PortBusy),
            Err(Stall::MshrFull) => {
                let refused = self.l1_refused(fetch, socket);
                if !refused.contains(&req.core) {
                    refused.push(req.core);
                }
                return Err(Reject::MshrFull);
            }
        }
        Ok(None)
    }

    /// Advance to cycle `now` and append the requests completed since the last call.
    pub fn tick(&mut self, now: u64, done: &mut Vec<Completion>) {
        let now = now.max(self.now);
        self.advance(now);
        done.append(&mut self.ready);
    }

    /// The earliest cycle after `now` at which [`Self::tick`] has something to do (None:
    /// nothing in flight).
    #[inline]
    pub fn next_event(&self, now: u64) -> Option<u64> {
        let after = now + 1;
        let ready = (!self.ready.is_empty()).then_some(after);
        let event = self.events.peek().map(|e| e.max(after));
        let dram = self.dram_next.map(|d| d.max(after));
        [ready, event, dram].into_iter().flatten().min()
    }

    /// Work still in the hierarchy (events, queued and parked requests, DRAM requests,
    /// undelivered completions); 0 when idle.
    pub fn pending(&self) -> usize {
        self.events.len()
            + self.ready.len()
            + self.dram.pending()
            + self.parked()
            + self.dram_atomics.waiting()
            + self
                .lower
                .iter()
                .map(|l| l.input.len() + l.atomics.waiting())
                .sum::<usize>()
    }
}
