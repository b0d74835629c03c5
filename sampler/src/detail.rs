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

/// A unit to measure: where its measurement starts and where it ends, and whether the
/// cores' probes (`progress.rs`) run from its start.
pub(crate) struct Span {
    pub unit: usize,
    pub start: Mark,
    pub end: Mark,
    pub probe: bool,
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
    /// The probes from its start, when it had them.
    pub probes: Vec<Probe>,
}

/// A probe: a copy of the machine at a unit's start with only the last `active` cores of
/// each socket at work (the others parked, `Machine::park`), as a socket is once its first
/// cores have finished their share of a launch; what they issued in the probe's measured
/// second half, and in how many cycles.
#[derive(Clone, Debug)]
pub(crate) struct Probe {
    pub active: usize,
    pub cycles: u64,
    /// Each core's warp instructions, in core order (none for those parked).
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
        let probes = match span.probe {
            true => probe(&m, span)?,
            false => Vec::new(),
        };
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
            probes,
        });
        first = instructions;
    }
    Ok(Done {
        measured,
        whole: job.whole.then(|| m.summary()),
    })
}

/// The probes from `m`, at `span`'s start: for each count of cores short of a socket's,
/// a copy with only that many at work in each socket, simulated until they have issued
/// as many warp instructions as the unit has, measured over the second half: the cores
/// that were starved with all at work take a while to reach their pace alone (measured on
/// a GCN layer's GraphSum on facebook, units of 20k: 0.59 a cycle for the first 10k
/// cycles, then 1.00). A probe whose cores run out of work first (the parked ones hold
/// the launch open: a deadlock) or that meets the cycle limit is left out.
fn probe(m: &Machine, span: &Span) -> SimResult<Vec<Probe>> {
    let (Mark::Instructions(from), Mark::Instructions(to)) = (span.start, span.end) else {
        return Ok(Vec::new());
    };
    let length = to - from;
    let socket = m.config().gpu.cores_per_socket as usize;
    let cores = m.instructions_by_core().count();
    let base = m.progress().instructions;
    let mut probes = Vec::new();
    for active in 1..socket {
        let mut p = m.clone();
        for c in (0..cores).filter(|c| c % socket < socket - active) {
            p.park(c);
        }
        if !run_to(&mut p, base + length / 2)? {
            continue;
        }
        let (settled, at) = (p.cycle(), p.instructions_by_core().collect::<Vec<_>>());
        if !run_to(&mut p, base + length)? {
            continue;
        }
        probes.push(Probe {
            active,
            cycles: p.cycle() - settled,
            by_core: (p.instructions_by_core().zip(&at))
                .map(|(now, then)| now - then)
                .collect(),
        });
    }
    Ok(probes)
}

/// Run a probe's copy until its cores have issued `instructions` warp instructions in all:
/// false when they run out of work first or meet the cycle limit.
fn run_to(p: &mut Machine, instructions: u64) -> SimResult<bool> {
    match p.run_until(|p| p.progress().instructions >= instructions) {
        Ok(_) => Ok(true),
        Err(e)
            if matches!(
                e.kind,
                ErrorKind::Deadlock { .. } | ErrorKind::MaxCycles { .. }
            ) =>
        {
            Ok(false)
        }
        Err(e) => Err(e),
    }
}
