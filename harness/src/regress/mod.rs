//! Regression baselines of cycle counts (docs/REGRESS.md): a TOML file lists runs (program,
//! configuration, `set`s, graph options) with the statistics recorded for each, a
//! tolerance per statistic (exact unless the file says otherwise: wsim is deterministic)
//! and provenance (wsim version and git revision, the program's SHA-256, the resolved
//! configuration's hash, the graph's). [`Baseline::check`] runs them in parallel and
//! compares; [`Baseline::record`] writes what they measure now.
//!
//! ```no_run
//! let baseline = wsim_harness::regress::Baseline::load("baselines/project.toml")?;
//! let check = baseline.check(&wsim_harness::regress::Options::default())?;
//! assert!(check.passed(), "{}", check.table());
//! # Ok::<(), anyhow::Error>(())
//! ```

mod file;
mod output;
mod stats;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::bail;
use rayon::prelude::*;
use serde::Serialize;
use wsim_sim::Config;
use wsim_workloads::graph_run::{self, GraphInput};
use wsim_workloads::record::Checked;

pub use file::{Recorded, RunSpec, Tolerance};
pub use stats::{Value, DEFAULT as DEFAULT_STATS, NAMES as STAT_NAMES};

use crate::run::{self, Program, RunOptions, RunRecord, RunRequest};
use crate::{exit, load_config, matches as glob, sha256};

/// The wsim that measures: its version and the git revision it was built from.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const REVISION: &str = env!("WSIM_GIT_REVISION");

/// Which runs, how, and whether to show progress.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Run-name patterns (globs); empty: every run.
    pub only: Vec<String>,
    /// `key=value` configuration overrides applied on top of every run's own, to see which
    /// runs a parameter moves and by how much (a check only: the records keep the
    /// configuration their file states, so these do not make a run stale).
    pub overrides: Vec<String>,
    /// A progress bar on stderr (drawn only when it is a terminal).
    pub progress: bool,
}

/// A baseline file and its runs.
pub struct Baseline {
    file: file::File,
}

/// A run's verdict, worst last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Ok,
    /// The program, configuration or graph changed since the run was recorded (or it was
    /// never recorded): record it again; its statistics are shown but not judged.
    Stale,
    /// A statistic moved beyond its tolerance, the exit status changed, the graph result
    /// no longer verifies, or the simulation failed.
    Failed,
    /// The run could not be set up (a missing file, an invalid configuration ...).
    Error,
}

/// A statistic's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StatVerdict {
    Same,
    /// Moved, within the tolerance.
    Within,
    /// Moved beyond the tolerance.
    Moved,
    /// Recorded but no longer produced (a cache level or phase is gone).
    Missing,
    /// Selected but not recorded.
    New,
}

/// One statistic of a run, recorded and now.
#[derive(Clone, Debug, Serialize)]
pub struct StatCheck {
    pub name: String,
    pub baseline: Option<Value>,
    pub now: Option<Value>,
    /// `100 (now - baseline) / baseline`, when both exist and the baseline is not 0.
    pub change_pct: Option<f64>,
    pub tolerance: Tolerance,
    pub verdict: StatVerdict,
}

/// What a [`Note`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Subject {
    /// The run was never recorded (stale).
    Recorded,
    /// The program's, configuration's or graph's fingerprint changed (stale).
    Program,
    Config,
    Graph,
    /// The program's exit status changed (failed).
    ExitStatus,
    /// The graph result no longer verifies (failed).
    Result,
    /// The simulation failed (failed); `now` is the message.
    Simulation,
    /// The run could not be set up (error); `now` is the message.
    Setup,
}

impl Subject {
    pub fn name(self) -> &'static str {
        match self {
            Subject::Recorded => "recorded",
            Subject::Program => "program",
            Subject::Config => "config",
            Subject::Graph => "graph",
            Subject::ExitStatus => "exit status",
            Subject::Result => "result",
            Subject::Simulation => "simulation",
            Subject::Setup => "setup",
        }
    }
}

/// Something about a run other than a statistic: an input that changed, the exit status,
/// the result, a failure.
#[derive(Clone, Debug, Serialize)]
pub struct Note {
    pub what: Subject,
    pub baseline: String,
    pub now: String,
}

/// A run's comparison with its record.
#[derive(Clone, Debug, Serialize)]
pub struct RunCheck {
    pub name: String,
    pub verdict: Verdict,
    /// The program's exit status now (absent when it did not run to its end).
    pub exit_status: Option<u32>,
    pub notes: Vec<Note>,
    pub stats: Vec<StatCheck>,
    /// `wsim VERSION (REVISION)` of the record.
    pub recorded_by: Option<String>,
}

/// The comparison of a baseline's runs with what wsim measures now.
#[derive(Clone, Debug)]
pub struct Check {
    pub baseline: PathBuf,
    /// The overrides applied on top of every run ([`Options::overrides`]).
    pub overrides: Vec<String>,
    pub runs: Vec<RunCheck>,
    pub seconds: f64,
}

impl Check {
    /// The worst verdict (`Ok` for no runs).
    pub fn verdict(&self) -> Verdict {
        self.runs
            .iter()
            .map(|r| r.verdict)
            .max()
            .unwrap_or(Verdict::Ok)
    }

    pub fn passed(&self) -> bool {
        self.verdict() == Verdict::Ok
    }

    /// The process exit status of `wsim regress check` (see [`crate::exit`]).
    pub fn exit_code(&self) -> u8 {
        match self.verdict() {
            Verdict::Ok => exit::OK,
            Verdict::Stale => exit::STALE,
            Verdict::Failed => exit::FAILED,
            Verdict::Error => exit::CANNOT_RUN,
        }
    }
}

/// What [`Baseline::record`] did.
#[derive(Clone, Debug)]
pub struct Recording {
    /// The measurements against the previous records.
    pub check: Check,
    /// The runs whose record was written (the file was saved when there were any).
    pub changed: Vec<String>,
    /// The runs that could not run, failed or did not verify: when there are any, nothing
    /// was written.
    pub refused: Vec<String>,
}

/// The selected runs (indices), what each measured, and the comparison.
struct Round {
    selected: Vec<usize>,
    measured: Vec<Result<Measured, String>>,
    check: Check,
}

/// What a run measured now: the inputs' fingerprints and, unless the simulation failed,
/// the exit status, the graph verdict and every statistic.
struct Measured {
    program_sha256: String,
    config_hash: String,
    graph_sha256: Option<String>,
    outcome: Result<Outcome, String>,
}

struct Outcome {
    exit_status: u32,
    verified: Option<bool>,
    stats: Vec<(String, Value)>,
}

impl Baseline {
    pub fn load(path: impl AsRef<Path>) -> anyhow::Result<Baseline> {
        Ok(Baseline {
            file: file::File::load(path.as_ref())?,
        })
    }

    pub fn runs(&self) -> &[RunSpec] {
        &self.file.runs
    }

    /// Run the selected runs and compare each with its record.
    pub fn check(&self, options: &Options) -> anyhow::Result<Check> {
        // An unknown key or a bad value fails once here, not in every run.
        // The error names the --set item itself.
        wsim_sim::Config::default().with_overrides(&options.overrides)?;
        Ok(self.round(options)?.check)
    }

    /// Run the selected runs and record what they measure, writing the file when any
    /// record changed (a record whose measurements are unchanged keeps its provenance, so
    /// the diff shows only what moved). Nothing is written when a run cannot be set up,
    /// fails, or (a graph program) does not verify.
    pub fn record(&mut self, options: &Options) -> anyhow::Result<Recording> {
        if !options.overrides.is_empty() {
            bail!("a record takes the configuration its baseline states: put overrides in the runs' `set`");
        }
        let Round {
            selected,
            measured,
            check,
        } = self.round(options)?;
        let refused: Vec<String> = check
            .runs
            .iter()
            .filter(|r| {
                r.verdict == Verdict::Error
                    || r.notes
                        .iter()
                        .any(|n| matches!(n.what, Subject::Simulation | Subject::Result))
            })
            .map(|r| r.name.clone())
            .collect();
        let mut changed = Vec::new();
        let mut records = Vec::new();
        if refused.is_empty() {
            for (&i, m) in selected.iter().zip(&measured) {
                let run = &self.file.runs[i];
                let Ok(
                    m @ Measured {
                        outcome: Ok(outcome),
                        ..
                    },
                ) = m
                else {
                    unreachable!("a run that could not run or failed stops the record")
                };
                let new = Recorded {
                    wsim: VERSION.to_string(),
                    revision: REVISION.to_string(),
                    program_sha256: m.program_sha256.clone(),
                    config_hash: m.config_hash.clone(),
                    graph_sha256: m.graph_sha256.clone(),
                    exit_status: outcome.exit_status,
                    stats: outcome
                        .stats
                        .iter()
                        .filter(|(name, _)| run.selects(name))
                        .cloned()
                        .collect(),
                };
                if run.recorded.as_ref().is_none_or(|old| !old.same_as(&new)) {
                    changed.push(run.name.clone());
                    records.push((run.name.clone(), new));
                }
            }
            if !records.is_empty() {
                self.file = self.file.write_records(&records)?;
            }
        }
        // The table of a record compares the runs with what is recorded now, not with the
        // records they replaced (which were stale: "record it" while recording).
        let mut check = check;
        if refused.is_empty() {
            check.runs = (selected.iter().zip(&measured))
                .map(|(&i, m)| compare(&self.file.runs[i], m))
                .collect();
        }
        Ok(Recording {
            check,
            changed,
            refused,
        })
    }

    /// The indices of the runs the patterns select (every run without patterns); a
    /// pattern that selects nothing is an error (a typo would otherwise check nothing).
    fn select(&self, only: &[String]) -> anyhow::Result<Vec<usize>> {
        let runs = &self.file.runs;
        if let Some(p) = only.iter().find(|p| !runs.iter().any(|r| glob(p, &r.name))) {
            bail!(
                "{}: no run is named like `{p}` (runs are named like `{}`)",
                self.file.path.display(),
                runs.first().map_or("", |r| &r.name)
            );
        }
        Ok((0..runs.len())
            .filter(|&i| only.is_empty() || only.iter().any(|p| glob(p, &runs[i].name)))
            .collect())
    }

    /// Measure the selected runs in parallel and compare each with its record; results
    /// in the runs' order.
    fn round(&self, options: &Options) -> anyhow::Result<Round> {
        let started = std::time::Instant::now();
        let selected = self.select(&options.only)?;
        let prepared: Vec<Result<Prepared, String>> = selected
            .par_iter()
            .map(|&i| prepare(&self.file.runs[i], &options.overrides))
            .collect();
        let request = |p: &Result<Prepared, String>| match p {
            Ok(p) => Ok(RunRequest {
                name: p.name.clone(),
                program: Program::Bytes(Arc::clone(&p.elf)),
                config: p.config.clone(),
                input: Some(Arc::clone(&p.input)),
                options: RunOptions::default(),
            }),
            Err(e) => Err(Box::new(RunRecord::not_set_up("", e.clone()))),
        };
        let records = run::run_many(&prepared, "regress", options.progress, request, |_, _| {
            Ok(())
        })?;
        let measured: Vec<Result<Measured, String>> = prepared
            .into_iter()
            .zip(records)
            .map(|(p, record)| Ok(p?.measured(record)))
            .collect();
        let runs = selected
            .iter()
            .zip(&measured)
            .map(|(&i, m)| compare(&self.file.runs[i], m))
            .collect();
        let check = Check {
            baseline: self.file.path.clone(),
            overrides: options.overrides.clone(),
            runs,
            seconds: started.elapsed().as_secs_f64(),
        };
        Ok(Round {
            selected,
            measured,
            check,
        })
    }
}

/// A run read, configured and given its input, with the fingerprints of all three.
struct Prepared {
    name: String,
    elf: Arc<Vec<u8>>,
    config: Config,
    input: Arc<GraphInput>,
    program_sha256: String,
    config_hash: String,
    graph_sha256: String,
}

/// Read a run's program, configuration (with `overrides` on top) and graph. `Err`: it
/// could not be set up.
fn prepare(run: &RunSpec, overrides: &[String]) -> Result<Prepared, String> {
    let elf = crate::read_program(&run.program).map_err(|e| format!("{e:#}"))?;
    let stated = load_config(run.config.as_deref(), &run.set).map_err(|e| format!("{e:#}"))?;
    let config = stated
        .with_overrides(overrides)
        .map_err(|e| format!("{e:#}"))?;
    let input = graph_run::load(&run.graph).map_err(|e| format!("{e:#}"))?;
    // The graph as loaded: the file's bytes (or the generator's spec), the loading
    // options, and the source and iterations the kernel is given.
    let content = if input.spec.starts_with("gen:") {
        sha256(input.spec.as_bytes())
    } else {
        crate::sha256_file(Path::new(&input.spec)).map_err(|e| format!("{e:#}"))?
    };
    let graph = format!(
        "{}\n{}\nsource {}\niterations {}",
        content,
        input.load_flags.join(" "),
        input.source,
        input.iterations
    );
    Ok(Prepared {
        name: run.name.clone(),
        program_sha256: sha256(&elf),
        elf: Arc::new(elf),
        config,
        input: Arc::new(input),
        config_hash: stated.hash(),
        graph_sha256: sha256(graph.as_bytes()),
    })
}

impl Prepared {
    /// What the run measured: the fingerprints (the graph's for a graph program) and,
    /// unless the simulation failed, the exit status, the graph verdict and every
    /// statistic.
    fn measured(self, record: RunRecord) -> Measured {
        let graph = record.workload();
        let graph_sha256 = graph.is_some().then_some(self.graph_sha256);
        let outcome = match (&record.report, &record.error) {
            (Some(report), None) => Ok(Outcome {
                exit_status: report.exit_code,
                verified: graph.map(|g| g.result == Checked::Verified),
                stats: stats::of(&record),
            }),
            (_, error) => Err(error.as_ref().map_or(String::new(), |e| e.to_string())),
        };
        Measured {
            program_sha256: self.program_sha256,
            config_hash: self.config_hash,
            graph_sha256,
            outcome,
        }
    }
}

/// Short form of a fingerprint for the table.
fn short(hash: &str) -> String {
    hash.chars().take(12).collect()
}

fn compare(run: &RunSpec, measured: &Result<Measured, String>) -> RunCheck {
    let mut check = RunCheck {
        name: run.name.clone(),
        verdict: Verdict::Ok,
        exit_status: None,
        notes: Vec::new(),
        stats: Vec::new(),
        recorded_by: run
            .recorded
            .as_ref()
            .map(|r| format!("wsim {} ({})", r.wsim, r.revision)),
    };
    let m = match measured {
        Ok(m) => m,
        Err(e) => {
            check.verdict = Verdict::Error;
            check.notes.push(Note {
                what: Subject::Setup,
                baseline: String::new(),
                now: e.clone(),
            });
            return check;
        }
    };
    let empty = Recorded {
        wsim: String::new(),
        revision: String::new(),
        program_sha256: String::new(),
        config_hash: String::new(),
        graph_sha256: None,
        exit_status: 0,
        stats: Vec::new(),
    };
    let r = match &run.recorded {
        Some(r) => r,
        None => {
            check.notes.push(Note {
                what: Subject::Recorded,
                baseline: "never".into(),
                now: "record it: wsim regress record".into(),
            });
            &empty
        }
    };
    let mut stale = run.recorded.is_none();
    for (what, was, now) in [
        (
            Subject::Program,
            Some(&r.program_sha256),
            Some(&m.program_sha256),
        ),
        (Subject::Config, Some(&r.config_hash), Some(&m.config_hash)),
        (
            Subject::Graph,
            r.graph_sha256.as_ref(),
            m.graph_sha256.as_ref(),
        ),
    ] {
        if run.recorded.is_some() && was != now {
            stale = true;
            let show = |h: Option<&String>| h.map_or("none".to_string(), |h| short(h));
            check.notes.push(Note {
                what,
                baseline: show(was),
                now: show(now),
            });
        }
    }
    let mut failed = false;
    match &m.outcome {
        Err(e) => {
            failed = true;
            check.notes.push(Note {
                what: Subject::Simulation,
                baseline: format!("exit status {}", r.exit_status),
                now: e.clone(),
            });
        }
        Ok(o) => {
            check.exit_status = Some(o.exit_status);
            if run.recorded.is_some() && o.exit_status != r.exit_status {
                failed = true;
                check.notes.push(Note {
                    what: Subject::ExitStatus,
                    baseline: r.exit_status.to_string(),
                    now: o.exit_status.to_string(),
                });
            }
            if o.verified == Some(false) {
                failed = true;
                check.notes.push(Note {
                    what: Subject::Result,
                    baseline: "verified".into(),
                    now: "differs from the host reference".into(),
                });
            }
            check.stats = compare_stats(run, &r.stats, &o.stats);
            failed |= check
                .stats
                .iter()
                .any(|s| matches!(s.verdict, StatVerdict::Moved | StatVerdict::Missing));
            stale |=
                run.recorded.is_some() && check.stats.iter().any(|s| s.verdict == StatVerdict::New);
        }
    }
    check.verdict = if stale {
        Verdict::Stale
    } else if failed {
        Verdict::Failed
    } else {
        Verdict::Ok
    };
    check
}

/// The recorded statistics against now's, then those selected but not recorded.
fn compare_stats(
    run: &RunSpec,
    recorded: &[(String, Value)],
    now: &[(String, Value)],
) -> Vec<StatCheck> {
    let find = |list: &[(String, Value)], name: &str| {
        list.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    };
    let names = recorded.iter().map(|(n, _)| n).chain(
        now.iter()
            .map(|(n, _)| n)
            .filter(|n| run.selects(n) && find(recorded, n).is_none()),
    );
    names
        .map(|name| {
            let (baseline, now) = (find(recorded, name), find(now, name));
            let tolerance = run.tolerance_of(name);
            let (verdict, change_pct) = match (baseline, now) {
                (Some(b), Some(n)) => {
                    let verdict = if b == n {
                        StatVerdict::Same
                    } else if tolerance.admits(b, n) {
                        StatVerdict::Within
                    } else {
                        StatVerdict::Moved
                    };
                    let (b, n) = (b.as_f64(), n.as_f64());
                    let pct = (b != 0.0).then(|| 100.0 * (n - b) / b.abs());
                    (verdict, pct)
                }
                (Some(_), None) => (StatVerdict::Missing, None),
                _ => (StatVerdict::New, None),
            };
            StatCheck {
                name: name.clone(),
                baseline,
                now,
                change_pct,
                tolerance,
                verdict,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_and_statistic_patterns_are_globs() {
        assert!(glob("*", ""));
        assert!(glob("vecadd@*", "vecadd@tiny"));
        assert!(glob("*@tiny", "graph/bfs@tiny"));
        assert!(glob("b?s_*_push@*", "bfs_vm_push@tiny"));
        assert!(glob("bfs_[cv]m_*", "bfs_vm_push@tiny"));
        assert!(!glob("bfs_[ce]m_*", "bfs_vm_push@tiny"));
        assert!(!glob("vecadd", "vecadd@tiny"));
        assert!(!glob("?", ""));
        assert!(!glob("[unclosed", "[unclosed"));
        assert!(glob("phase_*_cycles", "phase_12_cycles"));
    }

    #[test]
    fn tolerances_admit_what_they_say() {
        let (b, up2, up3) = (Value::Count(100), Value::Count(102), Value::Count(103));
        assert!(Tolerance::Exact.admits(b, b));
        assert!(!Tolerance::Exact.admits(b, up2));
        assert!(Tolerance::Relative(2.0).admits(b, up2));
        assert!(!Tolerance::Relative(2.0).admits(b, up3));
        assert!(Tolerance::Relative(2.0).admits(b, Value::Count(98)));
        assert!(Tolerance::Absolute(3.0).admits(b, up3));
        assert!(Tolerance::Absolute(0.01).admits(Value::Rate(0.5), Value::Rate(0.509)));
        assert!(!Tolerance::Absolute(0.01).admits(Value::Rate(0.5), Value::Rate(0.52)));
    }
}
