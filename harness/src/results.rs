//! A run's results as named columns, read from its report JSON (what `wsim run --json`
//! writes, [`crate::measure`]): one definition for `wsim sweep`'s rows and an experiment's
//! CSV. Numbers are printed the same way everywhere (rates with six decimals), so equal
//! runs give equal rows.

use serde_json::Value;
use wsim_sim::stats::SlotReason;

use crate::measure::Measured;

/// How a run ended, worst last: `ok`; `exit_nonzero` (the program's status was not 0);
/// `mismatch` (a graph program's result differs from the host reference); `failed` (the
/// simulation stopped on an error); `error` (it could not be set up).
pub fn verdict(m: &Measured) -> &'static str {
    match (&m.report, &m.error) {
        (None, _) => "error",
        (Some(_), Some(_)) => "failed",
        (Some(r), None) if r["exit_code"].as_u64() != Some(0) => "exit_nonzero",
        (Some(r), None) if r["graph"]["result"] == "mismatch" => "mismatch",
        _ => "ok",
    }
}

/// The first line of a run's error (a deadlock's or `max_cycles`'s goes on to list
/// every warp), empty when there is none.
pub fn error_line(m: &Measured) -> String {
    m.error
        .as_deref()
        .and_then(|e| e.lines().next())
        .unwrap_or_default()
        .to_string()
}

/// A column: its name and how to read it from a report (`None`: empty cell).
pub struct Column {
    pub name: String,
    read: Box<dyn Fn(&Value) -> Option<String> + Send + Sync>,
}

impl Column {
    fn new(
        name: impl Into<String>,
        read: impl Fn(&Value) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        Column {
            name: name.into(),
            read: Box::new(read),
        }
    }

    /// The column's cell for a run (empty when the run has no report).
    pub fn cell(&self, m: &Measured) -> String {
        m.report
            .as_ref()
            .and_then(|r| (self.read)(r))
            .unwrap_or_default()
    }
}

/// A number at a JSON pointer, as text.
fn number(report: &Value, pointer: &str) -> Option<String> {
    report.pointer(pointer).and_then(|v| match v {
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    })
}

fn count(report: &Value, pointer: &str) -> Option<u64> {
    report.pointer(pointer).and_then(Value::as_u64)
}

/// A rate, six decimals.
fn rate(x: f64) -> String {
    format!("{x:.6}")
}

/// `a / b`, none when `b` is 0 (a cache level nothing reached has no hit rate).
fn quotient(a: u64, b: u64) -> Option<String> {
    (b > 0).then(|| rate(a as f64 / b as f64))
}

/// A cache level's hits over accesses, summed over its caches.
fn hit_rate(report: &Value, level: &str) -> Option<String> {
    let caches = report["memory"][level].as_array()?;
    let sum = |key: &str| caches.iter().filter_map(|c| c[key].as_u64()).sum::<u64>();
    quotient(sum("hits"), sum("accesses"))
}

/// The graph program's kernel and graph as its report states them (empty for other
/// programs and for runs that could not be set up).
pub fn kernel() -> Vec<Column> {
    let text = |name: &str, pointer: &'static str| {
        Column::new(name, move |r: &Value| {
            r.pointer(pointer).and_then(|v| match v {
                Value::String(s) => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
        })
    };
    vec![
        text("algorithm", "/graph/algorithm"),
        text("schedule", "/graph/schedule"),
        text("direction", "/graph/direction"),
        Column::new("form", graph_form),
        text("vertices", "/graph/vertices"),
        text("edges", "/graph/edges"),
        text("source", "/graph/source"),
        text("iterations", "/graph/iterations"),
        text("features", "/graph/gcn/features"),
        text("input_features", "/graph/gcn/input_features"),
        text("input_nonzeros", "/graph/gcn/input_nonzeros"),
    ]
}

/// A GCN program's launch groups, by the value of its iteration records
/// (programs/gcn/gcn.h, `GCN_REC_*`): the groups' names in column names.
pub const GCN_GROUPS: [(u64, &str); 4] =
    [(0, "init"), (1, "spmm"), (2, "prepare"), (3, "graphsum")];

/// A GCN run's machine cycles in the launches of one group (0 when it has none; none for
/// a run that is not a GCN program's, whose records count frontiers instead).
fn group_cycles(report: &Value, group: u64) -> Option<String> {
    if report.pointer("/graph/algorithm")? != "GCN" {
        return None;
    }
    let records = report["iterations"].as_array()?;
    let cycles: u64 = records
        .iter()
        .filter(|r| r["active"].as_u64() == Some(group))
        .filter_map(|r| r["cycles"].as_u64())
        .sum();
    Some(cycles.to_string())
}

/// A graph program's form (docs/KERNELS.md), from its name: `<algo>_<sched>_<dir>` is the
/// dissertation's, a `_tuned` or `_atomicfree` suffix names the others. The descriptor
/// does not carry it; the name is the Makefile's manifest key.
fn graph_form(report: &Value) -> Option<String> {
    report.get("graph")?.get("algorithm")?;
    let program = report["program"].as_str()?;
    let stem = std::path::Path::new(program).file_stem()?.to_str()?;
    let form = ["tuned", "atomicfree"]
        .into_iter()
        .find(|f| stem.ends_with(&format!("_{f}")))
        .unwrap_or("dissertation");
    Some(form.to_string())
}

/// Every result column: the outcome, time and instructions, issue slots by reason,
/// caches, DRAM, the Weaver unit, a GCN run's cycles per launch group, the phases' names,
/// then cycles per phase (`phases`: the phase numbers to
/// give columns, the union over the runs of a table).
pub fn all(phases: &[u32]) -> Vec<Column> {
    let mut columns = vec![
        Column::new("status", |r| r["status"].as_str().map(String::from)),
        // A failed simulation's program did not exit.
        Column::new("exit", |r| {
            (r["status"] == "ok")
                .then(|| number(r, "/exit_code"))
                .flatten()
        }),
        Column::new("verified", |r| {
            Some(
                match r["graph"]["result"].as_str() {
                    Some("verified") => "yes",
                    Some("mismatch") => "NO",
                    _ => "-",
                }
                .to_string(),
            )
        }),
        Column::new("cycles", |r| number(r, "/cycles")),
        Column::new("warp_instructions", |r| number(r, "/total/instructions")),
        Column::new("thread_instructions", |r| {
            number(r, "/total/thread_instructions")
        }),
        Column::new("ipc", |r| r["ipc"].as_f64().map(rate)),
        Column::new("simt_efficiency", |r| {
            r["simt_efficiency"].as_f64().map(rate)
        }),
        Column::new("supersteps", |r| number(r, "/graph/supersteps")),
        Column::new("l1d_size", |r| number(r, "/l1d_size")),
    ];
    columns.extend(SlotReason::ALL.map(|reason| {
        let pointer = format!("/total/slots/{}", reason.name());
        Column::new(format!("slots_{}", reason.name()), move |r| {
            number(r, &pointer)
        })
    }));
    columns.push(Column::new("weaver_stall_pct", |r| {
        let slots = r["total"]["slots"].as_object()?;
        let total: u64 = slots.values().filter_map(Value::as_u64).sum();
        let weaver = slots.get(SlotReason::Weaver.name())?.as_u64()?;
        Some(format!(
            "{:.1}",
            100.0 * weaver as f64 / total.max(1) as f64
        ))
    }));
    for level in ["l1d", "l2", "l3"] {
        columns.push(Column::new(format!("{level}_hit_rate"), move |r| {
            hit_rate(r, level)
        }));
    }
    columns.extend([
        Column::new("dram_reads", |r| number(r, "/memory/dram/reads")),
        Column::new("dram_writes", |r| number(r, "/memory/dram/writes")),
        Column::new("dram_bytes", |r| number(r, "/memory/dram/bytes")),
        Column::new("dram_bandwidth", |r| {
            Some(rate(
                count(r, "/memory/dram/bytes")? as f64 / count(r, "/cycles")?.max(1) as f64,
            ))
        }),
        Column::new("dram_row_hit_rate", |r| {
            let d = &r["memory"]["dram"];
            let hits = d["row_hits"].as_u64()?;
            quotient(
                hits,
                hits + d["row_misses"].as_u64()? + d["row_conflicts"].as_u64()?,
            )
        }),
        Column::new("weaver_unit", |r| {
            r["weaver_unit"].as_bool().map(|b| b.to_string())
        }),
    ]);
    for key in [
        "registrations",
        "entries_registered",
        "rounds",
        "decode_requests",
        "batches",
        "lanes_filled",
        "empty_answers",
        "skips",
        "table_reads",
        "table_writes",
        "memory_requests",
    ] {
        let pointer = format!("/total/weaver/{key}");
        columns.push(Column::new(format!("weaver_{key}"), move |r| {
            number(r, &pointer)
        }));
    }
    columns.extend(GCN_GROUPS.map(|(group, name)| {
        Column::new(format!("group_{name}_cycles"), move |r| {
            group_cycles(r, group)
        })
    }));
    // The program's phase names (`0=runtime 1=init ...`): the phase columns count by number.
    columns.push(Column::new("phase_names", |r| {
        let names = r["phase_names"].as_object()?;
        let mut named: Vec<(u32, &str)> = names
            .iter()
            .filter_map(|(k, v)| Some((k.parse().ok()?, v.as_str()?)))
            .collect();
        named.sort_unstable();
        Some(
            named
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<String>>()
                .join(" "),
        )
    }));
    for &phase in phases {
        for (what, key) in [("cycles", "cycles"), ("warp_cycles", "warp_cycles")] {
            let pointer = format!("/phases/{phase}/{key}");
            columns.push(Column::new(
                format!("phase_{}_{what}", phase_label(phase)),
                move |r| number(r, &pointer).or(Some("0".into())),
            ));
        }
    }
    columns
}

/// A phase's name in column names: its number (programs name phases differently: GCN's
/// phase 2 is SpMM, a graph kernel's registration; the `phase_names` column has the names).
pub fn phase_label(phase: u32) -> String {
    phase.to_string()
}

/// The phase whose cycles column is `column` (`phase_3_cycles` -> 3), if it is one.
pub fn phase_of_cycles_column(column: &str) -> Option<u32> {
    column
        .strip_prefix("phase_")?
        .strip_suffix("_cycles")?
        .parse()
        .ok()
}

/// The phases a report has statistics for.
pub fn phases(m: &Measured) -> Vec<u32> {
    m.report
        .as_ref()
        .and_then(|r| r["phases"].as_object())
        .map(|p| p.keys().filter_map(|k| k.parse().ok()).collect())
        .unwrap_or_default()
}

/// The host's time (differs from run to run, unlike everything else).
pub fn host_seconds(m: &Measured) -> String {
    m.report
        .as_ref()
        .and_then(|r| r["host"]["seconds"].as_f64())
        .map(|s| format!("{s:.3}"))
        .unwrap_or_default()
}
