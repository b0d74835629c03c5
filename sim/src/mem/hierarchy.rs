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
//! - An **Atomic** bypasses the L1 and L2/L3 caches above the last-level cache (LLC: L3 if
//!   enabled, else L2, else DRAM) and executes there as a read-modify-write: it allocates
//!   the line like a read and dirties it (write-back) or writes it below (write-through; at
//!   DRAM, a read then a write). **One atomic per line is in flight at the LLC**: another
//!   one to that line waits until the first has its data, then goes in arrival order. The
//!   atomic completes when its reply reaches the core.
//! - Every accepted request produces exactly one [`Completion`].
//!
//! **Statistics by phase.** A request carries the phase its core was in when it made the
//! request, and every event counts in the whole run's statistics and in that phase's:
//! hits, misses, merges and stalls of the request at each level, its link transfers, its
//! DRAM access. What a request causes counts in its phase too: a miss's request below, the
//! fill's eviction and the dirty victim's write-back (the miss that brought the fill), a
//! write-through write's trip down, an atomic's write below.
//!
//! **Known limit: the way to DRAM is not bounded.** A request the DRAM queues refuse waits
//! in an unbounded FIFO in front of them, and nothing holds back the caches above, so
//! write-through writes that outpace DRAM never stall the cores that make them: the
//! backlog grows, later misses wait behind it, and a program can end with writes still
//! queued. [`HierarchyStats::dram_backlog_peak`] and [`HierarchyStats::dram_unfinished`] make
//! this visible instead of silent.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};

use serde::{Deserialize, Serialize};

use super::cache::{Cache, CacheConfig, CacheStats, Op, Outcome, Replacement, Stall, WritePolicy};
use super::dram::{Dram, DramConfig, DramRequest, DramStats};
use super::interconnect::{Link, LinkConfig, LinkStats};

/// The memory system's configuration. Sizes in bytes, latencies in core cycles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MemConfig {
    /// Per-core instruction cache.
    pub l1i: CacheConfig,
    /// Per-core data cache.
    pub l1d: CacheConfig,
    /// Per-cluster L2, shared by the cluster's cores.
    pub l2: CacheConfig,
    pub l2_enabled: bool,
    /// L3 shared by all clusters.
    pub l3: CacheConfig,
    pub l3_enabled: bool,
    /// Per cluster: the cluster's L1 caches to the next enabled level.
    pub l1_link: LinkConfig,
    /// Per cluster: the L2 to the next enabled level (unused without L2).
    pub l2_link: LinkConfig,
    /// Shared: the L3 to DRAM (unused without L3).
    pub l3_link: LinkConfig,
    pub dram: DramConfig,
}

impl Default for MemConfig {
    /// Vortex SimX: 16 KiB 4-way L1s, 64-byte lines, write-through, FIFO; a 1 MiB 8-way
    /// L2 per cluster; a 2 MiB 8-way L3, disabled.
    fn default() -> Self {
        let cache = |size, ways, banks, mshrs, hit_latency| CacheConfig {
            size,
            ways,
            line: 64,
            banks,
            mshrs,
            mshr_merge: 8,
            hit_latency,
            replacement: Replacement::Fifo,
            write_policy: WritePolicy::WriteThrough,
            ports: 0,
        };
        let link = |latency, bandwidth, queue| LinkConfig {
            latency,
            bandwidth,
            queue,
        };
        MemConfig {
            l1i: cache(16 << 10, 4, 1, 16, 2),
            l1d: cache(16 << 10, 4, 4, 16, 4),
            l2: cache(1 << 20, 8, 4, 32, 16),
            l2_enabled: true,
            l3: cache(2 << 20, 8, 8, 64, 24),
            l3_enabled: false,
            l1_link: link(2, 2, 16),
            l2_link: link(4, 2, 16),
            l3_link: link(4, 4, 32),
            dram: DramConfig::default(),
        }
    }
}

impl MemConfig {
    /// Check the values; messages name `<key>.<section>.<field>`, e.g. `memory.l1d.ways`.
    pub fn validate(&self, key: &str) -> Result<(), String> {
        for (name, c) in [
            ("l1i", &self.l1i),
            ("l1d", &self.l1d),
            ("l2", &self.l2),
            ("l3", &self.l3),
        ] {
            c.validate(&format!("{key}.{name}"))?;
            if c.line != self.l1d.line {
                return Err(format!(
                    "{key}.{name}.line = {} differs from {key}.l1d.line = {}: every level uses one line size",
                    c.line, self.l1d.line
                ));
            }
        }
        for (name, l) in [
            ("l1_link", &self.l1_link),
            ("l2_link", &self.l2_link),
            ("l3_link", &self.l3_link),
        ] {
            l.validate(&format!("{key}.{name}"))?;
        }
        self.dram
            .validate()
            .map_err(|e| format!("{key}.dram: {e}"))?;
        if self.dram.line_bytes as u64 != u64::from(self.l1d.line) {
            return Err(format!(
                "{key}.dram.line_bytes = {} differs from {key}.l1d.line = {}",
                self.dram.line_bytes, self.l1d.line
            ));
        }
        Ok(())
    }
}

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
}

/// Why a request was not accepted this cycle. The core retries later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reject {
    /// The L1 bank of the line already took an access this cycle.
    BankConflict,
    /// The L1 has no free MSHR for a new miss (or the line's MSHR is full of merges).
    MshrFull,
    /// The link below the L1s has `queue` requests waiting; checked before the cache.
    QueueFull,
    /// The L1 took `ports` accesses this cycle.
    PortBusy,
}

/// A finished request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Completion {
    pub id: u64,
    pub core: u32,
    /// The cycle it completed (at most the `now` of the tick that reports it).
    pub at: u64,
}

/// Statistics of the whole memory system. Per core, per cluster, or shared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HierarchyStats {
    pub l1i: Vec<CacheStats>,
    pub l1d: Vec<CacheStats>,
    /// Per cluster; empty without L2.
    pub l2: Vec<CacheStats>,
    pub l3: Option<CacheStats>,
    /// Per cluster.
    pub l1_links: Vec<LinkStats>,
    /// Per cluster; empty without L2.
    pub l2_links: Vec<LinkStats>,
    pub l3_link: Option<LinkStats>,
    pub dram: DramStats,
    /// Most requests that waited at once for room in the DRAM queues (see the module
    /// documentation's known limit). Whole run only.
    pub dram_backlog_peak: u64,
    /// Requests waiting for or in the DRAM queues when the statistics were taken: at the
    /// end of a run, DRAM traffic the cycle count does not include. Whole run only.
    pub dram_unfinished: u64,
    /// The same, by phase: what the requests of each phase did (see the module
    /// documentation). Only phases that made requests appear; their entries have no
    /// `phases`. Field by field the phases sum to the totals, except a link's `max_queue`
    /// (the largest), the DRAM's `ticked_cycles` and `refreshes`, `dram_backlog_peak` and
    /// `dram_unfinished` (whole-run only, 0 in a phase).
    #[serde(skip)]
    pub phases: BTreeMap<u32, HierarchyStats>,
}

/// What the hierarchy needs from main memory: implemented by [`Dram`], and by simpler
/// models in tests. The contract is [`Dram`]'s: `tick` reports the ids completed at or
/// before `now`, `next_event` the next cycle after `now` at which anything happens.
pub trait DramModel {
    fn enqueue(&mut self, now: u64, req: DramRequest) -> Result<(), DramRequest>;
    fn tick(&mut self, now: u64, done: &mut Vec<u64>);
    fn next_event(&self, now: u64) -> Option<u64>;
    fn pending(&self) -> usize;
    fn stats(&self) -> DramStats;
    /// The statistics of the requests whose [`DramRequest::phase`] is `phase`.
    fn phase_stats(&self, phase: usize) -> DramStats;
}

impl DramModel for Dram {
    fn enqueue(&mut self, now: u64, req: DramRequest) -> Result<(), DramRequest> {
        Dram::enqueue(self, now, req)
    }
    fn tick(&mut self, now: u64, done: &mut Vec<u64>) {
        Dram::tick(self, now, done)
    }
    fn next_event(&self, now: u64) -> Option<u64> {
        Dram::next_event(self, now)
    }
    fn pending(&self) -> usize {
        Dram::pending(self)
    }
    fn stats(&self) -> DramStats {
        Dram::stats(self).clone()
    }
    fn phase_stats(&self, phase: usize) -> DramStats {
        Dram::phase_stats(self, phase)
    }
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
/// index of the phase in `MemoryHierarchy::phases`.
#[derive(Clone, Copy, Debug)]
struct Msg {
    core: u32,
    id: u64,
    kind: AccessKind,
    phase: u32,
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
    /// Offer DRAM the requests it refused.
    DramRetry,
}

/// A scheduled event: (cycle, creation order, its index in `MemoryHierarchy::slab`).
/// Reversed, so the heap pops the earliest, ties in creation order; the heap moves these
/// small keys, the events stay in the slab.
type EventKey = Reverse<(u64, u64, u32)>;

/// Lines with an atomic in flight at the LLC, each with the atomics waiting for it.
#[derive(Default)]
struct AtomicLines(Vec<(u32, VecDeque<Msg>)>);

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
    fn waiting(&self) -> usize {
        self.0.iter().map(|(_, q)| q.len()).sum()
    }
}

/// An L2 or the L3: requests arriving from above wait in order for the tags.
struct Lower {
    level: Level,
    cache: Cache<Msg>,
    input: VecDeque<(Msg, u32)>,
    drain_scheduled: bool,
    atomics: AtomicLines,
}

/// The memory system below the cores. See the module documentation for its semantics.
pub struct MemoryHierarchy<D: DramModel = Dram> {
    cores_per_cluster: u32,
    line_shift: u32,
    llc: Level,
    l2_enabled: bool,
    l3_enabled: bool,
    l1i: Vec<Cache<u64>>,
    l1d: Vec<Cache<u64>>,
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
    dram_retry: VecDeque<DramRequest>,
    dram_backlog_peak: u64,
    retry_scheduled: bool,
    dram_atomics: AtomicLines,
    events: BinaryHeap<EventKey>,
    seq: u64,
    /// The scheduled events, and the free places among them.
    slab: Vec<Ev>,
    free_events: Vec<u32>,
    /// The latest cycle the hierarchy has advanced to.
    now: u64,
    ready: Vec<Completion>,
    /// The phases requests came from, in order of first appearance: a request's phase is
    /// counted under its index here.
    phases: Vec<u32>,
    scratch_ids: Vec<u64>,
    scratch_msgs: Vec<Msg>,
    dram_done: Vec<u64>,
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
        let lower_cache = |level, c: &CacheConfig| Lower {
            level,
            cache: Cache::new(c),
            input: VecDeque::new(),
            drain_scheduled: false,
            atomics: AtomicLines::default(),
        };
        let mut lower = Vec::new();
        let mut links: Vec<Link> = (0..clusters).map(|_| Link::new(&cfg.l1_link)).collect();
        if cfg.l2_enabled {
            lower.extend((0..clusters).map(|_| lower_cache(Level::L2, &cfg.l2)));
            links.extend((0..clusters).map(|_| Link::new(&cfg.l2_link)));
        }
        if cfg.l3_enabled {
            lower.push(lower_cache(Level::L3, &cfg.l3));
            links.push(Link::new(&cfg.l3_link));
        }
        let llc = match (cfg.l2_enabled, cfg.l3_enabled) {
            (_, true) => Level::L3,
            (true, false) => Level::L2,
            (false, false) => Level::Dram,
        };
        MemoryHierarchy {
            cores_per_cluster,
            line_shift: cfg.l1d.line.max(1).ilog2(),
            llc,
            l2_enabled: cfg.l2_enabled,
            l3_enabled: cfg.l3_enabled,
            l1i: (0..cores).map(|_| Cache::new(&cfg.l1i)).collect(),
            l1d: (0..cores).map(|_| Cache::new(&cfg.l1d)).collect(),
            lower,
            links,
            clusters: clusters as usize,
            dram,
            dram_time: 0,
            dram_next: None,
            dram_slots: Vec::new(),
            free_slots: Vec::new(),
            dram_retry: VecDeque::new(),
            dram_backlog_peak: 0,
            retry_scheduled: false,
            dram_atomics: AtomicLines::default(),
            events: BinaryHeap::new(),
            seq: 0,
            slab: Vec::new(),
            free_events: Vec::new(),
            now: 0,
            ready: Vec::new(),
            phases: Vec::new(),
            scratch_ids: Vec::new(),
            scratch_msgs: Vec::new(),
            dram_done: Vec::new(),
        }
    }

    /// A core's request at cycle `now` (cycles never decrease; an earlier one counts as
    /// the latest seen). `Err` = not accepted this cycle: nothing changed but the stall
    /// counters. Panics if `req.core` is out of range (a caller bug, not a configuration).
    pub fn access(&mut self, now: u64, req: MemAccess) -> Result<(), Reject> {
        let now = now.max(self.now);
        self.advance(now);
        let core = req.core as usize;
        let cluster = core / self.cores_per_cluster as usize;
        let line = req.addr >> self.line_shift;
        let phase = match self.phases.iter().position(|&p| p == req.phase) {
            Some(i) => i,
            None => {
                self.phases.push(req.phase);
                self.phases.len() - 1
            }
        };
        let msg = Msg {
            core: req.core,
            id: req.id,
            kind: req.kind,
            phase: phase as u32,
        };
        if req.kind == AccessKind::Atomic {
            if self.links[cluster].down_full(now) {
                self.l1d[core].count_queue_full(phase);
                return Err(Reject::QueueFull);
            }
            self.send_down(now, Level::L1, msg, line);
            return Ok(());
        }
        let (op, miss_kind) = match req.kind {
            AccessKind::Write => (Op::Write, AccessKind::Read),
            AccessKind::Fetch => (Op::Read, AccessKind::Fetch),
            _ => (Op::Read, AccessKind::Read),
        };
        let cache = match req.kind {
            AccessKind::Fetch => &mut self.l1i[core],
            _ => &mut self.l1d[core],
        };
        // The link's queue first: it is rarely full, and looking costs less than the tags.
        if self.links[cluster].down_full(now) && cache.needs_below(line, op) {
            cache.count_queue_full(phase);
            return Err(Reject::QueueFull);
        }
        let done_at = now + u64::from(cache.config().hit_latency);
        match cache.access(now, line, op, phase, req.id) {
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
            Err(Stall::MshrFull) => return Err(Reject::MshrFull),
        }
        Ok(())
    }

    /// Advance to cycle `now` and append the requests completed since the last call.
    pub fn tick(&mut self, now: u64, done: &mut Vec<Completion>) {
        let now = now.max(self.now);
        self.advance(now);
        done.append(&mut self.ready);
    }

    /// The earliest cycle after `now` at which [`Self::tick`] has something to do (None:
    /// nothing in flight).
    pub fn next_event(&self, now: u64) -> Option<u64> {
        let after = now + 1;
        let ready = (!self.ready.is_empty()).then_some(after);
        let event = self.events.peek().map(|Reverse(e)| e.0.max(after));
        let dram = self.dram_next.map(|d| d.max(after));
        [ready, event, dram].into_iter().flatten().min()
    }

    /// Work still in the hierarchy (events, queued and parked requests, DRAM requests,
    /// undelivered completions); 0 when idle.
    pub fn pending(&self) -> usize {
        self.events.len()
            + self.ready.len()
            + self.dram.pending()
            + self.dram_retry.len()
            + self.dram_atomics.waiting()
            + self
                .lower
                .iter()
                .map(|l| l.input.len() + l.atomics.waiting())
                .sum::<usize>()
    }

    pub fn stats(&self) -> HierarchyStats {
        let mut total = self.stats_of(None);
        total.phases = (self.phases.iter().enumerate())
            .map(|(i, &phase)| (phase, self.stats_of(Some(i))))
            .collect();
        total
    }

    /// The whole run's statistics so far, without the split by phase.
    pub fn totals(&self) -> HierarchyStats {
        self.stats_of(None)
    }

    /// The whole run's statistics (`None`) or those of the phase with index `phase`,
    /// without the split by phase.
    fn stats_of(&self, phase: Option<usize>) -> HierarchyStats {
        fn cache<W: Copy>(c: &Cache<W>, phase: Option<usize>) -> CacheStats {
            phase.map_or_else(|| c.stats().clone(), |p| c.phase_stats(p))
        }
        let link = |l: &Link| phase.map_or_else(|| l.stats(), |p| l.phase_stats(p));
        let caches = |level| {
            self.lower
                .iter()
                .filter(move |l| l.level == level)
                .map(move |l| cache(&l.cache, phase))
        };
        let (dram_backlog_peak, dram_unfinished) = match phase {
            None => (
                self.dram_backlog_peak,
                (self.dram_retry.len() + self.dram.pending()) as u64,
            ),
            Some(_) => (0, 0),
        };
        let n = self.clusters;
        let l2_links = if self.l2_enabled { n } else { 0 };
        let links = |range: std::ops::Range<usize>| self.links[range].iter().map(link);
        HierarchyStats {
            l1i: self.l1i.iter().map(|c| cache(c, phase)).collect(),
            l1d: self.l1d.iter().map(|c| cache(c, phase)).collect(),
            l2: caches(Level::L2).collect(),
            l3: caches(Level::L3).next(),
            l1_links: links(0..n).collect(),
            l2_links: links(n..n + l2_links).collect(),
            l3_link: links(n + l2_links..self.links.len()).next(),
            dram: phase.map_or_else(|| self.dram.stats(), |p| self.dram.phase_stats(p)),
            dram_backlog_peak,
            dram_unfinished,
            phases: BTreeMap::new(),
        }
    }

    fn schedule(&mut self, at: u64, ev: Ev) {
        self.seq += 1;
        let slot = match self.free_events.pop() {
            Some(slot) => {
                self.slab[slot as usize] = ev;
                slot
            }
            None => {
                self.slab.push(ev);
                self.slab.len() as u32 - 1
            }
        };
        self.events.push(Reverse((at, self.seq, slot)));
    }

    /// Process every event up to `now`, DRAM's first on a tie (its replies are from the
    /// past cycle's work).
    fn advance(&mut self, now: u64) {
        loop {
            let event = self.events.peek().map(|Reverse(e)| e.0);
            let dram = self.dram_next;
            match (event, dram) {
                (_, Some(d)) if d <= now && event.is_none_or(|e| d <= e) => self.dram_step(d),
                (Some(e), _) if e <= now => {
                    if let Some(Reverse((at, _, slot))) = self.events.pop() {
                        self.free_events.push(slot);
                        self.handle(at, self.slab[slot as usize]);
                    }
                }
                _ => break,
            }
        }
        self.now = now;
    }

    fn handle(&mut self, t: u64, ev: Ev) {
        match ev {
            Ev::Done { core, id } => self.ready.push(Completion { id, core, at: t }),
            Ev::Down { from, msg, line } => self.send_down(t, from, msg, line),
            Ev::Arrive { at, msg, line } => self.arrive(t, at, msg, line),
            Ev::Up { from, msg, line } => self.send_up(t, from, msg, line),
            Ev::Respond { at, msg, line } => self.respond(t, at, msg, line),
            Ev::Drain { node } => self.drain(t, node),
            Ev::DramRetry => self.dram_retry(t),
        }
    }

    fn below(&self, level: Level) -> Level {
        match level {
            Level::L1 if self.l2_enabled => Level::L2,
            Level::L1 | Level::L2 if self.l3_enabled => Level::L3,
            _ => Level::Dram,
        }
    }

    fn above(&self, level: Level) -> Level {
        match level {
            Level::Dram if self.l3_enabled => Level::L3,
            Level::Dram | Level::L3 if self.l2_enabled => Level::L2,
            _ => Level::L1,
        }
    }

    fn cluster(&self, core: u32) -> usize {
        (core / self.cores_per_cluster) as usize
    }

    /// The link below `level`, on the path of `core`.
    fn link(&mut self, level: Level, core: u32) -> &mut Link {
        let cluster = self.cluster(core);
        let n = self.clusters;
        let i = match level {
            Level::L1 => cluster,
            Level::L2 => n + cluster,
            _ => self.links.len() - 1,
        };
        &mut self.links[i]
    }

    /// The L2 or L3 at `level` on the path of `core`.
    fn node(&self, level: Level, core: u32) -> usize {
        match level {
            Level::L2 => self.cluster(core),
            _ => self.lower.len() - 1,
        }
    }

    fn send_down(&mut self, t: u64, from: Level, msg: Msg, line: u32) {
        let to = self.below(from);
        let at = self.link(from, msg.core).down.send(t, msg.phase as usize);
        self.schedule(at, Ev::Arrive { at: to, msg, line });
    }

    fn send_up(&mut self, t: u64, from: Level, msg: Msg, line: u32) {
        if from == self.llc && msg.kind == AccessKind::Atomic {
            self.release_atomic(t, from, msg.core, line);
        }
        let to = self.above(from);
        let at = self.link(to, msg.core).up.send(t, msg.phase as usize);
        self.schedule(at, Ev::Respond { at: to, msg, line });
    }

    fn arrive(&mut self, t: u64, at: Level, msg: Msg, line: u32) {
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
    fn drain(&mut self, t: u64, node: usize) {
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

    fn respond(&mut self, t: u64, at: Level, msg: Msg, line: u32) {
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
    fn release_atomic(&mut self, t: u64, llc: Level, core: u32, line: u32) {
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

    fn dram_send(&mut self, t: u64, msg: Msg, line: u32) {
        let id = match self.free_slots.pop() {
            Some(id) => {
                self.dram_slots[id as usize] = Some((msg, line));
                id
            }
            None => {
                self.dram_slots.push(Some((msg, line)));
                self.dram_slots.len() as u64 - 1
            }
        };
        let req = DramRequest {
            id,
            addr: line << self.line_shift,
            write: msg.kind == AccessKind::Write,
            phase: msg.phase,
        };
        // Behind earlier refused requests, to keep their order.
        let refused = if self.dram_retry.is_empty() {
            self.dram_enqueue(t, req).err()
        } else {
            Some(req)
        };
        if let Some(req) = refused {
            self.dram_retry.push_back(req);
            self.dram_backlog_peak = self.dram_backlog_peak.max(self.dram_retry.len() as u64);
            if !self.retry_scheduled {
                self.retry_scheduled = true;
                self.schedule(t + 1, Ev::DramRetry);
            }
        }
    }

    fn dram_retry(&mut self, t: u64) {
        self.retry_scheduled = false;
        while let Some(req) = self.dram_retry.pop_front() {
            if let Err(req) = self.dram_enqueue(t, req) {
                self.dram_retry.push_front(req);
                self.retry_scheduled = true;
                self.schedule(t + 1, Ev::DramRetry);
                break;
            }
        }
    }

    fn dram_enqueue(&mut self, t: u64, req: DramRequest) -> Result<(), DramRequest> {
        let result = self.dram.enqueue(t, req);
        self.update_dram_next();
        result
    }

    fn update_dram_next(&mut self) {
        let after = self.dram_time + 1;
        self.dram_next = self.dram.next_event(self.dram_time).map(|d| d.max(after));
    }

    fn dram_step(&mut self, t: u64) {
        self.dram_time = t;
        let mut done = std::mem::take(&mut self.dram_done);
        self.dram.tick(t, &mut done);
        self.update_dram_next();
        for &id in &done {
            let Some((msg, line)) = self.dram_slots.get_mut(id as usize).and_then(Option::take)
            else {
                continue;
            };
            self.free_slots.push(id);
            match msg.kind {
                AccessKind::Write => {}
                AccessKind::Atomic => {
                    self.send_up(t, Level::Dram, msg, line);
                    self.dram_send(t, msg.with(AccessKind::Write), line);
                }
                _ => self.send_up(t, Level::Dram, msg, line),
            }
        }
        done.clear();
        self.dram_done = done;
    }
}
