//! The figures wsim draws, with `plotters` into SVG: grouped bars, stacked bars and lines,
//! each with a title, labelled axes, a legend with its title beside the chart (never over
//! the data) and caption lines below it; and each SVG again as a PDF beside it (`svg2pdf`,
//! with the host's fonts embedded), for a paper.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use anyhow::{anyhow, Context};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;

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

/// Each schedule's own colour (an index into [`PALETTE`]), keyed by its name, the same in
/// every figure, so that SparseWeaver is always blue and VM always orange whichever
/// schedules a figure shows. The GCN designs share their figures with VM, SparseWeaver and
/// EGHW only, so they reuse the colours of the other graph schedules.
const SCHEDULE_COLOURS: [(&str, usize); 14] = [
    ("VM", 0),
    ("EM", 1),
    ("WM", 2),
    ("CM", 3),
    ("SparseWeaver", 4),
    ("EGHW", 5),
    ("EM-search", 6),
    ("TWC", 8),
    ("TWCE", 9),
    ("STRICT", 10),
    ("GNNAdvisor", 2),
    ("Accel-GCN", 1),
    ("TLPGNN", 9),
    ("BiKD", 6),
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
        Self::series_named(title, entries, &BTreeMap::new())
    }

    /// [`Legend::series`] with some entries shown by other names (`names`: value -> name),
    /// each keeping its value's colour.
    pub fn series_named(
        title: Option<String>,
        entries: Vec<String>,
        names: &BTreeMap<String, String>,
    ) -> Self {
        let mut legend = Self::series_coloured(title, entries);
        legend.rename(names);
        legend
    }

    /// Show each entry `names` has by its name there.
    pub fn rename(&mut self, names: &BTreeMap<String, String>) {
        for entry in &mut self.entries {
            if let Some(name) = names.get(entry.as_str()) {
                *entry = name.clone();
            }
        }
    }

    fn series_coloured(title: Option<String>, entries: Vec<String>) -> Self {
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

/// A figure's size and type (`[[plots]]`' `width`, `height` and `font_size`, `wsim plot`'s
/// options): axis labels in `font`, the title a fifth larger, tick labels, names under
/// bars, the legend and the caption a tenth smaller. Sizes are plotters' (an SVG's
/// font-size is `font / 1.24`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    pub width: u32,
    pub height: u32,
    pub font: f64,
    /// Caption lines under the chart (what the rows are, the wsim that measured them).
    pub caption: bool,
}

impl Default for Style {
    /// A column-wide figure: 900 x 540, its text legible at 3.5 inches.
    fn default() -> Self {
        Style {
            width: 900,
            height: 540,
            font: 17.0,
            caption: true,
        }
    }
}

impl Style {
    fn title(&self) -> f64 {
        self.font * 1.2
    }

    fn small(&self) -> f64 {
        self.font * 0.9
    }
}

/// The width in pixels of `text` at plotters' `size`, a little over DejaVu Sans' (whose
/// mean advance is under 0.6 em): layouts that fit by it fit on the page.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size / 1.24 * 0.62
}

/// A line's height at `size`.
fn line_height(size: f64) -> f64 {
    size / 1.24 * 1.3
}

/// `text` broken at spaces into lines of at most `width` pixels at `size` (a word longer
/// than that stands alone: [`shrunk`] then fits it).
fn wrap(text: &str, size: f64, width: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if text_width(&format!("{line} {word}"), size) <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// `size`, or less so that the widest of `lines` fits `width` pixels.
fn shrunk(lines: &[String], size: f64, width: f64) -> f64 {
    let widest = lines
        .iter()
        .map(|l| text_width(l, size))
        .fold(0.0, f64::max);
    if widest > width && widest > 0.0 {
        size * width / widest
    } else {
        size
    }
}

/// `texts` wrapped to `width` pixels at `size`, or at a smaller size (down to half) so that
/// their lines take at most `room` pixels across them: the lines and their size. A small
/// figure keeps room for its chart however long its title, caption or labels are.
fn fitted(texts: &[String], size: f64, width: f64, room: f64) -> (Vec<String>, f64) {
    let width = width.max(1.0);
    let mut at = size;
    loop {
        let lines: Vec<String> = texts.iter().flat_map(|t| wrap(t, at, width)).collect();
        let fit = shrunk(&lines, at, width);
        if lines.len() as f64 * line_height(fit) <= room || at <= size / 2.0 {
            return (lines, fit);
        }
        at *= 0.9;
    }
}

/// What every figure has around its data.
#[derive(Clone, Debug, Default)]
pub struct Labels {
    /// The figure's title (a panel's, for [`panels`]: empty for none).
    pub title: String,
    pub x: String,
    pub y: String,
}

/// Bars in groups: `values[group][series]` (`None`: no such run, or it failed:
/// `failed[group][series]`, marked with a cross).
#[derive(Debug)]
pub struct GroupedBars {
    pub groups: Vec<String>,
    pub series: Vec<String>,
    pub values: Vec<Vec<Option<f64>>>,
    pub failed: Vec<Vec<bool>>,
    /// A horizontal reference line (1.0 for speedups).
    pub reference: Option<f64>,
}

/// Bars of stacked parts: `values[bar][part]`, drawn as shares of each bar's total
/// (percent) or as they are; `groups`: consecutive bars that belong together, each with
/// its name and its number of bars, set apart by a gap and named under their bars (empty:
/// no groups); `failed`: the bars of runs that failed (their statistics up to the
/// failure), marked with a cross.
#[derive(Clone, Debug, PartialEq)]
pub struct StackedBars {
    pub bars: Vec<String>,
    pub parts: Vec<String>,
    pub values: Vec<Vec<f64>>,
    pub percent: bool,
    pub groups: Vec<(String, usize)>,
    pub failed: Vec<bool>,
}

/// How a line chart places its x values.
#[derive(Clone, Debug, PartialEq)]
pub enum XAxis {
    /// Names, or a few values (booleans, a small set of numbers), at 0, 1, 2 ... in this
    /// order, each named: no tick between two values.
    Categories(Vec<String>),
    /// Numbers, placed as they are.
    Linear,
    /// Sizes in bytes on a log2 scale, a tick at each size plotted (`256 KiB`, `1 MiB`).
    Log2Bytes,
}

/// Lines: per series, its points; `failed`: the x of each run that failed, by series,
/// marked with a cross on the axis.
#[derive(Debug)]
pub struct Lines {
    pub series: Vec<(String, Vec<(f64, f64)>)>,
    pub failed: Vec<(usize, f64)>,
    pub x: XAxis,
}

fn failed<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("drawing failed: {e}")
}

/// A figure at `path` (an SVG, and the same as a PDF beside it) of `style`'s size: `title`
/// above (wrapped and, if need be, shrunk to fit the width), the caption's lines below
/// (when `style.caption`), `legend` beside the chart; `draw` fills the chart's area.
pub fn figure(
    path: &Path,
    style: &Style,
    title: &str,
    caption: &[String],
    legend: &Legend,
    draw: impl FnOnce(&Area) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    // Drawn in memory, then each file written whole: a failed write leaves no half figure.
    let before = std::fs::read(path).ok();
    let mut svg = String::new();
    draw_figure(&mut svg, style, title, caption, legend, draw)
        .with_context(|| format!("cannot draw {}", path.display()))?;
    crate::files::write_whole(path, svg.as_bytes())?;
    let pdf = path.with_extension("pdf");
    // svg2pdf numbers a PDF's objects in HashMap order (a seed per process), so the same
    // SVG gives other bytes each time: a PDF whose SVG did not change is left as it is,
    // and redrawing a committed figure from its unchanged table changes no file.
    if before.as_deref() == Some(svg.as_bytes()) && pdf.is_file() {
        return Ok(());
    }
    let bytes = pdf_of(&svg).with_context(|| format!("cannot make {}", pdf.display()))?;
    Ok(crate::files::write_whole(&pdf, &bytes)?)
}

/// Lines of text at `size` from `(x, y)` down, in the font `style` makes of the family's;
/// the y below the last.
fn write_lines(
    area: &Area,
    lines: &[String],
    (x, y): (i32, i32),
    size: f64,
    style: impl Fn(FontDesc<'static>) -> TextStyle<'static>,
) -> anyhow::Result<i32> {
    let mut y = y as f64;
    for line in lines {
        let text = style(("sans-serif", size).into_font());
        area.draw(&Text::new(line.clone(), (x, y.round() as i32), text))
            .map_err(failed)?;
        y += line_height(size);
    }
    Ok(y.round() as i32)
}

fn draw_figure(
    svg: &mut String,
    style: &Style,
    title: &str,
    caption: &[String],
    legend: &Legend,
    draw: impl FnOnce(&Area) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    const PAD: f64 = 10.0;
    let (width, height) = (style.width, style.height);
    let root = SVGBackend::with_string(svg, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(failed)?;
    let inner = f64::from(width) - 2.0 * PAD;
    // The title, wrapped to the width.
    let mut below_title = PAD as i32;
    if !title.is_empty() {
        let (lines, size) = fitted(
            &[title.to_string()],
            style.title(),
            inner,
            f64::from(height) / 5.0,
        );
        below_title = write_lines(&root, &lines, ((width / 2) as i32, PAD as i32), size, |f| {
            f.color(&BLACK).pos(Pos::new(HPos::Center, VPos::Top))
        })? + PAD as i32 / 2;
    }
    // The caption, each line wrapped to the width.
    let shown = if style.caption { caption } else { &[] };
    let (caption, caption_size) = fitted(shown, style.small(), inner, f64::from(height) / 4.0);
    let caption_height = (caption.len() as f64 * line_height(caption_size) + PAD) as u32;
    let grey = RGBColor(80, 80, 80);
    write_lines(
        &root,
        &caption,
        (
            PAD as i32,
            (height - caption_height) as i32 + PAD as i32 / 2,
        ),
        caption_size,
        |f| f.color(&grey),
    )?;
    // The legend: at most a third of the width, entries wrapped to it.
    let swatch = style.small() / 1.24;
    let widest = (legend.entries.iter())
        .map(|e| text_width(e, style.small()) + swatch * 1.6)
        .chain(legend.title.iter().map(|t| text_width(t, style.small())))
        .fold(0.0, f64::max);
    let legend_width = if legend.entries.is_empty() {
        PAD
    } else {
        (widest + 2.0 * PAD).min(f64::from(width) / 3.0)
    };
    let body = root.margin(below_title as u32, caption_height, 0, 0);
    let (chart, key) = body.split_horizontally(f64::from(width) - legend_width);
    draw(&chart)?;
    let text_room = legend_width - 2.0 * PAD - swatch * 1.6;
    let mut y = 2.0 * PAD;
    if let Some(title) = &legend.title {
        let lines = wrap(title, style.small(), legend_width - PAD);
        let size = shrunk(&lines, style.small(), legend_width - PAD);
        y = f64::from(write_lines(&key, &lines, (0, y as i32), size, |f| {
            f.style(FontStyle::Bold).color(&BLACK)
        })?) + PAD / 2.0;
    }
    for (label, colour) in legend.entries.iter().zip(&legend.colours) {
        let top = y as i32;
        key.draw(&Rectangle::new(
            [(0, top), (swatch as i32, top + swatch as i32)],
            colour.filled(),
        ))
        .map_err(failed)?;
        let lines = wrap(label, style.small(), text_room);
        let size = shrunk(&lines, style.small(), text_room);
        let x = (swatch * 1.6) as i32;
        y = f64::from(write_lines(&key, &lines, (x, top), size, |f| {
            f.color(&BLACK)
        })?) + PAD / 2.0;
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

/// The texts of the SVG at `path` that leave its canvas, laid out in the host's fonts (as
/// the PDF is): each with its bounding box. Empty when every text fits.
pub fn text_outside(path: &Path) -> anyhow::Result<Vec<String>> {
    use svg2pdf::usvg;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let options = usvg::Options {
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(&text, &options)?;
    let (width, height) = (tree.size().width(), tree.size().height());
    let mut outside = Vec::new();
    let mut stack: Vec<&usvg::Node> = tree.root().children().iter().collect();
    while let Some(node) = stack.pop() {
        match node {
            usvg::Node::Group(g) => stack.extend(g.children()),
            usvg::Node::Text(t) => {
                let b = t.abs_bounding_box();
                // Half a pixel of anti-aliasing either side.
                if b.left() < -0.5
                    || b.top() < -0.5
                    || b.right() > width + 0.5
                    || b.bottom() > height + 0.5
                {
                    let words: String = t.chunks().iter().map(|c| c.text()).collect();
                    outside.push(format!(
                        "`{words}` at [{:.0}, {:.0}]-[{:.0}, {:.0}] leaves the {width:.0} x \
                         {height:.0} canvas",
                        b.left(),
                        b.top(),
                        b.right(),
                        b.bottom()
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(outside)
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

/// Write each name under its x position (`(x, name)`), `row` rows below the axis (a row
/// being `row_height` pixels), of a chart whose x axis has no labels of its own; rotated to
/// read upwards when `upright`.
fn name_slots(
    area: &Area,
    chart: &SlotsChart,
    names: &[(f64, String)],
    (row, row_height): (i32, i32),
    size: f64,
    upright: bool,
) -> anyhow::Result<()> {
    let (left, top) = area.get_base_pixel();
    let font = ("sans-serif", size).into_font().color(&BLACK);
    let style = if upright {
        font.transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Right, VPos::Center))
    } else {
        font.pos(Pos::new(HPos::Center, VPos::Top))
    };
    for (x, name) in names {
        let (x, y) = chart.backend_coord(&(*x, 0.0));
        area.draw(&Text::new(
            name.clone(),
            (x - left, y - top + 6 + row_height * row),
            style.clone(),
        ))
        .map_err(failed)?;
    }
    Ok(())
}

type SlotsChart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// How names under slots are written: their size, whether upright, and the room they take
/// below the axis.
struct SlotNames {
    size: f64,
    upright: bool,
    height: f64,
}

/// Names under slots `slot` pixels wide: across when the widest fits, else upright (and
/// smaller, if need be, to stay within a third of `room`, the area's height).
fn slot_names(names: &[String], style: &Style, slot: f64, room: f64) -> SlotNames {
    let size = style.small();
    let widest = names
        .iter()
        .map(|n| text_width(n, size))
        .fold(0.0, f64::max);
    if widest + 4.0 <= slot {
        return SlotNames {
            size,
            upright: false,
            height: line_height(size),
        };
    }
    let size = if widest > room / 3.0 {
        size * room / 3.0 / widest
    } else {
        size
    };
    SlotNames {
        size,
        upright: true,
        height: names
            .iter()
            .map(|n| text_width(n, size))
            .fold(0.0, f64::max)
            + 4.0,
    }
}

/// The y axis's label, wrapped to the `height` pixels of the axis (and smaller, if a word
/// is longer or its lines would take more than a quarter of the area's `width`): its
/// lines and their size.
fn y_label(label: &str, style: &Style, height: f64, width: f64) -> (Vec<String>, f64) {
    fitted(&[label.to_string()], style.font, height * 0.95, width / 4.0)
}

/// The size of the x axis's label, at most `style.font`, that fits the plotting width
/// left of an area `width` pixels wide beside the y axis's `y_area`.
fn x_label_size(label: &str, style: &Style, width: f64, y_area: u32) -> f64 {
    shrunk(
        &[label.to_string()],
        style.font,
        width - f64::from(y_area) - 24.0,
    )
}

/// The room left of the axis: its tick labels and the label's lines.
fn y_area(style: &Style, label: &(Vec<String>, f64)) -> u32 {
    (style.small() / 1.24 * 0.62 * 6.0 + 12.0 + label.0.len() as f64 * line_height(label.1)) as u32
}

/// Write the y axis's label beside the chart, upright, centred on the plotting area's
/// pixel rows `ys`.
fn draw_y_label(
    area: &Area,
    ys: std::ops::Range<i32>,
    (lines, size): &(Vec<String>, f64),
) -> anyhow::Result<()> {
    let (_, top) = area.get_base_pixel();
    let middle = (ys.start + ys.end) / 2 - top;
    let style = ("sans-serif", *size)
        .into_font()
        .color(&BLACK)
        .transform(FontTransform::Rotate270)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (k, line) in lines.iter().enumerate() {
        let x = 4 + (k as f64 * line_height(*size)) as i32;
        area.draw(&Text::new(line.clone(), (x, middle), style.clone()))
            .map_err(failed)?;
    }
    Ok(())
}

/// A panel's title above its chart (none when empty), fitted to its width; the area below.
fn titled<'a>(area: &Area<'a>, title: &str, style: &Style) -> anyhow::Result<Area<'a>> {
    if title.is_empty() {
        return Ok(area.clone());
    }
    let width = f64::from(area.dim_in_pixel().0) - 20.0;
    let size = shrunk(&[title.to_string()], style.font, width);
    area.titled(title, ("sans-serif", size)).map_err(failed)
}

/// A chart of `width` slots along x (named by the caller: `rows` of names `row_height`
/// pixels each under the axis) and values from 0 to `top` up y.
fn slots_chart<'a, 'b>(
    area: &'a Area<'b>,
    style: &Style,
    labels: &Labels,
    width: f64,
    top: f64,
    names_height: f64,
) -> anyhow::Result<SlotsChart<'a, 'b>> {
    let (width_px, height) = (
        f64::from(area.dim_in_pixel().0),
        f64::from(area.dim_in_pixel().1),
    );
    let x_area = names_height + line_height(style.font) + 12.0;
    let y = y_label(&labels.y, style, height - x_area - 24.0, width_px);
    let y_room = y_area(style, &y);
    let mut chart = ChartBuilder::on(area)
        .margin(12)
        .x_label_area_size(x_area as u32)
        .y_label_area_size(y_room)
        .build_cartesian_2d(0.0..width, 0.0..top)
        .map_err(failed)?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .disable_x_mesh()
        .x_desc(&labels.x)
        .x_labels(0)
        .label_style(("sans-serif", style.small()))
        .axis_desc_style((
            "sans-serif",
            x_label_size(&labels.x, style, width_px, y_room),
        ))
        .y_label_formatter(&compact)
        .draw()
        .map_err(failed)?;
    draw_y_label(area, chart.plotting_area().get_pixel_range().1, &y)?;
    Ok(chart)
}

/// The pixels one unit of x takes in a chart of `units` along an area `area` wide.
fn unit_pixels(area: &Area, style: &Style, units: f64) -> f64 {
    let plot = f64::from(area.dim_in_pixel().0) - style.font * 5.0 - 24.0;
    plot.max(1.0) / units.max(1.0)
}

/// A cross (a run that failed) at each `(x, y)`.
fn crosses(
    chart: &mut SlotsChart,
    at: impl IntoIterator<Item = (f64, f64)>,
    colour: RGBColor,
    style: &Style,
) -> anyhow::Result<()> {
    let size = (style.font / 2.5) as i32;
    chart
        .draw_series(
            at.into_iter().map(|p| {
                EmptyElement::at(p) + Cross::new((0, -size), size, colour.stroke_width(3))
            }),
        )
        .map_err(failed)?;
    Ok(())
}

/// Bars grouped by x, a bar per series in `colours`' colour; a failed run's slot crossed.
pub fn grouped_bars(
    area: &Area,
    style: &Style,
    labels: &Labels,
    bars: &GroupedBars,
    colours: &[RGBColor],
) -> anyhow::Result<()> {
    let area = titled(area, &labels.title, style)?;
    let max = bars
        .values
        .iter()
        .flatten()
        .flatten()
        .copied()
        .chain(bars.reference)
        .fold(0.0, f64::max);
    let n = bars.groups.len();
    let height = f64::from(area.dim_in_pixel().1);
    let names = slot_names(
        &bars.groups,
        style,
        unit_pixels(&area, style, n as f64),
        height,
    );
    let mut chart = slots_chart(&area, style, labels, n as f64, ceiling(max), names.height)?;
    let at: Vec<(f64, String)> = (bars.groups.iter().enumerate())
        .map(|(g, name)| (g as f64 + 0.5, name.clone()))
        .collect();
    name_slots(&area, &chart, &at, (0, 0), names.size, names.upright)?;
    let width = 0.8 / bars.series.len().max(1) as f64;
    for (s, colour) in colours.iter().enumerate().take(bars.series.len()) {
        let left = |g: usize| g as f64 + 0.1 + s as f64 * width;
        let rects = (bars.values.iter().enumerate()).filter_map(|(g, row)| {
            let v = row.get(s).copied().flatten()?;
            Some(Rectangle::new(
                [(left(g), 0.0), (left(g) + width * 0.9, v)],
                colour.filled(),
            ))
        });
        chart.draw_series(rects).map_err(failed)?;
        let failed_at = (bars.failed.iter().enumerate())
            .filter(|(_, row)| row.get(s).copied().unwrap_or(false))
            .map(|(g, _)| (left(g) + width * 0.45, 0.0));
        crosses(&mut chart, failed_at, *colour, style)?;
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
/// bars' names under them (upright when they do not fit across), and their groups' names
/// under those; a failed run's bar crossed at its foot.
pub fn stacked_bars(
    area: &Area,
    style: &Style,
    labels: &Labels,
    stacks: &StackedBars,
) -> anyhow::Result<()> {
    let area = titled(area, &labels.title, style)?;
    let totals: Vec<f64> = stacks.values.iter().map(|p| p.iter().sum()).collect();
    let top = if stacks.percent {
        100.0
    } else {
        ceiling(totals.iter().copied().fold(0.0, f64::max))
    };
    let (left, width) = bar_positions(stacks);
    let height = f64::from(area.dim_in_pixel().1);
    let names = slot_names(
        &stacks.bars,
        style,
        unit_pixels(&area, style, width),
        height,
    );
    let row = names.height as i32;
    let group_height = if stacks.groups.is_empty() {
        0.0
    } else {
        line_height(style.small())
    };
    let mut chart = slots_chart(
        &area,
        style,
        labels,
        width,
        top,
        names.height + group_height,
    )?;
    let at: Vec<(f64, String)> = (left.iter().zip(&stacks.bars))
        .map(|(l, name)| (l + 0.5, name.clone()))
        .collect();
    name_slots(&area, &chart, &at, (0, row), names.size, names.upright)?;
    let mut first = 0;
    let mut groups = Vec::new();
    for (name, n) in &stacks.groups {
        let last = first + n.saturating_sub(1);
        if let (Some(a), Some(b)) = (left.get(first), left.get(last)) {
            groups.push(((a + b + 1.0) / 2.0, name.clone()));
        }
        first += n;
    }
    name_slots(&area, &chart, &groups, (1, row), style.small(), false)?;
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
    let failed_at = (left.iter().zip(&stacks.failed))
        .filter(|(_, f)| **f)
        .map(|(l, _)| (l + 0.5, 0.0));
    crosses(&mut chart, failed_at, BLACK, style)?;
    Ok(())
}

/// Lines, a series per colour of `colours`, each point marked with its series' own shape
/// (circle, triangle, square, cross, in turn) so that lines drawn over each other stay
/// apart; a run that failed crossed on the x axis in its series' colour. Categories and
/// sizes get a tick at each value and no other.
pub fn lines(
    area: &Area,
    style: &Style,
    labels: &Labels,
    lines: &Lines,
    colours: &[RGBColor],
) -> anyhow::Result<()> {
    let area = titled(area, &labels.title, style)?;
    let place = |x: f64| {
        if lines.x == XAxis::Log2Bytes {
            x.log2()
        } else {
            x
        }
    };
    let series: Vec<Vec<(f64, f64)>> = (lines.series.iter())
        .map(|(_, points)| points.iter().map(|&(x, y)| (place(x), y)).collect())
        .collect();
    let failed_at: Vec<(usize, f64)> = lines.failed.iter().map(|&(s, x)| (s, place(x))).collect();
    let xs = || {
        series
            .iter()
            .flatten()
            .map(|p| p.0)
            .chain(failed_at.iter().map(|p| p.1))
    };
    let (lo, hi) = xs().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo, hi)
    } else {
        (lo.min(0.0), lo.max(0.0) + 1.0)
    };
    let max = series.iter().flatten().map(|p| p.1).fold(0.0, f64::max);
    // Categories sit half a slot from the edges; numbers 5% of the range.
    let margin = match lines.x {
        XAxis::Categories(_) => 0.5,
        _ => (hi - lo) * 0.05,
    };
    let x_range = (lo - margin)..(hi + margin);
    // The values named under the axis: each category, each size plotted.
    let ticks: Option<Vec<(f64, String)>> = match &lines.x {
        XAxis::Categories(names) => Some(
            (names.iter().enumerate())
                .map(|(k, n)| (k as f64, n.clone()))
                .collect(),
        ),
        XAxis::Log2Bytes => {
            let mut at: Vec<f64> = xs().collect();
            at.sort_by(f64::total_cmp);
            at.dedup();
            Some(at.into_iter().map(|x| (x, bytes(x.exp2()))).collect())
        }
        XAxis::Linear => None,
    };
    let height = f64::from(area.dim_in_pixel().1);
    let names = ticks.as_ref().map(|t| {
        let texts: Vec<String> = t.iter().map(|(_, n)| n.clone()).collect();
        // The closest two ticks bound a name's width.
        let span = hi - lo + 2.0 * margin;
        let gap = (t.windows(2).map(|w| w[1].0 - w[0].0)).fold(span, f64::min);
        slot_names(&texts, style, unit_pixels(&area, style, span) * gap, height)
    });
    let x_area = names
        .as_ref()
        .map_or(line_height(style.small()), |n| n.height)
        + line_height(style.font)
        + 12.0;
    let width_px = f64::from(area.dim_in_pixel().0);
    let y = y_label(&labels.y, style, height - x_area - 24.0, width_px);
    let y_room = y_area(style, &y);
    let mut chart = ChartBuilder::on(&area)
        .margin(12)
        .x_label_area_size(x_area as u32)
        .y_label_area_size(y_room)
        .build_cartesian_2d(x_range, 0.0..ceiling(max))
        .map_err(failed)?;
    let own_ticks = if ticks.is_some() { 0 } else { 10 };
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .x_desc(&labels.x)
        .x_labels(own_ticks)
        .label_style(("sans-serif", style.small()))
        .axis_desc_style((
            "sans-serif",
            x_label_size(&labels.x, style, width_px, y_room),
        ))
        .x_label_formatter(&compact)
        .y_label_formatter(&compact)
        .draw()
        .map_err(failed)?;
    draw_y_label(&area, chart.plotting_area().get_pixel_range().1, &y)?;
    if let (Some(ticks), Some(names)) = (&ticks, &names) {
        name_slots(&area, &chart, ticks, (0, 0), names.size, names.upright)?;
    }
    let marker = (style.font / 4.0).max(3.0) as i32;
    for (s, (points, colour)) in series.iter().zip(colours).enumerate() {
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                colour.stroke_width(2),
            ))
            .map_err(failed)?;
        let at = |p| EmptyElement::at(p);
        let fill = colour.filled();
        let m = marker;
        match s % 4 {
            0 => chart.draw_series(points.iter().map(|&p| at(p) + Circle::new((0, 0), m, fill))),
            1 => chart.draw_series(
                (points.iter()).map(|&p| at(p) + TriangleMarker::new((0, 0), m + 2, fill)),
            ),
            2 => chart.draw_series(
                (points.iter()).map(|&p| at(p) + Rectangle::new([(-m, -m), (m, m)], fill)),
            ),
            _ => chart.draw_series(
                (points.iter()).map(|&p| at(p) + Cross::new((0, 0), m + 1, colour.stroke_width(2))),
            ),
        }
        .map_err(failed)?;
        let failed_at = failed_at
            .iter()
            .filter(|f| f.0 == s)
            .map(|&(_, x)| (x, 0.0));
        crosses(&mut chart, failed_at, *colour, style)?;
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
    fn a_figure_drawn_again_unchanged_keeps_its_pdf() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("same.svg");
        let legend = Legend::series(None, names(&["a", "b"]));
        let lines = Lines {
            series: vec![
                ("a".into(), vec![(1.0, 5.0), (4.0, 7.0)]),
                ("b".into(), vec![(1.0, 6.0), (4.0, 2.0)]),
            ],
            failed: vec![],
            x: XAxis::Linear,
        };
        let labels = Labels {
            title: String::new(),
            x: "x".into(),
            y: "y".into(),
        };
        let style = Style::default();
        let draw = || {
            figure(&path, &style, "t", &[], &legend, |area| {
                super::lines(area, &style, &labels, &lines, &legend.colours)
            })
            .unwrap();
            std::fs::read(path.with_extension("pdf")).unwrap()
        };
        let first = draw();
        for _ in 0..4 {
            assert!(
                draw() == first,
                "the PDF of an unchanged figure was rewritten"
            );
        }
    }

    #[test]
    fn a_long_title_legend_and_caption_stay_inside_the_figure() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("long.svg");
        let long = "Figure 4.14: PageRank pull on G500 under SparseWeaver by L2 size, one line \
                    per L1 size, with every word a reader needs and then some more words";
        let legend = Legend::series(
            Some("l1_bytes (memory.l1d.size, bytes) of the machine".into()),
            names(&[
                "SparseWeaver (wsim 0123456789ab) measured on a long day",
                "VM",
            ]),
        );
        let caption = [long.repeat(2)];
        let lines = Lines {
            series: vec![
                ("a".into(), vec![(1.0, 5.0), (4.0, 7.0)]),
                ("b".into(), vec![(1.0, 6.0)]),
            ],
            failed: vec![(1, 4.0)],
            x: XAxis::Categories(names(&["1", "4"])),
        };
        let labels = Labels {
            title: String::new(),
            x: "memory.dram.clock_ratio (core cycles per DRAM cycle)".into(),
            y: "warp time relative to schedule=SparseWeaver's init, summed over cores (x)".into(),
        };
        for style in [
            Style::default(),
            Style {
                width: 400,
                height: 300,
                font: 20.0,
                caption: true,
            },
        ] {
            figure(&path, &style, long, &caption, &legend, |area| {
                super::lines(area, &style, &labels, &lines, &legend.colours)
            })
            .unwrap();
            let outside = text_outside(&path).unwrap();
            assert!(outside.is_empty(), "{style:?}: {outside:?}");
        }
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
