//! The command line, one module per command or concern (tests/README.md's row "The
//! command line"): one test binary, so that the tree is linked once for all of them
//! rather than once per file. Run one file's tests with
//! `cargo test --release --test cli logs::` (the module's name and `::`).

#[path = "../common/mod.rs"]
mod common;

mod args;
mod config_errors;
mod disasm_agreement;
mod errors;
mod files;
mod graph_cli;
mod graph_source;
mod logs;
mod phase_names;
mod plot_cli;
mod progress;
mod report_text;
mod signals;
mod sweep_cli;
mod trace;
