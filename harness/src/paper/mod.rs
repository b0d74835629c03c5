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

mod claim;
mod compute;
mod figures;
mod numbers;
mod rankings;
mod render;
mod rows;
mod schema;
mod value;

use anyhow::{anyhow, bail, Context};

use crate::readings::Readings;
use crate::stats::Cell;
use crate::table::Table;
pub use compute::{Computation, Expect, Filter, Measured, Method, Stated};
use render::{claims_table, header, headline_table};
use schema::at;
pub use schema::{Claim, Figure, Paper, Section, PROFILES};

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
pub(super) type Tables<'p> = BTreeMap<(String, &'p str), (PathBuf, Table, Option<Vec<String>>)>;

/// wsim's value of a claim in one profile: the default reading's (none when the table
/// has only other readings' rows, a table measured before the default machine was), and
/// its band across the readings the experiment ran under.
#[derive(Clone, Debug)]
pub struct Value {
    pub default: Option<Measured>,
    pub band: Option<Band>,
    /// The default's value reads a sampled run's estimate (marked `~` on the page).
    pub sampled: bool,
}

/// A claim's values under each reading that ran (the default first), the readings
/// whose runs are not in the table, and those that ran but do not concern the claim
/// (their rows are the default's: a whole machine's reading, the same for these runs).
#[derive(Clone, Debug)]
pub struct Band {
    pub values: Vec<(String, Measured)>,
    pub not_run: Vec<String>,
    pub unchanged: Vec<String>,
}

/// Each text's words with its numbers filled in, by its place (schema::at).
pub(super) type Filled = BTreeMap<String, String>;

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
/// Each claim on `experiment`, computed from `table` (its rows as a run or a validation
/// made them; `path` names it in messages): the claim's id and the default reading's
/// value, or why there is none.
fn claims_of(
    paper: &Paper,
    experiment: &str,
    table: &Table,
    path: &Path,
) -> Vec<(String, anyhow::Result<Measured>)> {
    let table = match &paper.readings {
        Some(r) => {
            let default = &r.default_reading().name;
            reading_rows(&table.with_default("reading", default), r, default)
        }
        None => table.clone(),
    };
    (claims_on(paper, experiment))
        .map(|(id, computation)| (id.clone(), computation.compute(&table, path)))
        .collect()
}

/// The claims that read `experiment`: each one's id and computation.
fn claims_on<'p>(
    paper: &'p Paper,
    experiment: &'p str,
) -> impl Iterator<Item = (&'p String, &'p Computation)> {
    (paper.sections.iter().flat_map(|s| &s.claims)).filter_map(move |claim| {
        let (on, computation) = claim.measure.as_ref()?;
        (on == experiment).then_some((&claim.id, computation))
    })
}

/// Each claim on `experiment` from its detailed table and from its sampled one (`wsim
/// experiment validate-sampling --paper`): a row per claim with both values and the
/// sampled one's error (a range's: its end that moved most), or why a side has none.
pub fn compare_claims(paper: &Paper, experiment: &str, detailed: &Table, sampled: &Table) -> Table {
    let named = |how: &str| PathBuf::from(format!("{experiment} ({how})"));
    let d = claims_of(paper, experiment, detailed, &named("detailed"));
    let s = claims_of(paper, experiment, sampled, &named("sampled"));
    let shown = |v: &Measured| match *v {
        Measured::One(x) => Cell::Fixed(x, 4),
        Measured::Range(lo, hi) => Cell::Text(format!("{lo:.4}-{hi:.4}")),
    };
    let mut table = Table {
        header: ["claim", "detailed", "sampled", "error_pct", "note"]
            .map(String::from)
            .to_vec(),
        rows: Vec::new(),
    };
    for ((id, d), (_, s)) in d.into_iter().zip(s) {
        let row = match (d, s) {
            (Ok(d), Ok(s)) => {
                let ((dl, dh), (sl, sh)) = (d.bounds(), s.bounds());
                let (low, high) = (100.0 * (sl / dl - 1.0), 100.0 * (sh / dh - 1.0));
                let error = if low.abs() > high.abs() { low } else { high };
                vec![shown(&d), shown(&s), Cell::Fixed(error, 3), Cell::Empty]
            }
            (d, s) => {
                let why = [("detailed", d.err()), ("sampled", s.err())]
                    .into_iter()
                    .filter_map(|(how, e)| e.map(|e| format!("{how}: {e:#}")))
                    .collect::<Vec<_>>()
                    .join("; ");
                vec![Cell::Empty, Cell::Empty, Cell::Empty, Cell::Text(why)]
            }
        };
        table.rows.push([vec![Cell::Text(id)], row].concat());
    }
    table
}

/// Whether any claim of the paper reads `experiment`.
pub fn has_claims_on(paper: &Paper, experiment: &str) -> bool {
    claims_on(paper, experiment).next().is_some()
}

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
            default: Some(computation.compute(table, path)?),
            band: None,
            sampled: computation.sampled(table),
        });
    };
    let default = readings.default_reading();
    let default_rows = reading_rows(table, readings, &default.name);
    // No rows of the default: the claim's band is the other readings' alone.
    let (value, missing) = match computation.compute(&default_rows, path) {
        Ok(v) => (Some(v), None),
        Err(e) if e.downcast_ref::<compute::NoRows>().is_some() => (None, Some(e)),
        Err(e) => return Err(e),
    };
    let mut band = Band {
        values: value
            .map(|v| (default.name.clone(), v))
            .into_iter()
            .collect(),
        not_run: Vec::new(),
        unchanged: Vec::new(),
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
            // Without the default's rows there is no value of it to repeat: not shown.
            if value.is_some() {
                band.unchanged.push(name.clone());
            }
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
    if let (Some(e), true) = (missing, band.values.is_empty()) {
        return Err(e);
    }
    Ok(Value {
        default: value,
        band: Some(band),
        sampled: computation.sampled(&default_rows),
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
        let looked: BTreeSet<String> = (paper.experiments().into_iter())
            .flat_map(|e| {
                let profiled = paper.files[e].profiled;
                (paper.profiles.iter()).map(move |p| places.table(e, p, profiled))
            })
            .map(|p| p.display().to_string())
            .collect();
        bail!(
            "{}: no experiment's table was found (looked for {}): run the experiments first \
             (wsim experiment run), or give --results their outputs' directory",
            paper.path.display(),
            looked.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    // Every claim's value in every profile that ran, or every problem at once.
    let mut values: BTreeMap<(&str, &str), Value> = BTreeMap::new();
    // Claims without rows in a profile's table: "not run" there, if another profile's
    // table has them (a typo has rows in none).
    let mut rowless: Vec<(&str, String)> = Vec::new();
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
                Err(e) if e.downcast_ref::<compute::NoRows>().is_some() => rowless.push((
                    &claim.id,
                    format!("claim `{}` ({profile}): {e:#}", claim.id),
                )),
                Err(e) => problems.push(format!("claim `{}` ({profile}): {e:#}", claim.id)),
            }
        }
    }
    for (id, problem) in rowless {
        if !paper
            .profiles
            .iter()
            .any(|p| values.contains_key(&(id, p.as_str())))
        {
            problems.push(problem);
        }
    }
    // Every text's numbers, from the rows each names; a number without its rows is an
    // error, never "not run".
    let mut filled = Filled::new();
    for (place, text) in paper.texts() {
        let mut numbers = BTreeMap::new();
        for n in &text.numbers {
            match number_value(n, &tables, paper.readings.as_ref()) {
                Ok(v) => {
                    numbers.insert(n.name.clone(), n.format.show(v));
                }
                Err(e) => problems.push(format!(
                    "{place}: number `{}` ({}{}): {e:#}",
                    n.name,
                    n.profile,
                    n.reading
                        .as_ref()
                        .map_or(String::new(), |r| format!(", reading {r}"))
                )),
            }
        }
        if numbers.len() == text.numbers.len() {
            filled.insert(place, text.fill(&numbers));
        }
    }
    let mut per_graph = BTreeMap::new();
    for section in &paper.sections {
        if let Some(per) = &section.per_graph {
            match figures::per_graph(paper, section, per, &tables) {
                Ok(table) => {
                    per_graph.insert(section.title.as_str(), table);
                }
                Err(e) => problems.push(format!(
                    "section `{}`: per_graph ({}): {e:#}",
                    section.title, per.profile
                )),
            }
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
    let mut page = header(paper, places, &tables, &filled);
    for section in &paper.sections {
        let _ = write!(page, "\n## {}\n\n", section.title);
        let words = filled[&at::section(&section.title)].trim();
        if !words.is_empty() {
            let _ = write!(page, "{words}\n\n");
        }
        if !section.claims.is_empty() {
            page.push_str(&claims_table(paper, &section.claims, &values, &filled));
            page.push_str(&figures::readings_table(paper, section, &values, &tables));
        }
        if let Some(table) = per_graph.get(section.title.as_str()) {
            page.push_str(table);
        }
        for (i, ranking) in section.rankings.iter().enumerate() {
            let side = |s: &rankings::Side| side_table(&tables, s);
            let reasons: BTreeMap<String, String> = (ranking.reasons.keys())
                .map(|g| {
                    (
                        g.clone(),
                        filled[&at::ranking(&section.title, i, g)].clone(),
                    )
                })
                .collect();
            let text = rankings::markdown(
                ranking,
                &reasons,
                side(&ranking.file.left),
                side(&ranking.file.right),
            )
            .with_context(|| format!("{}: section `{}`", paper.path.display(), section.title))?;
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
                let table = tables.get(&(figure.experiment.clone(), profile));
                let estimated = if table.is_some_and(|(_, t, _)| compute::has_sampled_rows(t)) {
                    "; ~ its table holds sampled runs, whose cycles are estimates"
                } else {
                    ""
                };
                let _ = write!(
                    page,
                    "\n![{plot} ({experiment}{short})]({link})\n\n*{plot}: experiment \
                     {experiment}{long}{estimated}.*\n",
                    plot = figure.plot,
                    experiment = figure.experiment,
                    link = link.to_string_lossy().replace('\\', "/"),
                );
                // The PDF beside the SVG, for a paper.
                let pdf = source.with_extension("pdf");
                if pdf.exists() {
                    let copy = target.with_extension("pdf");
                    let bytes = crate::files::read_input(&pdf, crate::REPORT_BYTES, "a figure")?;
                    crate::files::write_whole(&copy, &bytes)?;
                    written.push(copy);
                }
                written.push(target);
            }
        }
    }
    if let Some(headline) = &paper.headline {
        page.push_str(&headline_table(paper, headline, &values, &filled));
    }
    for (title, _) in &paper.closing {
        let _ = write!(
            page,
            "\n## {title}\n\n{}\n",
            filled[&at::closing(title)].trim()
        );
    }
    crate::files::write_whole(&places.out, page.as_bytes())?;
    written.insert(0, places.out.clone());
    Ok(written)
}

/// A number's value: its computation on the rows of its reading (the default's unless
/// it names one the experiment ran in its profile) of its experiment's table.
fn number_value(
    n: &numbers::Number,
    tables: &Tables,
    readings: Option<&Readings>,
) -> anyhow::Result<Measured> {
    let Some((path, table, names)) = tables.get(&(n.experiment.clone(), n.profile.as_str())) else {
        bail!(
            "experiment `{}` has no table in profile `{}`",
            n.experiment,
            n.profile
        );
    };
    let Some(readings) = readings else {
        return n.computation.compute(table, path);
    };
    let name = match &n.reading {
        None => readings.default_reading().name.as_str(),
        Some(r) if names.as_ref().is_some_and(|ns| ns.contains(r)) => r.as_str(),
        Some(r) => bail!(
            "experiment `{}` does not run reading `{r}` in profile `{}`",
            n.experiment,
            n.profile
        ),
    };
    let reading = readings.get(name).expect("checked when the paper was read");
    let rows = reading_rows(table, readings, name);
    n.computation
        .replaced(&reading.replace)
        .compute(&rows, path)
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
