//! `wsim sweep`: run programs over every combination of configuration values and print one
//! row per run (cycles, instructions, IPC, Weaver stalls; graph programs on one graph,
//! verified against the host reference), optionally as CSV. Runs go in
//! parallel on the host's cores; each run is deterministic, and rows come out in order.
//! A run that fails, exits non-zero or does not verify makes the whole sweep fail (after
//! the table is printed), so scripts and regression jobs cannot miss it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use rayon::prelude::*;
use wsim_sim::stats::SlotReason;
use wsim_sim::{Config, RunSummary};

use crate::graph_run::{self, GraphInput};

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

/// What one run produced: its summary and, for a graph program, whether its result
/// matched the host reference.
struct Row {
    program: String,
    /// Index of the run's combination (`key=value` overrides).
    combo: usize,
    outcome: Result<(RunSummary, Option<bool>), String>,
}

/// A sweep's printed table and the runs that did not succeed.
pub struct Outcome {
    pub table: String,
    /// `program [key=value ...]: why` for each run that failed, exited non-zero or did
    /// not match the host reference.
    pub failures: Vec<String>,
}

/// Run every program under every combination on top of `base` (graph programs on
/// `graph`, verified) and return the table.
pub fn sweep(
    base: &Config,
    axes: &[Axis],
    programs: &[PathBuf],
    graph: &GraphInput,
    csv: bool,
) -> anyhow::Result<Outcome> {
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
    let rows: Vec<Row> = jobs
        .par_iter()
        .map(|&(p, c)| Row {
            combo: c,
            program: name(&programs[p]),
            outcome: run_one(&configs[c], &elfs[p], graph),
        })
        .collect();
    let failures = rows
        .iter()
        .filter_map(|r| {
            let why = match &r.outcome {
                Err(e) => e.clone(),
                Ok((s, _)) if s.exit_code != 0 => format!("exit status {}", s.exit_code),
                Ok((_, Some(false))) => "result does not match the host reference".into(),
                Ok(_) => return None,
            };
            let run = std::iter::once(r.program.clone())
                .chain(combos[r.combo].iter().cloned())
                .collect::<Vec<_>>()
                .join(" ");
            Some(format!("{run}: {why}"))
        })
        .collect();
    Ok(Outcome {
        table: table(axes, &combos, &rows, csv),
        failures,
    })
}

fn name(program: &Path) -> String {
    program.file_stem().map_or_else(
        || program.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

fn run_one(
    config: &Config,
    elf: &[u8],
    graph: &GraphInput,
) -> Result<(RunSummary, Option<bool>), String> {
    graph_run::simulate(config, elf, graph)
        .map(|f| (f.summary, f.verified))
        .map_err(|e| e.to_string())
}

fn table(axes: &[Axis], combos: &[Vec<String>], rows: &[Row], csv: bool) -> String {
    let mut header: Vec<String> = vec!["program".into()];
    header.extend(axes.iter().map(|a| a.key.clone()));
    header.extend(
        [
            "exit",
            "verified",
            "cycles",
            "warp_instructions",
            "ipc",
            "weaver_stall_pct",
        ]
        .map(String::from),
    );
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut row = vec![r.program.clone()];
            row.extend(combos[r.combo].iter().map(|kv| {
                kv.split_once('=')
                    .map_or(kv.clone(), |(_, v)| v.to_string())
            }));
            match &r.outcome {
                Ok((s, verified)) => {
                    let t = s.total();
                    let slots = t.slots.total().max(1);
                    row.extend([
                        s.exit_code.to_string(),
                        match verified {
                            None => "-",
                            Some(true) => "yes",
                            Some(false) => "NO",
                        }
                        .to_string(),
                        s.cycles.to_string(),
                        t.instructions.to_string(),
                        format!("{:.3}", t.instructions as f64 / s.cycles.max(1) as f64),
                        format!(
                            "{:.1}",
                            100.0 * t.slots.get(SlotReason::Weaver) as f64 / slots as f64
                        ),
                    ]);
                }
                // The first line: deadlock and max_cycles errors go on to list every
                // warp (the failures on stderr have them).
                Err(e) => row.extend([
                    "error".to_string(),
                    e.lines().next().unwrap_or_default().to_string(),
                ]),
            }
            row
        })
        .collect();
    let mut out = String::new();
    if csv {
        for row in std::iter::once(&header).chain(&cells) {
            let quoted: Vec<String> = row
                .iter()
                .map(|c| {
                    if c.contains([',', '"', '\n']) {
                        format!("\"{}\"", c.replace('"', "\"\""))
                    } else {
                        c.clone()
                    }
                })
                .collect();
            let _ = writeln!(out, "{}", quoted.join(","));
        }
        return out;
    }
    let columns = cells
        .iter()
        .map(Vec::len)
        .max()
        .unwrap_or(0)
        .max(header.len());
    let widths: Vec<usize> = (0..columns)
        .map(|k| {
            std::iter::once(&header)
                .chain(&cells)
                .filter_map(|r| r.get(k))
                .map(String::len)
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in std::iter::once(&header).chain(&cells) {
        let line: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(k, c)| format!("{c:>w$}", w = widths[k]))
            .collect();
        let _ = writeln!(out, "{}", line.join("  ").trim_end());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_parse_and_combine_in_order() {
        let a: Axis = "memory.dram.clock_ratio=1,4".parse().unwrap();
        let b: Axis = "weaver.table_latency=10,160".parse().unwrap();
        assert_eq!(
            combinations(&[a, b]),
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
    }
}
