//! A graph program's record in the JSON report (its `graph` object): the graph as loaded,
//! the kernel, and the result against the host reference.

use serde::Serialize;

/// A graph program's run, filled by the command line: the graph as loaded, the kernel,
/// and its result against the host reference. Enough to repeat the run.
#[derive(Clone, Debug, Serialize)]
pub struct GraphRun {
    /// The `--graph` spec (a file or `gen:...`) and the loading options that differ from
    /// the defaults, as command-line flags.
    pub spec: String,
    pub load_options: Vec<String>,
    pub vertices: u32,
    pub edges: u32,
    pub algorithm: &'static str,
    pub schedule: &'static str,
    pub direction: &'static str,
    /// BFS's and SSSP's source: its index in the graph and the graph file's id for it
    /// (`--source` takes ids); PageRank's iteration count.
    pub source: Option<u32>,
    pub source_id: Option<u64>,
    pub iterations: Option<u32>,
    /// Super-steps the device ran.
    pub supersteps: u32,
    /// `verified`, `mismatch`, or `not checked` (the program failed).
    pub result: &'static str,
    /// Vertices that differ from the reference, and the first of them.
    pub mismatches: usize,
    pub first_mismatches: Vec<GraphMismatch>,
    /// A GCN program's layer (its mismatches count values of H and the output, not
    /// vertices).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gcn: Option<GcnLayerRun>,
}

/// A GCN layer's shape (docs/GCN.md): the width F of H = X W and of the output, and the
/// sparse input features X.
#[derive(Clone, Debug, Serialize)]
pub struct GcnLayerRun {
    pub features: u32,
    pub input_features: u32,
    pub input_nonzeros: u32,
}

/// A vertex whose result differs from the host reference (values as the report prints
/// them: `unreached`, integers, or ranks).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GraphMismatch {
    pub vertex: u32,
    pub expected: String,
    pub got: String,
}
