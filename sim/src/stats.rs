//! Statistics: every issue slot of every core in every cycle is attributed to exactly one
//! reason, every counter can be split by the phase the program set (CSR 0x7C0), and the
//! run can be cut into iterations (CSR 0x7C6).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use crate::counts::{CountKey, Counts, Merge};
use crate::mem::cache::CacheStats;
use crate::mem::hierarchy::HierarchyStats;

/// Why an issue slot did or did not issue an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SlotReason {
    Issued,
    /// No live warp in the slot's slice.
    NoActiveWarp,
    /// Warps wait for the instruction cache: a fetch in flight (its hit latency or a miss).
    Fetch,
    /// No buffered instruction ready and no fetch in flight (a fetch not yet made or
    /// refused, decode latency, a branch not yet resolved).
    IbufferEmpty,
    /// The next instruction waits for a register written by a load or atomic.
    ScoreboardMemory,
    ScoreboardAlu,
    ScoreboardFpu,
    ScoreboardSfu,
    /// The instruction's functional unit (or the memory system) cannot accept it.
    UnitBusy,
    /// Every live warp of the slice waits at a barrier.
    Barrier,
    /// The warp waits for the Weaver unit to answer a decode request.
    Weaver,
}

impl SlotReason {
    pub const ALL: [SlotReason; 11] = [
        SlotReason::Issued,
        SlotReason::NoActiveWarp,
        SlotReason::Fetch,
        SlotReason::IbufferEmpty,
        SlotReason::ScoreboardMemory,
        SlotReason::ScoreboardAlu,
        SlotReason::ScoreboardFpu,
        SlotReason::ScoreboardSfu,
        SlotReason::UnitBusy,
        SlotReason::Barrier,
        SlotReason::Weaver,
    ];

    pub fn name(self) -> &'static str {
        match self {
            SlotReason::Issued => "issued",
            SlotReason::NoActiveWarp => "no_active_warp",
            SlotReason::Fetch => "fetch",
            SlotReason::IbufferEmpty => "ibuffer_empty",
            SlotReason::ScoreboardMemory => "scoreboard_memory",
            SlotReason::ScoreboardAlu => "scoreboard_alu",
            SlotReason::ScoreboardFpu => "scoreboard_fpu",
            SlotReason::ScoreboardSfu => "scoreboard_sfu",
            SlotReason::UnitBusy => "unit_busy",
            SlotReason::Barrier => "barrier",
            SlotReason::Weaver => "weaver",
        }
    }
}

/// Issue-slot counts by reason.
pub type Slots = Counts<SlotReason, { SlotReason::ALL.len() }>;

impl CountKey<{ SlotReason::ALL.len() }> for SlotReason {
    const ALL: [Self; SlotReason::ALL.len()] = SlotReason::ALL;

    fn index(self) -> usize {
        self as usize
    }

    fn name(self) -> &'static str {
        SlotReason::name(self)
    }
}

crate::merged_counters! {
/// Counters of one core in one phase.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoreCounters {
    /// Cycles this core spent in the phase (the core's phase: the last any warp wrote).
    [timing] pub cycles: u64,
    /// Cycles live warps spent in the phase as their own (each warp's last write): an
    /// exact split of warp time, where `cycles` is an estimate when warps differ.
    [timing] pub warp_cycles: u64,
    [timing] pub slots: Slots,
    /// Warp instructions issued.
    pub instructions: u64,
    /// Active lanes summed over warp instructions.
    pub thread_instructions: u64,
    /// Warp instructions per functional unit.
    pub alu: u64,
    pub mul: u64,
    pub div: u64,
    pub fpu: u64,
    pub lsu: u64,
    pub sfu: u64,
    pub branches: u64,
    /// Branches and indirect jumps whose lanes went different ways.
    pub divergent_branches: u64,
    /// Divergent indirect jumps to targets the static analysis did not find.
    pub unknown_indirect_divergence: u64,
    pub loads: u64,
    pub stores: u64,
    pub atomics: u64,
    /// Line requests the coalescer sent to the data cache.
    [timing] pub dcache_requests: u64,
    /// Local-memory accesses and the extra cycles their bank conflicts cost.
    [timing] pub local_accesses: u64,
    [timing] pub local_bank_conflict_cycles: u64,
    /// Extra operand-read cycles from register-bank conflicts.
    [timing] pub register_bank_conflicts: u64,
    pub barriers: u64,
    pub traps: u64,
    pub warps_spawned: u64,
    pub weaver: WeaverCounters,
}
}

/// The states of the Weaver's FSM (dissertation Figure 4.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FsmState {
    /// Idle: the round is registering.
    S0,
    /// Load the first ST entry into the current-entry buffer (CED).
    S1,
    /// Fill output-data (OD) slots from the CED.
    S2,
    /// The CED ran out before the OD filled: select the next ST entry.
    S3,
    /// Load that entry into the CED.
    S4,
    /// The OD is full: write the batch's edge ids to the DT.
    S5,
    /// Wait for the next decode request.
    S6,
    /// The ST ran out: hand out the last, partial batch.
    S7,
    /// Finished: every request gets -1 until a registration starts a new round.
    S8,
}

impl FsmState {
    pub const ALL: [FsmState; 9] = [
        FsmState::S0,
        FsmState::S1,
        FsmState::S2,
        FsmState::S3,
        FsmState::S4,
        FsmState::S5,
        FsmState::S6,
        FsmState::S7,
        FsmState::S8,
    ];

    /// What the state does (docs/WEAVER.md, the dissertation's Figure 4.6).
    pub fn meaning(self) -> &'static str {
        match self {
            FsmState::S0 => "registering",
            FsmState::S1 => "load first entry",
            FsmState::S2 => "fill OD from CED",
            FsmState::S3 => "select next entry",
            FsmState::S4 => "load CED",
            FsmState::S5 => "write DT",
            FsmState::S6 => "wait for request",
            FsmState::S7 => "ST exhausted",
            FsmState::S8 => "finished",
        }
    }
}

/// A count per FSM state; serialized as a map `S0`..`S8`.
pub type PerState = Counts<FsmState, 9>;

impl CountKey<9> for FsmState {
    const ALL: [Self; 9] = FsmState::ALL;

    fn index(self) -> usize {
        self as usize
    }

    fn name(self) -> &'static str {
        ["S0", "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"][self as usize]
    }
}

crate::merged_counters! {
/// What a core's Weaver unit did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeaverCounters {
    /// WEAVER_REG instructions and the ST entries they wrote.
    pub registrations: u64,
    pub entries_registered: u64,
    /// Registration rounds (a registration after a finished distribution starts one).
    pub rounds: u64,
    /// WEAVER_DEC_ID instructions; batches that carried work; lanes those filled; requests
    /// answered with -1.
    pub decode_requests: u64,
    pub batches: u64,
    pub lanes_filled: u64,
    pub empty_answers: u64,
    /// WEAVER_DEC_LOC and WEAVER_SKIP instructions.
    pub location_requests: u64,
    pub skips: u64,
    /// Edges dropped because their vertex was skipped.
    pub edges_skipped: u64,
    /// Table accesses (one per entry or per lane) through shared memory.
    pub table_reads: u64,
    pub table_writes: u64,
    /// EGHW: line requests the unit sent to the data cache for topology and edges.
    [timing] pub memory_requests: u64,
    /// Times each FSM state was entered, and the cycles spent in it while a round was open.
    pub state_visits: PerState,
    [timing] pub state_cycles: PerState,
}
}

/// A core's counters, by phase. Phase 0 is where every program starts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CoreStats {
    pub phases: BTreeMap<u32, CoreCounters>,
    /// Deepest SIMT stack seen.
    pub max_stack_depth: u64,
}

impl CoreStats {
    /// The counters of `phase`.
    #[inline]
    pub fn phase(&mut self, phase: u32) -> &mut CoreCounters {
        self.phases.entry(phase).or_default()
    }

    /// All phases together.
    pub fn total(&self) -> CoreCounters {
        let mut t = CoreCounters::default();
        for c in self.phases.values() {
            t.merge(c);
        }
        t
    }
}

/// What the caches of one level did, summed over the level's caches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelTally {
    pub accesses: u64,
    pub hits: u64,
    pub misses: u64,
    pub mshr_full_stalls: u64,
}

impl LevelTally {
    fn of<'a>(caches: impl IntoIterator<Item = &'a CacheStats>) -> Self {
        caches.into_iter().fold(Self::default(), |t, c| LevelTally {
            accesses: t.accesses + c.accesses,
            hits: t.hits + c.hits,
            misses: t.misses + c.misses,
            mshr_full_stalls: t.mshr_full_stalls + c.mshr_full_stalls,
        })
    }

    fn since(&self, earlier: &Self) -> Self {
        LevelTally {
            accesses: self.accesses - earlier.accesses,
            hits: self.hits - earlier.hits,
            misses: self.misses - earlier.misses,
            mshr_full_stalls: self.mshr_full_stalls - earlier.mshr_full_stalls,
        }
    }
}

/// The memory system's counters an iteration record keeps: the data caches by level and
/// main memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryTally {
    pub l1d: LevelTally,
    pub l2: LevelTally,
    pub l3: LevelTally,
    pub dram_reads: u64,
    pub dram_writes: u64,
    pub dram_bytes: u64,
}

impl MemoryTally {
    pub fn of(s: &HierarchyStats) -> Self {
        MemoryTally {
            l1d: LevelTally::of(&s.l1d),
            l2: LevelTally::of(&s.l2),
            l3: LevelTally::of(&s.l3),
            dram_reads: s.dram.reads,
            dram_writes: s.dram.writes,
            dram_bytes: s.dram.bytes,
        }
    }

    /// The events between `earlier` and `self` (both whole-run counts).
    pub fn since(&self, earlier: &Self) -> Self {
        MemoryTally {
            l1d: self.l1d.since(&earlier.l1d),
            l2: self.l2.since(&earlier.l2),
            l3: self.l3.since(&earlier.l3),
            dram_reads: self.dram_reads - earlier.dram_reads,
            dram_writes: self.dram_writes - earlier.dram_writes,
            dram_bytes: self.dram_bytes - earlier.dram_bytes,
        }
    }
}

/// Writing this to the iteration CSR (0x7C6) closes the open iteration without opening one.
pub const ITERATION_END: u32 = u32::MAX;

/// One iteration of the program (a graph kernel's super-step): from a write of the
/// iteration CSR to the next write (or the end of the run). Machine-wide: any core's write
/// marks the boundary, at the end of the cycle it issued in.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Iteration {
    /// Position among the run's iterations, from 0.
    pub index: u32,
    /// The value the program wrote (graph kernels: the size of the input frontier).
    pub active: u32,
    /// The first cycle of the iteration and its length in machine cycles.
    pub start_cycle: u64,
    pub cycles: u64,
    /// Every core's counters over the iteration, summed (`counters.cycles` is core-cycles).
    pub counters: CoreCounters,
    pub memory: MemoryTally,
}

/// One kernel launch, machine-wide: from the end of the cycle in which a core's
/// `vx_wspawn` started warps while no core had spawned warps running, to the end of the
/// cycle in which the last spawned warp of every core exited. The cores' launches of one
/// `wsim_spawn` overlap and make one record; code between launches (`main`'s) is in none.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LaunchRecord {
    /// Position among the run's launches, from 0.
    pub index: u32,
    /// The kernel: the function whose address `wsim_spawn` was given, as the runtime's
    /// launch table held it when the launch opened (`name`, or `name+0xoff` for an address
    /// inside one, or the address); absent for a program without wsim's runtime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
    /// The first cycle of the launch and its length in machine cycles.
    pub start_cycle: u64,
    pub cycles: u64,
    /// Every core's counters over the launch, summed (`counters.cycles` is core-cycles).
    pub counters: CoreCounters,
    pub memory: MemoryTally,
    /// The launch wait, in a profiled run (`Machine::profile_pcs`): the slots among
    /// `counters.slots` charged to the runtime's `wsim_spawn` itself, where warp 0 of each
    /// core, its own lanes of the kernel run, waits for its core's warps and the other
    /// cores until the launch ends (docs/OBSERVING.md, "The launch wait").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub launch_wait: Option<Slots>,
}

/// How a sampled run's cycles were estimated (`wsim run --sample`; the sampler crate
/// computes it, docs/ARCHITECTURE.md, "Sampled simulation"). The run is cut into units at
/// the ends of its launches; units are grouped into strata (the first unit, each kernel's
/// units, the last unit); a stratum's sampled units are simulated in detail from copies of
/// the functionally run machine, and its cycles estimated from theirs by the ratio of
/// cycles to warp instructions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sampling {
    /// One unit of each stratum's in this many is simulated in detail (and its first two).
    pub every: u32,
    /// Units end inside a launch once they have this many warp instructions (0: only where
    /// launches end).
    pub period: u64,
    /// Units simulated in detail before each sampled one, unmeasured, to warm its caches,
    /// DRAM and pipeline.
    pub warmup_units: u32,
    /// The functional run warmed the caches' tags between the detailed units.
    pub warm_caches: bool,
    /// The diameter of the clusters of similar launches, by their basic-block vectors and
    /// active lanes (0: none; the strata name a cluster by its first launch).
    #[serde(default)]
    pub cluster: f64,
    pub units: u32,
    pub sampled_units: u32,
    /// Warp instructions simulated in detail (warm-up and the sampler's probes of the cores
    /// included), and in the whole run.
    pub detailed_instructions: u64,
    pub instructions: u64,
    /// The estimate of the run's cycles and its 95% confidence interval (unbounded when a
    /// stratum was measured once of several and no other was to collapse it with; its low
    /// end at least the cycles of the run's start simulated whole).
    pub cycles: f64,
    #[serde(deserialize_with = "unbounded::below")]
    pub cycles_low: f64,
    #[serde(deserialize_with = "unbounded::above")]
    pub cycles_high: f64,
    /// The degrees of freedom of the interval's t quantile (0: every unit was measured).
    pub degrees_of_freedom: u32,
    /// The half width of the lone warps' spread (the estimate with each probed lone
    /// warp's rates in turn, `LaunchProgress::lone_warp_ratios`, a prediction's), which
    /// widens the sampling's in quadrature to the interval's (0: no launch timed with two
    /// or more probed).
    #[serde(default)]
    pub lone_warp_half_width: f64,
    /// The plan would have simulated three quarters of the run's warp instructions in
    /// detail or more, so the run was simulated whole from its start: its cycles are exact,
    /// and the report is the detailed run's (mode detailed, every statistic).
    #[serde(default)]
    pub whole_run: bool,
    pub strata: Vec<Stratum>,
    /// The units simulated in detail and measured, in run order.
    pub measured: Vec<MeasuredUnit>,
    /// Units of detailed warm-up before a warm-up check's measurement (0: no check).
    #[serde(default)]
    pub check_warmup: u32,
    /// The warm-up check, when one measured units twice: the estimate and its interval are
    /// corrected by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<WarmupCheck>,
    /// The plan weighs and scales the units inside launches (with a `period`) by the
    /// cores' progress through them: under core order a socket's cores finish one after
    /// another, and a core's heavy warps drain alone, where the functional run's copies
    /// have them all at work in lock step (the sampler's `progress.rs`; `launch_progress`
    /// says which launches it scaled).
    #[serde(default)]
    pub progress: bool,
    /// Each launch the model timed (its units' part of the estimate is its time by place
    /// in cycles, `Stratum::calibration`), with the model's inputs and ratio.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub launch_progress: Vec<LaunchProgress>,
    /// The probes of each scaled kernel's sockets with fewer cores, or one warp, at work.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub probes: Vec<CoreProbe>,
    /// The interleaving check: whether the run's work follows the order its warps run in
    /// (absent when the run was simulated whole, or had no launch to check at).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interleaving: Option<Interleaving>,
    /// The budget of detail the plan was trimmed to (`wsim run --sample-budget`), when it
    /// had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<Budget>,
}

/// A sampled run's budget of detail (the sampler's `budget.rs`): every detailed job was
/// held to the run's end and the plan trimmed to at most `share` of its warp instructions
/// in detail where it could be, the most valuable first (each stratum's first measured
/// unit and the cores' probes, then two warm-up checks, then each stratum's second unit,
/// then the rest).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Budget {
    /// The share of the run's warp instructions the plan may simulate in detail.
    pub share: f64,
    /// The warp instructions the plan would simulate in detail at most, before the trim and
    /// after it (each job from its warm-up's start to its last unit, its probes at their
    /// longest), counted in the functional run's: detail spins `wsim_spawn`'s wait loop
    /// otherwise, so `detailed_instructions` can differ by a little (1% on the tests' PageRank).
    pub planned: u64,
    pub kept: u64,
    /// Measured units and warm-up checks the trim dropped.
    pub dropped_units: u32,
    pub dropped_checks: u32,
    /// The longest a probe of the cores at a kernel's head may run, when the trim shortened
    /// the probes (warp instructions; a probe at least its unit's length).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probe_length: Option<u64>,
    /// The kept plan is within the share: not when each stratum's first measured unit,
    /// with the probes at a unit's length, is beyond it alone.
    pub held: bool,
}

/// A sampled run's interleaving check (the sampler's `order.rs`): the start of the run
/// again, functionally, with the rounds in the other order (the cores and their warps last
/// to first), compared PC by PC with the run right after the global barrier that ended its
/// `launches`th launch, or at its end. The estimate is of the run's own trajectory: where the work follows
/// the order, a detailed run's trajectory does other work, which its interval does not hold.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Interleaving {
    /// The launches before the point compared.
    pub launches: u32,
    /// The run's warp instructions up to the point.
    pub instructions: u64,
    /// The other order stood at the same point: as many launches ended.
    pub reached: bool,
    /// The run's warp and thread instructions in the launched kernels' code up to the
    /// point, and the sums over those PCs of how many the other order's differ by: its
    /// thread instructions move where the work itself follows the order (which update
    /// wins), its warp instructions also where only the work's places do (a frontier
    /// filled by atomics puts its vertices in other warps).
    pub warp_instructions: u64,
    pub moved_warp_instructions: u64,
    pub thread_instructions: u64,
    pub moved_thread_instructions: u64,
}

impl Interleaving {
    /// What the check found, in a word: `elsewhere` (the other order stood at another
    /// launch at the point), `work` (it moved thread instructions: the work itself follows
    /// the order), `places` (warp instructions only: the work's places in the warps follow
    /// it) or `same`.
    pub fn finding(&self) -> &'static str {
        match (
            self.reached,
            self.moved_thread_instructions,
            self.moved_warp_instructions,
        ) {
            (false, ..) => "elsewhere",
            (true, 1.., _) => "work",
            (true, 0, 1..) => "places",
            (true, 0, 0) => "same",
        }
    }

    /// Whether the work followed the order.
    pub fn follows_order(&self) -> bool {
        self.finding() != "same"
    }

    /// The shares of the kernels' warp and thread instructions the other order moved.
    pub fn moved_shares(&self) -> (f64, f64) {
        let share = |moved: u64, of: u64| moved as f64 / of.max(1) as f64;
        (
            share(self.moved_warp_instructions, self.warp_instructions),
            share(self.moved_thread_instructions, self.thread_instructions),
        )
    }
}

/// An interval's bound or half width, which can be unbounded: JSON has no infinity, so an
/// infinite one is written as null and read back as infinite.
mod unbounded {
    use serde::{Deserialize, Deserializer};

    pub fn above<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::INFINITY))
    }

    pub fn below<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NEG_INFINITY))
    }
}

/// A probe (`Sampling::probes`): from the start of a kernel's first measured body unit, a
/// copy with only the last `active` cores of each socket at work, the others parked, as
/// a socket is once its first cores have finished their share of the launch under core
/// order; a scaled launch of the kernel gives that many cores at work these rates. With
/// `alone`, only one socket's last `active` cores at work, the other sockets parked, as
/// the socket that ends a launch is once the others have ended (they share the L2). With
/// `lone_warp` (and `alone`), one warp of one socket at work, the others parked, as a core
/// is at the end of its drain: a warp's own rate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CoreProbe {
    pub kernel: String,
    pub unit: u32,
    pub active: u32,
    #[serde(default)]
    pub alone: bool,
    #[serde(default)]
    pub lone_warp: bool,
    pub cycles: u64,
    /// Each core's warp instructions a cycle, in core order (0 for those parked).
    pub rates: Vec<f64>,
}

/// A launch whose body was scaled by the cores' progress (`Sampling::progress`): the
/// model's inputs and its ratio.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LaunchProgress {
    pub launch: u32,
    /// Each core's warp instructions a cycle in its kernel's measured body units (all at
    /// work), in core order.
    pub rates: Vec<f64>,
    /// Each core's warp instructions in its body and tail.
    pub work: Vec<u64>,
    /// Each socket's lone warp's warp instructions a cycle, the mean of its probed warps'
    /// (none: the warps were not timed, and only the units before the first core's end
    /// were scaled).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lone_warp: Vec<f64>,
    /// Each socket's shares of a core's rate, the largest first: its cores' warps'
    /// instructions by place in its kernel's measured full units (cores with every warp
    /// at work), sorted; a core's live warps take them oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warp_shares: Vec<Vec<f64>>,
    /// Its sockets' time by place over the copies' time for its units (the cores'
    /// progress model): its body's and tail's scale.
    pub ratio: f64,
    /// The ratio with each probed lone warp's rates instead of their mean (none with fewer
    /// than two probed): their spread is the lone warps' part of the interval.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lone_warp_ratios: Vec<f64>,
}

/// A sampled run's warm-up check: units measured after the run's warm-up and again after a
/// longer one (`Sampling::check_warmup`); the ratio of the second's cycles to the first's
/// corrects every measured unit but those simulated from the run's start on (exact).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WarmupCheck {
    /// Units measured twice.
    pub units: u32,
    /// Whether the ratio corrected the estimate: not with one unit checked, whose ratio's
    /// spread is unknown.
    pub applied: bool,
    /// Their cycles after the longer warm-up over those after the run's, and the half
    /// width of that ratio's 95% interval (infinite with one unit).
    pub ratio: f64,
    #[serde(deserialize_with = "unbounded::above")]
    pub ratio_half_width: f64,
}

/// A unit of a sampled run simulated in detail: where it is in the run and what it took.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MeasuredUnit {
    /// Its index among the run's units, and the name of the stratum its cycles are
    /// estimated in (a launch body's post-stratum where one is split, `Stratum::name`).
    pub unit: u32,
    pub stratum: String,
    /// The launches ended when it starts and when it ends (the last unit ends with the
    /// run): a full-detail run's launch records give its cycles.
    pub launches_from: u32,
    pub launches_to: u32,
    /// It starts and ends where launches end (or the run starts or ends); a unit inside a
    /// launch (`period`) does not.
    pub whole_launches: bool,
    pub instructions: u64,
    pub cycles: u64,
    /// Its cycles after the warm-up check's longer warm-up, when it was checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_cycles: Option<u64>,
    /// Its weight in its stratum's estimate where the cores' progress model weighs it (its
    /// instructions times how much slower than with every core at work the model has a
    /// copy run it; `Sampling::progress`), not its instructions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<f64>,
    /// Its copy had every core at work to its end (a full unit): its kernel's units that
    /// the cores' progress model times are calibrated by these alone (`Stratum::calibration`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub calibrates: bool,
    /// Measured beyond the plan as the first unit of its launch body's octave of warps,
    /// for that octave's post-stratum alone (`Stratum::name`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub octave_first: bool,
}

/// One stratum of a sampled run: its units, those measured, its estimate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stratum {
    /// `first`, `last`, or the kernel of its units' launches.
    pub name: String,
    pub units: u32,
    pub sampled_units: u32,
    pub instructions: u64,
    /// The estimate of its cycles, and the half-width of its 95% interval.
    pub cycles: f64,
    #[serde(deserialize_with = "unbounded::above")]
    pub half_width: f64,
    /// The warm-up check's ratio that corrected its measured units, when one did: its own
    /// when four or more of its units were checked (the sampler's `OWN_CHECK`), else the
    /// run's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_ratio: Option<f64>,
    /// The cores' progress ratio its units' cycles were scaled by (a launch body's or
    /// tail's, the mean of its launches' by their units' weights; `Sampling::progress`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress_ratio: Option<f64>,
    /// Where the cores' progress model times some of its units: their weights together
    /// (`MeasuredUnit::weight`), and its kernel's calibration, the cycles a weight is
    /// (its measured full units' cycles over their weights, `MeasuredUnit::calibrates`).
    /// Those units' part of its estimate is the calibration times the weight times the
    /// progress ratio; its other units' (those of the detailed stretch from the run's
    /// start) is their cycles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<f64>,
    /// Where its interval borrows a spread (it, or its calibration, measured once of
    /// several): how many strata measured once were collapsed into the group whose
    /// ratios' spread stands for its own (the sampler's `estimate::collapse`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collapsed: Option<u32>,
}

impl Stratum {
    /// The part of its estimate the cores' progress model timed: the calibration times
    /// the weight times the progress ratio (none where the model times none of its units).
    pub fn timed_cycles(&self) -> Option<f64> {
        Some(self.calibration? * self.weight? * self.progress_ratio?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sampled run's unbounded interval (a stratum measured once of several, a warm-up
    /// check of one unit) is written as null and read back as unbounded, so that a cached
    /// run with one stays readable.
    #[test]
    fn an_unbounded_interval_survives_json() {
        let sampling = Sampling {
            cycles: 100.0,
            cycles_low: f64::NEG_INFINITY,
            cycles_high: f64::INFINITY,
            strata: vec![Stratum {
                half_width: f64::INFINITY,
                ..Stratum::default()
            }],
            check: Some(WarmupCheck {
                units: 1,
                ratio: 1.0,
                ratio_half_width: f64::INFINITY,
                ..WarmupCheck::default()
            }),
            ..Sampling::default()
        };
        let json = serde_json::to_string(&sampling).unwrap();
        assert!(json.contains("\"cycles_high\":null"), "{json}");
        let back: Sampling = serde_json::from_str(&json).unwrap();
        assert_eq!(back, sampling);
    }
}
