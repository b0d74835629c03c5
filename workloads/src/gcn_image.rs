//! GCN programs: the layer descriptor `wsim_gcn` (programs/gcn/gcn.h) beside the graph
//! descriptor, and the layer's arrays (input features, weights, the two result matrices)
//! laid out from the graph base, before the graph's (`graph_image::place_from`), so that
//! they have the same addresses whatever scratch a design asks of the graph. Plain words
//! only, as in `graph_image`.

use wsim_sim::error::{ErrorKind, SimError, SimResult};
use wsim_sim::Machine;

use crate::graph_image::{Arena, BASE};

/// The descriptor's symbol.
pub const SYMBOL: &str = "wsim_gcn";
pub const MAGIC: u32 = 0x314E_4347; // "GCN1"
pub const VERSION: u32 = 1;
/// Words in the descriptor.
const WORDS: u32 = 13;

/// Word offsets in the descriptor (gcn.h's field order).
mod field {
    pub const MAGIC: u32 = 0;
    pub const VERSION: u32 = 1;
    /// features, input_features, x_nnz, l2_bytes, local_bytes, then the array addresses:
    /// x_offsets, x_columns, x_values, weights, hidden, output.
    pub const FEATURES: u32 = 2;
}

/// A GCN program's descriptor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GcnProgram {
    pub descriptor: u32,
}

/// The layer's inputs as words (f32 values as their bits).
#[derive(Clone, Copy, Debug)]
pub struct LayerArrays<'a> {
    pub features: u32,
    pub input_features: u32,
    /// X in compressed rows: V + 1 offsets, a column and a value per nonzero.
    pub x_offsets: &'a [u32],
    pub x_columns: &'a [u32],
    pub x_values: &'a [u32],
    /// W, `input_features` x `features`, row-major.
    pub weights: &'a [u32],
}

/// Where a placed layer lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GcnLayout {
    pub features: u32,
    pub vertices: u32,
    /// H = X W and the layer's output, V x F each.
    pub hidden: u32,
    pub output: u32,
    /// One past the last byte used.
    pub end: u32,
}

fn setup(msg: String) -> SimError {
    SimError::new(ErrorKind::Setup(msg))
}

/// The program's layer descriptor, if it has one.
pub fn program(m: &Machine) -> SimResult<Option<GcnProgram>> {
    let Some(sym) = m.symbol(SYMBOL) else {
        return Ok(None);
    };
    let at = sym.addr;
    if sym.size != 4 * WORDS || at % 4 != 0 {
        return Err(setup(format!(
            "{SYMBOL} at {at:#x} has {} bytes; the descriptor of gcn.h has {}",
            sym.size,
            4 * WORDS
        )));
    }
    let word = |f: u32| m.read_u32(at + 4 * f);
    let (magic, version) = (word(field::MAGIC), word(field::VERSION));
    if magic != MAGIC || version != VERSION {
        return Err(setup(format!(
            "{SYMBOL}: magic {magic:#x} version {version}, expected {MAGIC:#x} version {VERSION} (programs/gcn/gcn.h)"
        )));
    }
    Ok(Some(GcnProgram { descriptor: at }))
}

/// Lay the layer of a graph of `vertices` vertices out from the graph base on a machine
/// that has not run yet (the graph follows, from `end`), and fill the descriptor, with the
/// machine's L2 and local memory sizes (BiKD sizes its partitions by the L2; the
/// CTA-mapped kernels split local memory among their CTAs).
pub fn place(
    m: &mut Machine,
    p: &GcnProgram,
    vertices: u32,
    layer: &LayerArrays,
) -> SimResult<GcnLayout> {
    if m.cycle() != 0 {
        return Err(setup("a GCN layer must be placed before the run".into()));
    }
    let (v, f) = (vertices, layer.features);
    let rows_ok = layer.x_offsets.len() == v as usize + 1
        && layer.x_columns.len() == layer.x_values.len()
        && layer
            .x_offsets
            .last()
            .is_some_and(|&n| n as usize == layer.x_columns.len());
    let weights_ok = layer.weights.len() as u64 == u64::from(layer.input_features) * u64::from(f);
    if !rows_ok || !weights_ok || f == 0 {
        return Err(setup("GCN layer arrays of inconsistent lengths".into()));
    }
    let matrix = u64::from(v) * u64::from(f);
    let mut arena = Arena::new(BASE);
    let inputs = [
        layer.x_offsets,
        layer.x_columns,
        layer.x_values,
        layer.weights,
    ];
    let addrs: Vec<u32> = inputs
        .iter()
        .map(|a| arena.reserve(a.len() as u64))
        .collect();
    let hidden = arena.reserve(matrix);
    let output = arena.reserve(matrix);
    let end = arena.claim(m, "the GCN layer")?;
    for (a, &addr) in inputs.iter().zip(&addrs) {
        m.write_words(addr, a);
    }
    // H and the output: untouched memory reads as zero.
    let memory = &m.config().memory;
    let l2_bytes = if memory.l2_enabled { memory.l2.size } else { 0 };
    let mut desc = vec![
        f,
        layer.input_features,
        layer.x_columns.len() as u32,
        l2_bytes,
        m.config().local_mem.size,
    ];
    desc.extend(&addrs);
    desc.extend([hidden, output]);
    m.write_words(p.descriptor + 4 * field::FEATURES, &desc);
    Ok(GcnLayout {
        features: f,
        vertices: v,
        hidden,
        output,
        end,
    })
}

fn matrix(m: &Machine, l: &GcnLayout, at: u32) -> Vec<u32> {
    m.read_words(at, l.vertices * l.features)
}

/// H = X W after the run: V x F f32 bits, row-major.
pub fn hidden(m: &Machine, l: &GcnLayout) -> Vec<u32> {
    matrix(m, l, l.hidden)
}

/// The layer's output after the run: V x F f32 bits, row-major.
pub fn output(m: &Machine, l: &GcnLayout) -> Vec<u32> {
    matrix(m, l, l.output)
}
