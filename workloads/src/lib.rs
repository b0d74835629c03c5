//! wsim-workloads: what the engine runs beyond a bare program. A graph program
//! ([`graph_image`]) or a GCN layer ([`gcn_image`]) declares a descriptor; this crate reads
//! it, lays the graph and the layer out in the machine's memory through `Machine`'s host
//! API before the run, reads the results after it, and defines the run's record in the
//! JSON report ([`record`]). The run side ([`graph_run`], [`gcn_run`]) loads a run's input
//! from plain options ([`options`]) once for any number of machines, places it and checks
//! the result against the host references of `wsim-graph`. The engine (`wsim-sim`) knows
//! none of it. A program's arguments (`wsim run prog.elf -- ARG...`) go into the block
//! it declares the same way ([`args_image`]).

pub mod args_image;
pub mod gcn_image;
pub mod gcn_run;
pub mod graph_image;
pub mod graph_run;
pub mod options;
pub mod record;

pub use graph_run::{GraphInput, Placed};
pub use options::{GraphOptions, LayerOptions, LoadSpec, Source, Weights};
