//! The options commands share, as clap takes them, and the domain types they turn into:
//! the machine ([`MachineArgs`]), a graph program's input ([`GraphArgs`] ->
//! `GraphOptions`, with [`LoadArgs`] and [`LayerArgs`]) and the timeline ([`TraceArgs`]).

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use wsim_graph::{Limits, LoadOptions};
use wsim_sim::timeline::TimelineOptions;
use wsim_sim::Config;
use wsim_workloads::{GraphOptions, LayerOptions, LoadSpec, Source};

/// Options that select the machine, shared by every command that builds one.
#[derive(Args, Clone, Debug)]
pub struct MachineArgs {
    /// Configuration file (TOML). Without it, the built-in default (Vortex SimX) is used.
    #[arg(long, short = 'c', value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Override a configuration key, e.g. `--set gpu.warps_per_core=8` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub overrides: Vec<String>,
}

impl MachineArgs {
    /// The configuration the machine options select.
    pub fn config(&self) -> anyhow::Result<Config> {
        wsim_harness::load_config(self.config.as_deref(), &self.overrides)
    }
}

/// How many simulations a command that runs several runs at once.
#[derive(Args, Clone, Debug)]
pub struct JobsArgs {
    /// Run at most N simulations at once [default: RAYON_NUM_THREADS if set, else one per
    /// host core]. Each simulation is deterministic: N changes only the time.
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
}

impl JobsArgs {
    /// Size the pool of simulations (before anything runs).
    pub fn apply(&self) -> anyhow::Result<()> {
        self.jobs.map_or(Ok(()), wsim_harness::set_jobs)
    }
}

/// Options of a graph program's run.
#[derive(Args, Clone, Debug)]
pub struct GraphArgs {
    /// The graph: a SNAP edge list or Matrix Market file (optionally .gz), or a generator
    /// such as `gen:rmat:scale=10,ef=16`. A graph program run without it uses
    /// `gen:rmat:scale=8,ef=8`.
    #[arg(long, value_name = "FILE|gen:...")]
    pub graph: Option<String>,
    /// BFS / SSSP source vertex, in the graph file's own ids (a Matrix Market file counts
    /// from 1; a SNAP file's ids as written) [default: the first vertex].
    #[arg(long, value_name = "ID", conflicts_with = "source_index")]
    pub source: Option<u64>,
    /// BFS / SSSP source vertex as the graph's internal index (`0..V`, the file's vertices
    /// in id order).
    #[arg(long, value_name = "I", conflicts_with = "source_hub")]
    pub source_index: Option<u32>,
    /// BFS / SSSP from the vertex with the most out-edges (the lowest index of a tie): a
    /// source that reaches the graph's bulk on any graph, generated ones included.
    #[arg(long, conflicts_with = "source")]
    pub source_hub: bool,
    /// PageRank iterations [default: 5].
    #[arg(long, value_name = "N")]
    pub iterations: Option<u32>,
    #[command(flatten)]
    pub load: LoadArgs,
    #[command(flatten)]
    pub layer: LayerArgs,
}

impl GraphArgs {
    /// The options as the workloads take them.
    pub fn options(&self) -> GraphOptions {
        GraphOptions {
            graph: self.graph.clone(),
            source: match (self.source, self.source_index, self.source_hub) {
                (Some(id), _, _) => Source::Id(id),
                (None, Some(index), _) => Source::Index(index),
                (None, None, true) => Source::Hub,
                (None, None, false) => Source::First,
            },
            iterations: self.iterations,
            load: self.load.spec(),
            layer: self.layer.options(),
        }
    }
}

/// The layer of a GCN program's run.
#[derive(Args, Clone, Debug, Default)]
pub struct LayerArgs {
    /// GCN programs: the layer's width F (H = X W and the output are V x F) [default: 16].
    #[arg(long, value_name = "F")]
    pub features: Option<u32>,
    /// GCN programs: the columns of the sparse input features X [default: 1433].
    #[arg(long, value_name = "N")]
    pub input_features: Option<u32>,
    /// GCN programs: the mean nonzeros of a row of X [default: 18].
    #[arg(long, value_name = "K")]
    pub input_nnz: Option<u32>,
}

impl LayerArgs {
    pub fn options(&self) -> LayerOptions {
        LayerOptions {
            features: self.features,
            input_features: self.input_features,
            input_nnz: self.input_nnz,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Weights {
    /// The file's weights if it has them, otherwise generated.
    File,
    /// Generated from the seed and the endpoints, whatever the file has.
    Generated,
    /// Every edge weighs 1.
    Unit,
}

/// How a graph is loaded: shared by every command that takes a graph.
#[derive(Args, Clone, Debug)]
pub struct LoadArgs {
    /// Add the reverse of every edge.
    #[arg(long)]
    pub symmetrize: bool,
    /// Remove edges from a vertex to itself.
    #[arg(long)]
    pub drop_self_loops: bool,
    /// Keep one edge per (source, destination), the lightest.
    #[arg(long)]
    pub dedup: bool,
    /// Where edge weights come from.
    #[arg(long, value_enum, default_value_t = Weights::File)]
    pub weights: Weights,
    /// Generated weights are in 1..=N.
    #[arg(long, value_name = "N", default_value_t = wsim_graph::DEFAULT_MAX_WEIGHT)]
    pub max_weight: u32,
    /// Seed of generated weights, and of generators whose spec has no `seed`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Refuse inputs that declare or generate more vertices than this.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_vertices)]
    pub max_vertices: u32,
    /// Refuse inputs with more edges than this (files: also more than 64 bytes per edge).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_edges)]
    pub max_edges: u32,
}

impl LoadArgs {
    /// The options as the workloads take them.
    pub fn spec(&self) -> LoadSpec {
        LoadSpec {
            symmetrize: self.symmetrize,
            drop_self_loops: self.drop_self_loops,
            dedup: self.dedup,
            weights: match self.weights {
                Weights::File => wsim_workloads::Weights::File,
                Weights::Generated => wsim_workloads::Weights::Generated,
                Weights::Unit => wsim_workloads::Weights::Unit,
            },
            max_weight: self.max_weight,
            seed: self.seed,
            max_vertices: self.max_vertices,
            max_edges: self.max_edges,
        }
    }

    pub fn options(&self) -> LoadOptions {
        self.spec().options()
    }
}

/// The timeline options of `wsim run`.
#[derive(Args, Clone, Debug)]
pub struct TraceArgs {
    /// Write the run's timeline to FILE as a Chrome trace (JSON; open it in
    /// ui.perfetto.dev): phases and counters per core, iterations, DRAM bandwidth.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Cycles between the timeline's counter samples (IPC, waits, DRAM bandwidth); it
    /// doubles as often as needed to keep at most 2048 samples.
    #[arg(long, value_name = "CYCLES", default_value_t = 1000, requires = "trace",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub trace_interval: u64,
    /// Also a track per warp in the timeline: its life, barrier waits and Weaver waits.
    #[arg(long, requires = "trace")]
    pub trace_warps: bool,
    /// Write each warp instruction issued to FILE, a line each: cycle, core, warp, PC,
    /// active lanes, the instruction, its function and source line (docs/OBSERVING.md).
    #[arg(long, value_name = "FILE")]
    pub trace_instructions: Option<PathBuf>,
    /// The instruction trace: only these cores, e.g. `0` or `0-2`.
    #[arg(long, value_name = "A[-B]", requires = "trace_instructions", value_parser = range::<u32>)]
    pub trace_cores: Option<(u32, u32)>,
    /// The instruction trace: only these warps of each core, e.g. `0-3`.
    #[arg(long, value_name = "A[-B]", requires = "trace_instructions", value_parser = range::<u32>)]
    pub trace_warps_of: Option<(u32, u32)>,
    /// The instruction trace: only PCs in this range, e.g. `0x80000200-0x800002b8`.
    #[arg(long, value_name = "A[-B]", requires = "trace_instructions", value_parser = range::<u32>)]
    pub trace_pcs: Option<(u32, u32)>,
    /// The instruction trace: only instructions issued in these cycles, e.g. `1000-2000`.
    #[arg(long, value_name = "A[-B]", requires = "trace_instructions", value_parser = range::<u64>)]
    pub trace_cycles: Option<(u64, u64)>,
    /// The instruction trace: at most N instructions (those past it are counted, and a
    /// warning says how many).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 100_000,
        requires = "trace_instructions"
    )]
    pub trace_limit: usize,
}

/// `A` or `A-B` (inclusive), decimal or `0x` hex: an instruction trace's range.
fn range<T>(text: &str) -> Result<(T, T), String>
where
    T: TryFrom<u64> + PartialOrd + Copy,
{
    let number = |s: &str| -> Result<T, String> {
        let s = s.trim();
        let v = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => s.parse(),
        };
        v.ok()
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| format!("`{s}` is not a number in range"))
    };
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (number(a)?, number(b)?),
        None => (number(text)?, number(text)?),
    };
    if b < a {
        return Err(format!("{text}: the range ends before it starts"));
    }
    Ok((a, b))
}

impl TraceArgs {
    /// Which instructions to trace, if an instruction trace was asked for.
    pub fn instructions(&self) -> Option<wsim_sim::instruction_trace::TraceFilter> {
        self.trace_instructions.as_ref()?;
        Some(wsim_sim::instruction_trace::TraceFilter {
            cores: self.trace_cores,
            warps: self.trace_warps_of,
            pcs: self.trace_pcs,
            cycles: self.trace_cycles,
            limit: self.trace_limit,
        })
    }

    /// What the machine should record, if a trace was asked for.
    pub fn options(&self) -> Option<TimelineOptions> {
        (self.trace.as_ref())
            .map(|_| wsim_harness::trace::options(self.trace_interval, self.trace_warps))
    }
}
