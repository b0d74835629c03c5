//! `wsim run` of a graph program: the graph options, laying the graph out before the run,
//! and checking the program's result against the host reference after it.

use std::fmt::Write as _;
use std::sync::Arc;

use anyhow::{bail, Context};
use clap::Args;
use wsim_graph::{reference, Graph};
use wsim_sim::config::WeaverMode;
use wsim_sim::graph_image::{self, Algorithm, GraphArrays, GraphLayout, GraphProgram, Schedule};
use wsim_sim::report::{GraphMismatch as Mismatch, GraphRun};
use wsim_sim::{Config, Machine, RunSummary};

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
    /// BFS / SSSP source vertex [default: 0].
    #[arg(long, value_name = "V")]
    pub source: Option<u32>,
    /// PageRank iterations [default: 5].
    #[arg(long, value_name = "N")]
    pub iterations: Option<u32>,
    #[command(flatten)]
    pub load: LoadArgs,
}

impl GraphArgs {
    /// Whether an option that only a graph program takes was given.
    fn any(&self) -> bool {
        self.graph.is_some() || self.source.is_some() || self.iterations.is_some()
    }
}

/// The graph of a run, loaded once for any number of machines.
pub struct GraphInput {
    pub graph: Arc<Graph>,
    pub spec: String,
    /// The loading options that differ from the defaults, as flags.
    pub load_flags: Vec<String>,
    pub source: u32,
    pub iterations: u32,
    /// Graph options were given (an error for a program that is not a graph program).
    explicit: bool,
}

/// A graph laid out for a program.
pub struct Placed {
    pub program: GraphProgram,
    pub layout: GraphLayout,
    pub graph: Arc<Graph>,
    pub spec: String,
    pub load_flags: Vec<String>,
    pub source: u32,
    pub iterations: u32,
}

/// Load the graph the options name (the built-in default without `--graph`).
pub fn load(args: &GraphArgs) -> anyhow::Result<GraphInput> {
    let spec = args
        .graph
        .clone()
        .unwrap_or_else(|| DEFAULT_GRAPH.to_string());
    let graph = Graph::from_spec(&spec, &args.load.options())
        .with_context(|| format!("cannot load graph {spec}"))?;
    let source = args.source.unwrap_or(0);
    if source >= graph.num_vertices() {
        bail!(
            "--source {source} is out of range: graph {spec} has {} vertices (0..={})",
            graph.num_vertices(),
            graph.num_vertices() - 1
        );
    }
    Ok(GraphInput {
        graph: Arc::new(graph),
        spec,
        load_flags: args.load.flags(),
        source,
        iterations: args.iterations.unwrap_or(DEFAULT_ITERATIONS),
        explicit: args.any(),
    })
}

/// If the machine's program is a graph program, lay the graph out for it; graph options
/// for a program without a descriptor are an error.
pub fn place(machine: &mut Machine, input: &GraphInput) -> anyhow::Result<Option<Placed>> {
    let Some(program) = graph_image::program(machine)? else {
        if input.explicit {
            bail!(
                "graph options were given but the program has no `{}` descriptor: it is not a graph program",
                graph_image::SYMBOL
            );
        }
        return Ok(None);
    };
    if program.schedule == Schedule::Eghw && machine.config.weaver.mode != WeaverMode::Eghw {
        bail!(
            "an EGHW graph program needs the Weaver unit in its EGHW mode: this one does not \
             say so (`{}`, WSIM_REQUIRES_EGHW in weaver.h), so run it with --set weaver.mode=eghw",
            wsim_sim::machine::REQUIRES_EGHW
        );
    }
    let (graph, source, iterations) = (&input.graph, input.source, input.iterations);
    if program.algorithm == Algorithm::Sssp {
        distances_fit(graph, source, &input.spec)?;
    }
    let (csr, csc) = (graph.csr(), graph.csc());
    let (out_sources, in_dests) = (graph.coo_sources(), graph.coo_destinations());
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
    let layout = graph_image::place(machine, &program, &arrays, source, iterations)?;
    Ok(Some(Placed {
        program,
        layout,
        graph: Arc::clone(graph),
        spec: input.spec.clone(),
        load_flags: input.load_flags.clone(),
        source,
        iterations,
    }))
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
    let mut machine = Machine::new(config, elf).map_err(|e| RunError::Setup(e.to_string()))?;
    let placed = place(&mut machine, graph).map_err(|e| RunError::Setup(format!("{e:#}")))?;
    let summary = machine.run().map_err(|e| RunError::Simulation {
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
    (exit_code == 0).then(|| {
        let result = graph_image::result(machine, &placed.layout);
        let p = placed;
        verify(
            p.program.algorithm,
            &p.graph,
            p.source,
            p.iterations,
            &result,
        )
    })
}

/// A program's result against the host reference: every mismatching vertex.
/// `source` is BFS's and SSSP's, `iterations` PageRank's.
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
        Algorithm::Bfs | Algorithm::Sssp => format!("source {}", placed.source),
        Algorithm::Cc => "labels".to_string(),
    };
    let _ = writeln!(
        r,
        "{:<22}{} ({what}), schedule {}, {}, {supersteps} super-steps",
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
            let _ = writeln!(
                r,
                "{:<22}MISMATCH: {} of {} vertices differ from the host reference",
                "result",
                m.len(),
                placed.layout.vertices
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
