//! Graph programs: the descriptor `wsim_graph` a program defines (programs/graph/graph.h),
//! and the graph's arrays laid out in simulated memory above the program image.
//!
//! Only words cross into the engine here, through `Machine`'s host API; reading graph
//! files, building CSR/CSC and checking results belong to the `wsim-graph` crate and the
//! command line.

use wsim_graph::Csr;
use wsim_sim::error::{ErrorKind, SimError, SimResult};
use wsim_sim::Machine;

/// The descriptor's symbol.
pub const SYMBOL: &str = "wsim_graph";
pub const MAGIC: u32 = 0x4850_5247;
pub const VERSION: u32 = 1;
/// Where the arrays start: above any program image (link.ld gives programs 256 MiB from
/// 0x80000000), far below the stacks (which grow down from `stack.top`, 0xFE000000).
pub const BASE: u32 = 0x9000_0000;
/// Words in the descriptor.
const WORDS: u32 = 26;

/// Word offsets in the descriptor (graph.h's field order).
mod field {
    pub const MAGIC: u32 = 0;
    pub const VERSION: u32 = 1;
    pub const ALGORITHM: u32 = 2;
    pub const DIRECTION: u32 = 3;
    pub const SCHEDULE: u32 = 4;
    pub const SCRATCH_PER_VERTEX: u32 = 5;
    pub const SCRATCH_PER_EDGE: u32 = 6;
    pub const SCRATCH_PER_STEP: u32 = 7;
    pub const SCRATCH_FIXED: u32 = 8;
    pub const NUM_VERTICES: u32 = 9;
    /// num_edges, source, iterations, max_steps, then the array addresses in
    /// [`super::GraphArrays::in_order`] order, then out_degree, result, scratch.
    pub const SUPERSTEPS: u32 = 25;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    PageRank,
    Bfs,
    Sssp,
    Cc,
    /// One GCN layer (SpMM and GraphSum): the program also has a `wsim_gcn` descriptor
    /// (`gcn_image`) and its graph is laid out with self-loops (A + I).
    Gcn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Push,
    Pull,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    Vm,
    /// Edge mapping with each edge's base vertex from the COO array (Table 4.1's EM).
    Em,
    /// Edge mapping on CSR/CSC alone: the base vertex by a binary search of the offsets
    /// (GRAssembler's `searchVID`).
    EmSearch,
    Wm,
    Cm,
    Twc,
    Twce,
    Strict,
    SparseWeaver,
    Eghw,
    /// The GCN aggregation designs of the seeds (docs/GCN.md).
    GnnAdvisor,
    AccelGcn,
    Tlpgnn,
    Bikd,
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::PageRank => "PageRank",
            Algorithm::Bfs => "BFS",
            Algorithm::Sssp => "SSSP",
            Algorithm::Cc => "CC",
            Algorithm::Gcn => "GCN",
        }
    }
}

impl Direction {
    pub fn name(self) -> &'static str {
        match self {
            Direction::Push => "push",
            Direction::Pull => "pull",
        }
    }
}

impl Schedule {
    /// Every schedule, in the declaration's order.
    pub const ALL: [Schedule; 14] = [
        Schedule::Vm,
        Schedule::Em,
        Schedule::EmSearch,
        Schedule::Wm,
        Schedule::Cm,
        Schedule::Twc,
        Schedule::Twce,
        Schedule::Strict,
        Schedule::SparseWeaver,
        Schedule::Eghw,
        Schedule::GnnAdvisor,
        Schedule::AccelGcn,
        Schedule::Tlpgnn,
        Schedule::Bikd,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Schedule::Vm => "VM",
            Schedule::Em => "EM",
            Schedule::EmSearch => "EM-search",
            Schedule::Wm => "WM",
            Schedule::Cm => "CM",
            Schedule::Twc => "TWC",
            Schedule::Twce => "TWCE",
            Schedule::Strict => "STRICT",
            Schedule::SparseWeaver => "SparseWeaver",
            Schedule::Eghw => "EGHW",
            Schedule::GnnAdvisor => "GNNAdvisor",
            Schedule::AccelGcn => "Accel-GCN",
            Schedule::Tlpgnn => "TLPGNN",
            Schedule::Bikd => "BiKD",
        }
    }
}

/// What a graph program declares about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphProgram {
    /// Address of the descriptor.
    pub descriptor: u32,
    pub algorithm: Algorithm,
    pub direction: Direction,
    pub schedule: Schedule,
    scratch_per_vertex: u32,
    scratch_per_edge: u32,
    scratch_per_step: u32,
    scratch_fixed: u32,
}

/// The graph, as the arrays the kernels read: the out-edges (CSR) and in-edges (CSC).
#[derive(Clone, Copy, Debug)]
pub struct GraphArrays<'a> {
    pub out: &'a Csr,
    pub inn: &'a Csr,
}

/// One of the eight arrays: a CSR's words, or its rows (the COO form: each edge's row).
#[derive(Clone, Copy)]
enum Array<'a> {
    Words(&'a [u32]),
    /// Made a chunk at a time as they are written, never held (4 bytes an edge).
    Rows(&'a [u32]),
}

impl<'a> GraphArrays<'a> {
    /// The arrays in descriptor order: offsets, neighbours, weights and rows of the CSR,
    /// then of the CSC.
    fn in_order(&self) -> [Array<'a>; 8] {
        let (out, inn) = (self.out, self.inn);
        [
            Array::Words(&out.offsets),
            Array::Words(&out.targets),
            Array::Words(&out.weights),
            Array::Rows(&out.offsets),
            Array::Words(&inn.offsets),
            Array::Words(&inn.targets),
            Array::Words(&inn.weights),
            Array::Rows(&inn.offsets),
        ]
    }
}

impl Array<'_> {
    /// Write the array's words from `addr`.
    fn write(self, m: &mut Machine, addr: u32) {
        match self {
            Array::Words(words) => m.write_words(addr, words),
            Array::Rows(offsets) => {
                const CHUNK: usize = 1 << 16;
                let mut chunk = Vec::with_capacity(CHUNK);
                let mut at = addr;
                for (row, pair) in offsets.windows(2).enumerate() {
                    for _ in pair[0]..pair[1] {
                        chunk.push(row as u32);
                        if chunk.len() == CHUNK {
                            m.write_words(at, &chunk);
                            at = at.wrapping_add(4 * CHUNK as u32);
                            chunk.clear();
                        }
                    }
                }
                m.write_words(at, &chunk);
            }
        }
    }
}

/// The arrays program `p` reads, in the descriptor's order (out_offsets, out_targets,
/// out_weights, out_sources, in_offsets, in_sources, in_weights, in_dests): its
/// direction's offsets and neighbours, the weights for SSSP, the COO for EM and the GCN
/// layer (programs/graph/runtime.h, edge.h, sched/em.h; programs/gcn/rt.h).
pub fn reads(p: &GraphProgram) -> [bool; 8] {
    let weights = p.algorithm == Algorithm::Sssp;
    let coo = p.schedule == Schedule::Em || p.algorithm == Algorithm::Gcn;
    let walked = [true, true, weights, coo];
    let mut reads = [false; 8];
    let first = if p.direction == Direction::Pull { 4 } else { 0 };
    reads[first..first + 4].copy_from_slice(&walked);
    reads
}

/// Which of the eight arrays [`place_from`] lays out. Those left out have the address 0,
/// which no program may touch (the null guard).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// All eight when they fit below the stacks, so every graph that fits keeps its
    /// addresses; else [`Layout::Walked`]: the largest graphs fit the 32-bit machine only
    /// with the arrays their program walks (HW's 229M edges: one array of four).
    #[default]
    Fitting,
    /// Only the arrays the program [`reads`].
    Walked,
}

/// The arrays [`place_from`] lays out for a graph of `vertices` and `edges` from `start`.
pub fn placed_arrays(
    m: &Machine,
    p: &GraphProgram,
    start: u32,
    (vertices, edges): (u32, u32),
    iterations: u32,
    layout: Layout,
) -> [bool; 8] {
    let all = [true; 8];
    let mut arena = Arena::new(start);
    reserve_arrays(&mut arena, p, all, vertices, edges, iterations);
    if layout == Layout::Fitting && arena.fits(m) {
        all
    } else {
        reads(p)
    }
}

/// The host bytes a graph of `vertices` and `edges` takes in the machine's memory when
/// the arrays of `placed` are laid out: those [`place_from`] writes (the ones `p` reads),
/// the out-degrees, and the result and scratch the run writes.
pub fn placed_bytes(
    p: &GraphProgram,
    placed: [bool; 8],
    (vertices, edges): (u32, u32),
    iterations: u32,
) -> u64 {
    let read = reads(p);
    let written = std::array::from_fn(|k| placed[k] && read[k]);
    let mut arena = Arena::new(BASE);
    reserve_arrays(&mut arena, p, written, vertices, edges, iterations);
    arena.at - arena.start
}

/// Reserve the arrays of `placed` (their addresses; 0 for the others), then the
/// out-degrees, the result and the scratch (their addresses and the scratch's words).
fn reserve_arrays(
    arena: &mut Arena,
    p: &GraphProgram,
    placed: [bool; 8],
    v: u32,
    e: u32,
    iterations: u32,
) -> ([u32; 8], [u32; 3], u64) {
    let mut addrs = [0; 8];
    for (k, addr) in addrs.iter_mut().enumerate() {
        if placed[k] {
            let offsets = k % 4 == 0;
            *addr = arena.reserve(u64::from(if offsets { v + 1 } else { e }));
        }
    }
    let max_steps = v.max(iterations).saturating_add(2);
    let scratch_words = u64::from(p.scratch_per_vertex) * u64::from(v)
        + u64::from(p.scratch_per_edge) * u64::from(e)
        + u64::from(p.scratch_per_step) * u64::from(max_steps)
        + u64::from(p.scratch_fixed);
    let degree_at = arena.reserve(u64::from(v));
    let result_at = arena.reserve(u64::from(v));
    let scratch_at = arena.reserve(scratch_words);
    (addrs, [degree_at, result_at, scratch_at], scratch_words)
}

/// Where a placed graph lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphLayout {
    pub descriptor: u32,
    pub vertices: u32,
    pub edges: u32,
    pub result: u32,
    pub scratch: u32,
    pub scratch_words: u64,
    /// One past the last byte used.
    pub end: u32,
}

fn setup(msg: String) -> SimError {
    SimError::new(ErrorKind::Setup(msg))
}

fn word(m: &Machine, descriptor: u32, f: u32) -> u32 {
    m.read_u32(descriptor + 4 * f)
}

/// The program's descriptor, if it has one (`None`: not a graph program).
pub fn program(m: &Machine) -> SimResult<Option<GraphProgram>> {
    let Some(sym) = m.symbol(SYMBOL) else {
        return Ok(None);
    };
    let at = sym.addr;
    if sym.size != 4 * WORDS || at % 4 != 0 {
        return Err(setup(format!(
            "{SYMBOL} at {at:#x} has {} bytes; the descriptor of graph.h has {}",
            sym.size,
            4 * WORDS
        )));
    }
    let magic = word(m, at, field::MAGIC);
    let version = word(m, at, field::VERSION);
    if magic != MAGIC || version != VERSION {
        return Err(setup(format!(
            "{SYMBOL}: magic {magic:#x} version {version}, expected {MAGIC:#x} version {VERSION} (programs/graph/graph.h)"
        )));
    }
    let bad = |what: &str, v: u32| setup(format!("{SYMBOL}: unknown {what} {v}"));
    let algorithm = match word(m, at, field::ALGORITHM) {
        1 => Algorithm::PageRank,
        2 => Algorithm::Bfs,
        3 => Algorithm::Sssp,
        4 => Algorithm::Cc,
        5 => Algorithm::Gcn,
        v => return Err(bad("algorithm", v)),
    };
    let direction = match word(m, at, field::DIRECTION) {
        0 => Direction::Push,
        1 => Direction::Pull,
        v => return Err(bad("direction", v)),
    };
    let schedule = match word(m, at, field::SCHEDULE) {
        1 => Schedule::Vm,
        2 => Schedule::Em,
        3 => Schedule::Wm,
        4 => Schedule::Cm,
        5 => Schedule::Twc,
        6 => Schedule::Twce,
        7 => Schedule::Strict,
        8 => Schedule::SparseWeaver,
        9 => Schedule::Eghw,
        10 => Schedule::GnnAdvisor,
        11 => Schedule::AccelGcn,
        12 => Schedule::Tlpgnn,
        13 => Schedule::Bikd,
        14 => Schedule::EmSearch,
        v => return Err(bad("schedule", v)),
    };
    Ok(Some(GraphProgram {
        descriptor: at,
        algorithm,
        direction,
        schedule,
        scratch_per_vertex: word(m, at, field::SCRATCH_PER_VERTEX),
        scratch_per_edge: word(m, at, field::SCRATCH_PER_EDGE),
        scratch_per_step: word(m, at, field::SCRATCH_PER_STEP),
        scratch_fixed: word(m, at, field::SCRATCH_FIXED),
    }))
}

/// Lay the graph out from [`BASE`] on a machine that has not run yet, and fill the
/// descriptor. `source` is the BFS/SSSP source, `iterations` PageRank's.
pub fn place(
    m: &mut Machine,
    p: &GraphProgram,
    g: &GraphArrays,
    source: u32,
    iterations: u32,
) -> SimResult<GraphLayout> {
    place_from(m, p, g, source, iterations, BASE, Layout::Fitting)
}

/// [`place`] from `start` (at or above [`BASE`], 64-byte aligned): after what another
/// descriptor placed first (a GCN layer, `gcn_image`), the arrays `layout` says (those
/// left out may be empty in `g`).
pub fn place_from(
    m: &mut Machine,
    p: &GraphProgram,
    g: &GraphArrays,
    source: u32,
    iterations: u32,
    start: u32,
    layout: Layout,
) -> SimResult<GraphLayout> {
    if m.cycle() != 0 {
        return Err(setup("a graph must be placed before the run".into()));
    }
    let too_big = |what: &str| setup(format!("too many {what} for a 32-bit machine"));
    let v =
        u32::try_from(g.out.offsets.len().saturating_sub(1)).map_err(|_| too_big("vertices"))?;
    let e = u32::try_from(g.out.targets.len()).map_err(|_| too_big("edges"))?;
    let placed = placed_arrays(m, p, start, (v, e), iterations, layout);
    if v == 0 {
        return Err(setup("the graph has no vertices".into()));
    }
    if source >= v {
        return Err(setup(format!(
            "source vertex {source} is out of range: the graph has {v} vertices (0..{})",
            v - 1
        )));
    }
    let max_steps = v.max(iterations).saturating_add(2);
    let mut arena = Arena::new(start);
    let (addrs, [degree_at, result_at, scratch_at], scratch_words) =
        reserve_arrays(&mut arena, p, placed, v, e, iterations);
    let end = arena.claim(m, "the graph")?;
    // An array the program does not read keeps its place (every address, so every
    // statistic, is the same whether it is written) but is not written: memory nothing
    // has written takes no host memory (16 of the 24 bytes an edge of all eight arrays).
    let read = reads(p);
    for ((a, &addr), read) in g.in_order().into_iter().zip(&addrs).zip(read) {
        if addr != 0 && read {
            a.write(m, addr);
        }
    }
    let degrees: Vec<u32> = g.out.offsets.windows(2).map(|w| w[1] - w[0]).collect();
    m.write_words(degree_at, &degrees);
    // Scratch and result: untouched memory reads as zero.
    let mut desc = vec![v, e, source, iterations, max_steps];
    desc.extend(&addrs);
    desc.extend([degree_at, result_at, scratch_at]);
    m.write_words(p.descriptor + 4 * field::NUM_VERTICES, &desc);
    Ok(GraphLayout {
        descriptor: p.descriptor,
        vertices: v,
        edges: e,
        result: result_at,
        scratch: scratch_at,
        scratch_words,
        end,
    })
}

/// Arrays laid out one after another from `start` (at or above [`BASE`]), each on a
/// 64-byte boundary, below the lowest stack: a GCN layer's (`gcn_image`) and the graph's.
pub(crate) struct Arena {
    start: u64,
    at: u64,
}

impl Arena {
    pub(crate) fn new(start: u32) -> Self {
        Arena {
            start: u64::from(start),
            at: u64::from(start),
        }
    }

    /// Room for `words` words: their address.
    pub(crate) fn reserve(&mut self, words: u64) -> u32 {
        let start = self.at;
        self.at = (self.at + 4 * words + 63) & !63;
        // Past 4 GiB `claim` refuses the arena before anything is written.
        start as u32
    }

    /// Whether what was reserved ends below the stacks.
    fn fits(&self, m: &Machine) -> bool {
        self.at <= m.config().stack_region().0.max(0) as u64
    }

    /// Make what was reserved part of the memory map as `what` (above the program image,
    /// below the stacks, clear of the heap); one past its end.
    pub(crate) fn claim(&self, m: &mut Machine, what: &str) -> SimResult<u32> {
        if self.start < u64::from(BASE) {
            return Err(setup(format!(
                "{what} starts below the graph base {BASE:#x}"
            )));
        }
        m.reserve_region(self.start as u32, self.at, what)?;
        Ok(self.at as u32)
    }
}

/// The result array after the run: V words.
pub fn result(m: &Machine, l: &GraphLayout) -> Vec<u32> {
    m.read_words(l.result, l.vertices)
}

/// Super-steps the program reports it ran.
pub fn supersteps(m: &Machine, l: &GraphLayout) -> u32 {
    word(m, l.descriptor, field::SUPERSTEPS)
}
