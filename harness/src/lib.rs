//! wsim-harness: the layer above the engine. Running a program the way `wsim run` does
//! (graph programs included: their graph laid out before the run and their result
//! verified after it), sweeps, experiments with their plots and reports, and regression
//! baselines ([`regress`]), so that a user's own `cargo test` can check cycle counts as
//! `wsim regress check` does. The `wsim` command line is a thin layer over it.

pub mod doc_tables;
pub mod experiment;
pub mod interrupt;
pub mod paper;
pub mod plot;
pub mod profile;
pub mod progress;
pub mod readings;
pub mod regress;
pub mod run;
pub mod speedup;
pub mod stats;
pub mod sweep;
pub mod table;
pub mod terminal;
pub mod trace;

use std::path::Path;

use anyhow::Context;
/// Inputs opened as regular files with a cap, outputs written whole (wsim-files).
pub use wsim_files as files;
use wsim_sim::Config;

/// The most bytes of a hand-written text file (an experiment, readings or paper file, a
/// document): the project's largest has 40 KB, and parsing TOML takes some 60 times its
/// text.
pub const TEXT_BYTES: u64 = 16 << 20;
/// The most bytes of a baseline: one of 100,000 runs has 46-72 MB, and `toml_edit` takes
/// some 30 times its text (1.3 GB for 46 MB).
pub const BASELINE_BYTES: u64 = 128 << 20;
/// The most bytes of a table (CSV): 100,000 runs' rows of 1-2 KB each.
pub const TABLE_BYTES: u64 = 256 << 20;
/// The most bytes of a run's JSON report (`wsim plot RUN.json`, a cached run): 100,000
/// iteration and launch records each fit.
pub const REPORT_BYTES: u64 = 1 << 30;
/// The most bytes of a program (an ELF file): its image fills at most a quarter of the
/// 32-bit address space.
pub const PROGRAM_BYTES: u64 = 1 << 30;

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

/// `n` and its noun: `1 run`, `2 runs`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
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
        Some(path) => read_config(path)?,
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

/// The configuration file at `path` (a regular file of at most
/// `limits::CONFIG_BYTES`).
pub fn read_config(path: &Path) -> anyhow::Result<Config> {
    let what = "a configuration";
    let text = files::read_text(path, wsim_sim::limits::CONFIG_BYTES, what)?;
    Ok(Config::from_toml(&text, &path.display().to_string())?)
}

/// The program at `path`, an ELF file (a regular file of at most [`PROGRAM_BYTES`]).
pub fn read_program(path: &Path) -> anyhow::Result<Vec<u8>> {
    Ok(files::read_input(path, PROGRAM_BYTES, "a program")?)
}

/// The SHA-256 of the file at `path` (a regular file), read as a stream: a graph's
/// fingerprint without its bytes in memory.
pub fn sha256_file(path: &Path) -> anyhow::Result<String> {
    use sha2::Digest;
    use std::io::Read;
    let mut file =
        files::open_input(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut hasher = sha2::Sha256::new();
    let mut chunk = vec![0; 1 << 16];
    loop {
        let n =
            (file.read(&mut chunk)).with_context(|| format!("cannot read {}", path.display()))?;
        if n == 0 {
            break;
        }
        hasher.update(&chunk[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
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
