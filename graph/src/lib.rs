//! wsim-graph: the graphs of wsim's workloads. Loads SNAP edge lists and Matrix Market
//! files (optionally gzip-compressed), generates R-MAT, power-law, uniform and grid graphs
//! and the dissertation's Table 4.3 stand-ins deterministically from a seed, applies the loading options (symmetrise, drop
//! self-loops, deduplicate, weights), and holds the result as CSR (out-edges) and CSC
//! (in-edges). `reference` has the host algorithms kernels are verified against.
//! Formats, relabelling, weights and generators are described in docs/GRAPHS.md.

mod binary;
mod error;
mod formats;
pub mod gcn;
mod generate;
pub mod memory;
pub mod reference;
mod vertex_ids;

use std::path::Path;

pub use error::{ErrorKind, GraphError};
pub use generate::generators;
pub use vertex_ids::VertexIds;

/// Compressed sparse rows: the edges of vertex `v` are `offsets[v]..offsets[v + 1]` in
/// `targets` and `weights`. `offsets.len()` is the vertex count plus one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Csr {
    pub offsets: Vec<u32>,
    pub targets: Vec<u32>,
    pub weights: Vec<u32>,
}

impl Csr {
    /// The positions of vertex `v`'s edges in `targets` and `weights`.
    pub fn range(&self, v: u32) -> std::ops::Range<usize> {
        self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize
    }

    pub fn degree(&self, v: u32) -> u32 {
        self.offsets[v as usize + 1] - self.offsets[v as usize]
    }

    /// The row index of every edge (the COO form of the rows).
    pub fn rows(&self) -> Vec<u32> {
        let mut rows = Vec::with_capacity(self.targets.len());
        for (v, pair) in self.offsets.windows(2).enumerate() {
            rows.resize(rows.len() + (pair[1] - pair[0]) as usize, v as u32);
        }
        rows
    }
}

/// A directed graph on vertices `0..V` with positive 32-bit edge weights, held both as
/// out-edges and in-edges. Parallel edges and self-loops are kept unless the loading
/// options remove them. Every graph has at least one vertex. Two graphs are equal when
/// their edges are: the ids an input gave the vertices are how it named them, not part
/// of the graph (a graph written to Matrix Market reads back equal, its ids from 1).
#[derive(Clone, Debug)]
pub struct Graph {
    csr: Csr,
    csc: Csr,
    ids: VertexIds,
}

impl PartialEq for Graph {
    fn eq(&self, other: &Graph) -> bool {
        self.csr == other.csr
    }
}

impl Eq for Graph {}

/// Where edge weights come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightSource {
    /// The file's weights when it has them, otherwise generated in `1..=max`.
    FromFileOrGenerated { max: u32 },
    /// Generated in `1..=max`, whatever the file says.
    Generated { max: u32 },
    /// Every edge weighs 1.
    Unit,
}

pub const DEFAULT_MAX_WEIGHT: u32 = 64;

/// Ceilings on an input's size, checked against what a file or generator declares before
/// anything is allocated for it, so that memory grows with the data present, never with a
/// header's claims. The default counts keep a load within about 1 GiB of host memory and
/// above what a 32-bit wsim machine can place (docs/GRAPHS.md); raised, the memory a load
/// would take is still compared with `max_bytes` first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_vertices: u32,
    pub max_edges: u32,
    /// Host bytes a load may take at its peak ([`memory::load_bytes`]): by default
    /// [`memory::budget`], what the host has available or `--max-memory`.
    pub max_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_vertices: 1 << 24,
            max_edges: 1 << 24,
            max_bytes: memory::budget(),
        }
    }
}

/// `count` `noun` (vertices or edges) within `max`, set by `--max-NOUN`.
fn ceiling(count: u64, max: u32, noun: &str, what: &str) -> Result<(), GraphError> {
    if count > u64::from(max) {
        return Err(ErrorKind::TooLarge(format!(
            "{what}: {count} {noun} exceed the ceiling of {max} (--max-{noun})"
        ))
        .into());
    }
    Ok(())
}

impl Limits {
    /// The most bytes a file (or its gzip content) may have: 64 per edge (a line of three
    /// 10-digit numbers is 33) plus 1 MiB of comments.
    pub fn max_input_bytes(&self) -> u64 {
        64 * u64::from(self.max_edges) + (1 << 20)
    }

    /// `count` vertices, declared by `what`, within the ceiling.
    pub(crate) fn vertices(&self, count: u64, what: &str) -> Result<(), GraphError> {
        ceiling(count, self.max_vertices, "vertices", what)
    }

    /// `count` edges, declared by `what`, within the ceiling.
    pub(crate) fn edges(&self, count: u64, what: &str) -> Result<(), GraphError> {
        ceiling(count, self.max_edges, "edges", what)
    }

    /// `bytes` of host memory, what loading what `what` declares takes, within
    /// `max_bytes`.
    pub(crate) fn memory(&self, bytes: u64, what: &str) -> Result<(), GraphError> {
        if bytes > self.max_bytes {
            return Err(ErrorKind::TooLarge(format!(
                "{what}: loading it takes about {} of host memory, more than the {} wsim may \
                 use (the memory available, or --max-memory)",
                memory::human(bytes),
                memory::human(self.max_bytes)
            ))
            .into());
        }
        Ok(())
    }

    /// `vertices` and `edges`, declared by `what` (a size line), within the ceilings,
    /// and loading them within the memory.
    pub(crate) fn size(&self, vertices: u64, edges: u64, what: &str) -> Result<(), GraphError> {
        self.vertices(vertices, what)?;
        self.edges(edges, what)?;
        self.load(vertices, edges, 0, what)
    }

    /// Loading `vertices` and `edges` (with `extra` bytes of a generator's own), declared
    /// by `what`, within the memory.
    pub(crate) fn load(
        &self,
        vertices: u64,
        edges: u64,
        extra: u64,
        what: &str,
    ) -> Result<(), GraphError> {
        let bytes = memory::load_bytes(vertices, edges, edges).saturating_add(extra);
        self.memory(bytes, what)
    }
}

impl Default for WeightSource {
    fn default() -> Self {
        WeightSource::FromFileOrGenerated {
            max: DEFAULT_MAX_WEIGHT,
        }
    }
}

/// How to turn an input into a `Graph`. Applied in this order: weights, drop
/// self-loops, symmetrise, deduplicate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    /// Add the reverse of every edge (same weight); self-loops are not doubled.
    pub symmetrize: bool,
    pub drop_self_loops: bool,
    /// Keep one edge per (source, destination): the one of least weight.
    pub dedup: bool,
    pub weights: WeightSource,
    /// Seeds generated weights, and generators whose spec has no `seed` key.
    pub seed: u64,
    pub limits: Limits,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            symmetrize: false,
            drop_self_loops: false,
            dedup: false,
            weights: WeightSource::default(),
            seed: 1,
            limits: Limits::default(),
        }
    }
}

/// Degree statistics over all vertices (population moments).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DegreeStats {
    pub min: u32,
    pub max: u32,
    pub mean: f64,
    pub stddev: f64,
    /// Pearson's moment coefficient of skewness, E[(d - mean)^3] / stddev^3; 0 when every
    /// degree is equal.
    pub skewness: f64,
    /// Vertices of degree zero.
    pub zero: u32,
}

impl DegreeStats {
    fn of(offsets: &[u32]) -> DegreeStats {
        let degrees: Vec<u32> = offsets.windows(2).map(|p| p[1] - p[0]).collect();
        let n = degrees.len() as f64;
        let mean = degrees.iter().map(|&d| f64::from(d)).sum::<f64>() / n;
        let moment = |k: i32| {
            degrees
                .iter()
                .map(|&d| (f64::from(d) - mean).powi(k))
                .sum::<f64>()
                / n
        };
        let variance = moment(2);
        let stddev = variance.sqrt();
        DegreeStats {
            min: degrees.iter().copied().min().unwrap_or(0),
            max: degrees.iter().copied().max().unwrap_or(0),
            mean,
            stddev,
            skewness: if variance > 0.0 {
                moment(3) / (variance * stddev)
            } else {
                0.0
            },
            zero: degrees.iter().filter(|&&d| d == 0).count() as u32,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphStats {
    pub vertices: u32,
    pub edges: u32,
    pub out_degree: DegreeStats,
    pub in_degree: DegreeStats,
    pub self_loops: u32,
    /// Edges whose (source, destination) repeats an earlier edge's.
    pub duplicate_edges: u32,
}

/// Edges as a format reader or generator produces them, before the options apply.
pub(crate) struct RawGraph {
    pub num_vertices: u32,
    pub edges: Vec<(u32, u32)>,
    /// The input's own weights, when it has them (already positive).
    pub weights: Option<Vec<u32>>,
    /// Seeds generated weights.
    pub weight_seed: u64,
    /// The input's names of the vertices.
    pub ids: VertexIds,
}

/// A generated weight in `1..=max`, a hash of the seed and the unordered endpoints, so
/// that an edge and its reverse weigh the same.
pub(crate) fn generated_weight(seed: u64, u: u32, v: u32, max: u32) -> u32 {
    let pair = (u64::from(u.min(v)) << 32) | u64::from(u.max(v));
    let h = generate::splitmix64(seed ^ generate::splitmix64(pair));
    1 + (h % u64::from(max)) as u32
}

fn too_many_edges(count: usize) -> Result<(), GraphError> {
    if count > u32::MAX as usize {
        return Err(ErrorKind::TooLarge(format!(
            "{count} edges: at most {} fit 32-bit edge offsets",
            u32::MAX
        ))
        .into());
    }
    Ok(())
}

impl Graph {
    /// A file path, or a generator spec `gen:KIND:key=value,...` (see docs/GRAPHS.md).
    pub fn from_spec(spec: &str, opts: &LoadOptions) -> Result<Graph, GraphError> {
        match spec.strip_prefix("gen:") {
            Some(rest) => {
                let raw = generate::generate(rest, opts.seed, &opts.limits)
                    .map_err(|e| e.in_file(spec))?;
                Graph::build(raw, opts).map_err(|e| e.in_file(spec))
            }
            None => Graph::load(Path::new(spec), opts),
        }
    }

    /// A SNAP edge list or Matrix Market file, gzip-compressed or not.
    pub fn load(path: &Path, opts: &LoadOptions) -> Result<Graph, GraphError> {
        formats::read(path, opts.seed, &opts.limits)
            .and_then(|raw| Graph::build(raw, opts))
            .map_err(|e| e.in_file(path))
    }

    /// A graph of exactly these `(source, destination, weight)` edges, none removed.
    /// Needs at least one vertex, ids below `num_vertices` and positive weights.
    pub fn from_edges(num_vertices: u32, edges: &[(u32, u32, u32)]) -> Result<Graph, GraphError> {
        if num_vertices == 0 {
            return Err(ErrorKind::Invalid("a graph needs at least one vertex".into()).into());
        }
        too_many_edges(edges.len())?;
        if let Some(&(u, v, w)) = edges
            .iter()
            .find(|&&(u, v, w)| u >= num_vertices || v >= num_vertices || w == 0)
        {
            let what = if w == 0 {
                "weight 0 (weights must be positive)".to_string()
            } else {
                format!("vertex id out of 0..{num_vertices}")
            };
            return Err(ErrorKind::Invalid(format!("edge ({u}, {v}, {w}): {what}")).into());
        }
        Ok(Graph::assemble(
            num_vertices,
            edges,
            false,
            VertexIds::Indices,
        ))
    }

    fn build(raw: RawGraph, opts: &LoadOptions) -> Result<Graph, GraphError> {
        let weight_of: Box<dyn Fn(usize, u32, u32) -> u32> = match (opts.weights, &raw.weights) {
            (WeightSource::Unit, _) => Box::new(|_, _, _| 1),
            (WeightSource::FromFileOrGenerated { .. }, Some(w)) => Box::new(move |i, _, _| w[i]),
            (WeightSource::FromFileOrGenerated { max } | WeightSource::Generated { max }, _) => {
                if max == 0 {
                    return Err(
                        ErrorKind::Invalid("the maximum weight must be at least 1".into()).into(),
                    );
                }
                let seed = raw.weight_seed;
                Box::new(move |_, u, v| generated_weight(seed, u, v, max))
            }
        };
        // The edges as the options make them, produced again for each pass over them
        // rather than held: the CSR is built straight from the input's edges.
        let edges = |weighted: bool, emit: &mut dyn FnMut(u32, u32, u32)| {
            for (i, &(u, v)) in raw.edges.iter().enumerate() {
                if u == v && opts.drop_self_loops {
                    continue;
                }
                let w = if weighted { weight_of(i, u, v) } else { 0 };
                emit(u, v, w);
                if opts.symmetrize && u != v {
                    emit(v, u, w);
                }
            }
        };
        let (vertices, input) = (u64::from(raw.num_vertices), raw.edges.len() as u64);
        let mut csr = compress(raw.num_vertices, edges, |count| {
            if count == 0 {
                return Err(ErrorKind::Empty.into());
            }
            let what = "the loading options' result";
            opts.limits.edges(count, what)?;
            (opts.limits).memory(memory::load_bytes(vertices, input, count), what)
        })?;
        // The input's edges go before the CSC is made: the graph's peak is two of the
        // three (HW: 5.5 GB -> 3.7 GB).
        drop(weight_of);
        drop(raw.edges);
        drop(raw.weights);
        let ids = raw.ids;
        if opts.dedup {
            dedup_rows(&mut csr);
        }
        let csc = transpose(&csr);
        Ok(Graph { csr, csc, ids })
    }

    /// CSR and CSC of valid edges (ids in range, count fits u32).
    fn assemble(
        num_vertices: u32,
        edges: &[(u32, u32, u32)],
        dedup: bool,
        ids: VertexIds,
    ) -> Graph {
        let each = |_: bool, emit: &mut dyn FnMut(u32, u32, u32)| {
            for &(u, v, w) in edges {
                emit(u, v, w);
            }
        };
        let mut csr = compress(num_vertices, each, |_| Ok(()))
            .expect("an edge count without a ceiling is accepted");
        if dedup {
            dedup_rows(&mut csr);
        }
        let csc = transpose(&csr);
        Graph { csr, csc, ids }
    }

    /// How the input named the vertices (`--source` is given in these ids).
    pub fn ids(&self) -> &VertexIds {
        &self.ids
    }

    pub fn num_vertices(&self) -> u32 {
        (self.csr.offsets.len() - 1) as u32
    }

    pub fn num_edges(&self) -> u32 {
        self.csr.targets.len() as u32
    }

    /// Out-edges, sorted by (source, destination, weight); `targets` are destinations.
    pub fn csr(&self) -> &Csr {
        &self.csr
    }

    /// In-edges, sorted by (destination, source, weight); `targets` are sources.
    pub fn csc(&self) -> &Csr {
        &self.csc
    }

    /// The source of each CSR edge: with `csr().offsets` and `csr().targets`, the COO
    /// form that edge-mapped schedules walk.
    pub fn coo_sources(&self) -> Vec<u32> {
        self.csr.rows()
    }

    /// The destination of each CSC edge.
    pub fn coo_destinations(&self) -> Vec<u32> {
        self.csc.rows()
    }

    pub fn stats(&self) -> GraphStats {
        let mut self_loops = 0;
        let mut duplicate_edges = 0;
        for v in 0..self.num_vertices() {
            let targets = &self.csr.targets[self.csr.range(v)];
            self_loops += targets.iter().filter(|&&t| t == v).count() as u32;
            duplicate_edges += targets.windows(2).filter(|p| p[0] == p[1]).count() as u32;
        }
        GraphStats {
            vertices: self.num_vertices(),
            edges: self.num_edges(),
            out_degree: DegreeStats::of(&self.csr.offsets),
            in_degree: DegreeStats::of(&self.csc.offsets),
            self_loops,
            duplicate_edges,
        }
    }

    /// Write as Matrix Market (`.mtx`), binary CSR (`.bcsr`) or, for any other extension,
    /// a SNAP edge list; a further `.gz` suffix compresses. Weights are always written.
    pub fn write(&self, path: &Path) -> Result<(), GraphError> {
        formats::write(self, path)
    }
}

/// Rows of `(row, column, weight)` edges, each row sorted by (column, weight). A counting
/// sort by row, then a sort within each row: cheaper than sorting all edges.
/// The CSR of the edges `edges` produces (it is called twice: to count, without weights,
/// then to place), its rows sorted by (target, weight); `accept` sees the edge count
/// before anything is allocated for the edges.
fn compress(
    num_rows: u32,
    edges: impl Fn(bool, &mut dyn FnMut(u32, u32, u32)),
    accept: impl FnOnce(u64) -> Result<(), GraphError>,
) -> Result<Csr, GraphError> {
    let n = num_rows as usize;
    let mut offsets = vec![0u32; n + 1];
    let mut count = 0u64;
    edges(false, &mut |r, _, _| {
        offsets[r as usize + 1] += 1;
        count += 1;
    });
    accept(count)?;
    for r in 0..n {
        offsets[r + 1] += offsets[r];
    }
    let mut next: Vec<u32> = offsets[..n].to_vec();
    let mut targets = vec![0u32; count as usize];
    let mut weights = vec![0u32; count as usize];
    edges(true, &mut |r, c, w| {
        let slot = next[r as usize] as usize;
        targets[slot] = c;
        weights[slot] = w;
        next[r as usize] += 1;
    });
    drop(next);
    let mut row = Vec::new();
    for pair in offsets.windows(2) {
        let range = pair[0] as usize..pair[1] as usize;
        if range.len() < 2 {
            continue;
        }
        row.clear();
        row.extend(
            targets[range.clone()]
                .iter()
                .copied()
                .zip(weights[range.clone()].iter().copied()),
        );
        row.sort_unstable();
        for (k, &(c, w)) in range.zip(&row) {
            targets[k] = c;
            weights[k] = w;
        }
    }
    Ok(Csr {
        offsets,
        targets,
        weights,
    })
}

/// The in-edges of `csr`'s graph. Its rows come out sorted by (source, weight) without a
/// sort: they are filled walking the sources in order, each source's edges to one
/// destination in weight order.
fn transpose(csr: &Csr) -> Csr {
    let n = csr.offsets.len() - 1;
    let mut offsets = vec![0u32; n + 1];
    for &t in &csr.targets {
        offsets[t as usize + 1] += 1;
    }
    for r in 0..n {
        offsets[r + 1] += offsets[r];
    }
    let mut next: Vec<u32> = offsets[..n].to_vec();
    let mut sources = vec![0u32; csr.targets.len()];
    let mut weights = vec![0u32; csr.targets.len()];
    for (v, pair) in csr.offsets.windows(2).enumerate() {
        for k in pair[0] as usize..pair[1] as usize {
            let t = csr.targets[k] as usize;
            let slot = next[t] as usize;
            sources[slot] = v as u32;
            weights[slot] = csr.weights[k];
            next[t] += 1;
        }
    }
    Csr {
        offsets,
        targets: sources,
        weights,
    }
}

/// Keep the first (least weight) edge of each run of equal targets within a row.
fn dedup_rows(csr: &mut Csr) {
    let mut kept = 0usize;
    for r in 0..csr.offsets.len() - 1 {
        let (start, end) = (csr.offsets[r] as usize, csr.offsets[r + 1] as usize);
        let row_start = kept;
        // The row's new offset is written only after its old one has been read.
        csr.offsets[r] = row_start as u32;
        for i in start..end {
            if kept == row_start || csr.targets[kept - 1] != csr.targets[i] {
                csr.targets[kept] = csr.targets[i];
                csr.weights[kept] = csr.weights[i];
                kept += 1;
            }
        }
    }
    *csr.offsets.last_mut().expect("offsets has V + 1 entries") = kept as u32;
    csr.targets.truncate(kept);
    csr.weights.truncate(kept);
}
