//! The figures wsim draws, with `plotters` into SVG: grouped bars, stacked bars and lines,
//! each with a title, labelled axes, a legend with its title beside the chart (never over
//! the data) and caption lines below it; and each SVG again as a PDF beside it (`svg2pdf`,
//! with the host's fonts embedded), for a paper.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use anyhow::{anyhow, Context};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Okabe and Ito's eight colours, safe for the common colour-vision deficiencies and each
/// unlike its neighbours (stacked parts touch), then three of Paul Tol's muted scheme
/// (grey, wine, olive) for the eleven issue-slot reasons; a part keeps its colour from
/// figure to figure.
const PALETTE: [RGBColor; 11] = [
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 158, 115),
    RGBColor(240, 228, 66),
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(204, 121, 167),
    RGBColor(0, 0, 0),
    RGBColor(187, 187, 187),
    RGBColor(136, 34, 85),
    RGBColor(153, 153, 51),
];

fn color(k: usize) -> RGBColor {
    PALETTE[k % PALETTE.len()]
}

/// The chapter-4 schedules' own colours (indices into [`PALETTE`]), the same in every
/// figure, so that SparseWeaver is always blue and VM always orange whichever schedules a
/// figure shows.
const SCHEDULE_COLOURS: [(&str, usize); 7] = [
    ("VM", 0),
    ("EM", 1),
    ("WM", 2),
    ("CM", 3),
    ("SparseWeaver", 4),
    ("EGHW", 5),
    ("EM-search", 6),
];

/// A legend: its title (what the entries are values of), its entries and their colours.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Legend {
    pub title: Option<String>,
    pub entries: Vec<String>,
    pub colours: Vec<RGBColor>,
}

impl Legend {
    /// Parts of a whole (slot reasons, phases), coloured in order: a part keeps its colour
    /// because the parts come in a fixed order.
    pub fn parts(title: Option<String>, entries: Vec<String>) -> Self {
        let colours = (0..entries.len()).map(color).collect();
        Legend {
            title,
            entries,
            colours,
        }
    }

    /// Series that are compared (schedules, sizes): a schedule in its own colour, any other
    /// entry in the palette's first colour that no entry of the figure holds.
    pub fn series(title: Option<String>, entries: Vec<String>) -> Self {
        let own = |e: &String| {
            SCHEDULE_COLOURS
                .iter()
                .find(|(n, _)| n == e)
                .map(|&(_, k)| k)
        };
        let taken: Vec<usize> = entries.iter().filter_map(own).collect();
        let mut free = (0..PALETTE.len()).filter(|k| !taken.contains(k)).cycle();
        let colours = (entries.iter())
            .map(|e| color(own(e).or_else(|| free.next()).unwrap_or(0)))
            .collect();
        Legend {
            title,
            entries,
            colours,
        }
    }
}

/// How x values are placed: as they are, or on a log2 scale labelled as sizes in bytes
/// (B, KiB, MiB, GiB at each power of two).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scale {
    #[default]
    Linear,
    Log2Bytes,
}

/// `bytes` as a person writes a size: `512 B`, `16 KiB`, `1.5 MiB`.
pub fn bytes(bytes: f64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes;
    let mut unit = 0;
    while value.abs() >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text} {}", units[unit])
}

/// What every figure has around its data.
#[derive(Clone, Debug, Default)]
pub struct Labels {
    pub title: String,
    pub x: String,
    pub y: String,
}

/// Bars in groups: `values[group][series]` (`None`: no such run).
#[derive(Debug)]
pub struct GroupedBars {
    pub groups: Vec<String>,
    pub series: Vec<String>,
    pub values: Vec<Vec<Option<f64>>>,
    /// A horizontal reference line (1.0 for speedups).
    pub reference: Option<f64>,
}

/// Bars of stacked parts: `values[bar][part]`, drawn as shares of each bar's total
/// (percent) or as they are; `groups`: consecutive bars that belong together, each with
/// its name and its number of bars, set apart by a gap and named under their bars (empty:
/// no groups).
#[derive(Clone, Debug, PartialEq)]
pub struct StackedBars {
    pub bars: Vec<String>,
    pub parts: Vec<String>,
    pub values: Vec<Vec<f64>>,
    pub percent: bool,
    pub groups: Vec<(String, usize)>,
}

/// Lines: per series, its points. `categories`: the x values are names, plotted at
/// 0, 1, 2 ... in this order (else they are numbers, placed by `scale`).
#[derive(Debug)]
pub struct Lines {
    pub series: Vec<(String, Vec<(f64, f64)>)>,
    pub categories: Option<Vec<String>>,
    pub scale: Scale,
}

fn failed<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("drawing failed: {e}")
}

/// A figure of `width` x `height` pixels at `path` (an SVG, and the same as a PDF beside
/// it): `caption`'s lines below, `legend` beside the chart; `draw` fills the chart's area.
pub fn figure(
    path: &Path,
    size: (u32, u32),
    caption: &[String],
    legend: &Legend,
    draw: impl FnOnce(&Area) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    // Drawn in memory, then each file written whole: a failed write leaves no half figure.
    let mut svg = String::new();
    draw_figure(&mut svg, size, caption, legend, draw)
        .with_context(|| format!("cannot draw {}", path.display()))?;
    crate::files::write_whole(path, svg.as_bytes())?;
    let pdf = path.with_extension("pdf");
    let bytes = pdf_of(&svg).with_context(|| format!("cannot make {}", pdf.display()))?;
    Ok(crate::files::write_whole(&pdf, &bytes)?)
}

fn draw_figure(
    svg: &mut String,
    size: (u32, u32),
    caption: &[String],
    legend: &Legend,
    draw: impl FnOnce(&Area) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let root = SVGBackend::with_string(svg, size).into_drawing_area();
    root.fill(&WHITE).map_err(failed)?;
    let (top, bottom) = root.split_vertically(size.1 - 10 - 16 * caption.len().max(1) as u32);
    let widest = (legend.entries.iter().chain(&legend.title))
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0) as u32;
    let legend_width = if legend.entries.is_empty() {
        10
    } else {
        (widest * 7 + 44).min(size.0 / 3)
    };
    let (chart, key) = top.split_horizontally(size.0 - legend_width);
    draw(&chart)?;
    let mut y = 50;
    if let Some(title) = &legend.title {
        let bold = ("sans-serif", 13).into_font().style(FontStyle::Bold);
        key.draw(&Text::new(title.clone(), (6, y), bold))
            .map_err(failed)?;
        y += 22;
    }
    for (label, colour) in legend.entries.iter().zip(&legend.colours) {
        key.draw(&Rectangle::new([(6, y), (20, y + 12)], colour.filled()))
            .map_err(failed)?;
        key.draw(&Text::new(label.clone(), (26, y), ("sans-serif", 13)))
            .map_err(failed)?;
        y += 20;
    }
    for (k, line) in caption.iter().enumerate() {
        bottom
            .draw(&Text::new(
                line.clone(),
                (10, 4 + 16 * k as i32),
                ("sans-serif", 12).into_font().color(&RGBColor(80, 80, 80)),
            ))
            .map_err(failed)?;
    }
    root.present().map_err(failed)
}

/// The host's fonts, loaded once, `sans-serif` set to the first sans family found
/// (DejaVu Sans on the project's machines).
fn fonts() -> Arc<svg2pdf::usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<svg2pdf::usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = svg2pdf::usvg::fontdb::Database::new();
            db.load_system_fonts();
            let families: Vec<String> = (db.faces())
                .flat_map(|f| f.families.iter().map(|(name, _)| name.clone()))
                .collect();
            let sans = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "Arial"]
                .into_iter()
                .find(|want| families.iter().any(|f| f == want))
                .map(String::from)
                .or_else(|| families.first().cloned());
            if let Some(sans) = sans {
                db.set_sans_serif_family(sans);
            }
            Arc::new(db)
        })
        .clone()
}

/// The SVG `svg` as a PDF, its text in the host's fonts (embedded, so that the PDF reads
/// the same anywhere). A host without fonts is an error, not a PDF without its text.
fn pdf_of(svg: &str) -> anyhow::Result<Vec<u8>> {
    use svg2pdf::usvg;
    let fontdb = fonts();
    anyhow::ensure!(
        !fontdb.is_empty(),
        "no fonts on this host for the PDF's text (install fonts-dejavu-core)"
    );
    let options = usvg::Options {
        fontdb,
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)?;
    svg2pdf::to_pdf(
        &tree,
        svg2pdf::ConversionOptions::default(),
        svg2pdf::PageOptions::default(),
    )
    .map_err(|e| anyhow!("{e}"))
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

/// Write each name under its x position (`(x, name)`), `row` lines below the axis, of a
/// chart whose x axis has no labels of its own.
fn name_slots(
    area: &Area,
    chart: &SlotsChart,
    names: &[(f64, String)],
    row: i32,
) -> anyhow::Result<()> {
    let (left, top) = area.get_base_pixel();
    let style = ("sans-serif", 12)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (x, name) in names {
        let (x, y) = chart.backend_coord(&(*x, 0.0));
        area.draw(&Text::new(
            name.clone(),
            (x - left, y - top + 6 + 16 * row),
            style.clone(),
        ))
        .map_err(failed)?;
    }
    Ok(())
}

type SlotsChart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A chart of `width` slots along x (named by the caller) and values from 0 to `top` up
/// y; `rows`: the lines of names under the axis.
fn slots_chart<'a, 'b>(
    area: &'a Area<'b>,
    labels: &Labels,
    width: f64,
    top: f64,
    rows: u32,
) -> anyhow::Result<SlotsChart<'a, 'b>> {
    let mut chart = ChartBuilder::on(area)
        .caption(&labels.title, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(24 + 16 * rows)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..width, 0.0..top)
        .map_err(failed)?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .disable_x_mesh()
        .x_desc(&labels.x)
        .y_desc(&labels.y)
        .x_labels(0)
        .y_label_formatter(&compact)
        .draw()
        .map_err(failed)?;
    Ok(chart)
}

/// Bars grouped by x, a bar per series in `colours`' colour.
pub fn grouped_bars(
    area: &Area,
    labels: &Labels,
    bars: &GroupedBars,
    colours: &[RGBColor],
) -> anyhow::Result<()> {
    let max = bars
        .values
        .iter()
        .flatten()
        .flatten()
        .copied()
        .chain(bars.reference)
        .fold(0.0, f64::max);
    let n = bars.groups.len();
    let mut chart = slots_chart(area, labels, n as f64, ceiling(max), 1)?;
    let names: Vec<(f64, String)> = (bars.groups.iter().enumerate())
        .map(|(g, name)| (g as f64 + 0.5, name.clone()))
        .collect();
    name_slots(area, &chart, &names, 0)?;
    let width = 0.8 / bars.series.len().max(1) as f64;
    for (s, colour) in colours.iter().enumerate().take(bars.series.len()) {
        let rects = (bars.values.iter().enumerate()).filter_map(|(g, row)| {
            let v = row.get(s).copied().flatten()?;
            let left = g as f64 + 0.1 + s as f64 * width;
            Some(Rectangle::new(
                [(left, 0.0), (left + width * 0.9, v)],
                colour.filled(),
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

/// Where each of `stacks`' bars stands (its left edge), groups half a bar apart; and the
/// chart's width.
fn bar_positions(stacks: &StackedBars) -> (Vec<f64>, f64) {
    const GAP: f64 = 0.5;
    let mut group_of = Vec::new();
    for (g, (_, n)) in stacks.groups.iter().enumerate() {
        group_of.extend(std::iter::repeat_n(g, *n));
    }
    let left: Vec<f64> = (0..stacks.bars.len())
        .map(|b| b as f64 + GAP * group_of.get(b).copied().unwrap_or(0) as f64)
        .collect();
    let width = left.last().map_or(1.0, |l| l + 1.0);
    (left, width)
}

/// Stacked bars: each part as a share of its bar's total (percent), or its value; the
/// bars' names under them, and their groups' names under those.
pub fn stacked_bars(area: &Area, labels: &Labels, stacks: &StackedBars) -> anyhow::Result<()> {
    let totals: Vec<f64> = stacks.values.iter().map(|p| p.iter().sum()).collect();
    let top = if stacks.percent {
        100.0
    } else {
        ceiling(totals.iter().copied().fold(0.0, f64::max))
    };
    let (left, width) = bar_positions(stacks);
    let rows = if stacks.groups.is_empty() { 1 } else { 2 };
    let mut chart = slots_chart(area, labels, width, top, rows)?;
    let names: Vec<(f64, String)> = (left.iter().zip(&stacks.bars))
        .map(|(l, name)| (l + 0.5, name.clone()))
        .collect();
    name_slots(area, &chart, &names, 0)?;
    let mut first = 0;
    let mut groups = Vec::new();
    for (name, n) in &stacks.groups {
        let last = first + n.saturating_sub(1);
        if let (Some(a), Some(b)) = (left.get(first), left.get(last)) {
            groups.push(((a + b + 1.0) / 2.0, name.clone()));
        }
        first += n;
    }
    name_slots(area, &chart, &groups, 1)?;
    for (b, parts) in stacks.values.iter().enumerate() {
        let total = totals[b];
        if total <= 0.0 {
            continue;
        }
        let scale = if stacks.percent { 100.0 / total } else { 1.0 };
        let mut bottom = 0.0;
        let x = left[b];
        let rects = parts.iter().enumerate().map(|(p, v)| {
            let top = bottom + scale * v;
            let rect = Rectangle::new([(x + 0.12, bottom), (x + 0.88, top)], color(p).filled());
            bottom = top;
            rect
        });
        chart
            .draw_series(rects.collect::<Vec<_>>())
            .map_err(failed)?;
    }
    Ok(())
}

/// Lines, a series per colour of `colours`, each point marked with its series' own shape
/// (circle, triangle, square, cross, in turn) so that lines drawn over each other stay
/// apart.
pub fn lines(
    area: &Area,
    labels: &Labels,
    lines: &Lines,
    colours: &[RGBColor],
) -> anyhow::Result<()> {
    let log2 = lines.scale == Scale::Log2Bytes && lines.categories.is_none();
    let place = |x: f64| if log2 { x.log2() } else { x };
    let series: Vec<Vec<(f64, f64)>> = (lines.series.iter())
        .map(|(_, points)| points.iter().map(|&(x, y)| (place(x), y)).collect())
        .collect();
    let points = || series.iter().flatten();
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
    let whole = |x: &f64| (x - x.round()).abs() < 1e-9;
    let format_x = |x: &f64| match &lines.categories {
        Some(_) if whole(x) && *x >= 0.0 => {
            names.get(x.round() as usize).cloned().unwrap_or_default()
        }
        Some(_) => String::new(),
        // A power of two at each whole log2.
        None if log2 && whole(x) => bytes(x.round().exp2()),
        None if log2 => String::new(),
        None => compact(x),
    };
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .x_desc(&labels.x)
        .y_desc(&labels.y)
        .x_label_formatter(&format_x)
        .y_label_formatter(&compact)
        .draw()
        .map_err(failed)?;
    for (s, (points, colour)) in series.iter().zip(colours).enumerate() {
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                colour.stroke_width(2),
            ))
            .map_err(failed)?;
        let at = |p| EmptyElement::at(p);
        let fill = colour.filled();
        match s % 4 {
            0 => chart.draw_series(points.iter().map(|&p| at(p) + Circle::new((0, 0), 4, fill))),
            1 => chart.draw_series(
                (points.iter()).map(|&p| at(p) + TriangleMarker::new((0, 0), 6, fill)),
            ),
            2 => chart.draw_series(
                (points.iter()).map(|&p| at(p) + Rectangle::new([(-4, -4), (4, 4)], fill)),
            ),
            _ => chart.draw_series(
                (points.iter()).map(|&p| at(p) + Cross::new((0, 0), 5, colour.stroke_width(2))),
            ),
        }
        .map_err(failed)?;
    }
    Ok(())
}

/// Split `area` into `n` panels side by side.
pub fn panels<'a>(area: &Area<'a>, n: usize) -> Vec<Area<'a>> {
    area.split_evenly((1, n.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(entries: &[&str]) -> Vec<String> {
        entries.iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn a_schedule_keeps_its_colour_in_every_figure() {
        let two = Legend::series(None, names(&["VM", "SparseWeaver"]));
        let five = Legend::series(None, names(&["EM", "WM", "CM", "SparseWeaver", "VM"]));
        assert_eq!(two.colours[1], five.colours[3]);
        assert_eq!(two.colours[0], five.colours[4]);
        assert_ne!(two.colours[0], two.colours[1]);
    }

    #[test]
    fn other_series_take_colours_no_schedule_of_the_figure_holds() {
        let legend = Legend::series(None, names(&["GNNAdvisor", "VM", "BiKD", "SparseWeaver"]));
        let c = &legend.colours;
        assert!((0..4).all(|i| (0..i).all(|j| c[i] != c[j])), "{c:?}");
        assert_eq!(legend.colours[1], PALETTE[0]);
        assert_eq!(legend.colours[3], PALETTE[4]);
        let sizes = Legend::series(None, names(&["16 KiB", "32 KiB"]));
        assert_eq!(sizes.colours, vec![PALETTE[0], PALETTE[1]]);
    }
}
