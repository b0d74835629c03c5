//! `wsim regress record|check`: the command line of `wsim::regress` (docs/REGRESS.md).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use wsim_harness::exit;
use wsim_harness::regress::{Baseline, Options};

use crate::args::JobsArgs;

#[derive(Subcommand)]
pub enum RegressCommand {
    /// Run a baseline's runs and write what they measure into its `[run.recorded]`
    /// tables. Records whose measurements did not change are left as they are; nothing is
    /// written when a run cannot be set up, fails or does not verify (exit status 2).
    Record {
        /// The baseline file (TOML).
        file: PathBuf,
        /// Only the runs whose name matches this pattern (`*`, `?`; repeatable).
        #[arg(long, value_name = "PATTERN")]
        only: Vec<String>,
        #[command(flatten)]
        jobs: JobsArgs,
    },
    /// Run a baseline's runs in parallel and compare them with the records: a table of
    /// what moved. Exit status 0: as recorded (within tolerances); 1: a statistic moved
    /// beyond its tolerance, an exit status changed, a graph result does not verify or a
    /// simulation failed; 2: a run could not be set up; 5: a record is stale (program,
    /// configuration or graph changed since, or never recorded) and nothing else failed.
    Check {
        /// The baseline file (TOML).
        file: PathBuf,
        /// Only the runs whose name matches this pattern (`*`, `?`; repeatable).
        #[arg(long, value_name = "PATTERN")]
        only: Vec<String>,
        /// Override a configuration key in every run, on top of its own `set`s (e.g.
        /// `--set memory.l2.hit_latency=30`: which runs does it move?). Does not make a run
        /// stale (repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        overrides: Vec<String>,
        /// Also write every run and statistic as JSON (schema `wsim-regress/1`).
        #[arg(long, value_name = "OUT")]
        json: Option<PathBuf>,
        #[command(flatten)]
        jobs: JobsArgs,
    },
}

pub fn exec(command: RegressCommand) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    match command {
        RegressCommand::Record { file, only, jobs } => {
            jobs.apply()?;
            let mut baseline = Baseline::load(&file)?;
            let options = Options {
                only,
                overrides: Vec::new(),
                progress: true,
            };
            let recording = baseline.record(&options)?;
            if !recording.refused.is_empty() {
                out.write_all(recording.check.table().as_bytes())?;
                stderr_line!(
                    "wsim: nothing recorded: {} not run, failed or did not verify: {}",
                    wsim_harness::count(recording.refused.len(), "run could", "runs could"),
                    recording.refused.join(", ")
                );
                return Ok(ExitCode::from(exit::CANNOT_RUN));
            }
            // The check after a record compares each run with itself: only what changed
            // says anything.
            let runs = recording.check.runs.len();
            let changed = &recording.changed;
            writeln!(
                out,
                "recorded {} in {}: {} changed{}, {} as recorded before",
                wsim_harness::count(runs, "run", "runs"),
                file.display(),
                changed.len(),
                if changed.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", changed.join(", "))
                },
                runs - changed.len()
            )?;
            Ok(ExitCode::SUCCESS)
        }
        RegressCommand::Check {
            file,
            only,
            overrides,
            json,
            jobs,
        } => {
            jobs.apply()?;
            let baseline = Baseline::load(&file)?;
            let options = Options {
                only,
                overrides,
                progress: true,
            };
            let check = baseline.check(&options)?;
            if let Some(path) = json {
                wsim_harness::files::write_whole(&path, check.to_json().as_bytes())?;
            }
            out.write_all(check.table().as_bytes())?;
            Ok(ExitCode::from(check.exit_code()))
        }
    }
}
