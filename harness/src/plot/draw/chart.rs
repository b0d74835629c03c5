//! What the kinds' charts share: axis values, the names under bars, the y label, a
//! chart of slots along x, the crosses that mark failed runs.

use super::*;

/// An axis value in few characters: 1.6M, 250k, 0.75.
pub(super) fn compact(v: &f64) -> String {
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
pub(super) fn ceiling(max: f64) -> f64 {
    if max > 0.0 {
        max * 1.1
    } else {
        1.0
    }
}

/// Write each name under its x position (`(x, name)`), `row` rows below the axis (a row
/// being `row_height` pixels), of a chart whose x axis has no labels of its own; rotated to
/// read upwards when `upright`.
pub(super) fn name_slots(
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

pub(super) type SlotsChart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// How names under slots are written: their size, whether upright, and the room they take
/// below the axis.
pub(super) struct SlotNames {
    pub(super) size: f64,
    pub(super) upright: bool,
    pub(super) height: f64,
}

/// Names under slots `slot` pixels wide: across when the widest fits, else upright (and
/// smaller, if need be, to stay within a third of `room`, the area's height).
pub(super) fn slot_names(names: &[String], style: &Style, slot: f64, room: f64) -> SlotNames {
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
pub(super) fn y_label(label: &str, style: &Style, height: f64, width: f64) -> (Vec<String>, f64) {
    fitted(&[label.to_string()], style.font, height * 0.95, width / 4.0)
}

/// The size of the x axis's label, at most `style.font`, that fits the plotting width
/// left of an area `width` pixels wide beside the y axis's `y_area`.
pub(super) fn x_label_size(label: &str, style: &Style, width: f64, y_area: u32) -> f64 {
    shrunk(
        &[label.to_string()],
        style.font,
        width - f64::from(y_area) - 24.0,
    )
}

/// The room left of the axis: its tick labels and the label's lines.
pub(super) fn y_area(style: &Style, label: &(Vec<String>, f64)) -> u32 {
    (style.small() / 1.24 * 0.62 * 6.0 + 12.0 + label.0.len() as f64 * line_height(label.1)) as u32
}

/// Write the y axis's label beside the chart, upright, centred on the plotting area's
/// pixel rows `ys`.
pub(super) fn draw_y_label(
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
pub(super) fn titled<'a>(area: &Area<'a>, title: &str, style: &Style) -> anyhow::Result<Area<'a>> {
    if title.is_empty() {
        return Ok(area.clone());
    }
    let width = f64::from(area.dim_in_pixel().0) - 20.0;
    let size = shrunk(&[title.to_string()], style.font, width);
    area.titled(title, ("sans-serif", size)).map_err(failed)
}

/// A chart of `width` slots along x (named by the caller: `rows` of names `row_height`
/// pixels each under the axis) and values from 0 to `top` up y.
pub(super) fn slots_chart<'a, 'b>(
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
pub(super) fn unit_pixels(area: &Area, style: &Style, units: f64) -> f64 {
    let plot = f64::from(area.dim_in_pixel().0) - style.font * 5.0 - 24.0;
    plot.max(1.0) / units.max(1.0)
}

/// A cross (a run that failed) at each `(x, y)`.
pub(super) fn crosses(
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
