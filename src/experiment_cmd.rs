//! `wsim experiment run|collect|plot|slurm|report` and `wsim plot`: the command line of
//! `wsim::experiment` and `wsim::plot` (docs/EXPERIMENTS.md).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
use wsim::exit;
use wsim::experiment::report;
use wsim::experiment::slurm::{self, Resources};
use wsim::experiment::{Experiment, Outputs, Shard, Table};

/// Where an experiment's results go.
#[derive(Args)]
pub struct Places {
    /// The experiment file (TOML).
    file: PathBuf,
    /// The directory of the table and plots [default: results/NAME].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The directory of cached runs, shared by reruns and array tasks [default: OUT/cache].
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
}

impl Places {
    fn load(&self) -> anyhow::Result<(Experiment, Outputs)> {
        let experiment = Experiment::load(&self.file)?;
        let outputs = Outputs::new(&experiment, self.out.as_deref(), self.cache.as_deref());
        Ok((experiment, outputs))
    }
}

#[derive(Subcommand)]
pub enum ExperimentCommand {
    /// Run the experiment's runs that are not cached yet (in parallel, with progress on a
    /// terminal), then write its table (OUT/NAME.csv) and plots (OUT/PLOT.svg). With
    /// --shard, run only that shard and write nothing else (collect does). Exit status 1
    /// when a run failed, exited non-zero or did not verify (its row says why).
    Run {
        #[command(flatten)]
        places: Places,
        /// Only the runs of shard K of N (run i belongs to shard i mod N), 0 <= K < N:
        /// one task of a job array.
        #[arg(long, value_name = "K/N")]
        shard: Option<Shard>,
    },
    /// Write the table and plots from the cache (after every shard has run); an error
    /// naming what is missing otherwise.
    Collect {
        #[command(flatten)]
        places: Places,
    },
    /// Redraw the plots from the table, without running anything.
    Plot {
        #[command(flatten)]
        places: Places,
        /// The table to draw from [default: OUT/NAME.csv].
        #[arg(long, value_name = "CSV")]
        table: Option<PathBuf>,
    },
    /// Write an sbatch script that runs the experiment as a Slurm job array, one shard
    /// per task, into the shared cache; then `wsim experiment collect`.
    Slurm {
        #[command(flatten)]
        places: Places,
        /// Array tasks [default: one per run, at most 32].
        #[arg(long, value_name = "N")]
        tasks: Option<usize>,
        /// CPUs per task (each runs that many simulations at once) [default: the file's
        /// [slurm] cpus_per_task, or 1].
        #[arg(long, value_name = "N")]
        cpus_per_task: Option<u32>,
        /// Memory per task, e.g. 8G.
        #[arg(long, value_name = "SIZE")]
        mem: Option<String>,
        /// Time limit per task, e.g. 04:00:00.
        #[arg(long, value_name = "TIME")]
        time: Option<String>,
        #[arg(long)]
        partition: Option<String>,
        /// The script to write [default: OUT/NAME.sbatch].
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Write a Markdown page of a paper's numbers beside wsim's, computed from the
    /// experiments' tables of the profiles quick and full (DIR/EXPERIMENT/PROFILE/
    /// EXPERIMENT.csv; an absent one has not run), with their figures copied beside it.
    Report {
        /// The paper file (TOML): its claims and how wsim's values are computed.
        paper: PathBuf,
        /// The experiments' outputs.
        #[arg(long, value_name = "DIR", default_value = "results")]
        results: PathBuf,
        /// The page to write.
        #[arg(short, long, value_name = "OUT.md", default_value = "docs/RESULTS.md")]
        output: PathBuf,
        /// Where the page's figures are copied.
        #[arg(long, value_name = "DIR", default_value = "docs/results/dissertation")]
        figures: PathBuf,
    },
}

pub fn run(command: ExperimentCommand) -> anyhow::Result<ExitCode> {
    match command {
        ExperimentCommand::Run { places, shard } => {
            let (experiment, outputs) = places.load()?;
            let started = std::time::Instant::now();
            let done = experiment.execute(&outputs, shard, true)?;
            let of = shard.map_or(String::new(), |s| {
                format!(
                    " (shard {}/{} of {})",
                    s.index,
                    s.count,
                    experiment.runs.len()
                )
            });
            eprintln!(
                "experiment {}: {} runs{of}: {} cached, {} run in {:.1} s",
                experiment.name,
                done.selected,
                done.cached,
                done.ran,
                started.elapsed().as_secs_f64()
            );
            if shard.is_some() {
                return Ok(ExitCode::SUCCESS);
            }
            let (table, written) = experiment.report(&outputs)?;
            written_files(&written)?;
            Ok(failures(&experiment, &table))
        }
        ExperimentCommand::Collect { places } => {
            let (experiment, outputs) = places.load()?;
            let (table, written) = experiment.report(&outputs)?;
            written_files(&written)?;
            Ok(failures(&experiment, &table))
        }
        ExperimentCommand::Plot { places, table } => {
            let (experiment, outputs) = places.load()?;
            let path = table.unwrap_or_else(|| outputs.table(&experiment));
            let table = Table::read(&path)?;
            written_files(&experiment.plot(&table, &outputs)?)?;
            Ok(ExitCode::SUCCESS)
        }
        ExperimentCommand::Slurm {
            places,
            tasks,
            cpus_per_task,
            mem,
            time,
            partition,
            output,
        } => {
            let (experiment, outputs) = places.load()?;
            let mut spec = experiment.slurm.clone();
            spec.cpus_per_task = cpus_per_task.or(spec.cpus_per_task);
            spec.mem = mem.or(spec.mem);
            spec.time = time.or(spec.time);
            spec.partition = partition.or(spec.partition);
            let resources = Resources {
                tasks: tasks.unwrap_or_else(|| experiment.runs.len().min(32)),
                spec,
            };
            let wsim = std::env::current_exe().context("cannot find this wsim's path")?;
            let text = slurm::script(&experiment, &outputs, &wsim, &resources);
            let logs = slurm::logs(&outputs);
            std::fs::create_dir_all(&logs)
                .with_context(|| format!("cannot create {}", logs.display()))?;
            let path =
                output.unwrap_or_else(|| outputs.dir.join(format!("{}.sbatch", experiment.name)));
            std::fs::write(&path, text)
                .with_context(|| format!("cannot write {}", path.display()))?;
            println!("{}", path.display());
            Ok(ExitCode::SUCCESS)
        }
        ExperimentCommand::Report {
            paper,
            results,
            output,
            figures,
        } => {
            let paper = report::Paper::load(&paper)?;
            let places = report::Places {
                results,
                out: output,
                figures,
            };
            written_files(&report::write(&paper, &places)?)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn written_files(paths: &[PathBuf]) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    for p in paths {
        writeln!(out, "wrote {}", p.display())?;
    }
    Ok(())
}

/// Exit status 1 and the runs that did not succeed on stderr, or 0.
fn failures(experiment: &Experiment, table: &Table) -> ExitCode {
    let (verdict, error) = (
        table
            .column("verdict")
            .expect("an experiment table has a verdict"),
        table
            .column("error")
            .expect("an experiment table has an error column"),
    );
    let bad: Vec<String> = (experiment.runs.iter().zip(&table.rows))
        .filter(|(_, row)| row[verdict] != "ok")
        .map(|(run, row)| {
            format!(
                "{}: {}{}",
                experiment.describe(run),
                row[verdict],
                if row[error].is_empty() {
                    String::new()
                } else {
                    format!(" ({})", row[error])
                }
            )
        })
        .collect();
    if bad.is_empty() {
        return ExitCode::SUCCESS;
    }
    eprintln!(
        "wsim: {} run(s) did not succeed (kept in the table):",
        bad.len()
    );
    for b in &bad {
        eprintln!("  {b}");
    }
    ExitCode::from(exit::FAILED)
}

/// `wsim plot`: one run's issue slots per core and per phase.
pub fn plot(report: &Path, output: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let out = output.unwrap_or_else(|| report.with_extension("svg"));
    wsim::plot::run(report, &out)?;
    println!("wrote {}", out.display());
    Ok(ExitCode::SUCCESS)
}
