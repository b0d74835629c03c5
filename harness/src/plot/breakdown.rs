//! Breakdown plots: stacked bars of a run's issue slots by reason, warp time by phase or
//! a GPU profiler's stall reasons, as shares, values, or relative to a baseline row.

use anyhow::bail;

use super::draw::{self, Labels, Legend, StackedBars};
use super::{cell_text, finite, sized, succeeded, Figure, Parts, PlotSpec, Scale};
use crate::stats::Cell;
use crate::table::Table;

impl PlotSpec {
    /// A breakdown's bars (its rows, labelled by `x` and `series`) and their parts'
    /// values as the plot's `scale` has them; a relative plot's group without exactly one
    /// baseline row is an error.
    pub fn breakdown(&self, table: &Table) -> anyhow::Result<StackedBars> {
        let parts = self
            .parts
            .ok_or_else(|| anyhow::anyhow!("plot `{}`: not a breakdown", self.name))?;
        let mut rows = self.rows(table);
        let col = |name: &str| {
            table.column(name).ok_or_else(|| {
                anyhow::anyhow!("plot `{}`: the table has no column {name}", self.name)
            })
        };
        let x = col(&self.x)?;
        let series = self.series.as_deref().map(col).transpose()?;
        // With a series, bars grouped by x (a graph), then by series (a schedule), each in
        // the order of its first row; without, a bar per row in the table's order.
        let first = |k: usize| {
            let mut seen: Vec<String> = Vec::new();
            for r in &rows {
                let v = r[k].to_string();
                if !seen.contains(&v) {
                    seen.push(v);
                }
            }
            seen
        };
        let xs = first(x);
        let ss = series.map(first).unwrap_or_default();
        let place = |r: &Vec<Cell>, k: usize, order: &[String]| {
            order.iter().position(|v| *v == r[k].to_string())
        };
        if let Some(s) = series {
            rows.sort_by_key(|r| (place(r, x, &xs), place(r, s, &ss)));
        }
        let groups: Vec<(String, usize)> = match series {
            None => Vec::new(),
            Some(_) => (xs.iter())
                .map(|v| {
                    let n = rows.iter().filter(|r| r[x].to_string() == *v).count();
                    (v.clone(), n)
                })
                .collect(),
        };
        let (numbers, columns): (Vec<String>, Vec<usize>) = table
            .header
            .iter()
            .enumerate()
            .filter_map(|(k, h)| part_name(parts, h).map(|n| (n, k)))
            .unzip();
        let value = |r: &[Cell], c: usize| finite(&r[c]).unwrap_or(0.0);
        let mut values: Vec<Vec<f64>> = rows
            .iter()
            .map(|r| columns.iter().map(|&c| value(r, c)).collect())
            .collect();
        if self.scale == Scale::Relative {
            let group = col(self.group())?;
            let baseline: Vec<(usize, String)> = self
                .relative_to
                .iter()
                .map(|(c, v)| Ok((col(c)?, cell_text(v))))
                .collect::<anyhow::Result<_>>()?;
            let is_baseline = |r: &[Cell]| baseline.iter().all(|(k, v)| r[*k].matches(v));
            for (r, bar) in rows.iter().zip(&mut values) {
                let mut found = rows
                    .iter()
                    .filter(|b| b[group] == r[group] && is_baseline(b));
                let base = found.next().ok_or_else(|| {
                    anyhow::anyhow!(
                        "plot `{}`: no baseline row ({}) among the rows with {}={}",
                        self.name,
                        self.baseline_text(),
                        self.group(),
                        r[group]
                    )
                })?;
                if found.next().is_some() {
                    bail!(
                        "plot `{}`: several baseline rows ({}) with {}={}: narrow them with \
                         `where` or `relative_to`",
                        self.name,
                        self.baseline_text(),
                        self.group(),
                        r[group]
                    );
                }
                let divisor = match &self.relative_part {
                    None => columns.iter().map(|&c| value(base, c)).sum(),
                    Some(part) => {
                        let k = part_column(table, parts, base, part).ok_or_else(|| {
                            anyhow::anyhow!(
                                "plot `{}`: relative_part `{part}`: the baseline row with {}={} \
                                 has no such {}",
                                self.name,
                                self.group(),
                                r[group],
                                match parts {
                                    Parts::Slots => "slot reason",
                                    Parts::Phases => "phase",
                                    Parts::Stalls => "stall reason",
                                }
                            )
                        })?;
                        value(base, k)
                    }
                };
                if divisor <= 0.0 {
                    bail!(
                        "plot `{}`: the baseline row with {}={} has nothing to divide by",
                        self.name,
                        self.group(),
                        r[group]
                    );
                }
                bar.iter_mut().for_each(|v| *v /= divisor);
            }
        }
        Ok(StackedBars {
            failed: rows.iter().map(|r| !succeeded(table, r)).collect(),
            bars: rows
                .iter()
                .map(|r| r[series.unwrap_or(x)].to_string())
                .collect(),
            parts: numbers
                .iter()
                .map(|n| part_label(table, &rows, parts, n))
                .collect(),
            values,
            percent: self.scale == Scale::Share,
            groups,
        })
    }

    /// `schedule=SparseWeaver`: what picks a relative breakdown's baseline.
    fn baseline_text(&self) -> String {
        self.relative_to
            .iter()
            .map(|(c, v)| format!("{c}={}", cell_text(v)))
            .collect::<Vec<String>>()
            .join(", ")
    }

    /// The figure of a breakdown plot.
    pub(super) fn draw_breakdown(&self, f: &Figure) -> anyhow::Result<()> {
        let (path, style, caption) = (&f.path, &f.style, &f.caption);
        let (x_bytes, series_bytes) = (f.x_bytes, f.series_bytes);
        let x_label = f.x_label.clone();
        let stacks = self.breakdown(f.table)?;
        let parts = self.parts.expect("checked");
        if !stacks.values.iter().flatten().any(|v| *v > 0.0) {
            let columns = match parts {
                Parts::Slots => "slots_*",
                Parts::Phases => "phase_*_warp_cycles",
                Parts::Stalls => "stall_*",
            };
            return Err(self.nothing_to_draw(columns));
        }
        let mut stacks = stacks;
        for bar in &mut stacks.bars {
            *bar = sized(
                bar,
                if self.series.is_some() {
                    series_bytes
                } else {
                    x_bytes
                },
            );
        }
        for (group, _) in &mut stacks.groups {
            *group = sized(group, x_bytes);
        }
        let what = match parts {
            Parts::Slots => "issue slots",
            Parts::Phases => "warp time",
            Parts::Stalls => "warp cycles per issued instruction",
        };
        let title = self.title.clone().unwrap_or_else(|| match parts {
            Parts::Slots => "issue slots by reason".into(),
            Parts::Phases => "warp time by phase".into(),
            Parts::Stalls => "warp stalls by reason".into(),
        });
        let labels = Labels {
            title: String::new(),
            x: x_label,
            y: self.y_label.clone().unwrap_or_else(|| match self.scale {
                Scale::Share => format!("share of {what} (%)"),
                Scale::Cycles => match parts {
                    Parts::Slots => "issue slots (cycles x slots)".into(),
                    Parts::Phases => "warp time (warp cycles)".into(),
                    Parts::Stalls => "warp cycles per issued instruction".into(),
                },
                Scale::Relative => format!(
                    "{what} relative to {}'s {} (x)",
                    self.baseline_text(),
                    self.relative_part.as_deref().unwrap_or("total")
                ),
            }),
        };
        let legend_title = match parts {
            Parts::Slots => "slot reason",
            Parts::Phases => "phase",
            Parts::Stalls => "stall reason",
        };
        let mut legend = Legend::parts(Some(legend_title.into()), stacks.parts.clone());
        legend.rename(&self.legend);
        draw::figure(path, style, &title, caption, &legend, |area| {
            draw::stacked_bars(area, style, &labels, &stacks)
        })?;
        Ok(())
    }
}

/// A breakdown's part for a column (`slots_issued` -> `issued`, `phase_1_warp_cycles` ->
/// `1`), if it is one.
fn part_name(parts: Parts, column: &str) -> Option<String> {
    match parts {
        Parts::Slots => column.strip_prefix("slots_").map(String::from),
        Parts::Stalls => column.strip_prefix("stall_").map(String::from),
        Parts::Phases => column
            .strip_prefix("phase_")
            .and_then(|c| c.strip_suffix("_warp_cycles"))
            .map(String::from),
    }
}

/// A row's phases' numbers and names, from its `phase_names` (`0=runtime 1=init ...`).
fn phase_names(table: &Table, row: &[Cell]) -> Vec<(String, String)> {
    table
        .cell(row, "phase_names")
        .map_or_else(Vec::new, |names| {
            names
                .to_string()
                .split(' ')
                .filter_map(|entry| entry.split_once('='))
                .map(|(n, name)| (n.to_string(), name.to_string()))
                .collect()
        })
}

/// A part's legend: the slot reason; `phase N`, with the phase's name when every row that
/// names it gives it the same name.
fn part_label(table: &Table, rows: &[&Vec<Cell>], parts: Parts, part: &str) -> String {
    if parts != Parts::Phases {
        return part.to_string();
    }
    let mut names: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            phase_names(table, r)
                .into_iter()
                .find(|(n, _)| n == part)
                .map(|(_, name)| name)
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    match names.as_slice() {
        [name] => format!("phase {part} {name}"),
        _ => format!("phase {part}"),
    }
}

/// The column of the part `name` (a slot reason; a phase's number or its name in `row`).
fn part_column(table: &Table, parts: Parts, row: &[Cell], name: &str) -> Option<usize> {
    match parts {
        Parts::Slots => table.column(&format!("slots_{name}")),
        Parts::Stalls => table.column(&format!("stall_{name}")),
        Parts::Phases => {
            let number = if name.bytes().all(|b| b.is_ascii_digit()) {
                name.to_string()
            } else {
                phase_names(table, row)
                    .into_iter()
                    .find(|(_, n)| n == name)?
                    .0
            };
            table.column(&format!("phase_{number}_warp_cycles"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{spec, table};

    #[test]
    fn breakdown_bars_are_grouped_by_x_then_series() {
        let t = table(
            "graph,schedule,slots_issued,slots_barrier\n\
             A,SW,1,1\nB,SW,2,2\nA,VM,3,3\nB,VM,4,4\nC,VM,5,5\n",
        );
        let p = spec("kind = 'breakdown'\nparts = 'slots'\nx = 'graph'\nseries = 'schedule'");
        let stacks = p.breakdown(&t).unwrap();
        assert_eq!(stacks.bars, ["SW", "VM", "SW", "VM", "VM"]);
        assert_eq!(
            stacks.groups,
            [
                ("A".to_string(), 2),
                ("B".to_string(), 2),
                ("C".to_string(), 1)
            ]
        );
        let issued: Vec<f64> = stacks.values.iter().map(|v| v[0]).collect();
        assert_eq!(issued, [1.0, 3.0, 2.0, 4.0, 5.0]);
        // Without a series, a bar per row in the table's order, no groups.
        let p = spec("kind = 'breakdown'\nparts = 'slots'\nx = 'graph'");
        let stacks = p.breakdown(&t).unwrap();
        assert_eq!(stacks.bars, ["A", "B", "A", "B", "C"]);
        assert!(stacks.groups.is_empty());
    }
}
