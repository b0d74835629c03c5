//! Experiments as data (docs/EXPERIMENTS.md): a TOML file names programs, graphs, a base
//! configuration and named axes (configuration keys or program arguments), its values
//! perhaps taken from a profile ([`profile`]); [`Experiment::load`] expands it into runs, each with the
//! key of its cached result ([`cache`]); [`Experiment::execute`] runs the missing ones in
//! parallel (all, or one shard of a deterministic partition, as a Slurm array task
//! does); [`Experiment::collect`] reads every run back from the cache into one tidy table
//! ([`table`]) and its plots.

pub mod cache;
mod expand;
mod file;
mod outputs;
mod profile;
pub mod slurm;
pub mod table;
mod validate;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context};
use rayon::prelude::*;
use wsim_sim::Config;

pub use file::{Argument, Arguments, Graph, Program, SlurmSpec};
pub use outputs::{Outputs, Written};
pub use validate::{Validation, RATIO_COLUMNS, RUN_COLUMNS};

use crate::plot::PlotSpec;
use crate::readings::Reading;
use crate::run::{self, RunOptions, RunRecord, RunRequest};
use cache::{Cache, Inputs};
use wsim_workloads::graph_run::{self, GraphInput};

/// The graph inputs of runs, by graph and program arguments, each loaded once.
type GraphInputs = BTreeMap<(Option<usize>, Arguments), Arc<GraphInput>>;

/// An experiment file, expanded.
pub struct Experiment {
    pub path: PathBuf,
    pub name: String,
    /// The profile the file was read under (none: the file has no profiles).
    pub profile: Option<String>,
    pub description: Option<String>,
    /// The configuration file as the experiment names it (`default`: wsim's built-in).
    pub config: String,
    /// The axes, in the file's order (the runs' `values` follow it).
    pub axes: Vec<AxisInfo>,
    pub graphs: Vec<Graph>,
    pub runs: Vec<Run>,
    pub plots: Vec<PlotSpec>,
    pub slurm: SlurmSpec,
    /// The graphs `keep_graphs` kept the runs of (empty: every graph).
    pub kept_graphs: Vec<String>,
    /// The patterns `keep_programs` kept the runs of (empty: every program).
    pub kept_programs: Vec<String>,
    /// The readings `keep_readings` kept the runs of (empty: every reading).
    pub kept_readings: Vec<String>,
    /// The runs a part (`keep_graphs`, `keep_programs`, `keep_readings`) left out, so that
    /// the part's table keeps the rows earlier parts measured for them (named by
    /// [`Experiment::row_id`]).
    pub left_out: Vec<Run>,
    /// The readings the file runs under, the default first (none without `[readings]`).
    pub readings: Vec<Reading>,
    /// `[external]`: what measures the table outside wsim, and what that needs (no runs
    /// then).
    pub external: Option<(String, Option<String>)>,
    /// How every run is sampled (the file's `sampling`; none: in full detail).
    pub sampling: Option<wsim_sampler::Plan>,
}

/// A named axis.
#[derive(Clone, Debug)]
pub struct AxisInfo {
    pub name: String,
    /// What it varies: a configuration key, or a program argument as wsim run's flag
    /// (`--features`).
    pub key: String,
    /// The program argument it sweeps, if it does.
    pub argument: Option<Argument>,
    pub unit: Option<String>,
}

impl AxisInfo {
    /// Whether the axis has a column of its own: an argument axis named as its argument
    /// has the argument's column.
    pub fn own_column(&self) -> bool {
        self.argument.is_none_or(|a| a.name() != self.name)
    }
}

/// One run: a program on a graph (or none) under one combination of the axes' values.
pub struct Run {
    /// Position in the expansion (programs, then graphs, then combinations, the first
    /// axis slowest): the table's order and what shards partition.
    pub index: usize,
    pub program: Program,
    /// The program's bytes as read for the key (what runs is what the key names).
    pub elf: Arc<Vec<u8>>,
    /// Index into [`Experiment::graphs`].
    pub graph: Option<usize>,
    pub values: Vec<String>,
    pub config: Config,
    pub arguments: Arguments,
    /// The cache key of its result.
    pub key: String,
    /// What keys its cache entry's digest ([`cache::Inputs::seal`]).
    pub seal: String,
    /// The reading it runs under (empty for an experiment without readings).
    pub reading: String,
}

/// One of `count` deterministic parts of an experiment's runs: run `i` belongs to shard
/// `i mod count` (so every shard gets a share of every program and graph).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N`, 0 <= K < N (a Slurm array's task ids count from 0).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("--shard {s}: expected K/N with 0 <= K < N, e.g. 0/4");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    pub fn holds(&self, run: usize) -> bool {
        run % self.count == self.index
    }
}

/// What [`Experiment::execute`] did.
#[derive(Debug)]
pub struct Execution {
    /// The runs of the shard (all without one), those found in the cache, those run now.
    pub selected: usize,
    pub cached: usize,
    pub ran: usize,
}

impl Experiment {
    /// Read an experiment file under `profile` (the file's default without it) and expand
    /// it into runs, with their configurations checked and their keys worked out (the
    /// programs and graph files are read for it).
    pub fn load(path: &Path, profile: Option<&str>) -> anyhow::Result<Experiment> {
        let (spec, profile) = file::read(path, profile)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let at = |what: String| anyhow::anyhow!("{}: {what}", path.display());
        let name = spec.name(path)?;
        let base = match &spec.config {
            Some(config) => {
                crate::read_config(&dir.join(config)).map_err(|e| at(format!("{e:#}")))?
            }
            None => Config::default(),
        };
        let base = base.with_overrides_from(&format!("{}: set", path.display()), &spec.set)?;
        let axes = file::axis_values(&spec).map_err(|e| at(format!("{e:#}")))?;
        let programs = expand::programs(&spec, dir, path)?;
        let (readings_file, readings) = match expand::readings(&spec, dir, path)? {
            Some((file, chosen)) => (Some(file), chosen),
            None => (None, Vec::new()),
        };
        // Counted before anything is expanded (at most, as a reading may leave programs
        // out).
        crate::sweep::run_count(&[
            (programs.len() as u64, "programs"),
            (spec.graphs.len().max(1) as u64, "graphs"),
            (
                crate::sweep::combination_count(&axes),
                "combinations of the axes",
            ),
            (readings.len().max(1) as u64, "readings"),
        ])
        .map_err(|e| at(format!("{e:#}")))?;
        // Each combination's values, in the axes' order.
        let combos: Vec<Vec<String>> = crate::sweep::combinations(&axes)
            .into_iter()
            .map(|combo| {
                combo
                    .iter()
                    .map(|kv| kv.split_once('=').map_or("", |(_, v)| v).to_string())
                    .collect()
            })
            .collect();
        // Loading options are checked now, not in the middle of the runs.
        let graphs = expand::graphs(&spec, dir).map_err(|e| at(format!("{e:#}")))?;
        let graph_ids = graphs
            .iter()
            .map(|g| cache::graph_identity(&g.spec, &g.resolved, &g.flags))
            .collect::<anyhow::Result<Vec<String>>>()
            .map_err(|e| at(format!("{e:#}")))?;
        let graph_choices: Vec<Vec<Option<usize>>> = (spec.programs.iter().enumerate())
            .map(|(k, entry)| entry.graph_choices(&graphs, k))
            .collect::<anyhow::Result<_>>()
            .map_err(|e| at(format!("{e:#}")))?;
        let elves = programs
            .iter()
            .map(|program| {
                let elf = crate::read_program(&program.path)
                    .map_err(|e| at(format!("programs[{}]: {e:#}", program.entry)))?;
                Ok(Arc::new(elf))
            })
            .collect::<anyhow::Result<Vec<Arc<Vec<u8>>>>>()?;
        for (program, elf) in programs.iter().zip(&elves) {
            let names: Vec<&str> = (graph_choices[program.entry].iter().flatten())
                .map(|&g| graphs[g].name.as_str())
                .collect();
            file::check_workload(&spec, program, elf, &names).map_err(|e| at(format!("{e:#}")))?;
        }
        // Readings outermost: the default reading's runs keep the numbers they have without
        // readings, and each other reading repeats the programs of its scope.
        let under: Vec<Option<&Reading>> = if readings.is_empty() {
            vec![None]
        } else {
            readings.iter().map(Some).collect()
        };
        let mut runs = Vec::new();
        for (k, reading) in under.iter().enumerate() {
            for (program, elf) in programs.iter().zip(&elves) {
                if reading.is_some_and(|r| k > 0 && !r.runs_program(&program.name)) {
                    continue;
                }
                let entry = &spec.programs[program.entry];
                let own = base.with_overrides_from(
                    &format!("{}: programs[{}].set", path.display(), program.entry),
                    &entry.set,
                )?;
                let own = match reading {
                    Some(r) if !r.set.is_empty() => {
                        let file = readings_file.as_ref().expect("readings came from a file");
                        own.with_overrides_from(
                            &format!("{}: reading `{}`: set", file.path.display(), r.name),
                            &r.set,
                        )
                        .with_context(|| format!("{}: readings.run", path.display()))?
                    }
                    _ => own,
                };
                let mut configs = Vec::new();
                let mut arguments = Vec::new();
                for values in &combos {
                    let mut overrides = Vec::new();
                    let mut given = entry.arguments();
                    for (axis, value) in spec.axes.iter().zip(values) {
                        match (&axis.key, axis.argument) {
                            (Some(key), _) => overrides.push(format!("{key}={value}")),
                            (None, Some(argument)) => {
                                given.set(argument, value.parse().expect("checked by file::read"))
                            }
                            (None, None) => unreachable!("checked by file::read"),
                        }
                    }
                    configs.push(
                        own.with_overrides_from(&format!("{}: axes", path.display()), &overrides)?,
                    );
                    arguments.push(given);
                }
                for &graph in &graph_choices[program.entry] {
                    for ((values, config), arguments) in combos.iter().zip(&configs).zip(&arguments)
                    {
                        let inputs = Inputs {
                            program: elf,
                            config: &config.to_toml(),
                            graph: graph.map(|g| graph_ids[g].clone()),
                            arguments,
                            sampling: spec.sampling.as_ref(),
                        };
                        runs.push(Run {
                            index: runs.len(),
                            program: program.clone(),
                            elf: Arc::clone(elf),
                            graph,
                            values: values.clone(),
                            config: config.clone(),
                            arguments: *arguments,
                            key: inputs.key(),
                            seal: inputs.seal(),
                            reading: reading.map_or(String::new(), |r| r.name.clone()),
                        });
                    }
                }
            }
        }
        let experiment = Experiment {
            path: path.to_path_buf(),
            name,
            profile,
            description: spec.description.clone(),
            config: spec.config.clone().unwrap_or_else(|| "default".into()),
            axes: spec
                .axes
                .iter()
                .map(|a| AxisInfo {
                    name: a.name.clone(),
                    key: a
                        .key
                        .clone()
                        .or_else(|| a.argument.map(Argument::flag))
                        .unwrap_or_default(),
                    argument: a.argument,
                    unit: a.unit.clone(),
                })
                .collect(),
            graphs,
            runs,
            plots: spec.plots,
            slurm: spec.slurm,
            kept_graphs: Vec::new(),
            kept_programs: Vec::new(),
            kept_readings: Vec::new(),
            left_out: Vec::new(),
            readings,
            external: (spec.external.as_ref()).map(|e| (e.command.clone(), e.needs.clone())),
            sampling: spec.sampling,
        };
        // An external table's columns are its own: the plots meet them when drawn.
        if experiment.external.is_some() {
            for plot in &experiment.plots {
                plot.check().map_err(|e| at(format!("{e:#}")))?;
            }
            return Ok(experiment);
        }
        // An axis may not take a column the table has already.
        let header = table::header(&experiment, &[]);
        for axis in experiment.axes.iter().filter(|a| a.own_column()) {
            if header.iter().filter(|h| **h == axis.name).count() > 1 {
                return Err(at(format!(
                    "axis `{}`: the table has a column of that name already; name the axis \
                     otherwise",
                    axis.name
                )));
            }
        }
        // A plot's typo shows now, not after hours of runs.
        for plot in &experiment.plots {
            plot.check().map_err(|e| at(format!("{e:#}")))?;
            let missing = plot.missing_columns(&header);
            if !missing.is_empty() {
                return Err(at(format!(
                    "plot `{}`: no column {} (the table's columns: {})",
                    plot.name,
                    missing.join(", "),
                    header.join(", ")
                )));
            }
        }
        Ok(experiment)
    }

    /// An error for an `[external]` experiment, whose table another program measures:
    /// `run`, `collect` and `slurm` have nothing to do for it.
    pub fn runs_in_wsim(&self) -> anyhow::Result<()> {
        match &self.external {
            None => Ok(()),
            Some((command, needs)) => {
                bail!(
                "{}: experiment `{}` is measured outside wsim, by `{command}`{} (its [external] \
                 section); its table is kept in the repository, and `wsim experiment plot` and \
                 `report` read it",
                self.path.display(),
                self.name,
                needs.as_ref().map_or(String::new(), |n| format!(", which needs {n}"))
            )
            }
        }
    }

    /// What names run `run`'s row in a table, whichever wsim measured it: its program,
    /// graph, configuration hash, reading and axis values.
    pub fn row_id(&self, run: &Run) -> Vec<String> {
        let graph = run.graph.map_or("", |g| self.graphs[g].name.as_str());
        let mut id = vec![
            run.program.name.clone(),
            graph.to_string(),
            run.config.hash(),
            run.reading.clone(),
        ];
        id.extend(run.values.iter().cloned());
        id
    }

    /// Keep the runs `keep` says, remembering the others ([`Experiment::left_out`]).
    fn retain_runs(&mut self, keep: impl Fn(&Run) -> bool) {
        let (kept, left): (Vec<Run>, Vec<Run>) =
            std::mem::take(&mut self.runs).into_iter().partition(keep);
        self.left_out.extend(left);
        self.runs = kept;
    }

    /// Run the runs of `shard` (every run without one) that the cache lacks, in parallel,
    /// each kept in the cache as it finishes; `progress`: a bar on stderr (when it is a
    /// terminal).
    pub fn execute(
        &self,
        outputs: &Outputs,
        shard: Option<Shard>,
        progress: bool,
    ) -> anyhow::Result<Execution> {
        outputs.check(self, shard.is_none())?;
        let cache = Cache::new(&outputs.cache)?;
        let selected: Vec<&Run> = self
            .runs
            .iter()
            .filter(|r| shard.is_none_or(|s| s.holds(r.index)))
            .collect();
        // Byte-identical programs share a key: one run serves them all (and two threads
        // never write one cache entry at once).
        let mut keys = HashSet::new();
        let pending: Vec<&Run> = selected
            .iter()
            .copied()
            .filter(|r| !cache.has(&r.key) && keys.insert(&r.key))
            .collect();
        let inputs = self.graph_inputs(&pending)?;
        let request = |run: &&Run| {
            Ok(RunRequest {
                name: run.program.name.clone(),
                program: run::Program::Bytes(Arc::clone(&run.elf)),
                config: run.config.clone(),
                input: Some(Arc::clone(&inputs[&(run.graph, run.arguments)])),
                options: RunOptions {
                    sampling: self.sampling,
                    ..RunOptions::default()
                },
            })
        };
        let keep = |k: usize, record: &RunRecord| {
            let run = pending[k];
            cache.put(&run.key, &run.seal, record)
        };
        let what = format!("experiment {}", self.name);
        run::run_many(&pending, &what, progress, request, keep)?;
        Ok(Execution {
            selected: selected.len(),
            cached: selected.len() - pending.len(),
            ran: pending.len(),
        })
    }

    /// Keep only the runs on the graphs named (a part of the experiment: one graph of a
    /// `full` profile, say); the others are left out ([`Experiment::write_outputs`]). A name
    /// that is not one of the experiment's graphs is an error.
    pub fn keep_graphs(&mut self, names: &[String]) -> anyhow::Result<()> {
        let mut kept = Vec::new();
        for name in names {
            let Some(g) = self.graphs.iter().position(|g| &g.name == name) else {
                bail!(
                    "{}: no graph `{name}` (its graphs: {})",
                    self.path.display(),
                    self.graphs
                        .iter()
                        .map(|g| g.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            };
            kept.push(g);
        }
        self.retain_runs(|r| r.graph.is_some_and(|g| kept.contains(&g)));
        self.kept_graphs = names.to_vec();
        Ok(())
    }

    /// Whether this is a part of the experiment (`--graphs`, `--programs`, `--readings`):
    /// its plots draw, and its validation compares, only what it has rows for.
    pub fn is_part(&self) -> bool {
        !(self.kept_graphs.is_empty()
            && self.kept_programs.is_empty()
            && self.kept_readings.is_empty())
    }

    /// Keep only the runs of programs whose file name (without `.elf`) matches one of
    /// `patterns` (`*`, `?`, `[...]`); a pattern that matches none is an error.
    pub fn keep_programs(&mut self, patterns: &[String]) -> anyhow::Result<()> {
        let compiled = patterns
            .iter()
            .map(|p| crate::pattern(p).with_context(|| self.path.display().to_string()))
            .collect::<anyhow::Result<Vec<glob::Pattern>>>()?;
        for (pattern, text) in compiled.iter().zip(patterns) {
            if !self.runs.iter().any(|r| pattern.matches(&r.program.name)) {
                bail!("{}: no program matches `{text}`", self.path.display());
            }
        }
        self.retain_runs(|r| compiled.iter().any(|p| p.matches(&r.program.name)));
        self.kept_programs = patterns.to_vec();
        Ok(())
    }

    /// Keep only the runs under the readings `names` (a reading added to a profile whose
    /// other readings' rows are measured); a name the file does not run is an error.
    pub fn keep_readings(&mut self, names: &[String]) -> anyhow::Result<()> {
        for name in names {
            if !self.readings.iter().any(|r| &r.name == name) {
                bail!(
                    "{}: no reading `{name}` in this profile (its readings: {})",
                    self.path.display(),
                    (self.readings.iter())
                        .map(|r| r.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
        }
        self.retain_runs(|r| names.contains(&r.reading));
        self.kept_readings = names.to_vec();
        Ok(())
    }

    /// The graphs the runs need, each loaded once (in parallel).
    fn graph_inputs(&self, runs: &[&Run]) -> anyhow::Result<GraphInputs> {
        let mut needed: Vec<(Option<usize>, Arguments)> =
            runs.iter().map(|r| (r.graph, r.arguments)).collect();
        needed.sort_unstable();
        needed.dedup();
        needed
            .into_par_iter()
            .map(|(graph, arguments)| {
                let g = graph.map(|g| &self.graphs[g]);
                let options = expand::graph_options(g, &arguments);
                let input = graph_run::load(&options).with_context(|| {
                    format!(
                        "{}: graph `{}`",
                        self.path.display(),
                        g.map_or("(default)", |g| &g.name)
                    )
                })?;
                Ok(((graph, arguments), Arc::new(input)))
            })
            .collect()
    }

    /// Every run's result from the cache; a run not there yet is an error that counts
    /// them and names the first.
    pub fn collect(&self, outputs: &Outputs) -> anyhow::Result<Vec<RunRecord>> {
        let cache = Cache::new(&outputs.cache)?;
        let found = self
            .runs
            .iter()
            .map(|r| cache.get(&r.key, &r.seal, &r.program.name))
            .collect::<anyhow::Result<Vec<Option<RunRecord>>>>()?;
        let missing: Vec<&Run> = (self.runs.iter().zip(&found))
            .filter(|(_, m)| m.is_none())
            .map(|(r, _)| r)
            .collect();
        if let Some(first) = missing.first() {
            bail!(
                "{}: {} of {} not in {} yet (the first: {}); run them \
                 (wsim experiment run, or every shard)",
                self.path.display(),
                missing.len(),
                crate::count(self.runs.len(), "run is", "runs are"),
                outputs.cache.display(),
                self.describe(first)
            );
        }
        Ok(found.into_iter().flatten().collect())
    }

    /// `program on graph with axis=value ...`, for messages.
    pub fn describe(&self, run: &Run) -> String {
        let mut text = format!("#{} {}", run.index, run.program.name);
        if let Some(g) = run.graph {
            text.push_str(&format!(" on {}", self.graphs[g].name));
        }
        if !run.reading.is_empty() {
            text.push_str(&format!(" under {}", run.reading));
        }
        for (axis, value) in self.axes.iter().zip(&run.values) {
            text.push_str(&format!(" {}={value}", axis.name));
        }
        text
    }
}

/// The names of the readings the experiment file at `path` runs under `profile` (the
/// default first) and the readings file, read and checked as [`Experiment::load`] does
/// but without its programs and graphs; none for a file without `[readings]`.
pub fn readings_of(
    path: &Path,
    profile: Option<&str>,
) -> anyhow::Result<Option<(crate::readings::Readings, Vec<String>)>> {
    let (spec, _) = file::read(path, profile)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    Ok(expand::readings(&spec, dir, path)?
        .map(|(file, chosen)| (file, chosen.into_iter().map(|r| r.name).collect())))
}

/// An experiment file as a report sees it, read and checked as [`Experiment::load`] does
/// (under its default profile) but without its programs and graphs.
pub struct Outline {
    pub path: PathBuf,
    pub name: String,
    /// Its plots' names.
    pub plots: Vec<String>,
    /// Whether it has profiles (`[profiles.NAME]`).
    pub profiled: bool,
}

/// The outline of the file at `path` if it is an experiment file (one with `[[programs]]`
/// or `[external]`); `None` for another TOML file (a readings or paper file).
pub fn outline(path: &Path) -> anyhow::Result<Option<Outline>> {
    let Some((spec, profile)) = file::read_if_experiment(path)? else {
        return Ok(None);
    };
    Ok(Some(Outline {
        path: path.to_path_buf(),
        name: spec.name(path)?,
        plots: spec.plots.iter().map(|p| p.name.clone()).collect(),
        profiled: profile.is_some(),
    }))
}
