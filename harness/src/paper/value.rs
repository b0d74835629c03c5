//! What a claim states and what wsim measures: the paper's value, how wsim's is computed,
//! the value itself, and whether it meets the claim's expectation.

use serde::Deserialize;

/// What the paper states: a number, or words ("stable").
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Stated {
    Number(f64),
    Text(String),
}

/// How wsim's value is computed from the rows of a table.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// The geometric mean over pairs of baseline's metric / subject's.
    GeomeanSpeedup,
    /// Baseline's metric / subject's, one row each.
    Ratio,
    /// One row's metric.
    Value,
    /// The least and greatest speedup over pairs.
    Range,
    /// The metric's max / min over the rows (the largest over groups).
    Spread,
    /// The least and greatest metric over the rows.
    Bounds,
}

impl Method {
    /// As the paper file writes it.
    pub fn name(self) -> &'static str {
        match self {
            Method::GeomeanSpeedup => "geomean_speedup",
            Method::Ratio => "ratio",
            Method::Value => "value",
            Method::Range => "range",
            Method::Spread => "spread",
            Method::Bounds => "bounds",
        }
    }

    /// Its value is a ratio of times (printed `2.36x`).
    pub fn is_ratio(self) -> bool {
        !matches!(self, Method::Value | Method::Bounds)
    }
}

/// A claim's expectation of wsim's value(s), for claims the paper states in words.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Expect {
    /// `above X`: every value is greater than X.
    Above(f64),
    /// `below X`: every value is less than X.
    Below(f64),
    /// `between A and B`: every value lies in [A, B].
    Between(f64, f64),
    /// `within P%`: a range's or spread's values within P% of each other, one number
    /// within P% of the paper's.
    Within(f64),
}

impl std::str::FromStr for Expect {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            format!(
                "expect = \"{s}\": expected \"above X\", \"below X\", \"between A and B\" \
                 or \"within P%\""
            )
        };
        let number = |t: &str| t.trim().parse::<f64>().map_err(|_| bad());
        let words = s.trim();
        if let Some(x) = words.strip_prefix("above ") {
            Ok(Expect::Above(number(x)?))
        } else if let Some(x) = words.strip_prefix("below ") {
            Ok(Expect::Below(number(x)?))
        } else if let Some(x) = words.strip_prefix("between ") {
            let (a, b) = x.split_once(" and ").ok_or_else(bad)?;
            let (a, b) = (number(a)?, number(b)?);
            if a > b {
                return Err(bad());
            }
            Ok(Expect::Between(a, b))
        } else if let Some(x) = words.strip_prefix("within ") {
            let p = number(x.strip_suffix('%').ok_or_else(bad)?)?;
            if p < 0.0 {
                return Err(bad());
            }
            Ok(Expect::Within(p / 100.0))
        } else {
            Err(bad())
        }
    }
}

/// wsim's value of a claim in one profile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Measured {
    One(f64),
    Range(f64, f64),
}

impl Measured {
    pub fn bounds(self) -> (f64, f64) {
        match self {
            Measured::One(v) => (v, v),
            Measured::Range(lo, hi) => (lo, hi),
        }
    }
}

impl Expect {
    /// Whether `value` (of a claim computed by `method`, the paper stating `paper`) meets
    /// the expectation.
    pub fn holds(self, method: Method, value: Measured, paper: &Stated) -> bool {
        let (lo, hi) = value.bounds();
        match self {
            Expect::Above(x) => lo > x,
            Expect::Below(x) => hi < x,
            Expect::Between(a, b) => a <= lo && hi <= b,
            // A spread is already max / min.
            Expect::Within(p) if method == Method::Spread => lo <= 1.0 + p,
            Expect::Within(p) => match (value, paper) {
                (Measured::Range(..), _) => hi <= lo * (1.0 + p),
                (Measured::One(v), Stated::Number(n)) => (v / n - 1.0).abs() <= p,
                (Measured::One(_), Stated::Text(_)) => false,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_parse_and_hold() {
        assert_eq!("above 1".parse(), Ok(Expect::Above(1.0)));
        assert_eq!("within 10%".parse(), Ok(Expect::Within(0.1)));
        assert_eq!("between 0.5 and 2".parse(), Ok(Expect::Between(0.5, 2.0)));
        for bad in ["over 1", "within 10", "between 2 and 1", "above x"] {
            assert!(bad.parse::<Expect>().is_err(), "{bad}");
        }
        let text = Stated::Text("stable".into());
        let range = Measured::Range(1.2, 1.5);
        assert!(Expect::Above(1.0).holds(Method::Range, range, &text));
        assert!(!Expect::Above(1.3).holds(Method::Range, range, &text));
        assert!(!Expect::Within(0.1).holds(Method::Range, range, &text));
        assert!(Expect::Within(0.1).holds(Method::Spread, Measured::One(1.08), &text));
        let paper = Stated::Number(2.36);
        assert!(Expect::Within(0.1).holds(Method::GeomeanSpeedup, Measured::One(2.2), &paper));
        assert!(!Expect::Within(0.1).holds(Method::GeomeanSpeedup, Measured::One(1.1), &paper));
    }
}
