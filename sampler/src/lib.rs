//! Sampled simulation (`wsim run --sample`): the run executes functionally to its end, so
//! its architectural results (memory, exit status, instruction counts, launches) are
//! exact, and some of its units are simulated in detail, each from a copy of the machine
//! the functional run left at or before its start (`starts.rs`); the run's cycles are
//! estimated from theirs, with a 95% confidence interval (docs/ARCHITECTURE.md, "Sampled
//! simulation").
//!
//! A unit ends where a launch ends (`wsim_spawn`'s kernels: a graph algorithm's
//! iterations and levels, a GCN layer's phases), so it is the code between two launches
//! and the launch after it. The strata are the first unit (the run's start and its first
//! launch: cold caches), each kernel's first launch (measured, PageRank's first gather
//! ran 12% slower than its others: a stratum of all of them was estimated 4% high), the
//! later units of each kernel and octave of warp instructions (the architecture-free
//! features the functional run gives: a BFS level with a large frontier is unlike one with
//! a small one; or, with a `cluster` diameter, each kernel's clusters of launches alike in
//! their basic-block vectors and active lanes, `features.rs`), and the last unit (after
//! the last launch): the strata of one unit are always simulated, and of the others'
//! units the first two and then one in `every`, at a random place in each block
//! (`Choice`).
//! With a `period`, a unit also ends inside a launch, and a launch's head (its kernel's
//! first apart: cold), ramp (its
//! first [`RAMP`] body units, slower or faster than the rest while its warps start
//! together), body and tail are strata of their kernel (with a `cluster` diameter, its
//! ramp, body and tail of its
//! kernel's cluster of launches, by its first body unit's features: a search's level that
//! updates most vertices runs several times slower a warp instruction than one that
//! updates few); a launch of a head and a tail alone is one unit of its kernel's short
//! launches in two, measured whole or not at all (`Head`); under core order the bodies
//! are scaled by the cores' progress through
//! the launch (`progress.rs`), and a body or tail the model does not time is estimated by
//! the octave of the warps its units' work is spread over (`post_strata`), so each
//! octave's first unit is measured too (`Seen::octave_first`). A measured unit is preceded by
//! units simulated in detail and not measured, so that its caches, DRAM rows, Weaver
//! tables and pipeline hold what the run would have left there: `warmup_units` of them,
//! and back to the previous unit of its kernel when that is within [`REACH`] (PageRank
//! alternates its gather and its vertex update: the update's unit alone leaves the edges
//! that the gather reads cold, and the gather measured after it alone ran 4% slow);
//! measured units in a row are one stretch, simulated once from the first one's warm-up.
//! A short run whose plan would simulate most of it in detail anyway is simulated whole
//! instead, exactly ([`HOLD`], [`WHOLE_AT`]); with a budget of detail, the plan is trimmed
//! at the run's end to fit it where it can (`budget.rs`). The copies are independent, so
//! `threads` simulate them at once; the estimate reads them in unit order, the same at
//! every thread count.

mod budget;
mod detail;
mod estimate;
mod features;
mod order;
mod plan;
mod progress;
mod starts;
mod workers;

use std::collections::{BTreeMap, BTreeSet};
use std::hash::Hasher;

use fnv::FnvHasher;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use detail::{ended, Done, Job, Mark, Measured, Probing, Span};
pub use estimate::{t975, Unit};
use estimate::{Calibration, Spread};
use features::{Clusters, Counter};
use order::OrderCheck;
pub use plan::Plan;
use progress::{Bodies, Scaling};
use starts::Starts;
pub use starts::REACH;
use workers::Workers;
use wsim_sim::stats::{MeasuredUnit, Sampling, WarmupCheck};
use wsim_sim::{Machine, Mode, RunSummary, SimResult};

/// A unit as the functional run saw it.
struct Seen {
    stratum: String,
    instructions: u64,
    /// The launches ended when it starts and when it ends.
    launches: (usize, usize),
    /// It starts and ends where launches end (or the run starts or ends).
    whole_launches: bool,
    sampled: bool,
    /// Lines the last-level cache installed while the functional run warmed it.
    fills: u64,
    /// A launch body's or tail's: the octave of the warps its work is spread over (log2
    /// of [`effective_warps`]), which its post-stratum and its rank in a budget's trim go
    /// by.
    octave: Option<u32>,
    /// Measured beyond the plan as the first of its body or tail stratum's units in its
    /// octave, so that every octave a launch body or tail reaches has a measured unit for
    /// its post-stratum
    /// (`post_strata`). Measured alone (its own job, from a copy) and read by nothing
    /// else: not by the cores' progress model, its calibration or the run's exact start.
    octave_first: bool,
    /// Measured at the random place the plan drew in one of its stratum's blocks
    /// (`Choice`), not as one of its first two.
    placed: bool,
    /// A short launch's tail: measured with its head, and ranked with it in a budget.
    with_head: bool,
}

/// Run `machine` to its end sampled by `plan`: the summary is the functional run's, with
/// mode [`Mode::Sampled`], `cycles` the estimate (rounded) and `sampling` how it was made;
/// or, when the run was simulated whole (`Sampling::whole_run`), the detailed run's, with
/// `sampling` saying so.
pub fn run(machine: &mut Machine, plan: &Plan) -> SimResult<RunSummary> {
    let every = plan.every.max(1) as usize;
    let mut units: Vec<Seen> = Vec::new();
    let warmup = plan.warmup_units as usize;
    // Which of each stratum's units are measured; per kernel its last unit.
    let mut choice = Choice::new(every);
    let mut last_of: BTreeMap<String, usize> = BTreeMap::new();
    let (mut unit_start, mut launches) = (0u64, 0usize);
    // The warp instructions issued when the last launch ended (a mark inside a launch
    // counts from there, `Mark`).
    let mut launch_start = 0u64;
    let mut fills_before = 0;
    // Where the current unit started: at a launch's end (or the run's start), or inside one.
    let mut start = Mark::Launches(0);
    let mut stretch = Stretch::default();
    let mut order = OrderCheck::new(machine);
    if plan.warm_caches {
        machine.warm_caches();
    }
    // With clusters: every unit's features (the counts by PC differenced at each unit's
    // end), to group each kernel's later launches by.
    let mut features =
        (plan.cluster > 0.0).then(|| (Counter::new(machine), Clusters::new(plan.cluster)));
    if features.is_none() {
        // The interleaving check compares the instructions by PC.
        machine.count_pcs();
    }
    // With periods: each launch's units' work warp by warp, for the cores' progress.
    let mut bodies = (plan.progress && plan.period > 0)
        .then(|| Bodies::new(machine))
        .flatten();
    let mut by_warp_before: Vec<u64> = machine.instructions_by_warp().collect();
    // The kernels whose first measured body unit has had its probes, and how many of each
    // kernel's measured launch tails have had theirs (`progress.rs`).
    let mut probed: BTreeSet<String> = BTreeSet::new();
    let mut tails_probed: BTreeMap<String, usize> = BTreeMap::new();
    // The (stratum, octave) of every launch body unit measured so far.
    let mut octaves_measured: BTreeSet<(String, u32)> = BTreeSet::new();
    // With clusters, the open launch's cluster among its kernel's launches cut into units,
    // by the features of its first body unit (`Clusters::follow`; `None`: not yet known,
    // Some(None): its kernel's first cluster).
    let mut open_cluster: Option<Option<usize>> = None;
    // The open launch's body units so far: its first `RAMP` are its ramp.
    let mut body_units = 0;
    // The open launch's head, until the unit after it says whether the launch is short.
    let mut open_head: Option<Head> = None;
    // After warming and counting are on: a job fast-forwarding from a copy does both as
    // the run did (neither changes what a detailed run does).
    let reach = if warmup > 0 { warmup.max(REACH) } else { 0 };
    let check = plan.check_warmup as usize;
    let llc_lines = machine.llc_lines();
    // A launch's head is measured, or not, once the unit after it has ended (`Head`): its
    // jobs start up to one unit further back than the current unit's.
    let mut starts = Starts::new(machine, reach.max(check) + 1);
    // Held back with the run's start while the run might still be simulated whole (`HOLD`),
    // and with a budget to the run's end.
    let mut workers = Workers::new(
        plan.threads,
        plan.exact_fallback.then(|| machine.clone()),
        plan.budget.is_some(),
    );
    machine.run_functional_until(|m| {
        order.observe(m);
        let now = ended(m);
        let instructions = m.progress().instructions;
        // A unit ends where a launch ends (with every launch that ended in the round) or,
        // with periods, inside a launch once it has `period` warp instructions.
        let (end, kernel) = if now != launches {
            (Mark::Launches(now), m.launches().last())
        } else if plan.period > 0
            && instructions - unit_start >= plan.period
            && m.open_launch().is_some()
        {
            let after = instructions - launch_start;
            (Mark::Instructions { launches, after }, m.open_launch())
        } else {
            return false;
        };
        let kernel = kernel.and_then(|l| l.kernel.as_deref());
        let kernel = kernel.unwrap_or("launch").to_string();
        let unit = units.len();
        let size = instructions - unit_start;
        let inside = matches!(start, Mark::Instructions { .. });
        let tail = matches!(end, Mark::Launches(_));
        let head = unit > 0 && !inside && !tail;
        // A launch of a head and a tail alone (at most two periods) is one stratum's unit
        // in two: its tail is measured with its head, so that the ratio estimator reads
        // whole launches, not tails whose drain is most of their time (item 22).
        // (A head is open only in the unit right after it: one that ends the launch ends it.)
        let short = tail && open_head.is_some();
        if let Some(h) = open_head.take() {
            h.decide(
                short,
                &mut units,
                &mut choice,
                &starts,
                &mut stretch,
                &mut workers,
            );
        }
        // Its stratum. A whole launch's: its kernel and the octave of its warp instructions
        // (a level of a search with a large frontier is unlike one with a small one), or
        // with clusters its kernel's cluster of launches like it; a part of a launch's: its
        // kernel and the part.
        let features = features
            .as_mut()
            .map(|(counter, clusters)| (counter.unit(m), clusters));
        let now_by_warp: Vec<u64> = m.instructions_by_warp().collect();
        let by_warp: Vec<u64> = (now_by_warp.iter().zip(&by_warp_before))
            .map(|(n, b)| n - b)
            .collect();
        by_warp_before = now_by_warp;
        let (stratum, sampled, placed) = match (unit, end, inside) {
            (0, ..) => ("first".to_string(), true, false),
            // Named and measured or not once the unit after it ends (`Head::decide`).
            _ if head => (format!("{kernel} (launch head)"), false, false),
            _ if short => {
                let head = &units[unit - 1];
                (head.stratum.clone(), head.sampled, head.placed)
            }
            (_, Mark::Launches(_), false) if !last_of.contains_key(&kernel) => {
                (format!("{kernel} (first launch)"), true, false)
            }
            (_, end, inside) => {
                let stratum = match (end, inside, features) {
                    (Mark::Launches(_), false, Some((f, clusters))) => {
                        let first = clusters.join(&kernel, launches, f);
                        format!("{kernel} (cluster of launch {first})")
                    }
                    (Mark::Launches(_), false, None) => {
                        format!("{kernel} (2^{} instructions)", size.max(1).ilog2())
                    }
                    (Mark::Launches(_), true, _) => {
                        format!("{kernel} (launch tail{})", cluster_part(open_cluster))
                    }
                    (_, _, features) => {
                        if let (None, Some((f, clusters))) = (open_cluster, features) {
                            let body = format!("{kernel} (launch body)");
                            let (cluster, first) = clusters.follow(&body, launches, f);
                            open_cluster = Some((!first).then_some(cluster));
                        }
                        body_units += 1;
                        let part = if body_units <= RAMP { "ramp" } else { "body" };
                        format!("{kernel} (launch {part}{})", cluster_part(open_cluster))
                    }
                };
                let (sampled, placed) = choice.draw(&stratum);
                (stratum, sampled, placed)
            }
        };
        let octave = (inside && !short).then(|| effective_warps(&by_warp).ilog2());
        let octave_key = octave.map(|o| (stratum.clone(), o));
        let octave_first =
            !sampled && (octave_key.as_ref()).is_some_and(|k| !octaves_measured.contains(k));
        let sampled = sampled || octave_first;
        if let (Some(key), true) = (octave_key, sampled) {
            octaves_measured.insert(key);
        }
        // What the cores' progress model takes as the unit's kernel, probes and all: its
        // launch's cluster (the kernel's probes put beside a slower cluster's own rates
        // made BFS EM push on the HW stand-in -32.5% where its own gave -5.9%).
        let group = match open_cluster.flatten() {
            Some(c) => format!("{kernel} (cluster of launch {c})"),
            None => kernel.clone(),
        };
        if tail {
            open_cluster = None;
            body_units = 0;
        }
        // A short launch is no launch body: its two units are estimated together.
        let in_body = inside && !short;
        if let (Some(bodies), true) = (&mut bodies, in_body) {
            bodies.add(unit, launches, &group, by_warp, tail);
        }
        // The warm-up: `warmup` units, and back to the kernel's previous unit (what it
        // touched is what this one touches) when that is within reach.
        let from = unit.saturating_sub(warmup);
        let from = match last_of.get(&kernel) {
            Some(&last) if warmup > 0 && unit - last <= REACH => from.min(last),
            _ => from,
        };
        // A unit inside a launch the cores' progress model weighs is timed by it and
        // not corrected by a warm-up check (`estimate`): checking it would be wasted.
        let checking = check > 0 && !(bodies.is_some() && in_body) && !octave_first;
        if head {
            open_head = Some(Head {
                span: Span {
                    unit,
                    start,
                    end,
                    probe: Probing::None,
                },
                kernel: kernel.clone(),
                first: !last_of.contains_key(&kernel),
                from,
                check_from: check_from(&units, check, llc_lines),
                checking,
            });
        } else if sampled {
            // A kernel's (a cluster's of its launches) first measured body unit probes its
            // sockets with fewer cores at work, where they have most of the launch ahead;
            // its first measured launch tails probe the warps that are left.
            let probe = match (&bodies, in_body && !octave_first, end) {
                (None, ..) | (_, false, _) => Probing::None,
                (_, _, Mark::Instructions { .. }) if probed.insert(group.clone()) => {
                    Probing::Head {
                        longest: detail::PAST_THE_HEAD,
                    }
                }
                (_, _, Mark::Launches(_)) => {
                    let tails = tails_probed.entry(group.clone()).or_default();
                    *tails += 1;
                    match *tails <= TAILS_PROBED {
                        true => Probing::Tail,
                        false => Probing::None,
                    }
                }
                _ => Probing::None,
            };
            // A unit measured for its octave alone is a stretch of its own, so that the
            // plan's units are measured as they would be without it.
            if octave_first {
                stretch.close(&mut workers);
            }
            stretch.add(
                Span {
                    unit,
                    start,
                    end,
                    probe,
                },
                jobs(
                    &starts,
                    unit,
                    from,
                    check_from(&units, check, llc_lines),
                    end,
                ),
                checking,
                &mut workers,
            );
            if octave_first {
                stretch.close(&mut workers);
            }
        } else {
            stretch.close(&mut workers);
        }
        last_of.insert(kernel, unit);
        let fills = m.llc_warm_fills();
        units.push(Seen {
            stratum,
            instructions: size,
            launches: (launches, now),
            whole_launches: !inside && matches!(end, Mark::Launches(_)),
            sampled,
            fills: fills - fills_before,
            octave,
            octave_first,
            placed,
            with_head: short,
        });
        fills_before = fills;
        launches = now;
        unit_start = instructions;
        if tail {
            launch_start = instructions;
        }
        start = end;
        starts.push(unit + 1, start, m);
        if units.len() == HOLD && plan.budget.is_none() {
            workers.release();
        }
        false
    })?;
    // A run that ended inside a launch ended after its head.
    if let Some(h) = open_head.take() {
        h.decide(
            false,
            &mut units,
            &mut choice,
            &starts,
            &mut stretch,
            &mut workers,
        );
    }
    // The last unit, after the last launch (or the whole run when it launched nothing), is
    // always measured.
    let instructions = machine.progress().instructions;
    if instructions > unit_start || units.is_empty() {
        let unit = units.len();
        units.push(Seen {
            stratum: if unit == 0 { "first" } else { "last" }.to_string(),
            instructions: instructions - unit_start,
            launches: (launches, launches),
            whole_launches: true,
            sampled: true,
            fills: machine.llc_warm_fills() - fills_before,
            octave: None,
            octave_first: false,
            placed: false,
            with_head: false,
        });
        let from = unit.saturating_sub(warmup);
        let job = jobs(
            &starts,
            unit,
            from,
            check_from(&units[..unit], check, llc_lines),
            Mark::Exit,
        );
        let span = Span {
            unit,
            start,
            end: Mark::Exit,
            probe: Probing::None,
        };
        stretch.add(span, job, check > 0, &mut workers);
    }
    stretch.close(&mut workers);
    let instructions: u64 = units.iter().map(|u| u.instructions).sum();
    let (cores, socket) = (
        machine.instructions_by_core().count(),
        machine.config().gpu.cores_per_socket as usize,
    );
    // A budget below the whole run leaves it sampled.
    let whole_fits = plan.budget.is_none_or(|share| share >= 1.0);
    let whole_run = plan.exact_fallback
        && whole_fits
        && (workers.held()).is_some_and(|held| {
            detailed_by_plan(&units, held, cores, socket) as f64 >= WHOLE_AT * instructions as f64
        });
    if whole_run {
        units.iter_mut().for_each(|u| u.sampled = true);
        workers.replace_held(|start| Job {
            machine: start,
            at: Mark::Launches(0),
            from: 0,
            forward: None,
            units: starts.spans(units.len()).collect(),
            check: false,
            whole: true,
        });
    }
    let mut budget = None;
    if let Some(share) = plan.budget.filter(|_| !whole_run) {
        // The units that can calibrate a kernel's body (`estimate`): its full units but a
        // ramp's (which calibrate the ramp) and those measured for their octave alone.
        let calibrating = (bodies.as_ref())
            .map_or_else(BTreeSet::new, Bodies::full_units)
            .into_iter()
            .filter(|&k| !is_ramp(&units[k]) && !units[k].octave_first)
            .collect();
        let run = budget::Run {
            units: &units,
            cores,
            socket,
            period: plan.period,
            unfull: bodies
                .as_ref()
                .map_or_else(BTreeSet::new, Bodies::unfull_units),
            kernels: bodies.as_ref().map_or_else(BTreeMap::new, Bodies::kernels),
            calibrating,
        };
        let mut dropped = Vec::new();
        workers.trim_held(|jobs| {
            let (kept, record, unmeasured) = budget::trim(&run, jobs, share, |u| starts.mark(u));
            budget = Some(record);
            dropped = unmeasured;
            kept
        });
        for unit in dropped {
            units[unit].sampled = false;
        }
    }
    // A run simulated whole is the detailed trajectory itself.
    let interleaving = match whole_run {
        true => None,
        false => order.finish(machine)?,
    };
    let Done { measured, whole } = workers.finish()?;
    // A run simulated whole has its cycles: nothing to scale.
    let mut progress = match bodies.filter(|_| !whole_run) {
        Some(bodies) => {
            bodies.scaling((measured.iter()).filter(|m| !m.check && !units[m.unit].octave_first))
        }
        None => Scaling::default(),
    };
    // A launch's ramp runs at another ratio of cycles to the model's weights than its
    // body: its full units calibrate its own (item 21).
    for (&k, kernel) in &mut progress.full {
        if is_ramp(&units[k]) {
            *kernel = ramp_of(kernel);
        }
    }
    let mut record = estimate(&units, &measured, &progress, plan, whole_run);
    record.interleaving = interleaving;
    record.budget = budget;
    // A run simulated whole is a detailed run: its statistics are all the detailed run's.
    let mut summary = match whole {
        Some(detailed) => detailed,
        None => {
            let mut summary = machine.summary();
            summary.mode = Mode::Sampled;
            summary.cycles = record.cycles.round() as u64;
            summary
        }
    };
    summary.sampling = Some(record);
    Ok(summary)
}

/// Whether `unit` is of a launch's ramp (`RAMP`).
fn is_ramp(unit: &Seen) -> bool {
    unit.stratum.contains("(launch ramp")
}

/// The calibration of `kernel`'s launches' ramps.
fn ramp_of(kernel: &str) -> String {
    format!("{kernel} (ramp)")
}

/// The part of a launch body's or tail's stratum that names its launch's cluster, when it
/// is not its kernel's first.
fn cluster_part(cluster: Option<Option<usize>>) -> String {
    cluster
        .flatten()
        .map_or(String::new(), |c| format!(", cluster of launch {c}"))
}

/// Which of each stratum's units are measured: its first two, and then one at a random
/// place in each block of `every` after its first `every` (stratified sampling: as many
/// as one in `every` at its first place, and a stratum of fewer units has its first two
/// alone either way). One at a fixed place aliases with what repeats: PageRank VM on the
/// CO stand-in at scale 0.1 (period 100k) has 20 body units a launch, so that with every
/// 20 each measured body unit was its launch's first, where the warps are all at their
/// vertices' first edges (124-132k cycles each, against 115-119k for a launch's 7th to
/// 10th). The places are drawn from a generator seeded per stratum by its name (FNV-1a),
/// so that a run's choice is the same every time and at every thread count, and a
/// stratum's draws stay its own when another stratum comes or goes (seeded by the order
/// the strata appear in, a kernel's first head apart, item 22, redrew others: EGHW's
/// GraphSum body on the CO stand-in lost its one placed unit and went from -3.7% to
/// -21.2%). Measured, a random place in the block of units 3 to 22 too raised the detail of
/// the small validation set's PageRanks (12 launches of each kernel) from 60% of their
/// warp instructions to 109%: a third unit of each stratum, in a stretch of its own.
struct Choice {
    every: usize,
    /// Per stratum: its generator, its units so far and its current block's place.
    strata: BTreeMap<String, (Xoshiro256PlusPlus, usize, usize)>,
}

impl Choice {
    fn new(every: usize) -> Self {
        Choice {
            every,
            strata: BTreeMap::new(),
        }
    }

    /// Whether the next unit of `stratum` is measured: `Some(true)` at its block's random
    /// place, `Some(false)` as one of its first two.
    fn measures(&mut self, stratum: &str) -> Option<bool> {
        let (rng, count, place) = (self.strata).entry(stratum.to_string()).or_insert_with(|| {
            let mut name = FnvHasher::default();
            name.write(stratum.as_bytes());
            (Xoshiro256PlusPlus::seed_from_u64(name.finish()), 0, 0)
        });
        let unit = *count;
        *count += 1;
        if unit < 2 {
            return Some(false);
        }
        let after = unit.checked_sub(self.every)?;
        if after.is_multiple_of(self.every) {
            *place = (rng.next_u64() % self.every as u64) as usize;
        }
        (after % self.every == *place).then_some(true)
    }

    /// Whether the next unit of `stratum` is measured, and whether at its block's random
    /// place (`measures`).
    fn draw(&mut self, stratum: &str) -> (bool, bool) {
        (self.measures(stratum)).map_or((false, false), |placed| (true, placed))
    }
}

/// A launch's head, measured or not once the unit after it ends: the head of a launch of
/// a head and a tail alone (a short launch) is its launch's stratum's, with its tail
/// (docs/ARCHITECTURE.md, "Sampled simulation", item 22).
struct Head {
    span: Span,
    kernel: String,
    /// Of its kernel's first launch.
    first: bool,
    /// Where its warm-up and its warm-up check start.
    from: usize,
    check_from: usize,
    checking: bool,
}

impl Head {
    /// Name the head's stratum (its launch's when `short`), decide whether it is measured
    /// and, when it is, measure it.
    fn decide(
        self,
        short: bool,
        units: &mut [Seen],
        choice: &mut Choice,
        starts: &Starts,
        stretch: &mut Stretch,
        workers: &mut Workers,
    ) {
        let kernel = &self.kernel;
        // A kernel's first head starts cold (its code, its arrays): the road BFS's under
        // WM ran 1.42 cycles a warp instruction, its later heads 0.61-0.83.
        let stratum = match (short, self.first) {
            (true, true) => format!("{kernel} (first launch)"),
            (true, false) => format!("{kernel} (short launch)"),
            (false, true) => format!("{kernel} (first launch head)"),
            (false, false) => format!("{kernel} (launch head)"),
        };
        // A kernel's first launch, or head, is a stratum of one.
        let (sampled, placed) = match self.first {
            true => (true, false),
            false => choice.draw(&stratum),
        };
        let unit = self.span.unit;
        let seen = &mut units[unit];
        (seen.stratum, seen.sampled, seen.placed) = (stratum, sampled, placed);
        match sampled {
            true => {
                let job = jobs(starts, unit, self.from, self.check_from, self.span.end);
                stretch.add(self.span, job, self.checking, workers);
            }
            false => stretch.close(workers),
        }
    }
}

/// How many of a launch's body units after its head are its ramp, a stratum of their own:
/// the warps start their edges together, their loads missing at once, and the launch runs
/// slower a warp instruction until they spread apart. Measured with every unit of the
/// quick-size UK stand-in in detail (units of 20k warp instructions, three PageRank
/// iterations): under VM push the first body unit of each launch ran 2.33-2.46 cycles a
/// warp instruction, the second 1.43-1.53, the third 1.18-1.19, the rest about 1.0; a body
/// stratum's first two measured units were its first launch's ramp, and the estimate was
/// 84% high. Under VM pull the first ran 1.71, BFS VM push's 8.0 (its levels short). A
/// ramp can be fast too: the GCN layer's SparseWeaver on the CO stand-in (width 64) ran
/// its launches' first units at 0.6-1.3 and the rest at 1.7-2.1 once the memory's queues
/// had filled, so the cores' progress model calibrates a ramp by its own units (item 21).
pub const RAMP: usize = 2;

/// A run of at most this many units holds its detailed jobs back until its end: when they
/// would simulate [`WHOLE_AT`] of the run's warp instructions or more (a short run, whose
/// warm-up checks each take up to `check_warmup` units more), the run is simulated whole
/// from its start instead, exactly, for at most a third more. Measured: PageRank on the RN
/// stand-in at the paper's size (12 units) planned 139% of its warp instructions in
/// detail. Held jobs cost little memory: each is a copy of a copy the run no longer writes.
pub const HOLD: usize = 64;

/// How many of a kernel's measured launch tails probe its lone warps (`Probing::Tail`):
/// the first two, which every plan measures (a stratum's first two units are), pooled.
pub const TAILS_PROBED: usize = 2;

/// The share of a run's warp instructions a plan may simulate in detail before the run
/// is simulated whole instead (`Plan::exact_fallback`): an estimate that saves less than
/// a quarter of the detail is not worth its error. An assumption, not measured.
pub const WHOLE_AT: f64 = 0.75;

/// The warp instructions `jobs` simulate in detail on a machine of `cores` in sockets of
/// `socket`: each from its warm-up's start to its last unit's end, and its probes at most.
/// Measured, without the probes: PageRank VM on the RN stand-in at the paper's size (20M
/// warp instructions) was sampled at 136 s of CPU against full detail's 71 s, its head's
/// eleven probes of 1M each uncounted.
fn detailed_by_plan(units: &[Seen], jobs: &[Job], cores: usize, socket: usize) -> u64 {
    (jobs.iter())
        .filter_map(|job| {
            let last = job.units.last()?.unit;
            let probes: u64 = (job.units.iter())
                .map(|s| s.probes_at_most(cores, socket))
                .sum();
            Some(
                probes
                    + units[job.from..=last]
                        .iter()
                        .map(|u| u.instructions)
                        .sum::<u64>(),
            )
        })
        .sum()
}

/// The jobs that measure `unit` up to `end`: after the plan's warm-up from the start of
/// unit `from`, or, for its warm-up check, from the start of unit `check_from`.
fn jobs(
    starts: &Starts,
    unit: usize,
    from: usize,
    check_from: usize,
    end: Mark,
) -> impl Fn(bool) -> Job + '_ {
    move |checked| {
        let from = if checked { check_from } else { from };
        starts.job(unit, from, end, checked)
    }
}

/// Where the warm-up check of the unit after `units` starts: back from it until the
/// warm-up's units have refilled the last-level cache [`REFILLS`] times over in the
/// functional run, and at most `check` units back (`Plan::check_warmup`; all of them
/// where the run warms no last-level cache).
fn check_from(units: &[Seen], check: usize, llc_lines: u64) -> usize {
    let end = units.len();
    let earliest = end.saturating_sub(check);
    let mut filled = 0;
    (earliest..end)
        .rev()
        .find(|&from| {
            filled += units[from].fills;
            llc_lines > 0 && filled >= REFILLS * llc_lines
        })
        .unwrap_or(earliest)
}

/// How many times over a warm-up check's units refill the last-level cache, at most
/// (`check_from`). What the check measures is the state a unit inherits that functional
/// warming gets wrong: a FIFO L2 filled in the functional rounds' order, not the detailed
/// warps' (`mem/hierarchy/warm.rs`). Once the warm-up has filled the L2 twice over in
/// detail, its lines are the detailed run's, and more units re-simulate what no longer
/// shows. Measured on the RN stand-in at scale 0.1 (BFS pull under VM, launches of
/// 100k-740k warp instructions, each filling the 16,384-line L2 two to four times): the
/// checked launches' ratios after 1, 2, 4 and 8 units of warm-up were 1.000,
/// 1.039-1.087, 1.041-1.083 and 1.038-1.084: the kernel's previous launch is what counts,
/// and this rule takes it (two units). Twice, not once: FIFO sets fill unevenly. An
/// assumption between the two. Where the work follows the interleaving a longer warm-up
/// changes more than the L2 (SSSP's push under VM on RN at the paper's size: +8.26% with
/// this rule, +1.46% with eight units; docs/ARCHITECTURE.md, "Sampled simulation", item
/// 11).
pub const REFILLS: u64 = 2;

/// Of the stretches that start after a warm-up, the first two and then one in `CHECKED`
/// are measured again after up to the plan's `check_warmup` units of warm-up
/// (`Plan::check_warmup`, `check_from`).
pub const CHECKED: usize = 4;

/// A stratum with this many units checked or more is corrected by its own warm-up check
/// ratio, not the run's. Measured at the paper's size (PageRank VM on UK, units inside
/// launches): the launch bodies' own ratio was 1.004 (7 units) and a launch tail's 2.02,
/// and the run's, 1.32, put on every unit made the estimate +26.5% (-1.16% with the
/// bodies' own). Fewer pairs give a ratio of little weight (Student's t of 4.3 and more)
/// and a biased one (Cochran 6.10): from two pairs the small SSSP grid's interval widened
/// from 1.53% to 7.19% for the same error. Four is an assumption between the two.
pub const OWN_CHECK: usize = 4;

/// The measured units not yet handed to the workers: consecutive ones are simulated in one
/// detailed run, which warms each for the next (PageRank's first five units are all
/// measured: as one stretch they are simulated once, not each after its own warm-up);
/// and the open stretch's warm-up check, when it has one.
#[derive(Default)]
struct Stretch {
    open: Option<Job>,
    check: Option<Job>,
    /// Stretches that have taken a check's turn.
    turns: usize,
    /// Whether the open stretch has taken its turn (or, from the run's start, has none).
    turn_taken: bool,
}

impl Stretch {
    /// Measure `span`'s unit: in the open stretch when it ends where the unit starts,
    /// else in a new one from `job(false)`. A stretch's first unit `checking` takes the
    /// stretch's turn, and when it comes (the first two turns, then one in `CHECKED`) a
    /// check from `job(true)` measures that unit and those after it again, without the
    /// span's probes, up to a unit not `checking`. The stretch from the run's start is
    /// the detailed run itself: nothing to check.
    fn add(
        &mut self,
        span: Span,
        job: impl Fn(bool) -> Job,
        checking: bool,
        workers: &mut Workers,
    ) {
        let unit = span.unit;
        match &mut self.open {
            Some(open) if open.units.last().is_some_and(|s| s.unit + 1 == unit) => {
                let check = (self.check.as_mut())
                    .filter(|c| checking && c.units.last().is_some_and(|s| s.unit + 1 == unit));
                if let Some(check) = check {
                    check.units.push(Span {
                        probe: Probing::None,
                        ..span
                    });
                }
                open.units.push(span);
            }
            _ => {
                self.close(workers);
                let mut open = job(false);
                open.units[0].probe = span.probe;
                self.open = Some(open);
                self.turn_taken = unit == 0;
            }
        }
        if checking && !self.turn_taken {
            self.turn_taken = true;
            if self.turns < 2 || self.turns.is_multiple_of(CHECKED) {
                self.check = Some(job(true));
            }
            self.turns += 1;
        }
    }

    /// Hand the open stretch and its check to the workers.
    fn close(&mut self, workers: &mut Workers) {
        for job in [self.open.take(), self.check.take()].into_iter().flatten() {
            workers.submit(job);
        }
    }
}

/// The run's estimate from its units and the measured ones (a warm-up check's among them),
/// launch bodies' units scaled by the cores' `progress` (`progress.rs`);
/// `whole_run` when they are the whole run simulated from its start.
fn estimate(
    units: &[Seen],
    measured: &[Measured],
    progress: &Scaling,
    plan: &Plan,
    whole_run: bool,
) -> Sampling {
    let (checks, measured): (Vec<&Measured>, Vec<&Measured>) =
        measured.iter().partition(|m| m.check);
    let mut cycles = vec![None; units.len()];
    for m in &measured {
        cycles[m.unit] = Some(m.cycles);
    }
    // The stretch from the run's start is the detailed run itself: exact, not corrected.
    // A unit measured for its octave alone starts from a copy.
    let exact = (cycles.iter().zip(units))
        .take_while(|(c, u)| c.is_some() && !u.octave_first)
        .count();
    // Each unit's weight: the cores' progress model's for it, or its instructions.
    let weight =
        |k: usize| (progress.weights.get(&k).copied()).unwrap_or(units[k].instructions as f64);
    // Each kernel's calibration (`estimate::calibration`): per kernel its full units'
    // (weight, cycles) where measured, and how many they are and their weights together.
    let mut pairs: BTreeMap<&str, Vec<(f64, f64)>> = BTreeMap::new();
    let mut population: BTreeMap<&str, (usize, f64)> = BTreeMap::new();
    for (&k, kernel) in &progress.full {
        let all = population.entry(kernel).or_default();
        *all = (all.0 + 1, all.1 + weight(k));
        if let (Some(c), false) = (cycles[k], units[k].octave_first) {
            pairs.entry(kernel).or_default().push((weight(k), c as f64));
        }
    }
    let mut calibrations: BTreeMap<&str, Calibration> = (pairs.iter())
        .map(|(&kernel, pairs)| {
            let (units, weights) = population[kernel];
            let mean = weights / units as f64;
            (kernel, estimate::calibration(pairs, units, mean))
        })
        .collect();
    // The launches the cores' progress model times: those it scales that do not end in
    // the exact stretch, whose kernel is calibrated. Their strata's units are timed, but
    // those in the exact stretch of launches it does not time (their cycles are known).
    let launches: BTreeSet<usize> = (progress.units.range(exact..).map(|(_, &l)| l))
        .filter(|l| calibrations.contains_key(progress.kernels[l].as_str()))
        .collect();
    let in_timed_launch = |k: usize| (progress.units.get(&k)).is_some_and(|l| launches.contains(l));
    // Each timed stratum's kernel and calibration: its kernel's, a ramp's its own where
    // measured.
    let timed_strata: BTreeMap<&str, (&str, &str)> = (0..units.len())
        .filter(|&k| in_timed_launch(k))
        .map(|k| {
            let kernel = progress.kernel(k).unwrap_or_default();
            let ramp = (is_ramp(&units[k]))
                .then(|| calibrations.get_key_value(ramp_of(kernel).as_str()))
                .flatten();
            (
                units[k].stratum.as_str(),
                (kernel, ramp.map_or(kernel, |(&ramp, _)| ramp)),
            )
        })
        .collect();
    let timed = |k: usize| {
        in_timed_launch(k) || (k >= exact && timed_strata.contains_key(units[k].stratum.as_str()))
    };
    // Each checked unit's cycles after the run's warm-up and after the check's, in unit
    // order and by stratum. The units the model times are left out, and not corrected: a
    // longer detailed warm-up also carries a copy part of the way from the functional
    // run's lock step to the order detail runs the cores and warps in, which the model
    // accounts for (`progress.rs`), so that the two would count it twice.
    let mut pairs = Vec::new();
    let mut by_stratum: BTreeMap<&str, Vec<(f64, f64)>> = BTreeMap::new();
    for c in checks.iter().filter(|c| !timed(c.unit)) {
        if let Some(short) = cycles[c.unit] {
            let pair = (short as f64, c.cycles as f64);
            pairs.push(pair);
            by_stratum
                .entry(&units[c.unit].stratum)
                .or_default()
                .push(pair);
        }
    }
    let check = (!pairs.is_empty()).then(|| estimate::check_ratio(&pairs));
    // With one unit checked the ratio's spread is unknown: it is reported, not applied.
    let applied = check.filter(|_| pairs.len() >= 2);
    // A stratum with `OWN_CHECK` units checked or more is corrected by its own ratio, the
    // others by the run's (Cochran's separate and combined ratio estimators, 6.10): the
    // bias a warm-up leaves differs with what the units are.
    let run = applied.map(|(ratio, variance)| Correction::new(None, ratio, variance, pairs.len()));
    let own: BTreeMap<&str, Correction> = (by_stratum.iter())
        .filter(|(_, own)| own.len() >= OWN_CHECK)
        .map(|(&name, own)| {
            let (ratio, variance) = estimate::check_ratio(own);
            (
                name,
                Correction::new(Some(name), ratio, variance, own.len()),
            )
        })
        .collect();
    let correction = |stratum: &str| own.get(stratum).copied().or(run);
    let post = post_strata(units, &cycles, timed);
    // The units the model times are left out of their strata's ratio estimates and are
    // their launches' time by place, shared by their weights, in cycles.
    let mut timed_in: BTreeMap<&str, Timed> = BTreeMap::new();
    let mut strata: BTreeMap<&str, Vec<Unit>> = BTreeMap::new();
    // The strata whose measured units a correction scaled, and each stratum's exact cycles.
    let mut corrected: BTreeMap<&str, Correction> = BTreeMap::new();
    let mut exact_in: BTreeMap<&str, u64> = BTreeMap::new();
    for (k, (u, c)) in units.iter().zip(&cycles).enumerate() {
        let stratum = strata.entry(&post[k]).or_default();
        if timed(k) {
            stratum.push(Unit {
                instructions: u.instructions,
                cycles: c.map(|c| c as f64),
                timed: true,
            });
            let (kernel, calibration) = timed_strata[u.stratum.as_str()];
            (timed_in
                .entry(&u.stratum)
                .or_insert_with(|| Timed::new(kernel, calibration)))
            .add(
                weight(k),
                progress.ratio(k).unwrap_or(1.0),
                progress.lone_warp_ratios(k),
            );
            continue;
        }
        let correction = correction(&u.stratum).filter(|_| k >= exact);
        match (correction, c) {
            (Some(r), Some(_)) => {
                corrected.insert(&post[k], r);
            }
            (None, Some(c)) if k < exact => *exact_in.entry(&post[k]).or_default() += c,
            _ => {}
        }
        let cycles = c.map(|c| c as f64 * correction.map_or(1.0, |r| r.ratio));
        match (u.with_head, stratum.last_mut()) {
            // A short launch's head and tail are one unit of its stratum: the launch.
            (true, Some(head)) => {
                head.instructions += u.instructions;
                head.cycles = head.cycles.zip(cycles).map(|(h, t)| h + t);
            }
            _ => stratum.push(Unit {
                instructions: u.instructions,
                cycles,
                timed: false,
            }),
        }
    }
    let mut estimated: Vec<_> = (strata.iter())
        .map(|(name, units)| estimate::stratum(name, units))
        .collect();
    // Strata measured once of several, and calibrations from one full unit of several,
    // have no spread of their own: each kind collapsed (`estimate::collapse`) takes the
    // relative spread of its ratios, one of a kind alone the other kind's. The two are
    // kept apart, a stratum's ratio being cycles a warp instruction and a calibration's
    // cycles a cycle of the model's.
    let once: Vec<(usize, estimate::Once)> = (estimated.iter().enumerate())
        .filter_map(|(i, e)| Some((i, e.once?)))
        .collect();
    let lone: Vec<&str> = (calibrations.iter())
        .filter(|(_, c)| c.relative_variance.is_nan())
        .map(|(&kernel, _)| kernel)
        .collect();
    let strata_spread = estimate::collapse(&once.iter().map(|(_, o)| o.ratio).collect::<Vec<_>>())
        .map(|s| (s, once.len() as u32));
    let calibrations_spread = estimate::collapse(
        &lone
            .iter()
            .map(|k| calibrations[k].ratio)
            .collect::<Vec<_>>(),
    )
    .map(|s| (s, lone.len() as u32));
    let mut df: u32 = 0;
    if let Some((spread, strata)) = strata_spread.or(calibrations_spread) {
        for &(i, o) in &once {
            let e = &mut estimated[i];
            e.variance = o.fpc * e.stratum.cycles.powi(2) * spread.variance;
            e.stratum.half_width = t975(spread.df) * e.variance.sqrt();
            e.stratum.collapsed = Some(strata);
        }
        df += spread.df;
    }
    if let Some((spread, strata)) = calibrations_spread.or(strata_spread) {
        for kernel in lone {
            let c = calibrations.get_mut(kernel).expect("a calibration");
            c.relative_variance = (1.0 - 1.0 / population[kernel].0 as f64) * spread.variance;
            c.df = spread.df;
            c.collapsed = Some(strata);
        }
    }
    let mut variance: f64 = estimated.iter().map(|e| e.variance).sum();
    df += estimated.iter().map(|e| e.degrees_of_freedom).sum::<u32>();
    // A corrected part of the estimate is its ratio times what its strata give from the
    // units measured after the run's warm-up: its variance adds that of the ratio (times
    // the square of its strata's estimate less their exact units', an upper bound of the
    // part it scales), and the interval takes the fewest degrees of freedom.
    let mut parts: BTreeMap<Option<&str>, (Correction, f64)> = BTreeMap::new();
    for e in &mut estimated {
        let Some(&r) = corrected.get(e.stratum.name.as_str()) else {
            continue;
        };
        e.stratum.check_ratio = Some(r.ratio);
        let exact = exact_in.get(e.stratum.name.as_str()).copied().unwrap_or(0);
        parts.entry(r.of).or_insert((r, 0.0)).1 += e.stratum.cycles - exact as f64;
    }
    for (r, part) in parts.values() {
        variance += part * part * r.variance / (r.ratio * r.ratio);
        df = fewest(df, r.df);
    }
    // A stratum's units the model times add their part: the calibration times their
    // weights times their launches' ratios, whose variance is the calibration's, and the
    // lone warps' spread (`estimate::lone_warps`) widens the interval by its own half
    // width in quadrature (the rest of the model's error is not in it). The strata that
    // share a calibration have its variance added once, for their parts together, and a
    // kernel's strata share its probes, so the lone warps' spread is of their parts
    // together in cycles.
    let mut by_calibration: BTreeMap<&str, f64> = BTreeMap::new();
    let mut lone_parts: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for e in &mut estimated {
        let Some(timed) = timed_in.get(e.stratum.name.as_str()) else {
            continue;
        };
        let c = calibrations[timed.calibration];
        let part = c.ratio * timed.weighed;
        *by_calibration.entry(timed.calibration).or_default() += part;
        let parts = lone_parts.entry(timed.kernel).or_default();
        parts.resize(timed.by_lone_warp.len(), 0.0);
        for (sum, w) in parts.iter_mut().zip(&timed.by_lone_warp) {
            *sum += c.ratio * w;
        }
        let own = e.variance + part * part * c.relative_variance;
        let df = fewest(e.degrees_of_freedom, c.df);
        if own != 0.0 {
            e.stratum.half_width = unbounded_if_nan(t975(df) * own.sqrt());
        }
        let lone = timed.lone_warps(c.ratio).half_width();
        e.stratum.half_width = e.stratum.half_width.hypot(lone);
        e.stratum.cycles += part;
        e.stratum.calibration = Some(c.ratio);
        e.stratum.collapsed = c.collapsed;
        e.stratum.weight = Some(timed.weights);
        e.stratum.progress_ratio = Some(timed.weighed / timed.weights);
    }
    let mut lone = Spread::default();
    for (calibration, part) in by_calibration {
        let c = calibrations[calibration];
        variance += part * part * c.relative_variance;
        df = fewest(df, c.df);
    }
    for parts in lone_parts.values() {
        lone = lone.and(estimate::lone_warps(parts));
    }
    let total: f64 = estimated.iter().map(|e| e.stratum.cycles).sum();
    let half_width = if variance == 0.0 {
        0.0
    } else {
        // NaN (a stratum measured once of several) gives an unbounded interval.
        unbounded_if_nan(t975(df) * variance.sqrt())
    };
    let half_width = half_width.hypot(lone.half_width());
    let known: f64 = cycles[..exact].iter().flatten().map(|&c| c as f64).sum();
    let check_cycles = |unit: usize| (checks.iter()).find(|c| c.unit == unit).map(|c| c.cycles);
    Sampling {
        every: plan.every,
        period: plan.period,
        warmup_units: plan.warmup_units,
        warm_caches: plan.warm_caches,
        cluster: plan.cluster,
        check_warmup: plan.check_warmup,
        progress: plan.progress,
        launch_progress: (launches.iter())
            .map(|l| progress.launches[l].clone())
            .collect(),
        probes: progress.probes.clone(),
        // The caller's, from its interleaving check (`order.rs`) and its budget.
        interleaving: None,
        budget: None,
        check: check.map(|(ratio, ratio_variance)| WarmupCheck {
            units: pairs.len() as u32,
            applied: applied.is_some(),
            ratio,
            ratio_half_width: unbounded_if_nan(
                t975(pairs.len() as u32 - 1) * ratio_variance.sqrt(),
            ),
        }),
        units: units.len() as u32,
        sampled_units: units.iter().filter(|u| u.sampled).count() as u32,
        detailed_instructions: (measured.iter().chain(&checks))
            .map(|m| m.detailed_instructions)
            .sum(),
        instructions: units.iter().map(|u| u.instructions).sum(),
        cycles: total,
        // An interval wide enough to reach below the run's start simulated whole ends there
        // (the collapsed strata's can: `estimate::collapse`).
        cycles_low: (total - half_width).max(known),
        cycles_high: total + half_width,
        degrees_of_freedom: df,
        lone_warp_half_width: lone.half_width(),
        whole_run,
        strata: estimated.into_iter().map(|e| e.stratum).collect(),
        measured: (measured.iter())
            .map(|m| {
                let u = &units[m.unit];
                MeasuredUnit {
                    unit: m.unit as u32,
                    stratum: post[m.unit].clone(),
                    launches_from: u.launches.0 as u32,
                    launches_to: u.launches.1 as u32,
                    whole_launches: u.whole_launches,
                    instructions: u.instructions,
                    cycles: m.cycles,
                    check_cycles: check_cycles(m.unit),
                    weight: progress.weights.get(&m.unit).copied(),
                    calibrates: progress.full.contains_key(&m.unit) && !u.octave_first,
                    octave_first: u.octave_first,
                }
            })
            .collect(),
    }
}

/// Each unit's stratum for the estimate: its own, but for a launch body or tail that the
/// cores' progress model does not time, split after the fact by the octave of its warps
/// (post-stratification, Cochran 5A.9). A body stratum pools every launch of its kernel,
/// and where one launch's last units are a few heavy warps draining (a search's level
/// with a hub) they run many times slower a warp instruction than another launch's
/// units with every warp at work: measured on BFS VM push on the UK stand-in at its quick
/// size (units of 20k), one such unit of 38 (13.5 cycles a warp instruction, the others
/// 1.0-2.6) made the estimate 3.06x the run's, 1.28x post-stratified (docs/ARCHITECTURE.md,
/// "Sampled simulation", item 16). A unit goes to the nearest octave with a measured unit
/// (the lower on a tie), so every post-stratum has one; the first unit of each octave is
/// measured (`Seen::octave_first`), as the plan's choice may leave a drain's octave the only
/// one measured (item 19). A tail is a launch's drain and the work left before it, whose
/// time goes with the warps still at work more than with their instructions (item 22).
/// The model's launches time their draining warps themselves.
fn post_strata(
    units: &[Seen],
    cycles: &[Option<u64>],
    timed: impl Fn(usize) -> bool,
) -> Vec<String> {
    let mut measured: BTreeMap<&str, BTreeSet<u32>> = BTreeMap::new();
    let mut split: BTreeMap<&str, bool> = BTreeMap::new();
    for (k, u) in units.iter().enumerate() {
        let Some(o) = u.octave else { continue };
        *split.entry(&u.stratum).or_insert(true) &= !timed(k);
        if cycles[k].is_some() {
            measured.entry(&u.stratum).or_default().insert(o);
        }
    }
    (units.iter())
        .map(|u| {
            let (Some(o), Some(true), Some(octaves)) = (
                u.octave,
                split.get(u.stratum.as_str()).copied(),
                measured.get(u.stratum.as_str()),
            ) else {
                return u.stratum.clone();
            };
            let nearest = (octaves.iter())
                .min_by_key(|&&m| m.abs_diff(o))
                .expect("a measured octave");
            let name = u.stratum.strip_suffix(')').unwrap_or(&u.stratum);
            format!("{name}, 2^{nearest} warps)")
        })
        .collect()
}

/// How many warps a unit's work is spread over: the inverse Simpson index of its warp
/// instructions by warp, (sum n)^2 / sum n^2 (every warp alike: their number; one heavy
/// warp among light ones: about 1), at least 1.
fn effective_warps(by_warp: &[u64]) -> u32 {
    let (sum, squares) = (by_warp.iter()).fold((0.0, 0.0), |(s, q), &n| {
        let n = n as f64;
        (s + n, q + n * n)
    });
    if squares == 0.0 {
        return 1;
    }
    ((sum * sum / squares) as u32).max(1)
}

/// A warm-up check's ratio that corrects some strata: a stratum's own (`of`) or the run's.
#[derive(Clone, Copy)]
struct Correction<'a> {
    of: Option<&'a str>,
    ratio: f64,
    variance: f64,
    /// Its pairs less one.
    df: u32,
}

impl<'a> Correction<'a> {
    fn new(of: Option<&'a str>, ratio: f64, variance: f64, pairs: usize) -> Self {
        Correction {
            of,
            ratio,
            variance,
            df: pairs as u32 - 1,
        }
    }
}

/// The degrees of freedom of a sum of two estimates' (none: 0): the fewer.
fn fewest(a: u32, b: u32) -> u32 {
    match (a, b) {
        (0, d) | (d, 0) => d,
        _ => a.min(b),
    }
}

/// A stratum's units the cores' progress model times (`progress.rs`): their kernel (whose
/// probes they share) and calibration, their weights, their weights times their launches'
/// ratios, and the same with each probed lone warp's ratios in turn.
struct Timed<'a> {
    kernel: &'a str,
    calibration: &'a str,
    weights: f64,
    weighed: f64,
    by_lone_warp: Vec<f64>,
}

impl<'a> Timed<'a> {
    fn new(kernel: &'a str, calibration: &'a str) -> Self {
        Timed {
            kernel,
            calibration,
            weights: 0.0,
            weighed: 0.0,
            by_lone_warp: Vec::new(),
        }
    }

    /// A unit of weight `weight` in a launch of ratio `ratio`, `lone_warp_ratios` with each
    /// probed lone warp (a kernel's launches share its probes: as many for each).
    fn add(&mut self, weight: f64, ratio: f64, lone_warp_ratios: &[f64]) {
        self.weights += weight;
        self.weighed += weight * ratio;
        self.by_lone_warp.resize(lone_warp_ratios.len(), 0.0);
        for (sum, r) in self.by_lone_warp.iter_mut().zip(lone_warp_ratios) {
            *sum += weight * r;
        }
    }

    /// The lone warps' variance of their part in cycles at calibration `calibration`.
    fn lone_warps(&self, calibration: f64) -> Spread {
        let parts: Vec<f64> = self.by_lone_warp.iter().map(|w| calibration * w).collect();
        estimate::lone_warps(&parts)
    }
}

/// A half width whose variance could not be estimated (NaN) is unbounded.
fn unbounded_if_nan(half_width: f64) -> f64 {
    if half_width.is_nan() {
        f64::INFINITY
    } else {
        half_width
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wsim_sim::stats::LaunchProgress;

    fn seen(stratum: &str, instructions: u64) -> Seen {
        Seen {
            stratum: stratum.to_string(),
            instructions,
            launches: (0, 0),
            whole_launches: false,
            sampled: true,
            fills: 0,
            octave: None,
            octave_first: false,
            placed: false,
            with_head: false,
        }
    }

    fn measured(unit: usize, cycles: u64, check: bool) -> Measured {
        Measured {
            unit,
            cycles,
            detailed_instructions: 0,
            check,
            by_warp: Vec::new(),
            probes: Vec::new(),
        }
    }

    /// A check's warm-up goes back until it has refilled the last-level cache twice, at
    /// least one unit and at most the plan's; without a warmed last-level cache, the
    /// plan's.
    #[test]
    fn a_checks_warm_up_ends_once_it_has_refilled_the_last_level_cache() {
        assert_eq!(
            REFILLS, 2,
            "the cases below refill a cache of 100 lines twice"
        );
        let units = |fills: &[u64]| -> Vec<Seen> {
            (fills.iter())
                .map(|&f| Seen {
                    fills: f,
                    ..seen("s", 10)
                })
                .collect()
        };
        // Back from unit 5: 60, 90, then 240 filled at unit 2.
        assert_eq!(check_from(&units(&[0, 50, 150, 30, 60]), 8, 100), 2);
        // The plan's bound comes first.
        assert_eq!(check_from(&units(&[0, 50, 150, 30, 60]), 2, 100), 3);
        // One unit that refills it is enough; none never is.
        assert_eq!(check_from(&units(&[400, 500]), 8, 100), 1);
        assert_eq!(check_from(&units(&[]), 8, 100), 0);
        // Too little filled, or no last-level cache warmed: the plan's units.
        assert_eq!(check_from(&units(&[10; 12]), 8, 100), 4);
        assert_eq!(check_from(&units(&[500; 12]), 8, 0), 4);
    }

    /// A launch the cores' progress model times is its time by place (the units' weights
    /// times its ratio) in cycles, by its kernel's measured full units' cycles over their
    /// weights: its drain's and its tail's copies, measured, calibrate nothing. Units 1-4
    /// are its body (1-3 full), 5 its tail, its ratio 1.2; full units 2 and 3 measured at
    /// 110 and 90 cycles for weights of 100: calibration 1.0, the body (100 + 100 + 100 +
    /// 300) x 1.2 = 720, the tail 200 x 1.2 = 240.
    #[test]
    fn a_timed_launch_is_its_time_by_place_calibrated_by_its_full_units() {
        let s = timed_launch(Vec::new());
        let stratum = |name: &str| (s.strata.iter()).find(|h| h.name == name).unwrap();
        let body = stratum("k (launch body)");
        assert!((body.cycles - 720.0).abs() < 1e-9, "{body:?}");
        assert_eq!((body.calibration, body.weight), (Some(1.0), Some(600.0)));
        assert!((body.progress_ratio.unwrap() - 1.2).abs() < 1e-12);
        assert!((stratum("k (launch tail)").cycles - 240.0).abs() < 1e-9);
        assert!((s.cycles - 1010.0).abs() < 1e-9, "{}", s.cycles);
        // The calibration's variance: residuals 10 and -10, S^2 = 200, (1 - 2/3) 200 /
        // (2 x 100^2), for the 960 cycles it turns; Student's t with one degree of freedom.
        let half = 12.706 * (960.0f64.powi(2) * 200.0 / 3.0 / 20_000.0).sqrt();
        assert!((s.cycles_high - s.cycles - half).abs() < 1e-6, "{s:?}");
        assert_eq!(s.launch_progress.len(), 1);
    }

    /// The run above: units 1-5 a launch of ratio 1.2, its full units 2 and 3 measured,
    /// with the launch's ratio under each probed lone warp `lone_warp_ratios`.
    fn timed_launch(lone_warp_ratios: Vec<f64>) -> Sampling {
        let mut units = vec![seen("first", 100)];
        units.extend((0..4).map(|_| seen("k (launch body)", 100)));
        units.push(seen("k (launch tail)", 100));
        let all =
            [(0, 50), (2, 110), (3, 90), (4, 999), (5, 888)].map(|(u, c)| measured(u, c, false));
        let progress = launch_of_k(1.2, lone_warp_ratios);
        estimate(&units, &all, &progress, &Plan::default(), false)
    }

    /// Units 1-5 a launch of kernel `k` at `ratio`: weights 100, 100, 100 (full), 300
    /// (its drain) and 200 (its tail).
    fn launch_of_k(ratio: f64, lone_warp_ratios: Vec<f64>) -> Scaling {
        let mut progress = Scaling::default();
        progress.launches.insert(
            1,
            LaunchProgress {
                launch: 1,
                ratio,
                lone_warp_ratios,
                ..LaunchProgress::default()
            },
        );
        progress.kernels.insert(1, "k".to_string());
        for (unit, weight) in [(1, 100.0), (2, 100.0), (3, 100.0), (4, 300.0), (5, 200.0)] {
            progress.units.insert(unit, 1);
            progress.weights.insert(unit, weight);
        }
        progress.full = (1..=3).map(|u| (u, "k".to_string())).collect();
        progress
    }

    /// Two strata measured once of two units each, at 1 and 3 cycles a warp instruction:
    /// collapsed, their relative spread 0.5 (`estimate::collapse`), each stratum's variance
    /// (1 - 1/2) its estimate squared times 0.5, at one degree of freedom; the interval's
    /// low end no lower than the run's start (unit 0, exact).
    #[test]
    fn strata_measured_once_collapse_into_an_interval() {
        let mut units = vec![seen("first", 100)];
        units.extend((0..2).map(|_| seen("a (launch head)", 100)));
        units.extend((0..2).map(|_| seen("b (launch head)", 100)));
        let all = [(0, 50), (2, 100), (3, 300)].map(|(u, c)| measured(u, c, false));
        let s = estimate(&units, &all, &Scaling::default(), &Plan::default(), false);
        let stratum = |name: &str| (s.strata.iter()).find(|h| h.name == name).unwrap();
        let (a, b) = (stratum("a (launch head)"), stratum("b (launch head)"));
        assert_eq!((a.cycles, b.cycles), (200.0, 600.0));
        let variance = |cycles: f64| 0.5 * cycles * cycles * 0.5;
        assert!((a.half_width - 12.706 * variance(200.0).sqrt()).abs() < 1e-9);
        assert_eq!((a.collapsed, b.collapsed), (Some(2), Some(2)));
        assert_eq!(stratum("first").collapsed, None);
        let half = 12.706 * (variance(200.0) + variance(600.0)).sqrt();
        assert!((s.cycles_high - s.cycles - half).abs() < 1e-6, "{s:?}");
        assert_eq!(s.degrees_of_freedom, 1);
        assert_eq!(s.cycles_low, 50.0, "the run's start, simulated whole");
    }

    /// A stratum's draws are its own: the same places whichever strata came before it.
    #[test]
    fn a_stratums_places_do_not_move_with_other_strata() {
        let places = |others: &[&str]| {
            let mut choice = Choice::new(4);
            for other in others {
                choice.measures(other);
            }
            (0..40)
                .map(|_| choice.measures("k (launch body)"))
                .collect::<Vec<_>>()
        };
        let alone = places(&[]);
        assert_eq!(alone[..2], [Some(false), Some(false)]);
        assert_eq!(
            alone.iter().filter(|m| **m == Some(true)).count(),
            9,
            "{alone:?}"
        );
        assert_eq!(places(&["k (first launch head)", "j (launch tail)"]), alone);
    }

    /// Three short launches, each a head of 100 warp instructions and a tail of 20 (with
    /// it), the first and the last measured (head 50 and 80 cycles, tail 70 and 100): the
    /// ratio estimator reads launches, (120 + 180) / 240 cycles a warp instruction, never a
    /// tail's 3.5-5 alone, and has one degree of freedom: two launches measured.
    #[test]
    fn a_short_launchs_head_and_tail_are_one_unit_of_its_stratum() {
        let mut units = vec![seen("first", 100)];
        for _ in 0..3 {
            units.push(seen("k (short launch)", 100));
            units.push(Seen {
                with_head: true,
                ..seen("k (short launch)", 20)
            });
        }
        let all =
            [(0, 40), (1, 50), (2, 70), (5, 80), (6, 100)].map(|(u, c)| measured(u, c, false));
        let s = estimate(&units, &all, &Scaling::default(), &Plan::default(), false);
        let short = (s.strata.iter())
            .find(|h| h.name == "k (short launch)")
            .unwrap();
        assert_eq!((short.units, short.sampled_units), (3, 2));
        assert!(
            (short.cycles - 360.0 * 300.0 / 240.0).abs() < 1e-9,
            "{short:?}"
        );
        assert_eq!(s.degrees_of_freedom, 1);
    }

    /// The timed launch above with one of its three full units measured has no spread of
    /// its calibration; with two strata measured once beside it (1 and 3 cycles a warp
    /// instruction, relative spread 0.5) it takes theirs, (1 - 1/3) 0.5.
    #[test]
    fn a_calibration_from_one_unit_takes_the_collapsed_strata_spread() {
        let mut units = vec![seen("first", 100)];
        units.extend((0..4).map(|_| seen("k (launch body)", 100)));
        units.push(seen("k (launch tail)", 100));
        units.extend((0..2).map(|_| seen("a (launch head)", 100)));
        units.extend((0..2).map(|_| seen("b (launch head)", 100)));
        let progress = launch_of_k(1.0, Vec::new());
        let all = [(0, 50), (2, 100), (6, 100), (8, 300)].map(|(u, c)| measured(u, c, false));
        let s = estimate(&units, &all, &progress, &Plan::default(), false);
        let body = (s.strata.iter())
            .find(|h| h.name == "k (launch body)")
            .unwrap();
        // Calibration 1.0: the body 600 cycles, the tail 200, the heads 200 and 600.
        assert!((body.cycles - 600.0).abs() < 1e-9, "{body:?}");
        assert_eq!(body.collapsed, Some(2));
        let relative = (1.0 - 1.0 / 3.0) * 0.5;
        assert!((body.half_width - 12.706 * (600.0f64.powi(2) * relative).sqrt()).abs() < 1e-6);
        let heads = 0.25 * (200.0f64.powi(2) + 600.0f64.powi(2));
        let half = 12.706 * (heads + 800.0f64.powi(2) * relative).sqrt();
        assert!((s.cycles_high - s.cycles - half).abs() < 1e-6, "{s:?}");
    }

    /// Two timed launches of two kernels, each calibrated by one of its three full units
    /// (1.0 and 3.0 cycles a weight) and no stratum measured once: the calibrations
    /// collapse among themselves, relative spread 0.5, each (1 - 1/3) 0.5.
    #[test]
    fn calibrations_from_one_unit_each_collapse_together() {
        let mut units = vec![seen("first", 100)];
        units.extend((0..4).map(|_| seen("k (launch body)", 100)));
        units.extend((0..4).map(|_| seen("m (launch body)", 100)));
        let mut progress = Scaling::default();
        for (launch, kernel) in [(1, "k"), (2, "m")] {
            progress.launches.insert(
                launch,
                LaunchProgress {
                    launch: launch as u32,
                    ratio: 1.0,
                    ..LaunchProgress::default()
                },
            );
            progress.kernels.insert(launch, kernel.to_string());
            for unit in 4 * launch - 3..=4 * launch {
                progress.units.insert(unit, launch);
                progress.weights.insert(unit, 100.0);
            }
            for unit in 4 * launch - 3..4 * launch {
                progress.full.insert(unit, kernel.to_string());
            }
        }
        let all = [(0, 50), (2, 100), (6, 300)].map(|(u, c)| measured(u, c, false));
        let s = estimate(&units, &all, &progress, &Plan::default(), false);
        let stratum = |name: &str| (s.strata.iter()).find(|h| h.name == name).unwrap();
        let (k, m) = (stratum("k (launch body)"), stratum("m (launch body)"));
        assert_eq!((k.cycles, m.cycles), (400.0, 1200.0));
        assert_eq!((k.collapsed, m.collapsed), (Some(2), Some(2)));
        let relative: f64 = (1.0 - 1.0 / 3.0) * 0.5;
        assert!(
            (m.half_width - 12.706 * 1200.0 * relative.sqrt()).abs() < 1e-6,
            "{m:?}"
        );
        let half = 12.706 * ((400.0f64.powi(2) + 1200.0f64.powi(2)) * relative).sqrt();
        assert!((s.cycles_high - s.cycles - half).abs() < 1e-6, "{s:?}");
    }

    /// With each lone warp's ratio the launch's 800 of weight at calibration 1.0 is 880 or
    /// 1,040 cycles: s^2 = 12,800, a prediction's variance 12,800 (1 + 1/2), at t with one
    /// degree of freedom; the interval is the calibration's and that in quadrature, and
    /// the body stratum's (600 of weight: 660 or 780) likewise.
    #[test]
    fn the_lone_warps_spread_widens_the_interval_in_quadrature() {
        let without = timed_launch(Vec::new());
        let with = timed_launch(vec![1.1, 1.3]);
        assert_eq!(with.cycles, without.cycles);
        let lone = 12.706 * (12_800.0f64 * 1.5).sqrt();
        assert!((with.lone_warp_half_width - lone).abs() < 1e-6, "{with:?}");
        let sampling = without.cycles_high - without.cycles;
        let half = with.cycles_high - with.cycles;
        assert!((half - sampling.hypot(lone)).abs() < 1e-6, "{half}");
        let body = |s: &Sampling| {
            (s.strata.iter())
                .find(|h| h.name == "k (launch body)")
                .unwrap()
                .half_width
        };
        let body_lone = 12.706 * (7_200.0f64 * 1.5).sqrt();
        let expected = body(&without).hypot(body_lone);
        assert!((body(&with) - expected).abs() < 1e-6, "{with:?}");
    }

    /// Bodies whose check says their warm-up was enough and tails whose check says it was
    /// half of it: each stratum checked `OWN_CHECK` times is corrected by its own ratio; a
    /// stratum checked fewer times by the run's.
    #[test]
    fn a_stratum_checked_often_enough_is_corrected_by_its_own_ratio() {
        assert_eq!(
            OWN_CHECK, 4,
            "the cases below check four units of a stratum"
        );
        // Units 1-12 bodies, 13-18 tails, 19-24 of a stratum checked twice.
        let mut units = vec![seen("first", 100)];
        units.extend((0..12).map(|_| seen("body", 100)));
        units.extend((0..6).map(|_| seen("tail", 100)));
        units.extend((0..6).map(|_| seen("few", 100)));
        // Measured after the run's warm-up, and again after the check's.
        let checked = [
            (2, 101),
            (4, 99),
            (6, 100),
            (8, 100),
            (13, 200),
            (14, 204),
            (16, 202),
            (18, 202),
            (19, 300),
            (21, 300),
        ];
        let mut all = vec![measured(0, 100, false)];
        for (unit, check) in checked {
            all.push(measured(unit, 100, false));
            all.push(measured(unit, check, true));
        }
        all.push(measured(23, 100, false));
        all.sort_by_key(|m| (m.unit, m.check));
        let s = estimate(&units, &all, &Scaling::default(), &Plan::default(), false);
        let stratum = |name: &str| (s.strata.iter()).find(|h| h.name == name).unwrap();
        assert_eq!(stratum("body").check_ratio, Some(1.0));
        assert_eq!(stratum("tail").check_ratio, Some(2.02));
        assert_eq!(
            stratum("first").check_ratio,
            None,
            "the run's start is exact"
        );
        let run = s.check.as_ref().unwrap();
        assert!(run.applied && run.units == 10);
        assert_eq!(
            stratum("few").check_ratio,
            Some(run.ratio),
            "the run's ratio"
        );
        assert!((stratum("body").cycles - 1200.0).abs() < 1e-6);
        assert!((stratum("tail").cycles - 6.0 * 202.0).abs() < 1e-6);
        assert!((stratum("few").cycles - 600.0 * run.ratio).abs() < 1e-6);
    }

    #[test]
    fn a_body_untimed_is_estimated_by_the_octave_of_its_warps() {
        let body = |instructions, warps: u32| Seen {
            octave: Some(warps.ilog2()),
            ..seen("k (launch body)", instructions)
        };
        // A launch with every warp at work (units 1-4, 1 cycle a warp instruction) and
        // another's drain, one heavy warp (units 5-6, 10 cycles).
        let units = vec![
            seen("first", 100),
            body(100, 64),
            body(100, 70),
            body(100, 40),
            body(100, 127),
            body(100, 1),
            body(100, 3),
        ];
        let all = [
            measured(0, 100, false),
            measured(2, 100, false),
            measured(5, 1000, false),
        ];
        let s = estimate(&units, &all, &Scaling::default(), &Plan::default(), false);
        let stratum = |name: &str| (s.strata.iter()).find(|h| h.name == name);
        // Octaves 6 (64-127 warps, measured), 5 (40 warps: the nearest measured is 6),
        // 0 (1 warp, measured) and 1 (3 warps: the nearest measured is 0).
        let busy = stratum("k (launch body, 2^6 warps)").unwrap();
        assert_eq!((busy.units, busy.sampled_units), (4, 1));
        assert!((busy.cycles - 400.0).abs() < 1e-9);
        let drain = stratum("k (launch body, 2^0 warps)").unwrap();
        assert_eq!((drain.units, drain.sampled_units), (2, 1));
        assert!((drain.cycles - 2000.0).abs() < 1e-9);
        assert!(stratum("k (launch body)").is_none());
        // Pooled, the drain's unit would have made every unit 5.5 cycles a warp instruction.
        assert!((s.cycles - 2500.0).abs() < 1e-9);
    }

    #[test]
    fn a_body_without_octaves_keeps_its_stratum() {
        let units = vec![seen("k (launch body)", 100), seen("k (launch body)", 100)];
        let cycles = [Some(10), None];
        assert_eq!(
            post_strata(&units, &cycles, |_| false),
            ["k (launch body)", "k (launch body)"]
        );
        let warps = |w: u32| Seen {
            octave: Some(w.ilog2()),
            ..seen("k (launch body)", 100)
        };
        let units = vec![warps(64), warps(1)];
        // A stratum the model times is not split; nor is one with nothing measured.
        assert_eq!(
            post_strata(&units, &cycles, |_| true),
            ["k (launch body)", "k (launch body)"]
        );
        assert_eq!(
            post_strata(&units, &[None, None], |_| false),
            ["k (launch body)", "k (launch body)"]
        );
    }

    #[test]
    fn effective_warps_count_the_warps_the_work_is_spread_over() {
        assert_eq!(effective_warps(&[10, 10, 10, 10]), 4);
        assert_eq!(effective_warps(&[1000, 1, 1, 1, 0]), 1);
        assert_eq!(effective_warps(&[0, 0]), 1);
        assert_eq!(effective_warps(&[]), 1);
    }
}
