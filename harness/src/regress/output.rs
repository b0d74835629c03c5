//! A check as a terminal table (what moved) and as JSON (everything, for CI systems).

use std::fmt::Write as _;

use serde::Serialize;

use super::{Check, RunCheck, StatVerdict, Subject, Verdict, REVISION, VERSION};

/// Identifies the JSON's layout; bump it when a field changes meaning.
pub const SCHEMA: &str = "wsim-regress/1";

/// Notes whose text is a message, printed under the table rather than in a cell.
fn is_message(what: Subject) -> bool {
    matches!(what, Subject::Setup | Subject::Simulation)
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Stale => "STALE",
            Verdict::Failed => "FAILED",
            Verdict::Error => "ERROR",
        }
    }
}

impl StatVerdict {
    pub fn name(self) -> &'static str {
        match self {
            StatVerdict::Same => "same",
            StatVerdict::Within => "within",
            StatVerdict::Moved => "MOVED",
            StatVerdict::Missing => "MISSING",
            StatVerdict::New => "new",
        }
    }
}

/// The table's rows for one run: its notes, then every statistic that is not the same.
fn rows(run: &RunCheck) -> Vec<[String; 7]> {
    let mut rows = Vec::new();
    let verdict = run.verdict.name().to_string();
    for n in &run.notes {
        let now = if is_message(n.what) {
            "(below)".to_string()
        } else {
            n.now.clone()
        };
        rows.push([
            run.name.clone(),
            n.what.name().to_string(),
            n.baseline.clone(),
            now,
            String::new(),
            String::new(),
            verdict.clone(),
        ]);
    }
    // A run never recorded has nothing to compare its statistics with.
    let compared = run
        .stats
        .iter()
        .filter(|s| s.baseline.is_some() || run.recorded_by.is_some());
    for s in compared.filter(|s| s.verdict != StatVerdict::Same) {
        let show = |v: Option<super::Value>| v.map_or("-".to_string(), |v| v.to_string());
        // A stale run's statistics are shown, not judged.
        let verdict = if run.verdict == Verdict::Stale {
            "stale"
        } else {
            s.verdict.name()
        };
        rows.push([
            run.name.clone(),
            s.name.clone(),
            show(s.baseline),
            show(s.now),
            s.change_pct
                .map_or("-".to_string(), |p| format!("{p:+.2}%")),
            s.tolerance.to_string(),
            verdict.to_string(),
        ]);
    }
    rows
}

impl Check {
    /// What moved, as an aligned table, then the messages of runs that failed or could
    /// not run, and a summary line.
    pub fn table(&self) -> String {
        let header = [
            "run",
            "statistic",
            "baseline",
            "now",
            "change",
            "tolerance",
            "verdict",
        ]
        .map(String::from);
        let body: Vec<[String; 7]> = self.runs.iter().flat_map(rows).collect();
        let mut out = String::new();
        if body.is_empty() {
            let _ = writeln!(out, "every statistic of every run is as recorded");
        } else {
            let mut widths = [0; 7];
            for row in std::iter::once(&header).chain(&body) {
                for (w, cell) in widths.iter_mut().zip(row) {
                    *w = (*w).max(cell.chars().count());
                }
            }
            for row in std::iter::once(&header).chain(&body) {
                let mut line = String::new();
                for (k, (cell, w)) in row.iter().zip(widths).enumerate() {
                    // Names left, numbers right.
                    if k < 2 || k == 6 {
                        let _ = write!(line, "{cell:<w$}  ");
                    } else {
                        let _ = write!(line, "{cell:>w$}  ");
                    }
                }
                let _ = writeln!(out, "{}", line.trim_end());
            }
        }
        for run in &self.runs {
            for n in run.notes.iter().filter(|n| is_message(n.what)) {
                let _ = writeln!(out, "{} ({}): {}", run.name, n.what.name(), n.now);
            }
        }
        let count = |v: Verdict| self.runs.iter().filter(|r| r.verdict == v).count();
        let with = if self.overrides.is_empty() {
            String::new()
        } else {
            format!(" with --set {}", self.overrides.join(" --set "))
        };
        let _ = writeln!(
            out,
            "{}{with}: {}: {} ok, {} failed, {} stale, {} could not run ({:.1} s, wsim {VERSION} {REVISION})",
            self.baseline.display(),
            crate::count(self.runs.len(), "run", "runs"),
            count(Verdict::Ok),
            count(Verdict::Failed),
            count(Verdict::Stale),
            count(Verdict::Error),
            self.seconds,
        );
        out
    }

    /// Every run with every statistic (schema `wsim-regress/1`).
    pub fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Wsim {
            version: &'static str,
            revision: &'static str,
        }
        #[derive(Serialize)]
        struct Counts {
            ok: usize,
            failed: usize,
            stale: usize,
            error: usize,
        }
        #[derive(Serialize)]
        struct Doc<'a> {
            schema: &'static str,
            baseline: String,
            /// Overrides applied on top of every run's configuration.
            overrides: &'a [String],
            wsim: Wsim,
            verdict: Verdict,
            /// The process exit status of `wsim regress check`.
            exit_status: u8,
            seconds: f64,
            counts: Counts,
            runs: &'a [RunCheck],
        }
        let count = |v: Verdict| self.runs.iter().filter(|r| r.verdict == v).count();
        let doc = Doc {
            schema: SCHEMA,
            baseline: self.baseline.display().to_string(),
            overrides: &self.overrides,
            wsim: Wsim {
                version: VERSION,
                revision: REVISION,
            },
            verdict: self.verdict(),
            exit_status: self.exit_code(),
            seconds: self.seconds,
            counts: Counts {
                ok: count(Verdict::Ok),
                failed: count(Verdict::Failed),
                stale: count(Verdict::Stale),
                error: count(Verdict::Error),
            },
            runs: &self.runs,
        };
        serde_json::to_string_pretty(&doc).expect("a check always serializes")
    }
}
