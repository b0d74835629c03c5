//! Sampled simulation (`wsim run --sample`): the run executes functionally to its end, so
//! its architectural results (memory, exit status, instruction counts, launches) are
//! exact, and some of its units are simulated in detail, each from a copy of the machine
//! taken as the functional run passed its start; the run's cycles are estimated from
//! theirs, with a 95% confidence interval (docs/ARCHITECTURE.md, "Sampled simulation").
//!
//! A unit ends where a launch ends (`wsim_spawn`'s kernels: a graph algorithm's
//! iterations and levels, a GCN layer's phases), so it is the code between two launches
//! and the launch after it. The strata are the first unit (the run's start and its first
//! launch: cold caches), the later units of each kernel and octave of warp instructions
//! (the architecture-free features the functional run gives: a BFS level with a large
//! frontier is unlike one with a small one), and the last unit (after the last launch):
//! the first and last are always simulated, and of a stratum's units the first two and
//! then one in `every`. A measured unit is preceded by units simulated in detail
//! and not measured, so that its caches, DRAM rows, Weaver tables and pipeline hold what
//! the run would have left there: `warmup_units` of them, and back to the previous unit
//! of its kernel when that is within [`REACH`] (PageRank alternates its gather and its
//! vertex update: the update's unit alone leaves the edges that the gather reads cold, and
//! the gather measured after it alone ran 4% slow). The copies are independent, so
//! `threads` simulate them at once; the estimate reads them in unit order, the same at
//! every thread count.

mod estimate;

use std::collections::{BTreeMap, VecDeque};
use std::sync::{mpsc, Arc, Mutex};

pub use estimate::{t975, Unit};
use wsim_sim::stats::Sampling;
use wsim_sim::{Machine, Mode, RunSummary, SimResult};

/// How a run is sampled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Of each kernel's units after its first two, one in `every` is simulated in detail.
    pub every: u32,
    /// Units simulated in detail, unmeasured, before each measured one (and back to the
    /// previous unit of its kernel, when there is one within [`REACH`]; 0: none).
    pub warmup_units: u32,
    /// Detailed simulations at once (besides the functional run).
    pub threads: usize,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            every: 10,
            warmup_units: 1,
            threads: 1,
        }
    }
}

/// Where a detailed simulation of a unit stops: when a number of launches have ended, or
/// at the run's end.
#[derive(Clone, Copy)]
enum End {
    Launches(usize),
    Exit,
}

/// One unit to simulate in detail: a copy of the machine at the start of its warm-up,
/// the launches ended when its measurement starts, and where it ends.
struct Job {
    unit: usize,
    machine: Machine,
    measure_from: usize,
    end: End,
}

/// A measured unit: its cycles, and the warp instructions simulated in detail for it.
struct Measured {
    unit: usize,
    cycles: u64,
    detailed_instructions: u64,
}

/// Launches ended so far.
fn ended(m: &Machine) -> usize {
    let cuts = m.cuts();
    cuts.launches - usize::from(cuts.launch_open)
}

fn measure(job: Job) -> SimResult<Measured> {
    let mut m = job.machine;
    let first = m.progress().instructions;
    m.run_until(|m| ended(m) >= job.measure_from)?;
    let start = m.cycle();
    match job.end {
        End::Launches(n) => m.run_until(|m| ended(m) >= n)?,
        End::Exit => m.run_until(|_| false)?,
    };
    Ok(Measured {
        unit: job.unit,
        cycles: m.cycle() - start,
        detailed_instructions: m.progress().instructions - first,
    })
}

/// Where the detailed simulations run: on the calling thread one after another, or on
/// worker threads fed through a bounded queue (so that the functional run, which is
/// faster, holds at most `threads` copies waiting).
enum Workers {
    Inline(Vec<SimResult<Measured>>),
    Pool {
        jobs: Option<mpsc::SyncSender<Job>>,
        results: mpsc::Receiver<SimResult<Measured>>,
        handles: Vec<std::thread::JoinHandle<()>>,
    },
}

impl Workers {
    fn new(threads: usize) -> Workers {
        if threads <= 1 {
            return Workers::Inline(Vec::new());
        }
        let (jobs, queue) = mpsc::sync_channel::<Job>(threads);
        let (done, results) = mpsc::channel();
        let queue = Arc::new(Mutex::new(queue));
        let handles = (0..threads)
            .map(|_| {
                let (queue, done) = (Arc::clone(&queue), done.clone());
                std::thread::spawn(move || loop {
                    let job = queue.lock().map(|q| q.recv());
                    let Ok(Ok(job)) = job else { break };
                    if done.send(measure(job)).is_err() {
                        break;
                    }
                })
            })
            .collect();
        Workers::Pool {
            jobs: Some(jobs),
            results,
            handles,
        }
    }

    fn submit(&mut self, job: Job) {
        match self {
            Workers::Inline(results) => results.push(measure(job)),
            Workers::Pool { jobs, .. } => {
                // A worker gone means it panicked: `finish` reports the missing result.
                let _ = jobs.as_ref().expect("open until finish").send(job);
            }
        }
    }

    /// Every result, in unit order.
    fn finish(self, expected: usize) -> SimResult<Vec<Measured>> {
        let mut all = match self {
            Workers::Inline(results) => results,
            Workers::Pool {
                mut jobs,
                results,
                handles,
            } => {
                jobs.take();
                let all: Vec<_> = results.iter().take(expected).collect();
                for h in handles {
                    let _ = h.join();
                }
                all
            }
        }
        .into_iter()
        .collect::<SimResult<Vec<Measured>>>()?;
        assert_eq!(all.len(), expected, "a detailed sample's thread panicked");
        all.sort_by_key(|m| m.unit);
        Ok(all)
    }
}

/// A unit as the functional run saw it.
struct Seen {
    stratum: String,
    instructions: u64,
    sampled: bool,
}

/// A measured unit's warm-up reaches back at most this many units for the previous unit
/// of its kernel (the copies of the machine kept).
const REACH: usize = 8;

/// The copies of the machine at the starts of the last units, each with its unit and
/// the launches ended there.
struct Starts {
    copies: VecDeque<(usize, usize, Machine)>,
    keep: usize,
}

impl Starts {
    fn push(&mut self, unit: usize, ended: usize, machine: &Machine) {
        self.copies.push_back((unit, ended, machine.clone()));
        if self.copies.len() > self.keep {
            self.copies.pop_front();
        }
    }

    /// The job that measures the current unit, from the copy at the start of unit `from`
    /// (or the earliest kept).
    fn job(&self, unit: usize, from: usize, end: End) -> Job {
        let (_, _, copy) = (self.copies.iter())
            .find(|(u, ..)| *u >= from)
            .expect("the current unit's start is kept");
        let (_, measure_from, _) = self
            .copies
            .back()
            .expect("the current unit's start is kept");
        Job {
            unit,
            machine: copy.clone(),
            measure_from: *measure_from,
            end,
        }
    }
}

/// Run `machine` to its end sampled by `plan`: the summary is the functional run's, with
/// mode [`Mode::Sampled`], `cycles` the estimate (rounded) and `sampling` how it was made.
pub fn run(machine: &mut Machine, plan: &Plan) -> SimResult<RunSummary> {
    let every = plan.every.max(1) as usize;
    let mut workers = Workers::new(plan.threads);
    let mut units: Vec<Seen> = Vec::new();
    let warmup = plan.warmup_units as usize;
    let mut starts = Starts {
        copies: VecDeque::new(),
        keep: warmup.max(REACH) + 1,
    };
    // Per kernel: its units so far and the last of them.
    let mut by_kernel: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let (mut unit_start, mut launches) = (0u64, 0usize);
    starts.push(0, 0, machine);
    machine.run_functional_until(|m| {
        let now = ended(m);
        if now == launches {
            return false;
        }
        // A launch ended: so does the unit (with every launch that ended in the round), and
        // the next starts here. The first is always measured, a kernel's first two and then
        // one in `every`.
        launches = now;
        let unit = units.len();
        let instructions = m.progress().instructions;
        let kernel = (m.launches().last()).and_then(|l| l.kernel.as_deref());
        // Its stratum: the kernel and the octave of its warp instructions (a level of a
        // search with a large frontier is unlike one with a small one).
        let octave = (instructions - unit_start).max(1).ilog2();
        let kernel = format!("{} (2^{octave} instructions)", kernel.unwrap_or("launch"));
        let (count, last) = by_kernel.entry(kernel.clone()).or_insert((0, unit));
        let (stratum, sampled) = if unit == 0 {
            ("first".to_string(), true)
        } else {
            *count += 1;
            (kernel, *count <= 2 || (*count - 1) % every == 0)
        };
        if sampled {
            // The warm-up: `warmup` units, and back to the kernel's previous unit (what it
            // touched is what this one touches) when that is within reach.
            let from = unit.saturating_sub(warmup);
            let from = if warmup > 0 && unit - *last <= REACH {
                from.min(*last)
            } else {
                from
            };
            workers.submit(starts.job(unit, from, End::Launches(now)));
        }
        *last = unit;
        units.push(Seen {
            stratum,
            instructions: instructions - unit_start,
            sampled,
        });
        unit_start = instructions;
        starts.push(unit + 1, now, m);
        false
    })?;
    // The last unit, after the last launch (or the whole run when it launched nothing), is
    // always measured.
    let instructions = machine.progress().instructions;
    if instructions > unit_start || units.is_empty() {
        let unit = units.len();
        units.push(Seen {
            stratum: if unit == 0 { "first" } else { "last" }.to_string(),
            instructions: instructions - unit_start,
            sampled: true,
        });
        workers.submit(starts.job(unit, unit.saturating_sub(warmup), End::Exit));
    }
    let jobs = units.iter().filter(|u| u.sampled).count();
    let measured = workers.finish(jobs)?;
    for m in &measured {
        let u = &units[m.unit];
        tracing::debug!(
            unit = m.unit,
            stratum = u.stratum,
            instructions = u.instructions,
            cycles = m.cycles,
            "unit measured"
        );
    }
    let mut summary = machine.summary();
    let record = estimate(&units, &measured, plan);
    summary.mode = Mode::Sampled;
    summary.cycles = record.cycles.round() as u64;
    summary.sampling = Some(record);
    Ok(summary)
}

/// The run's estimate from its units and the measured ones.
fn estimate(units: &[Seen], measured: &[Measured], plan: &Plan) -> Sampling {
    let mut cycles = vec![None; units.len()];
    for m in measured {
        cycles[m.unit] = Some(m.cycles);
    }
    let mut strata: BTreeMap<&str, Vec<Unit>> = BTreeMap::new();
    for (u, c) in units.iter().zip(&cycles) {
        strata.entry(&u.stratum).or_default().push(Unit {
            instructions: u.instructions,
            cycles: *c,
        });
    }
    let estimated: Vec<_> = (strata.iter())
        .map(|(name, units)| estimate::stratum(name, units))
        .collect();
    let total: f64 = estimated.iter().map(|e| e.stratum.cycles).sum();
    let variance: f64 = estimated.iter().map(|e| e.variance).sum();
    let df: u32 = estimated.iter().map(|e| e.degrees_of_freedom).sum();
    let half_width = if variance == 0.0 {
        0.0
    } else {
        // NaN (a stratum measured once of several) gives an unbounded interval.
        t975(df) * variance.sqrt()
    };
    let half_width = if half_width.is_nan() {
        f64::INFINITY
    } else {
        half_width
    };
    Sampling {
        every: plan.every,
        warmup_units: plan.warmup_units,
        units: units.len() as u32,
        sampled_units: units.iter().filter(|u| u.sampled).count() as u32,
        detailed_instructions: measured.iter().map(|m| m.detailed_instructions).sum(),
        instructions: units.iter().map(|u| u.instructions).sum(),
        cycles: total,
        cycles_low: total - half_width,
        cycles_high: total + half_width,
        degrees_of_freedom: df,
        strata: estimated.into_iter().map(|e| e.stratum).collect(),
    }
}
