//! The numbers a paper file's texts cite (docs/EXPERIMENTS.md, "Numbers in the texts"): a
//! text names them as `{name}` and the report fills each from the rows it names, computed
//! as a claim is; any other number in a text must be a citation (a line, a figure) or one
//! of the paper's own values or of the paper file's `literals`, so that a page never
//! states a measurement that its tables do not give.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::compute::{Computation, Filter, Measured, Method};

/// How a claim or a number is computed, as written: the keys a claim and its numbers
/// share.
#[derive(Clone, Debug, Default)]
pub(super) struct Keys {
    pub compute: Option<Method>,
    pub experiment: Option<String>,
    pub filter: BTreeMap<String, toml::Value>,
    pub baseline: Option<BTreeMap<String, toml::Value>>,
    pub subject: Option<BTreeMap<String, toml::Value>>,
    pub pair_by: Option<Vec<String>>,
    pub group_by: Option<Vec<String>>,
    pub metric: Option<String>,
}

/// Whether `method` takes `key`.
fn takes(method: Method, key: &str) -> bool {
    match key {
        "baseline" | "subject" => matches!(
            method,
            Method::GeomeanSpeedup | Method::Range | Method::Ratio
        ),
        "pair_by" => matches!(method, Method::GeomeanSpeedup | Method::Range),
        "group_by" => method == Method::Spread,
        _ => true,
    }
}

impl Keys {
    /// The experiment and computation, every key checked against the method: one it
    /// needs and lacks, or takes no, is an error.
    pub fn computation(&self) -> Result<(String, Computation), String> {
        let method = self.compute.ok_or("no `compute`")?;
        let experiment =
            (self.experiment.clone()).ok_or("no experiment (give the claim or its section one)")?;
        let name = method.name();
        for (key, given) in [
            ("baseline", self.baseline.is_some()),
            ("subject", self.subject.is_some()),
            ("pair_by", self.pair_by.is_some()),
        ] {
            match (given, takes(method, key)) {
                (false, true) => return Err(format!("compute = \"{name}\" needs `{key}`")),
                (true, false) => return Err(format!("compute = \"{name}\" takes no `{key}`")),
                _ => {}
            }
        }
        if self.group_by.is_some() && !takes(method, "group_by") {
            return Err(format!(
                "compute = \"{name}\" takes no `group_by` (only spread)"
            ));
        }
        let sides = match (&self.baseline, &self.subject) {
            (Some(b), Some(s)) => {
                Some((Filter::parse("baseline", b)?, Filter::parse("subject", s)?))
            }
            _ => None,
        };
        Ok((
            experiment,
            Computation {
                method,
                filter: Filter::parse("where", &self.filter)?,
                sides,
                by: (self.pair_by.clone().or(self.group_by.clone())).unwrap_or_default(),
                metric: self.metric.clone().unwrap_or_else(|| "cycles".into()),
            },
        ))
    }

    /// A number's keys: its own, and its claim's (`self`) where it gives none; its
    /// `where` adds to the claim's, a column it names replacing the claim's condition.
    /// A number computed another way than its claim inherits none of the claim's keys
    /// that its method does not take.
    fn inherited(&self, number: &NumberFile) -> Keys {
        let method = number.compute.or(self.compute);
        let keep = |key: &str| method.is_some_and(|m| takes(m, key));
        let mut filter = self.filter.clone();
        filter.extend(number.filter.clone());
        Keys {
            compute: method,
            experiment: number.experiment.clone().or(self.experiment.clone()),
            filter,
            baseline: (number.baseline.clone())
                .or(self.baseline.clone().filter(|_| keep("baseline"))),
            subject: (number.subject.clone()).or(self.subject.clone().filter(|_| keep("subject"))),
            pair_by: (number.pair_by.clone()).or(self.pair_by.clone().filter(|_| keep("pair_by"))),
            group_by: (number.group_by.clone())
                .or(self.group_by.clone().filter(|_| keep("group_by"))),
            metric: number.metric.clone().or(self.metric.clone()),
        }
    }
}

/// A number as written (`NAME = { profile = "quick", where = { graph = "WK" } }`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NumberFile {
    /// The profile whose table it is computed from.
    profile: String,
    /// The reading whose rows it reads (default: the default reading's).
    reading: Option<String>,
    compute: Option<Method>,
    experiment: Option<String>,
    #[serde(default, rename = "where")]
    filter: BTreeMap<String, toml::Value>,
    baseline: Option<BTreeMap<String, toml::Value>>,
    subject: Option<BTreeMap<String, toml::Value>>,
    pair_by: Option<Vec<String>>,
    group_by: Option<Vec<String>>,
    metric: Option<String>,
    /// How it is printed (Format).
    format: Option<String>,
}

/// How a number is printed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Format {
    /// `2.36x` (`x`, two decimals) or `2.4x` (`x1`).
    Times(usize),
    /// `73%` (`%`) or `73.4%` (`%1`): the value times 100.
    Percent(usize),
    /// `1,234,567` (`int`): rounded, thousands separated.
    Grouped,
    /// `0.07` (`0.00`): that many decimals.
    Fixed(usize),
    /// `42.9M` (`M`) and `1.69G` (`G`).
    Millions,
    Billions,
    /// As the report prints a value: whole numbers grouped, others to three decimals.
    Plain,
}

impl Format {
    fn parse(text: &str) -> Result<Format, String> {
        Ok(match text {
            "x" => Format::Times(2),
            "x1" => Format::Times(1),
            "%" => Format::Percent(0),
            "%1" => Format::Percent(1),
            "int" => Format::Grouped,
            "M" => Format::Millions,
            "G" => Format::Billions,
            "0" => Format::Fixed(0),
            fixed if fixed.starts_with("0.") && fixed[2..].bytes().all(|b| b == b'0') => {
                Format::Fixed(fixed.len() - 2)
            }
            _ => {
                return Err(format!(
                    "format = \"{text}\": expected x, x1, %, %1, int, M, G, 0, 0.0, 0.00 ..."
                ))
            }
        })
    }

    fn one(self, v: f64) -> String {
        match self {
            Format::Times(d) => format!("{v:.d$}x"),
            Format::Percent(d) => format!("{:.d$}%", v * 100.0),
            Format::Grouped => plain(v.round()),
            Format::Fixed(d) => format!("{v:.d$}"),
            Format::Millions => format!("{:.1}M", v / 1e6),
            Format::Billions => format!("{:.2}G", v / 1e9),
            Format::Plain => plain(v),
        }
    }

    /// A value as printed: a range whose ends print alike is one number.
    pub fn show(self, value: Measured) -> String {
        let (lo, hi) = value.bounds();
        let (lo, hi) = (self.one(lo), self.one(hi));
        if lo == hi {
            lo
        } else {
            format!("{lo}-{hi}")
        }
    }
}

/// A number a text cites, resolved: where its rows are and how it is printed.
#[derive(Clone, Debug)]
pub struct Number {
    pub name: String,
    pub profile: String,
    pub reading: Option<String>,
    pub experiment: String,
    pub computation: Computation,
    pub format: Format,
}

/// A text with `{name}` placeholders and the numbers that fill them.
#[derive(Clone, Debug, Default)]
pub struct Text {
    pub template: String,
    pub numbers: Vec<Number>,
}

/// What a text may state without a placeholder: the paper file's `literals` (a number's
/// text, and why it is no measurement) and the paper's own values.
pub(super) struct Allowed<'a> {
    pub literals: &'a BTreeMap<String, String>,
    pub paper: &'a [f64],
}

/// The words before a number that make it a citation (`line 1519`, `Figure 4.10`), not a
/// measurement.
const CITING: [&str; 14] = [
    "line",
    "lines",
    "figure",
    "figures",
    "table",
    "tables",
    "section",
    "sections",
    "chapter",
    "algorithm",
    "issue",
    "issues",
    "phase",
    "phases",
];

impl Text {
    /// `template`'s placeholders, each filled by one of `numbers` (as written, with
    /// `base`, the keys they inherit); no other number in the text but the `allowed`.
    /// Errors name the placeholder or the number. Whether every number is used is the
    /// caller's to check ([`unused`]): texts may share numbers.
    pub(super) fn new(
        template: &str,
        numbers: &BTreeMap<String, NumberFile>,
        base: &Keys,
        allowed: &Allowed,
    ) -> Result<Text, String> {
        let (names, plain) = placeholders(template)?;
        let stray = stray_numbers(&plain, allowed);
        if !stray.is_empty() {
            return Err(format!(
                "the text states {} without a number to compute it (write {{name}} with a \
                 number, or list it in `literals` if no table gives it)",
                stray.join(", ")
            ));
        }
        let mut resolved: Vec<Number> = Vec::new();
        for name in names {
            if resolved.iter().any(|n| n.name == name) {
                continue;
            }
            let Some(file) = numbers.get(&name) else {
                return Err(format!(
                    "{{{name}}}: no number `{name}` (numbers: {})",
                    list(numbers)
                ));
            };
            let keys = base.inherited(file);
            let (experiment, computation) = keys
                .computation()
                .map_err(|e| format!("number `{name}`: {e}"))?;
            let format = match &file.format {
                Some(f) => Format::parse(f).map_err(|e| format!("number `{name}`: {e}"))?,
                None if computation.method.is_ratio() => Format::Times(2),
                None => Format::Plain,
            };
            resolved.push(Number {
                name,
                profile: file.profile.clone(),
                reading: file.reading.clone(),
                experiment,
                computation,
                format,
            });
        }
        Ok(Text {
            template: template.to_string(),
            numbers: resolved,
        })
    }

    /// The text with each placeholder replaced by its number, printed (`values`: by name).
    pub fn fill(&self, values: &BTreeMap<String, String>) -> String {
        let mut out = String::new();
        let mut rest = self.template.as_str();
        while let Some(open) = rest.find('{') {
            let close = open + rest[open..].find('}').expect("checked when read");
            out.push_str(&rest[..open]);
            out.push_str(&values[&rest[open + 1..close]]);
            rest = &rest[close + 1..];
        }
        out.push_str(rest);
        out
    }
}

/// The first of `numbers` that none of `texts` uses: an error for its owner to name.
pub(super) fn unused<'n>(
    numbers: &'n BTreeMap<String, NumberFile>,
    texts: &[&Text],
) -> Option<&'n str> {
    (numbers.keys())
        .find(|name| {
            !texts
                .iter()
                .any(|t| t.numbers.iter().any(|n| &n.name == *name))
        })
        .map(String::as_str)
}

fn list(numbers: &BTreeMap<String, NumberFile>) -> String {
    if numbers.is_empty() {
        "none".into()
    } else {
        numbers.keys().cloned().collect::<Vec<_>>().join(", ")
    }
}

/// The names of a template's placeholders and the template with each replaced by `N`.
fn placeholders(template: &str) -> Result<(Vec<String>, String), String> {
    let mut names = Vec::new();
    let mut plain = String::new();
    let mut rest = template;
    while let Some(open) = rest.find(['{', '}']) {
        let Some(close) = (rest[open..].starts_with('{'))
            .then(|| rest[open..].find('}'))
            .flatten()
        else {
            return Err(format!(
                "a lone `{}` at `{}`",
                &rest[open..open + 1],
                &rest[open..]
            ));
        };
        let name = &rest[open + 1..open + close];
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            return Err(format!(
                "`{{{name}}}` is not a placeholder (lower-case letters, digits, _)"
            ));
        }
        names.push(name.to_string());
        plain.push_str(&rest[..open]);
        plain.push('N');
        rest = &rest[open + close + 1..];
    }
    plain.push_str(rest);
    Ok((names, plain))
}

/// The numbers in `text` that are neither citations nor `allowed`. A number is a run of
/// digits (with `,` and `.` between digits) not preceded by a letter, digit, `_`, `.` or a
/// letter and `-` (so `G500`, `phase_2`, `L2`, `usroads-48` are names); it is a citation
/// after a citing word, or after a cited number and `, `, `-`, ` and ` or ` to `.
fn stray_numbers(text: &str, allowed: &Allowed) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut stray = Vec::new();
    let mut k = 0;
    // The end of the last cited number: what follows it may continue the citation.
    let mut cited_end: Option<usize> = None;
    while k < bytes.len() {
        // `G500`, `phase_2`, `v3`, `usroads-48`: part of a name.
        let named = k > 0
            && (bytes[k - 1].is_ascii_alphanumeric()
                || matches!(bytes[k - 1], b'_' | b'.')
                || (bytes[k - 1] == b'-' && k > 1 && bytes[k - 2].is_ascii_alphabetic()));
        if !bytes[k].is_ascii_digit() || named {
            k += 1;
            continue;
        }
        let start = k;
        while k < bytes.len()
            && (bytes[k].is_ascii_digit()
                || (matches!(bytes[k], b',' | b'.')
                    && bytes.get(k + 1).is_some_and(u8::is_ascii_digit)))
        {
            k += 1;
        }
        let token = &text[start..k];
        let before = text[..start].trim_end();
        let word = before
            .rsplit(|c: char| !c.is_ascii_alphabetic())
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let continues = cited_end
            .is_some_and(|end| matches!(&text[end..start], ", " | "-" | " and " | " to " | ","));
        let value: Option<f64> = token.replace(',', "").parse().ok();
        let cited = CITING.contains(&word.as_str()) && before.len() + 1 == start || continues;
        if cited {
            cited_end = Some(k);
            continue;
        }
        cited_end = None;
        let papers = value.is_some_and(|v| allowed.paper.iter().any(|p| (p - v).abs() < 1e-9));
        if !papers && !allowed.literals.contains_key(token) {
            stray.push(token.to_string());
        }
    }
    stray
}

/// Whole numbers with thousands separated (`1,234,567`), others to three decimals (one
/// from 100 up).
pub(super) fn plain(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        let digits = format!("{}", v.abs() as u64);
        let mut grouped = String::new();
        for (k, d) in digits.chars().enumerate() {
            if k > 0 && (digits.len() - k) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(d);
        }
        format!("{}{grouped}", if v < 0.0 { "-" } else { "" })
    } else if v.abs() >= 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_a_text_are_placeholders_citations_or_allowed() {
        let literals = BTreeMap::from([("32".to_string(), "bytes per cycle".to_string())]);
        let allowed = Allowed {
            literals: &literals,
            paper: &[2.36],
        };
        let stray = |t: &str| stray_numbers(&placeholders(t).unwrap().1, &allowed);
        assert!(stray("G500's phase_2_cycles on L2, SimX v3, fig4_10, usroads-48").is_empty());
        assert!(stray("registration is phase 2, Figures 4.10 and 4.19").is_empty());
        assert!(
            stray("{a} of 32 bytes, lines 1626, 1631 and 1643-1646, Figure 4.10, paper 2.36x")
                .is_empty()
        );
        assert_eq!(
            stray("VM 0.84x (paper 2.63x), 28-30 bytes, 1,433 features."),
            ["0.84", "2.63", "28", "30", "1,433"]
        );
        // A citing word cites the number right after it, not one further on.
        assert_eq!(stray("line 1519 says 3 cores"), ["3"]);
    }

    #[test]
    fn placeholders_are_named_and_braces_paired() {
        assert_eq!(
            placeholders("a {x_1} b {y}").unwrap(),
            (
                vec!["x_1".to_string(), "y".to_string()],
                "a N b N".to_string()
            )
        );
        assert!(placeholders("a { b").unwrap_err().contains("lone `{`"));
        assert!(placeholders("a } b").unwrap_err().contains("lone `}`"));
        assert!(placeholders("{Big}")
            .unwrap_err()
            .contains("not a placeholder"));
    }

    #[test]
    fn formats_print_values_and_ranges() {
        assert_eq!(
            Format::parse("x").unwrap().show(Measured::One(2.3612)),
            "2.36x"
        );
        assert_eq!(
            Format::parse("%")
                .unwrap()
                .show(Measured::Range(0.734, 0.91)),
            "73%-91%"
        );
        assert_eq!(
            Format::parse("0.00")
                .unwrap()
                .show(Measured::Range(0.071, 0.0712)),
            "0.07"
        );
        assert_eq!(
            Format::parse("int")
                .unwrap()
                .show(Measured::One(1690586289.0)),
            "1,690,586,289"
        );
        assert_eq!(
            Format::parse("M")
                .unwrap()
                .show(Measured::One(42_910_000.0)),
            "42.9M"
        );
        assert!(Format::parse("0.0x").is_err());
    }

    #[test]
    fn a_number_inherits_its_claims_keys_that_its_method_takes() {
        let claim = Keys {
            compute: Some(Method::GeomeanSpeedup),
            experiment: Some("fig".into()),
            filter: BTreeMap::from([("direction".into(), "pull".into())]),
            baseline: Some(BTreeMap::from([("schedule".into(), "VM".into())])),
            subject: Some(BTreeMap::from([("schedule".into(), "SparseWeaver".into())])),
            pair_by: Some(vec!["graph".into()]),
            ..Keys::default()
        };
        let number = |text: &str| -> NumberFile { toml::from_str(text).unwrap() };
        let (_, same) = claim
            .inherited(&number(
                "profile = 'quick'\nwhere = { direction = 'push', graph = 'WK' }",
            ))
            .computation()
            .unwrap();
        assert_eq!(same.filter.to_string(), "{direction=push, graph=WK}");
        assert_eq!(same.by, ["graph"]);
        let (_, bounds) = claim
            .inherited(&number(
                "profile = 'quick'\ncompute = 'bounds'\nmetric = 'simt_efficiency'",
            ))
            .computation()
            .unwrap();
        assert_eq!(
            (bounds.method, bounds.sides, bounds.by.len()),
            (Method::Bounds, None, 0)
        );
        let e = claim
            .inherited(&number(
                "profile = 'quick'\ncompute = 'value'\npair_by = ['graph']",
            ))
            .computation()
            .unwrap_err();
        assert!(e.contains("takes no `pair_by`"), "{e}");
    }
}
