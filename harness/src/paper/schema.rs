//! The paper file (`wsim experiment report`'s input, docs/EXPERIMENTS.md, "The paper
//! file"): read, and every claim and figure checked against the experiment files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::Deserialize;

pub use super::claim::Claim;
use super::claim::ClaimFile;
use super::compute::{Expect, Stated};
use super::numbers::{unused, Allowed, Keys, NumberFile, Text};
use crate::experiment::Outline;
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
    /// When a claim the paper states as a number counts as reproduced: `within P%`.
    reproduced: Option<String>,
    /// Numbers the introduction, the headline's text and the closing sections cite.
    #[serde(default)]
    numbers: BTreeMap<String, NumberFile>,
    /// Numbers the texts may state that no table gives (a configuration's size, a scale),
    /// each with where it comes from.
    #[serde(default)]
    literals: BTreeMap<String, String>,
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
struct Block {
    title: String,
    text: String,
}

/// The headline table's title, text and claims.
pub(super) struct Headline {
    pub(super) title: String,
    pub(super) text: Text,
    pub(super) claims: Vec<String>,
}

/// `[sections.per_graph]`: the section's claims on each graph, and over each subset of
/// the graphs of a size (the paper's "seven" of Table 4.3's nine).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerGraph {
    pub profile: String,
    /// The reading whose rows it reads (default: the default reading's).
    pub reading: Option<String>,
    pub subsets: usize,
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
    /// Numbers the section's text cites.
    #[serde(default)]
    numbers: BTreeMap<String, NumberFile>,
    per_graph: Option<PerGraph>,
    /// Tables of two experiments' orders of items (docs/EXPERIMENTS.md, "Rankings").
    #[serde(default)]
    rankings: Vec<super::rankings::RankingFile>,
}

/// A plot of an experiment, embedded in a section.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Figure {
    pub experiment: String,
    pub plot: String,
}

pub struct Section {
    pub title: String,
    pub text: Text,
    /// Its claims' experiment unless they name another.
    pub experiment: Option<String>,
    pub figures: Vec<Figure>,
    pub claims: Vec<Claim>,
    pub per_graph: Option<PerGraph>,
    pub rankings: Vec<super::rankings::Ranking>,
}

/// A paper file, read and checked against the experiment files.
pub struct Paper {
    pub path: PathBuf,
    pub title: String,
    pub introduction: Text,
    /// The profiles read, in the order of their columns.
    pub profiles: Vec<String>,
    pub readings: Option<Readings>,
    pub sections: Vec<Section>,
    pub(super) headline: Option<Headline>,
    pub(super) closing: Vec<(String, Text)>,
    /// A claim stated as a number is reproduced within this fraction of it.
    pub reproduced: Option<f64>,
    /// The experiment files, by name.
    pub(super) files: BTreeMap<String, Outline>,
}

/// The places of the page's texts: the keys of their filled texts, and how messages
/// name them.
pub(super) mod at {
    pub fn introduction() -> String {
        "introduction".into()
    }
    pub fn section(title: &str) -> String {
        format!("section `{title}`: text")
    }
    pub fn reason(id: &str) -> String {
        format!("claim `{id}`: reason")
    }
    pub fn headline() -> String {
        "headline.text".into()
    }
    pub fn closing(title: &str) -> String {
        format!("closing `{title}`")
    }
    pub fn ranking(title: &str, index: usize, group: &str) -> String {
        format!("section `{title}`: rankings[{index}]: reasons.{group}")
    }
}

/// The experiments a paper may name: every experiment file (one with `[[programs]]` or
/// `[external]`) in a directory, by name, read through the experiment file's own reader.
fn experiments(dir: &Path, paper: &Path) -> anyhow::Result<BTreeMap<String, Outline>> {
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
        let Some(outline) = crate::experiment::outline(&file)? else {
            continue;
        };
        let name = outline.name.clone();
        if found.insert(name.clone(), outline).is_some() {
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
        // The paper's own values may be stated in any text.
        let paper_values: Vec<f64> = (file.sections.iter())
            .flat_map(|s| &s.claims)
            .filter_map(|c| match c.paper {
                Stated::Number(n) => Some(n),
                Stated::Text(_) => None,
            })
            .collect();
        let allowed = Allowed {
            literals: &file.literals,
            paper: &paper_values,
        };
        let empty = Text::default();
        let mut text = |what: &str, template: &str, numbers, base: &Keys| {
            Text::new(template, numbers, base, &allowed).unwrap_or_else(|e| {
                problems.push(format!("{what}: {e}"));
                empty.clone()
            })
        };
        let section_base = |experiment: &Option<String>| Keys {
            experiment: experiment.clone(),
            ..Keys::default()
        };
        let mut texts = Vec::new();
        for section in &file.sections {
            let base = section_base(&section.experiment);
            texts.push(text(
                &at::section(&section.title),
                &section.text,
                &section.numbers,
                &base,
            ));
        }
        let none = Keys::default();
        let introduction = text(
            &at::introduction(),
            &file.introduction,
            &file.numbers,
            &none,
        );
        let headline = (file.headline.as_ref()).map(|h| Headline {
            title: h.title.clone(),
            text: text(&at::headline(), &h.text, &file.numbers, &none),
            claims: h.claims.clone(),
        });
        let closing: Vec<(String, Text)> = (file.closing.iter())
            .map(|b| {
                (
                    b.title.clone(),
                    text(&at::closing(&b.title), &b.text, &file.numbers, &none),
                )
            })
            .collect();
        let mut top: Vec<&Text> = vec![&introduction];
        top.extend(headline.as_ref().map(|h| &h.text));
        top.extend(closing.iter().map(|(_, t)| t));
        if let Some(name) = unused(&file.numbers, &top) {
            problems.push(format!("numbers.{name}: no text uses it"));
        }
        for (section, text) in file.sections.iter().zip(&texts) {
            if let Some(name) = unused(&section.numbers, &[text]) {
                problems.push(format!(
                    "section `{}`: number `{name}`: its text does not use it",
                    section.title
                ));
            }
        }
        for (section, section_text) in file.sections.into_iter().zip(texts) {
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
                match Claim::new(claim, section.experiment.as_deref(), &allowed) {
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
                match super::rankings::Ranking::new(file) {
                    Ok(mut r) => {
                        // Its reasons are texts: each number computed, as a claim's are.
                        let base = section_base(&section.experiment);
                        let mut read = true;
                        for (group, reason) in &r.file.reasons {
                            match Text::new(reason, &r.file.numbers, &base, &allowed) {
                                Ok(t) => {
                                    r.reasons.insert(group.clone(), t);
                                }
                                Err(e) => {
                                    read = false;
                                    problems.push(format!("{at}: reasons.{group}: {e}"))
                                }
                            }
                        }
                        // A reason that could not be read uses none of its numbers.
                        let texts: Vec<&Text> = r.reasons.values().collect();
                        if let Some(name) = unused(&r.file.numbers, &texts).filter(|_| read) {
                            problems.push(format!("{at}: number `{name}`: no reason uses it"));
                        }
                        orders.push(r)
                    }
                    Err(e) => problems.push(format!("{at}: {e}")),
                }
            }
            sections.push(Section {
                title: section.title,
                text: section_text,
                experiment: section.experiment,
                figures,
                claims,
                per_graph: section.per_graph,
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
        let reproduced = match file.reproduced.as_deref().map(str::parse::<Expect>) {
            None => None,
            Some(Ok(Expect::Within(p))) => Some(p),
            Some(_) => {
                problems.push("reproduced: expected \"within P%\"".into());
                None
            }
        };
        if let Some(headline) = &headline {
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
        let paper = Paper {
            path: path.to_path_buf(),
            title: file.title,
            introduction,
            profiles,
            readings,
            sections,
            headline,
            closing,
            reproduced,
            files: known,
        };
        paper.check_numbers(&dir)?;
        Ok(paper)
    }

    /// Every text of the page, each with its place: the key of its filled text and the
    /// start of its messages.
    pub(super) fn texts(&self) -> Vec<(String, &Text)> {
        let mut texts = vec![(at::introduction(), &self.introduction)];
        for section in &self.sections {
            texts.push((at::section(&section.title), &section.text));
            texts.extend((section.claims.iter()).map(|c| (at::reason(&c.id), &c.reason)));
            for (i, r) in section.rankings.iter().enumerate() {
                texts.extend(
                    (r.reasons.iter()).map(|(g, t)| (at::ranking(&section.title, i, g), t)),
                );
            }
        }
        texts.extend(self.headline.iter().map(|h| (at::headline(), &h.text)));
        texts.extend((self.closing.iter()).map(|(title, text)| (at::closing(title), text)));
        texts
    }

    /// Every number's experiment, profile and reading exist, and every per-graph
    /// table's profile (all problems at once).
    fn check_numbers(&self, dir: &Path) -> anyhow::Result<()> {
        let mut problems = Vec::new();
        for (at, text) in self.texts() {
            for n in &text.numbers {
                let at = format!("{at}: number `{}`", n.name);
                if !self.files.contains_key(&n.experiment) {
                    problems.push(format!(
                        "{at}: unknown experiment `{}` (the experiments in {})",
                        n.experiment,
                        dir.display()
                    ));
                }
                if !self.profiles.contains(&n.profile) {
                    problems.push(format!(
                        "{at}: profile `{}` is not one the report reads ({})",
                        n.profile,
                        self.profiles.join(", ")
                    ));
                }
                match (&n.reading, &self.readings) {
                    (Some(r), None) => problems.push(format!(
                        "{at}: reading `{r}`, and the paper file names no readings file"
                    )),
                    (Some(r), Some(readings)) if readings.get(r).is_none() => {
                        problems.push(format!(
                            "{at}: no reading `{r}` (the readings: {})",
                            readings.names()
                        ))
                    }
                    _ => {}
                }
            }
        }
        for section in &self.sections {
            if let Some(per) = &section.per_graph {
                let at = format!("section `{}`: per_graph", section.title);
                if !self.profiles.contains(&per.profile) {
                    problems.push(format!(
                        "{at}: profile `{}` is not one the report reads",
                        per.profile
                    ));
                }
                if let (Some(r), Some(readings)) = (&per.reading, &self.readings) {
                    if readings.get(r).is_none() {
                        problems.push(format!("{at}: no reading `{r}` ({})", readings.names()));
                    }
                }
                if per.subsets == 0 {
                    problems.push(format!("{at}: subsets = 0 (a subset has a graph at least)"));
                }
            }
        }
        if !problems.is_empty() {
            bail!("{}:\n  {}", self.path.display(), problems.join("\n  "));
        }
        Ok(())
    }

    /// The experiments its claims, figures and numbers read, each once, by name.
    pub(super) fn experiments(&self) -> BTreeSet<&str> {
        let mut names = BTreeSet::new();
        for (_, text) in self.texts() {
            names.extend(text.numbers.iter().map(|n| n.experiment.as_str()));
        }
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
