//! `wsim run` of a graph program: the graph options, laying the graph out before the run,
//! and checking the program's result against the host reference after it.

use std::fmt::Write as _;
use std::sync::{Arc, Mutex, OnceLock};

use anyhow::{bail, Context};
use clap::Args;
use wsim_graph::{reference, Csr, Graph};
use wsim_sim::config::WeaverMode;
use wsim_sim::{Config, Machine, RunSummary};
use wsim_workloads::gcn_image;
use wsim_workloads::graph_image::{
    self, Algorithm, GraphArrays, GraphLayout, GraphProgram, Layout, Schedule,
};
use wsim_workloads::record::{GraphMismatch as Mismatch, GraphRun};

use crate::gcn_run::{self, LayerArgs, LayerInput, PlacedLayer};
use crate::graph::LoadArgs;

/// The graph a graph program runs on when `--graph` is not given.
pub const DEFAULT_GRAPH: &str = "gen:rmat:scale=8,ef=8";
/// PageRank's iterations when `--iterations` is not given (small, for quick runs).
pub const DEFAULT_ITERATIONS: u32 = 5;
/// PageRank's damping factor (the kernels' PR_DAMPING).
pub const PR_DAMPING: f64 = 0.85;
/// PageRank ranks agree when within this relative difference (the kernels use `f32`).
pub const PR_TOLERANCE: f64 = 1e-4;
/// Mismatches listed in the report.
const SHOWN: usize = 10;

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
    /// Whether an option that only a graph program takes was given.
    fn any(&self) -> bool {
        self.graph.is_some() || self.source_given() || self.iterations.is_some() || self.layer.any()
    }

    fn source_given(&self) -> bool {
        self.source.is_some() || self.source_index.is_some() || self.source_hub
    }
}

/// The graph of a run, loaded once for any number of machines.
pub struct GraphInput {
    pub graph: Arc<Graph>,
    pub spec: String,
    /// The loading options that differ from the defaults, as flags.
    pub load_flags: Vec<String>,
    /// The source's internal index and the file's id for it.
    pub source: u32,
    pub source_id: u64,
    pub iterations: u32,
    /// Graph options were given (an error for a program that is not a graph program).
    explicit: bool,
    /// `--source` and `--iterations` were given: a program that ignores one says so, once
    /// per algorithm (a sweep places the graph for every run).
    given: (bool, bool),
    warned: Mutex<Vec<Algorithm>>,
    /// A GCN program's layer: the options, and its inputs made on first use.
    layer: LayerArgs,
    seed: u64,
    layer_input: OnceLock<Result<Arc<LayerInput>, String>>,
}

impl GraphInput {
    /// The GCN layer's inputs on this graph (generated once for every run).
    fn layer_input(&self) -> anyhow::Result<Arc<LayerInput>> {
        let made = self.layer_input.get_or_init(|| {
            LayerInput::new(&self.graph, &self.layer.spec(self.seed))
                .map(Arc::new)
                .map_err(|e| format!("{e:#}"))
        });
        made.clone().map_err(anyhow::Error::msg)
    }
}

/// A graph laid out for a program.
pub struct Placed {
    pub program: GraphProgram,
    pub layout: GraphLayout,
    pub graph: Arc<Graph>,
    pub spec: String,
    pub load_flags: Vec<String>,
    pub source: u32,
    pub source_id: u64,
    pub iterations: u32,
    /// A GCN program's layer (its graph, above, is `A + I`).
    pub layer: Option<PlacedLayer>,
}

/// Load the graph the options name (the built-in default without `--graph`).
pub fn load(args: &GraphArgs) -> anyhow::Result<GraphInput> {
    let spec = args
        .graph
        .clone()
        .unwrap_or_else(|| DEFAULT_GRAPH.to_string());
    let _stage = tracing::info_span!("graph", spec = %spec).entered();
    let graph = Graph::from_spec(&spec, &args.load.options())
        .with_context(|| format!("cannot load graph {spec}"))?;
    let n = graph.num_vertices();
    let ids = graph.ids();
    let source = match (args.source, args.source_index) {
        (Some(id), _) => match ids.index(id, n) {
            Some(index) => index,
            None if !ids.relabelled() => bail!(
                "--source {id} is out of range: graph {spec} has {n} vertices (0..={})",
                n - 1
            ),
            None => bail!(
                "--source {id} is not a vertex of graph {spec}: its ids are {} \
                 (--source-index takes the internal index 0..{n})",
                ids.describe(n)
            ),
        },
        (None, Some(index)) if index >= n => bail!(
            "--source-index {index} is out of range: graph {spec} has {n} vertices (0..={})",
            n - 1
        ),
        (None, Some(index)) => index,
        (None, None) if args.source_hub => hub(graph.csr(), n),
        (None, None) => 0,
    };
    tracing::info!(
        vertices = n,
        edges = graph.num_edges(),
        source,
        source_id = ids.id(source),
        "graph loaded"
    );
    let mut load_flags = args.load.flags();
    load_flags.extend(args.layer.flags());
    Ok(GraphInput {
        source_id: ids.id(source),
        graph: Arc::new(graph),
        spec,
        load_flags,
        source,
        iterations: args.iterations.unwrap_or(DEFAULT_ITERATIONS),
        explicit: args.any(),
        given: (args.source_given(), args.iterations.is_some()),
        warned: Mutex::new(Vec::new()),
        layer: args.layer.clone(),
        seed: args.load.seed,
        layer_input: OnceLock::new(),
    })
}

/// The vertex with the most out-edges; the lowest index among equals.
fn hub(csr: &Csr, n: u32) -> u32 {
    (0..n)
        .max_by_key(|&v| (csr.degree(v), std::cmp::Reverse(v)))
        .unwrap_or(0)
}

/// If the machine's program is a graph program, lay the graph out for it; graph options
/// for a program without a descriptor are an error.
pub fn place(machine: &mut Machine, input: &GraphInput) -> anyhow::Result<Option<Placed>> {
    place_with(machine, input, Layout::Fitting)
}

/// [`place`] with the arrays `layout` says.
pub fn place_with(
    machine: &mut Machine,
    input: &GraphInput,
    layout: Layout,
) -> anyhow::Result<Option<Placed>> {
    let Some(program) = graph_image::program(machine)? else {
        if input.explicit {
            bail!(
                "graph options were given but the program has no `{}` descriptor: it is not a graph program",
                graph_image::SYMBOL
            );
        }
        return Ok(None);
    };
    if program.schedule == Schedule::Eghw && machine.config().weaver.mode != WeaverMode::Eghw {
        bail!(
            "an EGHW graph program needs the Weaver unit in its EGHW mode: this one does not \
             say so (`{}`, WSIM_REQUIRES_EGHW in weaver.h), so run it with --set weaver.mode=eghw",
            wsim_sim::machine::REQUIRES_EGHW
        );
    }
    let _stage = tracing::info_span!("layout").entered();
    ignored_options(input, program.algorithm);
    let (source, iterations) = (input.source, input.iterations);
    // A GCN layer runs on A + I and has a second descriptor, for its features.
    let gcn = match (program.algorithm, gcn_image::program(machine)?) {
        (Algorithm::Gcn, Some(descriptor)) => Some((descriptor, input.layer_input()?)),
        (Algorithm::Gcn, None) => bail!(
            "a GCN program needs a `{}` descriptor (programs/gcn/gcn.h)",
            gcn_image::SYMBOL
        ),
        _ if input.layer.any() => {
            bail!("--features, --input-features and --input-nnz are options of GCN programs")
        }
        _ => None,
    };
    let graph = Arc::clone(gcn.as_ref().map_or(&input.graph, |(_, l)| &l.graph));
    let graph = &graph;
    if program.algorithm == Algorithm::Sssp {
        distances_fit(graph, source, &input.spec)?;
    }
    let (csr, csc) = (graph.csr(), graph.csc());
    // A GCN layer goes first, so that its arrays' addresses do not depend on the
    // scratch the design asks of the graph.
    let layer = match gcn {
        Some((descriptor, layer)) => Some(gcn_run::place(machine, &descriptor, layer)?),
        None => None,
    };
    let start = layer.as_ref().map_or(graph_image::BASE, |l| l.layout.end);
    // The COO arrays only when they are laid out (each has an entry per edge).
    let (v, e) = (graph.num_vertices(), graph.num_edges());
    let placed = graph_image::placed_arrays(machine, &program, start, (v, e), iterations, layout);
    let out_sources = if placed[3] {
        graph.coo_sources()
    } else {
        Vec::new()
    };
    let in_dests = if placed[7] {
        graph.coo_destinations()
    } else {
        Vec::new()
    };
    let arrays = GraphArrays {
        out_offsets: &csr.offsets,
        out_targets: &csr.targets,
        out_weights: &csr.weights,
        out_sources: &out_sources,
        in_offsets: &csc.offsets,
        in_sources: &csc.targets,
        in_weights: &csc.weights,
        in_dests: &in_dests,
    };
    let layout = graph_image::place_from(
        machine, &program, &arrays, source, iterations, start, layout,
    )?;
    tracing::info!(
        algorithm = program.algorithm.name(),
        schedule = program.schedule.name(),
        direction = program.direction.name(),
        bytes = layout.end - graph_image::BASE,
        "graph laid out"
    );
    Ok(Some(Placed {
        program,
        layout,
        graph: Arc::clone(graph),
        spec: input.spec.clone(),
        load_flags: input.load_flags.clone(),
        source,
        source_id: input.source_id,
        iterations,
        layer,
    }))
}

/// Warn (once per algorithm) about the options the program's algorithm ignores.
fn ignored_options(input: &GraphInput, algorithm: Algorithm) {
    let (source, iterations) = input.given;
    let name = algorithm.name();
    let mut ignored = Vec::new();
    if source && !matches!(algorithm, Algorithm::Bfs | Algorithm::Sssp) {
        ignored.push(format!(
            "--source is ignored: {name} starts from every vertex"
        ));
    }
    if iterations && algorithm != Algorithm::PageRank {
        ignored.push(format!(
            "--iterations is ignored: {name} runs until it converges"
        ));
    }
    let mut warned = input.warned.lock().unwrap_or_else(|e| e.into_inner());
    if ignored.is_empty() || warned.contains(&algorithm) {
        return;
    }
    warned.push(algorithm);
    for message in ignored {
        tracing::warn!("{message}");
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
    let placed = place(&mut machine, graph).map_err(|e| RunError::Setup(format!("{e:#}")))?;
    let summary = crate::run_program(&mut machine, false).map_err(|e| RunError::Simulation {
        message: e.to_string(),
        graph: placed.is_some(),
    })?;
    let verified =
        placed.map(|p| check(&machine, &p, summary.exit_code).is_some_and(|m| m.is_empty()));
    Ok(Finished { summary, verified })
}

/// The SSSP kernels keep 32-bit distances (a sum that wraps is discarded), so every
/// shortest distance from the source must be below `u32::MAX - 1`, where the reference
/// saturates.
fn distances_fit(graph: &Graph, source: u32, spec: &str) -> anyhow::Result<()> {
    let saturated = reference::UNREACHED - 1;
    if let Some(v) = reference::sssp(graph, source)
        .iter()
        .position(|&d| d == saturated)
    {
        bail!(
            "SSSP from {source} on {spec}: vertex {v} is {saturated} or more away, beyond the \
             kernels' 32-bit distances; lighter weights fit (--weights generated, \
             --max-weight N, or --weights unit)"
        );
    }
    Ok(())
}

/// After the run: the program's result against the host reference (`None`: the program
/// failed, nothing to check).
pub fn check(machine: &Machine, placed: &Placed, exit_code: u32) -> Option<Vec<Mismatch>> {
    let _stage = tracing::info_span!("verification").entered();
    (exit_code == 0).then(|| match &placed.layer {
        Some(layer) => gcn_run::verify(machine, layer),
        None => {
            let result = graph_image::result(machine, &placed.layout);
            let p = placed;
            verify(
                p.program.algorithm,
                &p.graph,
                p.source,
                p.iterations,
                &result,
            )
        }
    })
}

/// A program's result against the host reference: every mismatching vertex.
/// `source` is BFS's and SSSP's, `iterations` PageRank's. Panics for a GCN, whose result
/// is not a value per vertex (`gcn_run::verify` checks it).
pub fn verify(
    algorithm: Algorithm,
    g: &Graph,
    source: u32,
    iterations: u32,
    result: &[u32],
) -> Vec<Mismatch> {
    let exact = |expected: Vec<u32>| -> Vec<Mismatch> {
        let show = |x: u32| {
            if x == reference::UNREACHED {
                "unreached".to_string()
            } else {
                x.to_string()
            }
        };
        (0..)
            .zip(expected.iter().zip(result))
            .filter(|(_, (e, r))| e != r)
            .map(|(vertex, (e, r))| Mismatch {
                vertex,
                expected: show(*e),
                got: show(*r),
            })
            .collect()
    };
    match algorithm {
        Algorithm::Bfs => exact(reference::bfs_levels(g, source)),
        Algorithm::Sssp => exact(reference::sssp(g, source)),
        Algorithm::Cc => exact(reference::label_propagation(g)),
        Algorithm::Gcn => panic!("a GCN layer's result is checked by gcn_run::verify"),
        Algorithm::PageRank => {
            let expected = reference::pagerank(g, iterations, PR_DAMPING);
            (0..)
                .zip(expected.iter().zip(result))
                .filter_map(|(vertex, (&e, &bits))| {
                    let got = f64::from(f32::from_bits(bits));
                    let close = (got - e).abs() <= PR_TOLERANCE * e.abs();
                    (!close).then(|| Mismatch {
                        vertex,
                        expected: format!("{e:.9e}"),
                        got: format!("{got:.9e}"),
                    })
                })
                .collect()
        }
    }
}

/// The JSON report's graph section: the run and the verdict.
pub fn json(placed: &Placed, supersteps: u32, mismatches: Option<&[Mismatch]>) -> GraphRun {
    let p = &placed.program;
    let walks_from_source = matches!(p.algorithm, Algorithm::Bfs | Algorithm::Sssp);
    GraphRun {
        spec: placed.spec.clone(),
        load_options: placed.load_flags.clone(),
        vertices: placed.layout.vertices,
        edges: placed.layout.edges,
        algorithm: p.algorithm.name(),
        schedule: p.schedule.name(),
        direction: p.direction.name(),
        source: walks_from_source.then_some(placed.source),
        source_id: walks_from_source.then_some(placed.source_id),
        iterations: (p.algorithm == Algorithm::PageRank).then_some(placed.iterations),
        supersteps,
        result: match mismatches {
            None => "not checked",
            Some([]) => "verified",
            Some(_) => "mismatch",
        },
        mismatches: mismatches.map_or(0, <[Mismatch]>::len),
        first_mismatches: mismatches
            .unwrap_or_default()
            .iter()
            .take(SHOWN)
            .cloned()
            .collect(),
        gcn: placed.layer.as_ref().map(gcn_run::json),
    }
}

/// The report's graph section: the run and the verdict.
pub fn report(placed: &Placed, supersteps: u32, mismatches: Option<&[Mismatch]>) -> String {
    let p = &placed.program;
    let mut r = String::new();
    let _ = writeln!(
        r,
        "{:<22}{}: {} vertices, {} edges",
        "graph", placed.spec, placed.layout.vertices, placed.layout.edges
    );
    let what = match p.algorithm {
        Algorithm::PageRank => format!("{} iterations", placed.iterations),
        Algorithm::Bfs | Algorithm::Sssp if placed.graph.ids().relabelled() => {
            format!("source id {} = index {}", placed.source_id, placed.source)
        }
        Algorithm::Bfs | Algorithm::Sssp => format!("source {}", placed.source),
        Algorithm::Cc => "labels".to_string(),
        Algorithm::Gcn => placed
            .layer
            .as_ref()
            .map_or_else(String::new, gcn_run::describe),
    };
    // A GCN layer is one pass: SpMM, then GraphSum over the in-edges of A + I.
    let steps = match placed.layer {
        Some(_) => " over A + I (a self-loop added at every vertex)".to_string(),
        None => format!(", {supersteps} super-steps"),
    };
    let _ = writeln!(
        r,
        "{:<22}{} ({what}), schedule {}, {}{steps}",
        "kernel",
        p.algorithm.name(),
        p.schedule.name(),
        p.direction.name()
    );
    match mismatches {
        None => {
            let _ = writeln!(r, "{:<22}not checked: the program failed", "result");
        }
        Some([]) => {
            let _ = writeln!(r, "{:<22}verified against the host reference", "result");
        }
        Some(m) => {
            let (total, what) = match &placed.layer {
                Some(layer) => (gcn_run::values(layer), "values of XW and the output"),
                None => (u64::from(placed.layout.vertices), "vertices"),
            };
            let _ = writeln!(
                r,
                "{:<22}MISMATCH: {} of {total} {what} differ from the host reference",
                "result",
                m.len(),
            );
            for x in m.iter().take(SHOWN) {
                let _ = writeln!(
                    r,
                    "  vertex {:<10} expected {:<18} got {}",
                    x.vertex, x.expected, x.got
                );
            }
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0 -> 1 -> 2, 0 -> 2 (weight 5), 3 isolated.
    fn small() -> Graph {
        Graph::from_edges(4, &[(0, 1, 1), (1, 2, 1), (0, 2, 5)]).unwrap()
    }

    #[test]
    fn exact_results_verify_and_wrong_ones_are_listed() {
        let g = small();
        let none = reference::UNREACHED;
        assert!(verify(Algorithm::Bfs, &g, 0, 0, &[0, 1, 1, none]).is_empty());
        assert!(verify(Algorithm::Sssp, &g, 0, 0, &[0, 1, 2, none]).is_empty());
        assert!(verify(Algorithm::Cc, &g, 0, 0, &[0, 0, 0, 3]).is_empty());
        let wrong = verify(Algorithm::Sssp, &g, 0, 0, &[0, 1, 5, 7]);
        assert_eq!(
            wrong,
            [
                Mismatch {
                    vertex: 2,
                    expected: "2".into(),
                    got: "5".into()
                },
                Mismatch {
                    vertex: 3,
                    expected: "unreached".into(),
                    got: "7".into()
                },
            ]
        );
    }

    #[test]
    fn pagerank_within_the_relative_tolerance() {
        let g = small();
        let expected = reference::pagerank(&g, 3, PR_DAMPING);
        let bits = |scale: f64| -> Vec<u32> {
            expected
                .iter()
                .map(|&r| ((r * scale) as f32).to_bits())
                .collect()
        };
        assert!(verify(Algorithm::PageRank, &g, 0, 3, &bits(1.0)).is_empty());
        assert!(verify(
            Algorithm::PageRank,
            &g,
            0,
            3,
            &bits(1.0 + PR_TOLERANCE / 4.0)
        )
        .is_empty());
        assert_eq!(
            verify(
                Algorithm::PageRank,
                &g,
                0,
                3,
                &bits(1.0 + 4.0 * PR_TOLERANCE)
            )
            .len(),
            4
        );
        let mut nan = bits(1.0);
        nan[1] = f32::NAN.to_bits();
        assert_eq!(verify(Algorithm::PageRank, &g, 0, 3, &nan)[0].vertex, 1);
    }
}
