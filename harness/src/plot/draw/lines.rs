//! Lines: a series' points over categories, a linear axis, or sizes on a log2 scale.

use super::chart::*;
use super::*;

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
