//! Readings (docs/EXPERIMENTS.md, "Readings"): the choices a paper leaves unstated, written
//! down as data in one file that experiment files and a paper file share. A reading has a
//! name, the paper's lines it rests on, why it is a fair reading, configuration overrides
//! (`set`), perhaps the programs it concerns (`programs`: file-name patterns; the others
//! run as under the default reading), and a claim-time `replace` (a reading that maps a
//! schedule to another one, EM to EM-search: it runs nothing of its own). One reading is
//! the default: the most literal one, whose rows are a claim's value; the others give the
//! band around it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::bail;
use serde::Deserialize;
use wsim_workloads::graph_image::Schedule;

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadingsFile {
    /// The default reading's name.
    default: String,
    readings: Vec<ReadingFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadingFile {
    name: String,
    lines: String,
    justification: String,
    #[serde(default)]
    set: Vec<String>,
    #[serde(default)]
    programs: Vec<String>,
    #[serde(default)]
    replace: BTreeMap<String, BTreeMap<String, String>>,
    /// Readings that together are this one: its overrides, scope and replace are theirs.
    #[serde(default)]
    combines: Vec<String>,
}

/// One reading.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    pub name: String,
    /// The paper's lines it rests on.
    pub lines: String,
    pub justification: String,
    /// `key=value` configuration overrides, after the experiment's own.
    pub set: Vec<String>,
    /// File-name patterns of the programs it runs (empty: every program).
    pub programs: Vec<String>,
    /// At claim time, in the claims' conditions on `schedule`: this schedule for that one.
    pub replace: BTreeMap<String, String>,
    /// The readings it combines (empty: it is one choice).
    pub combines: Vec<String>,
}

impl Reading {
    /// Whether it has runs of its own: it changes the configuration.
    pub fn runs(&self) -> bool {
        !self.set.is_empty()
    }

    /// Whether `program` (a file stem) runs under it: a reading that changes the
    /// configuration runs the programs of its scope; the others' rows are the default's.
    pub fn runs_program(&self, program: &str) -> bool {
        self.runs()
            && (self.programs.is_empty()
                || self.programs.iter().any(|p| crate::matches(p, program)))
    }

    /// The configuration keys it sets.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.set
            .iter()
            .filter_map(|s| s.split_once('=').map(|(k, _)| k.trim()))
    }
}

/// A readings file, read and checked.
#[derive(Clone, Debug)]
pub struct Readings {
    pub path: PathBuf,
    /// In the file's order.
    pub readings: Vec<Reading>,
    /// Index of the default reading.
    default: usize,
}

impl Readings {
    /// Read and check a readings file: unknown keys (with their line), no reading, two
    /// of one name, a name that is not plain, a default that is no reading or that
    /// changes anything, an override that is not `key=value`, a bad program pattern, a
    /// scope without overrides, a replace of another column than `schedule` or naming no
    /// schedule.
    pub fn load(path: &Path) -> anyhow::Result<Readings> {
        let text = crate::files::read_text(path, crate::TEXT_BYTES, "a readings file")?;
        let file: ReadingsFile = toml::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.to_string().trim_end()))?;
        let at = |what: String| anyhow::anyhow!("{}: {what}", path.display());
        if file.readings.is_empty() {
            return Err(at("no [[readings]]: the default reading at least".into()));
        }
        let schedules: BTreeSet<&str> = Schedule::ALL.iter().map(|s| s.name()).collect();
        let mut names = BTreeSet::new();
        let mut readings = Vec::new();
        for (i, r) in file.readings.into_iter().enumerate() {
            let place = format!("readings[{i}] `{}`", r.name);
            if !is_reading_name(&r.name) {
                return Err(at(format!(
                    "readings[{i}]: the name `{}` is not a reading's name (lower-case \
                     letters, digits, - and _)",
                    r.name
                )));
            }
            if !names.insert(r.name.clone()) {
                return Err(at(format!("{place}: a second reading has this name")));
            }
            for (k, item) in r.set.iter().enumerate() {
                if item
                    .split_once('=')
                    .is_none_or(|(key, _)| key.trim().is_empty())
                {
                    return Err(at(format!("{place}: set[{k}] `{item}` is not key=value")));
                }
            }
            for pattern in &r.programs {
                crate::pattern(pattern).map_err(|e| at(format!("{place}: programs: {e:#}")))?;
            }
            if !r.programs.is_empty() && r.set.is_empty() {
                return Err(at(format!(
                    "{place}: `programs` without `set`: a reading runs its programs under \
                     its overrides, and this one has none"
                )));
            }
            let mut replace = BTreeMap::new();
            for (column, map) in r.replace {
                if column != "schedule" {
                    return Err(at(format!(
                        "{place}: replace.{column}: a reading replaces schedules only \
                         (replace.schedule)"
                    )));
                }
                for (from, to) in map {
                    for name in [&from, &to] {
                        if !schedules.contains(name.as_str()) {
                            return Err(at(format!(
                                "{place}: replace.schedule: `{name}` is no schedule (the \
                                 schedules: {})",
                                schedules.iter().copied().collect::<Vec<_>>().join(", ")
                            )));
                        }
                    }
                    if from == to {
                        return Err(at(format!(
                            "{place}: replace.schedule: `{from}` replaced by itself"
                        )));
                    }
                    replace.insert(from, to);
                }
            }
            if !r.combines.is_empty()
                && (!r.set.is_empty() || !r.programs.is_empty() || !replace.is_empty())
            {
                return Err(at(format!(
                    "{place}: `combines` with `set`, `programs` or `replace`: a combined \
                     reading is its readings' choices together, and nothing else"
                )));
            }
            readings.push(Reading {
                name: r.name,
                lines: r.lines,
                justification: r.justification,
                set: r.set,
                programs: r.programs,
                replace,
                combines: r.combines,
            });
        }
        for i in 0..readings.len() {
            if !readings[i].combines.is_empty() {
                readings[i] = combined(&readings, &readings[i]).map_err(at)?;
            }
        }
        let Some(default) = readings.iter().position(|r| r.name == file.default) else {
            return Err(at(format!(
                "default = \"{}\": no such reading (the readings: {})",
                file.default,
                readings
                    .iter()
                    .map(|r| r.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        let d = &readings[default];
        if !d.programs.is_empty() || !d.replace.is_empty() {
            return Err(at(format!(
                "the default reading `{}` has `programs` or `replace`: it is every run's \
                 reading, and every claim's",
                d.name
            )));
        }
        Ok(Readings {
            path: path.to_path_buf(),
            readings,
            default,
        })
    }

    pub fn default_reading(&self) -> &Reading {
        &self.readings[self.default]
    }

    pub fn get(&self, name: &str) -> Option<&Reading> {
        self.readings.iter().find(|r| r.name == name)
    }

    /// The readings' names, for messages.
    pub fn names(&self) -> String {
        (self.readings.iter())
            .map(|r| r.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The readings `choice` names, the default first (it always runs: its rows are the
    /// claims' values), then the others in the file's order; `at` places errors.
    pub fn choose(&self, choice: &Choice, at: &str) -> anyhow::Result<Vec<&Reading>> {
        let names: Vec<&str> = match choice {
            Choice::All => self.readings.iter().map(|r| r.name.as_str()).collect(),
            Choice::Names(names) => {
                for (i, name) in names.iter().enumerate() {
                    if self.get(name).is_none() {
                        bail!(
                            "{at}[{i}]: no reading `{name}` in {} (its readings: {})",
                            self.path.display(),
                            self.names()
                        );
                    }
                    if names[..i].contains(name) {
                        bail!("{at}[{i}]: `{name}` is named twice");
                    }
                }
                names.iter().map(String::as_str).collect()
            }
        };
        let default = self.default_reading();
        let mut chosen = vec![default];
        chosen.extend(
            (self.readings.iter())
                .filter(|r| r.name != default.name && names.contains(&r.name.as_str())),
        );
        Ok(chosen)
    }
}

/// An experiment's choice of readings: `"all"`, or a list of names.
#[derive(Clone, Debug, PartialEq)]
pub enum Choice {
    All,
    Names(Vec<String>),
}

impl<'de> Deserialize<'de> for Choice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let wrong = |what: String| {
            serde::de::Error::custom(format!(
                "readings to run are \"all\" or a list of reading names, not {what}"
            ))
        };
        match toml::Value::deserialize(d)? {
            toml::Value::String(s) if s == "all" => Ok(Choice::All),
            toml::Value::Array(items) => items
                .into_iter()
                .map(|v| match v {
                    toml::Value::String(s) => Ok(s),
                    other => Err(wrong(format!("a list holding {other}"))),
                })
                .collect::<Result<_, _>>()
                .map(Choice::Names),
            other => Err(wrong(other.to_string())),
        }
    }
}

/// `reading` (which combines others) with their choices: every override (no key twice),
/// every replace (no schedule twice), and the scope of those with overrides (every
/// program if one of them has no scope). It combines two readings or more, each a single
/// choice that is not the default.
fn combined(all: &[Reading], reading: &Reading) -> Result<Reading, String> {
    let place = format!("reading `{}`: combines", reading.name);
    if reading.combines.len() < 2 {
        return Err(format!("{place}: two readings or more"));
    }
    let mut out = reading.clone();
    let mut keys = BTreeMap::new();
    let mut every_program = false;
    for (k, name) in reading.combines.iter().enumerate() {
        let Some(part) = all.iter().find(|r| &r.name == name) else {
            return Err(format!("{place}[{k}]: no reading `{name}`"));
        };
        if !part.combines.is_empty() || reading.combines[..k].contains(name) {
            return Err(format!(
                "{place}[{k}]: `{name}` is itself combined, or named twice"
            ));
        }
        if part.set.is_empty() && part.replace.is_empty() {
            return Err(format!(
                "{place}[{k}]: `{name}` changes nothing (the default reading, or one like it)"
            ));
        }
        for key in part.keys() {
            if let Some(other) = keys.insert(key.to_string(), name) {
                return Err(format!("{place}: `{other}` and `{name}` both set `{key}`"));
            }
        }
        for (from, to) in &part.replace {
            if out.replace.insert(from.clone(), to.clone()).is_some() {
                return Err(format!("{place}: two readings replace `{from}`"));
            }
        }
        if part.runs() {
            every_program |= part.programs.is_empty();
            out.programs.extend(part.programs.iter().cloned());
        }
        out.set.extend(part.set.iter().cloned());
    }
    if every_program {
        out.programs.clear();
    }
    Ok(out)
}

fn is_reading_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> anyhow::Result<Readings> {
        let dir = std::env::temp_dir().join(format!("wsim-readings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("r{}.toml", crate::sha256(text.as_bytes())));
        std::fs::write(&path, text).unwrap();
        let r = Readings::load(&path);
        std::fs::remove_file(&path).unwrap();
        r
    }

    const GOOD: &str = r#"
default = "literal"
[[readings]]
name = "literal"
lines = "1300"
justification = "as written"
[[readings]]
name = "em-search"
lines = "1423"
justification = "searchVID"
replace = { schedule = { EM = "EM-search" } }
[[readings]]
name = "eghw-pipelined"
lines = "1628"
justification = "adding pipelines"
set = ["weaver.eghw_reads=pipelined"]
programs = ["*_eghw_*"]
"#;

    #[test]
    fn a_combined_reading_is_its_readings_choices_together() {
        let with = |extra: &str| load(&format!("{GOOD}{extra}"));
        let r = with(
            "[[readings]]\nname = 'both'\nlines = '-'\njustification = 'j'\n\
             combines = ['em-search', 'eghw-pipelined']\n",
        )
        .unwrap();
        let both = r.get("both").unwrap();
        assert_eq!(both.set, ["weaver.eghw_reads=pipelined"]);
        assert_eq!(both.programs, ["*_eghw_*"]);
        assert_eq!(
            both.replace.get("EM").map(String::as_str),
            Some("EM-search")
        );
        assert_eq!(both.combines, ["em-search", "eghw-pipelined"]);
        let e = |extra: &str| format!("{:#}", with(extra).unwrap_err());
        let part = "[[readings]]\nname = 'x'\nlines = '-'\njustification = 'j'\n";
        assert!(e(&format!("{part}combines = ['eghw-pipelined']")).contains("two readings or more"));
        assert!(e(&format!("{part}combines = ['literal', 'em-search']"))
            .contains("`literal` changes nothing"));
        assert!(e(&format!("{part}combines = ['em-search', 'nope']")).contains("no reading `nope`"));
        assert!(e(&format!(
            "{part}set = ['a=1']\ncombines = ['em-search', 'eghw-pipelined']"
        ))
        .contains("`combines` with `set`"));
        let twice = format!(
            "[[readings]]\nname = 'y'\nlines = '-'\njustification = 'j'\n\
             set = ['weaver.eghw_reads=line-serial']\n{part}combines = ['y', 'eghw-pipelined']"
        );
        assert!(
            e(&twice).contains("both set `weaver.eghw_reads`"),
            "{}",
            e(&twice)
        );
    }

    #[test]
    fn readings_run_their_scope_and_the_default_always_comes_first() {
        let r = load(GOOD).unwrap();
        assert_eq!(r.default_reading().name, "literal");
        let eghw = r.get("eghw-pipelined").unwrap();
        assert!(eghw.runs_program("pr_eghw_pull") && !eghw.runs_program("pr_sparseweaver_pull"));
        assert!(!r.get("em-search").unwrap().runs_program("pr_em_pull"));
        let names = |c: &Choice| -> Vec<String> {
            r.choose(c, "readings.run")
                .unwrap()
                .iter()
                .map(|r| r.name.clone())
                .collect()
        };
        assert_eq!(
            names(&Choice::All),
            ["literal", "em-search", "eghw-pipelined"]
        );
        assert_eq!(
            names(&Choice::Names(vec!["eghw-pipelined".into()])),
            ["literal", "eghw-pipelined"]
        );
        let e = r
            .choose(
                &Choice::Names(vec!["sockets".into()]),
                "x.toml: readings.run",
            )
            .unwrap_err();
        assert!(
            format!("{e}").contains("x.toml: readings.run[0]: no reading `sockets`"),
            "{e}"
        );
    }

    #[test]
    fn a_readings_file_names_what_is_wrong_and_where() {
        let bad = |from: &str, to: &str, wanted: &str| {
            let e = format!("{:#}", load(&GOOD.replace(from, to)).unwrap_err());
            assert!(e.contains(wanted), "{e}");
        };
        bad(
            "EM-search\" }",
            "EM-serch\" }",
            "readings[1] `em-search`: replace.schedule: `EM-serch` is no schedule",
        );
        bad(
            "replace = { schedule",
            "replace = { algorithm",
            "replace.algorithm: a reading replaces schedules only",
        );
        bad(
            "default = \"literal\"",
            "default = \"plain\"",
            "default = \"plain\": no such reading",
        );
        bad(
            "set = [\"weaver.eghw_reads=pipelined\"]",
            "",
            "`programs` without `set`",
        );
        bad(
            "set = [\"weaver",
            "set = [\"weaver.eghw_reads\", \"weaver",
            "set[0] `weaver.eghw_reads` is not key=value",
        );
        bad(
            "name = \"em-search\"",
            "name = \"literal\"",
            "readings[1] `literal`: a second reading",
        );
        bad(
            "name = \"em-search\"",
            "name = \"EM search\"",
            "the name `EM search` is not",
        );
        bad(
            "justification = \"searchVID\"",
            "justification = \"searchVID\"\ncolour = 1",
            "unknown field `colour`",
        );
        bad(
            "programs = [\"*_eghw_*\"]",
            "programs = [\"[\"]",
            "programs: `[` is not a pattern",
        );
        bad(
            "lines = \"1300\"\njustification = \"as written\"",
            "lines = \"1300\"\njustification = \"as written\"\nset = [\"a=1\"]\nprograms = [\"x\"]",
            "the default reading `literal` has `programs`",
        );
    }
}
