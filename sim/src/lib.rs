//! wsim-sim: the engine. No printing, no argument parsing.
//!
//! Start reading at [`machine::Machine`]: it loads a program ([`loader`], [`program`]),
//! builds the cores ([`core`]) over the shared memory ([`mem`]) and runs them.

pub mod cfg;
pub mod config;
pub mod core;
pub mod counts;
pub mod error;
pub mod instruction_trace;
pub mod limits;
pub mod loader;
pub mod machine;
pub mod mem;
pub mod memory_map;
pub mod phase_names;
pub mod profile;
pub mod program;
pub mod report;
pub mod shared;
pub mod source_lines;
pub mod stats;
pub mod timeline;

pub use config::Config;
pub use error::{SimError, SimResult};
pub use machine::{Cuts, Machine, Mode, Progress, RunSummary};
