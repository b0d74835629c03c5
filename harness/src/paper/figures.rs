//! A figure's claims together: under each reading side by side, with the reading (if
//! any) that reproduces them all, and per graph, with the claim over every subset of the
//! graphs of the paper's count.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::compute::{Measured, Method, Stated};
use super::render::{cell, shown};
use super::schema::{Claim, Paper, PerGraph, Section};
use super::{reading_rows, Tables, Value};

/// Whether `value` reproduces what the paper states: its expectation where the claim
/// has one, else within the paper file's `reproduced` of the paper's number; none when
/// the claim states neither (a value the paper does not give).
pub(super) fn reproduces(paper: &Paper, claim: &Claim, value: Measured) -> Option<bool> {
    let method = claim.measure.as_ref()?.1.method;
    if let Some(expect) = claim.expect {
        return Some(expect.holds(method, value, &claim.paper));
    }
    match (&claim.paper, paper.reproduced, value) {
        (Stated::Number(n), Some(p), Measured::One(v)) => Some((v / n - 1.0).abs() <= p),
        _ => None,
    }
}

fn mark(judged: Option<bool>) -> &'static str {
    match judged {
        Some(true) => " ✓",
        Some(false) => " ✗",
        None => "",
    }
}

/// The experiment of a section's claims: its own, else its first measured claim's.
fn experiment_of(section: &Section) -> Option<&str> {
    (section.experiment.as_deref()).or_else(|| {
        (section.claims.iter()).find_map(|c| c.measure.as_ref().map(|(e, _)| e.as_str()))
    })
}

/// A section's claims under each reading its experiment ran, from the profile that ran
/// the most readings (the later on a tie), and which reading reproduces them all.
pub(super) fn readings_table(
    paper: &Paper,
    section: &Section,
    values: &BTreeMap<(&str, &str), Value>,
    tables: &Tables,
) -> String {
    let Some(experiment) = experiment_of(section) else {
        return String::new();
    };
    if paper.readings.is_none() {
        return String::new();
    }
    let chosen = (paper.profiles.iter().rev())
        .filter_map(|p| {
            let names = tables
                .get(&(experiment.to_string(), p.as_str()))?
                .2
                .as_ref()?;
            Some((p.as_str(), names)).filter(|(_, n)| n.len() > 1)
        })
        .max_by_key(|(_, names)| names.len());
    let Some((profile, names)) = chosen else {
        return format!(
            "\n*Readings: experiment `{experiment}` runs the default reading alone in every \
             profile, so its claims have no reading to compare.*\n"
        );
    };
    let claims: Vec<(&Claim, &Value)> = (section.claims.iter())
        .filter_map(|c| Some((c, values.get(&(c.id.as_str(), profile))?)))
        .filter(|(c, _)| c.measure.is_some())
        .collect();
    if claims.is_empty() {
        return String::new();
    }
    let mut text = format!(
        "\n**Under each reading** (profile `{profile}`; ✓ reproduces the paper's claim, ✗ \
         does not; *italic*: the reading changes none of the claim's runs, which are the \
         default's):\n\n| claim | paper | {} |\n| --- | ---: |{}\n",
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(" | "),
        " ---: |".repeat(names.len())
    );
    // Per reading: claims judged and reproduced, and those it misses or did not run.
    let mut tally: Vec<(usize, Vec<&str>, Vec<&str>)> = vec![(0, vec![], vec![]); names.len()];
    let mut judged = 0;
    for (claim, value) in &claims {
        let method = claim.measure.as_ref().expect("measured").1.method;
        let is_judged = claim.expect.is_some()
            || (matches!(claim.paper, Stated::Number(_)) && paper.reproduced.is_some());
        judged += usize::from(is_judged);
        let mut cells = Vec::new();
        for (k, name) in names.iter().enumerate() {
            let band = value.band.as_ref();
            let own = band.and_then(|b| b.values.iter().find(|(r, _)| r == name));
            let unchanged = band.is_some_and(|b| b.unchanged.contains(name));
            let measured = match (own, unchanged) {
                (Some((_, v)), _) => Some((*v, false)),
                (None, true) => value.default.map(|d| (d, true)),
                (None, false) => None,
            };
            let Some((v, same)) = measured else {
                cells.push("not run".to_string());
                if is_judged {
                    tally[k].2.push(&claim.id);
                }
                continue;
            };
            let verdict = reproduces(paper, claim, v);
            match verdict {
                Some(true) => tally[k].0 += 1,
                Some(false) => tally[k].1.push(&claim.id),
                None => {}
            }
            let number = shown(method, v);
            let number = if same { format!("*{number}*") } else { number };
            cells.push(format!("{number}{}", mark(verdict)));
        }
        let paper_value = match &claim.paper {
            Stated::Number(n) => super::render::number(method, *n),
            Stated::Text(t) => t.clone(),
        };
        let _ = writeln!(
            text,
            "| `{}` | {} | {} |",
            claim.id,
            cell(&paper_value),
            cells.join(" | ")
        );
    }
    let _ = writeln!(
        text,
        "| reproduced | | {} |",
        (tally.iter())
            .map(|(n, _, not_run)| match not_run.len() {
                0 => format!("{n} of {judged}"),
                r => format!("{n} of {judged} ({r} not run)"),
            })
            .collect::<Vec<_>>()
            .join(" | ")
    );
    // Readings that change none of these claims' runs are the default's machine here.
    let default = names.first().map(String::as_str);
    let idle: Vec<&str> = (names.iter().map(String::as_str))
        .filter(|n| Some(*n) != default)
        .filter(|n| {
            (claims.iter()).all(|(_, v)| {
                v.band
                    .as_ref()
                    .is_some_and(|b| b.unchanged.iter().any(|u| u == n))
            })
        })
        .collect();
    let counted = || (names.iter().zip(&tally)).filter(|(name, _)| !idle.contains(&name.as_str()));
    let mut verdict = if judged == 0 {
        "no claim here is stated by the paper as a number or in words that wsim checks".to_string()
    } else {
        let all: Vec<String> = counted()
            .filter(|(_, (n, _, _))| *n == judged)
            .map(|(name, _)| format!("`{name}`"))
            .collect();
        if all.is_empty() {
            let best = counted().map(|(_, t)| t.0).max().unwrap_or(0);
            let leaders: Vec<String> = counted()
                .filter(|(_, t)| t.0 == best)
                .map(|(name, (_, missed, not_run))| {
                    let mut misses: Vec<String> = missed.iter().map(|c| format!("`{c}`")).collect();
                    misses.extend(not_run.iter().map(|c| format!("`{c}` not run")));
                    format!("`{name}` (misses {})", misses.join(", "))
                })
                .collect();
            format!(
                "no single reading reproduces the {judged} claims together; the most, {best}, \
                 under {}",
                leaders.join("; ")
            )
        } else {
            format!(
                "{} reproduce{} all {judged} claims",
                all.join(", "),
                if all.len() == 1 { "s" } else { "" }
            )
        }
    };
    if !idle.is_empty() {
        let idle: Vec<String> = idle.iter().map(|n| format!("`{n}`")).collect();
        let _ = write!(
            verdict,
            " ({} change{} none of these runs: the default's values)",
            idle.join(", "),
            if idle.len() == 1 { "s" } else { "" }
        );
    }
    let _ = writeln!(text, "\n**Verdict** (`{profile}`): {verdict}.");
    text
}

/// Every `k`-subset of `0..n`, in lexicographic order.
fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut all = Vec::new();
    let mut pick: Vec<usize> = (0..k).collect();
    if k == 0 || k > n {
        return all;
    }
    loop {
        all.push(pick.clone());
        let Some(i) = (0..k).rev().find(|&i| pick[i] < n - k + i) else {
            return all;
        };
        pick[i] += 1;
        for j in i + 1..k {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

/// A section's geometric-mean claims that pair by graph, on each graph and over every
/// subset of `per.subsets` graphs, under the default reading of `per.profile`'s table.
pub(super) fn per_graph(
    paper: &Paper,
    section: &Section,
    per: &PerGraph,
    tables: &Tables,
) -> anyhow::Result<String> {
    let mut rows = Vec::new();
    let mut graphs: Vec<String> = Vec::new();
    for claim in &section.claims {
        let Some((experiment, computation)) = &claim.measure else {
            continue;
        };
        if computation.method != Method::GeomeanSpeedup
            || !computation.by.iter().any(|b| b == "graph")
        {
            continue;
        }
        let Some((path, table, _)) = tables.get(&(experiment.clone(), per.profile.as_str())) else {
            anyhow::bail!(
                "experiment `{experiment}` has no table in profile `{}`",
                per.profile
            );
        };
        let (table, computation) = match &paper.readings {
            Some(r) => {
                let name = per.reading.as_deref().unwrap_or(&r.default_reading().name);
                let reading = r.get(name).expect("checked when the paper was read");
                (
                    reading_rows(table, r, name),
                    computation.replaced(&reading.replace),
                )
            }
            None => (table.clone(), computation.clone()),
        };
        let graph = table
            .column("graph")
            .ok_or_else(|| anyhow::anyhow!("{} has no column graph", path.display()))?;
        // The claim's graphs, in the table's order.
        let mut own: Vec<String> = Vec::new();
        for row in &table.rows {
            let g = row[graph].to_string();
            if !own.contains(&g)
                && computation
                    .filter
                    .and("graph", vec![g.clone()])
                    .matches_row(&table, row)
            {
                own.push(g);
            }
        }
        if graphs.is_empty() {
            graphs = own.clone();
        } else if graphs != own {
            anyhow::bail!(
                "claim `{}` has graphs {} where the section's first has {}",
                claim.id,
                own.join(", "),
                graphs.join(", ")
            );
        }
        let on = |chosen: Vec<String>| {
            let mut c = computation.clone();
            c.filter = c.filter.and("graph", chosen);
            c.compute(&table, path)
                .map_err(|e| e.context(format!("claim `{}`", claim.id)))
        };
        let all = on(own.clone())?;
        let mut each = Vec::new();
        for g in &own {
            each.push(on(vec![g.clone()])?);
        }
        let mut spread: Vec<(f64, Vec<String>)> = Vec::new();
        for pick in subsets(own.len(), per.subsets) {
            let chosen: Vec<String> = pick.iter().map(|&i| own[i].clone()).collect();
            let left: Vec<String> = own
                .iter()
                .filter(|g| !chosen.contains(g))
                .cloned()
                .collect();
            spread.push((on(chosen)?.bounds().0, left));
        }
        rows.push((claim, all, each, spread));
    }
    let k = per.subsets;
    let n = graphs.len();
    let mut text = format!(
        "\n**Per graph** (profile `{}`, reading `{}`): each graph's value of the claim, \
         and its least and greatest over the {} subsets of {k} of the {n} graphs, with the \
         graphs each leaves out. ✓ and ✗ as under each reading.\n\n| claim | paper | all {n} | \
         {k} of {n}: least (left out) | greatest (left out) | {} |\n| --- | ---: | ---: | ---: | ---: |{}\n",
        per.profile,
        per.reading.as_deref().unwrap_or(
            paper.readings.as_ref().map_or("default", |r| r.default_reading().name.as_str())
        ),
        subsets(n, k).len(),
        graphs.join(" | "),
        " ---: |".repeat(n)
    );
    for (claim, all, each, spread) in rows {
        let method = Method::GeomeanSpeedup;
        let paper_value = match &claim.paper {
            Stated::Number(v) => super::render::number(method, *v),
            Stated::Text(t) => t.clone(),
        };
        let ends = |pick: Option<&(f64, Vec<String>)>| match pick {
            Some((v, left)) => format!(
                "{}{} ({})",
                shown(method, Measured::One(*v)),
                mark(reproduces(paper, claim, Measured::One(*v))),
                left.join(", ")
            ),
            None => "—".into(),
        };
        let least = spread.iter().min_by(|a, b| a.0.total_cmp(&b.0));
        let greatest = spread.iter().max_by(|a, b| a.0.total_cmp(&b.0));
        let cells: Vec<String> = (each.iter())
            .map(|v| {
                format!(
                    "{}{}",
                    shown(method, *v),
                    mark(reproduces(paper, claim, *v))
                )
            })
            .collect();
        let _ = writeln!(
            text,
            "| `{}` | {} | {}{} | {} | {} | {} |",
            claim.id,
            cell(&paper_value),
            shown(method, all),
            mark(reproduces(paper, claim, all)),
            ends(least),
            ends(greatest),
            cells.join(" | ")
        );
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_every_choice_once() {
        assert_eq!(
            subsets(4, 2),
            [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
        );
        assert_eq!(subsets(9, 7).len(), 36);
        assert_eq!(subsets(3, 3), [[0, 1, 2]]);
        assert!(subsets(2, 3).is_empty());
    }
}
