//! Logs on stderr through `tracing`: warnings by default, `-q` errors only, `-v` what each
//! stage did (load, configuration, graph layout, simulation, verification) and how long it
//! took, `-vv` the engine's events too (launches, iterations), `-vvv` everything.
//! `RUST_LOG` (tracing-subscriber's filter syntax, e.g. `wsim_sim=debug`) overrides them.

use std::io::IsTerminal;

use tracing_subscriber::fmt::format::FmtSpan;
use tracing_subscriber::EnvFilter;

/// Install the logger for the process.
pub fn init(verbose: u8, quiet: bool) {
    let level = match (quiet, verbose) {
        (true, _) => "error",
        (false, 0) => "warn",
        (false, 1) => "info",
        (false, 2) => "debug",
        (false, _) => "trace",
    };
    let filter = match std::env::var("RUST_LOG") {
        Ok(spec) if !spec.is_empty() => EnvFilter::try_new(&spec).unwrap_or_else(|e| {
            stderr_line!("wsim: RUST_LOG={spec} is not a filter ({e}); logging at {level}");
            EnvFilter::new(level)
        }),
        _ => EnvFilter::new(level),
    };
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_timer(tracing_subscriber::fmt::time::uptime())
        .with_target(false)
        .with_span_events(FmtSpan::CLOSE)
        // Its own report of a failed write is an `eprintln!`, which panics on a stderr
        // that cannot be written: a log line must not change the exit status.
        .log_internal_errors(false)
        .init();
}
