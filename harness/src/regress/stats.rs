//! The statistics a baseline can record: a selection of the registry's ([`Stat`]), read
//! from a run's record.

use std::fmt;

use wsim_sim::mem::hierarchy::CacheLevel;

use crate::run::RunRecord;
use crate::stats::{Cell, Stat, WeaverCount};

use crate::matches as glob;

/// A statistic's value: a count, or a ratio of two counts (a hit rate, 0 to 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Count(u64),
    Rate(f64),
}

impl Value {
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Count(n) => n as f64,
            Value::Rate(r) => r,
        }
    }
}

impl fmt::Display for Value {
    /// Counts in full; rates as percentages, with enough digits to see a small move (the
    /// file and the JSON keep every digit).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Count(n) => write!(f, "{n}"),
            Value::Rate(r) => write!(f, "{:.4}%", 100.0 * r),
        }
    }
}

impl serde::Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Count(n) => s.serialize_u64(*n),
            Value::Rate(r) => s.serialize_f64(*r),
        }
    }
}

/// The statistics a baseline can record (the registry's names, [`Stat`]); `phase_N_*`
/// stands for each phase N of a program that sets phases (CSR 0x7C0). Hit rates exist
/// when the level had accesses, `weaver_*` when the cores have the Weaver unit.
pub const NAMES: &[&str] = &[
    "cycles",
    "warp_instructions",
    "thread_instructions",
    "l1i_hit_rate",
    "l1d_hit_rate",
    "l2_hit_rate",
    "l3_hit_rate",
    "dram_reads",
    "dram_writes",
    "dram_bytes",
    "weaver_batches",
    "weaver_decode_requests",
    "iteration_records",
    "phase_N_cycles",
    "phase_N_instructions",
];

/// What a run records when its baseline does not choose.
pub const DEFAULT: &[&str] = &[
    "cycles",
    "warp_instructions",
    "l1d_hit_rate",
    "l2_hit_rate",
    "dram_bytes",
    "weaver_batches",
    "phase_*_cycles",
];

/// The names baselines used before the statistics had one name each.
const RENAMED: [(&str, &str); 4] = [
    ("instructions", "warp_instructions"),
    ("iterations", "iteration_records"),
    ("phase.*.cycles", "phase_*_cycles"),
    ("phase.*.instructions", "phase_*_instructions"),
];

/// The statistics of [`NAMES`] that `N` stands in, for matching patterns against.
fn samples() -> impl Iterator<Item = String> {
    NAMES.iter().map(|n| n.replace("_N_", "_0_"))
}

/// Whether `pattern` (a name or a glob) can name a statistic: `Err` says which exist.
pub fn check_pattern(pattern: &str) -> Result<(), String> {
    let phase = pattern
        .strip_prefix("phase_")
        .and_then(|rest| rest.rsplit_once('_'))
        .is_some_and(|(n, field)| {
            !n.is_empty()
                && n.bytes()
                    .all(|b| b.is_ascii_digit() || b == b'*' || b == b'?')
                && (glob(field, "cycles") || glob(field, "instructions"))
        });
    if phase || samples().any(|name| glob(pattern, &name)) {
        return Ok(());
    }
    let renamed = RENAMED.iter().find(|(old, _)| glob(old, pattern));
    match renamed {
        Some((old, new)) => Err(format!(
            "statistic `{pattern}` has a new name: `{old}` is now `{new}` (the names of \
             docs/REGRESS.md, the same as the experiment tables')"
        )),
        None => Err(format!(
            "unknown statistic `{pattern}` (statistics: {})",
            NAMES.join(", ")
        )),
    }
}

/// Every statistic the run has, in the order of [`NAMES`] (phases in phase order).
pub fn of(record: &RunRecord) -> Vec<(String, Value)> {
    let Some(r) = &record.report else {
        return Vec::new();
    };
    let mut stats = vec![
        Stat::Cycles,
        Stat::WarpInstructions,
        Stat::ThreadInstructions,
    ];
    stats.extend(CacheLevel::ALL.map(Stat::HitRate));
    stats.extend([Stat::DramReads, Stat::DramWrites, Stat::DramBytes]);
    if r.weaver_unit {
        stats.extend([
            Stat::Weaver(WeaverCount::Batches),
            Stat::Weaver(WeaverCount::DecodeRequests),
        ]);
    }
    stats.push(Stat::IterationRecords);
    // One phase is the whole run: its numbers are the totals again.
    if r.phases.len() > 1 {
        stats.extend(r.phases.keys().map(|&p| Stat::PhaseCycles(p)));
        stats.extend(r.phases.keys().map(|&p| Stat::PhaseInstructions(p)));
    }
    stats
        .into_iter()
        .filter_map(|s| {
            let value = match s.read(record) {
                Cell::Count(n) => Value::Count(n),
                Cell::Fixed(x, _) => Value::Rate(x),
                _ => return None,
            };
            Some((s.name().into_owned(), value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_the_registrys() {
        for name in samples() {
            assert!(Stat::parse(&name).is_some(), "{name}");
        }
    }

    #[test]
    fn patterns_name_known_statistics() {
        for ok in [
            "cycles",
            "*_hit_rate",
            "phase_*_cycles",
            "phase_2_instructions",
            "phase_12_cycles",
            "phase_*_*",
            "phase_*",
            "*",
        ] {
            assert_eq!(check_pattern(ok), Ok(()), "{ok}");
        }
        for bad in ["cycle", "phase_x_cycles", "phase__cycles", "phase_1_hits"] {
            let e = check_pattern(bad).unwrap_err();
            assert!(
                e.contains(&format!("`{bad}`")) && e.contains("l1d_hit_rate"),
                "{e}"
            );
        }
        for (old, new) in [
            ("instructions", "warp_instructions"),
            ("phase.*.cycles", "phase_*_cycles"),
            ("phase.3.cycles", "phase_*_cycles"),
            ("iterations", "iteration_records"),
        ] {
            let e = check_pattern(old).unwrap_err();
            assert!(e.contains(&format!("is now `{new}`")), "{old}: {e}");
        }
    }
}
