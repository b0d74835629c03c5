//! wsim-workloads: what the engine runs beyond a bare program. A graph program
//! ([`graph_image`]) or a GCN layer ([`gcn_image`]) declares a descriptor; this crate reads
//! it, lays the graph and the layer out in the machine's memory through `Machine`'s host
//! API before the run, reads the results after it, and defines the run's record in the
//! JSON report ([`record`]). The engine (`wsim-sim`) knows none of it.

pub mod gcn_image;
pub mod graph_image;
pub mod record;
