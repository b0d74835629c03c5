//! A paper's numbers beside wsim's (`wsim experiment report`, docs/EXPERIMENTS.md,
//! "Reports"). A paper file (TOML) lists the paper's claims, each with its value and how
//! wsim's value is computed from an experiment's table; the report reads the tables of
//! its profiles (`quick` and `full` unless it names others;
//! `RESULTS/EXPERIMENT/PROFILE/EXPERIMENT.csv`; a profile whose table is absent has not
//! run) and writes one generated Markdown page with the experiments' figures copied
//! beside it. With a readings file (crate::readings), each claim's value is the default
//! reading's, beside its band across the readings its experiment ran. Same tables, same
//! page, byte for byte.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

mod compute;
mod rankings;

use anyhow::{anyhow, bail, Context};
use serde::Deserialize;

use crate::readings::Readings;
use crate::stats::Cell;
use crate::table::Table;
pub use compute::{Computation, Expect, Filter, Measured, Method, Stated};

/// The profiles a report reads unless its paper file names them, in the order of its
/// columns.
pub const PROFILES: [&str; 2] = ["quick", "full"];

/// The paper file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PaperFile {
    title: String,
    #[serde(default)]
    introduction: String,
    /// The directory of the experiment files, relative to the paper file (default: the
    /// paper file's own).
    experiments: Option<PathBuf>,
    /// The profiles whose tables are read, in the order of their columns (the value of a
    /// claim compared with the paper's is the last one's that ran).
    profiles: Option<Vec<String>>,
    /// The readings file the experiments run under, relative to the paper file.
    readings: Option<PathBuf>,
    #[serde(default)]
    sections: Vec<SectionFile>,
    /// A generated table of the claims named, before the closing sections.
    headline: Option<HeadlineFile>,
    #[serde(default)]
    closing: Vec<Block>,
}

/// `[headline]`: the claims a reader should see first, with their bands.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeadlineFile {
    title: String,
    #[serde(default)]
    text: String,
    claims: Vec<String>,
}

/// Free Markdown under a heading.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Block {
    title: String,
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SectionFile {
    title: String,
    #[serde(default)]
    text: String,
    /// The experiment of the section's claims and figures unless they name another.
    experiment: Option<String>,
    /// Plots: `NAME` (of the section's experiment) or `EXPERIMENT/NAME`.
    #[serde(default)]
    figures: Vec<String>,
    #[serde(default)]
    claims: Vec<ClaimFile>,
    /// Tables of two experiments' orders of items (docs/EXPERIMENTS.md, "Rankings").
    #[serde(default)]
    rankings: Vec<rankings::RankingFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimFile {
    id: String,
    text: String,
    lines: Lines,
    paper: Stated,
    reason: String,
    compute: Option<Method>,
    experiment: Option<String>,
    #[serde(default, rename = "where")]
    filter: BTreeMap<String, toml::Value>,
    baseline: Option<BTreeMap<String, toml::Value>>,
    subject: Option<BTreeMap<String, toml::Value>>,
    pair_by: Option<Vec<String>>,
    group_by: Option<Vec<String>>,
    metric: Option<String>,
    expect: Option<String>,
}

/// The dissertation's lines: `1527` or `"1527, 1683"`.
#[derive(Deserialize)]
#[serde(untagged)]
enum Lines {
    Line(u64),
    Text(String),
}

/// A claim as the report uses it.
pub struct Claim {
    pub id: String,
    pub text: String,
    pub lines: String,
    pub paper: Stated,
    pub reason: String,
    /// The experiment and how its table gives wsim's value; none for a claim wsim does
    /// not measure (area, say).
    pub measure: Option<(String, Computation)>,
    pub expect: Option<Expect>,
}

/// A plot of an experiment, embedded in a section.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Figure {
    pub experiment: String,
    pub plot: String,
}

pub struct Section {
    pub title: String,
    pub text: String,
    pub figures: Vec<Figure>,
    pub claims: Vec<Claim>,
    pub rankings: Vec<rankings::Ranking>,
}

/// A paper file, read and checked against the experiment files.
pub struct Paper {
    pub path: PathBuf,
    pub title: String,
    pub introduction: String,
    /// The profiles read, in the order of their columns.
    pub profiles: Vec<String>,
    pub readings: Option<Readings>,
    pub sections: Vec<Section>,
    headline: Option<HeadlineFile>,
    closing: Vec<Block>,
    /// The experiment files, by name.
    files: BTreeMap<String, ExperimentFile>,
}

/// An experiment file as a paper sees it.
struct ExperimentFile {
    path: PathBuf,
    plots: Vec<String>,
    /// Whether it has `[profiles.NAME]`.
    profiled: bool,
}

/// The experiments a paper may name: every experiment file (one with `[[programs]]` or
/// `[external]`) in a directory, by name.
fn experiments(dir: &Path, paper: &Path) -> anyhow::Result<BTreeMap<String, ExperimentFile>> {
    let mut found = BTreeMap::new();
    let pattern = dir.join("*.toml");
    let mut files: Vec<PathBuf> = glob::glob(&pattern.to_string_lossy())
        .context("the experiments directory")?
        .collect::<Result<_, _>>()
        .with_context(|| format!("cannot list {}", dir.display()))?;
    files.sort();
    let own = paper.canonicalize().ok();
    for file in files {
        if file.canonicalize().ok() == own {
            continue;
        }
        let text = crate::files::read_text(&file, crate::TEXT_BYTES, "an experiment file")?;
        let doc: toml::Table =
            toml::from_str(&text).with_context(|| format!("{}", file.display()))?;
        if !doc.contains_key("programs") && !doc.contains_key("external") {
            continue;
        }
        let name = match doc.get("name").and_then(toml::Value::as_str) {
            Some(name) => name.to_string(),
            None => file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        };
        let plots = doc
            .get("plots")
            .and_then(toml::Value::as_array)
            .map(|plots| {
                plots
                    .iter()
                    .filter_map(|p| p.get("name").and_then(toml::Value::as_str))
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        let entry = ExperimentFile {
            profiled: doc.contains_key("profiles"),
            path: file,
            plots,
        };
        if found.insert(name.clone(), entry).is_some() {
            bail!("{}: two experiment files are named `{name}`", dir.display());
        }
    }
    Ok(found)
}

impl Paper {
    /// Read a paper file and check every claim and figure against the experiment files
    /// (all problems at once, each naming its claim).
    pub fn load(path: &Path) -> anyhow::Result<Paper> {
        let text = crate::files::read_text(path, crate::TEXT_BYTES, "a paper file")?;
        let file: PaperFile =
            toml::from_str(&text).with_context(|| format!("{}", path.display()))?;
        let here = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let dir = match &file.experiments {
            Some(d) => here.join(d),
            None => here.to_path_buf(),
        };
        let known = experiments(&dir, path).with_context(|| format!("{}", path.display()))?;
        let names = || known.keys().cloned().collect::<Vec<_>>().join(", ");
        let mut problems: Vec<String> = Vec::new();
        let mut ids = BTreeSet::new();
        let mut sections = Vec::new();
        for section in file.sections {
            let mut figures = Vec::new();
            for figure in &section.figures {
                let (experiment, plot) = match figure.split_once('/') {
                    Some((e, p)) => (Some(e.to_string()), p.to_string()),
                    None => (section.experiment.clone(), figure.clone()),
                };
                let at = format!("section `{}`: figure `{figure}`", section.title);
                match experiment {
                    None => problems.push(format!(
                        "{at}: no experiment (write EXPERIMENT/PLOT or give the section an \
                         experiment)"
                    )),
                    Some(e) => match known.get(&e) {
                        None => problems.push(format!(
                            "{at}: unknown experiment `{e}` (the experiments in {}: {})",
                            dir.display(),
                            names()
                        )),
                        Some(file) if !file.plots.contains(&plot) => problems.push(format!(
                            "{at}: experiment `{e}` has no plot `{plot}` (its plots: {})",
                            file.plots.join(", ")
                        )),
                        Some(_) => figures.push(Figure {
                            experiment: e,
                            plot,
                        }),
                    },
                }
            }
            let mut claims = Vec::new();
            for claim in section.claims {
                let id = claim.id.clone();
                if !ids.insert(id.clone()) {
                    problems.push(format!("claim `{id}`: a second claim has this id"));
                }
                match Claim::new(claim, section.experiment.as_deref()) {
                    Ok(c) => {
                        if let Some((e, _)) = &c.measure {
                            if !known.contains_key(e) {
                                problems.push(format!(
                                    "claim `{id}`: unknown experiment `{e}` (the experiments \
                                     in {}: {})",
                                    dir.display(),
                                    names()
                                ));
                            }
                        }
                        claims.push(c);
                    }
                    Err(e) => problems.push(format!("claim `{id}`: {e}")),
                }
            }
            let mut orders = Vec::new();
            for (i, file) in section.rankings.into_iter().enumerate() {
                let at = format!("section `{}`: rankings[{i}]", section.title);
                for side in [&file.left, &file.right] {
                    if !known.contains_key(&side.experiment) {
                        problems.push(format!(
                            "{at}: unknown experiment `{}` (the experiments in {}: {})",
                            side.experiment,
                            dir.display(),
                            names()
                        ));
                    }
                }
                match rankings::Ranking::new(file) {
                    Ok(r) => orders.push(r),
                    Err(e) => problems.push(format!("{at}: {e}")),
                }
            }
            sections.push(Section {
                title: section.title,
                text: section.text,
                figures,
                claims,
                rankings: orders,
            });
        }
        let profiles = file
            .profiles
            .unwrap_or_else(|| PROFILES.map(String::from).to_vec());
        if profiles.is_empty() {
            problems.push("profiles = []: a report reads one profile at least".into());
        }
        for (i, p) in profiles.iter().enumerate() {
            if p.is_empty() || p.contains(['/', '\\', '\0']) || p == "." || p == ".." {
                problems.push(format!(
                    "profiles[{i}] = {p:?} is not a profile's name (an experiment file without \
                     profiles needs none: its one table, RESULTS/EXPERIMENT/EXPERIMENT.csv, is \
                     read in every profile's column)"
                ));
            } else if profiles[..i].contains(p) {
                problems.push(format!("profiles[{i}]: `{p}` is named twice"));
            }
        }
        for section in &sections {
            for (i, r) in section.rankings.iter().enumerate() {
                for side in [&r.file.left, &r.file.right] {
                    if !profiles.contains(&side.profile) {
                        problems.push(format!(
                            "section `{}`: rankings[{i}]: profile `{}` is not one the report \
                             reads ({})",
                            section.title,
                            side.profile,
                            profiles.join(", ")
                        ));
                    }
                }
            }
        }
        if let Some(headline) = &file.headline {
            for (i, id) in headline.claims.iter().enumerate() {
                if !ids.contains(id) {
                    problems.push(format!("headline.claims[{i}]: no claim `{id}`"));
                }
            }
        }
        if !problems.is_empty() {
            bail!("{}:\n  {}", path.display(), problems.join("\n  "));
        }
        let readings = file
            .readings
            .as_ref()
            .map(|r| Readings::load(&here.join(r)))
            .transpose()
            .with_context(|| format!("{}: readings", path.display()))?;
        Ok(Paper {
            path: path.to_path_buf(),
            title: file.title,
            introduction: file.introduction,
            profiles,
            readings,
            sections,
            headline: file.headline,
            closing: file.closing,
            files: known,
        })
    }

    /// The experiments its claims and figures read, each once, by name.
    fn experiments(&self) -> BTreeSet<&str> {
        let mut names = BTreeSet::new();
        for section in &self.sections {
            names.extend(section.figures.iter().map(|f| f.experiment.as_str()));
            names.extend(
                section
                    .claims
                    .iter()
                    .filter_map(|c| c.measure.as_ref().map(|(e, _)| e.as_str())),
            );
            for r in &section.rankings {
                names.extend([
                    r.file.left.experiment.as_str(),
                    r.file.right.experiment.as_str(),
                ]);
            }
        }
        names
    }
}

impl Claim {
    /// Check a claim's keys against its method; `experiment`: its section's.
    fn new(file: ClaimFile, experiment: Option<&str>) -> Result<Claim, String> {
        for (what, text) in [("text", &file.text), ("reason", &file.reason)] {
            if text.contains('\n') {
                return Err(format!("`{what}` must be one line (it is a table cell)"));
            }
        }
        let lines = match file.lines {
            Lines::Line(n) => n.to_string(),
            Lines::Text(t) => t,
        };
        let expect = file
            .expect
            .as_deref()
            .map(str::parse::<Expect>)
            .transpose()?;
        let Some(method) = file.compute else {
            let extra: Vec<&str> = [
                ("experiment", file.experiment.is_some()),
                ("where", !file.filter.is_empty()),
                ("baseline", file.baseline.is_some()),
                ("subject", file.subject.is_some()),
                ("pair_by", file.pair_by.is_some()),
                ("group_by", file.group_by.is_some()),
                ("metric", file.metric.is_some()),
                ("expect", expect.is_some()),
            ]
            .into_iter()
            .filter_map(|(k, given)| given.then_some(k))
            .collect();
            if !extra.is_empty() {
                return Err(format!(
                    "{} without `compute` (one of geomean_speedup, ratio, value, range, \
                     spread)",
                    extra.join(", ")
                ));
            }
            return Ok(Claim {
                id: file.id,
                text: file.text,
                lines,
                paper: file.paper,
                reason: file.reason,
                measure: None,
                expect: None,
            });
        };
        let experiment = file
            .experiment
            .as_deref()
            .or(experiment)
            .ok_or("no experiment (give the claim or its section one)")?
            .to_string();
        let name = method.name();
        let paired = matches!(
            method,
            Method::GeomeanSpeedup | Method::Range | Method::Ratio
        );
        let rules = [
            ("baseline", file.baseline.is_some(), paired),
            ("subject", file.subject.is_some(), paired),
            (
                "pair_by",
                file.pair_by.is_some(),
                matches!(method, Method::GeomeanSpeedup | Method::Range),
            ),
        ];
        for (key, given, needed) in rules {
            match (given, needed) {
                (false, true) => return Err(format!("compute = \"{name}\" needs `{key}`")),
                (true, false) => return Err(format!("compute = \"{name}\" takes no `{key}`")),
                _ => {}
            }
        }
        if file.group_by.is_some() && method != Method::Spread {
            return Err(format!(
                "compute = \"{name}\" takes no `group_by` (only spread)"
            ));
        }
        if let (Some(Expect::Within(_)), Stated::Text(_)) = (expect, &file.paper) {
            if matches!(
                method,
                Method::GeomeanSpeedup | Method::Ratio | Method::Value
            ) {
                return Err(format!(
                    "expect = \"within P%\" of one number needs the paper's value as a number \
                     (compute = \"{name}\")"
                ));
            }
        }
        let sides = match (&file.baseline, &file.subject) {
            (Some(b), Some(s)) => {
                Some((Filter::parse("baseline", b)?, Filter::parse("subject", s)?))
            }
            _ => None,
        };
        Ok(Claim {
            id: file.id,
            text: file.text,
            lines,
            paper: file.paper,
            reason: file.reason,
            measure: Some((
                experiment,
                Computation {
                    method,
                    filter: Filter::parse("where", &file.filter)?,
                    sides,
                    by: file.pair_by.or(file.group_by).unwrap_or_default(),
                    metric: file.metric.unwrap_or_else(|| "cycles".into()),
                },
            )),
            expect,
        })
    }
}

/// Where a report reads and writes.
#[derive(Clone, Debug)]
pub struct Places {
    /// The experiments' outputs: `RESULTS/EXPERIMENT/PROFILE/`.
    pub results: PathBuf,
    /// The Markdown page.
    pub out: PathBuf,
    /// Where the figures are copied (`FIGURES/EXPERIMENT/PLOT.svg`).
    pub figures: PathBuf,
}

impl Places {
    /// An experiment's outputs in `profile`: `RESULTS/EXPERIMENT/PROFILE/`; for a file
    /// without profiles (`profiled` false) with nothing there, its one
    /// `RESULTS/EXPERIMENT/` (where `wsim experiment run` writes it), read for every
    /// profile. The second is whether it is that one.
    fn dir(&self, experiment: &str, profile: &str, profiled: bool) -> (PathBuf, bool) {
        let under = self.results.join(experiment).join(profile);
        if profiled || under.exists() {
            (under, false)
        } else {
            (self.results.join(experiment), true)
        }
    }

    fn table(&self, experiment: &str, profile: &str, profiled: bool) -> PathBuf {
        (self.dir(experiment, profile, profiled).0).join(format!("{experiment}.csv"))
    }

    /// A figure's SVG in `profile`, and whether it is the one of every profile.
    fn plot(&self, figure: &Figure, profile: &str, profiled: bool) -> (PathBuf, bool) {
        let (dir, every) = self.dir(&figure.experiment, profile, profiled);
        (dir.join(format!("{}.svg", figure.plot)), every)
    }
}

/// The tables that exist, by experiment and profile, with the readings the experiment
/// file runs in that profile (none: the file has no `[readings]`).
type Tables<'p> = BTreeMap<(String, &'p str), (PathBuf, Table, Option<Vec<String>>)>;

/// wsim's value of a claim in one profile: the default reading's, and its band across
/// the readings the experiment ran under.
#[derive(Clone, Debug)]
pub struct Value {
    pub default: Measured,
    pub band: Option<Band>,
}

/// A claim's values under each reading that ran (the default first), and the readings
/// whose runs are not in the table.
#[derive(Clone, Debug)]
pub struct Band {
    pub values: Vec<(String, Measured)>,
    pub not_run: Vec<String>,
}

impl Band {
    /// The least value and its reading, the greatest and its (a range's ends count).
    pub fn ends(&self) -> ((f64, &str), (f64, &str)) {
        let mut low = (f64::INFINITY, "");
        let mut high = (f64::NEG_INFINITY, "");
        for (name, value) in &self.values {
            let (lo, hi) = value.bounds();
            if lo < low.0 {
                low = (lo, name);
            }
            if hi > high.0 {
                high = (hi, name);
            }
        }
        (low, high)
    }
}

/// `table`'s rows that are `reading`'s: those run under it, and the default reading's of
/// the programs it does not run (all of them for a reading that runs nothing). `table`'s
/// rows without a reading were given the default's when it was read ([`write`]).
fn reading_rows(table: &Table, readings: &Readings, reading: &str) -> Table {
    let column = table.column("reading");
    let program = table.column("program");
    let default = readings.default_reading().name.as_str();
    let of = |row: &[Cell]| column.map_or(String::new(), |k| row[k].to_string());
    let is_default = |row: &[Cell]| of(row) == default;
    let own = readings.get(reading).filter(|r| r.name != default);
    let rows = (table.rows.iter())
        .filter(|row| match own {
            None => is_default(row),
            Some(r) => {
                let name = program.map_or(String::new(), |k| row[k].to_string());
                of(row) == r.name || (is_default(row) && !r.runs_program(&name))
            }
        })
        .cloned()
        .collect();
    Table {
        header: table.header.clone(),
        rows,
    }
}

/// A claim's value from `table` (read from `path`): under the default reading, and under
/// each of `readings` the experiment ran (`names`, the default first) that concerns it (it
/// ran some of the table's programs, or maps a schedule the claim names). A reading whose
/// runs, or whose replacing schedule's rows, are not in the table is not run.
fn claim_value(
    computation: &Computation,
    table: &Table,
    path: &Path,
    readings: Option<(&Readings, &[String])>,
) -> anyhow::Result<Value> {
    let Some((readings, names)) = readings else {
        return Ok(Value {
            default: computation.compute(table, path)?,
            band: None,
        });
    };
    let default = readings.default_reading();
    let default_rows = reading_rows(table, readings, &default.name);
    let value = computation.compute(&default_rows, path)?;
    let mut band = Band {
        values: vec![(default.name.clone(), value)],
        not_run: Vec::new(),
    };
    let column = table.column("reading");
    let program = table.column("program");
    for name in names.iter().filter(|n| **n != default.name) {
        let reading = readings
            .get(name)
            .expect("checked against the readings file");
        let ran_own = column.is_some_and(|k| table.rows.iter().any(|r| r[k].to_string() == *name));
        let owes_runs = (default_rows.rows.iter())
            .any(|r| program.is_some_and(|k| reading.runs_program(&r[k].to_string())));
        let replaced = computation.replaced(&reading.replace);
        let schedule = default_rows.column("schedule");
        let lacks_schedule = (replaced.schedules().into_iter())
            .filter(|s| reading.replace.values().any(|to| to == s))
            .any(|s| {
                !schedule.is_some_and(|k| default_rows.rows.iter().any(|r| r[k].to_string() == s))
            });
        if (owes_runs && !ran_own) || lacks_schedule {
            band.not_run.push(name.clone());
            continue;
        }
        // A reading that runs none of the table's programs and maps none of the claim's
        // schedules gives the default's value: it is not a reading of this claim.
        if !ran_own && replaced == *computation {
            continue;
        }
        let rows = reading_rows(table, readings, name);
        match replaced.compute(&rows, path) {
            Ok(v) => band.values.push((name.clone(), v)),
            Err(e) if e.downcast_ref::<compute::NoRows>().is_some() => {
                band.not_run.push(name.clone())
            }
            Err(e) => return Err(e.context(format!("under reading `{name}`"))),
        }
    }
    Ok(Value {
        default: value,
        band: Some(band),
    })
}

/// Write the report of `paper` from the tables under `places.results`: the page and
/// the figures it embeds; returns the files written.
pub fn write(paper: &Paper, places: &Places) -> anyhow::Result<Vec<PathBuf>> {
    let mut tables: Tables = BTreeMap::new();
    let mut problems = Vec::new();
    for experiment in paper.experiments() {
        let file = &paper.files[experiment];
        for profile in &paper.profiles {
            let profile_name = file.profiled.then_some(profile.as_str());
            let path = places.table(experiment, profile, file.profiled);
            if !path.exists() {
                continue;
            }
            let table = Table::read(&path)?;
            // A row with no reading (a table written before readings were) is the default
            // reading's, as an experiment's plots read it.
            let table = match &paper.readings {
                Some(r) => table.with_default("reading", &r.default_reading().name),
                None => table,
            };
            let readings = match crate::experiment::readings_of(&file.path, profile_name) {
                Ok(r) => r,
                Err(e) => {
                    problems.push(format!("experiment `{experiment}` ({profile}): {e:#}"));
                    None
                }
            };
            let names = match (readings, &paper.readings) {
                (None, _) => None,
                (Some((_, names)), None) => {
                    problems.push(format!(
                        "experiment `{experiment}` ({profile}) runs readings ({}), and the \
                         paper file names no readings file (readings = \"...\")",
                        names.join(", ")
                    ));
                    None
                }
                (Some((theirs, names)), Some(ours)) => {
                    let same = |p: &Path| p.canonicalize().ok();
                    if same(&theirs.path) != same(&ours.path) {
                        problems.push(format!(
                            "experiment `{experiment}` ({profile}) runs the readings of {}, \
                             the paper file reads {}",
                            theirs.path.display(),
                            ours.path.display()
                        ));
                    }
                    Some(names)
                }
            };
            tables.insert(
                (experiment.to_string(), profile.as_str()),
                (path, table, names),
            );
        }
    }
    // A page of nothing but "not run" is a mistake (no run yet, another --results).
    if tables.is_empty() {
        let looked: Vec<String> = (paper.experiments().into_iter())
            .flat_map(|e| {
                let profiled = paper.files[e].profiled;
                (paper.profiles.iter()).map(move |p| places.table(e, p, profiled))
            })
            .map(|p| p.display().to_string())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        bail!(
            "{}: no experiment's table was found (looked for {}): run the experiments first \
             (wsim experiment run), or give --results their outputs' directory",
            paper.path.display(),
            looked.join(", ")
        );
    }
    // Every claim's value in every profile that ran, or every problem at once.
    let mut values: BTreeMap<(&str, &str), Value> = BTreeMap::new();
    // Claims without rows in a profile's table: "not run" there, if another profile's
    // table has them (a typo has rows in none).
    let mut rowless: Vec<(&str, String)> = Vec::new();
    let mut other_readings_only = std::collections::BTreeSet::new();
    for claim in paper.sections.iter().flat_map(|s| &s.claims) {
        let Some((experiment, computation)) = &claim.measure else {
            continue;
        };
        for profile in &paper.profiles {
            let Some((path, table, names)) = tables.get(&(experiment.clone(), profile.as_str()))
            else {
                continue;
            };
            // One reading has no band: its rows are the default's.
            let names = names.as_deref().filter(|n| n.len() > 1);
            let readings = paper.readings.as_ref().zip(names);
            match claim_value(computation, table, path, readings) {
                Ok(v) => {
                    values.insert((&claim.id, profile), v);
                }
                // A table whose rows are all another reading's (measured before the default
                // changed) has the claim's rows, just not under the default: not run there.
                Err(_) if readings.is_some() && computation.compute(table, path).is_ok() => {
                    other_readings_only.insert(claim.id.as_str());
                }
                Err(e) if e.downcast_ref::<compute::NoRows>().is_some() => rowless.push((
                    &claim.id,
                    format!("claim `{}` ({profile}): {e:#}", claim.id),
                )),
                Err(e) => problems.push(format!("claim `{}` ({profile}): {e:#}", claim.id)),
            }
        }
    }
    for (id, problem) in rowless {
        if !other_readings_only.contains(id)
            && !paper
                .profiles
                .iter()
                .any(|p| values.contains_key(&(id, p.as_str())))
        {
            problems.push(problem);
        }
    }
    if !problems.is_empty() {
        bail!("{}:\n  {}", paper.path.display(), problems.join("\n  "));
    }
    let out_dir = match places.out.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => absolute(dir)?,
        _ => absolute(Path::new("."))?,
    };
    std::fs::create_dir_all(&out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;
    let mut written = Vec::new();
    let mut page = header(paper, places, &tables);
    for section in &paper.sections {
        let _ = write!(page, "\n## {}\n\n", section.title);
        if !section.text.trim().is_empty() {
            let _ = write!(page, "{}\n\n", section.text.trim());
        }
        if !section.claims.is_empty() {
            page.push_str(&claims_table(paper, &section.claims, &values));
        }
        for ranking in &section.rankings {
            let side = |s: &rankings::Side| side_table(&tables, s);
            let text =
                rankings::markdown(ranking, side(&ranking.file.left), side(&ranking.file.right))
                    .with_context(|| {
                        format!("{}: section `{}`", paper.path.display(), section.title)
                    })?;
            page.push_str(&text);
        }
        // Every profile's figure that was drawn, the last profile's (the paper's size)
        // first: a full profile run for some graphs only does not hide the quick
        // profile's figure of them all.
        for figure in &section.figures {
            // A file without profiles has one figure, whatever the profile.
            let profiled = paper.files[&figure.experiment].profiled;
            let mut drawn: Vec<(&str, PathBuf, bool)> = Vec::new();
            for p in paper.profiles.iter().rev() {
                let (path, every) = places.plot(figure, p, profiled);
                if path.exists() && !drawn.iter().any(|d| d.1 == path) {
                    drawn.push((p.as_str(), path, every));
                }
            }
            if drawn.is_empty() {
                let _ = write!(
                    page,
                    "\n*Figure `{}` of {}: not run.*\n",
                    figure.plot, figure.experiment
                );
            }
            for (profile, source, every) in drawn {
                let mut target = places.figures.join(&figure.experiment);
                if !every {
                    target.push(profile);
                }
                target.push(format!("{}.svg", figure.plot));
                if let Some(dir) = target.parent() {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("cannot create {}", dir.display()))?;
                }
                let svg = crate::files::read_input(&source, crate::REPORT_BYTES, "a figure")?;
                crate::files::write_whole(&target, &svg)?;
                let link = pathdiff::diff_paths(absolute(&target)?, &out_dir)
                    .ok_or_else(|| anyhow!("no relative path to {}", target.display()))?;
                let (short, long) = if every {
                    (String::new(), String::new())
                } else {
                    (format!(", {profile}"), format!(", profile {profile}"))
                };
                let _ = write!(
                    page,
                    "\n![{plot} ({experiment}{short})]({link})\n\n*{plot}: experiment \
                     {experiment}{long}.*\n",
                    plot = figure.plot,
                    experiment = figure.experiment,
                    link = link.to_string_lossy().replace('\\', "/"),
                );
                // The PDF beside the SVG, for a paper.
                let pdf = source.with_extension("pdf");
                if pdf.exists() {
                    let copy = target.with_extension("pdf");
                    std::fs::copy(&pdf, &copy).with_context(|| {
                        format!("cannot copy {} to {}", pdf.display(), copy.display())
                    })?;
                    written.push(copy);
                }
                written.push(target);
            }
        }
    }
    if let Some(headline) = &paper.headline {
        page.push_str(&headline_table(paper, headline, &values));
    }
    for block in &paper.closing {
        let _ = write!(page, "\n## {}\n\n{}\n", block.title, block.text.trim());
    }
    crate::files::write_whole(&places.out, page.as_bytes())?;
    written.insert(0, places.out.clone());
    Ok(written)
}

/// A ranking side's table, if its profile ran.
fn side_table<'t>(tables: &'t Tables, s: &rankings::Side) -> Option<(&'t Path, &'t Table)> {
    (tables.iter())
        .find(|((e, p), _)| *e == s.experiment && *p == s.profile)
        .map(|(_, (path, table, _))| (path.as_path(), table))
}

fn absolute(path: &Path) -> anyhow::Result<PathBuf> {
    std::path::absolute(path).with_context(|| format!("cannot resolve {}", path.display()))
}

/// The title, the notice that the page is generated (by which command, from which
/// tables and wsim), the introduction and the readings.
fn header(paper: &Paper, places: &Places, tables: &Tables) -> String {
    let mut page = format!("# {}\n\n", paper.title);
    let _ = write!(
        page,
        "<!-- Generated by `wsim experiment report`: do not edit by hand; edit {paper} and \
         regenerate. -->\n\
         *Generated by `wsim experiment report {paper} --results {results} -o {out} \
         --figures {figures}` from the experiments' tables below. Do not edit it by hand: \
         edit {paper} (the paper's values, how wsim's are computed, the reasons, the text) \
         and regenerate.*\n\n\
         | experiment | {columns} |\n| --- |{rule}\n",
        paper = paper.path.display(),
        results = places.results.display(),
        out = places.out.display(),
        figures = places.figures.display(),
        columns = paper.profiles.join(" | "),
        rule = " --- |".repeat(paper.profiles.len()),
    );
    for experiment in paper.experiments() {
        let cells: Vec<String> = (paper.profiles.iter())
            .map(
                |profile| match tables.get(&(experiment.to_string(), profile.as_str())) {
                    None => "not run".into(),
                    Some((path, table, names)) => {
                        let versions: BTreeSet<String> = table
                            .column("wsim_version")
                            .map(|k| table.rows.iter().map(|r| r[k].to_string()).collect())
                            .unwrap_or_default();
                        let versions: Vec<String> = versions.into_iter().collect();
                        let readings = match names {
                            Some(names) if names.len() > 1 => {
                                format!(", readings {}", names.join(", "))
                            }
                            _ => String::new(),
                        };
                        format!(
                            "`{}`: {} rows, wsim {}{readings}",
                            path.display(),
                            table.rows.len(),
                            if versions.is_empty() {
                                "unknown".into()
                            } else {
                                versions.join(", ")
                            }
                        )
                    }
                },
            )
            .collect();
        let _ = writeln!(page, "| {experiment} | {} |", cells.join(" | "));
    }
    page.push_str(
        "\nwsim/paper: wsim's value over the paper's (the last profile's that ran); for a \
         claim with an expectation, whether wsim's value meets it.\n",
    );
    if !paper.introduction.trim().is_empty() {
        let _ = write!(page, "\n{}\n", paper.introduction.trim());
    }
    if let Some(readings) = &paper.readings {
        let _ = write!(
            page,
            "\n## The readings\n\nWhat the dissertation leaves unstated, each choice a \
             reading (`{}`). A claim's wsim value is the default reading's (`{}`); the band \
             column gives its least and greatest value across the readings its experiment \
             ran, and the reading at each end. A reading whose runs are not in the table is \
             listed as not run.\n\n\
             | reading | lines | what it changes | why |\n| --- | --- | --- | --- |\n",
            readings.path.display(),
            readings.default_reading().name
        );
        for r in &readings.readings {
            let mut changes: Vec<String> = r.set.iter().map(|s| format!("`{s}`")).collect();
            if !r.programs.is_empty() {
                changes.push(format!("for programs {}", r.programs.join(", ")));
            }
            changes.extend(
                (r.replace.iter()).map(|(from, to)| format!("claims on {from} read {to}'s rows")),
            );
            if changes.is_empty() {
                changes.push("nothing: the configuration files and programs as they are".into());
            }
            let _ = writeln!(
                page,
                "| `{}` | {} | {} | {} |",
                r.name,
                cell(&r.lines),
                cell(&changes.join("; ")),
                cell(&r.justification)
            );
        }
    }
    page
}

/// A section's claims: `claim | lines | paper | wsim PROFILE ... | band | wsim/paper |
/// reason`, the band column when the paper has readings.
fn claims_table(paper: &Paper, claims: &[Claim], values: &BTreeMap<(&str, &str), Value>) -> String {
    let band = paper.readings.is_some();
    let mut text = format!(
        "| claim | lines | paper |{}{} wsim/paper | reason |\n| --- | --- | ---: |{}{} ---: | --- |\n",
        paper.profiles.iter().map(|p| format!(" wsim {p} |")).collect::<String>(),
        if band { " band across readings |" } else { "" },
        " ---: |".repeat(paper.profiles.len()),
        if band { " --- |" } else { "" },
    );
    for claim in claims {
        let method = claim.measure.as_ref().map(|(_, c)| c.method);
        let measured: Vec<Option<&Value>> = (paper.profiles.iter())
            .map(|p| values.get(&(claim.id.as_str(), p.as_str())))
            .collect();
        let cells: Vec<String> = measured
            .iter()
            .map(|v| match (method, v) {
                (None, _) => "not measured".into(),
                (Some(_), None) => "not run".into(),
                (Some(m), Some(v)) => shown(m, v.default),
            })
            .collect();
        let paper_value = match (&claim.paper, method) {
            (Stated::Number(n), Some(m)) => number(m, *n),
            (Stated::Number(n), None) => plain(*n),
            (Stated::Text(t), _) => t.clone(),
        };
        let bands = if band {
            // A band of the default alone (no reading of this claim ran there) says nothing.
            let shown: Vec<String> = (paper.profiles.iter().zip(&measured))
                .filter_map(|(p, v)| Some((p, v.as_ref()?.band.as_ref()?)))
                .filter(|(_, b)| b.values.len() > 1 || !b.not_run.is_empty())
                .filter_map(|(p, b)| Some(format!("{p}: {}", band_text(claim, method?, b))))
                .collect();
            let shown = if shown.is_empty() {
                "—".to_string()
            } else {
                shown.join("; ")
            };
            format!(" {} |", cell(&shown))
        } else {
            String::new()
        };
        let comparison = match method {
            None => "—".into(),
            Some(m) => compared(paper, claim, m, &measured),
        };
        let _ = writeln!(
            text,
            "| {} (`{}`) | {} | {} | {} |{bands} {} | {} |",
            cell(&claim.text),
            claim.id,
            cell(&claim.lines),
            cell(&paper_value),
            cells.join(" | "),
            comparison,
            cell(&claim.reason),
        );
    }
    text
}

/// `1.20x (sockets) to 3.10x (em-search)`, the readings not run, and in how many readings
/// a claim's expectation holds.
fn band_text(claim: &Claim, method: Method, band: &Band) -> String {
    let ((lo, at_lo), (hi, at_hi)) = band.ends();
    let mut text = format!(
        "{} ({at_lo}) to {} ({at_hi}), {} readings",
        number(method, lo),
        number(method, hi),
        band.values.len()
    );
    if let Some(expect) = claim.expect {
        let holds = (band.values.iter())
            .filter(|(_, v)| expect.holds(method, *v, &claim.paper))
            .count();
        let _ = write!(text, ", holds in {holds}");
    }
    if !band.not_run.is_empty() {
        let _ = write!(text, "; not run: {}", band.not_run.join(", "));
    }
    text
}

/// The headline claims: the paper's value, the default reading's and the band, from the
/// profile whose band measured the most readings (the later one on a tie; else the last
/// profile that ran), and the other profiles' values with their bands (a claim that moves
/// with scale shows it here).
fn headline_table(
    paper: &Paper,
    headline: &HeadlineFile,
    values: &BTreeMap<(&str, &str), Value>,
) -> String {
    let mut text = format!("\n## {}\n\n", headline.title);
    if !headline.text.trim().is_empty() {
        let _ = write!(text, "{}\n\n", headline.text.trim());
    }
    text.push_str(
        "| claim | paper | profile | wsim, default reading | band: least (reading) | greatest (reading) | not run | other profiles: default [band] |\n\
         | --- | ---: | --- | ---: | ---: | ---: | --- | --- |\n",
    );
    let claims: BTreeMap<&str, &Claim> = (paper.sections.iter())
        .flat_map(|s| &s.claims)
        .map(|c| (c.id.as_str(), c))
        .collect();
    for id in &headline.claims {
        let claim = claims[id.as_str()];
        let paper_value = match &claim.paper {
            Stated::Number(n) => format!("{n:.2}x"),
            Stated::Text(t) => t.clone(),
        };
        let ran: Vec<(&str, &Value)> = (paper.profiles.iter().rev())
            .filter_map(|p| Some((p.as_str(), values.get(&(id.as_str(), p.as_str()))?)))
            .collect();
        // The band that measured the most readings (the later profile on a tie).
        let chosen = (ran.iter().rev())
            .filter(|(_, v)| v.band.is_some())
            .max_by_key(|(_, v)| v.band.as_ref().map_or(0, |b| b.values.len()))
            .or(ran.first());
        let method = claim.measure.as_ref().map(|(_, c)| c.method);
        let (Some((profile, value)), Some(method)) = (chosen, method) else {
            let _ = writeln!(
                text,
                "| {} (`{id}`) | {} | — | not run | — | — | — | — |",
                cell(&claim.text),
                cell(&paper_value)
            );
            continue;
        };
        let (lo, hi, not_run) = match &value.band {
            Some(band) => {
                let ((lo, at_lo), (hi, at_hi)) = band.ends();
                (
                    format!("{} ({at_lo})", number(method, lo)),
                    format!("{} ({at_hi})", number(method, hi)),
                    if band.not_run.is_empty() {
                        "—".to_string()
                    } else {
                        band.not_run.join(", ")
                    },
                )
            }
            None => ("—".into(), "—".into(), "no readings".into()),
        };
        let others: Vec<String> = (paper.profiles.iter())
            .filter(|p| p.as_str() != *profile)
            .filter_map(|p| Some((p, values.get(&(id.as_str(), p.as_str()))?)))
            .map(|(p, v)| {
                let mut text = format!("{p}: {}", shown(method, v.default));
                if let Some(band) = v.band.as_ref().filter(|b| b.values.len() > 1) {
                    let ((lo, at_lo), (hi, at_hi)) = band.ends();
                    let (lo, hi) = (number(method, lo), number(method, hi));
                    let _ = write!(text, " [{lo} ({at_lo}) to {hi} ({at_hi})]");
                }
                text
            })
            .collect();
        let others = if others.is_empty() {
            "—".to_string()
        } else {
            others.join("; ")
        };
        let _ = writeln!(
            text,
            "| {} (`{id}`) | {} | {profile} | {} | {lo} | {hi} | {not_run} | {} |",
            cell(&claim.text),
            cell(&paper_value),
            shown(method, value.default),
            cell(&others),
        );
    }
    text
}

/// wsim/paper: the last profile's default-reading value over the paper's and whether
/// the expectation holds.
fn compared(paper: &Paper, claim: &Claim, method: Method, measured: &[Option<&Value>]) -> String {
    let Some((profile, value)) = (paper.profiles.iter().zip(measured))
        .rev()
        .find_map(|(p, v)| v.map(|v| (p, v.default)))
    else {
        return "not run".into();
    };
    let mut parts = Vec::new();
    if let (Measured::One(v), Stated::Number(n)) = (value, &claim.paper) {
        if method != Method::Spread {
            parts.push(format!("{:.2}", v / n));
        }
    }
    if let Some(expect) = claim.expect {
        parts.push(
            if expect.holds(method, value, &claim.paper) {
                "holds"
            } else {
                "does not hold"
            }
            .to_string(),
        );
    }
    if parts.is_empty() {
        return "—".into();
    }
    let from = if Some(profile) == paper.profiles.last() {
        String::new()
    } else {
        format!(" ({profile})")
    };
    format!("{}{from}", parts.join(", "))
}

fn shown(method: Method, value: Measured) -> String {
    match value {
        Measured::One(v) => number(method, v),
        Measured::Range(lo, hi) => format!("{}-{}", number(method, lo), number(method, hi)),
    }
}

/// A value as its method gives it: a ratio of times `2.36x`, else [`plain`].
fn number(method: Method, v: f64) -> String {
    if method.is_ratio() {
        format!("{v:.2}x")
    } else {
        plain(v)
    }
}

/// Whole numbers with thousands separated (`1,234,567`), others to three decimals (one
/// from 100 up).
fn plain(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        let digits = format!("{}", v.abs() as u64);
        let mut grouped = String::new();
        for (k, d) in digits.chars().enumerate() {
            if k > 0 && (digits.len() - k) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(d);
        }
        format!("{}{grouped}", if v < 0.0 { "-" } else { "" })
    } else if v.abs() >= 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

/// Text made safe for a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_formatted_for_reading() {
        assert_eq!(number(Method::GeomeanSpeedup, 2.3612), "2.36x");
        assert_eq!(
            shown(Method::Range, Measured::Range(1.5, 2.0)),
            "1.50x-2.00x"
        );
        assert_eq!(plain(1234567.0), "1,234,567");
        assert_eq!(plain(-1000.0), "-1,000");
        assert_eq!(plain(5408.33), "5408.3");
        assert_eq!(plain(0.25), "0.250");
    }

    fn claim(body: &str) -> Result<Claim, String> {
        let file: ClaimFile = toml::from_str(&format!(
            "id = 'c'\ntext = 't'\nlines = 1527\nreason = 'r'\n{body}"
        ))
        .map_err(|e| e.to_string())?;
        Claim::new(file, Some("exp"))
    }

    #[test]
    fn claims_take_exactly_the_keys_of_their_method() {
        let c = claim(
            "paper = 2.36\ncompute = 'geomean_speedup'\nbaseline = { schedule = 'VM' }\n\
             subject = { schedule = 'SparseWeaver' }\npair_by = ['graph']",
        )
        .unwrap();
        let (experiment, computation) = c.measure.unwrap();
        assert_eq!(
            (experiment.as_str(), computation.metric.as_str()),
            ("exp", "cycles")
        );
        assert_eq!(claim("paper = 'stable'").unwrap().measure, None);
        let e = |body: &str| claim(body).err().unwrap();
        assert!(e("paper = 1\ncompute = 'ratio'\nsubject = { a = 1 }").contains("needs `baseline`"));
        assert!(e("paper = 1\ncompute = 'value'\npair_by = []").contains("takes no `pair_by`"));
        assert!(e("paper = 1\ncompute = 'range'\nbaseline = {a=1}\nsubject = {a=2}\npair_by = []\ngroup_by = []")
            .contains("takes no `group_by`"));
        assert!(e("paper = 1\nwhere = { a = 1 }").contains("where without `compute`"));
        assert!(e("paper = 'x'\ncompute = 'value'\nexpect = 'within 5%'").contains("as a number"));
        assert!(
            e("paper = 1\ncompute = 'value'\nexpect = 'roughly'").contains("expect = \"roughly\"")
        );
        assert!(e("paper = 1\ncompute = 'value'\nwhere = { a = [] }")
            .contains("where.a: an empty list"));
        assert!(e("paper = 1\ncompute = 'mean'").contains("unknown variant `mean`"));
    }
}
