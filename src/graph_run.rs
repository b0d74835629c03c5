//! The graph options of `wsim run` and `wsim sweep` (clap), turned into the workloads'
//! [`GraphOptions`]; a run as `wsim run` does it, without printing ([`simulate`]).

use clap::Args;
use wsim_sim::{Config, RunSummary};
use wsim_workloads::graph_run::{self, GraphInput};
use wsim_workloads::{GraphOptions, LayerOptions, Source};

use crate::graph::LoadArgs;

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

/// Why a run has no statistics.
#[derive(Clone, Debug, PartialEq)]
pub enum RunError {
    /// The run could not start: the program is not a valid ELF for the machine, or its
    /// graph options do not fit it.
    Setup(String),
    /// The simulation failed (an illegal instruction, a deadlock, `run.max_cycles` ...);
    /// `graph`: the program is a graph program, whose graph was laid out.
    Simulation { message: String, graph: bool },
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Setup(message) | RunError::Simulation { message, .. } => f.write_str(message),
        }
    }
}

/// A run to its end: the statistics and, for a graph program, whether its result matched
/// the host reference (`None`: not a graph program).
pub struct Finished {
    pub summary: RunSummary,
    pub verified: Option<bool>,
}

/// Run a program as `wsim run` does, without printing: a graph program on `graph`,
/// verified after the run.
pub fn simulate(config: &Config, elf: &[u8], graph: &GraphInput) -> Result<Finished, RunError> {
    let mut machine =
        crate::load_program(config, elf).map_err(|e| RunError::Setup(e.to_string()))?;
    let placed =
        graph_run::place(&mut machine, graph).map_err(|e| RunError::Setup(format!("{e:#}")))?;
    let summary = crate::run_program(&mut machine, false).map_err(|e| RunError::Simulation {
        message: e.to_string(),
        graph: placed.is_some(),
    })?;
    let verified = placed
        .map(|p| graph_run::check(&machine, &p, summary.exit_code).is_some_and(|m| m.is_empty()));
    Ok(Finished { summary, verified })
}
