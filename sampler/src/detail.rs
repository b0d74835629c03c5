//! A detailed simulation of one unit, from a copy of the machine: its warm-up, then its
//! measurement.

use wsim_sim::{Machine, SimResult};

/// Where a detailed simulation of a unit stops: when a number of launches have ended, or
/// at the run's end.
#[derive(Clone, Copy)]
pub(crate) enum End {
    Launches(usize),
    Exit,
}

/// One unit to simulate in detail: a copy of the machine at the start of its warm-up,
/// the launches ended when its measurement starts, and where it ends.
pub(crate) struct Job {
    pub unit: usize,
    pub machine: Machine,
    pub measure_from: usize,
    pub end: End,
}

/// A measured unit: its cycles, and the warp instructions simulated in detail for it.
pub(crate) struct Measured {
    pub unit: usize,
    pub cycles: u64,
    pub detailed_instructions: u64,
}

/// Launches ended so far.
pub(crate) fn ended(m: &Machine) -> usize {
    let cuts = m.cuts();
    cuts.launches - usize::from(cuts.launch_open)
}

pub(crate) fn measure(job: Job) -> SimResult<Measured> {
    let mut m = job.machine;
    let first = m.progress().instructions;
    m.run_until(|m| ended(m) >= job.measure_from)?;
    let start = m.cycle();
    match job.end {
        End::Launches(n) => m.run_until(|m| ended(m) >= n)?,
        End::Exit => m.run_until(|_| false)?,
    };
    if let (End::Launches(_), Some(l)) = (job.end, m.launches().last()) {
        tracing::debug!(unit = job.unit, cycles = l.cycles, memory = ?l.memory, "last launch");
    }
    Ok(Measured {
        unit: job.unit,
        cycles: m.cycle() - start,
        detailed_instructions: m.progress().instructions - first,
    })
}
