//! The baseline file (TOML, docs/REGRESS.md): the runs as written, and each run's
//! `[run.recorded]` table. Read with the key path in every error; written back with
//! `toml_edit`, so the comments and layout a reviewer sees survive a `record`.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail};
use toml_edit::{DocumentMut, Item, Table, TableLike};

use super::stats::{self, Value};
use crate::matches as glob;
use wsim_workloads::{GraphOptions, Source};

/// How far a statistic may move from its recorded value and still pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tolerance {
    Exact,
    /// Percent of the recorded value.
    Relative(f64),
    /// In the statistic's unit (a rate's is the fraction: 0.01 is one percentage point).
    Absolute(f64),
}

impl Tolerance {
    pub fn admits(self, baseline: Value, now: Value) -> bool {
        let (b, n) = (baseline.as_f64(), now.as_f64());
        match self {
            Tolerance::Exact => baseline == now,
            Tolerance::Relative(pct) => (n - b).abs() <= pct / 100.0 * b.abs(),
            Tolerance::Absolute(d) => (n - b).abs() <= d,
        }
    }
}

impl fmt::Display for Tolerance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tolerance::Exact => f.write_str("exact"),
            Tolerance::Relative(p) => write!(f, "±{p}%"),
            Tolerance::Absolute(d) => write!(f, "±{d}"),
        }
    }
}

impl serde::Serialize for Tolerance {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// What a run recorded: provenance, the inputs' fingerprints, and the statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// The wsim version and git revision that recorded it.
    pub wsim: String,
    pub revision: String,
    pub program_sha256: String,
    /// `Config::hash` of the resolved configuration (preset and `set`s).
    pub config_hash: String,
    /// A graph program's graph: its file's (or generator spec's) bytes and the options.
    pub graph_sha256: Option<String>,
    pub exit_status: u32,
    pub stats: Vec<(String, Value)>,
}

impl Recorded {
    /// The same measurement, whoever recorded it.
    pub fn same_as(&self, other: &Recorded) -> bool {
        (
            &self.program_sha256,
            &self.config_hash,
            &self.graph_sha256,
            self.exit_status,
            &self.stats,
        ) == (
            &other.program_sha256,
            &other.config_hash,
            &other.graph_sha256,
            other.exit_status,
            &other.stats,
        )
    }
}

/// One run of a baseline, as its file states it (paths resolved).
#[derive(Clone, Debug)]
pub struct RunSpec {
    pub name: String,
    pub program: PathBuf,
    pub config: Option<PathBuf>,
    pub set: Vec<String>,
    /// The graph options (the `graph` path resolved).
    pub graph: GraphOptions,
    /// Patterns of the statistics to record.
    pub stats: Vec<String>,
    /// Tolerances by statistic pattern: the run's first, then the file's.
    pub tolerance: Vec<(String, Tolerance)>,
    pub recorded: Option<Recorded>,
    /// Position in the file's `run` array.
    index: usize,
}

impl RunSpec {
    /// The tolerance of a statistic: the first pattern that matches it, else exact.
    pub fn tolerance_of(&self, stat: &str) -> Tolerance {
        self.tolerance
            .iter()
            .find(|(pattern, _)| glob(pattern, stat))
            .map_or(Tolerance::Exact, |(_, t)| *t)
    }

    /// Whether the run records `stat`.
    pub fn selects(&self, stat: &str) -> bool {
        self.stats.iter().any(|p| glob(p, stat))
    }
}

/// A baseline file: its text as parsed (to write back) and its runs.
pub struct File {
    pub path: PathBuf,
    pub doc: DocumentMut,
    pub runs: Vec<RunSpec>,
}

const TOP_KEYS: &[&str] = &["root", "stats", "tolerance", "run"];
const RUN_KEYS: &[&str] = &[
    "name",
    "program",
    "config",
    "set",
    "graph",
    "load",
    "source",
    "iterations",
    "stats",
    "tolerance",
    "recorded",
];
const RECORDED_KEYS: &[&str] = &[
    "wsim",
    "revision",
    "program_sha256",
    "config_hash",
    "graph_sha256",
    "exit_status",
    "stats",
];

/// Where a key is, for error messages: `FILE: run 3 (name): key`.
struct At<'a> {
    file: &'a Path,
    run: Option<(usize, &'a str)>,
}

impl At<'_> {
    fn err(&self, key: &str, what: impl fmt::Display) -> anyhow::Error {
        match self.run {
            Some((i, name)) => anyhow!(
                "{}: run {} ({name}): `{key}`: {what}",
                self.file.display(),
                i + 1
            ),
            None => anyhow!("{}: `{key}`: {what}", self.file.display()),
        }
    }

    fn unknown_keys(
        &self,
        table: &dyn TableLike,
        prefix: &str,
        known: &[&str],
    ) -> anyhow::Result<()> {
        match table.iter().find(|(k, _)| !known.contains(k)) {
            Some((k, _)) => Err(self.err(
                &format!("{prefix}{k}"),
                format!("unknown key (keys here: {})", known.join(", ")),
            )),
            None => Ok(()),
        }
    }

    fn string(&self, item: &Item, key: &str) -> anyhow::Result<String> {
        item.as_str().map(str::to_string).ok_or_else(|| {
            self.err(
                key,
                format!("expected a string, found {}", item.type_name()),
            )
        })
    }

    fn strings(&self, item: &Item, key: &str) -> anyhow::Result<Vec<String>> {
        let wrong = || {
            self.err(
                key,
                format!("expected an array of strings, found {}", item.type_name()),
            )
        };
        let array = item.as_array().ok_or_else(wrong)?;
        array
            .iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(wrong))
            .collect()
    }

    fn integer(&self, item: &Item, key: &str) -> anyhow::Result<u64> {
        item.as_integer()
            .and_then(|n| u64::try_from(n).ok())
            .ok_or_else(|| {
                self.err(
                    key,
                    format!("expected a non-negative integer, found {}", describe(item)),
                )
            })
    }

    fn u32(&self, item: &Item, key: &str) -> anyhow::Result<u32> {
        let n = self.integer(item, key)?;
        u32::try_from(n).map_err(|_| self.err(key, format!("{n} does not fit in 32 bits")))
    }

    fn table<'i>(&self, item: &'i Item, key: &str) -> anyhow::Result<&'i dyn TableLike> {
        item.as_table_like()
            .ok_or_else(|| self.err(key, format!("expected a table, found {}", item.type_name())))
    }

    fn tolerances(&self, item: &Item, key: &str) -> anyhow::Result<Vec<(String, Tolerance)>> {
        let table = self.table(item, key)?;
        table
            .iter()
            .map(|(stat, v)| {
                let key = format!("{key}.{stat}");
                stats::check_pattern(stat).map_err(|e| self.err(&key, e))?;
                Ok((stat.to_string(), self.tolerance(v, &key)?))
            })
            .collect()
    }

    /// `"exact"`, `"2%"` (relative) or a number (absolute).
    fn tolerance(&self, item: &Item, key: &str) -> anyhow::Result<Tolerance> {
        let bad = || {
            self.err(
                key,
                format!(
                    "expected \"exact\", a percentage such as \"2%\" or a non-negative number, found {}",
                    describe(item)
                ),
            )
        };
        let t = if let Some(s) = item.as_str() {
            match s.trim().strip_suffix('%') {
                _ if s.trim() == "exact" => Tolerance::Exact,
                Some(p) => Tolerance::Relative(p.trim().parse().map_err(|_| bad())?),
                None => return Err(bad()),
            }
        } else if let Some(n) = item.as_integer() {
            Tolerance::Absolute(n as f64)
        } else if let Some(x) = item.as_float() {
            Tolerance::Absolute(x)
        } else {
            return Err(bad());
        };
        match t {
            Tolerance::Relative(x) | Tolerance::Absolute(x) if !(x >= 0.0 && x.is_finite()) => {
                Err(bad())
            }
            t => Ok(t),
        }
    }

    fn recorded(&self, item: &Item) -> anyhow::Result<Recorded> {
        let table = self.table(item, "recorded")?;
        self.unknown_keys(table, "recorded.", RECORDED_KEYS)?;
        let get = |key: &str| {
            table
                .get(key)
                .ok_or_else(|| self.err(&format!("recorded.{key}"), "missing"))
        };
        let string = |key: &str| self.string(get(key)?, &format!("recorded.{key}"));
        // In the order the keys are written, so the first missing one is named.
        let (wsim, revision) = (string("wsim")?, string("revision")?);
        let (program_sha256, config_hash) = (string("program_sha256")?, string("config_hash")?);
        let graph_sha256 = match table.get("graph_sha256") {
            Some(v) => Some(self.string(v, "recorded.graph_sha256")?),
            None => None,
        };
        let exit_status = self.u32(get("exit_status")?, "recorded.exit_status")?;
        let stats = self
            .table(get("stats")?, "recorded.stats")?
            .iter()
            .map(|(name, v)| {
                let key = format!("recorded.stats.{name}");
                stats::check_pattern(name).map_err(|e| self.err(&key, e))?;
                // Hit rates are the only fractions; every other statistic counts.
                let value = if let Some(x) = v.as_float() {
                    if !name.ends_with("_hit_rate") {
                        let found = format!("expected a count (a whole number), found {x}");
                        return Err(self.err(&key, found));
                    }
                    if !(0.0..=1.0).contains(&x) {
                        let found = format!("expected a hit rate from 0 to 1, found {x}");
                        return Err(self.err(&key, found));
                    }
                    Value::Rate(x)
                } else {
                    Value::Count(self.integer(v, &key)?)
                };
                Ok((name.to_string(), value))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(Recorded {
            wsim,
            revision,
            program_sha256,
            config_hash,
            graph_sha256,
            exit_status,
            stats,
        })
    }
}

/// What a TOML item is, with its value when short (for "found ..." in errors).
fn describe(item: &Item) -> String {
    match item.as_value() {
        Some(v) if !v.is_array() && !v.is_inline_table() => {
            format!("{} {}", v.type_name(), v.to_string().trim())
        }
        _ => item.type_name().to_string(),
    }
}

/// `a/b/name.elf` -> `name`.
fn stem(path: &str) -> &str {
    Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(path)
}

impl File {
    pub fn load(path: &Path) -> anyhow::Result<File> {
        let text = crate::files::read_text(path, crate::BASELINE_BYTES, "a baseline")?;
        let doc: DocumentMut = text
            .parse()
            .map_err(|e| anyhow!("{}: not valid TOML: {e}", path.display()))?;
        let at = At {
            file: path,
            run: None,
        };
        let top = doc.as_table();
        at.unknown_keys(top, "", TOP_KEYS)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let root = match top.get("root") {
            Some(item) => dir.join(at.string(item, "root")?),
            None => dir.to_path_buf(),
        };
        let stats = match top.get("stats") {
            Some(item) => at.strings(item, "stats")?,
            None => stats::DEFAULT.iter().map(|s| s.to_string()).collect(),
        };
        for s in &stats {
            stats::check_pattern(s).map_err(|e| at.err("stats", e))?;
        }
        let tolerance = match top.get("tolerance") {
            Some(item) => at.tolerances(item, "tolerance")?,
            None => Vec::new(),
        };
        let runs = match top.get("run") {
            None => bail!(
                "{}: no runs: add [[run]] tables (docs/REGRESS.md)",
                path.display()
            ),
            Some(Item::ArrayOfTables(runs)) => runs,
            Some(item) => {
                return Err(at.err(
                    "run",
                    format!("expected [[run]] tables, found {}", item.type_name()),
                ))
            }
        };
        let mut out: Vec<RunSpec> = Vec::new();
        // Names looked up, not searched: a baseline of 100,000 runs loads in a second.
        let mut named: HashMap<String, usize> = HashMap::new();
        for (index, table) in runs.iter().enumerate() {
            let run = run_spec(path, &root, table, index, &stats, &tolerance)?;
            if let Some(&other) = named.get(&run.name) {
                bail!(
                    "{}: runs {} and {} are both named `{}`: give them distinct `name`s",
                    path.display(),
                    out[other].index + 1,
                    index + 1,
                    run.name
                );
            }
            named.insert(run.name.clone(), out.len());
            out.push(run);
        }
        Ok(File {
            path: path.to_path_buf(),
            doc,
            runs: out,
        })
    }

    /// Replace a run's `[run.recorded]` table in the document (in place, so a recorded
    /// table keeps its position and comments).
    fn set_recorded(&mut self, run: usize, r: &Recorded) {
        let index = self.runs[run].index;
        let table = self.doc["run"]
            .as_array_of_tables_mut()
            .and_then(|a| a.get_mut(index))
            .expect("the run's table was read from this document");
        let recorded = table
            .entry("recorded")
            .or_insert_with(|| Item::Table(Table::new()))
            .as_table_mut()
            .expect("`recorded` was read as a table");
        // Keep the `[run.recorded.stats]` table where it is; the other keys are ours.
        let mut values = recorded
            .remove("stats")
            .and_then(|i| i.into_table().ok())
            .unwrap_or_default();
        recorded.clear();
        recorded.insert("wsim", r.wsim.as_str().into());
        recorded.insert("revision", r.revision.as_str().into());
        recorded.insert("program_sha256", r.program_sha256.as_str().into());
        recorded.insert("config_hash", r.config_hash.as_str().into());
        if let Some(g) = &r.graph_sha256 {
            recorded.insert("graph_sha256", g.as_str().into());
        }
        recorded.insert("exit_status", i64::from(r.exit_status).into());
        values.clear();
        for (name, v) in &r.stats {
            let v = match v {
                Value::Count(n) => toml_edit::value(i64::try_from(*n).unwrap_or(i64::MAX)),
                Value::Rate(x) => toml_edit::value(*x),
            };
            values.insert(name, v);
        }
        recorded.insert("stats", Item::Table(values));
        self.runs[run].recorded = Some(r.clone());
    }

    /// Write `records` (run name, record) into the file on disk: under an exclusive lock
    /// of its directory, the file is read again and only these records replaced, then
    /// written to a temporary file and renamed over it. Two records of one baseline at once
    /// both land (each keeps the other's), and a killed one leaves the file whole. Returns
    /// the file as written.
    pub fn write_records(&self, records: &[(String, Recorded)]) -> anyhow::Result<File> {
        let _lock = crate::files::lock_directory_of(&self.path)?;
        let mut fresh = File::load(&self.path)?;
        let named: HashMap<String, usize> = (fresh.runs.iter().enumerate())
            .map(|(i, r)| (r.name.clone(), i))
            .collect();
        for (name, record) in records {
            let Some(&i) = named.get(name) else {
                bail!(
                    "{}: the run `{name}` was removed while it was recorded: record again",
                    self.path.display()
                );
            };
            fresh.set_recorded(i, record);
        }
        crate::files::write_whole(&self.path, fresh.doc.to_string().as_bytes())?;
        Ok(fresh)
    }
}

fn run_spec(
    path: &Path,
    root: &Path,
    table: &Table,
    index: usize,
    file_stats: &[String],
    file_tolerance: &[(String, Tolerance)],
) -> anyhow::Result<RunSpec> {
    let unnamed = At {
        file: path,
        run: Some((index, "unnamed")),
    };
    let program = match table.get("program") {
        Some(item) => unnamed.string(item, "program")?,
        None => return Err(unnamed.err("program", "missing: the program's ELF file")),
    };
    let config = match table.get("config") {
        Some(item) => Some(unnamed.string(item, "config")?),
        None => None,
    };
    let name = match table.get("name") {
        Some(item) => unnamed.string(item, "name")?,
        None => format!(
            "{}@{}",
            stem(&program),
            config.as_deref().map_or("default", stem)
        ),
    };
    let at = At {
        file: path,
        run: Some((index, &name)),
    };
    at.unknown_keys(table, "", RUN_KEYS)?;
    let set = match table.get("set") {
        Some(item) => at.strings(item, "set")?,
        None => Vec::new(),
    };
    let stats = match table.get("stats") {
        Some(item) => {
            let s = at.strings(item, "stats")?;
            for p in &s {
                stats::check_pattern(p).map_err(|e| at.err("stats", e))?;
            }
            s
        }
        None => file_stats.to_vec(),
    };
    let mut tolerance = match table.get("tolerance") {
        Some(item) => at.tolerances(item, "tolerance")?,
        None => Vec::new(),
    };
    tolerance.extend_from_slice(file_tolerance);
    let mut graph = GraphOptions::default();
    if let Some(item) = table.get("graph") {
        let spec = at.string(item, "graph")?;
        graph.graph = Some(if spec.starts_with("gen:") {
            spec
        } else {
            root.join(spec).display().to_string()
        });
    }
    if let Some(item) = table.get("source") {
        graph.source = Source::Id(at.integer(item, "source")?);
    }
    if let Some(item) = table.get("iterations") {
        graph.iterations = Some(at.u32(item, "iterations")?);
    }
    if let Some(item) = table.get("load") {
        graph.apply_flags(&at.strings(item, "load")?).map_err(|e| {
            at.err(
                "load",
                format!("{e} (loading options as `wsim run` takes them)"),
            )
        })?;
    }
    let recorded = match table.get("recorded") {
        Some(item) => Some(at.recorded(item)?),
        None => None,
    };
    Ok(RunSpec {
        program: root.join(&program),
        config: config.map(|c| root.join(c)),
        name,
        set,
        graph,
        stats,
        tolerance,
        recorded,
        index,
    })
}
