//! wsim-harness: the layer above the engine. Running a program the way `wsim run` does
//! (graph programs included: their graph laid out before the run and their result
//! verified after it), sweeps, experiments with their plots and reports, and regression
//! baselines ([`regress`]), so that a user's own `cargo test` can check cycle counts as
//! `wsim regress check` does. The `wsim` command line is a thin layer over it.

pub mod doc_tables;
pub mod experiment;
pub mod files;
pub mod paper;
pub mod plot;
pub mod profile;
pub mod progress;
pub mod readings;
pub mod regress;
pub mod run;
pub mod stats;
pub mod sweep;
pub mod table;
pub mod terminal;
pub mod trace;

use std::path::Path;

use anyhow::Context;
use wsim_sim::Config;

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
    /// deadlock, `run.max_cycles` or another of a program's limits: phases, iterations,
    /// launches, Weaver skips, split-stack entries).
    pub const SIMULATION_FAILED: u8 = 3;
    /// `run`: a graph program's result differs from the host reference.
    pub const MISMATCH: u8 = 4;
    /// `regress check`: a baseline is stale (its program, configuration or graph
    /// changed since it was recorded, or it never was), and nothing failed.
    pub const STALE: u8 = 5;
}

/// Whether `text` matches `pattern`: `*` any run of characters, `?` any one, `[...]` one of
/// a set (the `glob` crate's patterns, as experiment files' program paths take them); an
/// invalid pattern matches nothing ([`pattern`] says why).
pub fn matches(pattern: &str, text: &str) -> bool {
    glob::Pattern::new(pattern).is_ok_and(|p| p.matches(text))
}

/// `text` as a pattern of [`matches`], or why it is not one.
pub fn pattern(text: &str) -> anyhow::Result<glob::Pattern> {
    glob::Pattern::new(text).map_err(|e| anyhow::anyhow!("`{text}` is not a pattern: {}", e.msg))
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

/// Run at most `jobs` simulations at once (`--jobs`): the size of the pool every command's
/// runs share. Without it, rayon's default: `RAYON_NUM_THREADS`, else the host's cores.
pub fn set_jobs(jobs: usize) -> anyhow::Result<()> {
    anyhow::ensure!(jobs > 0, "--jobs 0: give at least 1 simulation at once");
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build_global()
        .context("--jobs: the pool of simulations was set up already")
}
