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
    /// Each warp's warp instructions in the unit, core by core: the cores' and the warps'
    /// rates (`progress.rs`).
    pub by_warp: Vec<u64>,
    /// The probes from its start, when it had them.
    pub probes: Vec<Probe>,
}

/// A probe: a copy of the machine at a unit's start with only the last `active` cores of
/// each socket at work (the others parked, `Machine::park`), as a socket is once its first
/// cores have finished their share of a launch, and with `lone_warp` only one warp of each
/// of them (the others parked, `Machine::park_warp`), as a core is at the end of its own
/// drain; what they issued in the probe's measured second half, and in how many cycles.
#[derive(Clone, Debug)]
pub(crate) struct Probe {
    pub active: usize,
    pub lone_warp: bool,
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
        let at_start: Vec<u64> = m.instructions_by_warp().collect();
        m.run_until(|m| span.end.reached(m))?;
        let instructions = m.progress().instructions;
        measured.push(Measured {
            unit: span.unit,
            cycles: m.cycle() - start,
            // The warm-up is the first unit's.
            detailed_instructions: instructions - first,
            check: job.check,
            by_warp: (m.instructions_by_warp().zip(at_start))
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

/// The lone warp's probe runs until each socket's lone warp has issued this many warp
/// instructions on average, measured over the second half (a warp alone issues about one
/// instruction in ten cycles on the graph kernels: 0.07-0.10 in the GCN layer's and
/// PageRank's drains, `progress.rs`).
const LONE_WARP_INSTRUCTIONS: u64 = 1024;

/// How many lone warps a kernel's probe measures, each in a copy of its own: a warp's
/// rate alone varies with its work, and the model's lone warp is their mean, the spread
/// of the estimate over them part of its interval (`progress.rs`). Measured on PageRank VM
/// (R-MAT 14, units of 20k): the k-th ready warp of each socket's last core, for twelve k
/// from 0 to 24, ran alone at 0.073-0.102 a cycle, and the estimate with each came out
/// -0.24% to +4.73% of full detail.
const LONE_WARPS: usize = 8;

/// The probes from `m`, at `span`'s start: for each count of cores short of a socket's,
/// a copy with only that many at work in each socket, simulated until they have issued
/// as many warp instructions as the unit has, measured over the second half: the cores
/// that were starved with all at work take a while to reach their pace alone (measured on
/// a GCN layer's GraphSum on facebook, units of 20k: 0.59 a cycle for the first 10k
/// cycles, then 1.00). Then copies with each socket's last core at work with only one
/// ready warp, for `LONE_WARP_INSTRUCTIONS` per socket: `LONE_WARPS` warps spread over
/// the core's ready ones (`lone_order`), a warp that runs out of work (or meets a
/// barrier) first giving way to the next, for at most twice as many tries. A probe whose
/// cores run out of work first (the parked ones hold the launch open: a deadlock) or
/// that meets the cycle limit is left out.
fn probe(m: &Machine, span: &Span) -> SimResult<Vec<Probe>> {
    let (Mark::Instructions(from), Mark::Instructions(to)) = (span.start, span.end) else {
        return Ok(Vec::new());
    };
    let length = to - from;
    let socket = m.config().gpu.cores_per_socket as usize;
    let cores = m.instructions_by_core().count();
    let sockets = cores.div_ceil(socket) as u64;
    let mut probes = Vec::new();
    let counts = (1..socket).map(|active| (active, None, length));
    let lone = (0..2 * LONE_WARPS).map(|k| (1, Some(k), LONE_WARP_INSTRUCTIONS * sockets));
    for (active, lone_warp, length) in counts.chain(lone) {
        if lone_warp.is_some()
            && probes.iter().filter(|p: &&Probe| p.lone_warp).count() == LONE_WARPS
        {
            break;
        }
        let mut p = m.clone();
        // The warps left alone, which must stay at work to the probe's end.
        let mut alone = Vec::new();
        for c in 0..cores {
            if c % socket < socket - active {
                p.park(c);
            } else if let Some(k) = lone_warp {
                let ready: Vec<usize> = p.ready_warps(c).collect();
                let Some(keep) = lone_order(ready.len()).nth(k).map(|i| ready[i]) else {
                    return Ok(probes);
                };
                for &w in ready.iter().filter(|&&w| w != keep) {
                    p.park_warp(c, w);
                }
                alone.push((c, keep));
            }
        }
        let at_work = |p: &Machine| alone.iter().all(|&(c, w)| p.ready_warps(c).any(|r| r == w));
        if let Some((cycles, by_core)) = run_probe(&mut p, length, at_work)? {
            probes.push(Probe {
                active,
                lone_warp: lone_warp.is_some(),
                cycles,
                by_core,
            });
        }
    }
    Ok(probes)
}

/// The order in which the lone warp's probes take a core's `ready` ready warps (by their
/// place among them): spread over them, every `LONE_WARPS`-th share first (of 32: 0, 4,
/// ..., 28, then 1, 5, ...), so that old and young warps are measured alike.
fn lone_order(ready: usize) -> impl Iterator<Item = usize> {
    let stride = ready.div_ceil(LONE_WARPS).max(1);
    (0..stride).flat_map(move |offset| (offset..ready).step_by(stride))
}

/// Run a probe's copy for `length` warp instructions, while `at_work` holds, and measure
/// the second half: its cycles and each core's warp instructions (None when it could not
/// run so far).
fn run_probe(
    p: &mut Machine,
    length: u64,
    at_work: impl Fn(&Machine) -> bool,
) -> SimResult<Option<(u64, Vec<u64>)>> {
    let base = p.progress().instructions;
    if !run_to(p, base + length / 2, &at_work)? {
        return Ok(None);
    }
    let (settled, at) = (p.cycle(), p.instructions_by_core().collect::<Vec<_>>());
    if !run_to(p, base + length, &at_work)? {
        return Ok(None);
    }
    let by_core = (p.instructions_by_core().zip(&at))
        .map(|(now, then)| now - then)
        .collect();
    Ok(Some((p.cycle() - settled, by_core)))
}

/// Run a probe's copy until its cores have issued `instructions` warp instructions in all:
/// false when they run out of work first (or `at_work` stops holding) or meet the cycle
/// limit.
fn run_to(
    p: &mut Machine,
    instructions: u64,
    at_work: impl Fn(&Machine) -> bool,
) -> SimResult<bool> {
    let mut stopped = false;
    let ran = p.run_until(|p| {
        stopped = !at_work(p);
        stopped || p.progress().instructions >= instructions
    });
    match ran {
        Ok(_) => Ok(!stopped),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lone_warps_are_spread_over_a_cores_ready_ones() {
        let of_32: Vec<usize> = lone_order(32).collect();
        assert_eq!(of_32[..9], [0, 4, 8, 12, 16, 20, 24, 28, 1]);
        let mut all = of_32.clone();
        all.sort_unstable();
        assert_eq!(all, (0..32).collect::<Vec<_>>());
        assert_eq!(lone_order(3).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(lone_order(10).take(5).collect::<Vec<_>>(), [0, 2, 4, 6, 8]);
        assert_eq!(lone_order(0).count(), 0);
    }
}
