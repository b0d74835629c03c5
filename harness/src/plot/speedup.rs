//! Speedup plots: grouped bars of each series' speedup over the baseline series, group by
//! group (`x`), and each series' geometric mean, paired and divided by [`crate::speedup`].

use std::collections::BTreeMap;

use anyhow::bail;

use super::draw::{self, GroupedBars, Labels, Legend};
use super::{finite, sized, succeeded, Figure, PlotSpec};
use crate::speedup::{self, Side, Speedups};
use crate::stats::Cell;
use crate::table::Table;

impl PlotSpec {
    /// The bars of a speedup plot of `table` (the rows its `where` keeps): what the
    /// figure draws, and what `experiment validate-sampling` compares.
    pub(crate) fn speedup_bars(&self, table: &Table) -> anyhow::Result<GroupedBars> {
        self.speedups(table, &self.rows(table))
    }

    /// Speedups over the baseline by group (x) and series, then each series' geometric mean;
    /// the baseline's own (all 1) left out. No speedup at all (no run of a group has a
    /// time) is an error.
    pub(super) fn speedups(
        &self,
        table: &Table,
        rows: &[&Vec<Cell>],
    ) -> anyhow::Result<GroupedBars> {
        let col = |name: &str| table.column(name).expect("checked");
        let (x, s, m) = (
            col(&self.x),
            col(self.series.as_deref().expect("checked")),
            col(&self.metric),
        );
        let baseline = self.baseline.as_deref().expect("checked");
        let mut groups: Vec<String> = Vec::new();
        let mut series: Vec<String> = Vec::new();
        // Each run's side: failed, or its time when it is a positive number.
        let mut sides: BTreeMap<(String, String), Side> = BTreeMap::new();
        for r in rows {
            let (rx, rs) = (r[x].to_string(), r[s].to_string());
            if !groups.contains(&rx) {
                groups.push(rx.clone());
            }
            if !series.contains(&rs) {
                series.push(rs.clone());
            }
            let side = match succeeded(table, r) {
                true => Side::of(finite(&r[m])),
                false => Side::Failed,
            };
            if sides.insert((rx.clone(), rs.clone()), side).is_some() {
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
        // Each series paired with the baseline group by group (`crate::speedup`'s policy:
        // a pair with a side failed or missing has no bar, crossed when a side failed, and
        // the geometric mean is over the complete pairs).
        let side = |g: &String, sv: &str| {
            (sides.get(&(g.clone(), sv.to_string())).copied()).unwrap_or(Side::Missing)
        };
        let pairs: Vec<Speedups<String>> = (series.iter())
            .map(|sv| {
                speedup::pair(
                    groups.iter().cloned(),
                    |g| side(g, baseline),
                    |g| side(g, sv),
                )
            })
            .collect();
        let mut values: Vec<Vec<Option<f64>>> = (0..groups.len())
            .map(|k| pairs.iter().map(|p| p.pairs[k].speedup()).collect())
            .collect();
        let mut crossed: Vec<Vec<bool>> = (0..groups.len())
            .map(|k| pairs.iter().map(|p| p.pairs[k].failed()).collect())
            .collect();
        let geomean: Vec<Option<f64>> = pairs.iter().map(Speedups::geomean).collect();
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

    /// The figure of a speedup plot.
    pub(super) fn draw_speedup(&self, f: &Figure) -> anyhow::Result<()> {
        let (path, style, caption) = (&f.path, &f.style, &f.caption);
        let (x_bytes, series_bytes) = (f.x_bytes, f.series_bytes);
        let (x_label, series_title) = (f.x_label.clone(), f.series_title.clone());
        let mut bars = self.speedups(f.table, &f.rows)?;
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
        legend.entries = bars.series.iter().map(|v| f.shown(v)).collect();
        legend.rename(&self.legend);
        draw::figure(path, style, &title, caption, &legend, |area| {
            draw::grouped_bars(area, style, &labels, &bars, &legend.colours)
        })?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{spec, table};

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
}
