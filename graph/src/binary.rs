//! The binary CSR format (`.bcsr`, docs/GRAPHS.md): the out-edges as they are held, so that
//! a graph of hundreds of millions of edges is written and read at the speed of the disk
//! (the text formats parse a line per edge), and a program in another language (gpu/)
//! reads it with three `fread`s. All numbers are little-endian `u32`:
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | magic `WSIMBCSR` |
//! | 4 | version, 1 |
//! | 4 | vertices V (at least 1) |
//! | 4 | edges E |
//! | 4 | reserved, 0 (the arrays start 8-byte aligned) |
//! | 4 (V + 1) | offsets: vertex v's out-edges are `offsets[v]..offsets[v + 1]` |
//! | 4 E | targets (destinations), written sorted within each row |
//! | 4 E | weights, positive |
//!
//! Nothing may follow the weights. Ids are the indices (no relabelling), so isolated
//! vertices and the graph read back exactly.

use std::io::{Read, Write};

use crate::error::ErrorKind;
use crate::{Graph, GraphError, Limits, RawGraph, VertexIds};

pub(crate) const MAGIC: [u8; 8] = *b"WSIMBCSR";
const VERSION: u32 = 1;
const HEADER_BYTES: u64 = 24;

/// The bytes a file of `vertices` and `edges` has.
pub(crate) fn file_bytes(vertices: u32, edges: u32) -> u64 {
    HEADER_BYTES + 4 * (u64::from(vertices) + 1) + 8 * u64::from(edges)
}

fn invalid(what: String) -> GraphError {
    ErrorKind::Syntax(format!("binary CSR: {what}")).into()
}

fn io(e: std::io::Error) -> GraphError {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        invalid("the file ends before its arrays do".into())
    } else {
        GraphError::new(ErrorKind::Io(e))
    }
}

/// `count` words into `out`, through a buffer of bounded size (the words are never
/// reserved beyond what the header, already checked against the ceilings, declared).
fn read_words(r: &mut impl Read, count: usize, out: &mut Vec<u32>) -> Result<(), GraphError> {
    const CHUNK: usize = 1 << 18;
    let mut bytes = vec![0u8; 4 * CHUNK.min(count)];
    out.reserve_exact(count);
    let mut left = count;
    while left > 0 {
        let n = CHUNK.min(left);
        let buf = &mut bytes[..4 * n];
        r.read_exact(buf).map_err(io)?;
        out.extend(
            buf.chunks_exact(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])),
        );
        left -= n;
    }
    Ok(())
}

/// A graph from `r`, whose first 8 bytes (the magic) the caller has read; `size`: the
/// file's length when it is not compressed, checked against the header's.
pub(crate) fn read(
    r: &mut impl Read,
    size: Option<u64>,
    limits: &Limits,
) -> Result<RawGraph, GraphError> {
    let mut header = [0u8; 16];
    r.read_exact(&mut header).map_err(io)?;
    let word = |k: usize| u32::from_le_bytes(header[4 * k..4 * k + 4].try_into().expect("4"));
    let (version, vertices, edges, reserved) = (word(0), word(1), word(2), word(3));
    if version != VERSION {
        return Err(invalid(format!(
            "version {version}; this wsim reads version {VERSION}"
        )));
    }
    if reserved != 0 {
        return Err(invalid(format!("reserved word is {reserved}, not 0")));
    }
    if vertices == 0 {
        return Err(ErrorKind::Invalid("a graph needs at least one vertex".into()).into());
    }
    limits.vertices(u64::from(vertices), "the binary CSR header")?;
    limits.edges(u64::from(edges), "the binary CSR header")?;
    if let Some(size) = size {
        let expected = file_bytes(vertices, edges);
        if size != expected {
            return Err(invalid(format!(
                "{size} bytes, but a header of {vertices} vertices and {edges} edges needs \
                 {expected}"
            )));
        }
    }
    if edges == 0 {
        return Err(ErrorKind::Empty.into());
    }
    let mut offsets = Vec::new();
    read_words(r, vertices as usize + 1, &mut offsets)?;
    if offsets[0] != 0 || offsets[vertices as usize] != edges {
        return Err(invalid(format!(
            "offsets run from {} to {}, not from 0 to the {edges} edges",
            offsets[0], offsets[vertices as usize]
        )));
    }
    if let Some(v) = offsets.windows(2).position(|p| p[1] < p[0]) {
        return Err(invalid(format!("offsets decrease at vertex {v}")));
    }
    let mut targets = Vec::new();
    read_words(r, edges as usize, &mut targets)?;
    if let Some(i) = targets.iter().position(|&t| t >= vertices) {
        return Err(ErrorKind::Range(format!(
            "binary CSR: edge {i} targets vertex {}, outside 0..{vertices}",
            targets[i]
        ))
        .into());
    }
    let mut weights = Vec::new();
    read_words(r, edges as usize, &mut weights)?;
    if let Some(i) = weights.iter().position(|&w| w == 0) {
        return Err(invalid(format!(
            "edge {i} has weight 0 (weights are positive)"
        )));
    }
    if r.read(&mut [0u8; 1]).map_err(io)? != 0 {
        return Err(invalid(format!(
            "bytes follow the weights of {edges} edges"
        )));
    }
    let mut pairs = Vec::with_capacity(edges as usize);
    for (u, pair) in offsets.windows(2).enumerate() {
        let row = &targets[pair[0] as usize..pair[1] as usize];
        pairs.extend(row.iter().map(|&v| (u as u32, v)));
    }
    Ok(RawGraph {
        num_vertices: vertices,
        edges: pairs,
        weights: Some(weights),
        weight_seed: 0,
        ids: VertexIds::Indices,
    })
}

/// `g`'s out-edges in the binary CSR format.
pub(crate) fn write(g: &Graph, w: &mut impl Write) -> std::io::Result<()> {
    let csr = g.csr();
    let header = [VERSION, g.num_vertices(), g.num_edges(), 0];
    w.write_all(&MAGIC)?;
    for array in [&header[..], &csr.offsets, &csr.targets, &csr.weights] {
        // A chunk at a time: one buffer of bytes for the array would double the memory.
        for chunk in array.chunks(1 << 16) {
            let bytes: Vec<u8> = chunk.iter().flat_map(|x| x.to_le_bytes()).collect();
            w.write_all(&bytes)?;
        }
    }
    Ok(())
}
