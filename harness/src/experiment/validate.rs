//! `wsim experiment validate-sampling`: each run of an experiment in full detail and
//! sampled (the experiment's `sampling`, or the sampler's defaults), side by side: the
//! estimate's error, whether its 95% interval covers the detailed cycles, the share of
//! warp instructions simulated in detail and the CPU each took; and each speed-up the
//! experiment's plots draw (`kind = "speedup"` of `cycles`) under both
//! (docs/EXPERIMENTS.md, "Validating sampling"). Nothing is cached: the CPU is measured.

use std::sync::Arc;

use rayon::prelude::*;

use super::{table, Experiment, Run};
use crate::plot::Kind;
use crate::run::{self, RunOptions, RunRecord, RunRequest, Verdict};
use crate::stats::Cell;
use crate::table::Table;

/// The two tables and what did not go well.
pub struct Validation {
    /// A row per run: `RUN_COLUMNS` after the run's identifying columns.
    pub runs: Table,
    /// A row per speed-up of a plot (each group and series, and each series' geomean).
    pub ratios: Table,
    /// The runs that failed or did not verify, either way (each named).
    pub problems: Vec<String>,
    /// The experiment's table as the detailed runs and as the sampled runs make it (what a
    /// paper file's claims read).
    pub detailed: Table,
    pub sampled: Table,
}

/// A run's columns after those that identify it.
pub const RUN_COLUMNS: [&str; 15] = [
    "detailed_cycles",
    "estimated_cycles",
    "cycles_low",
    "cycles_high",
    "error_pct",
    "interval_pct",
    "covered",
    "interleaving",
    "units",
    "measured_units",
    "detail_share_pct",
    "detailed_cpu_s",
    "sampled_cpu_s",
    "cpu_ratio",
    "verdict",
];

/// A ratio's columns.
pub const RATIO_COLUMNS: [&str; 8] = [
    "plot",
    "x",
    "series",
    "baseline",
    "detailed_ratio",
    "sampled_ratio",
    "error_pct",
    "note",
];

/// The CPU time of the calling thread, in seconds.
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec the call writes; the clock id is a constant.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    if rc != 0 {
        return 0.0;
    }
    t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
}

/// One run's record and the CPU seconds its thread took.
struct Timed {
    record: RunRecord,
    cpu: f64,
}

impl Experiment {
    /// Run every run of the experiment in full detail and sampled, in parallel (`progress`:
    /// a bar on stderr), and compare. The sampled runs take the experiment's `sampling`
    /// (the sampler's defaults without one) on one thread each, so that each run's CPU is
    /// its thread's (the results are the same at any number of threads).
    pub fn validate_sampling(&mut self, progress: bool) -> anyhow::Result<Validation> {
        self.runs_in_wsim()?;
        let plan = wsim_sampler::Plan {
            threads: 1,
            ..self.sampling.unwrap_or_default()
        };
        self.sampling = Some(plan);
        let inputs = self.graph_inputs(&self.runs.iter().collect::<Vec<_>>())?;
        let items: Vec<(usize, bool)> = (0..self.runs.len())
            .flat_map(|k| [(k, false), (k, true)])
            .collect();
        let bar = if progress {
            crate::progress::runs(items.len() as u64, &format!("validating {}", self.name))
        } else {
            indicatif::ProgressBar::hidden()
        };
        let timed: Vec<Option<Timed>> = items
            .par_iter()
            .map(|&(k, sampled)| {
                if crate::interrupt::requested() {
                    return None;
                }
                let run = &self.runs[k];
                let request = RunRequest {
                    name: run.program.name.clone(),
                    program: run::Program::Bytes(Arc::clone(&run.elf)),
                    config: run.config.clone(),
                    input: Some(Arc::clone(&inputs[&(run.graph, run.arguments)])),
                    options: RunOptions {
                        sampling: sampled.then_some(plan),
                        ..RunOptions::default()
                    },
                };
                let started = thread_cpu_seconds();
                let record = run::run(request);
                let cpu = thread_cpu_seconds() - started;
                let stopped = (record.report.as_ref())
                    .is_some_and(|r| r.status == wsim_sim::report::Status::Interrupted);
                bar.inc(1);
                (!stopped).then_some(Timed { record, cpu })
            })
            .collect();
        bar.finish_and_clear();
        if timed.iter().any(Option::is_none) {
            return Err(crate::interrupt::Interrupted {
                finished: timed.iter().flatten().count(),
                runs: timed.len(),
            }
            .into());
        }
        let timed: Vec<Timed> = timed.into_iter().flatten().collect();
        let (detailed, sampled): (Vec<&Timed>, Vec<&Timed>) =
            (timed.iter().enumerate()).fold((Vec::new(), Vec::new()), |(mut d, mut s), (i, t)| {
                if i % 2 == 0 {
                    d.push(t)
                } else {
                    s.push(t)
                }
                (d, s)
            });
        let mut problems = Vec::new();
        let mut runs = Table {
            header: self.identifying_header(),
            rows: Vec::new(),
        };
        runs.header.extend(RUN_COLUMNS.map(String::from));
        for ((run, d), s) in self.runs.iter().zip(&detailed).zip(&sampled) {
            let (row, problem) = self.compare(run, d, s);
            runs.rows.push(row);
            problems.extend(problem);
        }
        let all: Vec<&Run> = self.runs.iter().collect();
        let records = |side: &[&Timed]| side.iter().map(|t| t.record.clone()).collect::<Vec<_>>();
        let detailed_table = table::table_of(self, &all, &records(&detailed));
        let sampled_table = table::table_of(self, &all, &records(&sampled));
        let ratios = self.ratios(&detailed_table, &sampled_table);
        Ok(Validation {
            runs,
            ratios,
            problems,
            detailed: detailed_table,
            sampled: sampled_table,
        })
    }

    /// `run`, `program`, `graph`, `reading` and the axes' columns.
    fn identifying_header(&self) -> Vec<String> {
        let mut header: Vec<String> = ["run", "program", "graph", "reading"]
            .map(String::from)
            .to_vec();
        header.extend(self.axes.iter().map(|a| a.name.clone()));
        header
    }

    /// A run's row, and why it did not go well (if it did not).
    fn compare(&self, run: &Run, d: &Timed, s: &Timed) -> (Vec<Cell>, Option<String>) {
        let text = |t: &str| Cell::Text(t.to_string());
        let mut row = vec![
            Cell::Count(run.index as u64),
            text(&run.program.name),
            text(run.graph.map_or("", |g| self.graphs[g].name.as_str())),
            text(&run.reading),
        ];
        row.extend(run.values.iter().map(|v| Cell::Written(v.clone())));
        let problem = |why: String| Some(format!("{}: {why}", self.describe(run)));
        let (dv, sv) = (d.record.verdict(), s.record.verdict());
        let reports = (d.record.report.as_ref(), s.record.report.as_ref());
        let (Some(dr), Some(sr), Verdict::Ok, Verdict::Ok) = (reports.0, reports.1, dv, sv) else {
            row.extend((0..RUN_COLUMNS.len() - 1).map(|_| Cell::Empty));
            row.push(text(&format!(
                "detailed {}, sampled {}",
                dv.name(),
                sv.name()
            )));
            let why = [("detailed", &d.record), ("sampled", &s.record)]
                .iter()
                .filter(|(_, r)| r.verdict() != Verdict::Ok)
                .map(|(how, r)| format!("the {how} run: {} {}", r.verdict().name(), r.error_line()))
                .collect::<Vec<_>>()
                .join("; ");
            return (row, problem(why));
        };
        let Some(p) = sr.sampling.as_ref() else {
            row.extend((0..RUN_COLUMNS.len() - 1).map(|_| Cell::Empty));
            row.push(text("not sampled"));
            return (row, problem("the sampled run has no estimate".into()));
        };
        let detailed = dr.cycles as f64;
        let error = 100.0 * (p.cycles / detailed - 1.0);
        let half = p.cycles_high - p.cycles;
        let covered = p.cycles_low <= detailed && detailed <= p.cycles_high;
        let end = |e: f64| crate::stats::interval_end(Some(e));
        row.extend([
            Cell::Count(dr.cycles),
            Cell::Count(p.cycles.round() as u64),
            end(p.cycles_low),
            end(p.cycles_high),
            Cell::Fixed(error, 3),
            if half.is_finite() {
                Cell::Fixed(100.0 * half / p.cycles, 3)
            } else {
                text("unbounded")
            },
            text(if covered { "yes" } else { "no" }),
            // The sampled run's interleaving check (none for a run simulated whole).
            (p.interleaving.as_ref()).map_or(Cell::Empty, |i| text(i.finding())),
            Cell::Count(u64::from(p.units)),
            Cell::Count(u64::from(p.sampled_units)),
            Cell::Fixed(
                100.0 * p.detailed_instructions as f64 / p.instructions.max(1) as f64,
                1,
            ),
            Cell::Fixed(d.cpu, 3),
            Cell::Fixed(s.cpu, 3),
            Cell::Fixed(d.cpu / s.cpu.max(1e-9), 2),
            text("ok"),
        ]);
        (row, None)
    }

    /// Each speed-up of the experiment's speedup plots of `cycles`, under detail and under
    /// sampling (the plots' own pairing, [`crate::speedup`]).
    fn ratios(&self, detailed: &Table, sampled: &Table) -> Table {
        let mut ratios = Table {
            header: RATIO_COLUMNS.map(String::from).to_vec(),
            rows: Vec::new(),
        };
        let text = |t: &str| Cell::Text(t.to_string());
        let plots = (self.plots.iter())
            .filter(|p| p.kind == Kind::Speedup && p.metric == "cycles")
            .filter(|p| !self.is_part() || p.has_rows(detailed));
        for plot in plots {
            let bars =
                (plot.speedup_bars(detailed)).and_then(|d| Ok((d, plot.speedup_bars(sampled)?)));
            let (d, s) = match bars {
                Ok(bars) => bars,
                Err(e) => {
                    let mut row = vec![text(&plot.name)];
                    row.extend((1..RATIO_COLUMNS.len() - 1).map(|_| Cell::Empty));
                    row.push(text(&format!("{e:#}")));
                    ratios.rows.push(row);
                    continue;
                }
            };
            for (g, group) in d.groups.iter().enumerate() {
                for (k, series) in d.series.iter().enumerate() {
                    let dv = d.values[g][k];
                    let sv = (s.groups.iter().position(|x| x == group))
                        .zip(s.series.iter().position(|x| x == series))
                        .and_then(|(sg, sk)| s.values[sg][sk]);
                    let value = |v: Option<f64>| v.map_or(Cell::Empty, |v| Cell::Fixed(v, 4));
                    let error = match (dv, sv) {
                        (Some(a), Some(b)) => Cell::Fixed(100.0 * (b / a - 1.0), 3),
                        _ => Cell::Empty,
                    };
                    ratios.rows.push(vec![
                        text(&plot.name),
                        text(group),
                        text(series),
                        text(plot.baseline.as_deref().unwrap_or_default()),
                        value(dv),
                        value(sv),
                        error,
                        text(if dv.is_some() && sv.is_some() {
                            ""
                        } else {
                            "a side did not succeed"
                        }),
                    ]);
                }
            }
        }
        ratios
    }
}

impl Validation {
    /// `mean |error| 0.42%, max 1.10%, covered 9 of 10` over the runs compared (and how many
    /// intervals are unbounded, the bounded ones' median half width, and how many runs do
    /// work that follows the interleaving, with the bounded intervals' coverage on each
    /// side), then the ratios' errors, the claims'
    /// (`claims`, a paper's compared), the largest share simulated in detail and the CPU
    /// in all.
    pub fn summary(&self, claims: Option<&Table>) -> String {
        let column = |t: &Table, name: &str| t.column(name).expect("a column of ours");
        let numbers = |t: &Table, name: &str| -> Vec<f64> {
            let k = column(t, name);
            (t.rows.iter()).filter_map(|r| r[k].number()).collect()
        };
        let errors: Vec<f64> = numbers(&self.runs, "error_pct")
            .iter()
            .map(|e| e.abs())
            .collect();
        let count = |name: &str, value: &str| {
            let k = column(&self.runs, name);
            (self.runs.rows.iter())
                .filter(|r| r[k].to_string() == value)
                .count()
        };
        let covered = count("covered", "yes");
        // An unbounded interval covers anything: said, so that it is not read as a success.
        let unbounded = match count("interval_pct", "unbounded") {
            0 => String::new(),
            n => format!(" ({n} unbounded)"),
        };
        let mean_max = |e: &[f64]| {
            (
                e.iter().sum::<f64>() / e.len().max(1) as f64,
                e.iter().copied().fold(0.0, f64::max),
            )
        };
        let (mean, max) = mean_max(&errors);
        // How wide the bounded intervals are: a wide one covers easily (a stratum measured
        // once borrows its run's spread between strata, an overstatement).
        let mut widths = numbers(&self.runs, "interval_pct");
        widths.sort_by(f64::total_cmp);
        let width = match widths.len() {
            0 => String::new(),
            n => format!(
                ", their median +-{:.1}%",
                (widths[(n - 1) / 2] + widths[n / 2]) / 2.0
            ),
        };
        let mut line = format!(
            "mean |error| {mean:.2}%, max {max:.2}%, covered {covered} of {}{unbounded}{width}",
            self.runs.rows.len()
        );
        // Their intervals hold the functional run's trajectory, not the distance to the
        // detailed run's: the bounded intervals' coverage is given apart on each side, the
        // estimator's own where the work does not follow the order.
        let order = column(&self.runs, "interleaving");
        let (width_at, covered_at) = (
            column(&self.runs, "interval_pct"),
            column(&self.runs, "covered"),
        );
        // (runs, bounded, bounded covering): where the work does not follow the order, and
        // where it does.
        let mut sides = [(0, 0, 0); 2];
        for r in &self.runs.rows {
            let side =
                &mut sides[usize::from(!matches!(r[order].to_string().as_str(), "same" | ""))];
            side.0 += 1;
            if r[width_at].number().is_some() {
                side.1 += 1;
                side.2 += usize::from(r[covered_at].to_string() == "yes");
            }
        }
        let [(_, others, others_covered), (following, bounded, bounded_covered)] = sides;
        if following > 0 {
            line.push_str(&format!(
                " ({following} whose work follows the order, {bounded_covered} of their \
                 {bounded} bounded covering; the others {others_covered} of {others})"
            ));
        }
        let ratio_errors: Vec<f64> = numbers(&self.ratios, "error_pct")
            .iter()
            .map(|e| e.abs())
            .collect();
        if !ratio_errors.is_empty() {
            let (mean, max) = mean_max(&ratio_errors);
            line.push_str(&format!(
                "; ratios: mean |error| {mean:.2}%, max {max:.2}% over {}",
                ratio_errors.len()
            ));
        }
        if let Some(claims) = claims {
            let errors: Vec<f64> = (numbers(claims, "error_pct").iter())
                .map(|e| e.abs())
                .collect();
            let (_, max) = mean_max(&errors);
            line.push_str(&format!(
                "; claims: max |error| {max:.2}% over {} of {}",
                errors.len(),
                claims.rows.len()
            ));
        }
        let (_, most) = mean_max(&numbers(&self.runs, "detail_share_pct"));
        line.push_str(&format!("; in detail at most {most:.1}%"));
        let (d, s) = (
            numbers(&self.runs, "detailed_cpu_s").iter().sum::<f64>(),
            numbers(&self.runs, "sampled_cpu_s").iter().sum::<f64>(),
        );
        line.push_str(&format!(
            "; CPU {d:.1} s detailed, {s:.1} s sampled ({:.2}x)",
            d / s.max(1e-9)
        ));
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run's row: its error, interval (`None` unbounded), whether it covers and its
    /// interleaving check's finding.
    fn run(error: f64, interval: Option<f64>, covered: bool, finding: &str) -> Vec<Cell> {
        RUN_COLUMNS
            .iter()
            .map(|&c| match c {
                "error_pct" => Cell::Fixed(error, 3),
                "interval_pct" => {
                    interval.map_or(Cell::Text("unbounded".into()), |w| Cell::Fixed(w, 3))
                }
                "covered" => Cell::Text(if covered { "yes" } else { "no" }.into()),
                "interleaving" => Cell::Text(finding.into()),
                "detail_share_pct" => Cell::Fixed(10.0, 1),
                "detailed_cpu_s" => Cell::Fixed(2.0, 2),
                "sampled_cpu_s" => Cell::Fixed(1.0, 2),
                _ => Cell::Empty,
            })
            .collect()
    }

    /// The summary gives the bounded intervals' coverage apart where the work follows the
    /// order (an interval holds the functional run's trajectory) and where it does not.
    #[test]
    fn the_summary_gives_coverage_apart_where_the_work_follows_the_order() {
        let header = |c: &[&str]| c.iter().map(|s| s.to_string()).collect();
        let runs = Table {
            header: header(&RUN_COLUMNS),
            rows: vec![
                run(1.0, Some(2.0), true, "same"),
                run(-3.0, Some(1.0), false, "same"),
                run(0.5, Some(4.0), true, ""),
                run(2.0, Some(3.0), true, "work"),
                run(-9.0, None, true, "places"),
                run(6.0, Some(1.0), false, "elsewhere"),
            ],
        };
        let validation = Validation {
            runs,
            ratios: Table {
                header: header(&RATIO_COLUMNS),
                rows: Vec::new(),
            },
            problems: Vec::new(),
            detailed: Table::default(),
            sampled: Table::default(),
        };
        let line = validation.summary(None);
        assert!(
            line.starts_with(
                "mean |error| 3.58%, max 9.00%, covered 4 of 6 (1 unbounded), their median \
                 +-2.0% (3 whose work follows the order, 1 of their 2 bounded covering; the \
                 others 2 of 3); in detail at most 10.0%; CPU 12.0 s detailed, 6.0 s sampled"
            ),
            "{line}"
        );
    }
}
