//! `wsim sweep`: run programs over every combination of configuration values and print one
//! row per run as it finishes (cycles, instructions, IPC, caches, DRAM, the Weaver unit,
//! the verdict; graph programs on one graph, verified against the host reference), as an
//! aligned table, CSV or JSON lines. Runs go in parallel on the host's cores; each run is
//! deterministic, and `--ordered` prints the rows in the runs' order (each as soon as the
//! ones before it are out) instead of as they finish. A run that fails, exits non-zero or
//! does not verify keeps its row and makes the whole sweep fail (after the rows), so
//! scripts and regression jobs cannot miss it.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{bail, Context};
use rayon::prelude::*;
use wsim_sim::Config;

use crate::measure::{measure, Measured};
use crate::results::{self, Column};
use wsim_workloads::GraphInput;

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

/// The result columns a sweep prints, after the program, the axes, the graph, the
/// configuration's hash and wsim's version.
const RESULTS: [&str; 16] = [
    "l1d_size",
    "exit",
    "verified",
    "cycles",
    "warp_instructions",
    "ipc",
    "weaver_stall_pct",
    "l1d_hit_rate",
    "l2_hit_rate",
    "dram_bytes",
    "dram_bandwidth",
    "weaver_registrations",
    "weaver_decode_requests",
    "weaver_batches",
    "weaver_lanes_filled",
    "weaver_table_reads",
];

/// Run every program under every combination on top of `base` (graph programs on
/// `graph`, verified), writing each row to `out` as it is ready; returns `program
/// [key=value ...]: why` for each run that failed, exited non-zero or did not verify.
pub fn sweep(
    base: &Config,
    axes: &[Axis],
    programs: &[PathBuf],
    graph: &GraphInput,
    options: Options,
    out: &mut (dyn Write + Send),
) -> anyhow::Result<Vec<String>> {
    distinct_keys(axes)?;
    let combos = combinations(axes);
    // Bad values fail here, before anything runs.
    let configs = combos
        .iter()
        .map(|combo| base.with_overrides_from("--vary", combo))
        .collect::<Result<Vec<Config>, _>>()?;
    let elfs = programs
        .iter()
        .map(|p| std::fs::read(p).with_context(|| format!("cannot read {}", p.display())))
        .collect::<anyhow::Result<Vec<Vec<u8>>>>()?;
    let jobs: Vec<(usize, usize)> = (0..programs.len())
        .flat_map(|p| (0..combos.len()).map(move |c| (p, c)))
        .collect();
    let table = Table::new(axes);
    let version = crate::version();
    let printer = Mutex::new(Printer {
        out,
        options,
        next: 0,
        waiting: BTreeMap::new(),
        widths: table.widths(),
    });
    printer
        .lock()
        .expect("no panics while printing")
        .header(&table.header)?;
    let bar = crate::progress::runs(jobs.len() as u64, "sweep");
    let failures = Mutex::new(BTreeMap::new());
    jobs.par_iter().enumerate().try_for_each(|(k, &(p, c))| {
        let name = name(&programs[p]);
        let measured = measure(
            &configs[c],
            &programs[p].display().to_string(),
            &elfs[p],
            graph,
        );
        let verdict = results::verdict(&measured);
        if verdict != "ok" {
            let why = match verdict {
                "exit_nonzero" => format!(
                    "exit status {}",
                    measured
                        .report
                        .as_ref()
                        .map_or(0, |r| r["exit_code"].as_u64().unwrap_or(0))
                ),
                "mismatch" => "result does not match the host reference".into(),
                _ => measured.error.clone().unwrap_or_default(),
            };
            let run = std::iter::once(name.clone())
                .chain(combos[c].iter().cloned())
                .collect::<Vec<_>>()
                .join(" ");
            let mut failures = failures.lock().expect("no panics while counting");
            failures.insert(k, format!("{run}: {why}"));
            bar.set_message(format!("({} failed)", failures.len()));
        }
        let mut row = vec![name];
        row.extend(combos[c].iter().map(|kv| {
            kv.split_once('=')
                .map_or(kv.clone(), |(_, v)| v.to_string())
        }));
        row.push(graph_cell(&measured));
        row.push(configs[c].hash());
        row.push(version.clone());
        row.extend(table.results.iter().map(|col| col.cell(&measured)));
        row.push(verdict.to_string());
        row.push(results::error_line(&measured));
        let mut printer = printer.lock().expect("no panics while printing");
        bar.suspend(|| printer.row(k, &table.header, row))?;
        bar.inc(1);
        anyhow::Ok(())
    })?;
    bar.finish_and_clear();
    Ok(failures
        .into_inner()
        .expect("no panics while counting")
        .into_values()
        .collect())
}

/// A graph program's graph: the spec and the loading options that differ from the
/// defaults (empty for other programs).
fn graph_cell(m: &Measured) -> String {
    let Some(graph) = m
        .report
        .as_ref()
        .map(|r| &r["graph"])
        .filter(|g| g.is_object())
    else {
        return String::new();
    };
    let mut cell = graph["spec"].as_str().unwrap_or_default().to_string();
    for flag in graph["load_options"].as_array().into_iter().flatten() {
        cell.push(' ');
        cell.push_str(flag.as_str().unwrap_or_default());
    }
    cell
}

fn name(program: &Path) -> String {
    program.file_stem().map_or_else(
        || program.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

/// The sweep's columns.
struct Table {
    header: Vec<String>,
    results: Vec<Column>,
}

impl Table {
    fn new(axes: &[Axis]) -> Table {
        let mut all = results::all(&[]);
        let results: Vec<Column> = RESULTS
            .iter()
            .map(|name| {
                let k = all
                    .iter()
                    .position(|c| c.name == *name)
                    .expect("a sweep column is a result column");
                all.swap_remove(k)
            })
            .collect();
        let mut header = vec!["program".to_string()];
        header.extend(axes.iter().map(|a| a.key.clone()));
        header.extend(["graph", "config_hash", "wsim_version"].map(String::from));
        header.extend(results.iter().map(|c| c.name.clone()));
        header.extend(["verdict", "error"].map(String::from));
        Table { header, results }
    }

    /// Streamed rows cannot be measured first: each column of the table is as wide as its
    /// header, and at least 8 (a wider cell shifts the rest of its row).
    fn widths(&self) -> Vec<usize> {
        (self.header.iter())
            .filter(|h| !WIDE.contains(&h.as_str()))
            .map(|h| h.len().max(8))
            .collect()
    }
}

/// Columns the terminal table leaves to CSV and JSON, to fit a terminal's width.
const WIDE: [&str; 11] = [
    "graph",
    "config_hash",
    "wsim_version",
    "l1d_size",
    "l2_hit_rate",
    "dram_bytes",
    "weaver_registrations",
    "weaver_decode_requests",
    "weaver_batches",
    "weaver_lanes_filled",
    "weaver_table_reads",
];

/// A row as one JSON object, keys in column order: numbers as numbers, empty cells as
/// null, the rest as strings.
fn json_line(header: &[String], row: &[String]) -> String {
    let fields: Vec<String> = header
        .iter()
        .zip(row)
        .map(|(h, c)| {
            let value = if c.is_empty() {
                serde_json::Value::Null
            } else if let Ok(n) = c.parse::<serde_json::Number>() {
                serde_json::Value::Number(n)
            } else {
                serde_json::Value::String(c.clone())
            };
            format!("{}:{value}", serde_json::Value::String(h.clone()))
        })
        .collect();
    format!("{{{}}}", fields.join(","))
}

/// Writes rows as they come (or, ordered, as soon as the ones before them are out).
struct Printer<'a> {
    out: &'a mut (dyn Write + Send),
    options: Options,
    /// The next row to print, and rows finished before it (ordered only).
    next: usize,
    waiting: BTreeMap<usize, Vec<String>>,
    widths: Vec<usize>,
}

impl Printer<'_> {
    fn header(&mut self, header: &[String]) -> std::io::Result<()> {
        match self.options.format {
            Format::Json => Ok(()),
            _ => self.line(header, header),
        }
    }

    fn row(&mut self, k: usize, header: &[String], row: Vec<String>) -> std::io::Result<()> {
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
    fn line(&mut self, header: &[String], row: &[String]) -> std::io::Result<()> {
        let text = match self.options.format {
            Format::Csv => row
                .iter()
                .map(|c| csv_cell(c))
                .collect::<Vec<_>>()
                .join(","),
            Format::Json => json_line(header, row),
            Format::Table => (row.iter().zip(header))
                .filter(|(_, h)| !WIDE.contains(&h.as_str()))
                .zip(&self.widths)
                .map(|((c, _), w)| format!("{c:>w$}"))
                .collect::<Vec<_>>()
                .join("  ")
                .trim_end()
                .to_string(),
        };
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }
}

/// A CSV cell, quoted when it holds a comma, a quote or a line break.
pub fn csv_cell(c: &str) -> String {
    if c.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", c.replace('"', "\"\""))
    } else {
        c.to_string()
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

    #[test]
    fn csv_cells_are_quoted_when_needed() {
        assert_eq!(csv_cell("plain"), "plain");
        assert_eq!(csv_cell("a,b"), "\"a,b\"");
        assert_eq!(csv_cell("say \"x\""), "\"say \"\"x\"\"\"");
    }
}
