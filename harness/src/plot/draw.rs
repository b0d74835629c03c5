//! The figures wsim draws, with `plotters` into SVG: grouped bars, stacked bars and lines,
//! each with a title, labelled axes, a legend beside the chart (never over the data) and
//! a caption line below it. SVG text needs no fonts on the drawing machine.

use std::path::Path;

use anyhow::{anyhow, Context};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Tableau's ten colours and two more: distinguishable, and the same part keeps its colour
/// from figure to figure.
const PALETTE: [RGBColor; 12] = [
    RGBColor(78, 121, 167),
    RGBColor(242, 142, 43),
    RGBColor(225, 87, 89),
    RGBColor(118, 183, 178),
    RGBColor(89, 161, 79),
    RGBColor(237, 201, 72),
    RGBColor(176, 122, 161),
    RGBColor(255, 157, 167),
    RGBColor(156, 117, 95),
    RGBColor(186, 176, 172),
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
];

fn color(k: usize) -> RGBColor {
    PALETTE[k % PALETTE.len()]
}

/// What every figure has around its data.
#[derive(Clone, Debug, Default)]
pub struct Labels {
    pub title: String,
    pub x: String,
    pub y: String,
}

/// Bars in groups: `values[group][series]` (`None`: no such run).
pub struct GroupedBars {
    pub groups: Vec<String>,
    pub series: Vec<String>,
    pub values: Vec<Vec<Option<f64>>>,
    /// A horizontal reference line (1.0 for speedups).
    pub reference: Option<f64>,
}

/// Bars of stacked parts: `values[bar][part]`, drawn as shares of each bar's total
/// (percent) or as they are.
#[derive(Clone, Debug, PartialEq)]
pub struct StackedBars {
    pub bars: Vec<String>,
    pub parts: Vec<String>,
    pub values: Vec<Vec<f64>>,
    pub percent: bool,
}

/// Lines: per series, its points. `categories`: the x values are names, plotted at
/// 0, 1, 2 ... in this order (else they are numbers).
pub struct Lines {
    pub series: Vec<(String, Vec<(f64, f64)>)>,
    pub categories: Option<Vec<String>>,
}

fn failed<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("drawing failed: {e:?}")
}

/// A figure of `width` x `height` pixels at `path`: the caption below, a legend of
/// `legend` beside the chart; `draw` fills the chart's area.
pub fn figure(
    path: &Path,
    size: (u32, u32),
    caption: &str,
    legend: &[String],
    draw: impl FnOnce(&Area) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    draw_figure(path, size, caption, legend, draw)
        .with_context(|| format!("cannot draw {}", path.display()))
}

fn draw_figure(
    path: &Path,
    size: (u32, u32),
    caption: &str,
    legend: &[String],
    draw: impl FnOnce(&Area) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let root = SVGBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(failed)?;
    let (top, bottom) = root.split_vertically(size.1 - 28);
    let widest = legend.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
    let legend_width = if legend.is_empty() {
        10
    } else {
        (widest * 7 + 44).min(size.0 / 3)
    };
    let (chart, key) = top.split_horizontally(size.0 - legend_width);
    draw(&chart)?;
    for (k, label) in legend.iter().enumerate() {
        let y = 50 + 20 * k as i32;
        key.draw(&Rectangle::new([(6, y), (20, y + 12)], color(k).filled()))
            .map_err(failed)?;
        key.draw(&Text::new(label.clone(), (26, y), ("sans-serif", 13)))
            .map_err(failed)?;
    }
    bottom
        .draw(&Text::new(
            caption.to_string(),
            (10, 6),
            ("sans-serif", 12).into_font().color(&RGBColor(80, 80, 80)),
        ))
        .map_err(failed)?;
    root.present().map_err(failed)
}

/// An axis value in few characters: 1.6M, 250k, 0.75.
fn compact(v: &f64) -> String {
    let a = v.abs();
    let (scaled, suffix) = if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e4 {
        (v / 1e3, "k")
    } else {
        (*v, "")
    };
    let text = format!("{scaled:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}{suffix}")
}

/// The largest value to show (a little above the data, never 0).
fn ceiling(max: f64) -> f64 {
    if max > 0.0 {
        max * 1.1
    } else {
        1.0
    }
}

/// Write `names[i]` under the middle of slot `i` (x from i to i + 1) of a chart whose x
/// axis has no labels of its own.
fn name_slots(area: &Area, chart: &SlotsChart, names: &[String]) -> anyhow::Result<()> {
    let (left, top) = area.get_base_pixel();
    let style = ("sans-serif", 12)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (i, name) in names.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(i as f64 + 0.5, 0.0));
        area.draw(&Text::new(
            name.clone(),
            (x - left, y - top + 6),
            style.clone(),
        ))
        .map_err(failed)?;
    }
    Ok(())
}

type SlotsChart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A chart of named slots along x (slot `i` from i to i + 1, its name under it) and
/// values from 0 to `top` up y.
fn slots_chart<'a, 'b>(
    area: &'a Area<'b>,
    labels: &Labels,
    names: &[String],
    top: f64,
) -> anyhow::Result<SlotsChart<'a, 'b>> {
    let mut chart = ChartBuilder::on(area)
        .caption(&labels.title, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..names.len() as f64, 0.0..top)
        .map_err(failed)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(&labels.x)
        .y_desc(&labels.y)
        .x_labels(0)
        .y_label_formatter(&compact)
        .draw()
        .map_err(failed)?;
    name_slots(area, &chart, names)?;
    Ok(chart)
}

pub fn grouped_bars(area: &Area, labels: &Labels, bars: &GroupedBars) -> anyhow::Result<()> {
    let max = bars
        .values
        .iter()
        .flatten()
        .flatten()
        .copied()
        .chain(bars.reference)
        .fold(0.0, f64::max);
    let n = bars.groups.len();
    let mut chart = slots_chart(area, labels, &bars.groups, ceiling(max))?;
    let width = 0.8 / bars.series.len().max(1) as f64;
    for (s, _) in bars.series.iter().enumerate() {
        let rects = (bars.values.iter().enumerate()).filter_map(|(g, row)| {
            let v = row.get(s).copied().flatten()?;
            let left = g as f64 + 0.1 + s as f64 * width;
            Some(Rectangle::new(
                [(left, 0.0), (left + width * 0.9, v)],
                color(s).filled(),
            ))
        });
        chart.draw_series(rects).map_err(failed)?;
    }
    if let Some(r) = bars.reference {
        chart
            .draw_series(LineSeries::new(
                [(0.0, r), (n as f64, r)],
                BLACK.stroke_width(1),
            ))
            .map_err(failed)?;
    }
    Ok(())
}

/// Stacked bars: each part as a share of its bar's total (percent), or its value.
pub fn stacked_bars(area: &Area, labels: &Labels, stacks: &StackedBars) -> anyhow::Result<()> {
    let totals: Vec<f64> = stacks.values.iter().map(|p| p.iter().sum()).collect();
    let top = if stacks.percent {
        100.0
    } else {
        ceiling(totals.iter().copied().fold(0.0, f64::max))
    };
    let mut chart = slots_chart(area, labels, &stacks.bars, top)?;
    for (b, parts) in stacks.values.iter().enumerate() {
        let total = totals[b];
        if total <= 0.0 {
            continue;
        }
        let scale = if stacks.percent { 100.0 / total } else { 1.0 };
        let mut bottom = 0.0;
        let rects = parts.iter().enumerate().map(|(p, v)| {
            let top = bottom + scale * v;
            let rect = Rectangle::new(
                [(b as f64 + 0.15, bottom), (b as f64 + 0.85, top)],
                color(p).filled(),
            );
            bottom = top;
            rect
        });
        chart
            .draw_series(rects.collect::<Vec<_>>())
            .map_err(failed)?;
    }
    Ok(())
}

pub fn lines(area: &Area, labels: &Labels, lines: &Lines) -> anyhow::Result<()> {
    let points = || lines.series.iter().flat_map(|(_, p)| p.iter());
    let (lo, hi) = points().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
        (lo.min(p.0), hi.max(p.0))
    });
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo, hi)
    } else {
        (lo.min(0.0), lo.max(0.0) + 1.0)
    };
    let max = points().map(|p| p.1).fold(0.0, f64::max);
    let margin = (hi - lo) * 0.05;
    let x_range = (lo - margin)..(hi + margin);
    let mut chart = ChartBuilder::on(area)
        .caption(&labels.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(x_range, 0.0..ceiling(max))
        .map_err(failed)?;
    let names = lines.categories.clone().unwrap_or_default();
    // Names sit at 0, 1, 2 ...: label only those points.
    let format_x = |x: &f64| match &lines.categories {
        Some(_) if (x - x.round()).abs() < 1e-9 && *x >= 0.0 => {
            names.get(x.round() as usize).cloned().unwrap_or_default()
        }
        Some(_) => String::new(),
        None => compact(x),
    };
    chart
        .configure_mesh()
        .x_desc(&labels.x)
        .y_desc(&labels.y)
        .x_label_formatter(&format_x)
        .y_label_formatter(&compact)
        .draw()
        .map_err(failed)?;
    for (s, (_, points)) in lines.series.iter().enumerate() {
        let style = color(s).stroke_width(2);
        chart
            .draw_series(LineSeries::new(points.iter().copied(), style))
            .map_err(failed)?;
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 4, color(s).filled())))
            .map_err(failed)?;
    }
    Ok(())
}

/// Split `area` into `n` panels side by side.
pub fn panels<'a>(area: &Area<'a>, n: usize) -> Vec<Area<'a>> {
    area.split_evenly((1, n.max(1)))
}
