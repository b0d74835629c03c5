//! A graph program's record in the JSON report (its `graph` object): the graph as loaded,
//! the kernel, and the result against the host reference.

use serde::{Deserialize, Serialize};

/// A graph program's run, filled by the command line: the graph as loaded, the kernel,
/// and its result against the host reference. Enough to repeat the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphRun {
    /// The `--graph` spec (a file or `gen:...`) and the loading options that differ from
    /// the defaults, as command-line flags.
    pub spec: String,
    pub load_options: Vec<String>,
    pub vertices: u32,
    pub edges: u32,
    pub algorithm: String,
    pub schedule: String,
    pub direction: String,
    /// BFS's and SSSP's source: its index in the graph and the graph file's id for it
    /// (`--source` takes ids); PageRank's iteration count.
    pub source: Option<u32>,
    pub source_id: Option<u64>,
    pub iterations: Option<u32>,
    /// Super-steps the device ran.
    pub supersteps: u32,
    pub result: Checked,
    /// Vertices that differ from the reference, and the first of them.
    pub mismatches: usize,
    pub first_mismatches: Vec<GraphMismatch>,
    /// A GCN program's layer (its mismatches count values of H and the output, not
    /// vertices).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gcn: Option<GcnLayerRun>,
}

/// A graph program's result against the host reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Checked {
    #[serde(rename = "verified")]
    Verified,
    #[serde(rename = "mismatch")]
    Mismatch,
    /// The program failed or exited non-zero: there is no result to check.
    #[serde(rename = "not checked")]
    NotChecked,
}

/// A GCN layer's shape (docs/GCN.md): the width F of H = X W and of the output, and the
/// sparse input features X.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GcnLayerRun {
    pub features: u32,
    pub input_features: u32,
    pub input_nonzeros: u32,
}

/// A vertex whose result differs from the host reference (values as the report prints
/// them: `unreached`, integers, or ranks).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphMismatch {
    pub vertex: u32,
    pub expected: String,
    pub got: String,
}
