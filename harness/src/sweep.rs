//! `wsim sweep`: run programs over every combination of configuration values and print one
//! row per run as it finishes, with an experiment table's columns from the registry (the
//! kernel, cycles, instructions, IPC, issue slots, caches, DRAM, the Weaver unit, phases,
//! the verdict; graph programs on one graph, verified against the host reference), as CSV,
//! JSON lines or an aligned table of the main ones. Runs go in parallel on the host's cores; each run is
//! deterministic, and `--ordered` prints the rows in the runs' order (each as soon as the
//! ones before it are out) instead of as they finish. A run that fails, exits non-zero or
//! does not verify keeps its row and makes the whole sweep fail (after the rows), so
//! scripts and regression jobs cannot miss it.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::bail;
use wsim_sim::Config;
use wsim_workloads::GraphInput;

use wsim_sim::mem::hierarchy::CacheLevel;

use crate::run::{self, Program, RunOptions, RunRecord, RunRequest};
use crate::stats::{Cell, Stat};

/// One axis of a sweep: a key and the values it takes.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    pub key: String,
    pub values: Vec<String>,
}

impl std::str::FromStr for Axis {
    type Err = String;

    /// `key.path=v1,v2,...`
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (key, values) = s
            .split_once('=')
            .ok_or_else(|| format!("--vary {s}: expected key.path=value,value,..."))?;
        let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
        if key.trim().is_empty() || values.iter().any(String::is_empty) {
            return Err(format!("--vary {s}: empty key or value"));
        }
        Ok(Axis {
            key: key.trim().to_string(),
            values,
        })
    }
}

/// Axes must vary different keys: a key given twice would run its combinations with only
/// the later value applied, and label them with both.
pub fn distinct_keys(axes: &[Axis]) -> anyhow::Result<()> {
    let mut seen = BTreeSet::new();
    for axis in axes {
        if !seen.insert(axis.key.as_str()) {
            bail!(
                "--vary: `{}` is varied twice; give all its values in one --vary {}=V1,V2,...",
                axis.key,
                axis.key
            );
        }
    }
    Ok(())
}

/// Every combination of the axes' values, first axis slowest, as `key=value` overrides.
/// The most runs one sweep or experiment expands into: each holds its configuration and
/// key (a few KB) before anything runs, and 100,000 simulations are already weeks of
/// host time.
pub const MAX_RUNS: u64 = 100_000;

/// The number of runs `factors` make (each a count and what it counts: `3 programs`), or
/// an error naming them when more than [`MAX_RUNS`]: checked before the runs are expanded,
/// so a file of 9 axes of 10 values is refused, not expanded into 10^9 runs.
pub fn run_count(factors: &[(u64, &str)]) -> anyhow::Result<u64> {
    let runs = (factors.iter()).fold(1u64, |n, (k, _)| n.saturating_mul(*k));
    if runs > MAX_RUNS {
        let product: Vec<String> = factors
            .iter()
            .map(|(k, what)| format!("{k} {what}"))
            .collect();
        bail!(
            "{} runs ({}): more than the {MAX_RUNS} one sweep or experiment may have; split \
             it (fewer axis values, profiles, --graphs, --programs)",
            if runs == u64::MAX {
                "over 2^64".to_string()
            } else {
                runs.to_string()
            },
            product.join(" x ")
        );
    }
    Ok(runs)
}

/// The product of the axes' value counts (saturating), for [`run_count`].
pub fn combination_count(axes: &[Axis]) -> u64 {
    (axes.iter()).fold(1u64, |n, a| n.saturating_mul(a.values.len() as u64))
}

pub fn combinations(axes: &[Axis]) -> Vec<Vec<String>> {
    axes.iter().fold(vec![Vec::new()], |acc, axis| {
        acc.iter()
            .flat_map(|prefix| {
                axis.values.iter().map(move |v| {
                    let mut c = prefix.clone();
                    c.push(format!("{}={v}", axis.key));
                    c
                })
            })
            .collect()
    })
}

/// How rows are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Columns aligned under their header.
    Table,
    Csv,
    /// One JSON object per run and line (JSON lines), keyed by column.
    Json,
}

/// How a sweep prints.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub format: Format,
    /// Rows in the runs' order (programs, then combinations) rather than as they finish.
    pub ordered: bool,
}

/// The columns the aligned terminal table shows after the program and the axes (CSV and
/// JSON lines have every column).
const NARROW: [Stat; 9] = [
    Stat::Exit,
    Stat::Verified,
    Stat::Cycles,
    Stat::WarpInstructions,
    Stat::Ipc,
    Stat::WeaverStallPct,
    Stat::HitRate(CacheLevel::L1d),
    Stat::DramBandwidth,
    Stat::Verdict,
];

/// The phases a sweep has columns for: those the programs name (`wsim_phase_names`), and
/// phase 0, where every warp starts. Rows stream, so the columns are fixed before any run.
fn named_phases(elfs: &[Arc<Vec<u8>>]) -> Vec<u32> {
    let named = elfs
        .iter()
        .filter_map(|elf| wsim_sim::loader::parse(elf).ok())
        .filter_map(|image| wsim_sim::phase_names::read(&image).ok())
        .map(|names| names.len() as u32)
        .max()
        .unwrap_or(0);
    (0..named.max(1)).collect()
}

/// Run every program under every combination on top of `base` (graph programs on
/// `graph`, verified), writing each row to `out` as it is ready; returns `program
/// [key=value ...]: why` for each run that failed, exited non-zero or did not verify.
pub fn sweep(
    base: &Config,
    axes: &[Axis],
    programs: &[PathBuf],
    graph: &Arc<GraphInput>,
    options: Options,
    out: &mut (dyn Write + Send),
) -> anyhow::Result<Vec<String>> {
    distinct_keys(axes)?;
    run_count(&[
        (programs.len() as u64, "programs"),
        (combination_count(axes), "combinations of the --vary values"),
    ])?;
    let combos = combinations(axes);
    // Bad values fail here, before anything runs.
    let configs = combos
        .iter()
        .map(|combo| base.with_overrides_from("--vary", combo))
        .collect::<Result<Vec<Config>, _>>()?;
    let elfs = programs
        .iter()
        .map(|p| Ok(Arc::new(crate::read_program(p)?)))
        .collect::<anyhow::Result<Vec<Arc<Vec<u8>>>>>()?;
    let jobs: Vec<(usize, usize)> = (0..programs.len())
        .flat_map(|p| (0..combos.len()).map(move |c| (p, c)))
        .collect();
    let phases = named_phases(&elfs);
    let table = Table::new(axes, &phases);
    let version = crate::version();
    let printer = Mutex::new(Printer {
        sink: match options.format {
            Format::Csv => Sink::Csv(Box::new(csv::Writer::from_writer(out))),
            _ => Sink::Text(out),
        },
        options,
        next: 0,
        waiting: BTreeMap::new(),
        widths: table.widths(),
        shown: table.shown(axes.len()),
    });
    printer
        .lock()
        .expect("no panics while printing")
        .header(&table.header)?;
    let request = |&(p, c): &(usize, usize)| {
        Ok(RunRequest {
            name: programs[p].display().to_string(),
            program: Program::Bytes(Arc::clone(&elfs[p])),
            config: configs[c].clone(),
            input: Some(Arc::clone(graph)),
            options: RunOptions::default(),
        })
    };
    let row = |k: usize, record: &RunRecord| {
        let (p, c) = jobs[k];
        let mut row = vec![Cell::Text(name(&programs[p]))];
        row.extend(combos[c].iter().map(|kv| {
            Cell::Written(
                kv.split_once('=')
                    .map_or(kv.clone(), |(_, v)| v.to_string()),
            )
        }));
        row.push(Cell::Text(graph_cell(record)));
        row.push(Cell::Text(configs[c].hash()));
        row.push(Cell::Text(version.clone()));
        row.extend(table.stats.iter().map(|s| s.read(record)));
        let mut printer = printer.lock().expect("no panics while printing");
        printer.row(k, &table.header, row)?;
        anyhow::Ok(())
    };
    let records = run::run_many(&jobs, "sweep", true, request, row)?;
    // Once per program and phase, with -v: a program's unnamed phases are common.
    let unnamed: BTreeSet<(usize, u32)> = (jobs.iter().zip(&records))
        .flat_map(|(&(p, _), record)| {
            (record.report.iter())
                .flat_map(|r| r.phases.keys().copied())
                .filter(|phase| !phases.contains(phase))
                .map(move |phase| (p, phase))
        })
        .collect();
    for (p, phase) in unnamed {
        {
            tracing::info!(
                "{}: phase {phase} has no columns (the sweep's are the phases the programs \
                 name in wsim_phase_names); `wsim run --json` shows it",
                name(&programs[p])
            );
        }
    }
    Ok((jobs.iter().zip(&records))
        .filter_map(|(&(p, c), record)| {
            let why = record.why_not()?;
            let run = std::iter::once(name(&programs[p]))
                .chain(combos[c].iter().cloned())
                .collect::<Vec<_>>()
                .join(" ");
            Some(format!("{run}: {why}"))
        })
        .collect())
}

/// A graph program's graph: the spec and the loading options that differ from the
/// defaults (empty for other programs).
fn graph_cell(record: &RunRecord) -> String {
    let Some(graph) = record.workload() else {
        return String::new();
    };
    let mut cell = graph.spec.clone();
    for flag in &graph.load_options {
        cell.push(' ');
        cell.push_str(flag);
    }
    cell
}

fn name(program: &Path) -> String {
    program.file_stem().map_or_else(
        || program.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

/// The sweep's columns: the program, the axes, the graph, the configuration's hash and
/// wsim's version, then the registry's columns as an experiment table has them
/// ([`Stat::columns`]).
struct Table {
    header: Vec<String>,
    stats: Vec<Stat>,
}

impl Table {
    fn new(axes: &[Axis], phases: &[u32]) -> Table {
        let stats = Stat::columns(phases);
        let mut header = vec!["program".to_string()];
        header.extend(axes.iter().map(|a| a.key.clone()));
        header.extend(["graph", "config_hash", "wsim_version"].map(String::from));
        header.extend(stats.iter().map(|s| s.name().into_owned()));
        Table { header, stats }
    }

    /// The columns the terminal shows: the program, the axes and [`NARROW`].
    fn shown(&self, axes: usize) -> Vec<bool> {
        let narrow: Vec<String> = NARROW.iter().map(|s| s.name().into_owned()).collect();
        (self.header.iter().enumerate())
            .map(|(k, h)| k <= axes || narrow.contains(h))
            .collect()
    }

    /// Streamed rows cannot be measured first: each column of the table is as wide as its
    /// header, and at least 8 (a wider cell shifts the rest of its row).
    fn widths(&self) -> Vec<usize> {
        self.header.iter().map(|h| h.len().max(8)).collect()
    }
}

/// A row as one JSON object, keys in column order: numbers as numbers, empty cells as
/// null, the rest as strings.
fn json_line(header: &[String], row: &[Cell]) -> String {
    let fields: Vec<String> = header
        .iter()
        .zip(row)
        .map(|(h, c)| format!("{}:{}", serde_json::Value::String(h.clone()), c.json()))
        .collect();
    format!("{{{}}}", fields.join(","))
}

/// Where rows go: through the `csv` crate, or as lines of text (an aligned table, JSON).
enum Sink<'a> {
    Csv(Box<csv::Writer<&'a mut (dyn Write + Send)>>),
    Text(&'a mut (dyn Write + Send)),
}

/// Writes rows as they come (or, ordered, as soon as the ones before them are out).
struct Printer<'a> {
    sink: Sink<'a>,
    options: Options,
    /// The next row to print, and rows finished before it (ordered only).
    next: usize,
    waiting: BTreeMap<usize, Vec<Cell>>,
    widths: Vec<usize>,
    /// The columns the aligned table shows.
    shown: Vec<bool>,
}

impl Printer<'_> {
    fn header(&mut self, header: &[String]) -> anyhow::Result<()> {
        let cells: Vec<Cell> = header.iter().map(|h| Cell::Text(h.clone())).collect();
        match self.options.format {
            Format::Json => Ok(()),
            _ => self.line(header, &cells),
        }
    }

    fn row(&mut self, k: usize, header: &[String], row: Vec<Cell>) -> anyhow::Result<()> {
        if !self.options.ordered {
            return self.line(header, &row);
        }
        self.waiting.insert(k, row);
        while let Some(row) = self.waiting.remove(&self.next) {
            self.line(header, &row)?;
            self.next += 1;
        }
        Ok(())
    }

    /// One line, flushed.
    fn line(&mut self, header: &[String], row: &[Cell]) -> anyhow::Result<()> {
        let out = match &mut self.sink {
            Sink::Csv(csv) => {
                csv.write_record(row.iter().map(Cell::to_string))?;
                csv.flush()?;
                return Ok(());
            }
            Sink::Text(out) => out,
        };
        let text = match self.options.format {
            Format::Json => json_line(header, row),
            _ => (row.iter().zip(&self.shown))
                .zip(&self.widths)
                .filter(|((_, shown), _)| **shown)
                .map(|((c, _), w)| format!("{:>w$}", c.to_string()))
                .collect::<Vec<_>>()
                .join("  ")
                .trim_end()
                .to_string(),
        };
        writeln!(out, "{text}")?;
        out.flush()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_parse_and_combine_in_order() {
        let a: Axis = "memory.dram.clock_ratio=1,4".parse().unwrap();
        let b: Axis = "weaver.table_latency=10,160".parse().unwrap();
        assert_eq!(
            combinations(&[a.clone(), b.clone()]),
            [
                ["memory.dram.clock_ratio=1", "weaver.table_latency=10"],
                ["memory.dram.clock_ratio=1", "weaver.table_latency=160"],
                ["memory.dram.clock_ratio=4", "weaver.table_latency=10"],
                ["memory.dram.clock_ratio=4", "weaver.table_latency=160"],
            ]
        );
        assert!("nokey".parse::<Axis>().is_err());
        assert!("k=1,,2".parse::<Axis>().is_err());
        assert_eq!(combinations(&[]), [Vec::<String>::new()]);
        assert!(distinct_keys(&[a.clone(), b]).is_ok());
        let twice = distinct_keys(&[a.clone(), a]).unwrap_err().to_string();
        assert!(
            twice.contains("`memory.dram.clock_ratio` is varied twice"),
            "{twice}"
        );
    }
}
