//! The dissertation's lines that the paper file and the readings cite say what they are
//! cited for. experiments/dissertation/cited-lines.txt holds those lines of the seed text
//! (their numbers and words, nothing else: the dissertation carries no licence that
//! would let the repository hold the whole text), so a clone checks its citations
//! without the seed: each claim's `lines` hold the paper's number or words it states,
//! each line a text cites is in the extract, each quotation a reading's justification
//! gives is in the lines it names, and the extract holds no line that nothing cites.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::root;

const EXTRACT: &str = "experiments/dissertation/cited-lines.txt";

/// The extract: line number -> the seed's text of it.
fn extract() -> BTreeMap<u32, String> {
    let text = std::fs::read_to_string(root().join(EXTRACT)).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (n, words) = l
                .split_once('\t')
                .unwrap_or_else(|| panic!("{EXTRACT}: `{l}`"));
            (
                n.parse().unwrap_or_else(|_| panic!("{EXTRACT}: `{n}`")),
                words.to_string(),
            )
        })
        .collect()
}

/// `1527`, `"1527, 1683"`, `"1595, 1611"`, `"1557-1565"`: the lines, each range whole;
/// `-` cites nothing.
fn lines_of(spec: &str) -> Vec<u32> {
    if spec.trim() == "-" {
        return vec![];
    }
    let mut lines = Vec::new();
    for part in spec.split(',') {
        let part = part.trim();
        let number = |t: &str| -> u32 {
            t.trim()
                .parse()
                .unwrap_or_else(|_| panic!("`{spec}` is not a list of lines"))
        };
        match part.split_once('-') {
            Some((a, b)) => lines.extend(number(a)..=number(b)),
            None => lines.push(number(part)),
        }
    }
    lines
}

/// Lower case, straight quotes and apostrophes, one space between words.
fn normal(text: &str) -> String {
    text.replace(['’', '‘'], "'")
        .replace(['“', '”'], "\"")
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The numbers in a text (`2.36x` gives 2.36, `1,016.67` 1016.67).
fn numbers(text: &str) -> Vec<f64> {
    let mut found = Vec::new();
    let mut current = String::new();
    for c in text.chars().chain([' ']) {
        if c.is_ascii_digit() || (matches!(c, '.' | ',') && !current.is_empty()) {
            current.push(c);
        } else if !current.is_empty() {
            let token = current.trim_end_matches(['.', ',']).replace(',', "");
            found.extend(token.parse::<f64>().ok());
            current.clear();
        }
    }
    found
}

/// The lines cited in running text: `line 1519`, `lines 1626, 1631`, `lines 484-488`.
fn cited_in(text: &str) -> Vec<u32> {
    let mut cited = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("line") {
        rest = &rest[at + 4..];
        let after = rest.strip_prefix('s').unwrap_or(rest);
        let Some(list) = after.strip_prefix(' ') else {
            continue;
        };
        let end = list
            .find(|c: char| !(c.is_ascii_digit() || matches!(c, ',' | ' ' | '-')))
            .unwrap_or(list.len());
        let spec = list[..end].trim().trim_end_matches([',', '-']);
        if spec.starts_with(|c: char| c.is_ascii_digit()) {
            cited.extend(lines_of(spec));
        }
    }
    cited
}

fn toml_file(path: &str) -> toml::Table {
    toml::from_str(&std::fs::read_to_string(root().join(path)).unwrap()).unwrap()
}

fn text_of(lines: &[u32], extract: &BTreeMap<u32, String>) -> String {
    lines
        .iter()
        .filter_map(|n| extract.get(n))
        .cloned()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn every_citation_holds_what_it_cites() {
    let extract = extract();
    let mut problems = Vec::new();
    let mut cited: BTreeSet<u32> = BTreeSet::new();
    let paper = toml_file("experiments/dissertation-paper.toml");
    let mut texts: Vec<String> = ["introduction"]
        .iter()
        .filter_map(|k| paper.get(*k)?.as_str().map(String::from))
        .collect();
    for section in paper["sections"].as_array().unwrap() {
        texts.extend(
            section
                .get("text")
                .and_then(|t| t.as_str())
                .map(String::from),
        );
        for claim in section
            .get("claims")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
        {
            let id = claim["id"].as_str().unwrap();
            texts.push(claim["reason"].as_str().unwrap().to_string());
            let spec = match &claim["lines"] {
                toml::Value::Integer(n) => n.to_string(),
                toml::Value::String(s) => s.clone(),
                other => panic!("claim `{id}`: lines = {other}"),
            };
            let lines = lines_of(&spec);
            cited.extend(&lines);
            if let Some(missing) = lines.iter().find(|n| !extract.contains_key(n)) {
                problems.push(format!("claim `{id}`: line {missing} is not in {EXTRACT}"));
                continue;
            }
            let words = text_of(&lines, &extract);
            match &claim["paper"] {
                _ if lines.is_empty() => {}
                toml::Value::Float(v) => {
                    if !numbers(&words).iter().any(|n| (n - v).abs() < 1e-9) {
                        problems.push(format!("claim `{id}`: lines {spec} do not state {v}"));
                    }
                }
                // "not stated": the lines are context, not a quotation.
                toml::Value::String(s) if s == "not stated" => {}
                toml::Value::String(s) => {
                    for fragment in s.split("...") {
                        if !normal(&words).contains(&normal(fragment)) {
                            problems.push(format!(
                                "claim `{id}`: lines {spec} do not say \"{}\"",
                                fragment.trim()
                            ));
                        }
                    }
                }
                other => problems.push(format!("claim `{id}`: paper = {other}")),
            }
        }
    }
    let readings = toml_file("experiments/dissertation/readings.toml");
    for reading in readings["readings"].as_array().unwrap() {
        let name = reading["name"].as_str().unwrap();
        let lines = lines_of(reading["lines"].as_str().unwrap());
        cited.extend(&lines);
        let justification = reading["justification"].as_str().unwrap();
        texts.push(justification.to_string());
        // A quotation and the lines after it: `"..." (line 1626)`, `"..." (lines 484-488)`.
        for (k, quote) in justification.split('"').enumerate().skip(1).step_by(2) {
            let after = justification.split('"').nth(k + 1).unwrap_or("");
            let Some(spec) = after.trim_start().strip_prefix('(') else {
                continue;
            };
            let own = cited_in(spec.split(')').next().unwrap_or(""));
            if own.is_empty() {
                continue;
            }
            if !normal(&text_of(&own, &extract)).contains(&normal(quote)) {
                problems.push(format!(
                    "reading `{name}`: lines {own:?} do not say \"{quote}\""
                ));
            }
        }
    }
    for text in &texts {
        cited.extend(cited_in(text));
    }
    for line in &cited {
        if !extract.contains_key(line) {
            problems.push(format!(
                "line {line} is cited and not in {EXTRACT}: add it (awk -v OFS='\\t' \
                 'NR=={line} {{print NR, $0}}' sparseweaver-dissertation.txt)"
            ));
        }
    }
    for line in extract.keys() {
        if !cited.contains(line) {
            problems.push(format!("{EXTRACT} holds line {line}, which nothing cites"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn citations_are_read_as_written() {
    assert_eq!(lines_of("1527, 1683"), [1527, 1683]);
    assert_eq!(lines_of("1643-1646"), [1643, 1644, 1645, 1646]);
    assert!(lines_of("-").is_empty());
    assert_eq!(
        numbers("2.73x, 2.64x and 1,016.67 ms."),
        [2.73, 2.64, 1016.67]
    );
    assert_eq!(
        cited_in("(line 1300, again 1549) and lines 484-486; no line here"),
        [1300, 484, 485, 486]
    );
    assert_eq!(normal("SparseWeaver’s  L1\nis"), "sparseweaver's l1 is");
}
