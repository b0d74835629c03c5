//! wsim-harness: the layer above the engine. Running a program the way `wsim run` does
//! (graph programs included: their graph laid out before the run and their result
//! verified after it), sweeps, experiments with their plots and reports, and regression
//! baselines ([`regress`]), so that a user's own `cargo test` can check cycle counts as
//! `wsim regress check` does. The `wsim` command line is a thin layer over it.

pub mod experiment;
pub mod measure;
pub mod plot;
pub mod progress;
pub mod regress;
pub mod results;
pub mod sweep;
pub mod trace;

use std::path::Path;

use anyhow::Context;
use wsim_sim::{Config, Machine, RunSummary, SimResult};

/// The exit statuses of `wsim` itself, one meaning each (`wsim --help` lists them).
pub mod exit {
    pub const OK: u8 = 0;
    /// `run`: the program exited with a non-zero status (`--exit-status wsim`); `sweep`:
    /// a run failed, exited non-zero or did not verify; `regress`: a regression.
    pub const FAILED: u8 = 1;
    /// wsim could not run: bad arguments, an unreadable or invalid program,
    /// configuration, graph or baseline.
    pub const CANNOT_RUN: u8 = 2;
    /// `run`: the simulation failed (illegal instruction, misaligned or null access,
    /// deadlock, `run.max_cycles`).
    pub const SIMULATION_FAILED: u8 = 3;
    /// `run`: a graph program's result differs from the host reference.
    pub const MISMATCH: u8 = 4;
    /// `regress check`: a baseline is stale (its program, configuration or graph
    /// changed since it was recorded, or it never was), and nothing failed.
    pub const STALE: u8 = 5;
}

/// The SHA-256 of `bytes` in hex: the fingerprint of programs, graphs and cached runs.
pub fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// wsim's version and the git revision it was built from (12 digits, `-modified` when
/// its sources differ from that commit), as rows and cached runs record it.
pub fn version() -> String {
    let revision = regress::REVISION;
    let (commit, rest) = revision.split_at(revision.len().min(12));
    let modified = if rest.ends_with("-modified") {
        "-modified"
    } else {
        ""
    };
    format!("{} ({commit}{modified})", regress::VERSION)
}

/// A configuration file (the built-in default without one) with `key=value` overrides.
pub fn load_config(path: Option<&Path>, overrides: &[String]) -> anyhow::Result<Config> {
    let _stage = tracing::info_span!("configuration").entered();
    let base = match path {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read configuration {}", path.display()))?;
            Config::from_toml(&text, &path.display().to_string())?
        }
        None => Config::default(),
    };
    let config = base.with_overrides(overrides)?;
    let g = &config.gpu;
    tracing::info!(
        file = %path.map_or("built-in default".into(), |p| p.display().to_string()),
        overrides = overrides.len(),
        hash = %config.hash(),
        "{} clusters x {} cores x {} warps x {} threads",
        g.clusters,
        g.cores_per_cluster,
        g.warps_per_core,
        g.threads_per_warp
    );
    Ok(config)
}

/// A machine for `config` with the program `elf` loaded (the log's `load` stage).
pub fn load_program(config: &Config, elf: &[u8]) -> SimResult<Machine> {
    let _stage = tracing::info_span!("load", bytes = elf.len()).entered();
    let machine = Machine::new(config, elf)?;
    tracing::info!(
        weaver_unit = machine.has_weaver(),
        phase_names = ?machine.phase_names(),
        "program loaded"
    );
    Ok(machine)
}

/// Run the machine to its end (the log's `simulation` stage), with a progress display on
/// a terminal if `show_progress` (not for runs of a sweep or experiment, which show theirs).
pub fn run_program(machine: &mut Machine, show_progress: bool) -> SimResult<RunSummary> {
    let _stage = tracing::info_span!("simulation").entered();
    let result = if show_progress {
        progress::simulate(machine)
    } else {
        machine.run()
    };
    match &result {
        Ok(s) => tracing::info!(
            cycles = s.cycles,
            warp_instructions = s.total().instructions,
            exit_code = s.exit_code,
            "finished"
        ),
        Err(e) => {
            let reason = e.to_string();
            let first = reason.lines().next().unwrap_or_default();
            tracing::info!(cycle = machine.cycle(), "failed: {first}");
        }
    }
    result
}
