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

mod bars;
mod chart;
mod lines;

pub use bars::{grouped_bars, stacked_bars};
pub use lines::lines;

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
