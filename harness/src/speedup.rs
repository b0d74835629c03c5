//! Speed-ups: the one place a baseline's metric is divided by a subject's, for the plots'
//! speedup figures ([`crate::plot`]), the paper report's claims (`paper::compute`) and the
//! documentation's schedule tables ([`crate::doc_tables`]).
//!
//! **The policy for failed and missing runs.** A pair is a key (a graph, a kernel, the
//! values of `pair_by`) with a baseline side and a subject side, each [`Side::Measured`]
//! (a run that succeeded, with a positive, finite metric), [`Side::Failed`] (a run that did
//! not succeed, or whose metric cannot be divided by) or [`Side::Missing`] (no run, or one
//! with no value). A pair with both sides measured has a speed-up (baseline / subject);
//! any other pair is *left out and counted*: every speed-up and every mean is over the
//! complete pairs only, and [`Speedups`] keeps the left-out pairs with the side that
//! failed or is missing, so no consumer can drop one without knowing. Each consumer shows
//! the count where it shows a mean:
//! - a figure draws a left-out pair's bar crossed when a side failed (its caption counts
//!   the runs that did not succeed) and leaves the bar out when a side is missing; its
//!   `geomean` group is over the complete pairs;
//! - the documentation's tables write `n/a` in a left-out row and say `(n of m rows)`
//!   beside a mean over fewer pairs than the table's rows;
//! - a paper claim, which stands beside the dissertation's number for the same set,
//!   refuses a count short of the whole: the first pair left out is the claim's error,
//!   naming the row and the side.
//!
//! So a figure's geomean and the claim drawn from the same complete table are the same
//! number (`paper::compute`'s tests check it), and when they cannot be, the claim says why instead of quoting
//! a mean over another set.

use crate::table::geomean;

/// One side of a pair: what its run gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Side {
    /// No run, or a run without a value of the metric.
    Missing,
    /// A run that did not succeed (or whose metric is no positive number).
    Failed,
    /// A positive, finite value of the metric.
    Measured(f64),
}

impl Side {
    /// A succeeded run's value: measured when it is a positive, finite number, missing
    /// otherwise (an empty cell, zero).
    pub fn of(value: Option<f64>) -> Side {
        match value {
            Some(v) if v.is_finite() && v > 0.0 => Side::Measured(v),
            _ => Side::Missing,
        }
    }
}

/// A key's baseline and subject.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair<K> {
    pub key: K,
    pub baseline: Side,
    pub subject: Side,
}

impl<K> Pair<K> {
    /// The baseline's metric over the subject's (a time: how many times faster the
    /// subject is), when both sides are measured.
    pub fn speedup(&self) -> Option<f64> {
        match (self.baseline, self.subject) {
            (Side::Measured(b), Side::Measured(s)) => Some(b / s),
            _ => None,
        }
    }

    /// Whether a side failed (a figure crosses its bar).
    pub fn failed(&self) -> bool {
        self.baseline == Side::Failed || self.subject == Side::Failed
    }
}

/// Every pair of a comparison, in the order of its keys: the complete ones with their
/// speed-ups, the others left out and counted.
#[derive(Clone, Debug, PartialEq)]
pub struct Speedups<K> {
    pub pairs: Vec<Pair<K>>,
}

impl<K> Speedups<K> {
    /// The complete pairs' speed-ups, in the keys' order.
    pub fn values(&self) -> Vec<f64> {
        self.pairs.iter().filter_map(Pair::speedup).collect()
    }

    /// Their geometric mean (none when no pair is complete).
    pub fn geomean(&self) -> Option<f64> {
        geomean(&self.values())
    }

    /// The pairs left out: a side missing or failed.
    pub fn left_out(&self) -> impl Iterator<Item = &Pair<K>> {
        self.pairs.iter().filter(|p| p.speedup().is_none())
    }

    /// How many pairs are complete, of how many.
    pub fn count(&self) -> (usize, usize) {
        (self.values().len(), self.pairs.len())
    }
}

/// Each key's pair, the baseline's and the subject's side as `baseline` and `subject` say,
/// in the order of `keys`.
pub fn pair<K>(
    keys: impl IntoIterator<Item = K>,
    baseline: impl Fn(&K) -> Side,
    subject: impl Fn(&K) -> Side,
) -> Speedups<K> {
    Speedups {
        pairs: (keys.into_iter())
            .map(|key| Pair {
                baseline: baseline(&key),
                subject: subject(&key),
                key,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_with_a_side_failed_or_missing_are_left_out_and_counted() {
        let sides = [
            ("a", Side::Measured(400.0), Side::Measured(100.0)),
            ("b", Side::Measured(900.0), Side::Failed),
            ("c", Side::Missing, Side::Measured(50.0)),
            ("d", Side::Measured(300.0), Side::Measured(300.0)),
        ];
        let find = |k: &&str| sides.iter().find(|s| s.0 == *k).expect("listed");
        let s = pair(sides.map(|s| s.0), |k| find(k).1, |k| find(k).2);
        assert_eq!(s.values(), [4.0, 1.0]);
        assert_eq!(s.geomean(), Some(2.0));
        assert_eq!(s.count(), (2, 4));
        let left: Vec<(&str, bool)> = s.left_out().map(|p| (p.key, p.failed())).collect();
        assert_eq!(left, [("b", true), ("c", false)]);
        assert_eq!(Side::of(Some(0.0)), Side::Missing);
        assert_eq!(Side::of(Some(f64::NAN)), Side::Missing);
    }
}
