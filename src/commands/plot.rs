//! `wsim plot`: a figure of a table of runs (a sweep's CSV or an experiment's table), or of
//! one run's issue slots per core and per phase from its JSON report.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use wsim_harness::plot::{self, Kind, Parts, PlotSpec};
use wsim_harness::table::Table;

#[derive(Args)]
pub struct PlotArgs {
    /// A table of runs (`.csv`: `wsim sweep --csv`, an experiment's table), or one run's
    /// report (`wsim run --json`).
    input: PathBuf,
    /// The SVG to write; a PDF of it goes beside [default: the input's name with .svg].
    #[arg(short, long, value_name = "FILE.svg")]
    output: Option<PathBuf>,
    /// A table's figure: a metric over an axis, a line per series (line); speedups over a
    /// baseline value of the series (speedup); issue slots or warp time per run, stacked
    /// (breakdown).
    #[arg(long, value_enum, default_value = "line")]
    kind: PlotKind,
    /// The column along x [default: the table's first axis: a sweep's first --vary key].
    #[arg(long, value_name = "COLUMN")]
    x: Option<String>,
    /// The column whose values make the lines or bars [default: program, when the rows
    /// have several programs; else the table's second axis, if it has one].
    #[arg(long, value_name = "COLUMN")]
    series: Option<String>,
    /// The measured column (line, speedup): a statistic of the table (docs/EXPERIMENTS.md).
    #[arg(long, value_name = "COLUMN", default_value = "cycles")]
    metric: String,
    /// speedup: the value of the series the others are compared with.
    #[arg(long, value_name = "VALUE")]
    baseline: Option<String>,
    /// breakdown: issue slots by reason, or warp time by phase.
    #[arg(long, value_enum)]
    parts: Option<PartsArg>,
    /// Only the rows whose column has this value (repeatable), e.g. `--where graph=UK`.
    #[arg(long = "where", value_name = "COLUMN=VALUE")]
    filter: Vec<String>,
    #[arg(long)]
    title: Option<String>,
    /// The x axis's label [default: the column with its key and unit].
    #[arg(long, value_name = "TEXT")]
    x_label: Option<String>,
    /// The y axis's label [default: the metric with its unit].
    #[arg(long, value_name = "TEXT")]
    y_label: Option<String>,
    /// A table's figure: its width in pixels [default: 900, a column's width].
    #[arg(long, value_name = "PIXELS")]
    width: Option<u32>,
    /// Its height in pixels [default: 540].
    #[arg(long, value_name = "PIXELS")]
    height: Option<u32>,
    /// The axis labels' font size; the title's is a fifth larger, the rest a tenth
    /// smaller [default: 17].
    #[arg(long, value_name = "SIZE")]
    font_size: Option<u32>,
    /// No caption lines under the chart (programs, rows, configuration, wsim).
    #[arg(long)]
    no_caption: bool,
    /// A legend entry shown by another name (repeatable), e.g. `--legend SparseWeaver=SW`;
    /// a schedule keeps its colour.
    #[arg(long, value_name = "VALUE=NAME")]
    legend: Vec<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum PlotKind {
    Line,
    Speedup,
    Breakdown,
}

#[derive(Clone, Copy, ValueEnum)]
enum PartsArg {
    Slots,
    Phases,
    Stalls,
}

pub fn exec(args: PlotArgs) -> anyhow::Result<ExitCode> {
    let out = args
        .output
        .clone()
        .unwrap_or_else(|| args.input.with_extension("svg"));
    if out.extension().and_then(|e| e.to_str()) != Some("svg") {
        bail!("-o {}: the figure is an SVG (FILE.svg)", out.display());
    }
    for file in [out.clone(), out.with_extension("pdf")] {
        wsim_harness::files::check_not_input(&file, &[&args.input])?;
        wsim_harness::files::check_output(&file)?;
    }
    let is_table = args.input.extension().and_then(|e| e.to_str()) == Some("csv");
    if is_table {
        table_figure(&args, &out)?;
    } else {
        let given = args.width.is_some()
            || args.height.is_some()
            || args.font_size.is_some()
            || args.no_caption
            || !args.legend.is_empty();
        if given {
            bail!(
                "--width, --height, --font-size, --no-caption and --legend are options of a \
                 table's figure (a .csv); a run's report (.json) is drawn one way"
            );
        }
        plot::run(&args.input, &out)?;
    }
    println!("wrote {}", out.display());
    println!("wrote {}", out.with_extension("pdf").display());
    Ok(ExitCode::SUCCESS)
}

/// A table's figure as the options describe it.
fn table_figure(args: &PlotArgs, out: &std::path::Path) -> anyhow::Result<()> {
    let table = Table::read(&args.input)?;
    let axes = plot::axis_columns(&table);
    let at = |what: String| anyhow::anyhow!("{}: {what}", args.input.display());
    let x = match &args.x {
        Some(x) => x.clone(),
        None => (table.header.iter().find(|h| axes.contains_key(h.as_str())))
            .cloned()
            .ok_or_else(|| {
                at(format!(
                    "no axis column to put along x: give --x COLUMN (the columns: {})",
                    table.header.join(", ")
                ))
            })?,
    };
    let mut spec = PlotSpec::default();
    for item in &args.filter {
        let (column, value) = item
            .split_once('=')
            .with_context(|| format!("--where {item}: expected COLUMN=VALUE"))?;
        spec.keep_where(column.trim(), value.trim());
    }
    let mut legend = std::collections::BTreeMap::new();
    for item in &args.legend {
        let (value, name) = item
            .split_once('=')
            .with_context(|| format!("--legend {item}: expected VALUE=NAME"))?;
        legend.insert(value.trim().to_string(), name.trim().to_string());
    }
    let kind = match args.kind {
        PlotKind::Line => Kind::Line,
        PlotKind::Speedup => Kind::Speedup,
        PlotKind::Breakdown => Kind::Breakdown,
    };
    let spec = PlotSpec {
        name: out
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        kind,
        title: args.title.clone(),
        series: args
            .series
            .clone()
            .or_else(|| plot::default_series(&table, &axes, &x)),
        x,
        metric: args.metric.clone(),
        baseline: args.baseline.clone(),
        parts: args.parts.map(|p| match p {
            PartsArg::Slots => Parts::Slots,
            PartsArg::Phases => Parts::Phases,
            PartsArg::Stalls => Parts::Stalls,
        }),
        x_label: args.x_label.clone(),
        y_label: args.y_label.clone(),
        width: args.width,
        height: args.height,
        font_size: args.font_size,
        caption: Some(!args.no_caption),
        legend,
        ..spec
    };
    let dir = out.parent().filter(|d| !d.as_os_str().is_empty());
    spec.draw(&table, dir.unwrap_or(std::path::Path::new(".")), &axes)
        .map_err(|e| at(format!("{e:#}")))?;
    Ok(())
}
