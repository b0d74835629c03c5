//! The documentation's measured tables, made from measurements (never typed by hand):
//! KERNELS.md's schedule tables from a kernels experiment's CSV ([`Schedules`]), GCN.md's
//! table of the GCN designs from their runs' reports ([`gcn`]), and the generated blocks
//! of a document, rewritten in place or checked ([`blocks`], [`rewrite`]). Speed-ups and
//! their geometric means are the harness's one ([`crate::speedup`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{bail, Context};
use wsim_sim::report::Report;
use wsim_workloads::record::GraphRun;

use crate::run::RunRecord;
use crate::speedup::{self, Side, Speedups};
use crate::stats::{Cell, GcnGroup, Stat};
use crate::table::Table;

/// The schedules in the tables' order.
pub const SCHEDULES: [&str; 9] = [
    "VM",
    "EM",
    "WM",
    "CM",
    "TWC",
    "TWCE",
    "STRICT",
    "SparseWeaver",
    "EGHW",
];
pub const ALGORITHMS: [&str; 4] = ["PageRank", "BFS", "SSSP", "CC"];
const DIRECTIONS: [&str; 2] = ["pull", "push"];
/// Whose speedups the tables show, and over which schedules in their own columns.
const SUBJECT: &str = "SparseWeaver";
const SPEEDUP_COLUMNS: [&str; 3] = ["VM", "EM", "EGHW"];

/// A whole number with its thousands separated: `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, d) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// One schedule table: a row per algorithm and direction, a cycles column per schedule,
/// SparseWeaver's speedup over VM, EM and EGHW, and the geometric mean of its speedup over
/// every schedule (a second one without `mean_without`'s algorithms when given). A cell no
/// run fills reads "not run"; a geomean over fewer rows than the table's says how many.
#[derive(Clone, Debug)]
pub struct Schedules {
    /// The kernels experiment's table.
    pub csv: PathBuf,
    /// `dissertation` or `tuned` (the dissertation form's table also lists VM's
    /// atomic-free pull).
    pub form: String,
    pub algorithms: Vec<String>,
    pub schedules: Vec<String>,
    pub mean_without: Vec<String>,
}

/// Cycles by (algorithm, direction, schedule).
type Cells = BTreeMap<(String, String, String), u64>;

impl Schedules {
    /// The table as Markdown; a run of the form that did not verify is an error.
    pub fn render(&self) -> anyhow::Result<String> {
        for (name, wanted, known) in [
            (
                "algorithm",
                self.algorithms
                    .iter()
                    .chain(&self.mean_without)
                    .collect::<Vec<_>>(),
                &ALGORITHMS[..],
            ),
            ("schedule", self.schedules.iter().collect(), &SCHEDULES[..]),
        ] {
            let unknown: Vec<&str> = (wanted.iter())
                .filter(|w| !known.contains(&w.as_str()))
                .map(|w| w.as_str())
                .collect();
            if !unknown.is_empty() {
                bail!(
                    "unknown {name} {} (known: {})",
                    unknown.join(", "),
                    known.join(", ")
                );
            }
        }
        if !self.schedules.iter().any(|s| s == SUBJECT) {
            bail!("the speedups are {SUBJECT}'s: the schedules must name it");
        }
        let table = Table::read(&self.csv)?;
        let cells = cycles(&table, &self.form)?;
        let mut lines = self.lines(&cells);
        // VM's atomic-free pull (section 2.4.1) is a variant of the dissertation form.
        if self.form == "dissertation" {
            let free: BTreeMap<String, u64> = (cycles(&table, "atomicfree")?.into_iter())
                .map(|((a, _, _), c)| (a, c))
                .collect();
            let shown: Vec<String> = (self.algorithms.iter())
                .filter_map(|a| Some(format!("{a} {}", thousands(*free.get(a)?))))
                .collect();
            if !shown.is_empty() {
                lines.push(String::new());
                lines.push(format!("VM atomic-free pull: {}", shown.join(", ")));
            }
        }
        Ok(lines.join("\n") + "\n")
    }

    fn lines(&self, cells: &Cells) -> Vec<String> {
        let kernels: Vec<(&str, &str)> = (self.algorithms.iter())
            .flat_map(|a| DIRECTIONS.map(|d| (a.as_str(), d)))
            .collect();
        let speedups: Vec<&str> = SPEEDUP_COLUMNS
            .into_iter()
            .filter(|s| *s != SUBJECT && self.schedules.iter().any(|c| c == s))
            .collect();
        let mut head = vec!["kernel".to_string()];
        head.extend(self.schedules.iter().cloned());
        head.extend(speedups.iter().map(|s| format!("SW/{s}")));
        let mut lines = vec![
            format!("| {} |", head.join(" | ")),
            format!("| --- |{}", " ---: |".repeat(head.len() - 1)),
        ];
        let get = |a: &str, d: &str, s: &str| cells.get(&(a.into(), d.into(), s.into())).copied();
        for &(a, d) in &kernels {
            let mut row = vec![format!("{a} {d}")];
            row.extend(
                self.schedules
                    .iter()
                    .map(|s| get(a, d, s).map_or("not run".into(), thousands)),
            );
            for s in &speedups {
                let pair = self.pairs(cells, &[(a, d)], s);
                row.push(match pair.values().as_slice() {
                    [speedup] => format!("{speedup:.2}x"),
                    _ => "n/a".into(),
                });
            }
            lines.push(format!("| {} |", row.join(" | ")));
        }
        lines.push(String::new());
        lines.push(format!(
            "geomean SW over each schedule: {}",
            self.means(cells, &kernels)
        ));
        let rest: Vec<(&str, &str)> = (kernels.iter().copied())
            .filter(|(a, _)| !self.mean_without.iter().any(|w| w == a))
            .collect();
        if !rest.is_empty() && rest != kernels {
            let kept: Vec<&str> = (self.algorithms.iter())
                .filter(|a| !self.mean_without.contains(a))
                .map(String::as_str)
                .collect();
            let only = match kept.split_last() {
                Some((last, [])) => last.to_string(),
                Some((last, first)) => format!("{} and {last}", first.join(", ")),
                None => String::new(),
            };
            lines.push(format!(
                "the same, {only} only: {}",
                self.means(cells, &rest)
            ));
        }
        lines
    }

    /// `VM 4.09x, EM 1.25x (6 of 8 rows), ...`: SparseWeaver's geometric-mean speedup over
    /// each schedule on the `kernels` both have (`crate::speedup`'s policy: the rows left
    /// out are counted).
    fn means(&self, cells: &Cells, kernels: &[(&str, &str)]) -> String {
        let mut out = Vec::new();
        for s in self.schedules.iter().filter(|s| *s != SUBJECT) {
            let pairs = self.pairs(cells, kernels, s);
            if let Some(mean) = pairs.geomean() {
                let partial = match pairs.count() {
                    (complete, of) if complete < of => format!(" ({complete} of {of} rows)"),
                    _ => String::new(),
                };
                out.push(format!("{s} {mean:.2}x{partial}"));
            }
        }
        out.join(", ")
    }

    /// Each of `kernels` as a pair of `baseline`'s cycles and SparseWeaver's.
    fn pairs<'k>(
        &self,
        cells: &Cells,
        kernels: &[(&'k str, &'k str)],
        baseline: &str,
    ) -> Speedups<(&'k str, &'k str)> {
        let side = |&(a, d): &(&str, &str), s: &str| {
            Side::of((cells.get(&(a.into(), d.into(), s.into()))).map(|&c| c as f64))
        };
        speedup::pair(
            kernels.iter().copied(),
            |k| side(k, baseline),
            |k| side(k, SUBJECT),
        )
    }
}

/// The cycles of `table`'s runs of `form` by kernel and schedule (a later row of one
/// replaces an earlier); a run that did not verify is an error naming it.
fn cycles(table: &Table, form: &str) -> anyhow::Result<Cells> {
    let column = |name: &str| {
        table
            .column(name)
            .with_context(|| format!("the table has no column {name}"))
    };
    let [f, verified, run, program, algorithm, direction, schedule, cycles] = [
        "form",
        "verified",
        "run",
        "program",
        "algorithm",
        "direction",
        "schedule",
        "cycles",
    ]
    .map(column);
    let (f, verified, cycles) = (f?, verified?, cycles?);
    let (run, program) = (run?, program?);
    let (algorithm, direction, schedule) = (algorithm?, direction?, schedule?);
    let mut cells = Cells::new();
    for row in table.rows.iter().filter(|r| r[f].to_string() == form) {
        if row[verified].to_string() != "yes" {
            bail!(
                "run {} ({}) did not verify: {}",
                row[run],
                row[program],
                row[verified]
            );
        }
        let Cell::Count(n) = row[cycles] else {
            bail!("run {} ({}) has no cycles", row[run], row[program]);
        };
        let key = (row[algorithm].to_string(), row[direction].to_string());
        cells.insert((key.0, key.1, row[schedule].to_string()), n);
    }
    Ok(cells)
}

/// GCN.md's table of the GCN designs on one graph, one row per report (in order): the
/// cycles of the run and of each launch group (init, SpMM, preprocessing, GraphSum), and
/// SparseWeaver's speedups over VM by weight; and the same rows as a CSV table. A report
/// that cannot be read keeps its row, `no report`.
pub fn gcn(reports: &[PathBuf]) -> anyhow::Result<(String, Table)> {
    const COLUMNS: [&str; 7] = [
        "kernel", "cycles", "init", "spmm", "prepare", "graphsum", "result",
    ];
    let mut table = Table {
        header: COLUMNS.map(String::from).to_vec(),
        rows: Vec::new(),
    };
    for path in reports {
        let report = crate::files::read_text(path, crate::REPORT_BYTES, "a report")
            .ok()
            .and_then(|text| serde_json::from_str::<Report<GraphRun>>(&text).ok());
        let Some(report) = report else {
            let stem = path
                .file_stem()
                .map_or(String::new(), |s| s.to_string_lossy().into_owned());
            let mut row = vec![Cell::Text(stem)];
            row.extend(std::iter::repeat_n(Cell::Empty, 5));
            row.push(Cell::Text("no report".into()));
            table.rows.push(row);
            continue;
        };
        let record = RunRecord::of_report(report);
        let graph = record.workload();
        let kernel = graph.map_or("?".into(), |g| g.schedule.clone());
        let result = match graph {
            Some(g) => serde_json::to_value(g.result)?
                .as_str()
                .unwrap_or_default()
                .to_string(),
            None => Stat::Status.read(&record).to_string(),
        };
        let mut row = vec![Cell::Text(kernel), Stat::Cycles.read(&record)];
        row.extend(
            GcnGroup::ALL.map(|g| match Stat::GroupCycles(g).read(&record) {
                Cell::Empty => Cell::Count(0),
                cell => cell,
            }),
        );
        row.push(Cell::Text(result));
        table.rows.push(row);
    }
    let mut text = String::from(
        "| kernel | cycles | init | SpMM | preprocessing | GraphSum | result |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | --- |\n",
    );
    for row in &table.rows {
        let cells: Vec<String> = row
            .iter()
            .map(|c| match c {
                Cell::Count(n) => thousands(*n),
                other => other.to_string(),
            })
            .collect();
        let _ = writeln!(text, "| {} |", cells.join(" | "));
    }
    let count = |row: &[Cell], k: usize| match row[k] {
        Cell::Count(n) => Some(n),
        _ => None,
    };
    if let [vm, sw, ..] = table.rows.as_slice() {
        if count(vm, 1).is_some() && count(sw, 1).is_some() {
            let ratio = |k: usize| match (count(vm, k), count(sw, k)) {
                (Some(v), Some(s)) if s > 0 => format!("{:.2}x", v as f64 / s as f64),
                _ => "-".into(),
            };
            let _ = write!(
                text,
                "\nSparseWeaver over VM by weight: {} (SpMM {}, GraphSum {})\n",
                ratio(1),
                ratio(3),
                ratio(5)
            );
        }
    }
    Ok((text, table))
}

/// A generated block of a document: `<!-- wsim tables schedules ARGS -->`, the table, then
/// `<!-- end wsim tables -->`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The arguments after `wsim tables schedules`, as written.
    pub args: String,
    /// Where the table lies in the document (bytes), and what it holds now.
    pub range: std::ops::Range<usize>,
    pub text: String,
}

pub const BLOCK_START: &str = "<!-- wsim tables schedules ";
pub const BLOCK_END: &str = "<!-- end wsim tables -->";

/// The generated blocks of `doc` (`what`: its name, for errors), in order.
pub fn blocks(doc: &str, what: &str) -> anyhow::Result<Vec<Block>> {
    let mut found = Vec::new();
    let mut from = 0;
    // A block starts a line (the marker quoted in prose does not).
    let starts_line = |k: usize| k == 0 || doc.as_bytes()[k - 1] == b'\n';
    while let Some(start) = doc[from..].find(BLOCK_START).map(|k| from + k) {
        if !starts_line(start) {
            from = start + BLOCK_START.len();
            continue;
        }
        let args_at = start + BLOCK_START.len();
        let line_end = doc[args_at..]
            .find('\n')
            .map(|k| args_at + k)
            .with_context(|| format!("{what}: a block's first line does not end"))?;
        let Some(args) = doc[args_at..line_end].strip_suffix(" -->") else {
            bail!("{what}: a block's first line does not end with ` -->`");
        };
        let body = line_end + 1;
        let end = doc[body..]
            .find(BLOCK_END)
            .map(|k| body + k)
            .with_context(|| format!("{what}: the block `{args}` has no `{BLOCK_END}`"))?;
        found.push(Block {
            args: args.to_string(),
            range: body..end,
            text: doc[body..end].to_string(),
        });
        from = end + BLOCK_END.len();
    }
    if found.is_empty() {
        bail!("{what} marks no table as generated (`{BLOCK_START}ARGS -->`)");
    }
    Ok(found)
}

/// `doc` with each block's table replaced by `tables` (one per block, in order).
pub fn rewrite(doc: &str, blocks: &[Block], tables: &[String]) -> String {
    let mut out = String::new();
    let mut at = 0;
    for (block, table) in blocks.iter().zip(tables) {
        out.push_str(&doc[at..block.range.start]);
        out.push_str(table);
        at = block.range.end;
    }
    out.push_str(&doc[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_have_their_thousands_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_021_067), "1,021,067");
    }

    #[test]
    fn blocks_are_found_and_rewritten_in_place() {
        let doc = "a\n<!-- wsim tables schedules x.csv --form tuned -->\nold\n\
                   <!-- end wsim tables -->\nb\n<!-- wsim tables schedules y.csv -->\n\
                   <!-- end wsim tables -->\n";
        let found = blocks(doc, "doc").unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].args, "x.csv --form tuned");
        assert_eq!(found[0].text, "old\n");
        assert_eq!(found[1].text, "");
        let new = rewrite(doc, &found, &["one\n".into(), "two\n".into()]);
        assert_eq!(
            new,
            doc.replace("old\n", "one\n")
                .replace("y.csv -->\n", "y.csv -->\ntwo\n")
        );
        assert!(blocks("nothing", "doc").is_err());
        let quoted = "see `<!-- wsim tables schedules ARGS -->` in prose\n";
        assert!(
            blocks(quoted, "doc").is_err(),
            "a quoted marker is no block"
        );
        let open = "<!-- wsim tables schedules x.csv -->\nno end\n";
        assert!(blocks(open, "doc")
            .unwrap_err()
            .to_string()
            .contains("has no"));
    }
}
