//! A section's rankings (docs/EXPERIMENTS.md, "Rankings"): per group (a graph), the items
//! (schedules) ordered by a metric in two experiments' tables, say a real GPU's
//! milliseconds and wsim's cycles, side by side with Kendall's tau-b between the two
//! orders and a person's reason where they disagree, its numbers computed from the
//! tables as every text's are (`reasons` with `numbers`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::bail;
use serde::Deserialize;

use super::compute::Filter;
use super::numbers::{NumberFile, Text};
use crate::stats::Cell;
use crate::table::Table;

/// `[[sections.rankings]]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RankingFile {
    /// The line above the table.
    pub title: String,
    /// The column whose values are ranked (`schedule`).
    pub items: String,
    /// The column with a ranking per value (`graph`).
    pub by: String,
    /// Rows of both tables (`form = "dissertation"`).
    #[serde(default, rename = "where")]
    pub filter: BTreeMap<String, toml::Value>,
    pub left: Side,
    pub right: Side,
    /// Why the two orders differ, per value of `by`, by a person who read the tables: a
    /// text, its numbers `{name}` computed from `numbers`.
    #[serde(default)]
    pub reasons: BTreeMap<String, String>,
    /// The numbers its reasons cite (`[sections.rankings.numbers]`), shared by them.
    #[serde(default)]
    pub(super) numbers: BTreeMap<String, NumberFile>,
}

/// One machine's table: `name` heads its column; lower `metric` ranks first (a time).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    pub name: String,
    pub experiment: String,
    pub profile: String,
    pub metric: String,
}

/// A ranking as the report uses it.
#[derive(Clone, Debug)]
pub struct Ranking {
    pub file: RankingFile,
    pub filter: Filter,
    /// Its reasons as texts, by value of `by` (the paper file fills them when read).
    pub reasons: BTreeMap<String, Text>,
}

impl Ranking {
    pub fn new(file: RankingFile) -> Result<Ranking, String> {
        let filter = Filter::parse("where", &file.filter)?;
        if let Some((group, _)) = file.reasons.iter().find(|(_, r)| r.contains('\n')) {
            return Err(format!(
                "reasons.{group} must be one line (it is a table cell)"
            ));
        }
        Ok(Ranking {
            file,
            filter,
            reasons: BTreeMap::new(),
        })
    }
}

/// Kendall's tau-b of two lists of values of the same items (ties allowed): concordant
/// minus discordant pairs over the square root of the pairs not tied in each list. None
/// when either list is all ties (or has fewer than two items).
pub fn kendall_tau_b(a: &[f64], b: &[f64]) -> Option<f64> {
    assert_eq!(a.len(), b.len(), "the same items on both sides");
    let (mut concordant, mut discordant, mut untied_a, mut untied_b) = (0i64, 0i64, 0i64, 0i64);
    for i in 0..a.len() {
        for j in i + 1..a.len() {
            let x = (a[i] - a[j]).partial_cmp(&0.0)? as i64;
            let y = (b[i] - b[j]).partial_cmp(&0.0)? as i64;
            untied_a += (x != 0) as i64;
            untied_b += (y != 0) as i64;
            match x * y {
                1 => concordant += 1,
                -1 => discordant += 1,
                _ => {}
            }
        }
    }
    let denominator = ((untied_a * untied_b) as f64).sqrt();
    (denominator > 0.0).then(|| (concordant - discordant) as f64 / denominator)
}

/// One side's rows of a group: each item's metric, and the items whose run did not
/// succeed or verify.
struct Group {
    values: BTreeMap<String, f64>,
    unverified: Vec<String>,
}

/// The groups of one side's table, in the order of their first rows.
fn groups(
    side: &Side,
    ranking: &Ranking,
    table: &Table,
    path: &Path,
) -> anyhow::Result<Vec<(String, Group)>> {
    let f = &ranking.file;
    for column in [f.items.as_str(), f.by.as_str(), side.metric.as_str()]
        .into_iter()
        .chain(ranking.filter.columns())
    {
        if table.column(column).is_none() {
            bail!("{} has no column {column}", path.display());
        }
    }
    let cell = |row: &Vec<Cell>, column: &str| table.cell(row, column).map(Cell::to_string);
    let mut out: Vec<(String, Group)> = Vec::new();
    for row in ranking.filter.select_in(table) {
        let group = cell(row, &f.by).unwrap_or_default();
        let item = cell(row, &f.items).unwrap_or_default();
        let k = match out.iter().position(|(g, _)| *g == group) {
            Some(k) => k,
            None => {
                out.push((
                    group.clone(),
                    Group {
                        values: BTreeMap::new(),
                        unverified: Vec::new(),
                    },
                ));
                out.len() - 1
            }
        };
        let ok = cell(row, "verdict").is_none_or(|v| v == "ok")
            && cell(row, "verified").is_none_or(|v| v == "yes" || v == "-");
        let value = table
            .cell(row, &side.metric)
            .and_then(Cell::number)
            .filter(|v| *v > 0.0 && v.is_finite());
        let g = &mut out[k].1;
        match value.filter(|_| ok) {
            Some(v) => {
                if g.values.insert(item.clone(), v).is_some() {
                    bail!(
                        "{}: two rows of {} `{item}` with {} `{group}`: narrow the ranking's \
                         where",
                        path.display(),
                        f.items,
                        f.by
                    );
                }
            }
            None => g.unverified.push(item),
        }
    }
    Ok(out)
}

/// Items by their value, least first.
fn order(values: &BTreeMap<String, f64>, items: &[&String]) -> String {
    let mut sorted: Vec<(&String, f64)> = items.iter().map(|i| (*i, values[*i])).collect();
    sorted.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(b.0)));
    sorted
        .iter()
        .map(|(i, _)| i.as_str())
        .collect::<Vec<_>>()
        .join(" < ")
}

/// The ranking's Markdown: its title, a row per group (both orders, tau-b, the reason),
/// and a summary; `reasons`: its reasons with their numbers filled, by group; `left` and
/// `right`: the sides' tables, none where one has not run.
pub fn markdown(
    ranking: &Ranking,
    reasons: &BTreeMap<String, String>,
    left: Option<(&Path, &Table)>,
    right: Option<(&Path, &Table)>,
) -> anyhow::Result<String> {
    let f = &ranking.file;
    let mut text = format!("\n**{}**\n\n", f.title.trim());
    let (Some((lpath, ltable)), Some((rpath, rtable))) = (left, right) else {
        let missing: Vec<String> = [(&f.left, left.is_none()), (&f.right, right.is_none())]
            .iter()
            .filter(|(_, absent)| *absent)
            .map(|(s, _)| format!("{} ({}, {})", s.name, s.experiment, s.profile))
            .collect();
        let _ = writeln!(text, "*Not run: {}.*", missing.join(" and "));
        return Ok(text);
    };
    let lefts = groups(&f.left, ranking, ltable, lpath)?;
    let rights: BTreeMap<String, Group> = groups(&f.right, ranking, rtable, rpath)?
        .into_iter()
        .collect();
    for group in reasons.keys() {
        if !lefts.iter().any(|(g, _)| g == group) {
            bail!(
                "ranking `{}`: a reason for {} `{group}`, which {} has no rows of",
                f.title,
                f.by,
                lpath.display()
            );
        }
    }
    let _ = write!(
        text,
        "| {by} | {l} ({lm}, least first) | {r} ({rm}, least first) | Kendall's tau-b | same \
         first | reason |\n| --- | --- | --- | ---: | --- | --- |\n",
        by = f.by,
        l = f.left.name,
        lm = f.left.metric,
        r = f.right.name,
        rm = f.right.metric,
    );
    let mut taus = Vec::new();
    let mut same_first = 0;
    for (group, l) in &lefts {
        let reason = reasons.get(group).map_or("", String::as_str);
        let Some(r) = rights.get(group) else {
            let _ = writeln!(
                text,
                "| {group} | {} | not run | | | {reason} |",
                order(&l.values, &l.values.keys().collect::<Vec<_>>())
            );
            continue;
        };
        let unverified: Vec<String> = [
            (&f.left.name, &l.unverified),
            (&f.right.name, &r.unverified),
        ]
        .iter()
        .filter(|(_, items)| !items.is_empty())
        .map(|(side, items)| format!("{side}'s {}", items.join(", ")))
        .collect();
        if !unverified.is_empty() {
            let _ = writeln!(
                text,
                "| {group} | | | | | not ranked: {} did not verify or succeed. {reason} |",
                unverified.join("; ")
            );
            continue;
        }
        let common: Vec<&String> = l
            .values
            .keys()
            .filter(|i| r.values.contains_key(*i))
            .collect();
        let a: Vec<f64> = common.iter().map(|i| l.values[*i]).collect();
        let b: Vec<f64> = common.iter().map(|i| r.values[*i]).collect();
        let tau = kendall_tau_b(&a, &b);
        let (lo, ro) = (order(&l.values, &common), order(&r.values, &common));
        let first = lo.split(" < ").next() == ro.split(" < ").next();
        same_first += first as usize;
        taus.extend(tau);
        let _ = writeln!(
            text,
            "| {group} | {lo} | {ro} | {} | {} | {reason} |",
            tau.map_or("-".into(), |t| format!("{t:.2}")),
            if first { "yes" } else { "no" }
        );
    }
    if !taus.is_empty() {
        let mean = taus.iter().sum::<f64>() / taus.len() as f64;
        let _ = writeln!(
            text,
            "\nMean tau-b over {} {}s: {mean:.2}; the same {} first in {same_first}. Tables: \
             `{}` and `{}`.",
            taus.len(),
            f.by,
            f.items,
            lpath.display(),
            rpath.display()
        );
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tau_b_is_one_for_the_same_order_and_minus_one_for_the_reverse() {
        assert_eq!(
            kendall_tau_b(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]),
            Some(1.0)
        );
        assert_eq!(
            kendall_tau_b(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]),
            Some(-1.0)
        );
        assert_eq!(kendall_tau_b(&[1.0, 1.0], &[1.0, 2.0]), None);
    }

    #[test]
    fn tau_b_counts_ties_as_scipy_does() {
        // scipy.stats.kendalltau([1, 2, 2, 3], [1, 3, 2, 4]) = 0.9128709291752769: 5
        // concordant, 0 discordant, pairs untied 5 and 6.
        let tau = kendall_tau_b(&[1.0, 2.0, 2.0, 3.0], &[1.0, 3.0, 2.0, 4.0]).unwrap();
        assert!((tau - 5.0 / 30f64.sqrt()).abs() < 1e-12);
        // One swap among four: (6 - 2 * 1) / 6.
        let tau = kendall_tau_b(&[1.0, 2.0, 3.0, 4.0], &[1.0, 3.0, 2.0, 4.0]).unwrap();
        assert!((tau - 4.0 / 6.0).abs() < 1e-12);
    }

    fn ranking(reasons: &[(&str, &str)]) -> Ranking {
        let side = |name: &str, metric: &str| Side {
            name: name.into(),
            experiment: "e".into(),
            profile: "p".into(),
            metric: metric.into(),
        };
        Ranking::new(RankingFile {
            title: "t".into(),
            items: "schedule".into(),
            by: "graph".into(),
            filter: BTreeMap::new(),
            left: side("GPU", "ms"),
            right: side("wsim", "cycles"),
            reasons: reasons
                .iter()
                .map(|(g, r)| (g.to_string(), r.to_string()))
                .collect(),
            numbers: BTreeMap::new(),
        })
        .unwrap()
    }

    fn table(text: &str) -> Table {
        Table::parse(text, "test").unwrap()
    }

    #[test]
    fn a_row_per_group_with_both_orders_tau_and_reason() {
        let gpu = table(
            "graph,schedule,ms,verified,verdict\nA,VM,3,yes,ok\nA,EM,1,yes,ok\nA,WM,2,yes,ok\n\
             B,VM,1,yes,ok\nB,EM,2,NO,mismatch\n",
        );
        let sim = table(
            "graph,schedule,cycles,verified,verdict\nA,VM,30,yes,ok\nA,EM,20,yes,ok\n\
             A,WM,10,yes,ok\nB,VM,1,yes,ok\nB,EM,2,yes,ok\n",
        );
        let p = Path::new("x.csv");
        let r = ranking(&[("A", "why")]);
        let text = markdown(&r, &r.file.reasons, Some((p, &gpu)), Some((p, &sim))).unwrap();
        assert!(
            text.contains("| A | EM < WM < VM | WM < EM < VM | 0.33 | no | why |"),
            "{text}"
        );
        assert!(
            text.contains("| B | | | | | not ranked: GPU's EM did not verify"),
            "{text}"
        );
        assert!(text.contains("Mean tau-b over 1 graphs: 0.33; the same schedule first in 0."));
        // A reason for a group no table has is a typo.
        let r = ranking(&[("C", "?")]);
        let e = markdown(&r, &r.file.reasons, Some((p, &gpu)), Some((p, &sim))).unwrap_err();
        assert!(e.to_string().contains("a reason for graph `C`"), "{e}");
        // A side that has not run says so.
        let r = ranking(&[]);
        let text = markdown(&r, &r.file.reasons, Some((p, &gpu)), None).unwrap();
        assert!(text.contains("*Not run: wsim (e, p).*"), "{text}");
    }
}
