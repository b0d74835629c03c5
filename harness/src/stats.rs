//! The registry of what a run record holds, as every consumer names it: each [`Stat`] has
//! one name (the table's column, the baseline's key, the plot's metric), one description
//! with its unit, and one way to read it from a [`RunRecord`] into a typed [`Cell`]. The
//! experiment and sweep tables, the CSV, the regression baselines and the plots take their
//! columns from here; the terminal summary and the JSON report show the same figures,
//! computed once by the engine's typed report (IPC, SIMT efficiency, phases summed over
//! cores, a cache level's counters summed with `Merge`).

use std::borrow::Cow;
use std::fmt;

use wsim_sim::mem::hierarchy::CacheLevel;
use wsim_sim::report::Status;
use wsim_sim::stats::{SlotReason, WeaverCounters};
use wsim_sim::Mode;
use wsim_workloads::record::Checked;

use crate::run::RunRecord;

/// One cell of a table: a typed value, printed the same way everywhere (rates with six
/// decimals), so equal runs give equal rows.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Nothing to say: a run not set up, a level nothing reached, a program without it.
    Empty,
    Count(u64),
    /// A real number printed with this many decimals.
    Fixed(f64, usize),
    Bool(bool),
    Text(String),
    /// A value as a person wrote it (a configuration value of an axis): printed as written,
    /// a number in JSON when it reads as one.
    Written(String),
}

impl Cell {
    /// The number it holds (a written value that reads as one included).
    pub fn number(&self) -> Option<f64> {
        match self {
            Cell::Count(n) => Some(*n as f64),
            Cell::Fixed(x, _) => Some(*x),
            Cell::Written(s) => s.parse().ok(),
            _ => None,
        }
    }

    /// As JSON: numbers as numbers (a fixed one as printed), empty as null.
    pub fn json(&self) -> serde_json::Value {
        use serde_json::Value;
        let number = |text: &str| text.parse::<serde_json::Number>().ok().map(Value::Number);
        match self {
            _ if self.is_empty() => Value::Null,
            Cell::Empty => Value::Null,
            Cell::Count(n) => Value::from(*n),
            Cell::Bool(b) => Value::Bool(*b),
            Cell::Fixed(..) => number(&self.to_string()).unwrap_or(Value::Null),
            Cell::Text(s) => Value::String(s.clone()),
            Cell::Written(s) => number(s).unwrap_or_else(|| Value::String(s.clone())),
        }
    }

    /// Whether it holds `wanted` (numbers compare as numbers: `1` matches `1.0`).
    pub fn matches(&self, wanted: &str) -> bool {
        let text = self.to_string();
        text == wanted
            || matches!((text.parse::<f64>(), wanted.parse::<f64>()), (Ok(a), Ok(b)) if a == b)
    }

    pub fn is_empty(&self) -> bool {
        match self {
            Cell::Empty => true,
            Cell::Text(s) | Cell::Written(s) => s.is_empty(),
            _ => false,
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::Empty => Ok(()),
            Cell::Count(n) => write!(f, "{n}"),
            Cell::Fixed(x, decimals) => write!(f, "{x:.decimals$}"),
            Cell::Bool(b) => write!(f, "{b}"),
            Cell::Text(s) | Cell::Written(s) => f.write_str(s),
        }
    }
}

/// What kind of cell a statistic has: how a table's text reads back into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Count,
    /// Printed with this many decimals.
    Fixed(usize),
    Bool,
    Text,
}

impl Kind {
    /// A table's `text` as a cell of this kind (empty text: an empty cell); `None` when it
    /// is not one.
    pub fn read(self, text: &str) -> Option<Cell> {
        if text.is_empty() {
            return Some(Cell::Empty);
        }
        match self {
            Kind::Count => text.parse().ok().map(Cell::Count),
            // The decimals as written, so that a row read back is written back the same.
            Kind::Fixed(_) => {
                let decimals = text.split_once('.').map_or(0, |(_, d)| d.len());
                text.parse().ok().map(|x| Cell::Fixed(x, decimals))
            }
            Kind::Bool => text.parse().ok().map(Cell::Bool),
            Kind::Text => Some(Cell::Text(text.to_string())),
        }
    }
}

/// The Weaver unit's counters that have a statistic each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum WeaverCount {
    Registrations,
    EntriesRegistered,
    Rounds,
    DecodeRequests,
    Batches,
    LanesFilled,
    EmptyAnswers,
    Skips,
    TableReads,
    TableWrites,
    MemoryRequests,
}

impl WeaverCount {
    pub const ALL: [WeaverCount; 11] = [
        WeaverCount::Registrations,
        WeaverCount::EntriesRegistered,
        WeaverCount::Rounds,
        WeaverCount::DecodeRequests,
        WeaverCount::Batches,
        WeaverCount::LanesFilled,
        WeaverCount::EmptyAnswers,
        WeaverCount::Skips,
        WeaverCount::TableReads,
        WeaverCount::TableWrites,
        WeaverCount::MemoryRequests,
    ];

    fn key(self) -> &'static str {
        match self {
            WeaverCount::Registrations => "registrations",
            WeaverCount::EntriesRegistered => "entries_registered",
            WeaverCount::Rounds => "rounds",
            WeaverCount::DecodeRequests => "decode_requests",
            WeaverCount::Batches => "batches",
            WeaverCount::LanesFilled => "lanes_filled",
            WeaverCount::EmptyAnswers => "empty_answers",
            WeaverCount::Skips => "skips",
            WeaverCount::TableReads => "table_reads",
            WeaverCount::TableWrites => "table_writes",
            WeaverCount::MemoryRequests => "memory_requests",
        }
    }

    fn of(self, w: &WeaverCounters) -> u64 {
        match self {
            WeaverCount::Registrations => w.registrations,
            WeaverCount::EntriesRegistered => w.entries_registered,
            WeaverCount::Rounds => w.rounds,
            WeaverCount::DecodeRequests => w.decode_requests,
            WeaverCount::Batches => w.batches,
            WeaverCount::LanesFilled => w.lanes_filled,
            WeaverCount::EmptyAnswers => w.empty_answers,
            WeaverCount::Skips => w.skips,
            WeaverCount::TableReads => w.table_reads,
            WeaverCount::TableWrites => w.table_writes,
            WeaverCount::MemoryRequests => w.memory_requests,
        }
    }

    fn description(self) -> &'static str {
        match self {
            WeaverCount::Registrations => "WEAVER_REG instructions (instructions)",
            WeaverCount::EntriesRegistered => "ST entries the registrations wrote (entries)",
            WeaverCount::Rounds => "registration rounds (rounds)",
            WeaverCount::DecodeRequests => "WEAVER_DEC_ID instructions (instructions)",
            WeaverCount::Batches => "decode batches that carried work (batches)",
            WeaverCount::LanesFilled => "lanes those batches filled (lanes)",
            WeaverCount::EmptyAnswers => "decode requests answered with -1 (requests)",
            WeaverCount::Skips => "WEAVER_SKIP instructions (instructions)",
            WeaverCount::TableReads => "table reads through shared memory (accesses)",
            WeaverCount::TableWrites => "table writes through shared memory (accesses)",
            WeaverCount::MemoryRequests => "EGHW's line requests to the data cache (requests)",
        }
    }
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

/// A statistic or fact of a run: what the run was (the kernel as its report states it),
/// how it ended, and what it measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stat {
    Algorithm,
    Schedule,
    Direction,
    Form,
    Vertices,
    Edges,
    Source,
    Iterations,
    Features,
    InputFeatures,
    InputNonzeros,
    Status,
    Exit,
    Verified,
    Cycles,
    WarpInstructions,
    ThreadInstructions,
    Ipc,
    SimtEfficiency,
    Supersteps,
    L1dSize,
    Slots(SlotReason),
    WeaverStallPct,
    HitRate(CacheLevel),
    DramReads,
    DramWrites,
    DramBytes,
    DramBandwidth,
    DramRowHitRate,
    WeaverUnit,
    Weaver(WeaverCount),
    GroupCycles(GcnGroup),
    IterationRecords,
    Launches,
    PhaseNames,
    PhaseCycles(u32),
    PhaseWarpCycles(u32),
    PhaseInstructions(u32),
    Verdict,
    Error,
    HostSeconds,
}

/// Rates are printed with six decimals.
const RATE: Kind = Kind::Fixed(6);

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

    /// Every statistic without a phase, then the three of a phase `N` (for listings).
    pub fn catalog() -> Vec<Stat> {
        let mut all = Stat::KERNEL.to_vec();
        all.extend(Stat::results(&[]));
        all.push(Stat::HitRate(CacheLevel::L1i));
        all.extend([Stat::IterationRecords, Stat::Launches]);
        all.extend([
            Stat::PhaseCycles(0),
            Stat::PhaseWarpCycles(0),
            Stat::PhaseInstructions(0),
        ]);
        all.extend([Stat::Verdict, Stat::Error, Stat::HostSeconds]);
        all
    }

    pub fn name(self) -> Cow<'static, str> {
        let fixed = match self {
            Stat::Algorithm => "algorithm",
            Stat::Schedule => "schedule",
            Stat::Direction => "direction",
            Stat::Form => "form",
            Stat::Vertices => "vertices",
            Stat::Edges => "edges",
            Stat::Source => "source",
            Stat::Iterations => "iterations",
            Stat::Features => "features",
            Stat::InputFeatures => "input_features",
            Stat::InputNonzeros => "input_nonzeros",
            Stat::Status => "status",
            Stat::Exit => "exit",
            Stat::Verified => "verified",
            Stat::Cycles => "cycles",
            Stat::WarpInstructions => "warp_instructions",
            Stat::ThreadInstructions => "thread_instructions",
            Stat::Ipc => "ipc",
            Stat::SimtEfficiency => "simt_efficiency",
            Stat::Supersteps => "supersteps",
            Stat::L1dSize => "l1d_size",
            Stat::WeaverStallPct => "weaver_stall_pct",
            Stat::DramReads => "dram_reads",
            Stat::DramWrites => "dram_writes",
            Stat::DramBytes => "dram_bytes",
            Stat::DramBandwidth => "dram_bandwidth",
            Stat::DramRowHitRate => "dram_row_hit_rate",
            Stat::WeaverUnit => "weaver_unit",
            Stat::IterationRecords => "iteration_records",
            Stat::Launches => "launches",
            Stat::PhaseNames => "phase_names",
            Stat::Verdict => "verdict",
            Stat::Error => "error",
            Stat::HostSeconds => "host_seconds",
            Stat::Slots(r) => return format!("slots_{}", r.name()).into(),
            Stat::HitRate(l) => return format!("{}_hit_rate", l.name()).into(),
            Stat::Weaver(w) => return format!("weaver_{}", w.key()).into(),
            Stat::GroupCycles(g) => return format!("group_{}_cycles", g.name()).into(),
            Stat::PhaseCycles(p) => return format!("phase_{p}_cycles").into(),
            Stat::PhaseWarpCycles(p) => return format!("phase_{p}_warp_cycles").into(),
            Stat::PhaseInstructions(p) => return format!("phase_{p}_instructions").into(),
        };
        fixed.into()
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

    /// Its unit, for plots' axis labels (none for words and plain counts of things).
    pub fn unit(self) -> Option<&'static str> {
        Some(match self {
            Stat::Cycles | Stat::GroupCycles(_) => "cycles",
            // Summed over cores: a phase can hold more of them than the run has cycles.
            Stat::PhaseCycles(_) => "core-cycles",
            Stat::PhaseWarpCycles(_) => "warp cycles",
            Stat::WarpInstructions | Stat::ThreadInstructions | Stat::PhaseInstructions(_) => {
                "instructions"
            }
            Stat::Ipc => "warp instructions per cycle",
            Stat::SimtEfficiency => "fraction of lanes",
            Stat::Slots(_) => "issue slots",
            Stat::WeaverStallPct => "% of issue slots",
            Stat::HitRate(_) => "fraction of accesses",
            Stat::DramRowHitRate => "fraction of requests",
            Stat::DramReads | Stat::DramWrites => "requests",
            Stat::DramBytes | Stat::L1dSize => "bytes",
            Stat::DramBandwidth => "bytes per cycle",
            Stat::HostSeconds => "s",
            Stat::Vertices => "vertices",
            Stat::Edges => "edges",
            _ => return None,
        })
    }

    /// What it is, with its unit.
    pub fn description(self) -> String {
        let text: Cow<str> = match self {
            Stat::Algorithm => "the graph program's algorithm (PageRank, BFS, SSSP, CC, GCN)".into(),
            Stat::Schedule => "its schedule (VM, EM, ..., SparseWeaver, EGHW, a GCN design)".into(),
            Stat::Direction => "its direction (push, pull)".into(),
            Stat::Form => "its form (dissertation, tuned, atomicfree), from the program's name".into(),
            Stat::Vertices => "the graph's vertices as laid out (vertices)".into(),
            Stat::Edges => "the graph's edges as laid out (edges)".into(),
            Stat::Source => "BFS's and SSSP's source (a vertex index)".into(),
            Stat::Iterations => "PageRank's iterations (iterations)".into(),
            Stat::Features => "a GCN layer's width F (features)".into(),
            Stat::InputFeatures => "the columns of a GCN layer's input X (features)".into(),
            Stat::InputNonzeros => "the nonzeros drawn in X (values)".into(),
            Stat::Status => "ok, or failed: the simulation stopped on an error".into(),
            Stat::Exit => "the program's exit status (empty when the simulation failed)".into(),
            Stat::Verified => "yes, NO (a mismatch) or - (nothing to verify)".into(),
            Stat::Cycles => "machine cycles of the run (cycles)".into(),
            Stat::WarpInstructions => "warp instructions issued (instructions)".into(),
            Stat::ThreadInstructions => "active lanes summed over warp instructions (instructions)".into(),
            Stat::Ipc => "warp instructions per cycle, all cores".into(),
            Stat::SimtEfficiency => "thread instructions / (warp instructions x threads per warp), 0 to 1".into(),
            Stat::Supersteps => "the super-steps a graph program's device ran (steps)".into(),
            Stat::L1dSize => "the effective L1 data cache, smaller with the Weaver unit (bytes)".into(),
            Stat::Slots(r) => format!("issue slots whose reason was `{}`, all cores (slots)", r.name()).into(),
            Stat::WeaverStallPct => "issue slots waiting for the Weaver unit (% of all slots)".into(),
            Stat::HitRate(l) => format!("hits / accesses of the {} caches, 0 to 1; empty when nothing reached the level", l.name()).into(),
            Stat::DramReads => "completed DRAM reads (requests)".into(),
            Stat::DramWrites => "completed DRAM writes (requests)".into(),
            Stat::DramBytes => "bytes the completed DRAM requests moved (bytes)".into(),
            Stat::DramBandwidth => "DRAM bytes per core cycle (bytes/cycle)".into(),
            Stat::DramRowHitRate => "DRAM row hits / requests with a row outcome, 0 to 1".into(),
            Stat::WeaverUnit => "the cores had the Weaver unit (true, false)".into(),
            Stat::Weaver(w) => format!("the Weaver units' {}", w.description()).into(),
            Stat::GroupCycles(g) => format!("a GCN run's machine cycles in its `{}` launches (cycles)", g.name()).into(),
            Stat::IterationRecords => "the iterations the program marked with CSR 0x7C6 (records)".into(),
            Stat::Launches => "the kernel launches the program made (vx_wspawn; records)".into(),
            Stat::PhaseNames => "the program's names of its phases (`0=runtime 1=init ...`)".into(),
            Stat::PhaseCycles(_) => "core-cycles in phase N, summed over cores (core-cycles)".into(),
            Stat::PhaseWarpCycles(_) => "warp time in phase N, each warp's own phase (warp cycles)".into(),
            Stat::PhaseInstructions(_) => "warp instructions in phase N (instructions)".into(),
            Stat::Verdict => "ok, exit_nonzero, mismatch, failed (simulation) or error (set-up)".into(),
            Stat::Error => "the first line of the run's error".into(),
            Stat::HostSeconds => "the host's time for the simulation: the one column that differs between two executions (s)".into(),
        };
        text.into_owned()
    }

    /// How its text in a table reads back.
    pub fn kind(self) -> Kind {
        match self {
            Stat::Algorithm
            | Stat::Schedule
            | Stat::Direction
            | Stat::Form
            | Stat::Status
            | Stat::Verified
            | Stat::PhaseNames
            | Stat::Verdict
            | Stat::Error => Kind::Text,
            Stat::Ipc
            | Stat::SimtEfficiency
            | Stat::HitRate(_)
            | Stat::DramBandwidth
            | Stat::DramRowHitRate => RATE,
            Stat::WeaverStallPct => Kind::Fixed(1),
            Stat::HostSeconds => Kind::Fixed(3),
            Stat::WeaverUnit => Kind::Bool,
            _ => Kind::Count,
        }
    }

    /// Its value in `record`.
    /// Only the timing model measures it: a functional run has none.
    fn timed(self) -> bool {
        matches!(
            self,
            Stat::Cycles
                | Stat::Ipc
                | Stat::L1dSize
                | Stat::Slots(_)
                | Stat::WeaverStallPct
                | Stat::HitRate(_)
                | Stat::DramReads
                | Stat::DramWrites
                | Stat::DramBytes
                | Stat::DramBandwidth
                | Stat::DramRowHitRate
                | Stat::Weaver(WeaverCount::MemoryRequests)
                | Stat::GroupCycles(_)
                | Stat::PhaseCycles(_)
                | Stat::PhaseWarpCycles(_)
        )
    }

    pub fn read(self, record: &RunRecord) -> Cell {
        let count = |n: Option<u64>| n.map_or(Cell::Empty, Cell::Count);
        let rate = |a: u64, b: u64| {
            if b > 0 {
                Cell::Fixed(a as f64 / b as f64, 6)
            } else {
                Cell::Empty
            }
        };
        let text = |s: Option<&str>| s.map_or(Cell::Empty, |s| Cell::Text(s.to_string()));
        match self {
            Stat::Verdict => return Cell::Text(record.verdict().name().to_string()),
            Stat::Error => return Cell::Text(record.error_line().to_string()),
            _ => {}
        }
        let Some(r) = &record.report else {
            return Cell::Empty;
        };
        if r.mode == Mode::Functional && self.timed() {
            return Cell::Empty;
        }
        let graph = r.graph.as_ref();
        let gcn = graph.and_then(|g| g.gcn.as_ref());
        let t = &r.total;
        match self {
            Stat::Algorithm => text(graph.map(|g| g.algorithm.as_str())),
            Stat::Schedule => text(graph.map(|g| g.schedule.as_str())),
            Stat::Direction => text(graph.map(|g| g.direction.as_str())),
            Stat::Form => text(graph.map(|_| form(&r.program))),
            Stat::Vertices => count(graph.map(|g| u64::from(g.vertices))),
            Stat::Edges => count(graph.map(|g| u64::from(g.edges))),
            Stat::Source => count(graph.and_then(|g| g.source).map(u64::from)),
            Stat::Iterations => count(graph.and_then(|g| g.iterations).map(u64::from)),
            Stat::Features => count(gcn.map(|l| u64::from(l.features))),
            Stat::InputFeatures => count(gcn.map(|l| u64::from(l.input_features))),
            Stat::InputNonzeros => count(gcn.map(|l| u64::from(l.input_nonzeros))),
            Stat::Status => Cell::Text(
                match r.status {
                    Status::Ok => "ok",
                    Status::Failed => "failed",
                    Status::Interrupted => "interrupted",
                }
                .to_string(),
            ),
            Stat::Exit => count(record.exit_code().map(u64::from)),
            Stat::Verified => Cell::Text(
                match graph.map(|g| g.result) {
                    Some(Checked::Verified) => "yes",
                    Some(Checked::Mismatch) => "NO",
                    _ => "-",
                }
                .to_string(),
            ),
            Stat::Cycles => Cell::Count(r.cycles),
            Stat::WarpInstructions => Cell::Count(t.instructions),
            Stat::ThreadInstructions => Cell::Count(t.thread_instructions),
            Stat::Ipc => Cell::Fixed(r.ipc, 6),
            Stat::SimtEfficiency => Cell::Fixed(r.simt_efficiency, 6),
            Stat::Supersteps => count(graph.map(|g| u64::from(g.supersteps))),
            Stat::L1dSize => Cell::Count(u64::from(r.l1d_size)),
            Stat::Slots(reason) => Cell::Count(t.slots.get(reason)),
            Stat::WeaverStallPct => {
                let all = t.slots.total().max(1);
                let weaver = t.slots.get(SlotReason::Weaver);
                Cell::Fixed(100.0 * weaver as f64 / all as f64, 1)
            }
            Stat::HitRate(level) => {
                let c = r.memory.level(level);
                rate(c.hits, c.accesses)
            }
            Stat::DramReads => Cell::Count(r.memory.dram.reads),
            Stat::DramWrites => Cell::Count(r.memory.dram.writes),
            Stat::DramBytes => Cell::Count(r.memory.dram.bytes),
            Stat::DramBandwidth => {
                Cell::Fixed(r.memory.dram.bytes as f64 / r.cycles.max(1) as f64, 6)
            }
            Stat::DramRowHitRate => {
                let d = &r.memory.dram;
                rate(d.row_hits, d.row_hits + d.row_misses + d.row_conflicts)
            }
            Stat::WeaverUnit => Cell::Bool(r.weaver_unit),
            Stat::Weaver(w) => Cell::Count(w.of(&t.weaver)),
            Stat::GroupCycles(group) => match graph {
                Some(g) if g.algorithm == "GCN" => Cell::Count(
                    (r.iterations.iter())
                        .filter(|i| i.active == group.record())
                        .map(|i| i.cycles)
                        .sum(),
                ),
                _ => Cell::Empty,
            },
            Stat::IterationRecords => Cell::Count(r.iterations.len() as u64),
            Stat::Launches => Cell::Count(r.launches.len() as u64),
            Stat::PhaseNames => Cell::Text(
                (r.phase_names.iter())
                    .map(|(p, name)| format!("{p}={name}"))
                    .collect::<Vec<String>>()
                    .join(" "),
            ),
            Stat::PhaseCycles(p) => Cell::Count(r.phases.get(&p).map_or(0, |c| c.cycles)),
            Stat::PhaseWarpCycles(p) => Cell::Count(r.phases.get(&p).map_or(0, |c| c.warp_cycles)),
            Stat::PhaseInstructions(p) => {
                Cell::Count(r.phases.get(&p).map_or(0, |c| c.instructions))
            }
            Stat::HostSeconds => r
                .host
                .as_ref()
                .map_or(Cell::Empty, |h| Cell::Fixed(h.seconds, 3)),
            Stat::Verdict | Stat::Error => unreachable!("read above"),
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
    fn cells_print_and_read_back_alike() {
        for (kind, text) in [
            (Kind::Count, "1051508"),
            (RATE, "0.517847"),
            (Kind::Fixed(1), "12.5"),
            (Kind::Fixed(3), "10.224"),
            (Kind::Bool, "false"),
            (Kind::Text, "SparseWeaver"),
            (Kind::Count, ""),
        ] {
            assert_eq!(kind.read(text).unwrap().to_string(), text);
        }
        assert_eq!(Kind::Count.read("x"), None);
        assert!(Cell::Fixed(1.0, 6).matches("1"));
        assert!(Cell::Written("4".into()).matches("4.0"));
        assert_eq!(Cell::Written("4".into()).json(), serde_json::json!(4));
        assert_eq!(Cell::Written("lru".into()).json(), serde_json::json!("lru"));
        assert_eq!(Cell::Fixed(0.5, 6).json(), serde_json::json!(0.5));
        assert_eq!(Cell::Empty.json(), serde_json::Value::Null);
    }

    #[test]
    fn forms_come_from_program_names() {
        assert_eq!(form("programs/build/graph/bfs_vm_pull.elf"), "dissertation");
        assert_eq!(form("bfs_vm_pull_tuned"), "tuned");
        assert_eq!(form("pr_vm_pull_atomicfree"), "atomicfree");
    }
}
