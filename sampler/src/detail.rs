//! A detailed simulation of one unit, from a copy of the machine: its warm-up, then its
//! measurement.

use wsim_sim::error::ErrorKind;
use wsim_sim::{Machine, RunSummary, SimError, SimResult};

/// A point of the run where a unit starts or ends: when a number of launches have ended,
/// when the cores have issued a number of warp instructions (a unit inside a launch), or
/// the run's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    Launches(usize),
    Instructions(u64),
    Exit,
}

impl Mark {
    /// Whether `m` has reached the mark.
    fn reached(self, m: &Machine) -> bool {
        match self {
            Mark::Launches(n) => ended(m) >= n,
            Mark::Instructions(n) => m.progress().instructions >= n,
            Mark::Exit => false,
        }
    }
}

/// A unit to measure: where its measurement starts and where it ends.
pub(crate) struct Span {
    pub unit: usize,
    pub start: Mark,
    pub end: Mark,
}

/// A stretch of consecutive units to simulate in detail: a copy of the machine, where to
/// fast-forward it functionally to (the start of the warm-up, when the copy is from before
/// it), and the units measured one after another (each from where the one before it
/// ended: consecutive measured units share one warm-up).
pub(crate) struct Job {
    pub machine: Machine,
    /// The unit its warm-up starts at.
    pub from: usize,
    pub forward: Option<Mark>,
    pub units: Vec<Span>,
    /// A warm-up check's measurement of units measured by another job too.
    pub check: bool,
    /// The whole run from its start: its statistics are the detailed run's, kept
    /// ([`Done::whole`]).
    pub whole: bool,
}

/// What a job measured.
pub(crate) struct Done {
    pub measured: Vec<Measured>,
    /// The detailed run's statistics, when the job simulated the run whole.
    pub whole: Option<RunSummary>,
}

/// A measured unit: its cycles, and the warp instructions simulated in detail for it.
pub(crate) struct Measured {
    pub unit: usize,
    pub cycles: u64,
    pub detailed_instructions: u64,
    /// Measured by a warm-up check (after the check's longer warm-up).
    pub check: bool,
    /// Each core's warp instructions in the unit, in core order: the cores' rates
    /// (`progress.rs`).
    pub by_core: Vec<u64>,
}

/// Launches ended so far.
pub(crate) fn ended(m: &Machine) -> usize {
    let cuts = m.cuts();
    cuts.launches - usize::from(cuts.launch_open)
}

pub(crate) fn measure(job: Job) -> SimResult<Done> {
    let mut m = job.machine;
    if let Some(start) = job.forward {
        if m.run_functional_until(|m| start.reached(m))? {
            return Err(SimError::new(ErrorKind::Setup(format!(
                "the sampler's fast-forward to {start:?} ran past the program's end"
            ))));
        }
    }
    let mut measured = Vec::with_capacity(job.units.len());
    let mut first = m.progress().instructions;
    for span in &job.units {
        m.run_until(|m| span.start.reached(m))?;
        let start = m.cycle();
        let at_start: Vec<u64> = m.instructions_by_core().collect();
        m.run_until(|m| span.end.reached(m))?;
        let instructions = m.progress().instructions;
        measured.push(Measured {
            unit: span.unit,
            cycles: m.cycle() - start,
            // The warm-up is the first unit's.
            detailed_instructions: instructions - first,
            check: job.check,
            by_core: (m.instructions_by_core().zip(at_start))
                .map(|(now, then)| now - then)
                .collect(),
        });
        first = instructions;
    }
    Ok(Done {
        measured,
        whole: job.whole.then(|| m.summary()),
    })
}
