//! How a claim's value is computed from an experiment's table (the methods of a paper
//! file's `compute`), and whether it meets the claim's expectation.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::bail;

pub use super::value::{Expect, Measured, Method, Stated};

use super::rows::{side_columns, MetricExpr, View};
pub use super::rows::{Filter, NoRows};
use crate::speedup::{self, Pair, Side};
use crate::stats::Cell;
use crate::table::{geomean, Table};

/// How one claim's value is computed from one experiment's table.
#[derive(Clone, Debug, PartialEq)]
pub struct Computation {
    pub method: Method,
    pub filter: Filter,
    /// Baseline and subject rows (speedups: baseline's metric / subject's).
    pub sides: Option<(Filter, Filter)>,
    /// `pair_by` (speedups) or `group_by` (spread).
    pub by: Vec<String>,
    pub metric: String,
}

impl Computation {
    /// The same computation with the schedules of its conditions mapped by `map` (a
    /// reading's `replace`: EM's rows become EM-search's).
    pub fn replaced(&self, map: &BTreeMap<String, String>) -> Computation {
        let column = "schedule";
        Computation {
            filter: self.filter.replaced(column, map),
            sides: (self.sides.as_ref())
                .map(|(b, s)| (b.replaced(column, map), s.replaced(column, map))),
            ..self.clone()
        }
    }

    /// The schedules its conditions name.
    pub fn schedules(&self) -> BTreeSet<&str> {
        let mut named: BTreeSet<&str> = self.filter.values_of("schedule").collect();
        if let Some((b, s)) = &self.sides {
            named.extend(b.values_of("schedule").chain(s.values_of("schedule")));
        }
        named
    }

    /// The columns it reads.
    fn columns(&self) -> BTreeSet<&str> {
        let mut named: BTreeSet<&str> = self.filter.columns().collect();
        if let Some((baseline, subject)) = &self.sides {
            named.extend(baseline.columns().chain(subject.columns()));
        }
        named.extend(self.by.iter().map(String::as_str));
        named
    }

    /// Whether a row it reads is a sampled run's (its `sampled` cell says `yes`): its
    /// value is then an estimate, which the page marks.
    pub fn sampled(&self, table: &Table) -> bool {
        sampled_rows(table).any(|row| self.filter.matches_row(table, row))
    }

    /// wsim's value from `table` (read from `path`).
    pub fn compute(&self, table: &Table, path: &Path) -> anyhow::Result<Measured> {
        let metric = MetricExpr::parse(&self.metric);
        let unknown: Vec<&str> = (self.columns().into_iter())
            .filter(|c| table.column(c).is_none())
            .chain(metric.sides().filter(|s| side_columns(table, s).is_empty()))
            .collect();
        if !unknown.is_empty() {
            bail!(
                "{} has no column {} (it has: {})",
                path.display(),
                unknown.join(", "),
                table.header.join(", ")
            );
        }
        let view = View { table, path };
        let all: Vec<&Vec<Cell>> = table.rows.iter().collect();
        let rows = self.filter.select(&view, &all);
        if rows.is_empty() {
            return Err(NoRows(format!(
                "no row of {} matches where = {}",
                path.display(),
                self.filter
            ))
            .into());
        }
        match self.method {
            Method::GeomeanSpeedup => Ok(Measured::One(
                geomean(&self.speedups(&view, &rows)?).expect("a side has a row"),
            )),
            Method::Ratio => Ok(Measured::One(self.speedups(&view, &rows)?[0])),
            Method::Range => {
                let s = self.speedups(&view, &rows)?;
                Ok(Measured::Range(
                    s.iter().copied().fold(f64::INFINITY, f64::min),
                    s.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                ))
            }
            Method::Value => match rows.as_slice() {
                [row] => Ok(Measured::One(view.metric(row, &self.metric, true)?)),
                many => bail!(
                    "{} rows match where = {} ({}, ...): a value needs exactly one",
                    many.len(),
                    self.filter,
                    view.describe(many[0])
                ),
            },
            Method::Spread => {
                let mut widest = 1.0f64;
                for group in self.keyed(&view, &rows).values() {
                    let values = group
                        .iter()
                        .map(|r| view.metric(r, &self.metric, false))
                        .collect::<anyhow::Result<Vec<f64>>>()?;
                    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
                    widest = widest.max(max / min);
                }
                Ok(Measured::One(widest))
            }
            Method::Bounds => {
                let values = (rows.iter())
                    .map(|r| view.metric(r, &self.metric, true))
                    .collect::<anyhow::Result<Vec<f64>>>()?;
                Ok(Measured::Range(
                    values.iter().copied().fold(f64::INFINITY, f64::min),
                    values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                ))
            }
        }
    }

    /// `rows` by the values of the `by` columns, in the keys' order.
    fn keyed<'t>(
        &self,
        view: &View<'t>,
        rows: &[&'t Vec<Cell>],
    ) -> BTreeMap<Vec<String>, Vec<&'t Vec<Cell>>> {
        let by: Vec<usize> = self.by.iter().map(|c| view.col(c)).collect();
        let mut groups: BTreeMap<Vec<String>, Vec<&Vec<Cell>>> = BTreeMap::new();
        for row in rows {
            let key = by.iter().map(|&k| row[k].to_string()).collect();
            groups.entry(key).or_default().push(row);
        }
        groups
    }

    /// `by` columns and their values, for messages.
    fn key_text(&self, key: &[String]) -> String {
        self.by
            .iter()
            .zip(key)
            .map(|(c, v)| format!("{c}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Each pair's baseline metric / subject metric, in the pairs' key order, through
    /// [`crate::speedup::pair`]; a claim refuses a pair left out (see the policy there):
    /// every row on either side must have exactly one partner, and every run must have
    /// succeeded with a positive metric.
    fn speedups(&self, view: &View, rows: &[&Vec<Cell>]) -> anyhow::Result<Vec<f64>> {
        let (baseline, subject) = self.sides.as_ref().expect("speedups have sides");
        let side = |name: &str, filter: &Filter| {
            let chosen = filter.select(view, rows);
            if chosen.is_empty() {
                // A table of part of its experiment (a profile without these programs).
                return Err(NoRows(format!(
                    "no {name} row: none of the rows where = {} matches {name} = {filter}",
                    self.filter
                ))
                .into());
            }
            let keyed = self.keyed(view, &chosen);
            let mut one = BTreeMap::new();
            for (key, group) in keyed {
                if let [first, second, ..] = group.as_slice() {
                    let (have, fix) = if key.is_empty() {
                        ("match".to_string(), "narrow where")
                    } else {
                        (
                            format!("have {}", self.key_text(&key)),
                            "add a column to pair_by or narrow where",
                        )
                    };
                    bail!(
                        "{} {name} rows {have} ({}, {}, ...): {fix}",
                        group.len(),
                        view.describe(first),
                        view.describe(second)
                    );
                }
                // The row and its metric (or why it has none).
                one.insert(key, (group[0], view.metric(group[0], &self.metric, false)));
            }
            Ok(one)
        };
        let base = side("baseline", baseline)?;
        let subj = side("subject", subject)?;
        let of = |rows: &BTreeMap<Vec<String>, (&Vec<Cell>, anyhow::Result<f64>)>,
                  key: &Vec<String>| match rows.get(key) {
            None => Side::Missing,
            Some((_, Ok(v))) => Side::Measured(*v),
            Some((_, Err(_))) => Side::Failed,
        };
        let keys: BTreeSet<Vec<String>> = base.keys().chain(subj.keys()).cloned().collect();
        let pairs = speedup::pair(keys, |k| of(&base, k), |k| of(&subj, k));
        for (name, have) in [("subject", &base), ("baseline", &subj)] {
            let lacks = |p: &&Pair<Vec<String>>| match name {
                "subject" => p.subject == Side::Missing,
                _ => p.baseline == Side::Missing,
            };
            if let Some(p) = pairs.left_out().find(lacks) {
                bail!(
                    "no {name} row to pair with {} ({})",
                    view.describe(have[&p.key].0),
                    self.key_text(&p.key)
                );
            }
        }
        if let Some(p) = pairs.left_out().next() {
            let side = if p.baseline == Side::Failed {
                &base
            } else {
                &subj
            };
            if let (_, Err(e)) = &side[&p.key] {
                if e.downcast_ref::<NoRows>().is_some() {
                    return Err(NoRows(format!("{e:#}")).into());
                }
                bail!("{e:#}");
            }
        }
        Ok(pairs.values())
    }
}

/// The rows of sampled runs (their `sampled` cell says `yes`).
fn sampled_rows(table: &Table) -> impl Iterator<Item = &Vec<Cell>> {
    (table.rows.iter()).filter(|row| table.is_sampled(row))
}

/// Whether the table holds a sampled run's row (a figure drawn from it shows estimates).
pub(super) fn has_sampled_rows(table: &Table) -> bool {
    sampled_rows(table).next().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small table by hand: PageRank and BFS on two graphs, VM/EM/SparseWeaver, pull.
    const CSV: &str = "\
run,program,graph,algorithm,direction,schedule,dram_ratio,verified,verdict,cycles
0,pr_vm_pull,g1,pr,pull,VM,1,yes,ok,400
1,pr_sw_pull,g1,pr,pull,SparseWeaver,1,yes,ok,100
2,pr_vm_pull,g2,pr,pull,VM,1,yes,ok,900
3,pr_sw_pull,g2,pr,pull,SparseWeaver,1,yes,ok,100
4,bfs_vm_pull,g1,bfs,pull,VM,1,yes,ok,300
5,bfs_sw_pull,g1,bfs,pull,SparseWeaver,1,yes,ok,150
6,pr_em_pull,g1,pr,pull,EM,1,-,ok,200
7,pr_vm_pull,g1,pr,pull,VM,2,yes,ok,800
8,pr_sw_pull,g1,pr,pull,SparseWeaver,2,yes,ok,250
";

    fn table(text: &str) -> Table {
        Table::parse(text, "t.csv").unwrap()
    }

    fn filter(pairs: &[(&str, &[&str])]) -> Filter {
        Filter(
            pairs
                .iter()
                .map(|(c, v)| (c.to_string(), v.iter().map(|s| s.to_string()).collect()))
                .collect(),
        )
    }

    fn speedup(method: Method, filt: Filter, by: &[&str]) -> Computation {
        Computation {
            method,
            filter: filt,
            sides: Some((
                filter(&[("schedule", &["VM"])]),
                filter(&[("schedule", &["SparseWeaver"])]),
            )),
            by: by.iter().map(|s| s.to_string()).collect(),
            metric: "cycles".into(),
        }
    }

    fn compute(c: &Computation, text: &str) -> anyhow::Result<Measured> {
        c.compute(&table(text), Path::new("t.csv"))
    }

    fn error(c: &Computation, text: &str) -> String {
        format!("{:#}", compute(c, text).unwrap_err())
    }

    fn close(a: Measured, b: Measured) -> bool {
        let ((a0, a1), (b0, b1)) = (a.bounds(), b.bounds());
        (a0 - b0).abs() < 1e-12 && (a1 - b1).abs() < 1e-12
    }

    #[test]
    fn geomean_speedup_pairs_rows_and_takes_the_geometric_mean() {
        let c = speedup(
            Method::GeomeanSpeedup,
            filter(&[("dram_ratio", &["1"])]),
            &["graph", "algorithm"],
        );
        // 400/100, 900/100, 300/150: (4 * 9 * 2)^(1/3).
        let v = compute(&c, CSV).unwrap();
        assert!(close(v, Measured::One(72f64.powf(1.0 / 3.0))), "{v:?}");
        // A list of values and a number compared as a number.
        let c = speedup(
            Method::GeomeanSpeedup,
            filter(&[("dram_ratio", &["1.0"]), ("algorithm", &["pr", "bfs"])]),
            &["graph", "algorithm"],
        );
        assert!(close(compute(&c, CSV).unwrap(), v));
    }

    #[test]
    fn ratio_range_value_and_spread() {
        let one = filter(&[
            ("graph", &["g1"]),
            ("algorithm", &["pr"]),
            ("dram_ratio", &["2"]),
        ]);
        assert_eq!(
            compute(&speedup(Method::Ratio, one.clone(), &[]), CSV).unwrap(),
            Measured::One(3.2)
        );
        let pr = filter(&[("algorithm", &["pr"])]);
        assert_eq!(
            compute(&speedup(Method::Range, pr, &["graph", "dram_ratio"]), CSV).unwrap(),
            Measured::Range(3.2, 9.0)
        );
        let value = Computation {
            method: Method::Value,
            filter: filter(&[("run", &["6"])]),
            sides: None,
            by: vec![],
            metric: "cycles".into(),
        };
        assert_eq!(compute(&value, CSV).unwrap(), Measured::One(200.0));
        // SparseWeaver's cycles: g1 100, 250 (ratios 1, 2); g2 100 alone.
        let spread = Computation {
            method: Method::Spread,
            filter: filter(&[("schedule", &["SparseWeaver"]), ("algorithm", &["pr"])]),
            sides: None,
            by: vec!["graph".into()],
            metric: "cycles".into(),
        };
        assert_eq!(compute(&spread, CSV).unwrap(), Measured::One(2.5));
        let ungrouped = Computation {
            by: vec![],
            ..spread
        };
        assert_eq!(compute(&ungrouped, CSV).unwrap(), Measured::One(2.5));
    }

    #[test]
    fn computations_refuse_what_they_cannot_pair_or_trust() {
        let pr = filter(&[("algorithm", &["pr"])]);
        // Two ratios per graph: pair_by lacks dram_ratio.
        let e = error(
            &speedup(Method::GeomeanSpeedup, pr.clone(), &["graph"]),
            CSV,
        );
        assert!(
            e.contains("2 baseline rows have graph=g1") && e.contains("run 0"),
            "{e}"
        );
        // g2 has no SparseWeaver run at ratio 1.
        let missing = CSV.replace("3,pr_sw_pull,g2,pr,pull,SparseWeaver,1,yes,ok,100\n", "");
        let e = error(
            &speedup(Method::GeomeanSpeedup, pr.clone(), &["graph", "dram_ratio"]),
            &missing,
        );
        assert!(
            e.contains("no subject row to pair with run 2 (pr_vm_pull on g2)"),
            "{e}"
        );
        let bad = CSV.replace(
            "g2,pr,pull,SparseWeaver,1,yes,ok",
            "g2,pr,pull,SparseWeaver,1,NO,mismatch",
        );
        let e = error(
            &speedup(Method::Range, pr.clone(), &["graph", "dram_ratio"]),
            &bad,
        );
        assert!(
            e.contains("run 3 (pr_sw_pull on g2) in t.csv did not succeed"),
            "{e}"
        );
        let e = error(
            &speedup(
                Method::Range,
                filter(&[("colour", &["red"])]),
                &["graph", "shape"],
            ),
            CSV,
        );
        assert!(e.contains("t.csv has no column colour, shape"), "{e}");
        let e = error(
            &speedup(Method::Range, filter(&[("algorithm", &["sssp"])]), &[]),
            CSV,
        );
        assert!(
            e.contains("no row of t.csv matches where = {algorithm=sssp}"),
            "{e}"
        );
        let e = error(&speedup(Method::Ratio, pr.clone(), &[]), CSV);
        assert!(e.contains("3 baseline rows match (run 0"), "{e}");
        let one = filter(&[("run", &["0", "1"])]);
        let mut cm = speedup(Method::Ratio, one, &[]);
        cm.sides.as_mut().unwrap().1 = filter(&[("schedule", &["CM"])]);
        let e = error(&cm, CSV);
        assert!(e.contains("no subject row: none of the rows where = {run in [0, 1]} matches subject = {schedule=CM}"), "{e}");
    }

    /// A speedup figure's geomean bar and the `geomean_speedup` claim drawn from the same
    /// table are one number; with a run that failed, the figure's mean is over the
    /// complete pairs and the claim refuses, naming the run (`crate::speedup`'s policy).
    #[test]
    fn a_figures_geomean_and_the_claim_from_the_same_table_agree() {
        const RUNS: &str = "\
run,program,graph,schedule,verdict,cycles
0,pr_vm,g1,VM,ok,400
1,pr_sw,g1,SparseWeaver,ok,100
2,pr_vm,g2,VM,ok,900
3,pr_sw,g2,SparseWeaver,ok,250
4,pr_vm,g3,VM,ok,300
5,pr_sw,g3,SparseWeaver,ok,170
";
        let figure = |text: &str| {
            let spec: crate::plot::PlotSpec = toml::from_str(
                "name = 'f'\nkind = 'speedup'\nx = 'graph'\nseries = 'schedule'\n\
                 baseline = 'VM'",
            )
            .unwrap();
            let bars = spec.speedup_bars(&table(text)).unwrap();
            assert_eq!(bars.groups.last().map(String::as_str), Some("geomean"));
            assert_eq!(bars.series, ["SparseWeaver"]);
            bars.values.last().unwrap()[0].unwrap()
        };
        let claim = speedup(Method::GeomeanSpeedup, filter(&[]), &["graph"]);
        let Measured::One(claimed) = compute(&claim, RUNS).unwrap() else {
            panic!("one value")
        };
        let drawn = figure(RUNS);
        assert!(
            (drawn - claimed).abs() <= 1e-12 * claimed,
            "{drawn} {claimed}"
        );

        let failed = RUNS.replace(
            "3,pr_sw,g2,SparseWeaver,ok",
            "3,pr_sw,g2,SparseWeaver,failed",
        );
        let complete = geomean(&[4.0, 300.0 / 170.0]).unwrap();
        assert!((figure(&failed) - complete).abs() < 1e-12);
        let e = error(&claim, &failed);
        assert!(
            e.contains("run 3 (pr_sw on g2) in t.csv did not succeed"),
            "{e}"
        );
    }

    /// Sampled runs estimate the cycles only: a claim on another timing statistic has no
    /// rows in a profile of sampled runs (`not run` there, like a part not run), not an
    /// error; on their cycles it has its value.
    #[test]
    fn a_claim_on_what_sampled_runs_lack_has_no_rows_there() {
        const SAMPLED: &str = "\
run,program,graph,schedule,verified,verdict,sampled,cycles,group_spmm_cycles
0,gcn_vm,g1,VM,yes,ok,yes,300,
1,gcn_sw,g1,SparseWeaver,yes,ok,yes,150,
";
        let mut c = speedup(Method::GeomeanSpeedup, filter(&[]), &["graph"]);
        assert!(close(compute(&c, SAMPLED).unwrap(), Measured::One(2.0)));
        c.metric = "group_spmm_cycles".into();
        let e = compute(&c, SAMPLED).unwrap_err();
        assert!(e.downcast_ref::<NoRows>().is_some(), "{e:#}");
        assert!(
            format!("{e:#}")
                .contains("a sampled run, which estimates the cycles, not group_spmm_cycles"),
            "{e:#}"
        );
        // In a detailed run the cell empty is a fault of the table.
        let detailed = SAMPLED.replace(",yes,300,", ",,300,");
        let e = compute(&c, &detailed).unwrap_err();
        assert!(e.downcast_ref::<NoRows>().is_none(), "{e:#}");
    }
}
