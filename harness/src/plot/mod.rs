//! Plots as SVG (docs/EXPERIMENTS.md): an experiment's figures drawn from its table (the
//! kinds and their columns named in the experiment file), and `wsim plot`'s figure of
//! one run's issue slots per core and per phase from its JSON report. Both draw through
//! [`draw`].

pub mod draw;

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context};
use serde::Deserialize;
use wsim_sim::report::Report;
use wsim_sim::stats::{CoreCounters, SlotReason};
use wsim_workloads::record::GraphRun;

use crate::stats::{Cell, Stat};
use crate::table::Table;
use draw::{GroupedBars, Labels, Lines, StackedBars};

/// What an experiment file's `[[plots]]` entry asks for.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlotSpec {
    /// The file's name: `NAME.svg` beside the table.
    pub name: String,
    pub kind: Kind,
    pub title: Option<String>,
    /// The column along the x axis: speedup's groups, breakdown's bars, line's x values.
    pub x: String,
    /// The column whose values make the bars of a group (speedup), label the bars beside
    /// `x` (breakdown) or make the lines (line).
    pub series: Option<String>,
    /// The measured column (speedup, line).
    #[serde(default = "cycles")]
    pub metric: String,
    /// speedup: the `series` value the others are compared with (`metric` is a time:
    /// speedup = baseline's / theirs).
    pub baseline: Option<String>,
    /// breakdown: `slots` (issue slots by reason) or `phases` (warp time by phase).
    pub parts: Option<Parts>,
    /// breakdown: each bar's parts as shares of its total, as they are, or divided by a
    /// baseline row's total (or part).
    #[serde(default)]
    pub scale: Scale,
    /// breakdown, `scale = "relative"`: the columns' values that pick the baseline row
    /// among the rows with the same value of `group`.
    #[serde(default)]
    pub relative_to: BTreeMap<String, toml::Value>,
    /// breakdown, relative: the column whose value the baseline is picked within
    /// [default: graph].
    pub group: Option<String>,
    /// breakdown, relative: divide by the baseline's part of this name (a slot reason, or
    /// a phase's name or number) instead of its total.
    pub relative_part: Option<String>,
    /// Only the rows whose columns have these values.
    #[serde(default, rename = "where")]
    pub filter: BTreeMap<String, toml::Value>,
    /// Axis labels instead of the column names and units.
    pub x_label: Option<String>,
    pub y_label: Option<String>,
}

fn cycles() -> String {
    "cycles".into()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Grouped bars of speedups over a baseline, with the geometric mean of each series.
    Speedup,
    /// Stacked bars of shares (issue slots or phases), one bar per run.
    Breakdown,
    /// A metric over a swept axis, a line per series.
    Line,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Parts {
    Slots,
    Phases,
}

/// How a breakdown's bars are scaled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scale {
    /// Each part as a share of its bar's total (percent).
    #[default]
    Share,
    /// The parts' values (issue slots, or warp cycles).
    Cycles,
    /// The parts divided by the baseline row's total or `relative_part`.
    Relative,
}

/// The unit of a result column, for axis labels (the registry's).
fn unit(column: &str) -> Option<&'static str> {
    Stat::parse(column).and_then(Stat::unit)
}

fn labelled(column: &str, units: &BTreeMap<String, String>) -> String {
    match units.get(column).map(String::as_str).or(unit(column)) {
        Some(u) if u != column => format!("{column} ({u})"),
        _ => column.to_string(),
    }
}

/// The TOML value of a `where` as the table prints it.
fn cell_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl PlotSpec {
    /// The columns the plot names that `header` lacks (phase columns exist only once a
    /// run has the phase, so they are not checked before the runs).
    pub fn missing_columns(&self, header: &[String]) -> Vec<String> {
        let mut named: Vec<&str> = vec![self.x.as_str()];
        named.extend(self.series.as_deref());
        if self.kind != Kind::Breakdown {
            named.push(&self.metric);
        }
        named.extend(self.filter.keys().map(String::as_str));
        if self.scale == Scale::Relative {
            named.extend(self.relative_to.keys().map(String::as_str));
            named.push(self.group());
        }
        named
            .into_iter()
            .filter(|c| !c.starts_with("phase_") && !header.iter().any(|h| h == c))
            .map(String::from)
            .collect()
    }

    /// Check what a kind needs.
    pub fn check(&self) -> anyhow::Result<()> {
        let at = |what: &str| format!("plot `{}`: {what}", self.name);
        match self.kind {
            Kind::Speedup if self.series.is_none() || self.baseline.is_none() => {
                bail!(at(
                    "a speedup plot needs `series` and `baseline` (a value of the series)"
                ))
            }
            Kind::Breakdown if self.parts.is_none() => {
                bail!(at(
                    "a breakdown plot needs `parts` (\"slots\" or \"phases\")"
                ))
            }
            Kind::Breakdown if self.scale == Scale::Relative && self.relative_to.is_empty() => {
                bail!(at(
                    "scale = \"relative\" needs `relative_to = { column = value, ... }`, \
                     which picks the baseline row of each group"
                ))
            }
            _ if self.scale != Scale::Relative
                && (!self.relative_to.is_empty()
                    || self.group.is_some()
                    || self.relative_part.is_some()) =>
            {
                bail!(at(
                    "`relative_to`, `group` and `relative_part` belong to a breakdown with \
                     scale = \"relative\""
                ))
            }
            Kind::Speedup | Kind::Line if self.scale != Scale::Share => {
                bail!(at("`scale` belongs to a breakdown plot"))
            }
            _ => Ok(()),
        }
    }

    /// A relative breakdown's group column.
    fn group(&self) -> &str {
        self.group.as_deref().unwrap_or("graph")
    }

    /// Draw the plot of `table` into `dir/NAME.svg`; `units`: the units of the axes'
    /// columns (from the experiment file).
    pub fn draw(
        &self,
        table: &Table,
        dir: &Path,
        units: &BTreeMap<String, String>,
    ) -> anyhow::Result<std::path::PathBuf> {
        self.check()?;
        let missing = self.missing_columns(&table.header);
        if !missing.is_empty() {
            bail!(
                "plot `{}`: the table has no column {} (it has: {})",
                self.name,
                missing.join(", "),
                table.header.join(", ")
            );
        }
        let rows = self.rows(table);
        if rows.is_empty() {
            bail!(
                "plot `{}`: no row of the table matches its `where`",
                self.name
            );
        }
        let path = dir.join(format!("{}.svg", self.name));
        let caption = caption(table, &rows);
        let x_label = self
            .x_label
            .clone()
            .unwrap_or_else(|| labelled(&self.x, units));
        match self.kind {
            Kind::Speedup => {
                let bars = self.speedups(table, &rows)?;
                if !bars.values.iter().flatten().any(Option::is_some) {
                    return Err(self.nothing_to_draw(&self.metric));
                }
                let baseline = self.baseline.as_deref().unwrap_or_default();
                let labels = Labels {
                    title: self.title.clone().unwrap_or_else(|| {
                        format!("speedup over {baseline} ({} ratio)", self.metric)
                    }),
                    x: x_label,
                    y: self.y_label.clone().unwrap_or_else(|| {
                        format!("speedup over {baseline} (x, {} ratio)", self.metric)
                    }),
                };
                let width = (160 + 16 * bars.groups.len() * bars.series.len()).max(900) as u32;
                draw::figure(&path, (width, 520), &caption, &bars.series, |area| {
                    draw::grouped_bars(area, &labels, &bars)
                })?;
            }
            Kind::Breakdown => {
                let stacks = self.breakdown(table)?;
                let parts = self.parts.expect("checked");
                if !stacks.values.iter().flatten().any(|v| *v > 0.0) {
                    let columns = match parts {
                        Parts::Slots => "slots_*",
                        Parts::Phases => "phase_*_warp_cycles",
                    };
                    return Err(self.nothing_to_draw(columns));
                }
                let what = match parts {
                    Parts::Slots => "issue slots",
                    Parts::Phases => "warp time",
                };
                let labels = Labels {
                    title: self.title.clone().unwrap_or_else(|| match parts {
                        Parts::Slots => "issue slots by reason".into(),
                        Parts::Phases => "warp time by phase".into(),
                    }),
                    x: x_label,
                    y: self.y_label.clone().unwrap_or_else(|| match self.scale {
                        Scale::Share => format!("share of {what} (%)"),
                        Scale::Cycles => match parts {
                            Parts::Slots => "issue slots (cycles x slots)".into(),
                            Parts::Phases => "warp time (warp cycles)".into(),
                        },
                        Scale::Relative => format!(
                            "{what} relative to {}'s {} (x)",
                            self.baseline_text(),
                            self.relative_part.as_deref().unwrap_or("total")
                        ),
                    }),
                };
                let widest = stacks
                    .bars
                    .iter()
                    .map(|b| b.chars().count())
                    .max()
                    .unwrap_or(0);
                let width = (200 + (7 * widest + 12).max(40) * stacks.bars.len()).max(800) as u32;
                draw::figure(&path, (width, 520), &caption, &stacks.parts, |area| {
                    draw::stacked_bars(area, &labels, &stacks)
                })?;
            }
            Kind::Line => {
                let lines = self.lines(table, &rows);
                if lines.series.is_empty() {
                    return Err(self.nothing_to_draw(&self.metric));
                }
                let names: Vec<String> = lines.series.iter().map(|(n, _)| n.clone()).collect();
                let labels = Labels {
                    title: self
                        .title
                        .clone()
                        .unwrap_or_else(|| format!("{} by {}", self.metric, self.x)),
                    x: x_label,
                    y: self
                        .y_label
                        .clone()
                        .unwrap_or_else(|| labelled(&self.metric, units)),
                };
                draw::figure(&path, (900, 520), &caption, &names, |area| {
                    draw::lines(area, &labels, &lines)
                })?;
            }
        }
        Ok(path)
    }

    /// The error of a plot whose rows have no number in `column` to draw.
    fn nothing_to_draw(&self, column: &str) -> anyhow::Error {
        anyhow::anyhow!(
            "plot `{}`: no value of `{column}` to draw in the rows it keeps (the cells are \
             empty, as for a statistic the runs do not have or runs that failed, or not finite)",
            self.name
        )
    }

    /// Whether any row of `table` is one this plot draws.
    pub fn has_rows(&self, table: &Table) -> bool {
        !self.rows(table).is_empty()
    }

    /// The rows its `where` keeps, in the table's order.
    fn rows<'t>(&self, table: &'t Table) -> Vec<&'t Vec<Cell>> {
        let filter: Vec<(usize, String)> = self
            .filter
            .iter()
            .filter_map(|(c, v)| table.column(c).map(|k| (k, cell_text(v))))
            .collect();
        table
            .rows
            .iter()
            .filter(|r| filter.iter().all(|(k, v)| r[*k].matches(v)))
            .collect()
    }

    /// Speedups over the baseline by group (x) and series, then each series' geometric mean.
    fn speedups(&self, table: &Table, rows: &[&Vec<Cell>]) -> anyhow::Result<GroupedBars> {
        let col = |name: &str| table.column(name).expect("checked");
        let (x, s, m) = (
            col(&self.x),
            col(self.series.as_deref().expect("checked")),
            col(&self.metric),
        );
        let baseline = self.baseline.as_deref().expect("checked");
        let mut groups: Vec<String> = Vec::new();
        let mut series: Vec<String> = Vec::new();
        let mut value: BTreeMap<(String, String), Option<f64>> = BTreeMap::new();
        for r in rows {
            let (rx, rs) = (r[x].to_string(), r[s].to_string());
            if !groups.contains(&rx) {
                groups.push(rx.clone());
            }
            if !series.contains(&rs) {
                series.push(rs.clone());
            }
            // A run that failed has no time to compare: its bar is left out.
            let v = finite(&r[m]).filter(|v| *v > 0.0 && r[col("verdict")].matches("ok"));
            if value.insert((rx.clone(), rs.clone()), v).is_some() {
                bail!(
                    "plot `{}`: several runs have {}={} and {}={}: narrow the rows with `where`",
                    self.name,
                    self.x,
                    rx,
                    self.series.as_deref().unwrap_or_default(),
                    rs
                );
            }
        }
        if !series.iter().any(|v| v == baseline) {
            bail!(
                "plot `{}`: the baseline `{baseline}` is not a value of `{}` (it has {})",
                self.name,
                self.series.as_deref().unwrap_or_default(),
                series.join(", ")
            );
        }
        let mut values: Vec<Vec<Option<f64>>> = groups
            .iter()
            .map(|g| {
                let base = value
                    .get(&(g.clone(), baseline.to_string()))
                    .copied()
                    .flatten();
                series
                    .iter()
                    .map(|sv| {
                        let v = value.get(&(g.clone(), sv.clone())).copied().flatten()?;
                        Some(base? / v)
                    })
                    .collect()
            })
            .collect();
        let geomean: Vec<Option<f64>> = (0..series.len())
            .map(|k| {
                let speedups: Vec<f64> = values.iter().filter_map(|g| g[k]).collect();
                crate::table::geomean(&speedups)
            })
            .collect();
        if groups.len() > 1 {
            groups.push("geomean".into());
            values.push(geomean);
        }
        Ok(GroupedBars {
            groups,
            series,
            values,
            reference: Some(1.0),
        })
    }

    /// A breakdown's bars (its rows, labelled by `x` and `series`) and their parts'
    /// values as the plot's `scale` has them; a relative plot's group without exactly one
    /// baseline row is an error.
    pub fn breakdown(&self, table: &Table) -> anyhow::Result<StackedBars> {
        let parts = self
            .parts
            .ok_or_else(|| anyhow::anyhow!("plot `{}`: not a breakdown", self.name))?;
        let rows = self.rows(table);
        let col = |name: &str| {
            table.column(name).ok_or_else(|| {
                anyhow::anyhow!("plot `{}`: the table has no column {name}", self.name)
            })
        };
        let x = col(&self.x)?;
        let series = self.series.as_deref().map(col).transpose()?;
        let (numbers, columns): (Vec<String>, Vec<usize>) = table
            .header
            .iter()
            .enumerate()
            .filter_map(|(k, h)| part_name(parts, h).map(|n| (n, k)))
            .unzip();
        let value = |r: &[Cell], c: usize| finite(&r[c]).unwrap_or(0.0);
        let mut values: Vec<Vec<f64>> = rows
            .iter()
            .map(|r| columns.iter().map(|&c| value(r, c)).collect())
            .collect();
        if self.scale == Scale::Relative {
            let group = col(self.group())?;
            let baseline: Vec<(usize, String)> = self
                .relative_to
                .iter()
                .map(|(c, v)| Ok((col(c)?, cell_text(v))))
                .collect::<anyhow::Result<_>>()?;
            let is_baseline = |r: &[Cell]| baseline.iter().all(|(k, v)| r[*k].matches(v));
            for (r, bar) in rows.iter().zip(&mut values) {
                let mut found = rows
                    .iter()
                    .filter(|b| b[group] == r[group] && is_baseline(b));
                let base = found.next().ok_or_else(|| {
                    anyhow::anyhow!(
                        "plot `{}`: no baseline row ({}) among the rows with {}={}",
                        self.name,
                        self.baseline_text(),
                        self.group(),
                        r[group]
                    )
                })?;
                if found.next().is_some() {
                    bail!(
                        "plot `{}`: several baseline rows ({}) with {}={}: narrow them with \
                         `where` or `relative_to`",
                        self.name,
                        self.baseline_text(),
                        self.group(),
                        r[group]
                    );
                }
                let divisor = match &self.relative_part {
                    None => columns.iter().map(|&c| value(base, c)).sum(),
                    Some(part) => {
                        let k = part_column(table, parts, base, part).ok_or_else(|| {
                            anyhow::anyhow!(
                                "plot `{}`: relative_part `{part}`: the baseline row with {}={} \
                                 has no such {}",
                                self.name,
                                self.group(),
                                r[group],
                                match parts {
                                    Parts::Slots => "slot reason",
                                    Parts::Phases => "phase",
                                }
                            )
                        })?;
                        value(base, k)
                    }
                };
                if divisor <= 0.0 {
                    bail!(
                        "plot `{}`: the baseline row with {}={} has nothing to divide by",
                        self.name,
                        self.group(),
                        r[group]
                    );
                }
                bar.iter_mut().for_each(|v| *v /= divisor);
            }
        }
        Ok(StackedBars {
            bars: rows
                .iter()
                .map(|r| match series {
                    Some(s) => format!("{} {}", r[x], r[s]),
                    None => r[x].to_string(),
                })
                .collect(),
            parts: numbers
                .iter()
                .map(|n| part_label(table, &rows, parts, n))
                .collect(),
            values,
            percent: self.scale == Scale::Share,
        })
    }

    /// `schedule=SparseWeaver`: what picks a relative breakdown's baseline.
    fn baseline_text(&self) -> String {
        self.relative_to
            .iter()
            .map(|(c, v)| format!("{c}={}", cell_text(v)))
            .collect::<Vec<String>>()
            .join(", ")
    }

    fn lines(&self, table: &Table, rows: &[&Vec<Cell>]) -> Lines {
        let col = |name: &str| table.column(name).expect("checked");
        let (x, m) = (col(&self.x), col(&self.metric));
        let s = self.series.as_deref().map(col);
        let numeric = rows.iter().all(|r| finite(&r[x]).is_some());
        let mut categories: Vec<String> = Vec::new();
        let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
        for r in rows {
            let Some(y) = finite(&r[m]) else { continue };
            let xv = match finite(&r[x]) {
                Some(v) if numeric => v,
                _ => {
                    let label = r[x].to_string();
                    let k = categories.iter().position(|c| *c == label);
                    k.unwrap_or_else(|| {
                        categories.push(label);
                        categories.len() - 1
                    }) as f64
                }
            };
            let name = s.map_or_else(|| self.metric.clone(), |s| r[s].to_string());
            match series.iter_mut().find(|(n, _)| *n == name) {
                Some((_, points)) => points.push((xv, y)),
                None => series.push((name, vec![(xv, y)])),
            }
        }
        for (_, points) in &mut series {
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        Lines {
            series,
            categories: (!numeric).then_some(categories),
        }
    }
}

/// A cell's value if it is a number a chart can place: empty cells (a statistic the run
/// does not have, a failed run), NaN and infinities are left out, so an axis never spans
/// them (plotters would search forever for its ticks).
fn finite(cell: &Cell) -> Option<f64> {
    cell.number().filter(|v| v.is_finite())
}

/// A breakdown's part for a column (`slots_issued` -> `issued`, `phase_1_warp_cycles` ->
/// `1`), if it is one.
fn part_name(parts: Parts, column: &str) -> Option<String> {
    match parts {
        Parts::Slots => column.strip_prefix("slots_").map(String::from),
        Parts::Phases => column
            .strip_prefix("phase_")
            .and_then(|c| c.strip_suffix("_warp_cycles"))
            .map(String::from),
    }
}

/// A row's phases' numbers and names, from its `phase_names` (`0=runtime 1=init ...`).
fn phase_names(table: &Table, row: &[Cell]) -> Vec<(String, String)> {
    table
        .cell(row, "phase_names")
        .map_or_else(Vec::new, |names| {
            names
                .to_string()
                .split(' ')
                .filter_map(|entry| entry.split_once('='))
                .map(|(n, name)| (n.to_string(), name.to_string()))
                .collect()
        })
}

/// A part's legend: the slot reason; `phase N`, with the phase's name when every row that
/// names it gives it the same name.
fn part_label(table: &Table, rows: &[&Vec<Cell>], parts: Parts, part: &str) -> String {
    if parts == Parts::Slots {
        return part.to_string();
    }
    let mut names: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            phase_names(table, r)
                .into_iter()
                .find(|(n, _)| n == part)
                .map(|(_, name)| name)
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    match names.as_slice() {
        [name] => format!("phase {part} {name}"),
        _ => format!("phase {part}"),
    }
}

/// The column of the part `name` (a slot reason; a phase's number or its name in `row`).
fn part_column(table: &Table, parts: Parts, row: &[Cell], name: &str) -> Option<usize> {
    match parts {
        Parts::Slots => table.column(&format!("slots_{name}")),
        Parts::Phases => {
            let number = if name.bytes().all(|b| b.is_ascii_digit()) {
                name.to_string()
            } else {
                phase_names(table, row)
                    .into_iter()
                    .find(|(_, n)| n == name)?
                    .0
            };
            table.column(&format!("phase_{number}_warp_cycles"))
        }
    }
}

/// The values of `column` among `rows`, each once, in order.
fn distinct(table: &Table, rows: &[&Vec<Cell>], column: &str) -> Vec<String> {
    let Some(k) = table.column(column) else {
        return Vec::new();
    };
    let mut seen: Vec<String> = Vec::new();
    for r in rows {
        let value = r[k].to_string();
        if !seen.contains(&value) && !value.is_empty() {
            seen.push(value);
        }
    }
    seen
}

/// The caption: the experiment, the configuration(s) and the graph(s) of the plotted
/// rows, and the wsim that measured them.
fn caption(table: &Table, rows: &[&Vec<Cell>]) -> String {
    let list = |column: &str, many: &str| {
        let values = distinct(table, rows, column);
        match values.len() {
            0 => None,
            1..=3 => Some(values.join(", ")),
            n => Some(format!("{n} {many}")),
        }
    };
    let mut parts = Vec::new();
    if let Some(e) = list("experiment", "experiments") {
        parts.push(format!("experiment {e}"));
    }
    if let Some(c) = list("config", "configurations") {
        let hashes = distinct(table, rows, "config_hash");
        parts.push(match hashes.as_slice() {
            [one] => format!("config {c} (hash {one})"),
            many => format!("config {c} ({} resolved by set and axes)", many.len()),
        });
    }
    parts.push(match list("graph", "graphs") {
        Some(g) => format!("graph {g}"),
        None => "no graph".into(),
    });
    if let Some(v) = list("wsim_version", "versions") {
        parts.push(format!("wsim {v}"));
    }
    parts.join(" · ")
}

/// `wsim plot`: one run's issue slots by reason per core and per phase, as stacked bars
/// side by side, from its JSON report (`wsim run --json`), into `out`.
pub fn run(report_path: &Path, out: &Path) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(report_path)
        .with_context(|| format!("cannot read {}", report_path.display()))?;
    let report: Report<GraphRun> = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "{}: not a wsim run's report (schema wsim-stats/1; write one with wsim run \
             --json): {e}",
            report_path.display()
        )
    })?;
    let reasons: Vec<String> = SlotReason::ALL.map(|r| r.name().to_string()).to_vec();
    let slots = |counters: &CoreCounters| -> Vec<f64> {
        SlotReason::ALL
            .map(|r| counters.slots.get(r) as f64)
            .to_vec()
    };
    let per_core = StackedBars {
        bars: (0..report.cores.len()).map(|c| c.to_string()).collect(),
        values: report.cores.iter().map(|c| slots(&c.total)).collect(),
        parts: reasons.clone(),
        percent: true,
    };
    let per_phase = StackedBars {
        bars: report.phases.keys().map(|p| p.to_string()).collect(),
        values: report.phases.values().map(slots).collect(),
        parts: reasons.clone(),
        percent: true,
    };
    let mut caption = format!(
        "{} · {} cycles · config {}",
        report.program, report.cycles, report.config_hash
    );
    if let Some(graph) = &report.graph {
        caption.push_str(&format!(" · graph {}", graph.spec));
    }
    if report.status == wsim_sim::report::Status::Failed {
        caption.push_str(" · FAILED (statistics up to the failure)");
    }
    let width = (300 + 30 * (per_core.bars.len() + per_phase.bars.len())).max(1000) as u32;
    draw::figure(out, (width, 520), &caption, &reasons, |area| {
        let panels = draw::panels(area, 2);
        let core_labels = Labels {
            title: "issue slots per core".into(),
            x: "core".into(),
            y: "share of the core's issue slots (%)".into(),
        };
        draw::stacked_bars(&panels[0], &core_labels, &per_core)?;
        let phase_labels = Labels {
            title: "issue slots per phase (all cores)".into(),
            x: "phase".into(),
            y: "share of the phase's issue slots (%)".into(),
        };
        draw::stacked_bars(&panels[1], &phase_labels, &per_phase)
    })
}
