//! Plots as SVG (docs/EXPERIMENTS.md): an experiment's figures drawn from its table (the
//! kinds and their columns named in the experiment file), and `wsim plot`'s figure of
//! one run's issue slots per core and per phase from its JSON report. Both draw through
//! [`draw`].

pub mod draw;

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::bail;
use serde::Deserialize;
use wsim_sim::report::Report;
use wsim_sim::stats::{CoreCounters, SlotReason};
use wsim_workloads::record::GraphRun;

use crate::stats::{Cell, Stat};
use crate::table::Table;
use draw::{GroupedBars, Labels, Legend, Lines, StackedBars, Style, XAxis};

/// What an experiment file's `[[plots]]` entry asks for (or `wsim plot`'s options).
#[derive(Clone, Debug, Default, Deserialize)]
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
    /// breakdown: `slots` (issue slots by reason), `phases` (warp time by phase) or
    /// `stalls` (a GPU profiler's warp cycles per issued instruction by stall reason).
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
    /// The figure's width and height in pixels [default: 900 x 540, a column's width].
    pub width: Option<u32>,
    pub height: Option<u32>,
    /// The axis labels' font size; the title's is a fifth larger, the rest a tenth smaller
    /// [default: 17].
    pub font_size: Option<u32>,
    /// Caption lines under the chart: the programs, the `where`, the experiment, the
    /// configuration, graphs and wsim [default: true].
    pub caption: Option<bool>,
    /// Legend entries shown by other names: `{ value = "name" }` (a series' value, a slot
    /// reason, a phase as the legend writes it); a schedule keeps its colour.
    #[serde(default)]
    pub legend: BTreeMap<String, String>,
}

fn cycles() -> String {
    "cycles".into()
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Grouped bars of speedups over a baseline, with the geometric mean of each series.
    Speedup,
    /// Stacked bars of shares (issue slots or phases), one bar per run.
    Breakdown,
    /// A metric over a swept axis, a line per series.
    #[default]
    Line,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Parts {
    Slots,
    Phases,
    /// `stall_REASON` columns: warp cycles per issued instruction by stall reason, as
    /// Nsight Compute's warp-state statistics give them (an `[external]` table's).
    Stalls,
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

/// What an axis column of a table varies, which the table itself does not say: the
/// configuration key (or program argument) and its unit, from the experiment file, or a
/// sweep's column named by its key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AxisColumn {
    pub key: String,
    pub unit: Option<String>,
}

/// What the columns of a table are: the axes' (by column name); the others are the
/// registry's ([`Stat`]) or identify the run.
pub type Columns = BTreeMap<String, AxisColumn>;

/// A column's label with its unit: an axis's key and unit, a statistic's unit from the
/// registry.
fn labelled(column: &str, axes: &Columns) -> String {
    if let Some(axis) = axes.get(column) {
        let mut what: Vec<&str> = Vec::new();
        if !axis.key.is_empty() && axis.key != column {
            what.push(&axis.key);
        }
        what.extend(axis.unit.as_deref());
        return match what.as_slice() {
            [] => column.to_string(),
            _ => format!("{column} ({})", what.join(", ")),
        };
    }
    match Stat::parse(column).and_then(Stat::unit) {
        Some(u) if u != column => format!("{column} ({u})"),
        _ => column.to_string(),
    }
}

/// Whether a column holds sizes in bytes: a `memory.*.size` axis, an axis in bytes, or a
/// statistic in bytes.
fn holds_bytes(column: &str, axes: &Columns) -> bool {
    match axes.get(column) {
        Some(axis) => {
            (axis.key.starts_with("memory.") && axis.key.ends_with(".size"))
                || axis.unit.as_deref() == Some("bytes")
        }
        None => Stat::parse(column).and_then(Stat::unit) == Some("bytes"),
    }
}

/// Whether a column is the L1 data cache's configured size, which a program with the
/// Weaver unit gets half of (sim/src/machine.rs, `effective_memory`).
fn is_l1d_size(column: &str, axes: &Columns) -> bool {
    axes.get(column).is_some_and(|a| a.key == "memory.l1d.size")
}

/// The TOML value of a `where` as the table prints it.
fn cell_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The axis columns of a table: a sweep's (`program`, its `--vary` keys, then `graph`),
/// each named by its configuration key; an experiment's (between `graph_options` and
/// `config`), whose keys only the experiment file knows.
pub fn axis_columns(table: &Table) -> Columns {
    let position = |name: &str| table.column(name);
    let range = match (
        position("program"),
        position("graph_options"),
        position("graph"),
    ) {
        (_, Some(options), _) => (options + 1, position("config").unwrap_or(options + 1)),
        (Some(0), None, Some(graph)) => (1, graph),
        _ => (0, 0),
    };
    (table
        .header
        .get(range.0..range.1)
        .unwrap_or_default()
        .iter())
    .map(|name| {
        let key = if table.column("graph_options").is_some() {
            String::new()
        } else {
            name.clone()
        };
        let sized = key.starts_with("memory.") && key.ends_with(".size");
        let unit = sized.then(|| "bytes".to_string());
        (name.clone(), AxisColumn { key, unit })
    })
    .collect()
}

/// A table figure's series when none is given: `program` when the table has several,
/// else the first axis other than `x`.
pub fn default_series(table: &Table, axes: &Columns, x: &str) -> Option<String> {
    let rows: Vec<&Vec<Cell>> = table.rows.iter().collect();
    if distinct(table, &rows, "program").len() > 1 {
        return Some("program".into());
    }
    (table.header.iter())
        .find(|h| *h != x && axes.contains_key(h.as_str()))
        .cloned()
}

impl PlotSpec {
    /// Keep only the rows whose `column` has `value` (a `where`).
    pub fn keep_where(&mut self, column: &str, value: &str) {
        (self.filter).insert(column.into(), toml::Value::String(value.into()));
    }

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

    /// Check what a kind needs, and the figure's size.
    pub fn check(&self) -> anyhow::Result<()> {
        let at = |what: &str| format!("plot `{}`: {what}", self.name);
        for (key, value, range) in [
            ("width", self.width, 200..=8000),
            ("height", self.height, 150..=8000),
            ("font_size", self.font_size, 6..=72),
        ] {
            if let Some(v) = value.filter(|v| !range.contains(v)) {
                bail!(at(&format!(
                    "{key} = {v} is out of its range {}..={}",
                    range.start(),
                    range.end()
                )));
            }
        }
        match self.kind {
            Kind::Speedup if self.series.is_none() || self.baseline.is_none() => {
                bail!(at(
                    "a speedup plot needs `series` and `baseline` (a value of the series)"
                ))
            }
            Kind::Breakdown if self.parts.is_none() => {
                bail!(at(
                    "a breakdown plot needs `parts` (\"slots\", \"phases\" or \"stalls\")"
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

    /// Draw the plot of `table` into `dir/NAME.svg` and `dir/NAME.pdf`; `axes`: what the
    /// table's axis columns vary. Returns the SVG's path.
    pub fn draw(
        &self,
        table: &Table,
        dir: &Path,
        axes: &Columns,
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
        let caption = self.caption_lines(table, &rows, axes);
        let style = self.style();
        let x_bytes = holds_bytes(&self.x, axes);
        let x_label = self
            .x_label
            .clone()
            .unwrap_or_else(|| labelled(&self.x, axes));
        let series_title = self.series.as_deref().map(|s| labelled(s, axes));
        // A series of sizes is named as sizes; each series with the wsim that measured it
        // when the rows come from several.
        let series_bytes = self.series.as_deref().is_some_and(|s| holds_bytes(s, axes));
        let builds = builds(table, &rows, self.series.as_deref());
        let shown = |value: &str| {
            let mut name = sized(value, series_bytes);
            // A series another build measured than most is named with its builds.
            if let Some(theirs) = builds.as_ref().and_then(|b| b.others.get(value)) {
                name.push_str(&format!(" (wsim {})", theirs.join(", ")));
            }
            name
        };
        match self.kind {
            Kind::Speedup => {
                let mut bars = self.speedups(table, &rows)?;
                if x_bytes {
                    for g in &mut bars.groups {
                        *g = sized(g, true);
                    }
                }
                let baseline = self.baseline.as_deref().unwrap_or_default();
                let series = self.series.as_deref().unwrap_or_default();
                let title = self.title.clone().unwrap_or_else(|| {
                    format!(
                        "speedup over {series} {} ({})",
                        sized(baseline, series_bytes),
                        self.metric
                    )
                });
                let labels = Labels {
                    title: String::new(),
                    x: x_label,
                    y: self.y_label.clone().unwrap_or_else(|| {
                        format!(
                            "speedup over {} (x: its {} / the run's)",
                            sized(baseline, series_bytes),
                            self.metric
                        )
                    }),
                };
                let mut legend = Legend::series(series_title, bars.series.clone());
                legend.entries = bars.series.iter().map(|v| shown(v)).collect();
                legend.rename(&self.legend);
                draw::figure(&path, &style, &title, &caption, &legend, |area| {
                    draw::grouped_bars(area, &style, &labels, &bars, &legend.colours)
                })?;
            }
            Kind::Breakdown => {
                let stacks = self.breakdown(table)?;
                let parts = self.parts.expect("checked");
                if !stacks.values.iter().flatten().any(|v| *v > 0.0) {
                    let columns = match parts {
                        Parts::Slots => "slots_*",
                        Parts::Phases => "phase_*_warp_cycles",
                        Parts::Stalls => "stall_*",
                    };
                    return Err(self.nothing_to_draw(columns));
                }
                let mut stacks = stacks;
                for bar in &mut stacks.bars {
                    *bar = sized(
                        bar,
                        if self.series.is_some() {
                            series_bytes
                        } else {
                            x_bytes
                        },
                    );
                }
                for (group, _) in &mut stacks.groups {
                    *group = sized(group, x_bytes);
                }
                let what = match parts {
                    Parts::Slots => "issue slots",
                    Parts::Phases => "warp time",
                    Parts::Stalls => "warp cycles per issued instruction",
                };
                let title = self.title.clone().unwrap_or_else(|| match parts {
                    Parts::Slots => "issue slots by reason".into(),
                    Parts::Phases => "warp time by phase".into(),
                    Parts::Stalls => "warp stalls by reason".into(),
                });
                let labels = Labels {
                    title: String::new(),
                    x: x_label,
                    y: self.y_label.clone().unwrap_or_else(|| match self.scale {
                        Scale::Share => format!("share of {what} (%)"),
                        Scale::Cycles => match parts {
                            Parts::Slots => "issue slots (cycles x slots)".into(),
                            Parts::Phases => "warp time (warp cycles)".into(),
                            Parts::Stalls => "warp cycles per issued instruction".into(),
                        },
                        Scale::Relative => format!(
                            "{what} relative to {}'s {} (x)",
                            self.baseline_text(),
                            self.relative_part.as_deref().unwrap_or("total")
                        ),
                    }),
                };
                let legend_title = match parts {
                    Parts::Slots => "slot reason",
                    Parts::Phases => "phase",
                    Parts::Stalls => "stall reason",
                };
                let mut legend = Legend::parts(Some(legend_title.into()), stacks.parts.clone());
                legend.rename(&self.legend);
                draw::figure(&path, &style, &title, &caption, &legend, |area| {
                    draw::stacked_bars(area, &style, &labels, &stacks)
                })?;
            }
            Kind::Line => {
                // Sizes on a log2 axis; a few values (booleans, a small set of numbers) as
                // categories, so that no tick falls between two of them.
                let lines = self.lines(table, &rows, x_bytes)?;
                if lines.series.is_empty() {
                    return Err(self.nothing_to_draw(&self.metric));
                }
                let mut legend = Legend::series(
                    series_title,
                    lines.series.iter().map(|(n, _)| n.clone()).collect(),
                );
                legend.entries = lines.series.iter().map(|(n, _)| shown(n)).collect();
                legend.rename(&self.legend);
                let x_label = if lines.x == XAxis::Log2Bytes && self.x_label.is_none() {
                    format!("{x_label}, log2 scale")
                } else {
                    x_label
                };
                let title = self
                    .title
                    .clone()
                    .unwrap_or_else(|| format!("{} by {}", self.metric, self.x));
                let labels = Labels {
                    title: String::new(),
                    x: x_label,
                    y: self
                        .y_label
                        .clone()
                        .unwrap_or_else(|| labelled(&self.metric, axes)),
                };
                draw::figure(&path, &style, &title, &caption, &legend, |area| {
                    draw::lines(area, &style, &labels, &lines, &legend.colours)
                })?;
            }
        }
        Ok(path)
    }

    /// The figure's size, type and caption as the plot asks (the defaults otherwise).
    fn style(&self) -> Style {
        let d = Style::default();
        Style {
            width: self.width.unwrap_or(d.width),
            height: self.height.unwrap_or(d.height),
            font: self.font_size.map_or(d.font, f64::from),
            caption: self.caption.unwrap_or(d.caption),
        }
    }

    /// The caption's lines: the programs and the `where` that picked the rows; what the
    /// rows are ([`provenance`]); and, when a swept `memory.l1d.size` reaches programs with
    /// the Weaver unit, that they get half of it.
    fn caption_lines(&self, table: &Table, rows: &[&Vec<Cell>], axes: &Columns) -> Vec<String> {
        let programs = distinct(table, rows, "program");
        let mut first = vec![match programs.len() {
            1..=4 => format!("program {}", programs.join(", ")),
            n => format!("{n} programs"),
        }];
        if !self.filter.is_empty() {
            let filter: Vec<String> = (self.filter.iter())
                .map(|(c, v)| format!("{c}={}", cell_text(v)))
                .collect();
            first.push(format!("where {}", filter.join(", ")));
        }
        let mut lines = vec![first.join(" · "), provenance(table, rows)];
        let failed = rows.iter().filter(|r| !succeeded(table, r)).count();
        if failed > 0 {
            lines.push(format!(
                "× marks {} that did not succeed (its verdict in the table): no value",
                crate::count(failed, "run", "runs")
            ));
        }
        if let Some(builds) = builds(table, rows, self.series.as_deref()) {
            let others: Vec<String> = (builds.others.iter())
                .map(|(v, b)| format!("{v} by {}", b.join(", ")))
                .collect();
            lines.push(format!(
                "measured by {} wsim builds: {}, but {}",
                distinct(table, rows, "wsim_version").len(),
                builds.common,
                others.join("; ")
            ));
        }
        let swept_l1d = std::iter::once(self.x.as_str())
            .chain(self.series.as_deref())
            .find(|c| is_l1d_size(c, axes));
        // What a run with the unit got of the swept size, as its l1d_size says.
        let shares: Vec<String> = swept_l1d
            .and_then(|column| table.column(column))
            .map(|k| {
                let mut shares: Vec<String> = (rows.iter())
                    .filter(|r| table.cell(r, "weaver_unit") == Some(&Cell::Bool(true)))
                    .filter_map(|r| {
                        let got = finite(table.cell(r, "l1d_size")?)?;
                        Some(format!("{:.0}%", 100.0 * got / finite(&r[k])?))
                    })
                    .collect();
                shares.sort_unstable();
                shares.dedup();
                shares
            })
            .unwrap_or_default();
        if let Some(column) = swept_l1d.filter(|_| !shares.is_empty()) {
            let share = match shares.as_slice() {
                [half] if half == "50%" => "half".to_string(),
                many => many.join(" or "),
            };
            lines.push(format!(
                "{column}: a program with the Weaver unit gets {share} of memory.l1d.size as \
                 its data L1 (the rest holds the unit's tables: weaver.l1d_reduction_percent; \
                 the table's l1d_size)"
            ));
        }
        lines
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

    /// Speedups over the baseline by group (x) and series, then each series' geometric mean;
    /// the baseline's own (all 1) left out. No speedup at all (no run of a group has a
    /// time) is an error.
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
        let mut failed: BTreeMap<(String, String), bool> = BTreeMap::new();
        for r in rows {
            let (rx, rs) = (r[x].to_string(), r[s].to_string());
            if !groups.contains(&rx) {
                groups.push(rx.clone());
            }
            if !series.contains(&rs) {
                series.push(rs.clone());
            }
            // A run that failed has no time to compare: its bar is left out, and crossed.
            let ok = succeeded(table, r);
            failed.insert((rx.clone(), rs.clone()), !ok);
            let v = finite(&r[m]).filter(|v| *v > 0.0 && ok);
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
        // A bar is missing for a failure when its run or its group's baseline failed.
        let mut crossed: Vec<Vec<bool>> = groups
            .iter()
            .map(|g| {
                let base = failed.get(&(g.clone(), baseline.to_string())) == Some(&true);
                (series.iter())
                    .map(|sv| base || failed.get(&(g.clone(), sv.clone())) == Some(&true))
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
            crossed.push(vec![false; series.len()]);
        }
        if !values.iter().flatten().any(Option::is_some) {
            return Err(self.nothing_to_draw(&self.metric));
        }
        // The baseline's bars would all stand at 1: the reference line says it.
        let b = series.iter().position(|v| v == baseline).expect("checked");
        series.remove(b);
        for group in &mut values {
            group.remove(b);
        }
        for group in &mut crossed {
            group.remove(b);
        }
        Ok(GroupedBars {
            groups,
            series,
            values,
            failed: crossed,
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
        let mut rows = self.rows(table);
        let col = |name: &str| {
            table.column(name).ok_or_else(|| {
                anyhow::anyhow!("plot `{}`: the table has no column {name}", self.name)
            })
        };
        let x = col(&self.x)?;
        let series = self.series.as_deref().map(col).transpose()?;
        // With a series, bars grouped by x (a graph), then by series (a schedule), each in
        // the order of its first row; without, a bar per row in the table's order.
        let first = |k: usize| {
            let mut seen: Vec<String> = Vec::new();
            for r in &rows {
                let v = r[k].to_string();
                if !seen.contains(&v) {
                    seen.push(v);
                }
            }
            seen
        };
        let xs = first(x);
        let ss = series.map(first).unwrap_or_default();
        let place = |r: &Vec<Cell>, k: usize, order: &[String]| {
            order.iter().position(|v| *v == r[k].to_string())
        };
        if let Some(s) = series {
            rows.sort_by_key(|r| (place(r, x, &xs), place(r, s, &ss)));
        }
        let groups: Vec<(String, usize)> = match series {
            None => Vec::new(),
            Some(_) => (xs.iter())
                .map(|v| {
                    let n = rows.iter().filter(|r| r[x].to_string() == *v).count();
                    (v.clone(), n)
                })
                .collect(),
        };
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
                                    Parts::Stalls => "stall reason",
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
            failed: rows.iter().map(|r| !succeeded(table, r)).collect(),
            bars: rows
                .iter()
                .map(|r| r[series.unwrap_or(x)].to_string())
                .collect(),
            parts: numbers
                .iter()
                .map(|n| part_label(table, &rows, parts, n))
                .collect(),
            values,
            percent: self.scale == Scale::Share,
            groups,
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

    /// The lines of `rows`; `sizes`: x holds sizes in bytes, placed on a log2 scale
    /// however few.
    fn lines(&self, table: &Table, rows: &[&Vec<Cell>], sizes: bool) -> anyhow::Result<Lines> {
        /// At most this many distinct numbers along x are drawn as categories.
        const FEW: usize = 8;
        let col = |name: &str| table.column(name).expect("checked");
        let (x, m) = (col(&self.x), col(&self.metric));
        let s = self.series.as_deref().map(col);
        let numeric = rows.iter().all(|r| finite(&r[x]).is_some());
        // Names in the order of their first row; a few numbers in their order.
        let mut categories: Vec<String> = Vec::new();
        for r in rows {
            let label = r[x].to_string();
            if !categories.contains(&label) {
                categories.push(label);
            }
        }
        if numeric {
            categories.sort_by(|a, b| {
                let n = |t: &String| t.parse::<f64>().unwrap_or(f64::NAN);
                n(a).total_cmp(&n(b))
            });
        }
        let categorical = !numeric || (categories.len() <= FEW && !sizes);
        let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
        let mut failed: Vec<(String, f64)> = Vec::new();
        for r in rows {
            let xv = if categorical {
                categories
                    .iter()
                    .position(|c| *c == r[x].to_string())
                    .expect("listed") as f64
            } else {
                finite(&r[x]).expect("numeric")
            };
            let name = s.map_or_else(|| self.metric.clone(), |s| r[s].to_string());
            let Some(y) = finite(&r[m]).filter(|_| succeeded(table, r)) else {
                if !succeeded(table, r) {
                    failed.push((name, xv));
                }
                continue;
            };
            match series.iter_mut().find(|(n, _)| *n == name) {
                Some((_, points)) if points.iter().any(|p| p.0 == xv) => bail!(
                    "plot `{}`: several runs have {}={}{}: a line has one point per x; narrow \
                     the rows with `where` or draw a line per value with `series`",
                    self.name,
                    self.x,
                    r[x],
                    s.map_or(String::new(), |_| format!(
                        " and {}={name}",
                        self.series.as_deref().unwrap_or_default()
                    ))
                ),
                Some((_, points)) => points.push((xv, y)),
                None => series.push((name, vec![(xv, y)])),
            }
        }
        for (_, points) in &mut series {
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        // A failed run of a series that has no point at all still names its line.
        for (name, _) in &failed {
            if !series.iter().any(|(n, _)| n == name) {
                series.push((name.clone(), Vec::new()));
            }
        }
        let failed = (failed.into_iter())
            .filter_map(|(name, x)| Some((series.iter().position(|(n, _)| *n == name)?, x)))
            .collect();
        Ok(Lines {
            series,
            failed,
            x: if categorical {
                XAxis::Categories(categories)
            } else if sizes {
                XAxis::Log2Bytes
            } else {
                XAxis::Linear
            },
        })
    }
}

/// Whether a row's run succeeded (`verdict` ok; a table without the column: yes).
fn succeeded(table: &Table, row: &[Cell]) -> bool {
    table.cell(row, "verdict").is_none_or(|v| v.matches("ok"))
}

/// A value as a figure names it: a size in bytes as `16 KiB` when `bytes`.
fn sized(value: &str, bytes: bool) -> String {
    match value.parse::<f64>() {
        Ok(v) if bytes => draw::bytes(v),
        _ => value.to_string(),
    }
}

/// The wsim builds of rows from several: the one that measured the most series (on a tie,
/// the first row's), and each other series' builds (their commits).
struct Builds {
    common: String,
    others: BTreeMap<String, Vec<String>>,
}

/// The builds of `rows` by `series` value, when they come from several (none otherwise).
fn builds(table: &Table, rows: &[&Vec<Cell>], series: Option<&str>) -> Option<Builds> {
    let s = table.column(series?)?;
    let v = table.column("wsim_version")?;
    if distinct(table, rows, "wsim_version").len() < 2 {
        return None;
    }
    let mut by: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for r in rows {
        let version = r[v].to_string();
        // `0.1.0 (fdc6bb22a3a8)`: the commit names the build.
        let build = (version
            .split_once('(')
            .and_then(|(_, c)| c.strip_suffix(')')))
        .unwrap_or(&version)
        .to_string();
        if !order.contains(&build) {
            order.push(build.clone());
        }
        let builds = by.entry(r[s].to_string()).or_default();
        if !builds.contains(&build) {
            builds.push(build);
        }
    }
    let alone = |b: &String| by.values().filter(|v| v.as_slice() == [b.clone()]).count();
    let common = (order.iter().rev())
        .max_by_key(|b| alone(b))
        .cloned()
        .unwrap_or_default();
    by.retain(|_, b| b.as_slice() != [common.clone()]);
    Some(Builds { common, others: by })
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
        Parts::Stalls => column.strip_prefix("stall_").map(String::from),
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
    if parts != Parts::Phases {
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
        Parts::Stalls => table.column(&format!("stall_{name}")),
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

/// What the rows are: the experiment, the configuration(s) and the graph(s) of the
/// plotted rows, and the wsim that measured them.
fn provenance(table: &Table, rows: &[&Vec<Cell>]) -> String {
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
    let text = crate::files::read_text(report_path, crate::REPORT_BYTES, "a report")?;
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
        groups: Vec::new(),
        failed: Vec::new(),
    };
    let per_phase = StackedBars {
        bars: report.phases.keys().map(|p| p.to_string()).collect(),
        values: report.phases.values().map(slots).collect(),
        parts: reasons.clone(),
        percent: true,
        groups: Vec::new(),
        failed: Vec::new(),
    };
    let mut caption = format!(
        "{} · {} cycles · config {}",
        report.program, report.cycles, report.config_hash
    );
    if let Some(graph) = &report.graph {
        caption.push_str(&format!(" · graph {}", graph.spec));
    }
    match report.status {
        wsim_sim::report::Status::Ok => {}
        wsim_sim::report::Status::Failed => {
            caption.push_str(" · FAILED (statistics up to the failure)")
        }
        wsim_sim::report::Status::Interrupted => {
            caption.push_str(" · INTERRUPTED (partial statistics)")
        }
    }
    let style = Style {
        width: 1000,
        ..Style::default()
    };
    let legend = Legend::parts(Some("slot reason".into()), reasons);
    draw::figure(out, &style, "", &[caption], &legend, |area| {
        let panels = draw::panels(area, 2);
        let core_labels = Labels {
            title: "issue slots per core".into(),
            x: "core".into(),
            y: "share of the core's issue slots (%)".into(),
        };
        draw::stacked_bars(&panels[0], &style, &core_labels, &per_core)?;
        let phase_labels = Labels {
            title: "issue slots per phase (all cores)".into(),
            x: "phase".into(),
            y: "share of the phase's issue slots (%)".into(),
        };
        draw::stacked_bars(&panels[1], &style, &phase_labels, &per_phase)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Table {
        Table::parse(text, "t.csv").unwrap()
    }

    fn spec(text: &str) -> PlotSpec {
        toml::from_str(&format!("name = 'p'\n{text}")).unwrap()
    }

    #[test]
    fn speedups_leave_out_the_baselines_bars() {
        let t = table(
            "graph,schedule,cycles,verdict\n\
             A,VM,100,ok\nA,SW,50,ok\nA,EM,200,ok\nB,VM,90,ok\nB,SW,30,ok\nB,EM,45,ok\n",
        );
        let p = spec("kind = 'speedup'\nx = 'graph'\nseries = 'schedule'\nbaseline = 'VM'");
        let rows = p.rows(&t);
        let bars = p.speedups(&t, &rows).unwrap();
        assert_eq!(bars.series, ["SW", "EM"]);
        assert_eq!(bars.groups, ["A", "B", "geomean"]);
        assert_eq!(bars.values[0], [Some(2.0), Some(0.5)]);
        assert_eq!(bars.values[1], [Some(3.0), Some(2.0)]);
        let g = bars.values[2][0].unwrap();
        assert!((g - 6f64.sqrt()).abs() < 1e-12);
        assert_eq!(bars.reference, Some(1.0));
    }

    #[test]
    fn breakdown_bars_are_grouped_by_x_then_series() {
        let t = table(
            "graph,schedule,slots_issued,slots_barrier\n\
             A,SW,1,1\nB,SW,2,2\nA,VM,3,3\nB,VM,4,4\nC,VM,5,5\n",
        );
        let p = spec("kind = 'breakdown'\nparts = 'slots'\nx = 'graph'\nseries = 'schedule'");
        let stacks = p.breakdown(&t).unwrap();
        assert_eq!(stacks.bars, ["SW", "VM", "SW", "VM", "VM"]);
        assert_eq!(
            stacks.groups,
            [
                ("A".to_string(), 2),
                ("B".to_string(), 2),
                ("C".to_string(), 1)
            ]
        );
        let issued: Vec<f64> = stacks.values.iter().map(|v| v[0]).collect();
        assert_eq!(issued, [1.0, 3.0, 2.0, 4.0, 5.0]);
        // Without a series, a bar per row in the table's order, no groups.
        let p = spec("kind = 'breakdown'\nparts = 'slots'\nx = 'graph'");
        let stacks = p.breakdown(&t).unwrap();
        assert_eq!(stacks.bars, ["A", "B", "A", "B", "C"]);
        assert!(stacks.groups.is_empty());
    }

    #[test]
    fn a_line_has_one_point_per_x() {
        let t = table("program,a,b,graph,cycles\np,1,1,,10\np,1,2,,20\n");
        let p = spec("kind = 'line'\nx = 'a'");
        let rows = p.rows(&t);
        let e = p.lines(&t, &rows, false).unwrap_err().to_string();
        assert!(
            e.contains("several runs have a=1: a line has one point per x"),
            "{e}"
        );
        let p = spec("kind = 'line'\nx = 'a'\nseries = 'b'");
        assert_eq!(p.lines(&t, &rows, false).unwrap().series.len(), 2);
    }

    #[test]
    fn axes_and_sizes_are_labelled_with_their_units() {
        let sweep = table("program,memory.l1d.size,gpu.warps_per_core,graph,cycles\n");
        let axes = axis_columns(&sweep);
        assert_eq!(
            axes.keys().collect::<Vec<_>>(),
            ["gpu.warps_per_core", "memory.l1d.size"]
        );
        assert!(holds_bytes("memory.l1d.size", &axes));
        assert!(!holds_bytes("gpu.warps_per_core", &axes));
        assert!(holds_bytes("dram_bytes", &axes) && !holds_bytes("cycles", &axes));
        assert_eq!(labelled("ipc", &axes), "ipc (warp instructions per cycle)");
        let experiment =
            table("experiment,program,graph,graph_spec,graph_options,l1_bytes,config,cycles\n");
        assert_eq!(
            axis_columns(&experiment).keys().collect::<Vec<_>>(),
            ["l1_bytes"]
        );
        let mut axes = Columns::new();
        axes.insert(
            "l1_bytes".into(),
            AxisColumn {
                key: "memory.l1d.size".into(),
                unit: Some("bytes".into()),
            },
        );
        assert_eq!(
            labelled("l1_bytes", &axes),
            "l1_bytes (memory.l1d.size, bytes)"
        );
        for (bytes, text) in [
            (512.0, "512 B"),
            (16384.0, "16 KiB"),
            (1048576.0, "1 MiB"),
            (1572864.0, "1.5 MiB"),
        ] {
            assert_eq!(draw::bytes(bytes), text);
        }
    }
}
