//! The statistics a baseline can record, by name, taken from a run's summary.

use std::fmt;

use wsim_sim::mem::cache::CacheStats;
use wsim_sim::RunSummary;

use super::glob;

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

/// Every statistic by name; `phase.N.*` stands for each phase N of a program that sets
/// phases (CSR 0x7C0). Hit rates exist when the level had accesses, `weaver_*` when the
/// cores have the Weaver unit.
pub const NAMES: &[&str] = &[
    "cycles",
    "instructions",
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
    "iterations",
    "phase.N.cycles",
    "phase.N.instructions",
];

/// What a run records when its baseline does not choose.
pub const DEFAULT: &[&str] = &[
    "cycles",
    "instructions",
    "l1d_hit_rate",
    "l2_hit_rate",
    "dram_bytes",
    "weaver_batches",
    "phase.*.cycles",
];

/// Whether `pattern` (a name or a glob) can name a statistic: `Err` says which exist.
pub fn check_pattern(pattern: &str) -> Result<(), String> {
    let known = NAMES
        .iter()
        .any(|name| match name.strip_prefix("phase.N.") {
            Some(field) => pattern.split_once('.').is_some_and(|(head, rest)| {
                glob(head, "phase")
                    && rest.split_once('.').is_some_and(|(n, f)| {
                        (n.bytes()
                            .all(|b| b.is_ascii_digit() || b == b'*' || b == b'?'))
                            && !n.is_empty()
                            && glob(f, field)
                    })
            }),
            None => glob(pattern, name),
        });
    if known {
        Ok(())
    } else {
        Err(format!(
            "unknown statistic `{pattern}` (statistics: {})",
            NAMES.join(", ")
        ))
    }
}

/// Every statistic the run has, in the order of [`NAMES`] (phases in phase order).
pub fn of(s: &RunSummary) -> Vec<(String, Value)> {
    let t = s.total();
    let mut out: Vec<(String, Value)> = vec![
        ("cycles".into(), Value::Count(s.cycles)),
        ("instructions".into(), Value::Count(t.instructions)),
        (
            "thread_instructions".into(),
            Value::Count(t.thread_instructions),
        ),
    ];
    let m = &s.memory;
    for (name, caches) in [
        ("l1i_hit_rate", &m.l1i[..]),
        ("l1d_hit_rate", &m.l1d[..]),
        ("l2_hit_rate", &m.l2[..]),
        ("l3_hit_rate", m.l3.as_slice()),
    ] {
        let (hits, accesses) = caches.iter().fold((0, 0), |(h, a), c: &CacheStats| {
            (h + c.hits, a + c.accesses)
        });
        if accesses > 0 {
            out.push((name.into(), Value::Rate(hits as f64 / accesses as f64)));
        }
    }
    out.extend([
        ("dram_reads".into(), Value::Count(m.dram.reads)),
        ("dram_writes".into(), Value::Count(m.dram.writes)),
        ("dram_bytes".into(), Value::Count(m.dram.bytes)),
    ]);
    if s.weaver {
        out.push(("weaver_batches".into(), Value::Count(t.weaver.batches)));
        out.push((
            "weaver_decode_requests".into(),
            Value::Count(t.weaver.decode_requests),
        ));
    }
    out.push(("iterations".into(), Value::Count(s.iterations.len() as u64)));
    let mut phases: std::collections::BTreeMap<u32, (u64, u64)> = Default::default();
    for core in &s.cores {
        for (p, c) in &core.phases {
            let e = phases.entry(*p).or_default();
            e.0 += c.cycles;
            e.1 += c.instructions;
        }
    }
    // One phase is the whole run: its numbers are the totals again.
    if phases.len() > 1 {
        for field in ["cycles", "instructions"] {
            for (p, (cycles, instructions)) in &phases {
                let n = if field == "cycles" {
                    *cycles
                } else {
                    *instructions
                };
                out.push((format!("phase.{p}.{field}"), Value::Count(n)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_name_known_statistics() {
        for ok in [
            "cycles",
            "*_hit_rate",
            "phase.*.cycles",
            "phase.2.instructions",
            "phase.*.*",
            "*",
        ] {
            assert_eq!(check_pattern(ok), Ok(()), "{ok}");
        }
        for bad in ["cycle", "phase.x.cycles", "phase..cycles", "phase.1.hits"] {
            let e = check_pattern(bad).unwrap_err();
            assert!(
                e.contains(&format!("`{bad}`")) && e.contains("l1d_hit_rate"),
                "{e}"
            );
        }
    }
}
