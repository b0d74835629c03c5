//! A table of runs in memory: a header and rows of typed [`Cell`]s, written and read as CSV
//! with the `csv` crate. A column the registry knows ([`Stat`]) reads back as its kind; the
//! `run` column as a count; any other (the experiment's identifying columns, an axis's
//! values) as a value as written. Sweeps, experiments, plots, paper reports and the
//! documentation's tables all go through it.

use std::path::Path;

use anyhow::Context;

use crate::stats::{Cell, Kind, Stat};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

/// How the text of column `name` reads back.
fn kind(name: &str) -> Option<Kind> {
    match name {
        "run" => Some(Kind::Count),
        _ => Stat::parse(name).map(Stat::kind),
    }
}

impl Table {
    /// The column called `name`.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }

    /// Row `row`'s cell in column `name`, if the table has the column.
    pub fn cell<'t>(&'t self, row: &'t [Cell], name: &str) -> Option<&'t Cell> {
        self.column(name).map(|k| &row[k])
    }

    /// Whether `row` is a sampled run's, its cycles an estimate (its `sampled` cell says
    /// `yes`; `whole`, a run the sampler simulated whole, is a detailed run's).
    pub fn is_sampled(&self, row: &[Cell]) -> bool {
        self.cell(row, "sampled")
            .is_some_and(|c| c.to_string() == "yes")
    }

    /// This table with `value` in column `name` wherever the cell is empty, the column
    /// added (holding `value` in every row) if the table has none.
    pub fn with_default(&self, name: &str, value: &str) -> Table {
        let mut table = self.clone();
        let k = table.column(name).unwrap_or_else(|| {
            table.header.push(name.to_string());
            table.rows.iter_mut().for_each(|row| row.push(Cell::Empty));
            table.header.len() - 1
        });
        for row in &mut table.rows {
            if row[k].to_string().is_empty() {
                row[k] = Cell::Text(value.to_string());
            }
        }
        table
    }

    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let mut out = csv::Writer::from_writer(Vec::new());
        out.write_record(&self.header)?;
        for row in &self.rows {
            out.write_record(row.iter().map(Cell::to_string))?;
        }
        let bytes = out
            .into_inner()
            .map_err(|e| anyhow::anyhow!("{}", e.error()))?;
        Ok(crate::files::write_whole(path, &bytes)?)
    }

    pub fn read(path: &Path) -> anyhow::Result<Table> {
        let text = crate::files::read_input(path, crate::TABLE_BYTES, "a table")?;
        Table::from_csv(
            csv::Reader::from_reader(&text[..]),
            &path.display().to_string(),
        )
    }

    /// A table from CSV text (`what`: where it came from, for errors).
    pub fn parse(text: &str, what: &str) -> anyhow::Result<Table> {
        Table::from_csv(csv::Reader::from_reader(text.as_bytes()), what)
    }

    fn from_csv<R: std::io::Read>(mut reader: csv::Reader<R>, what: &str) -> anyhow::Result<Table> {
        let header: Vec<String> = reader
            .headers()
            .with_context(|| format!("{what}: no header"))?
            .iter()
            .map(String::from)
            .collect();
        let kinds: Vec<Option<Kind>> = header.iter().map(|h| kind(h)).collect();
        let mut rows = Vec::new();
        for (line, record) in reader.records().enumerate() {
            let record = record.with_context(|| format!("cannot read {what}"))?;
            let row = record
                .iter()
                .zip(&kinds)
                .zip(&header)
                .map(|((text, kind), column)| match kind {
                    None => Ok(Cell::Written(text.to_string())),
                    Some(kind) => kind.read(text).ok_or_else(|| {
                        anyhow::anyhow!(
                            "{what}: row {}: column {column}: `{text}` is not a {}",
                            line + 1,
                            match kind {
                                Kind::Count => "whole number",
                                Kind::Fixed(_) => "number",
                                Kind::Bool => "true or false",
                                Kind::Text => "text",
                            }
                        )
                    }),
                })
                .collect::<anyhow::Result<Vec<Cell>>>()?;
            rows.push(row);
        }
        Ok(Table { header, rows })
    }
}

/// The geometric mean of positive numbers (none of none): every geomean of the harness
/// (paper claims, speedup plots, the documentation's tables) is this one.
pub fn geomean(values: &[f64]) -> Option<f64> {
    (!values.is_empty())
        .then(|| (values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_reads_back_as_it_was_written() {
        let text = "run,program,dram_ratio,cycles,ipc,weaver_unit,verdict\n\
                    0,pr_vm_pull,4,1051508,3.028055,false,ok\n\
                    1,\"a,b\",x,,,true,failed\n";
        let table = Table::parse(text, "t.csv").unwrap();
        assert_eq!(table.rows[0][3], Cell::Count(1051508));
        assert_eq!(table.rows[0][2].number(), Some(4.0));
        assert_eq!(table.rows[1][1], Cell::Written("a,b".into()));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        table.write(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        let bad = Table::parse("cycles\nmany\n", "bad.csv").unwrap_err();
        assert!(
            bad.to_string()
                .contains("bad.csv: row 1: column cycles: `many` is not a whole number"),
            "{bad}"
        );
    }

    #[test]
    fn the_geometric_mean_is_none_of_nothing() {
        assert_eq!(geomean(&[]), None);
        let g = geomean(&[4.0, 9.0, 2.0]).unwrap();
        assert!((g - 72f64.powf(1.0 / 3.0)).abs() < 1e-12);
    }
}
