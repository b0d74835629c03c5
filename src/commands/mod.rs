//! One module per command, cargo's way: its arguments (clap) and `exec`, which turns them
//! into the harness's domain types, calls it, and prints what it returns.

pub mod config;
pub mod disasm;
pub mod experiment;
pub mod graph;
pub mod plot;
pub mod regress;
pub mod run;
pub mod sweep;
pub mod tables;
