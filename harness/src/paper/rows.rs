//! The rows a claim reads and their values: [`Filter`] (`column = value` conditions) and
//! [`View`], a table with where it was read, which describes a row for messages and gives
//! a row's metric (a column, or a ratio of columns or of sums of them) only when its run
//! succeeded and verified.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::bail;

use crate::stats::Cell;
use crate::table::Table;

/// `column = value` or `column = [values]` conditions on rows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter(pub(super) Vec<(String, Vec<String>)>);

impl Filter {
    pub fn parse(what: &str, table: &BTreeMap<String, toml::Value>) -> Result<Filter, String> {
        table
            .iter()
            .map(|(column, v)| {
                let text = |v: &toml::Value| match v {
                    toml::Value::String(s) => Ok(s.clone()),
                    toml::Value::Integer(_) | toml::Value::Float(_) | toml::Value::Boolean(_) => {
                        Ok(v.to_string())
                    }
                    _ => Err(format!(
                        "{what}.{column}: expected a value or a list of values"
                    )),
                };
                let values = match v {
                    toml::Value::Array(list) if list.is_empty() => {
                        return Err(format!("{what}.{column}: an empty list matches nothing"))
                    }
                    toml::Value::Array(list) => list.iter().map(text).collect(),
                    one => text(one).map(|t| vec![t]),
                };
                Ok((column.clone(), values?))
            })
            .collect::<Result<Vec<_>, String>>()
            .map(Filter)
    }

    pub(super) fn columns(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(c, _)| c.as_str())
    }

    /// The rows of `table` it keeps; its columns must be the table's.
    pub(super) fn select_in<'t>(&self, table: &'t Table) -> Vec<&'t Vec<Cell>> {
        let view = View {
            table,
            path: Path::new(""),
        };
        let all: Vec<&Vec<Cell>> = table.rows.iter().collect();
        self.select(&view, &all)
    }

    /// The same conditions with `column`'s values mapped by `map` (a reading's replace).
    pub(super) fn replaced(&self, column: &str, map: &BTreeMap<String, String>) -> Filter {
        Filter(
            (self.0.iter())
                .map(|(c, values)| {
                    let values = if c == column {
                        values
                            .iter()
                            .map(|v| map.get(v).unwrap_or(v).clone())
                            .collect()
                    } else {
                        values.clone()
                    };
                    (c.clone(), values)
                })
                .collect(),
        )
    }

    /// The same conditions with `column`'s (added, or replaced) being `values`.
    pub fn and(&self, column: &str, values: Vec<String>) -> Filter {
        let mut conditions: Vec<(String, Vec<String>)> = (self.0.iter())
            .filter(|(c, _)| c != column)
            .cloned()
            .collect();
        conditions.push((column.to_string(), values));
        Filter(conditions)
    }

    /// Whether `row` of `table` meets every condition (a column the table lacks: no).
    pub fn matches_row(&self, table: &Table, row: &[Cell]) -> bool {
        (self.0.iter()).all(|(c, values)| {
            table
                .column(c)
                .is_some_and(|k| values.iter().any(|v| row[k].matches(v)))
        })
    }

    /// The values it asks `column` for.
    pub fn values_of<'a>(&'a self, column: &'a str) -> impl Iterator<Item = &'a str> {
        (self.0.iter())
            .filter(move |(c, _)| c == column)
            .flat_map(|(_, values)| values.iter().map(String::as_str))
    }

    /// The rows whose every named column holds one of its values (numbers compare as
    /// numbers: `1` matches `1.0`).
    pub(super) fn select<'t>(&self, view: &View<'t>, rows: &[&'t Vec<Cell>]) -> Vec<&'t Vec<Cell>> {
        let conditions: Vec<(usize, &Vec<String>)> = self
            .0
            .iter()
            .map(|(c, values)| (view.col(c), values))
            .collect();
        rows.iter()
            .copied()
            .filter(|row| {
                conditions
                    .iter()
                    .all(|(k, values)| values.iter().any(|v| row[*k].matches(v)))
            })
            .collect()
    }
}

impl std::fmt::Display for Filter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(c, values)| match values.as_slice() {
                [one] => format!("{c}={one}"),
                many => format!("{c} in [{}]", many.join(", ")),
            })
            .collect();
        write!(f, "{{{}}}", parts.join(", "))
    }
}

/// A metric: a column, or `A / B` where each side is a column or the sum of the columns a
/// pattern with `*` matches (`slots_barrier / slots_*`: a share of the issue slots).
pub(super) struct MetricExpr<'m> {
    pub(super) numerator: &'m str,
    pub(super) denominator: Option<&'m str>,
}

impl<'m> MetricExpr<'m> {
    pub(super) fn parse(metric: &'m str) -> MetricExpr<'m> {
        match metric.split_once('/') {
            Some((n, d)) => MetricExpr {
                numerator: n.trim(),
                denominator: Some(d.trim()),
            },
            None => MetricExpr {
                numerator: metric.trim(),
                denominator: None,
            },
        }
    }

    pub(super) fn sides(&self) -> impl Iterator<Item = &'m str> {
        std::iter::once(self.numerator).chain(self.denominator)
    }
}

/// The columns of `table` a side of a metric names: the column, or those its pattern
/// matches (none: it names no column).
pub(super) fn side_columns(table: &Table, side: &str) -> Vec<usize> {
    if side.contains('*') {
        (table.header.iter().enumerate())
            .filter(|(_, h)| crate::matches(side, h))
            .map(|(k, _)| k)
            .collect()
    } else {
        table.column(side).into_iter().collect()
    }
}

/// A table without a row the claim asks for: a typo, or a table of part of its
/// experiment (a `full` profile run for some graphs only), or rows of sampled runs
/// without the statistic (a sampled run estimates the cycles, not the timing model's
/// other statistics).
#[derive(Debug)]
pub struct NoRows(pub(super) String);

impl std::fmt::Display for NoRows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NoRows {}

/// A table and where it was read, for messages.
pub(super) struct View<'t> {
    pub(super) table: &'t Table,
    pub(super) path: &'t Path,
}

impl View<'_> {
    /// A column the computation has checked exists.
    pub(super) fn col(&self, name: &str) -> usize {
        self.table.column(name).expect("columns checked before use")
    }

    /// `run 3 (pr_vm_pull on RN)` from whichever of these columns the table has.
    pub(super) fn describe(&self, row: &[Cell]) -> String {
        let cell = |name: &str| self.table.cell(row, name).map(Cell::to_string);
        let mut text = match cell("run") {
            Some(run) => format!("run {run}"),
            None => "a row".to_string(),
        };
        let what: Vec<String> = [("program", ""), ("graph", "on ")]
            .iter()
            .filter_map(|(c, on)| {
                cell(c)
                    .filter(|v| !v.is_empty())
                    .map(|v| format!("{on}{v}"))
            })
            .collect();
        if !what.is_empty() {
            text.push_str(&format!(" ({})", what.join(" ")));
        }
        text
    }

    /// A used row's metric: the run must have succeeded and verified (or have nothing to
    /// verify), and its metric be a positive number (or zero, with `zero`: a value shown,
    /// not divided by).
    pub(super) fn metric(&self, row: &[Cell], metric: &str, zero: bool) -> anyhow::Result<f64> {
        let at = || format!("{} in {}", self.describe(row), self.path.display());
        if let Some(verdict) = self.table.cell(row, "verdict") {
            if verdict.to_string() != "ok" {
                bail!("{} did not succeed (verdict {verdict})", at());
            }
        }
        if let Some(verified) = self.table.cell(row, "verified") {
            if !matches!(verified.to_string().as_str(), "yes" | "-") {
                bail!("{} did not verify (verified {verified})", at());
            }
        }
        let expr = MetricExpr::parse(metric);
        let sampled = self.table.is_sampled(row);
        let lacking = (expr.sides())
            .flat_map(|side| side_columns(self.table, side))
            .find(|&k| sampled && row[k] == Cell::Empty);
        if let Some(k) = lacking {
            return Err(NoRows(format!(
                "{}: a sampled run, which estimates the cycles, not {}",
                at(),
                self.table.header[k]
            ))
            .into());
        }
        let sum = |side: &str| -> anyhow::Result<f64> {
            let mut total = 0.0;
            for k in side_columns(self.table, side) {
                match row[k].number() {
                    Some(v) if v >= 0.0 && v.is_finite() => total += v,
                    _ => bail!(
                        "{}: {} is `{}`, not a number",
                        at(),
                        self.table.header[k],
                        row[k]
                    ),
                }
            }
            Ok(total)
        };
        let value = match expr.denominator {
            None => sum(expr.numerator)?,
            Some(d) => {
                let below = sum(d)?;
                if below == 0.0 {
                    bail!("{}: {d} is 0, so {metric} is not a number", at());
                }
                sum(expr.numerator)? / below
            }
        };
        if value > 0.0 || (zero && value == 0.0) {
            Ok(value)
        } else {
            bail!("{}: {metric} is {value}, not a positive number", at())
        }
    }
}
