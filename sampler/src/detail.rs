//! A detailed simulation of one unit, from a copy of the machine: its warm-up, then its
//! measurement.

use std::collections::BTreeMap;

use wsim_sim::error::ErrorKind;
use wsim_sim::{Machine, RunSummary, SimError, SimResult};

/// A point of the run where a unit starts or ends: when a number of launches have ended,
/// when the cores have issued a number of warp instructions since the last of a number of
/// launches ended (a unit inside a launch), or the run's end.
///
/// Inside a launch a mark counts from the launch's start, not from the run's: detail
/// turns `wsim_spawn`'s wait loop more often than the functional rounds do (BFS WM push on
/// the quick RN stand-in issued 26.7k warp instructions more in detail over 95 launches,
/// 87-1,054 a launch), and counted from the run's start a detailed run reached each mark
/// that much earlier, launch after launch: measured every unit, its later launches' heads
/// took no cycles at all and their tails the whole launch (docs/ARCHITECTURE.md, "Sampled
/// simulation", item 22).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    Launches(usize),
    Instructions { launches: usize, after: u64 },
    Exit,
}

impl Mark {
    /// Whether `m`, at `count`, has reached the mark.
    fn reached(self, m: &Machine, count: &mut Count) -> bool {
        count.observe(m);
        match self {
            Mark::Launches(n) => count.launches >= n,
            Mark::Instructions { launches, after } => {
                count.launches > launches
                    || (count.launches == launches
                        && m.progress().instructions - count.base >= after)
            }
            Mark::Exit => false,
        }
    }
}

/// Where a run stands against the marks: the launches ended, and the warp instructions
/// the cores had issued when the last of them ended.
struct Count {
    launches: usize,
    base: u64,
}

impl Count {
    /// The count of `m`, which stands at `mark` (a unit's start).
    fn at(m: &Machine, mark: Mark) -> Count {
        let now = m.progress().instructions;
        match mark {
            Mark::Instructions { launches, after } => Count {
                launches,
                base: now - after,
            },
            _ => Count {
                launches: ended(m),
                base: now,
            },
        }
    }

    fn observe(&mut self, m: &Machine) {
        let now = ended(m);
        if now != self.launches {
            self.launches = now;
            self.base = m.progress().instructions;
        }
    }
}

/// A unit to measure: where its measurement starts and where it ends, and which of the
/// cores' probes (`progress.rs`) run from its start.
#[derive(Clone, Copy)]
pub(crate) struct Span {
    pub unit: usize,
    pub start: Mark,
    pub end: Mark,
    pub probe: Probing,
}

/// The probes a unit's start has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Probing {
    None,
    /// A kernel's first measured body unit: each count of cores short of a socket's, and
    /// lone warps (the model's when no tail gave it any); each count's copy runs at most
    /// `longest` warp instructions ([`PAST_THE_HEAD`], or less within a budget of detail,
    /// `budget.rs`).
    Head {
        longest: u64,
    },
    /// A kernel's first measured launch tails: lone warps, among the warps still at work
    /// where the launch ends, the heaviest, as the warps that drain a core in detail are.
    Tail,
}

/// A stretch of consecutive units to simulate in detail: a copy of the machine, where to
/// fast-forward it functionally to (the start of the warm-up, when the copy is from before
/// it), and the units measured one after another (each from where the one before it
/// ended: consecutive measured units share one warm-up).
pub(crate) struct Job {
    pub machine: Machine,
    /// Where in the run the machine stands: the start of a unit.
    pub at: Mark,
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

/// A measured unit: its cycles, and the warp instructions simulated in detail for it
/// (its probes' included).
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
/// cores have finished their share of a launch, or with `alone` of one socket only, the
/// other sockets parked, as the socket that ends a launch is once the others have ended,
/// or with `lone_warp` only one warp of one socket (`alone` too; the others parked,
/// `Machine::park_warp`), as a core is at the end of its own drain; what they issued in
/// the probe's measured second half, and in how many cycles.
#[derive(Clone, Debug)]
pub(crate) struct Probe {
    pub active: usize,
    pub alone: bool,
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
    let mut count = Count::at(&m, job.at);
    if let Some(start) = job.forward {
        if m.run_functional_until(|m| start.reached(m, &mut count))? {
            return Err(SimError::new(ErrorKind::Setup(format!(
                "the sampler's fast-forward to {start:?} ran past the program's end"
            ))));
        }
    }
    let mut measured = Vec::with_capacity(job.units.len());
    let mut first = m.progress().instructions;
    for span in &job.units {
        m.run_until(|m| span.start.reached(m, &mut count))?;
        let (probes, probed) = probe(&m, span)?;
        let start = m.cycle();
        let at_start: Vec<u64> = m.instructions_by_warp().collect();
        m.run_until(|m| span.end.reached(m, &mut count))?;
        let instructions = m.progress().instructions;
        measured.push(Measured {
            unit: span.unit,
            cycles: m.cycle() - start,
            // The warm-up is the first unit's, the probes' copies its start's.
            detailed_instructions: instructions - first + probed,
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

/// A lone warp's probe runs until its warp has issued this many warp instructions, measured
/// over the second half (a warp alone issues about one instruction in ten cycles on the
/// graph kernels: 0.07-0.10 in the GCN layer's and PageRank's drains, `progress.rs`).
const LONE_WARP_INSTRUCTIONS: u64 = 1024;

/// How far past a unit's length a probe of the cores at a kernel's head runs, at most,
/// measured over the second half, where the cores have that much work left: a launch's head
/// is not its body. At the head every VM warp is at its vertices' first edges at once, its
/// lanes all at work and each load touching up to 32 lines; further in the warps are spread
/// over their lists. Measured on PageRank VM on UK at scale 0.1 (units of 100k,
/// docs/ARCHITECTURE.md item 10): the last core alone ran at 0.67 a cycle over the third
/// unit's probe, at 1.00 over a probe of 1M from the same start and from the 23rd unit, and
/// at 0.9-1.0 through the launch's drain in detail.
pub(crate) const PAST_THE_HEAD: u64 = 1_000_000;

/// A probe of the cores at a head stops at the first length whose rate and the two
/// lengths' before it lie within this share of each other: past the head its cores issue
/// at a steady rate, and running on to `PAST_THE_HEAD` costs more than the run's measured
/// units at the smaller sizes. Three, not two: a rate can rest and then move on. Measured
/// on PageRank at scale 0.1 and 0.01 (units of 100k; the rate over each length's second
/// half): on UK and HW a socket's cores alone issued 0.95-1.00 a cycle over the unit's
/// length and 0.99-1.00 over each longer one but for the last core of one, whose work ran
/// low (0.94 and 0.69 over four and eight times it); with both sockets at work 1.35-1.87,
/// 1.79-2.00, 1.94-2.00; there the head's probes simulated 8.9M warp instructions of the
/// 12.3M in detail. On CO under SparseWeaver the last core alone issued 0.371, 0.372 and
/// then 0.521: stopping at two lengths that agree made the estimate +11.9% for +4.3%.
/// 2% is an assumption.
const STEADY: f64 = 0.02;

/// Whether the last three of a probe's `rates` (one per length, in order) lie within
/// `STEADY` of the last.
fn steady(rates: &[f64]) -> bool {
    let Some(&last) = rates.last() else {
        return false;
    };
    rates.len() >= 3 && (rates[rates.len() - 3..].iter()).all(|r| (r - last).abs() <= STEADY * last)
}

/// The lengths a probe of the cores at a kernel's head tries, the longest last: the
/// unit's, doubled while within `longest` (`PAST_THE_HEAD` but within a budget; each
/// measured over the one before). The longest the cores have the work for is measured (a
/// short launch's last core alone runs out of it).
pub(crate) fn past_the_head(unit: u64, longest: u64) -> Vec<u64> {
    let mut lengths = vec![unit.max(1)];
    while let Some(&last) = lengths.last().filter(|&&l| 2 * l <= longest) {
        lengths.push(2 * last);
    }
    lengths
}

/// How many lone warps a socket's probes measure, each in a copy of its own: a warp's
/// rate alone varies with its work, and the model's lone warp is their mean, the spread
/// of the estimate over them part of its interval (`progress.rs`). Measured on PageRank VM
/// (R-MAT 14, units of 20k): the k-th ready warp of each socket's last core, for twelve k
/// from 0 to 24, ran alone at 0.073-0.102 a cycle, and the estimate with each came out
/// -0.24% to +4.73% of full detail.
const LONE_WARPS: usize = 8;

/// The cores a head's probes put at work, on a machine of `cores` in sockets of `socket`,
/// each set as (how many of a socket's, whether one socket alone, the cores): for each
/// count short of a socket's, the last that many of every socket; with more than one
/// socket, for each socket and each count of its cores, the last that many of it.
fn head_sets(cores: usize, socket: usize) -> Vec<(usize, bool, Vec<usize>)> {
    let last = |active: usize| move |c: &usize| c % socket >= socket - active;
    let mut sets: Vec<(usize, bool, Vec<usize>)> = (1..socket)
        .map(|active| (active, false, (0..cores).filter(last(active)).collect()))
        .collect();
    if cores > socket {
        for first in (0..cores).step_by(socket.max(1)) {
            let of_socket = first..(first + socket).min(cores);
            sets.extend(
                (1..=socket).map(|a| (a, true, of_socket.clone().filter(last(a)).collect())),
            );
        }
    }
    sets
}

impl Span {
    /// The lengths its head's probes of the cores try (`past_the_head`): at a kernel's
    /// head inside a launch, none elsewhere.
    pub(crate) fn head_lengths(&self) -> Option<Vec<u64>> {
        match (self.probe, self.start, self.end) {
            (
                Probing::Head { longest },
                Mark::Instructions { after: from, .. },
                Mark::Instructions { after: to, .. },
            ) => Some(past_the_head(to - from, longest)),
            _ => None,
        }
    }

    /// The most warp instructions its probes can simulate on a machine of `cores` in
    /// sockets of `socket`: each of a head's probes to its longest length and every lone
    /// warp's try in full (the plan's cost, `detailed_by_plan`).
    pub(crate) fn probes_at_most(&self, cores: usize, socket: usize) -> u64 {
        if self.probe == Probing::None {
            return 0;
        }
        let sockets = cores.div_ceil(socket.max(1)) as u64;
        let lone = sockets * 2 * LONE_WARPS as u64 * LONE_WARP_INSTRUCTIONS;
        let longest = (self.head_lengths()).and_then(|l| l.last().copied());
        let cores_at_work = head_sets(cores, socket).len() as u64 * longest.unwrap_or(0);
        cores_at_work + lone
    }
}

/// The probes from `m`, at `span`'s start. At a head, for each count of cores short of a
/// socket's, a copy with only that many at work in each socket, and for each socket and
/// each count of its cores, a copy with only that many of it at work, the other sockets
/// parked (they share the L2 and its link: measured on PageRank VM on the CO stand-in at
/// scale 0.1, a socket's last core alone ran at 0.44 a cycle with the other socket's last
/// core at work and at 0.63 with it parked, its last three at 0.36 and 0.48, and in detail
/// the socket left at work once the other had ended at 0.40-0.73). Each is simulated until
/// its cores have issued as many warp instructions as the unit has, or more where they
/// have the work and their rate is not yet steady (`past_the_head`, `STEADY`), measured
/// over the second half: the cores that were starved with all at work take a while to
/// reach their pace alone (measured on a GCN layer's GraphSum on facebook, units of 20k:
/// 0.59 a cycle for the first 10k cycles, then 1.00). At a head or a tail, each socket's
/// lone warps (`lone_warps`). A probe whose cores run out of work first (the parked ones
/// hold the launch open: a deadlock) or that meets the cycle limit is left out. With the
/// warp instructions the probes' copies simulated, those left out included.
fn probe(m: &Machine, span: &Span) -> SimResult<(Vec<Probe>, u64)> {
    let socket = m.config().gpu.cores_per_socket as usize;
    let cores = m.instructions_by_core().count();
    let (mut probes, mut probed) = (Vec::new(), 0);
    if let Some(lengths) = span.head_lengths() {
        for (active, alone, at_work) in head_sets(cores, socket) {
            let mut p = m.clone();
            (0..cores)
                .filter(|c| !at_work.contains(c))
                .for_each(|c| p.park(c));
            // Past the unit's length, while every core at work keeps half its live warps
            // or more: a core draining its last warps is not a core at work (R-MAT 14's
            // last core alone ran at 0.24 a cycle through its drain where the other
            // socket's ran at 0.73). With a lone warp at 0.07-0.10 a cycle, 10-14 warps
            // keep a core at one a cycle: half of 32 are 16 (an assumption).
            let live: Vec<(usize, usize)> = at_work.iter().map(|&c| (c, p.live_warps(c))).collect();
            let keeps_half = |p: &Machine, length: usize| {
                length == 0 || live.iter().all(|&(c, n)| 2 * p.live_warps(c) >= n)
            };
            let ran = run_probe(&mut p, &lengths, keeps_half)?;
            probed += p.progress().instructions - m.progress().instructions;
            if let Some((cycles, by_core)) = ran {
                probes.push(Probe {
                    active,
                    alone,
                    lone_warp: false,
                    cycles,
                    by_core,
                });
            }
        }
    }
    if span.probe != Probing::None {
        for first in (0..cores).step_by(socket.max(1)) {
            let (lone, ran) = lone_warps(m, first..(first + socket).min(cores))?;
            probes.extend(lone);
            probed += ran;
        }
    }
    Ok((probes, probed))
}

/// The lone warps of the socket of cores `socket`: copies with one of its ready warps at
/// work and every other warp of the machine parked, for `LONE_WARP_INSTRUCTIONS`:
/// `LONE_WARPS` warps spread over the socket's ready ones (`lone_order`), a warp that runs
/// out of work (or meets a barrier) first giving way to the next, for at most twice as
/// many tries. A socket apart from the others, so that one whose warps run out of work
/// first costs the others nothing. With the warp instructions their copies simulated.
fn lone_warps(m: &Machine, socket: std::ops::Range<usize>) -> SimResult<(Vec<Probe>, u64)> {
    let cores = m.instructions_by_core().count();
    let ready: Vec<(usize, usize)> = (socket.clone())
        .flat_map(|c| m.ready_warps(c).map(move |w| (c, w)))
        .collect();
    let (mut probes, mut probed) = (Vec::new(), 0);
    for i in lone_order(ready.len()).take(2 * LONE_WARPS) {
        if probes.len() == LONE_WARPS {
            break;
        }
        let (core, keep) = ready[i];
        let mut p = m.clone();
        (0..cores).filter(|&c| c != core).for_each(|c| p.park(c));
        for &(_, w) in ready.iter().filter(|&&(c, w)| c == core && w != keep) {
            p.park_warp(core, w);
        }
        let at_work = |p: &Machine, _| p.ready_warps(core).any(|r| r == keep);
        let ran = run_probe(&mut p, &[LONE_WARP_INSTRUCTIONS], at_work)?;
        probed += p.progress().instructions - m.progress().instructions;
        if let Some((cycles, by_core)) = ran {
            probes.push(Probe {
                active: 1,
                alone: true,
                lone_warp: true,
                cycles,
                by_core,
            });
        }
    }
    Ok((probes, probed))
}

/// The order in which the lone warp's probes take a socket's `ready` ready warps (by their
/// place among them, core by core): spread over them, every `LONE_WARPS`-th share first
/// (of 32: 0, 4, ..., 28, then 1, 5, ...), so that old and young warps and every core's
/// are measured alike.
fn lone_order(ready: usize) -> impl Iterator<Item = usize> {
    let stride = ready.div_ceil(LONE_WARPS).max(1);
    (0..stride).flat_map(move |offset| (offset..ready).step_by(stride))
}

/// Run a probe's copy for each of `lengths` warp instructions in turn (the longest
/// last), while `at_work` holds (given the copy and which of `lengths` it runs for) and
/// until its rate is `STEADY`, and measure the second half of the longest it ran: its
/// cycles and each core's warp instructions (None when it could not run the first).
fn run_probe(
    p: &mut Machine,
    lengths: &[u64],
    at_work: impl Fn(&Machine, usize) -> bool,
) -> SimResult<Option<(u64, Vec<u64>)>> {
    let base = p.progress().instructions;
    let mut at: BTreeMap<u64, (u64, Vec<u64>)> = BTreeMap::new();
    let mut measured = None;
    // Each length's rate, in all the cores' warp instructions a cycle.
    let rate = |(cycles, by_core): &(u64, Vec<u64>)| {
        by_core.iter().sum::<u64>() as f64 / (*cycles).max(1) as f64
    };
    let mut rates = Vec::new();
    for (i, &length) in lengths.iter().enumerate() {
        for point in [length / 2, length] {
            if at.contains_key(&point) {
                continue;
            }
            if !run_to(p, base + point, |p| at_work(p, i))? {
                return Ok(measured);
            }
            at.insert(point, (p.cycle(), p.instructions_by_core().collect()));
        }
        let ((settled, then), (end, now)) = (&at[&(length / 2)], &at[&length]);
        let by_core = now.iter().zip(then).map(|(n, t)| n - t).collect();
        let this = (end - settled, by_core);
        rates.push(rate(&this));
        measured = Some(this);
        if steady(&rates) {
            break;
        }
    }
    Ok(measured)
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
    fn a_head_probe_doubles_the_units_length_within_past_the_head() {
        let longest = PAST_THE_HEAD;
        assert_eq!(
            past_the_head(100_000, longest),
            [100_000, 200_000, 400_000, 800_000]
        );
        assert_eq!(past_the_head(PAST_THE_HEAD, longest), [PAST_THE_HEAD]);
        assert_eq!(past_the_head(600_000, longest), [600_000]);
        // A budget's shorter probes: never shorter than the unit.
        assert_eq!(past_the_head(100_000, 250_000), [100_000, 200_000]);
        assert_eq!(past_the_head(100_000, 0), [100_000]);
    }

    #[test]
    fn a_plan_counts_a_heads_probes_to_their_longest_length() {
        // The paper's 8 cores in sockets of 4: 3 shared sets and 4 alone for each socket.
        assert_eq!(head_sets(8, 4).len(), 11);
        assert_eq!(head_sets(8, 4)[3], (1, true, vec![3]));
        assert_eq!(head_sets(6, 3).len(), 8);
        let span = |probe, start, end| Span {
            unit: 2,
            start,
            end,
            probe,
        };
        let inside = |after| Mark::Instructions { launches: 2, after };
        let body = (inside(100_000), inside(200_000));
        let lone = 2 * 2 * LONE_WARPS as u64 * LONE_WARP_INSTRUCTIONS;
        assert_eq!(
            span(
                Probing::Head {
                    longest: PAST_THE_HEAD
                },
                body.0,
                body.1
            )
            .probes_at_most(8, 4),
            11 * 800_000 + lone
        );
        assert_eq!(
            span(Probing::Tail, body.0, Mark::Launches(3)).probes_at_most(8, 4),
            lone
        );
        assert_eq!(span(Probing::None, body.0, body.1).probes_at_most(8, 4), 0);
    }

    #[test]
    fn a_probe_is_steady_once_three_lengths_agree() {
        assert!(!steady(&[]) && !steady(&[1.0, 1.0]));
        // UK's socket alone at scale 0.1, and its cores with both sockets at work.
        assert!(steady(&[0.9917, 0.9999, 0.9973]));
        assert!(!steady(&[1.41, 1.91, 1.98]) && steady(&[1.41, 1.91, 1.98, 1.96, 1.97]));
        // CO's last core alone under SparseWeaver: it rests, then moves on.
        assert!(!steady(&[0.3710, 0.3719, 0.5214]));
    }

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
