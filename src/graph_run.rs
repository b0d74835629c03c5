//! `wsim run` of a graph program: the graph options, laying the graph out before the run,
//! and checking the program's result against the host reference after it.

use std::fmt::Write as _;

use anyhow::{bail, Context};
use clap::Args;
use wsim_graph::{reference, Graph, LoadOptions};
use wsim_sim::graph_image::{self, Algorithm, GraphArrays, GraphLayout, GraphProgram};
use wsim_sim::Machine;

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
#[derive(Args, Clone, Debug, Default)]
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
    /// Add the reverse of every edge.
    #[arg(long)]
    pub symmetrize: bool,
    /// Drop self-loops.
    #[arg(long)]
    pub drop_self_loops: bool,
    /// Keep one edge per (source, destination), the lightest.
    #[arg(long)]
    pub dedup: bool,
    /// Seed of generated graphs and weights.
    #[arg(long)]
    pub seed: Option<u64>,
}

impl GraphArgs {
    fn any(&self) -> bool {
        self.graph.is_some()
            || self.source.is_some()
            || self.iterations.is_some()
            || self.symmetrize
            || self.drop_self_loops
            || self.dedup
            || self.seed.is_some()
    }
}

/// A graph laid out for a program.
pub struct Placed {
    pub program: GraphProgram,
    pub layout: GraphLayout,
    pub graph: Graph,
    pub spec: String,
    pub source: u32,
    pub iterations: u32,
}

/// If the machine's program is a graph program, load its graph and lay it out; graph
/// options for a program without a descriptor are an error.
pub fn place(machine: &mut Machine, args: &GraphArgs) -> anyhow::Result<Option<Placed>> {
    let Some(program) = graph_image::program(machine)? else {
        if args.any() {
            bail!(
                "graph options were given but the program has no `{}` descriptor: it is not a graph program",
                graph_image::SYMBOL
            );
        }
        return Ok(None);
    };
    let spec = args.graph.clone().unwrap_or_else(|| DEFAULT_GRAPH.to_string());
    let defaults = LoadOptions::default();
    let opts = LoadOptions {
        symmetrize: args.symmetrize,
        drop_self_loops: args.drop_self_loops,
        dedup: args.dedup,
        seed: args.seed.unwrap_or(defaults.seed),
        ..defaults
    };
    let graph = Graph::from_spec(&spec, &opts).with_context(|| format!("cannot load graph {spec}"))?;
    let source = args.source.unwrap_or(0);
    if source >= graph.num_vertices() {
        bail!(
            "--source {source} is out of range: graph {spec} has {} vertices (0..={})",
            graph.num_vertices(),
            graph.num_vertices() - 1
        );
    }
    let iterations = args.iterations.unwrap_or(DEFAULT_ITERATIONS);
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
        graph,
        spec,
        source,
        iterations,
    }))
}

/// A vertex whose result differs from the reference.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub vertex: u32,
    pub expected: String,
    pub got: String,
}

/// The program's result against the host reference: every mismatching vertex.
pub fn verify(placed: &Placed, result: &[u32]) -> Vec<Mismatch> {
    let g = &placed.graph;
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
    match placed.program.algorithm {
        Algorithm::Bfs => exact(reference::bfs_levels(g, placed.source)),
        Algorithm::Sssp => exact(reference::sssp(g, placed.source)),
        Algorithm::Cc => exact(reference::label_propagation(g)),
        Algorithm::PageRank => {
            let expected = reference::pagerank(g, placed.iterations, PR_DAMPING);
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

/// The report's graph section: the run and the verdict.
pub fn report(placed: &Placed, supersteps: u32, mismatches: Option<&[Mismatch]>) -> String {
    let p = &placed.program;
    let mut r = String::new();
    let _ = writeln!(
        r,
        "{:<22}{}: {} vertices, {} edges",
        "graph",
        placed.spec,
        placed.layout.vertices,
        placed.layout.edges
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
