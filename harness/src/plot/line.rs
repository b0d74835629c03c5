//! Line plots: a metric over a swept axis (categories, linear, or sizes on a log2 scale),
//! a line per series, failed runs crossed where their point would be.

use anyhow::bail;

use super::draw::{self, Labels, Legend, Lines, XAxis};
use super::{finite, labelled, succeeded, Figure, PlotSpec};
use crate::stats::Cell;
use crate::table::Table;

impl PlotSpec {
    /// The lines of `rows`; `sizes`: x holds sizes in bytes, placed on a log2 scale
    /// however few.
    pub(super) fn lines(
        &self,
        table: &Table,
        rows: &[&Vec<Cell>],
        sizes: bool,
    ) -> anyhow::Result<Lines> {
        /// At most this many distinct numbers along x are drawn as categories.
        const FEW: usize = 8;
        let col = |name: &str| table.column(name).expect("checked");
        let (x, m) = (col(&self.x), col(&self.metric));
        let s = self.series.as_deref().map(col);
        let numeric = rows.iter().all(|r| finite(&r[x]).is_some());
        // Names in the order of their first row; a few numbers in their order.
        let mut categories: Vec<String> = Vec::new();
        for r in rows {
            let label = r[x].to_string();
            if !categories.contains(&label) {
                categories.push(label);
            }
        }
        if numeric {
            categories.sort_by(|a, b| {
                let n = |t: &String| t.parse::<f64>().unwrap_or(f64::NAN);
                n(a).total_cmp(&n(b))
            });
        }
        let categorical = !numeric || (categories.len() <= FEW && !sizes);
        let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
        let mut failed: Vec<(String, f64)> = Vec::new();
        for r in rows {
            let xv = if categorical {
                categories
                    .iter()
                    .position(|c| *c == r[x].to_string())
                    .expect("listed") as f64
            } else {
                finite(&r[x]).expect("numeric")
            };
            let name = s.map_or_else(|| self.metric.clone(), |s| r[s].to_string());
            let Some(y) = finite(&r[m]).filter(|_| succeeded(table, r)) else {
                if !succeeded(table, r) {
                    failed.push((name, xv));
                }
                continue;
            };
            match series.iter_mut().find(|(n, _)| *n == name) {
                Some((_, points)) if points.iter().any(|p| p.0 == xv) => bail!(
                    "plot `{}`: several runs have {}={}{}: a line has one point per x; narrow \
                     the rows with `where` or draw a line per value with `series`",
                    self.name,
                    self.x,
                    r[x],
                    s.map_or(String::new(), |_| format!(
                        " and {}={name}",
                        self.series.as_deref().unwrap_or_default()
                    ))
                ),
                Some((_, points)) => points.push((xv, y)),
                None => series.push((name, vec![(xv, y)])),
            }
        }
        for (_, points) in &mut series {
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        // A failed run of a series that has no point at all still names its line.
        for (name, _) in &failed {
            if !series.iter().any(|(n, _)| n == name) {
                series.push((name.clone(), Vec::new()));
            }
        }
        let failed = (failed.into_iter())
            .filter_map(|(name, x)| Some((series.iter().position(|(n, _)| *n == name)?, x)))
            .collect();
        Ok(Lines {
            series,
            failed,
            x: if categorical {
                XAxis::Categories(categories)
            } else if sizes {
                XAxis::Log2Bytes
            } else {
                XAxis::Linear
            },
        })
    }

    /// The figure of a line plot.
    pub(super) fn draw_line(&self, f: &Figure) -> anyhow::Result<()> {
        let (path, style, caption) = (&f.path, &f.style, &f.caption);
        let (x_label, series_title) = (f.x_label.clone(), f.series_title.clone());
        // Sizes on a log2 axis; a few values (booleans, a small set of numbers) as
        // categories, so that no tick falls between two of them.
        let lines = self.lines(f.table, &f.rows, f.x_bytes)?;
        if lines.series.is_empty() {
            return Err(self.nothing_to_draw(&self.metric));
        }
        let mut legend = Legend::series(
            series_title,
            lines.series.iter().map(|(n, _)| n.clone()).collect(),
        );
        legend.entries = lines.series.iter().map(|(n, _)| f.shown(n)).collect();
        legend.rename(&self.legend);
        let x_label = if lines.x == XAxis::Log2Bytes && self.x_label.is_none() {
            format!("{x_label}, log2 scale")
        } else {
            x_label
        };
        let title = self
            .title
            .clone()
            .unwrap_or_else(|| format!("{} by {}", self.metric, self.x));
        let labels = Labels {
            title: String::new(),
            x: x_label,
            y: self
                .y_label
                .clone()
                .unwrap_or_else(|| labelled(&self.metric, f.axes)),
        };
        draw::figure(path, style, &title, caption, &legend, |area| {
            draw::lines(area, style, &labels, &lines, &legend.colours)
        })?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{spec, table};

    #[test]
    fn a_line_has_one_point_per_x() {
        let t = table("program,a,b,graph,cycles\np,1,1,,10\np,1,2,,20\n");
        let p = spec("kind = 'line'\nx = 'a'");
        let rows = p.rows(&t);
        let e = p.lines(&t, &rows, false).unwrap_err().to_string();
        assert!(
            e.contains("several runs have a=1: a line has one point per x"),
            "{e}"
        );
        let p = spec("kind = 'line'\nx = 'a'\nseries = 'b'");
        assert_eq!(p.lines(&t, &rows, false).unwrap().series.len(), 2);
    }
}
