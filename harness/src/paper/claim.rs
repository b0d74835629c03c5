//! A paper file's claim (`[[sections.claims]]`): as written, and checked against its
//! method's keys and its reason's numbers into the [`Claim`] the report computes.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::compute::{Computation, Expect, Method, Stated};
use super::numbers::{unused, Allowed, Keys, NumberFile, Text};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ClaimFile {
    pub(super) id: String,
    text: String,
    lines: Lines,
    pub(super) paper: Stated,
    reason: String,
    compute: Option<Method>,
    experiment: Option<String>,
    #[serde(default, rename = "where")]
    filter: BTreeMap<String, toml::Value>,
    baseline: Option<BTreeMap<String, toml::Value>>,
    subject: Option<BTreeMap<String, toml::Value>>,
    pair_by: Option<Vec<String>>,
    group_by: Option<Vec<String>>,
    metric: Option<String>,
    expect: Option<String>,
    /// Numbers the reason cites.
    #[serde(default)]
    numbers: BTreeMap<String, NumberFile>,
}

/// The dissertation's lines: `1527` or `"1527, 1683"`.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum Lines {
    Line(u64),
    Text(String),
}

/// A claim as the report uses it.
pub struct Claim {
    pub id: String,
    pub text: String,
    pub lines: String,
    pub paper: Stated,
    pub reason: Text,
    /// The experiment and how its table gives wsim's value; none for a claim wsim does
    /// not measure (area, say).
    pub measure: Option<(String, Computation)>,
    pub expect: Option<Expect>,
}

impl Claim {
    /// Check a claim's keys against its method and its reason's numbers; `experiment`:
    /// its section's; `allowed`: the numbers a reason may state without computing them.
    pub(super) fn new(
        file: ClaimFile,
        experiment: Option<&str>,
        allowed: &Allowed,
    ) -> Result<Claim, String> {
        for (what, text) in [("text", &file.text), ("reason", &file.reason)] {
            if text.contains('\n') {
                return Err(format!("`{what}` must be one line (it is a table cell)"));
            }
        }
        let lines = match file.lines {
            Lines::Line(n) => n.to_string(),
            Lines::Text(t) => t,
        };
        let expect = file
            .expect
            .as_deref()
            .map(str::parse::<Expect>)
            .transpose()?;
        let keys = Keys {
            compute: file.compute,
            experiment: file.experiment.clone().or(experiment.map(String::from)),
            filter: file.filter.clone(),
            baseline: file.baseline.clone(),
            subject: file.subject.clone(),
            pair_by: file.pair_by.clone(),
            group_by: file.group_by.clone(),
            metric: file.metric.clone(),
        };
        let reason = Text::new(&file.reason, &file.numbers, &keys, allowed)
            .map_err(|e| format!("reason: {e}"))?;
        if let Some(name) = unused(&file.numbers, &[&reason]) {
            return Err(format!("number `{name}`: the reason does not use it"));
        }
        let Some(method) = file.compute else {
            let extra: Vec<&str> = [
                ("experiment", file.experiment.is_some()),
                ("where", !file.filter.is_empty()),
                ("baseline", file.baseline.is_some()),
                ("subject", file.subject.is_some()),
                ("pair_by", file.pair_by.is_some()),
                ("group_by", file.group_by.is_some()),
                ("metric", file.metric.is_some()),
                ("expect", expect.is_some()),
            ]
            .into_iter()
            .filter_map(|(k, given)| given.then_some(k))
            .collect();
            if !extra.is_empty() {
                return Err(format!(
                    "{} without `compute` (one of geomean_speedup, ratio, value, range, \
                     spread, bounds)",
                    extra.join(", ")
                ));
            }
            return Ok(Claim {
                id: file.id,
                text: file.text,
                lines,
                paper: file.paper,
                reason,
                measure: None,
                expect: None,
            });
        };
        let measure = keys.computation()?;
        if let (Some(Expect::Within(_)), Stated::Text(_)) = (expect, &file.paper) {
            if matches!(
                method,
                Method::GeomeanSpeedup | Method::Ratio | Method::Value
            ) {
                return Err(format!(
                    "expect = \"within P%\" of one number needs the paper's value as a number \
                     (compute = \"{}\")",
                    method.name()
                ));
            }
        }
        Ok(Claim {
            id: file.id,
            text: file.text,
            lines,
            paper: file.paper,
            reason,
            measure: Some(measure),
            expect,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(body: &str) -> Result<Claim, String> {
        let file: ClaimFile = toml::from_str(&format!(
            "id = 'c'\ntext = 't'\nlines = 1527\nreason = 'r'\n{body}"
        ))
        .map_err(|e| e.to_string())?;
        let allowed = Allowed {
            literals: &BTreeMap::new(),
            paper: &[],
        };
        Claim::new(file, Some("exp"), &allowed)
    }

    #[test]
    fn claims_take_exactly_the_keys_of_their_method() {
        let c = claim(
            "paper = 2.36\ncompute = 'geomean_speedup'\nbaseline = { schedule = 'VM' }\n\
             subject = { schedule = 'SparseWeaver' }\npair_by = ['graph']",
        )
        .unwrap();
        let (experiment, computation) = c.measure.unwrap();
        assert_eq!(
            (experiment.as_str(), computation.metric.as_str()),
            ("exp", "cycles")
        );
        assert_eq!(claim("paper = 'stable'").unwrap().measure, None);
        let e = |body: &str| claim(body).err().unwrap();
        assert!(e("paper = 1\ncompute = 'ratio'\nsubject = { a = 1 }").contains("needs `baseline`"));
        assert!(e("paper = 1\ncompute = 'value'\npair_by = []").contains("takes no `pair_by`"));
        assert!(e("paper = 1\ncompute = 'range'\nbaseline = {a=1}\nsubject = {a=2}\npair_by = []\ngroup_by = []")
            .contains("takes no `group_by`"));
        assert!(e("paper = 1\nwhere = { a = 1 }").contains("where without `compute`"));
        assert!(e("paper = 'x'\ncompute = 'value'\nexpect = 'within 5%'").contains("as a number"));
        assert!(
            e("paper = 1\ncompute = 'value'\nexpect = 'roughly'").contains("expect = \"roughly\"")
        );
        assert!(e("paper = 1\ncompute = 'value'\nwhere = { a = [] }")
            .contains("where.a: an empty list"));
        assert!(e("paper = 1\ncompute = 'mean'").contains("unknown variant `mean`"));
    }
}
