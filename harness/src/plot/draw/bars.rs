//! Bars: grouped (a value per series in each group) and stacked (a bar's parts).

use super::chart::*;
use super::*;

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
