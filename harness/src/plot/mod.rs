//! Plots as SVG (docs/EXPERIMENTS.md): an experiment's figures drawn from its table (the
//! kinds and their columns named in the experiment file), and `wsim plot`'s figure of
//! one run's issue slots per core and per phase from its JSON report (`run.rs`). Both
//! draw through [`draw`]. Here: a plot's specification, its checks, its rows and caption,
//! and [`PlotSpec::draw`], which hands the figure to its kind's module: `speedup.rs`
//! (grouped bars over a baseline, through [`crate::speedup`]), `breakdown.rs` (stacked
//! bars of issue slots, phases or stall reasons), `line.rs` (a metric over an axis).

mod breakdown;
pub mod draw;
mod line;
mod run;
mod speedup;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::bail;
use serde::Deserialize;

use crate::stats::{Cell, Stat};
use crate::table::Table;
use draw::Style;

pub use run::run;

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
    pub fn draw(&self, table: &Table, dir: &Path, axes: &Columns) -> anyhow::Result<PathBuf> {
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
        let figure = Figure {
            path: dir.join(format!("{}.svg", self.name)),
            caption: self.caption_lines(table, &rows, axes),
            style: self.style(),
            x_bytes: holds_bytes(&self.x, axes),
            x_label: (self.x_label.clone()).unwrap_or_else(|| labelled(&self.x, axes)),
            series_title: self.series.as_deref().map(|s| labelled(s, axes)),
            // A series of sizes is named as sizes; each series with the wsim that measured
            // it when the rows come from several.
            series_bytes: self.series.as_deref().is_some_and(|s| holds_bytes(s, axes)),
            builds: builds(table, &rows, self.series.as_deref()),
            table,
            rows,
            axes,
        };
        match self.kind {
            Kind::Speedup => self.draw_speedup(&figure)?,
            Kind::Breakdown => self.draw_breakdown(&figure)?,
            Kind::Line => self.draw_line(&figure)?,
        }
        Ok(figure.path)
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

    /// Whether every row it keeps is a sampled run's and none has a value of what it
    /// draws: a sampled run estimates the cycles, not the timing model's other statistics
    /// (docs/ARCHITECTURE.md, "Sampled simulation"), so such a plot has nothing to draw
    /// where a detailed profile of the experiment does.
    pub fn sampled_without_values(&self, table: &Table) -> bool {
        let rows = self.rows(table);
        let drawn = |name: &str| match (self.kind, self.parts) {
            (Kind::Breakdown, Some(Parts::Slots)) => name.starts_with("slots_"),
            (Kind::Breakdown, Some(Parts::Phases)) => {
                name.starts_with("phase_") && name.ends_with("_warp_cycles")
            }
            (Kind::Breakdown, _) => name.starts_with("stall_"),
            _ => name == self.metric,
        };
        let columns: Vec<usize> = (table.header.iter().enumerate())
            .filter(|(_, name)| drawn(name))
            .map(|(k, _)| k)
            .collect();
        !rows.is_empty()
            && rows
                .iter()
                .all(|r| table.is_sampled(r) && columns.iter().all(|&k| r[k] == Cell::Empty))
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
}

/// What every kind's figure takes from the plot and its table: where it goes, its style
/// and caption, the x axis's label, the series' title and names, the rows it keeps.
struct Figure<'t> {
    path: PathBuf,
    caption: Vec<String>,
    style: Style,
    /// The x column holds sizes in bytes.
    x_bytes: bool,
    x_label: String,
    series_title: Option<String>,
    /// The series column holds sizes in bytes.
    series_bytes: bool,
    builds: Option<Builds>,
    table: &'t Table,
    rows: Vec<&'t Vec<Cell>>,
    axes: &'t Columns,
}

impl Figure<'_> {
    /// A series' value as the legend names it: a size as a size, a series another build
    /// measured than most with its builds.
    fn shown(&self, value: &str) -> String {
        let mut name = sized(value, self.series_bytes);
        if let Some(theirs) = self.builds.as_ref().and_then(|b| b.others.get(value)) {
            name.push_str(&format!(" (wsim {})", theirs.join(", ")));
        }
        name
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

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn table(text: &str) -> Table {
        Table::parse(text, "t.csv").unwrap()
    }

    pub(super) fn spec(text: &str) -> PlotSpec {
        toml::from_str(&format!("name = 'p'\n{text}")).unwrap()
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

    /// A plot of what sampled runs do not estimate has nothing to draw when its rows are
    /// all sampled; of their cycles, or with a detailed row among them, it has.
    #[test]
    fn a_plot_of_what_sampled_runs_lack_is_known_before_drawing() {
        let sampled = table(
            "graph,schedule,sampled,cycles,group_spmm_cycles,slots_issued\n\
             CO,VM,yes,100,,\nCO,SW,yes,80,,\n",
        );
        let line =
            spec("kind = 'line'\nx = 'graph'\nseries = 'schedule'\nmetric = 'group_spmm_cycles'");
        let speedup = spec("kind = 'speedup'\nx = 'graph'\nseries = 'schedule'\nbaseline = 'VM'");
        let slots = spec("kind = 'breakdown'\nx = 'graph'\nparts = 'slots'");
        assert!(line.sampled_without_values(&sampled));
        assert!(slots.sampled_without_values(&sampled));
        assert!(
            !speedup.sampled_without_values(&sampled),
            "the cycles are estimated"
        );
        let mixed = table(
            "graph,schedule,sampled,cycles,group_spmm_cycles,slots_issued\n\
             CO,VM,yes,100,,\nCO,SW,,80,40,70\n",
        );
        assert!(!line.sampled_without_values(&mixed));
        assert!(!slots.sampled_without_values(&mixed));
        let where_sampled = spec(
            "kind = 'line'\nx = 'graph'\nseries = 'schedule'\nmetric = 'group_spmm_cycles'\n\
             where = { schedule = 'VM' }",
        );
        assert!(
            where_sampled.sampled_without_values(&mixed),
            "the rows it keeps"
        );
    }
}
