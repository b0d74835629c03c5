//! wsim-sim: the engine. No printing, no argument parsing.

pub mod cfg;
pub mod core;
pub mod loader;
