//! The registry of what a run record holds, as every consumer names it: each [`Stat`] has
//! one name (the table's column, the baseline's key, the plot's metric), one description
//! with its unit, and one way to read it from a [`RunRecord`] into a typed [`Cell`]. The
//! experiment and sweep tables, the CSV, the regression baselines and the plots take their
//! columns from here; the terminal summary and the JSON report show the same figures,
//! computed once by the engine's typed report (IPC, SIMT efficiency, phases summed over
//! cores, a cache level's counters summed with `Merge`).
//!
//! Each statistic is declared once, in the table of [`statistics!`] below: its variant,
//! name, unit, kind of cell, whether only the timing model measures it, its description,
//! and how it is read. The enum and every method of a statistic are made from that table,
//! as gem5's statistics groups declare each statistic with its name, unit and description
//! in one place; the lists (`KERNEL`, `results`, `catalog`) only order them.

mod cell;

use std::borrow::Cow;

use wsim_sim::mem::hierarchy::CacheLevel;
use wsim_sim::report::{Report, Status};
use wsim_sim::stats::{CoreCounters, SlotReason, WeaverCounters};
use wsim_sim::Mode;
use wsim_workloads::record::{Checked, GcnLayerRun, GraphRun};

use crate::run::RunRecord;
pub use cell::{Cell, Kind};

/// The Weaver unit's counters that have a statistic each, declared once: the variant, the
/// counter (its field of `WeaverCounters`, which is also its key in the column's name) and
/// its description.
macro_rules! weaver_counts {
    ($($count:ident: $field:ident, $description:literal;)*) => {
        /// The Weaver unit's counters that have a statistic each.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        pub enum WeaverCount {
            $($count,)*
        }

        impl WeaverCount {
            pub const ALL: [WeaverCount; [$(WeaverCount::$count),*].len()] =
                [$(WeaverCount::$count),*];

            fn key(self) -> &'static str {
                match self {
                    $(WeaverCount::$count => stringify!($field),)*
                }
            }

            fn of(self, w: &WeaverCounters) -> u64 {
                match self {
                    $(WeaverCount::$count => w.$field,)*
                }
            }

            fn description(self) -> &'static str {
                match self {
                    $(WeaverCount::$count => $description,)*
                }
            }
        }
    };
}

weaver_counts! {
    Registrations: registrations, "WEAVER_REG instructions (instructions)";
    EntriesRegistered: entries_registered, "ST entries the registrations wrote (entries)";
    Rounds: rounds, "registration rounds (rounds)";
    DecodeRequests: decode_requests, "WEAVER_DEC_ID instructions (instructions)";
    Batches: batches, "decode batches that carried work (batches)";
    LanesFilled: lanes_filled, "lanes those batches filled (lanes)";
    EmptyAnswers: empty_answers, "decode requests answered with -1 (requests)";
    Skips: skips, "WEAVER_SKIP instructions (instructions)";
    TableReads: table_reads, "table reads through shared memory (accesses)";
    TableWrites: table_writes, "table writes through shared memory (accesses)";
    MemoryRequests: memory_requests, "EGHW's line requests to the data cache (requests)";
}

/// A GCN program's launch groups, by the value of its iteration records
/// (programs/gcn/gcn.h, `GCN_REC_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum GcnGroup {
    Init,
    Spmm,
    Prepare,
    GraphSum,
}

impl GcnGroup {
    pub const ALL: [GcnGroup; 4] = [
        GcnGroup::Init,
        GcnGroup::Spmm,
        GcnGroup::Prepare,
        GcnGroup::GraphSum,
    ];

    /// Its name in column names.
    pub fn name(self) -> &'static str {
        match self {
            GcnGroup::Init => "init",
            GcnGroup::Spmm => "spmm",
            GcnGroup::Prepare => "prepare",
            GcnGroup::GraphSum => "graphsum",
        }
    }

    /// The value its iteration records carry.
    fn record(self) -> u32 {
        self as u32
    }
}

/// What a statistic read from a run's report sees: the record, its report, the workload's
/// record (a graph or GCN program's) and the whole run's counters.
struct Reading<'r> {
    record: &'r RunRecord,
    r: &'r Report<GraphRun>,
    graph: Option<&'r GraphRun>,
    gcn: Option<&'r GcnLayerRun>,
    t: &'r CoreCounters,
}

impl<'r> Reading<'r> {
    /// What `stat` reads of `record`: nothing without a report (a run not set up), nor
    /// where only the timing model measures it and the run was functional.
    fn of(record: &'r RunRecord, stat: Stat) -> Option<Reading<'r>> {
        let r = record.report.as_ref()?;
        if r.mode == Mode::Functional && stat.timed() {
            return None;
        }
        // A sampled run's counters are its functional run's: of what only the timing
        // model measures, it has the estimate and what follows from it alone.
        if r.mode == Mode::Sampled && stat.timed() && !stat.sampled_runs_have() {
            return None;
        }
        let graph = r.graph.as_ref();
        Some(Reading {
            record,
            r,
            graph,
            gcn: graph.and_then(|g| g.gcn.as_ref()),
            t: &r.total,
        })
    }
}

fn count(n: Option<u64>) -> Cell {
    n.map_or(Cell::Empty, Cell::Count)
}

/// `a / b` with six decimals; empty when `b` is 0.
fn rate(a: u64, b: u64) -> Cell {
    if b > 0 {
        Cell::Fixed(a as f64 / b as f64, 6)
    } else {
        Cell::Empty
    }
}

/// An end of a sampled run's interval, rounded to a cycle: empty when the run was not
/// sampled or the interval is unbounded.
pub(crate) fn interval_end(end: Option<f64>) -> Cell {
    match end {
        Some(e) if e.is_finite() => Cell::Count(e.max(0.0).round() as u64),
        _ => Cell::Empty,
    }
}

fn text(s: Option<&str>) -> Cell {
    s.map_or(Cell::Empty, |s| Cell::Text(s.to_string()))
}

/// Rates are printed with six decimals.
const RATE: Kind = Kind::Fixed(6);

/// The registry's table: each statistic's variant (with its parameter), then `name`
/// (the column), `unit` (plots' axis labels; none for words and plain counts of things),
/// `kind` (how a table's text reads back), `timed` (only the timing model measures it: a
/// functional run's cell is empty), `description` (with its unit), and `read`: from the
/// `record` alone (`read record`, also a run not set up) or from its report (`read
/// report`, a [`Reading`]). Every method of [`Stat`] but the lists is made from it.
macro_rules! statistics {
    ($(
        $variant:ident $(($param:ident: $type:ty))? {
            name: $name:expr, unit: $unit:expr, kind: $kind:expr, timed: $timed:expr,
            description: $description:expr,
            read $from:ident: |$c:ident| $read:expr $(,)?
        }
    )*) => {
        /// A statistic or fact of a run: what the run was (the kernel as its report states
        /// it), how it ended, and what it measured.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        pub enum Stat {
            $($variant $(($type))?,)*
        }

        impl Stat {
            pub fn name(self) -> Cow<'static, str> {
                match self {
                    $(Stat::$variant $(($param))? => Cow::from($name),)*
                }
            }

            /// Its unit, for plots' axis labels (none for words and plain counts of things).
            pub fn unit(self) -> Option<&'static str> {
                match self {
                    $(Stat::$variant { .. } => $unit,)*
                }
            }

            /// What it is, with its unit.
            #[allow(unused_variables)]
            pub fn description(self) -> String {
                match self {
                    $(Stat::$variant $(($param))? => Cow::<str>::from($description).into_owned(),)*
                }
            }

            /// How its text in a table reads back.
            pub fn kind(self) -> Kind {
                match self {
                    $(Stat::$variant { .. } => $kind,)*
                }
            }

            /// Only the timing model measures it: a functional run has none.
            #[allow(unused_variables)]
            fn timed(self) -> bool {
                match self {
                    $(Stat::$variant $(($param))? => $timed,)*
                }
            }

            /// Its value in `record`.
            pub fn read(self, record: &RunRecord) -> Cell {
                let stat = self;
                match self {
                    $(Stat::$variant $(($param))? => statistics!(@read $from record stat $c $read),)*
                }
            }
        }
    };
    (@read record $record:ident $stat:ident $c:ident $read:expr) => {{
        let $c = $record;
        $read
    }};
    (@read report $record:ident $stat:ident $c:ident $read:expr) => {
        match Reading::of($record, $stat) {
            Some($c) => $read,
            None => Cell::Empty,
        }
    };
}

statistics! {
    Algorithm {
        name: "algorithm", unit: None, kind: Kind::Text, timed: false,
        description: "the graph program's algorithm (PageRank, BFS, SSSP, CC, GCN)",
        read report: |c| text(c.graph.map(|g| g.algorithm.as_str())),
    }
    Schedule {
        name: "schedule", unit: None, kind: Kind::Text, timed: false,
        description: "its schedule (VM, EM, ..., SparseWeaver, EGHW, a GCN design)",
        read report: |c| text(c.graph.map(|g| g.schedule.as_str())),
    }
    Direction {
        name: "direction", unit: None, kind: Kind::Text, timed: false,
        description: "its direction (push, pull)",
        read report: |c| text(c.graph.map(|g| g.direction.as_str())),
    }
    Form {
        name: "form", unit: None, kind: Kind::Text, timed: false,
        description: "its form (dissertation, tuned, atomicfree), from the program's name",
        read report: |c| text(c.graph.map(|_| form(&c.r.program))),
    }
    Vertices {
        name: "vertices", unit: Some("vertices"), kind: Kind::Count, timed: false,
        description: "the graph's vertices as laid out (vertices)",
        read report: |c| count(c.graph.map(|g| u64::from(g.vertices))),
    }
    Edges {
        name: "edges", unit: Some("edges"), kind: Kind::Count, timed: false,
        description: "the graph's edges as laid out (edges)",
        read report: |c| count(c.graph.map(|g| u64::from(g.edges))),
    }
    Source {
        name: "source", unit: None, kind: Kind::Count, timed: false,
        description: "BFS's and SSSP's source (a vertex index)",
        read report: |c| count(c.graph.and_then(|g| g.source).map(u64::from)),
    }
    Iterations {
        name: "iterations", unit: None, kind: Kind::Count, timed: false,
        description: "PageRank's iterations (iterations)",
        read report: |c| count(c.graph.and_then(|g| g.iterations).map(u64::from)),
    }
    Features {
        name: "features", unit: None, kind: Kind::Count, timed: false,
        description: "a GCN layer's width F (features)",
        read report: |c| count(c.gcn.map(|l| u64::from(l.features))),
    }
    InputFeatures {
        name: "input_features", unit: None, kind: Kind::Count, timed: false,
        description: "the columns of a GCN layer's input X (features)",
        read report: |c| count(c.gcn.map(|l| u64::from(l.input_features))),
    }
    InputNonzeros {
        name: "input_nonzeros", unit: None, kind: Kind::Count, timed: false,
        description: "the nonzeros drawn in X (values)",
        read report: |c| count(c.gcn.map(|l| u64::from(l.input_nonzeros))),
    }
    Status {
        name: "status", unit: None, kind: Kind::Text, timed: false,
        description: "ok, or failed: the simulation stopped on an error",
        read report: |c| Cell::Text(
            match c.r.status {
                Status::Ok => "ok",
                Status::Failed => "failed",
                Status::Interrupted => "interrupted",
            }
            .to_string(),
        ),
    }
    Exit {
        name: "exit", unit: None, kind: Kind::Count, timed: false,
        description: "the program's exit status (empty when the simulation failed)",
        read report: |c| count(c.record.exit_code().map(u64::from)),
    }
    Verified {
        name: "verified", unit: None, kind: Kind::Text, timed: false,
        description: "yes, NO (a mismatch) or - (nothing to verify)",
        read report: |c| Cell::Text(
            match c.graph.map(|g| g.result) {
                Some(Checked::Verified) => "yes",
                Some(Checked::Mismatch) => "NO",
                _ => "-",
            }
            .to_string(),
        ),
    }
    Cycles {
        name: "cycles", unit: Some("cycles"), kind: Kind::Count, timed: true,
        description: "machine cycles of the run (cycles)",
        read report: |c| Cell::Count(c.r.cycles),
    }
    Sampled {
        name: "sampled", unit: None, kind: Kind::Text, timed: true,
        description: "yes when the cycles are a sampled run's estimate, whole when the \
                      sampler simulated the run whole (exact: every column the detailed \
                      run's; empty in full detail)",
        read report: |c| match &c.r.sampling {
            Some(p) => Cell::Text(if p.whole_run { "whole" } else { "yes" }.into()),
            None => Cell::Empty,
        },
    }
    CyclesLow {
        name: "cycles_low", unit: Some("cycles"), kind: Kind::Count, timed: true,
        description: "a sampled run's 95% interval of the cycles, its low end (empty in \
                      full detail, or when the interval is unbounded) (cycles)",
        read report: |c| interval_end(c.r.sampling.as_ref().map(|s| s.cycles_low)),
    }
    CyclesHigh {
        name: "cycles_high", unit: Some("cycles"), kind: Kind::Count, timed: true,
        description: "a sampled run's 95% interval of the cycles, its high end (empty in \
                      full detail, or when the interval is unbounded) (cycles)",
        read report: |c| interval_end(c.r.sampling.as_ref().map(|s| s.cycles_high)),
    }
    Interleaving {
        name: "interleaving", unit: None, kind: Kind::Text, timed: true,
        description: "a sampled run's interleaving check: work when its work followed the \
                      order its warps ran in, places when only the work's places in the \
                      warps did, same, or elsewhere (the other order stood at another \
                      launch); where it followed, the interval holds the functional run's \
                      trajectory, not the distance to the detailed run's (empty in full \
                      detail, or when not checked)",
        read report: |c| match c.r.sampling.as_ref().and_then(|s| s.interleaving.as_ref()) {
            Some(i) => Cell::Text(i.finding().into()),
            None => Cell::Empty,
        },
    }
    WarpInstructions {
        name: "warp_instructions", unit: Some("instructions"), kind: Kind::Count, timed: false,
        description: "warp instructions issued (instructions)",
        read report: |c| Cell::Count(c.t.instructions),
    }
    ThreadInstructions {
        name: "thread_instructions", unit: Some("instructions"), kind: Kind::Count, timed: false,
        description: "active lanes summed over warp instructions (instructions)",
        read report: |c| Cell::Count(c.t.thread_instructions),
    }
    Ipc {
        name: "ipc", unit: Some("warp instructions per cycle"), kind: RATE, timed: true,
        description: "warp instructions per cycle, all cores",
        read report: |c| Cell::Fixed(c.r.ipc, 6),
    }
    SimtEfficiency {
        name: "simt_efficiency", unit: Some("fraction of lanes"), kind: RATE, timed: false,
        description: "thread instructions / (warp instructions x threads per warp), 0 to 1",
        read report: |c| Cell::Fixed(c.r.simt_efficiency, 6),
    }
    Supersteps {
        name: "supersteps", unit: None, kind: Kind::Count, timed: false,
        description: "the super-steps a graph program's device ran (steps)",
        read report: |c| count(c.graph.map(|g| u64::from(g.supersteps))),
    }
    L1dSize {
        name: "l1d_size", unit: Some("bytes"), kind: Kind::Count, timed: true,
        description: "the effective L1 data cache, smaller with the Weaver unit (bytes)",
        read report: |c| Cell::Count(u64::from(c.r.l1d_size)),
    }
    Slots(reason: SlotReason) {
        name: format!("slots_{}", reason.name()), unit: Some("issue slots"), kind: Kind::Count,
        timed: true,
        description: format!("issue slots whose reason was `{}`, all cores (slots)", reason.name()),
        read report: |c| Cell::Count(c.t.slots.get(reason)),
    }
    WeaverStallPct {
        name: "weaver_stall_pct", unit: Some("% of issue slots"), kind: Kind::Fixed(1), timed: true,
        description: "issue slots waiting for the Weaver unit (% of all slots)",
        read report: |c| {
            let all = c.t.slots.total().max(1);
            let weaver = c.t.slots.get(SlotReason::Weaver);
            Cell::Fixed(100.0 * weaver as f64 / all as f64, 1)
        },
    }
    HitRate(level: CacheLevel) {
        name: format!("{}_hit_rate", level.name()), unit: Some("fraction of accesses"),
        kind: RATE, timed: true,
        description: format!(
            "hits / accesses of the {} caches, 0 to 1; empty when nothing reached the level",
            level.name()
        ),
        read report: |c| {
            let counters = c.r.memory.level(level);
            rate(counters.hits, counters.accesses)
        },
    }
    DramReads {
        name: "dram_reads", unit: Some("requests"), kind: Kind::Count, timed: true,
        description: "completed DRAM reads (requests)",
        read report: |c| Cell::Count(c.r.memory.dram.reads),
    }
    DramWrites {
        name: "dram_writes", unit: Some("requests"), kind: Kind::Count, timed: true,
        description: "completed DRAM writes (requests)",
        read report: |c| Cell::Count(c.r.memory.dram.writes),
    }
    DramBytes {
        name: "dram_bytes", unit: Some("bytes"), kind: Kind::Count, timed: true,
        description: "bytes the completed DRAM requests moved (bytes)",
        read report: |c| Cell::Count(c.r.memory.dram.bytes),
    }
    DramBandwidth {
        name: "dram_bandwidth", unit: Some("bytes per cycle"), kind: RATE, timed: true,
        description: "DRAM bytes per core cycle (bytes/cycle)",
        read report: |c| Cell::Fixed(c.r.memory.dram.bytes as f64 / c.r.cycles.max(1) as f64, 6),
    }
    DramRowHitRate {
        name: "dram_row_hit_rate", unit: Some("fraction of requests"), kind: RATE, timed: true,
        description: "DRAM row hits / requests with a row outcome, 0 to 1",
        read report: |c| {
            let d = &c.r.memory.dram;
            rate(d.row_hits, d.row_hits + d.row_misses + d.row_conflicts)
        },
    }
    WeaverUnit {
        name: "weaver_unit", unit: None, kind: Kind::Bool, timed: false,
        description: "the cores had the Weaver unit (true, false)",
        read report: |c| Cell::Bool(c.r.weaver_unit),
    }
    Weaver(counter: WeaverCount) {
        name: format!("weaver_{}", counter.key()), unit: None, kind: Kind::Count,
        timed: counter == WeaverCount::MemoryRequests,
        description: format!("the Weaver units' {}", counter.description()),
        read report: |c| Cell::Count(counter.of(&c.t.weaver)),
    }
    GroupCycles(group: GcnGroup) {
        name: format!("group_{}_cycles", group.name()), unit: Some("cycles"), kind: Kind::Count,
        timed: true,
        description: format!(
            "a GCN run's machine cycles in its `{}` launches (cycles)",
            group.name()
        ),
        read report: |c| match c.graph {
            Some(g) if g.algorithm == "GCN" => Cell::Count(
                (c.r.iterations.iter())
                    .filter(|i| i.active == group.record())
                    .map(|i| i.cycles)
                    .sum(),
            ),
            _ => Cell::Empty,
        },
    }
    IterationRecords {
        name: "iteration_records", unit: None, kind: Kind::Count, timed: false,
        description: "the iterations the program marked with CSR 0x7C6 (records)",
        read report: |c| Cell::Count(c.r.iterations.len() as u64),
    }
    Launches {
        name: "launches", unit: None, kind: Kind::Count, timed: false,
        description: "the kernel launches the program made (vx_wspawn; records)",
        read report: |c| Cell::Count(c.r.launches.len() as u64),
    }
    PhaseNames {
        name: "phase_names", unit: None, kind: Kind::Text, timed: false,
        description: "the program's names of its phases (`0=runtime 1=init ...`)",
        read report: |c| Cell::Text(
            (c.r.phase_names.iter())
                .map(|(p, name)| format!("{p}={name}"))
                .collect::<Vec<String>>()
                .join(" "),
        ),
    }
    // Summed over cores: a phase can hold more of them than the run has cycles.
    PhaseCycles(phase: u32) {
        name: format!("phase_{phase}_cycles"), unit: Some("core-cycles"), kind: Kind::Count,
        timed: true,
        description: "core-cycles in phase N, summed over cores (core-cycles)",
        read report: |c| Cell::Count(c.r.phases.get(&phase).map_or(0, |p| p.cycles)),
    }
    PhaseWarpCycles(phase: u32) {
        name: format!("phase_{phase}_warp_cycles"), unit: Some("warp cycles"), kind: Kind::Count,
        timed: true,
        description: "warp time in phase N, each warp's own phase (warp cycles)",
        read report: |c| Cell::Count(c.r.phases.get(&phase).map_or(0, |p| p.warp_cycles)),
    }
    PhaseInstructions(phase: u32) {
        name: format!("phase_{phase}_instructions"), unit: Some("instructions"),
        kind: Kind::Count, timed: false,
        description: "warp instructions in phase N (instructions)",
        read report: |c| Cell::Count(c.r.phases.get(&phase).map_or(0, |p| p.instructions)),
    }
    Verdict {
        name: "verdict", unit: None, kind: Kind::Text, timed: false,
        description: "ok, exit_nonzero, mismatch, failed (simulation) or error (set-up)",
        read record: |record| Cell::Text(record.verdict().name().to_string()),
    }
    Error {
        name: "error", unit: None, kind: Kind::Text, timed: false,
        description: "the first line of the run's error",
        read record: |record| Cell::Text(record.error_line().to_string()),
    }
    HostSeconds {
        name: "host_seconds", unit: Some("s"), kind: Kind::Fixed(3), timed: false,
        description: "the host's time for the simulation: the one column that differs \
                      between two executions (s)",
        read report: |c| (c.r.host.as_ref()).map_or(Cell::Empty, |h| Cell::Fixed(h.seconds, 3)),
    }
}

impl Stat {
    /// The kernel as a graph or GCN program's report states it (empty for other programs).
    pub const KERNEL: [Stat; 11] = [
        Stat::Algorithm,
        Stat::Schedule,
        Stat::Direction,
        Stat::Form,
        Stat::Vertices,
        Stat::Edges,
        Stat::Source,
        Stat::Iterations,
        Stat::Features,
        Stat::InputFeatures,
        Stat::InputNonzeros,
    ];

    /// The columns after the results: how the run ended in words, and the host's time (the
    /// only column that differs between two executions of the same run).
    pub const LAST: [Stat; 3] = [Stat::Verdict, Stat::Error, Stat::HostSeconds];

    /// Whether the cycles are a sampled run's estimate, its interval and its interleaving
    /// check: the columns a sampled experiment's table has after `cycles`.
    pub const SAMPLING: [Stat; 4] = [
        Stat::Sampled,
        Stat::CyclesLow,
        Stat::CyclesHigh,
        Stat::Interleaving,
    ];

    /// Every column a table of runs takes from the registry, in the tables' order (an
    /// experiment's and a sweep's alike, their identifying columns aside): the kernel, the
    /// results with `phases`, then [`Stat::LAST`].
    pub fn columns(phases: &[u32]) -> Vec<Stat> {
        let mut all = Stat::KERNEL.to_vec();
        all.extend(Stat::results(phases));
        all.extend(Stat::LAST);
        all
    }

    /// How the run ended and what it measured, in the tables' order, with a cycles and a
    /// warp-cycles column for each of `phases`.
    pub fn results(phases: &[u32]) -> Vec<Stat> {
        let mut all = vec![
            Stat::Status,
            Stat::Exit,
            Stat::Verified,
            Stat::Cycles,
            Stat::WarpInstructions,
            Stat::ThreadInstructions,
            Stat::Ipc,
            Stat::SimtEfficiency,
            Stat::Supersteps,
            Stat::L1dSize,
        ];
        all.extend(SlotReason::ALL.map(Stat::Slots));
        all.push(Stat::WeaverStallPct);
        all.extend([CacheLevel::L1d, CacheLevel::L2, CacheLevel::L3].map(Stat::HitRate));
        all.extend([
            Stat::DramReads,
            Stat::DramWrites,
            Stat::DramBytes,
            Stat::DramBandwidth,
            Stat::DramRowHitRate,
            Stat::WeaverUnit,
        ]);
        all.extend(WeaverCount::ALL.map(Stat::Weaver));
        all.extend(GcnGroup::ALL.map(Stat::GroupCycles));
        all.push(Stat::PhaseNames);
        for &p in phases {
            all.extend([Stat::PhaseCycles(p), Stat::PhaseWarpCycles(p)]);
        }
        all
    }

    /// Of the statistics only the timing model measures, those a sampled run has: its
    /// estimate of the cycles, the interval and the interleaving check, IPC from them, and
    /// the configured L1D.
    fn sampled_runs_have(self) -> bool {
        matches!(
            self,
            Stat::Cycles
                | Stat::Sampled
                | Stat::CyclesLow
                | Stat::CyclesHigh
                | Stat::Interleaving
                | Stat::Ipc
                | Stat::L1dSize
        )
    }

    /// Every statistic without a phase, then the three of a phase `N` (for listings).
    pub fn catalog() -> Vec<Stat> {
        let mut all = Stat::KERNEL.to_vec();
        all.extend(Stat::results(&[]));
        all.push(Stat::HitRate(CacheLevel::L1i));
        all.extend([Stat::IterationRecords, Stat::Launches]);
        all.extend(Stat::SAMPLING);
        all.extend([
            Stat::PhaseCycles(0),
            Stat::PhaseWarpCycles(0),
            Stat::PhaseInstructions(0),
        ]);
        all.extend([Stat::Verdict, Stat::Error, Stat::HostSeconds]);
        all
    }

    /// The statistic called `name`.
    pub fn parse(name: &str) -> Option<Stat> {
        let phase = |rest: &str, suffix: &str| -> Option<u32> {
            let n = rest.strip_suffix(suffix)?;
            (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                .then(|| n.parse().ok())
                .flatten()
        };
        if let Some(rest) = name.strip_prefix("phase_") {
            // `_warp_cycles` before `_cycles`, which it ends with.
            if let Some(p) = phase(rest, "_warp_cycles") {
                return Some(Stat::PhaseWarpCycles(p));
            }
            if let Some(p) = phase(rest, "_cycles") {
                return Some(Stat::PhaseCycles(p));
            }
            if let Some(p) = phase(rest, "_instructions") {
                return Some(Stat::PhaseInstructions(p));
            }
        }
        Stat::catalog()
            .into_iter()
            .filter(|s| s.phase().is_none())
            .find(|s| s.name() == name)
    }

    /// The phase of a per-phase statistic.
    pub fn phase(self) -> Option<u32> {
        match self {
            Stat::PhaseCycles(p) | Stat::PhaseWarpCycles(p) | Stat::PhaseInstructions(p) => Some(p),
            _ => None,
        }
    }
}

/// A graph program's form (docs/KERNELS.md), from its name: `<algo>_<sched>_<dir>` is the
/// dissertation's, a `_tuned` or `_atomicfree` suffix names the others. The descriptor
/// does not carry it; the name is the Makefile's manifest key.
fn form(program: &str) -> &'static str {
    let stem = std::path::Path::new(program)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(program);
    ["tuned", "atomicfree"]
        .into_iter()
        .find(|f| stem.ends_with(&format!("_{f}")))
        .unwrap_or("dissertation")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_statistic_is_found_by_its_name() {
        let mut names = std::collections::BTreeSet::new();
        for stat in Stat::catalog()
            .into_iter()
            .chain([Stat::PhaseCycles(12), Stat::PhaseWarpCycles(3)])
        {
            let name = stat.name();
            assert_eq!(Stat::parse(&name), Some(stat), "{name}");
            assert!(names.insert(name.clone()), "{name} twice");
            assert!(!stat.description().is_empty(), "{name}");
        }
        for unknown in [
            "phase__cycles",
            "phase_x_cycles",
            "instructions",
            "l4_hit_rate",
        ] {
            assert_eq!(Stat::parse(unknown), None, "{unknown}");
        }
    }

    #[test]
    fn forms_come_from_program_names() {
        assert_eq!(form("programs/build/graph/bfs_vm_pull.elf"), "dissertation");
        assert_eq!(form("bfs_vm_pull_tuned"), "tuned");
        assert_eq!(form("pr_vm_pull_atomicfree"), "atomicfree");
    }
}
