//! The paper file (`wsim experiment report`'s input, docs/EXPERIMENTS.md, "The paper
//! file"): read, and every claim and figure checked against the experiment files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::Deserialize;

use super::compute::{Computation, Expect, Filter, Method, Stated};
use crate::readings::Readings;

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
pub(super) struct HeadlineFile {
    pub(super) title: String,
    #[serde(default)]
    pub(super) text: String,
    pub(super) claims: Vec<String>,
}

/// Free Markdown under a heading.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Block {
    pub(super) title: String,
    pub(super) text: String,
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
    pub(super) headline: Option<HeadlineFile>,
    pub(super) closing: Vec<Block>,
    /// The experiment files, by name.
    pub(super) files: BTreeMap<String, ExperimentFile>,
}

/// An experiment file as a paper sees it.
pub(super) struct ExperimentFile {
    pub(super) path: PathBuf,
    plots: Vec<String>,
    /// Whether it has `[profiles.NAME]`.
    pub(super) profiled: bool,
}

/// The experiments a paper may name: every experiment file (one with `[[programs]]`) in
/// a directory, by name.
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
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("cannot read {}", file.display()))?;
        let doc: toml::Table =
            toml::from_str(&text).with_context(|| format!("{}", file.display()))?;
        if !doc.contains_key("programs") {
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
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
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
            sections.push(Section {
                title: section.title,
                text: section.text,
                figures,
                claims,
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
                problems.push(format!("profiles[{i}] = {p:?} is not a profile's name"));
            } else if profiles[..i].contains(p) {
                problems.push(format!("profiles[{i}]: `{p}` is named twice"));
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
    pub(super) fn experiments(&self) -> BTreeSet<&str> {
        let mut names = BTreeSet::new();
        for section in &self.sections {
            names.extend(section.figures.iter().map(|f| f.experiment.as_str()));
            names.extend(
                section
                    .claims
                    .iter()
                    .filter_map(|c| c.measure.as_ref().map(|(e, _)| e.as_str())),
            );
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

#[cfg(test)]
mod tests {
    use super::*;

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
