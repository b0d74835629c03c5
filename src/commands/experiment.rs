//! `wsim experiment run|collect|plot|slurm|report|validate-sampling`: the command line of
//! `wsim_harness::experiment` and `wsim_harness::paper` (docs/EXPERIMENTS.md).

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use wsim_harness::experiment::slurm::{self, Resources};
use wsim_harness::experiment::{Experiment, Outputs, Shard};
use wsim_harness::paper;
use wsim_harness::stats::Cell;
use wsim_harness::table::Table;
use wsim_harness::{count, exit};

use crate::args::JobsArgs;

/// The experiments of a command and where their results go.
#[derive(Args)]
pub struct Places {
    /// The experiment files (TOML), each in turn into its own outputs.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The profile to read the files under (their [profiles.NAME]) [default: each file's
    /// `profile`].
    #[arg(long, value_name = "NAME")]
    profile: Option<String>,
    /// The directory of the table and plots, with one file only [default: results/NAME,
    /// under a profile results/NAME/PROFILE].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The directory of cached runs, shared by reruns and array tasks [default: OUT/cache].
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
    #[command(flatten)]
    part: Part,
}

/// The part of an experiment's runs a command takes (all without these options).
#[derive(Args)]
pub struct Part {
    /// Only the runs on these graphs (names, comma-separated), e.g. one graph of a long
    /// profile; a table keeps the rows earlier parts wrote for the others.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    graphs: Vec<String>,
    /// Only the runs of these programs (file-name patterns without `.elf`, comma-separated,
    /// e.g. `pr_*`); a table keeps the rows earlier parts wrote for the others.
    #[arg(long, value_name = "PATTERNS", value_delimiter = ',')]
    programs: Vec<String>,
    /// Only the runs under these readings (names, comma-separated), e.g. a reading added
    /// to a profile whose other readings ran; a table keeps the rows earlier parts wrote
    /// for the others.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    readings: Vec<String>,
}

impl Part {
    /// Keep `experiment`'s runs of this part.
    fn keep(&self, experiment: &mut Experiment) -> anyhow::Result<()> {
        if !self.graphs.is_empty() {
            experiment.keep_graphs(&self.graphs)?;
        }
        if !self.programs.is_empty() {
            experiment.keep_programs(&self.programs)?;
        }
        if !self.readings.is_empty() {
            experiment.keep_readings(&self.readings)?;
        }
        Ok(())
    }
}

impl Places {
    /// Every file, read and expanded before anything runs (a mistake in the last shows
    /// before hours of runs of the first), with its outputs.
    fn load(&self) -> anyhow::Result<Vec<(Experiment, Outputs)>> {
        self.one_file_with(self.out.is_some(), "--out")?;
        self.files
            .iter()
            .map(|file| {
                let mut experiment = Experiment::load(file, self.profile.as_deref())?;
                self.part.keep(&mut experiment)?;
                let outputs = Outputs::new(&experiment, self.out.as_deref(), self.cache.as_deref());
                Ok((experiment, outputs))
            })
            .collect()
    }

    /// An option that names one experiment's file is an error with several experiments.
    fn one_file_with(&self, given: bool, option: &str) -> anyhow::Result<()> {
        if given && self.files.len() > 1 {
            bail!(
                "{option} names one experiment's file: give one experiment file with it, not {}",
                self.files.len()
            );
        }
        Ok(())
    }
}

#[derive(Subcommand)]
pub enum ExperimentCommand {
    /// Run each experiment's runs that are not cached yet (in parallel, with progress on a
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
        #[command(flatten)]
        jobs: JobsArgs,
    },
    /// Write the tables and plots from the cache (after every shard has run); an error
    /// naming what is missing otherwise.
    Collect {
        #[command(flatten)]
        places: Places,
    },
    /// Redraw the plots from the tables, without running anything.
    Plot {
        #[command(flatten)]
        places: Places,
        /// The table to draw from, with one file only [default: OUT/NAME.csv].
        #[arg(long, value_name = "CSV")]
        table: Option<PathBuf>,
    },
    /// Write an sbatch script per experiment that runs it as a Slurm job array, one shard
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
        /// The script to write, with one file only [default: OUT/NAME.sbatch].
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Run each run of an experiment both in full detail and sampled (the file's
    /// `sampling`, or the sampler's defaults), nothing cached, and tabulate per run the
    /// detailed cycles, the estimate, its error, its 95% interval and whether it covers
    /// them, the share simulated in detail and the CPU of each; then each speed-up of
    /// cycles the experiment's plots draw, under both; then a summary line. Exit status 1
    /// when a run failed or did not verify, either way.
    #[command(name = "validate-sampling")]
    ValidateSampling {
        /// The experiment file (TOML).
        file: PathBuf,
        /// The profile to read it under [default: the file's `profile`].
        #[arg(long, value_name = "NAME")]
        profile: Option<String>,
        #[command(flatten)]
        part: Part,
        /// Write the runs' table here (CSV), and the speed-ups' beside it as
        /// STEM.ratios.csv when the experiment plots any (and the claims' as
        /// STEM.claims.csv with --paper).
        #[arg(short, long, value_name = "TABLE.csv")]
        output: Option<PathBuf>,
        /// Also each claim of this paper file on the experiment, computed from the
        /// detailed runs and from the sampled ones (its default reading's value).
        #[arg(long, value_name = "PAPER.toml")]
        paper: Option<PathBuf>,
        #[command(flatten)]
        jobs: JobsArgs,
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
        /// The page to write (beside the results, never a project's doc unless named:
        /// the project's own page is `-o docs/RESULTS.md --figures
        /// docs/results/dissertation`).
        #[arg(
            short,
            long,
            value_name = "OUT.md",
            default_value = "results/RESULTS.md"
        )]
        output: PathBuf,
        /// Where the page's figures are copied.
        #[arg(long, value_name = "DIR", default_value = "results/figures")]
        figures: PathBuf,
    },
}

pub fn exec(command: ExperimentCommand) -> anyhow::Result<ExitCode> {
    // Exit status 1 when any experiment had a run that did not succeed; a plot that could
    // not be drawn is an error once every file has had its turn.
    let mut failed = false;
    let mut undrawn = 0;
    match command {
        ExperimentCommand::Run {
            places,
            shard,
            jobs,
        } => {
            jobs.apply()?;
            let loaded = places.load()?;
            for (experiment, _) in &loaded {
                experiment.runs_in_wsim()?;
            }
            for (experiment, outputs) in loaded {
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
                stderr_line!(
                    "experiment {}{}: {}{of}: {} cached, {} run in {:.1} s",
                    experiment.name,
                    experiment
                        .profile
                        .as_ref()
                        .map_or(String::new(), |p| format!(" (profile {p})")),
                    count(done.selected, "run", "runs"),
                    done.cached,
                    done.ran,
                    started.elapsed().as_secs_f64()
                );
                if shard.is_none() {
                    failed |= write_outputs(&experiment, &outputs, &mut undrawn)?;
                }
            }
        }
        ExperimentCommand::Collect { places } => {
            let loaded = places.load()?;
            for (experiment, _) in &loaded {
                experiment.runs_in_wsim()?;
            }
            for (experiment, outputs) in loaded {
                failed |= write_outputs(&experiment, &outputs, &mut undrawn)?;
            }
        }
        ExperimentCommand::Plot { places, table } => {
            places.one_file_with(table.is_some(), "--table")?;
            for (experiment, outputs) in places.load()? {
                let path = table.clone().unwrap_or_else(|| outputs.table(&experiment));
                let table = Table::read(&path)?;
                undrawn += written_files(experiment.plot(&table, &outputs))?;
            }
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
            places.one_file_with(output.is_some(), "--output")?;
            let wsim = std::env::current_exe().context("cannot find this wsim's path")?;
            let loaded = places.load()?;
            for (experiment, _) in &loaded {
                experiment.runs_in_wsim()?;
            }
            for (experiment, outputs) in loaded {
                let mut spec = experiment.slurm.clone();
                spec.cpus_per_task = cpus_per_task.or(spec.cpus_per_task);
                spec.mem = mem.clone().or(spec.mem);
                spec.time = time.clone().or(spec.time);
                spec.partition = partition.clone().or(spec.partition);
                let resources = Resources {
                    tasks: tasks.unwrap_or_else(|| experiment.runs.len().min(32)),
                    spec,
                };
                let text = slurm::script(&experiment, &outputs, &wsim, &resources);
                let logs = slurm::logs(&outputs);
                std::fs::create_dir_all(&logs)
                    .with_context(|| format!("cannot create {}", logs.display()))?;
                let path = output
                    .clone()
                    .unwrap_or_else(|| outputs.dir.join(format!("{}.sbatch", experiment.name)));
                wsim_harness::files::write_whole(&path, text.as_bytes())?;
                println!("{}", path.display());
            }
        }
        ExperimentCommand::ValidateSampling {
            file,
            profile,
            part,
            output,
            paper: paper_file,
            jobs,
        } => {
            jobs.apply()?;
            let ratios_path = output.as_ref().map(|o| o.with_extension("ratios.csv"));
            let claims_path = (output.as_ref())
                .filter(|_| paper_file.is_some())
                .map(|o| o.with_extension("claims.csv"));
            let paper_read = paper_file.as_deref().map(paper::Paper::load).transpose()?;
            for path in output.iter().chain(&ratios_path).chain(&claims_path) {
                wsim_harness::files::check_output(path)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                wsim_harness::files::check_not_input(path, &[&file])?;
            }
            let mut experiment = Experiment::load(&file, profile.as_deref())?;
            if let Some(p) = paper_read.as_ref() {
                if !paper::has_claims_on(p, &experiment.name) {
                    bail!(
                        "{}: no claim reads experiment `{}`",
                        p.path.display(),
                        experiment.name
                    );
                }
            }
            part.keep(&mut experiment)?;
            let validation = experiment.validate_sampling(true)?;
            let claims = (paper_read.as_ref()).map(|p| {
                let (d, s) = (&validation.detailed, &validation.sampled);
                paper::compare_claims(p, &experiment.name, d, s)
            });
            let mut out = std::io::stdout().lock();
            write!(out, "{}", aligned(&validation.runs))?;
            if !validation.ratios.rows.is_empty() {
                write!(out, "\n{}", aligned(&validation.ratios))?;
            }
            if let Some(claims) = &claims {
                write!(out, "\n{}", aligned(claims))?;
            }
            writeln!(out, "{}", validation.summary(claims.as_ref()))?;
            if let (Some(path), Some(ratios)) = (&output, &ratios_path) {
                validation.runs.write(path)?;
                writeln!(out, "wrote {}", path.display())?;
                if !validation.ratios.rows.is_empty() {
                    validation.ratios.write(ratios)?;
                    writeln!(out, "wrote {}", ratios.display())?;
                }
            }
            if let (Some(path), Some(claims)) = (&claims_path, &claims) {
                claims.write(path)?;
                writeln!(out, "wrote {}", path.display())?;
            }
            if !validation.problems.is_empty() {
                stderr_line!(
                    "wsim: {} of experiment {} did not validate:",
                    count(validation.problems.len(), "run", "runs"),
                    experiment.name
                );
                for p in &validation.problems {
                    stderr_line!("  {p}");
                }
                failed = true;
            }
        }
        ExperimentCommand::Report {
            paper: file,
            results,
            output,
            figures,
        } => {
            let claims = paper::Paper::load(&file)?;
            let places = paper::Places {
                results,
                out: output,
                figures,
            };
            let written = paper::write(&claims, &places)?;
            written_files(written.into_iter().map(Ok).collect())?;
        }
    }
    if undrawn > 0 {
        anyhow::bail!(
            "{} could not be drawn (said above)",
            count(undrawn, "plot", "plots")
        );
    }
    Ok(if failed {
        ExitCode::from(exit::FAILED)
    } else {
        ExitCode::SUCCESS
    })
}

/// `table` as text, its columns aligned (numbers to the right).
fn aligned(table: &Table) -> String {
    let cells: Vec<Vec<String>> = std::iter::once(table.header.clone())
        .chain(
            table
                .rows
                .iter()
                .map(|r| r.iter().map(Cell::to_string).collect()),
        )
        .collect();
    let widths: Vec<usize> = (0..table.header.len())
        .map(|k| {
            cells
                .iter()
                .map(|r| r[k].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut text = String::new();
    for (i, row) in cells.iter().enumerate() {
        let line: Vec<String> = (row.iter().zip(&widths).enumerate())
            .map(|(k, (c, &w))| match table.rows.get(i.wrapping_sub(1)) {
                Some(r) if r[k].number().is_some() => format!("{c:>w$}"),
                _ => format!("{c:<w$}"),
            })
            .collect();
        text.push_str(line.join("  ").trim_end());
        text.push('\n');
    }
    text
}

/// Say on stdout which files were written, and on stderr why the others were not; how
/// many were not.
fn written_files(outcomes: Vec<anyhow::Result<PathBuf>>) -> anyhow::Result<usize> {
    let mut out = std::io::stdout().lock();
    let mut missing = 0;
    for outcome in outcomes {
        match outcome {
            Ok(p) => writeln!(out, "wrote {}", p.display())?,
            Err(e) => {
                stderr_line!("wsim: error: {e:#}");
                missing += 1;
            }
        }
    }
    Ok(missing)
}

/// Write `experiment`'s table and plots (saying so on stdout, and on stderr how many rows
/// earlier parts gave it and why a plot could not be drawn, counted in `undrawn`); whether
/// a run of this invocation did not succeed.
fn write_outputs(
    experiment: &Experiment,
    outputs: &Outputs,
    undrawn: &mut usize,
) -> anyhow::Result<bool> {
    let written = experiment.write_outputs(outputs)?;
    let table = outputs.table(experiment);
    if written.earlier_rows.kept > 0 {
        stderr_line!(
            "experiment {}: the table keeps {} rows of runs this part left out, from {}",
            experiment.name,
            written.earlier_rows.kept,
            table.display()
        );
    }
    let rows = written.earlier_rows;
    if rows.corrected > 0 {
        tracing::warn!(
            "experiment {}: {} rows of the earlier {} differ from their runs in the cache \
             (edited?): the table has the cached runs' rows",
            experiment.name,
            rows.corrected,
            table.display()
        );
    }
    if let Some(kept) = &written.earlier_kept_as {
        tracing::warn!(
            "experiment {}: {} rows of the earlier {} name no run of the experiment as it is \
             now (another configuration hash, program, graph or reading) and {} say this \
             wsim measured them but its cache has no such run; neither is in the new table, \
             and the earlier table is kept whole as {}",
            experiment.name,
            rows.unplaced,
            table.display(),
            rows.unbacked,
            kept.display()
        );
    }
    *undrawn += written_files(written.written)?;
    Ok(failures(experiment, &written.table))
}

/// Whether a run of `experiment` (its rows in `table` go by the run column) did not
/// succeed; those that did not, on stderr.
fn failures(experiment: &Experiment, table: &Table) -> bool {
    let cell = |row: &[Cell], name: &str| {
        (table.cell(row, name).map(Cell::to_string))
            .unwrap_or_else(|| panic!("an experiment table has a {name} column"))
    };
    let rows: BTreeMap<String, &Vec<Cell>> = table
        .rows
        .iter()
        .map(|row| (cell(row, "run"), row))
        .collect();
    let bad: Vec<String> = (experiment.runs.iter())
        .filter_map(|run| Some((run, *rows.get(&run.index.to_string())?)))
        .filter(|(_, row)| cell(row, "verdict") != "ok")
        .map(|(run, row)| {
            let error = cell(row, "error");
            format!(
                "{}: {}{}",
                experiment.describe(run),
                cell(row, "verdict"),
                if error.is_empty() {
                    String::new()
                } else {
                    format!(" ({error})")
                }
            )
        })
        .collect();
    if bad.is_empty() {
        return false;
    }
    stderr_line!(
        "wsim: {} not succeed in experiment {} (kept in the table):",
        count(bad.len(), "run did", "runs did"),
        experiment.name
    );
    for b in &bad {
        stderr_line!("  {b}");
    }
    true
}
