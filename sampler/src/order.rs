//! The interleaving check: whether the run's work follows the order its warps run in.
//!
//! The estimate is of the trajectory the functional run took: its units are simulated in
//! detail from the machine it left, and their work is its work. A program whose work
//! follows the interleaving (BFS, SSSP and CC claim vertices and lower labels by atomics:
//! which update wins decides the work after it, even the number of super-steps) takes
//! another trajectory in a detailed run, and no interval from the units' spread holds that
//! distance: measured on SSSP VM pull on RN at 0.1, the functional run did 6.66% more warp
//! instructions than the detailed one, in 355 launches against 331 (docs/ARCHITECTURE.md,
//! "Sampled simulation", item 12). So the sampler runs the start of the program again,
//! functionally, with the rounds in the other order (`Machine::reverse_functional_order`)
//! and compares the instructions by PC with the run's at the same point: right after the
//! global barrier that ends the `K`th launch (`wsim_spawn`'s: every warp the launch started
//! has retired, whatever the order), `K` a power of two, or the run's end, the last such
//! point within [`SHARE`] of the run's warp instructions or [`FLOOR`] of them (a short run
//! is checked to its end). Only the launched kernels' own code is compared: `wsim_spawn`'s wait for a launch's warps turns as often as the order lets it,
//! and a core whose `main` the barrier released in the round runs on before the point.
//! The check is one-sided: work that followed the order in the first launches does in the
//! others, but the first launches (a search's first levels, with few vertices to contend
//! for) may not show what later ones would.
//!
//! Which way and how far the detailed trajectory moves is not measured here (it is the
//! arbiter's and the timing's); that the work moves at all is, so the report says the
//! interval does not hold it.

use std::collections::BTreeSet;

use wsim_sim::error::ErrorKind;
use wsim_sim::stats::Interleaving;
use wsim_sim::{Machine, SimResult};

/// The most of the run's warp instructions the check runs again: the launches before the
/// point compared hold at most this share of them, or [`FLOOR`].
const SHARE: f64 = 1.0 / 8.0;

/// Warp instructions the check may run again whatever the run's length: a third of a CPU
/// second functionally (docs/SPEED.md), so that a short run is checked to its end.
const FLOOR: u64 = 4_000_000;

/// Where a pass stands on the way to its points: after the `next` launch has ended, the
/// first global barrier released later.
struct Points {
    /// The launches the next point comes after (a power of two).
    next: usize,
    /// The releases counted when the `next`th launch had ended.
    releases: Option<u64>,
}

impl Points {
    fn new() -> Points {
        Points {
            next: 1,
            releases: None,
        }
    }

    /// Whether `m` stands at the point after `self.next` launches (before its next round);
    /// then the next point is after twice as many.
    fn reached(&mut self, m: &Machine) -> bool {
        if m.launches().len() < self.next {
            return false;
        }
        match self.releases {
            None => {
                self.releases = Some(m.global_barrier_releases());
                false
            }
            Some(r) if m.global_barrier_releases() > r => {
                self.next *= 2;
                self.releases = None;
                true
            }
            Some(_) => false,
        }
    }
}

/// The run's instructions by PC at a point (`OrderCheck::snapshots`: the points in order,
/// the run's end last).
struct Snapshot {
    /// The launches ended there.
    launches: usize,
    /// The run's warp instructions when it got there.
    instructions: u64,
    pcs: Vec<(u64, u64)>,
}

/// The check: a copy of the run's start for the other order, and the run's snapshots at
/// its points as it passes them.
pub(crate) struct OrderCheck {
    start: Machine,
    points: Points,
    snapshots: Vec<Snapshot>,
}

impl OrderCheck {
    /// From `machine`, which has not yet run (a copy of it is the other order's start).
    /// The run must count its instructions by PC (`Machine::count_pcs`).
    pub fn new(machine: &Machine) -> OrderCheck {
        OrderCheck {
            start: machine.clone(),
            points: Points::new(),
            snapshots: Vec::new(),
        }
    }

    /// Before each of the run's rounds: its instructions by PC when it stands at a point.
    pub fn observe(&mut self, m: &Machine) {
        if self.points.reached(m) {
            let mut pcs = Vec::new();
            m.counted_pcs(&mut pcs);
            self.snapshots.push(Snapshot {
                launches: m.launches().len(),
                instructions: m.progress().instructions,
                pcs,
            });
        }
    }

    /// After the run, `machine` at its end: the other order up to the last point within
    /// the budget ([`SHARE`], [`FLOOR`]), compared. `None` when no point is within it (a
    /// program whose first launch is longer). An error only when the run was stopped.
    pub fn finish(mut self, machine: &Machine) -> SimResult<Option<Interleaving>> {
        let instructions = machine.progress().instructions;
        let budget = (SHARE * instructions as f64).max(FLOOR as f64);
        let mut pcs = Vec::new();
        machine.counted_pcs(&mut pcs);
        self.snapshots.push(Snapshot {
            launches: machine.launches().len(),
            instructions,
            pcs,
        });
        let Some(point) = (self.snapshots.iter()).rposition(|s| s.instructions as f64 <= budget)
        else {
            return Ok(None);
        };
        let (at, end) = (&self.snapshots[point], point + 1 == self.snapshots.len());
        let mut other = self.start;
        other.count_pcs();
        other.reverse_functional_order();
        let mut points = Points::new();
        let mut passed = 0;
        let over = other.run_functional_until(|m| {
            passed += usize::from(points.reached(m));
            !end && passed > point
        });
        // A failure of the other order is the check's finding, not the run's; a stop
        // (Ctrl-C) is the user's, and stops the run.
        let over = match over {
            Ok(over) => over,
            Err(e) if matches!(e.kind, ErrorKind::Stopped) => return Err(e),
            Err(e) => {
                tracing::warn!("the interleaving check's other order failed: {e}");
                !end
            }
        };
        let there = over == end;
        let mut pcs = Vec::new();
        other.counted_pcs(&mut pcs);
        // The kernels' own instructions, by their index among the counted ones: `main`
        // may run on past the point on the cores after the one that released the barrier
        // in its round, as far as the order lets it.
        let kernels: BTreeSet<&str> = (other.launches().iter())
            .filter_map(|l| l.kernel.as_deref())
            .collect();
        let code: Vec<(u32, u32)> = (kernels.iter())
            .flat_map(|k| other.functions_named(k))
            .collect();
        let mut check = Interleaving {
            launches: at.launches as u32,
            instructions: at.instructions,
            reached: there && other.launches().len() == at.launches,
            ..Interleaving::default()
        };
        let mut k = 0;
        for (base, n) in other.code_ranges() {
            for pc in (0..n).map(|i| base + 4 * i) {
                if code.iter().any(|&(s, e)| (s..e).contains(&pc)) {
                    let run = at.pcs.get(k).copied().unwrap_or_default();
                    let reversed = pcs.get(k).copied().unwrap_or_default();
                    check.warp_instructions += run.0;
                    check.moved_warp_instructions += run.0.abs_diff(reversed.0);
                    check.thread_instructions += run.1;
                    check.moved_thread_instructions += run.1.abs_diff(reversed.1);
                }
                k += 1;
            }
        }
        Ok(Some(check))
    }
}
