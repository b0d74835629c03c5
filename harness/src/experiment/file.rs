//! The experiment file (TOML, docs/EXPERIMENTS.md): what it may say, checked as it is
//! read (after its profile's variables are substituted, [`super::profile`]), and its
//! expansion into runs. Paths in it are relative to the file.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::bail;
use serde::Deserialize;

use crate::plot::PlotSpec;
use crate::readings::Choice;
use crate::sweep::{self, Axis};
use wsim_workloads::LoadSpec;

/// The file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Spec {
    /// Names the outputs (`results/NAME/`); the file's stem without it.
    pub name: Option<String>,
    pub description: Option<String>,
    /// A configuration file; wsim's built-in default without it.
    pub config: Option<String>,
    /// `key=value` overrides of the configuration, for every run.
    #[serde(default)]
    pub set: Vec<String>,
    /// None with `[external]`.
    #[serde(default)]
    pub programs: Vec<ProgramsSpec>,
    #[serde(default)]
    pub graphs: Vec<GraphSpec>,
    #[serde(default)]
    pub axes: Vec<AxisSpec>,
    #[serde(default)]
    pub plots: Vec<PlotSpec>,
    /// Resources of each Slurm array task (the sbatch script's defaults).
    #[serde(default)]
    pub slurm: SlurmSpec,
    /// The readings the runs are repeated under (docs/EXPERIMENTS.md, "Readings").
    pub readings: Option<ReadingsSpec>,
    /// A table measured outside wsim (docs/EXPERIMENTS.md, "External experiments").
    pub external: Option<ExternalSpec>,
    /// Whether and how the runs are sampled (docs/EXPERIMENTS.md, "Sampling"): `true`
    /// (the sampler's defaults), `false` (full detail, as without it) or a table of the
    /// sampler's choices; a profile chooses with `sampling = "${sampling}"`.
    #[serde(default, deserialize_with = "sampling")]
    pub sampling: Option<wsim_sampler::Plan>,
}

/// A `sampling` table: `wsim run`'s `--sample-*` options, each the sampler's default when
/// left out.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SamplingSpec {
    /// `--sample-every`: of each stratum's units after its first two, one in K in detail.
    every: Option<u32>,
    /// `--sample-period`: units end inside a launch after N warp instructions (0: no).
    period: Option<u64>,
    /// `--sample-warmup`: units simulated in detail, unmeasured, before a measured one.
    warmup: Option<u32>,
    /// `--sample-threads`: detailed samples at once (the results are the same at any).
    threads: Option<u32>,
    /// `--sample-warm-caches`: the functional run warms the caches' tags.
    warm_caches: Option<bool>,
    /// `--sample-cluster`: the diameter of a cluster of similar launches (0: octaves).
    cluster: Option<f64>,
    /// `--sample-check`: units of warm-up of the warm-up check, at most (0: none).
    check: Option<u32>,
    /// `--sample-exact-fallback`: a run whose plan would simulate three quarters of it in
    /// detail or more is simulated whole.
    exact_fallback: Option<bool>,
    /// `--sample-progress`: launches' units weighed and scaled by the cores' progress (with a period).
    progress: Option<bool>,
    /// `--sample-budget`: the share of the run's warp instructions simulated in detail at most.
    budget: Option<f64>,
}

/// The most threads one sampled run takes (`wsim run --sample-threads`'s bound).
const MAX_SAMPLE_THREADS: u32 = 256;

/// The largest distance between two launches' features (`wsim_sampler::Plan::cluster`).
const MAX_CLUSTER: f64 = 3.0;

fn sampling<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<wsim_sampler::Plan>, D::Error> {
    use serde::de::Error;
    let spec = match toml::Value::deserialize(d)? {
        toml::Value::Boolean(false) => return Ok(None),
        toml::Value::Boolean(true) => return Ok(Some(wsim_sampler::Plan::default())),
        toml::Value::Table(table) => SamplingSpec::deserialize(table).map_err(D::Error::custom)?,
        other => {
            return Err(D::Error::custom(format!(
                "sampling is true, false or a table (every, period, warmup, threads, \
                 warm_caches, cluster, check, exact_fallback, progress, budget), not {}",
                other.type_str()
            )))
        }
    };
    let defaults = wsim_sampler::Plan::default();
    let plan = wsim_sampler::Plan {
        every: spec.every.unwrap_or(defaults.every),
        period: spec.period.unwrap_or(defaults.period),
        warmup_units: spec.warmup.unwrap_or(defaults.warmup_units),
        threads: spec.threads.map_or(defaults.threads, |t| t as usize),
        warm_caches: spec.warm_caches.unwrap_or(defaults.warm_caches),
        cluster: spec.cluster.unwrap_or(defaults.cluster),
        check_warmup: spec.check.unwrap_or(defaults.check_warmup),
        exact_fallback: spec.exact_fallback.unwrap_or(defaults.exact_fallback),
        progress: spec.progress.unwrap_or(defaults.progress),
        budget: spec.budget,
    };
    if plan.every == 0 {
        return Err(D::Error::custom(
            "sampling.every is 0: one unit in `every` is measured, so at least 1",
        ));
    }
    if !(0.0..=MAX_CLUSTER).contains(&plan.cluster) {
        return Err(D::Error::custom(format!(
            "sampling.cluster is {}: 0 (none) to {MAX_CLUSTER}",
            plan.cluster
        )));
    }
    if let Some(share) = plan.budget.filter(|&b| !wsim_sampler::Plan::is_budget(b)) {
        return Err(D::Error::custom(format!(
            "sampling.budget is {share}: a share of the run's warp instructions above 0"
        )));
    }
    if !(1..=MAX_SAMPLE_THREADS as usize).contains(&plan.threads) {
        return Err(D::Error::custom(format!(
            "sampling.threads is {}: 1 to {MAX_SAMPLE_THREADS}",
            plan.threads
        )));
    }
    Ok(Some(plan))
}

impl Spec {
    /// The experiment's name: `name`, or the file's stem.
    pub fn name(&self, path: &Path) -> anyhow::Result<String> {
        match (&self.name, path.file_stem()) {
            (Some(name), _) => Ok(name.clone()),
            (None, Some(stem)) => Ok(stem.to_string_lossy().into_owned()),
            (None, None) => bail!("{}: no name", path.display()),
        }
    }
}

/// `[external]`: the experiment's table is measured by another program (a real GPU's, say)
/// and kept in the repository; wsim draws and reports it but runs nothing.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ExternalSpec {
    /// The command that measures the table, from the repository's root, for people and
    /// for `wsim experiment run`'s refusal to name.
    pub command: String,
    /// What it needs and measures on (a GPU, a toolkit), in a sentence.
    pub needs: Option<String>,
}

/// `[readings]`: a readings file and the readings of it to run.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ReadingsSpec {
    /// The readings file, relative to the experiment file.
    pub file: String,
    /// `"all"` or names; the default reading runs whichever are named.
    pub run: Choice,
}

/// Programs and what they are given.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ProgramsSpec {
    /// Paths or glob patterns (`*`, `?`, `[...]`), each matching at least one file.
    pub files: Vec<String>,
    /// File-name patterns to leave out of what `files` matched.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// BFS / SSSP source: a vertex index, or `"hub"` (wsim run's `--source-hub`).
    #[serde(default, deserialize_with = "source")]
    pub source: Option<Source>,
    /// PageRank iterations (wsim run's default without).
    pub iterations: Option<u32>,
    /// GCN programs' layer: wsim run's `--features`, `--input-features`, `--input-nnz`.
    pub features: Option<u32>,
    pub input_features: Option<u32>,
    pub input_nnz: Option<u32>,
    /// `key=value` overrides for these programs' runs (on top of the file's `set`).
    #[serde(default)]
    pub set: Vec<String>,
    /// The `[[graphs]]` (by name) these programs run on [default: every one]; `[]`: none,
    /// the programs run bare (kernels that are not graph programs).
    pub graphs: Option<Vec<String>>,
}

/// A graph and its loading options (those of `wsim run --graph`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GraphSpec {
    /// The graph's name in the table and plots; the spec without it.
    pub name: Option<String>,
    /// A graph file (SNAP or Matrix Market, optionally .gz) or a `gen:...` generator.
    pub spec: String,
    #[serde(default)]
    pub symmetrize: bool,
    #[serde(default)]
    pub drop_self_loops: bool,
    #[serde(default)]
    pub dedup: bool,
    /// `file`, `generated` or `unit`.
    pub weights: Option<String>,
    pub max_weight: Option<u32>,
    pub seed: Option<u64>,
    pub max_vertices: Option<u32>,
    pub max_edges: Option<u32>,
}

/// A `[[programs]]` entry's BFS / SSSP source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Source {
    Vertex(u32),
    /// The vertex with the most out-edges, found on each graph.
    Hub,
}

fn source<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Source>, D::Error> {
    match toml::Value::deserialize(d)? {
        toml::Value::String(s) if s == "hub" => Ok(Some(Source::Hub)),
        toml::Value::Integer(n) => u32::try_from(n)
            .map(|v| Some(Source::Vertex(v)))
            .map_err(|_| serde::de::Error::custom(format!("source {n} is not a vertex index"))),
        other => Err(serde::de::Error::custom(format!(
            "source must be a vertex index or \"hub\", not {other}"
        ))),
    }
}

impl ProgramsSpec {
    /// The indices of the graphs (of `graphs`, the file's) these programs run on: `None`
    /// for a run without a graph. A name that is no graph is an error.
    pub fn graph_choices(
        &self,
        graphs: &[Graph],
        entry: usize,
    ) -> anyhow::Result<Vec<Option<usize>>> {
        let Some(names) = &self.graphs else {
            return Ok(if graphs.is_empty() {
                vec![None]
            } else {
                (0..graphs.len()).map(Some).collect()
            });
        };
        if names.is_empty() {
            return Ok(vec![None]);
        }
        names
            .iter()
            .map(|name| match graphs.iter().position(|g| &g.name == name) {
                Some(g) => Ok(Some(g)),
                None => bail!(
                    "programs[{entry}].graphs: no graph `{name}` (the file's graphs: {})",
                    graphs
                        .iter()
                        .map(|g| g.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })
            .collect()
    }

    pub fn arguments(&self) -> Arguments {
        Arguments {
            source: match self.source {
                Some(Source::Vertex(v)) => Some(v),
                _ => None,
            },
            source_hub: self.source == Some(Source::Hub),
            iterations: self.iterations,
            features: self.features,
            input_features: self.input_features,
            input_nnz: self.input_nnz,
        }
    }
}

/// A named axis: a configuration key or a program argument, and the values it takes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AxisSpec {
    /// The axis's column in the table (and what plots call it).
    pub name: String,
    /// Exactly one of the two.
    pub key: Option<String>,
    pub argument: Option<Argument>,
    pub values: Vec<toml::Value>,
    /// The values' unit, for plots' axis labels (e.g. `cycles`).
    pub unit: Option<String>,
}

/// A program argument an axis may sweep (wsim run's option of that name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Argument {
    Source,
    Iterations,
    Features,
    InputFeatures,
    InputNnz,
}

impl Argument {
    /// Its name in experiment files, and its column in the table.
    pub fn name(self) -> &'static str {
        match self {
            Argument::Source => "source",
            Argument::Iterations => "iterations",
            Argument::Features => "features",
            Argument::InputFeatures => "input_features",
            Argument::InputNnz => "input_nnz",
        }
    }

    /// wsim run's option.
    pub fn flag(self) -> String {
        format!("--{}", self.name().replace('_', "-"))
    }
}

/// A program's arguments for one run (wsim run's defaults where `None`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Arguments {
    pub source: Option<u32>,
    /// `--source-hub`: BFS / SSSP from the graph's highest out-degree vertex.
    pub source_hub: bool,
    pub iterations: Option<u32>,
    pub features: Option<u32>,
    pub input_features: Option<u32>,
    pub input_nnz: Option<u32>,
}

impl Arguments {
    pub const ALL: [Argument; 5] = [
        Argument::Source,
        Argument::Iterations,
        Argument::Features,
        Argument::InputFeatures,
        Argument::InputNnz,
    ];

    pub fn get(&self, argument: Argument) -> Option<u32> {
        match argument {
            Argument::Source => self.source,
            Argument::Iterations => self.iterations,
            Argument::Features => self.features,
            Argument::InputFeatures => self.input_features,
            Argument::InputNnz => self.input_nnz,
        }
    }

    pub fn set(&mut self, argument: Argument, value: u32) {
        let slot = match argument {
            Argument::Source => &mut self.source,
            Argument::Iterations => &mut self.iterations,
            Argument::Features => &mut self.features,
            Argument::InputFeatures => &mut self.input_features,
            Argument::InputNnz => &mut self.input_nnz,
        };
        *slot = Some(value);
    }
}

/// What each Slurm array task asks for.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlurmSpec {
    pub cpus_per_task: Option<u32>,
    /// `--mem`, e.g. `4G`.
    pub mem: Option<String>,
    /// `--time`, e.g. `02:00:00`.
    pub time: Option<String>,
    pub partition: Option<String>,
    /// More `#SBATCH` options, verbatim (e.g. `--account=arch`).
    #[serde(default)]
    pub options: Vec<String>,
}

/// A program matched by the file.
#[derive(Clone, Debug)]
pub struct Program {
    /// The file's stem: the table's `program`.
    pub name: String,
    pub path: PathBuf,
    /// Index of the `[[programs]]` entry that matched it.
    pub entry: usize,
}

/// A graph with the options that load it, as `wsim run` takes them.
#[derive(Clone, Debug)]
pub struct Graph {
    pub name: String,
    /// The spec as the file gives it (the table's `graph_spec`), and as `wsim run` finds
    /// it from the current directory.
    pub spec: String,
    pub resolved: String,
    pub load: LoadSpec,
    /// The loading options that differ from the defaults, as `wsim run`'s flags
    /// ([`LoadSpec::flags`]): saying a default aloud changes neither a run's key nor its
    /// row.
    pub flags: Vec<String>,
}

/// Read and check `path` under `profile` (the file's default without it); returns the
/// file and the profile's name (none for a file without profiles).
pub(super) fn read(path: &Path, profile: Option<&str>) -> anyhow::Result<(Spec, Option<String>)> {
    let text = crate::files::read_text(path, crate::TEXT_BYTES, "an experiment file")?;
    parse(&text, path, profile)
}

/// A TOML syntax or type error in the file at `path`, naming the file (toml's message
/// names the key and line).
fn syntax(path: &Path) -> impl Fn(toml::de::Error) -> anyhow::Error + '_ {
    move |e| anyhow::anyhow!("{}: {}", path.display(), e.to_string().trim_end())
}

/// Read `path` if it is an experiment file, one with `[[programs]]` or `[external]` (a
/// readings or paper file beside experiments has neither: `None`), and check it as
/// [`read`] does under its default profile.
pub(super) fn read_if_experiment(path: &Path) -> anyhow::Result<Option<(Spec, Option<String>)>> {
    /// The keys that make a TOML file an experiment file, whatever else it says.
    #[derive(Deserialize)]
    struct Kind {
        programs: Option<serde::de::IgnoredAny>,
        external: Option<serde::de::IgnoredAny>,
    }
    let text = crate::files::read_text(path, crate::TEXT_BYTES, "an experiment file")?;
    let kind: Kind = toml::from_str(&text).map_err(syntax(path))?;
    if kind.programs.is_none() && kind.external.is_none() {
        return Ok(None);
    }
    parse(&text, path, None).map(Some)
}

/// Check `text`, the file at `path`, under `profile`, as [`read`] does.
fn parse(text: &str, path: &Path, profile: Option<&str>) -> anyhow::Result<(Spec, Option<String>)> {
    let syntax = syntax(path);
    let mut tree: toml::Table = text.parse().map_err(&syntax)?;
    let profile = super::profile::apply(&mut tree, profile, path)?;
    // Without profiles the text itself is read, so that errors give its lines; with them,
    // the substituted values (errors name the profile).
    let spec: Spec = match &profile {
        None => toml::from_str(text).map_err(&syntax)?,
        Some(name) => toml::Value::Table(tree)
            .try_into()
            .map_err(|e: toml::de::Error| {
                anyhow::anyhow!(
                    "{} (profile `{name}`): {}",
                    path.display(),
                    e.to_string().trim_end()
                )
            })?,
    };
    let at = |what: String| format!("{}: {what}", path.display());
    // Each becomes a file or folder of the outputs (results/NAME/PROFILE/PLOT.svg).
    let plot_names = spec
        .plots
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("plots[{i}].name"), &p.name));
    let names = (spec.name.iter().map(|n| ("name".to_string(), n)))
        .chain(profile.iter().map(|p| (format!("profiles.{p}"), p)))
        .chain(plot_names);
    for (key, name) in names {
        if let Err(why) = plain_name(name) {
            bail!(at(format!(
                "{key} = {name:?} {why}: it names a file or folder of the outputs"
            )));
        }
    }
    if let Some(external) = &spec.external {
        // Its table comes from elsewhere: nothing may say what wsim would run.
        let runs_something = [
            ("[[programs]]", !spec.programs.is_empty()),
            ("[[graphs]]", !spec.graphs.is_empty()),
            ("[[axes]]", !spec.axes.is_empty()),
            ("[readings]", spec.readings.is_some()),
            ("config", spec.config.is_some()),
            ("set", !spec.set.is_empty()),
            ("sampling", spec.sampling.is_some()),
        ];
        if let Some((key, _)) = runs_something.iter().find(|(_, given)| *given) {
            bail!(at(format!(
                "{key} in an [external] experiment: its table is measured by `{}`, not by \
                 wsim's runs",
                external.command
            )));
        }
        if external.command.trim().is_empty() {
            bail!(at(
                "[external] command is empty: name what measures the table".into()
            ));
        }
    } else if spec.programs.is_empty() {
        bail!(at(
            "no [[programs]]: an experiment runs at least one program (or says [external])".into()
        ));
    }
    let mut names = BTreeSet::new();
    for (i, axis) in spec.axes.iter().enumerate() {
        if axis.values.is_empty() {
            bail!(at(format!("axes[{i}] `{}` has no values", axis.name)));
        }
        if !is_column_name(&axis.name) {
            bail!(at(format!(
                "axes[{i}]: the name `{}` is not a column name (lower-case letters, digits, _)",
                axis.name
            )));
        }
        if !names.insert(axis.name.as_str()) {
            bail!(at(format!("two axes are named `{}`", axis.name)));
        }
        match (&axis.key, axis.argument) {
            (Some(_), Some(_)) | (None, None) => bail!(at(format!(
                "axes[{i}] `{}`: give exactly one of `key` (a configuration key) and \
                 `argument` (one of {})",
                axis.name,
                Arguments::ALL.map(Argument::name).join(", ")
            ))),
            (None, Some(argument)) => {
                if let Some(earlier) = spec.axes[..i].iter().find(|a| a.argument == Some(argument))
                {
                    bail!(at(format!(
                        "axes `{}` and `{}` both sweep the argument {}",
                        earlier.name,
                        axis.name,
                        argument.name()
                    )));
                }
                if let Some(k) = spec.programs.iter().position(|p| {
                    p.arguments().get(argument).is_some()
                        || (argument == Argument::Source && p.arguments().source_hub)
                }) {
                    bail!(at(format!(
                        "programs[{k}] sets `{}`, which axis `{}` sweeps: leave one",
                        argument.name(),
                        axis.name
                    )));
                }
            }
            (Some(_), None) => {}
        }
    }
    sweep::distinct_keys(&config_axes(&spec)).map_err(|e| anyhow::anyhow!(at(format!("{e:#}"))))?;
    axis_values(&spec).map_err(|e| anyhow::anyhow!(at(format!("{e:#}"))))?;
    let mut graph_names = BTreeSet::new();
    for (i, g) in spec.graphs.iter().enumerate() {
        let name = g.name.clone().unwrap_or_else(|| g.spec.clone());
        if !graph_names.insert(name.clone()) {
            bail!(at(format!(
                "graphs[{i}]: a second graph named `{name}`: name them apart"
            )));
        }
    }
    Ok((spec, profile))
}

/// Whether `name` can be a file or folder name below the outputs' directory and nothing
/// else: not empty, no separator, not `.` or `..` (which would leave the directory).
fn plain_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        Err("is empty")
    } else if name.contains(['/', '\\', '\0']) {
        Err("has a path separator or a NUL")
    } else if name == "." || name == ".." {
        Err("is a relative folder")
    } else {
        Ok(())
    }
}

fn is_column_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// Every axis's values as text (`4`, `write-back`, `true`), as a sweep's axis named by the
/// axis's name; an argument axis's values are counts.
pub(super) fn axis_values(spec: &Spec) -> anyhow::Result<Vec<Axis>> {
    spec.axes
        .iter()
        .map(|a| {
            let values = a
                .values
                .iter()
                .map(|v| match (v, a.argument) {
                    (toml::Value::Integer(n), Some(_)) if u32::try_from(*n).is_ok() => {
                        Ok(n.to_string())
                    }
                    (_, Some(argument)) => bail!(
                        "axis `{}`: a value of the argument {} is a whole number \
                         (0 to {}), not {v}",
                        a.name,
                        argument.name(),
                        u32::MAX
                    ),
                    (toml::Value::String(s), None) => Ok(s.clone()),
                    (
                        toml::Value::Integer(_) | toml::Value::Float(_) | toml::Value::Boolean(_),
                        None,
                    ) => Ok(v.to_string()),
                    (other, None) => bail!(
                        "axis `{}`: a value must be a string, number or boolean, not {}",
                        a.name,
                        other.type_str()
                    ),
                })
                .collect::<anyhow::Result<Vec<String>>>()?;
            Ok(Axis {
                key: a.name.clone(),
                values,
            })
        })
        .collect()
}

/// The configuration keys the axes vary (each once: checked by [`read`]).
fn config_axes(spec: &Spec) -> Vec<Axis> {
    spec.axes
        .iter()
        .filter_map(|a| {
            a.key.as_ref().map(|key| Axis {
                key: key.clone(),
                values: Vec::new(),
            })
        })
        .collect()
}

/// What runs of a program would give it that only a graph program (`wsim_graph`), or a GCN
/// program (`wsim_gcn` too), takes: an error naming the entry and the program when the ELF
/// `elf` declares no such descriptor, found as the file is read rather than cached as every
/// run's error. `graphs`: the graphs the entry runs on; `axes`: the program arguments the
/// axes sweep. An ELF that does not parse is left to its runs to report.
pub(super) fn check_workload(
    spec: &Spec,
    program: &Program,
    elf: &[u8],
    graphs: &[&str],
) -> anyhow::Result<()> {
    use wsim_workloads::{gcn_image, graph_image};
    let given = spec.programs[program.entry].arguments();
    let swept: Vec<Argument> = spec.axes.iter().filter_map(|a| a.argument).collect();
    let has = |argument: Argument| given.get(argument).is_some() || swept.contains(&argument);
    let mut graph_only: Vec<String> = Vec::new();
    if !graphs.is_empty() {
        graph_only.push(format!("the graphs {}", graphs.join(", ")));
    }
    if given.source_hub || has(Argument::Source) {
        graph_only.push("a source".into());
    }
    if has(Argument::Iterations) {
        graph_only.push("iterations".into());
    }
    let gcn_only: Vec<&str> = [
        Argument::Features,
        Argument::InputFeatures,
        Argument::InputNnz,
    ]
    .into_iter()
    .filter(|&a| has(a))
    .map(Argument::name)
    .collect();
    if graph_only.is_empty() && gcn_only.is_empty() {
        return Ok(());
    }
    let Ok(image) = wsim_sim::loader::parse(elf) else {
        return Ok(());
    };
    let refuse = |symbol: &str, what: String, kind: &str| {
        anyhow::anyhow!(
            "programs[{}]: {} is not a {kind} program (it has no `{symbol}` descriptor), yet \
             its runs would be given {what}: give its entry `graphs = []` and none of a graph \
             program's options, or list it in an entry of its own",
            program.entry,
            program.name
        )
    };
    if image.symbol(graph_image::SYMBOL).is_none() {
        let mut what = graph_only;
        what.extend(gcn_only.iter().map(|a| a.to_string()));
        return Err(refuse(graph_image::SYMBOL, what.join(", "), "graph"));
    }
    if !gcn_only.is_empty() && image.symbol(gcn_image::SYMBOL).is_none() {
        return Err(refuse(gcn_image::SYMBOL, gcn_only.join(", "), "GCN"));
    }
    Ok(())
}
