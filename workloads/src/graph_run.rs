//! The graph side of a run: a graph program's input loaded once ([`load`], shared by any
//! number of runs), laid out in a machine before its run ([`place`]), and its result
//! checked against the host reference after it ([`check`]); the run's record in the JSON
//! report ([`record`]) and its lines in the terminal report ([`describe`]).

use std::fmt::Write as _;
use std::sync::{Arc, Mutex, OnceLock};

use anyhow::{bail, Context};
use wsim_graph::{memory, reference, Csr, Graph};
use wsim_sim::config::WeaverMode;
use wsim_sim::Machine;

use crate::gcn_image;
use crate::gcn_run::{self, LayerInput, PlacedLayer};
use crate::graph_image::{
    self, Algorithm, GraphArrays, GraphLayout, GraphProgram, Layout, Schedule,
};
use crate::options::{GraphOptions, LayerOptions, Source};
use crate::record::{Checked, GraphMismatch as Mismatch, GraphRun};

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
    layer: LayerOptions,
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

/// Load the graph the options name (the built-in default without one).
pub fn load(options: &GraphOptions) -> anyhow::Result<GraphInput> {
    let spec = options
        .graph
        .clone()
        .unwrap_or_else(|| DEFAULT_GRAPH.to_string());
    let _stage = tracing::info_span!("graph", spec = %spec).entered();
    let graph = Graph::from_spec(&spec, &options.load.options())
        .with_context(|| format!("cannot load graph {spec}"))?;
    let n = graph.num_vertices();
    let ids = graph.ids();
    let source = match options.source {
        Source::Id(id) => match ids.index(id, n) {
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
        Source::Index(index) if index >= n => bail!(
            "--source-index {index} is out of range: graph {spec} has {n} vertices (0..={})",
            n - 1
        ),
        Source::Index(index) => index,
        Source::Hub => hub(graph.csr(), n),
        Source::First => 0,
    };
    tracing::info!(
        vertices = n,
        edges = graph.num_edges(),
        source,
        source_id = ids.id(source),
        "graph loaded"
    );
    Ok(GraphInput {
        source_id: ids.id(source),
        graph: Arc::new(graph),
        spec,
        load_flags: options.flags(),
        source,
        iterations: options.iterations.unwrap_or(DEFAULT_ITERATIONS),
        explicit: options.any(),
        given: (options.source_given(), options.iterations.is_some()),
        warned: Mutex::new(Vec::new()),
        layer: options.layer,
        seed: options.load.seed,
        layer_input: OnceLock::new(),
    })
}

/// The vertex with the most out-edges; the lowest index among equals.
fn hub(csr: &Csr, n: u32) -> u32 {
    (0..n)
        .max_by_key(|&v| (csr.degree(v), std::cmp::Reverse(v)))
        .unwrap_or(0)
}

/// If the machine's program is a graph program, lay the graph out for it, the arrays
/// `layout` says; graph options for a program without a descriptor are an error.
pub fn place(
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
    // Before anything is paid for it (SSSP's check runs the reference); a GCN layer's
    // arrays go first, so its graph's place is known once they are placed.
    if gcn.is_none() {
        fits(
            machine,
            &program,
            graph,
            graph_image::BASE,
            iterations,
            layout,
        )?;
    }
    if program.algorithm == Algorithm::Sssp {
        distances_fit(graph, source, &input.spec)?;
    }
    // A GCN layer goes first, so that its arrays' addresses do not depend on the
    // scratch the design asks of the graph.
    let layer = match gcn {
        Some((descriptor, layer)) => Some(gcn_run::place(machine, &descriptor, layer)?),
        None => None,
    };
    let start = layer.as_ref().map_or(graph_image::BASE, |l| l.layout.end);
    if layer.is_some() {
        fits(machine, &program, graph, start, iterations, layout)?;
    }
    let arrays = GraphArrays {
        out: graph.csr(),
        inn: graph.csc(),
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

/// What a run on a graph takes of host memory, estimated before anything is placed
/// (docs/GRAPHS.md, "Memory"): the graph as loaded, its arrays in the machine's memory,
/// the host reference it is checked against, and the machine's own structures. A GCN
/// layer's inputs and reference are not counted.
#[derive(Clone, Copy, Debug)]
pub struct Footprint {
    pub graph: u64,
    pub arrays: u64,
    pub reference: u64,
    pub machine: u64,
}

impl Footprint {
    pub fn total(&self) -> u64 {
        self.graph + self.arrays + self.reference + self.machine
    }

    /// `the graph 4.4 GB, its arrays in the machine 1.1 GB, ...`.
    pub fn parts(&self) -> String {
        let h = memory::human;
        format!(
            "the graph {}, its arrays in the machine {}, the host reference {}, the machine's \
             structures {}",
            h(self.graph),
            h(self.arrays),
            h(self.reference),
            h(self.machine)
        )
    }
}

/// The run's [`Footprint`], for `wsim run --dry-run`: `None` for a program that is not a
/// graph program.
pub fn footprint(machine: &Machine, input: &GraphInput) -> anyhow::Result<Option<Footprint>> {
    let Some(program) = graph_image::program(machine)? else {
        return Ok(None);
    };
    let (start, layout) = (graph_image::BASE, Layout::default());
    let graph = &input.graph;
    Ok(Some(footprint_from(
        machine,
        &program,
        graph,
        start,
        input.iterations,
        layout,
    )))
}

/// Whether the run's [`Footprint`] fits within the memory wsim may use: if not, an error
/// naming its parts.
fn fits(
    machine: &Machine,
    program: &GraphProgram,
    graph: &Graph,
    start: u32,
    iterations: u32,
    layout: Layout,
) -> anyhow::Result<()> {
    let footprint = footprint_from(machine, program, graph, start, iterations, layout);
    let budget = memory::budget();
    if footprint.total() > budget {
        bail!(
            "the run needs about {} of host memory ({}), more than the {} wsim may use (the \
             memory available, or --max-memory)",
            memory::human(footprint.total()),
            footprint.parts(),
            memory::human(budget)
        );
    }
    Ok(())
}

fn footprint_from(
    machine: &Machine,
    program: &GraphProgram,
    graph: &Graph,
    start: u32,
    iterations: u32,
    layout: Layout,
) -> Footprint {
    let (v, e) = (graph.num_vertices(), graph.num_edges());
    let placed = graph_image::placed_arrays(machine, program, start, (v, e), iterations, layout);
    let (vertices, edges) = (u64::from(v), u64::from(e));
    Footprint {
        graph: memory::graph_bytes(vertices, edges),
        arrays: graph_image::placed_bytes(program, placed, (v, e), iterations),
        reference: reference_bytes(program.algorithm, vertices, edges),
        machine: machine.config().host_bytes(),
    }
}

/// The host reference's bytes: for BFS and SSSP petgraph's copy of the graph (20 bytes
/// an edge, 8 a vertex) and its search state (a queue, or Dijkstra's scores and heap);
/// PageRank's ranks, sums and degrees; labels; and the result read back.
fn reference_bytes(algorithm: Algorithm, vertices: u64, edges: u64) -> u64 {
    let (per_vertex, per_edge) = match algorithm {
        Algorithm::Bfs => (8 + 16, 20),
        Algorithm::Sssp => (8 + 48, 20),
        Algorithm::PageRank => (24, 0),
        Algorithm::Cc => (8, 0),
        Algorithm::Gcn => (0, 0),
    };
    (per_vertex + 4) * vertices + per_edge * edges
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
fn check(machine: &Machine, placed: &Placed, exit_code: u32) -> Option<Vec<Mismatch>> {
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

/// After the run: the workload's record, with the result checked against the host
/// reference when the program ran to its end with status 0 (`exit_code`: `None` when the
/// simulation failed).
pub fn finish(machine: &Machine, placed: &Placed, exit_code: Option<u32>) -> GraphRun {
    let mismatches = exit_code.and_then(|code| check(machine, placed, code));
    let supersteps = graph_image::supersteps(machine, &placed.layout);
    record(placed, supersteps, mismatches.as_deref())
}

/// The JSON report's graph section: the run and the verdict.
fn record(placed: &Placed, supersteps: u32, mismatches: Option<&[Mismatch]>) -> GraphRun {
    let p = &placed.program;
    let walks_from_source = matches!(p.algorithm, Algorithm::Bfs | Algorithm::Sssp);
    GraphRun {
        spec: placed.spec.clone(),
        load_options: placed.load_flags.clone(),
        vertices: placed.layout.vertices,
        edges: placed.layout.edges,
        algorithm: p.algorithm.name().to_string(),
        schedule: p.schedule.name().to_string(),
        direction: p.direction.name().to_string(),
        source: walks_from_source.then_some(placed.source),
        source_id: walks_from_source.then_some(placed.source_id),
        iterations: (p.algorithm == Algorithm::PageRank).then_some(placed.iterations),
        supersteps,
        result: match mismatches {
            None => Checked::NotChecked,
            Some([]) => Checked::Verified,
            Some(_) => Checked::Mismatch,
        },
        mismatches: mismatches.map_or(0, <[Mismatch]>::len),
        first_mismatches: mismatches
            .unwrap_or_default()
            .iter()
            .take(SHOWN)
            .cloned()
            .collect(),
        gcn: placed.layer.as_ref().map(gcn_run::record),
    }
}

/// The terminal report's graph section: the run (`record`, [`finish`]'s) and the verdict.
pub fn describe(placed: &Placed, record: &GraphRun) -> String {
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
        None => format!(", {} super-steps", record.supersteps),
    };
    let _ = writeln!(
        r,
        "{:<22}{} ({what}), schedule {}, {}{steps}",
        "kernel",
        p.algorithm.name(),
        p.schedule.name(),
        p.direction.name()
    );
    match record.result {
        Checked::NotChecked => {
            let _ = writeln!(r, "{:<22}not checked: the program failed", "result");
        }
        Checked::Verified => {
            let _ = writeln!(r, "{:<22}verified against the host reference", "result");
        }
        Checked::Mismatch => {
            let (total, what) = match &placed.layer {
                Some(layer) => (gcn_run::values(layer), "values of XW and the output"),
                None => (u64::from(placed.layout.vertices), "vertices"),
            };
            let _ = writeln!(
                r,
                "{:<22}MISMATCH: {} of {total} {what} differ from the host reference",
                "result", record.mismatches,
            );
            for x in &record.first_mismatches {
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
