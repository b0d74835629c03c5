//! A core: its warps, their functional execution (`exec`), the pipeline that times them
//! (`pipeline`), its local (shared) memory and barriers, and its statistics.

mod exec;
pub mod fpu;
pub mod pipeline;
pub mod simt_stack;
pub mod warp;
pub mod weaver;

use std::collections::BTreeMap;

pub use exec::{Effect, Executed};
use pipeline::Pipeline;
use warp::Warp;
use weaver::WeaverUnit;

use crate::profile::CoreProfile;
use crate::stats::{CoreCounters, CoreStats, Merge};
use crate::timeline::{CoreEvent, CoreTrace};

pub struct Core {
    /// Global core id.
    pub id: u32,
    pub warps: Vec<Warp>,
    /// Local (shared) memory contents and where they are mapped.
    pub local: Vec<u8>,
    local_base: u32,
    /// Local barriers in progress: id -> (count, warps arrived as a bit per warp).
    pub barriers: BTreeMap<u32, (u32, u32)>,
    /// Statistics phase set by the program through CSR 0x7C0.
    pub phase: u32,
    /// Counters of the current phase; folded into `stats` when the phase changes.
    pub counters: CoreCounters,
    pub stats: CoreStats,
    /// The last value the program wrote to the iteration CSR (0x7C6), and the write the
    /// machine has not yet seen (it cuts the iteration records).
    pub iteration: u32,
    pub iteration_mark: Option<u32>,
    /// Counters flushed since the machine last took them (the current iteration's share,
    /// and the current launch's).
    pub iteration_counters: CoreCounters,
    pub launch_counters: CoreCounters,
    pub pipe: Pipeline,
    /// The core cannot change state before this cycle unless a memory completion or a
    /// barrier release wakes it (0: awake).
    pub sleep_until: u64,
    /// The SparseWeaver unit, if the machine has one.
    weaver: Option<WeaverUnit>,
    /// The events the timeline shows, while one is recorded (`Machine::record_timeline`).
    pub trace: Option<CoreTrace>,
    /// Slots and instructions by PC, while the run is profiled (`Machine::profile_pcs`).
    pub profile: Option<CoreProfile>,
    /// What the machine must do after this cycle's instructions (an exit, a global
    /// barrier's arrival), by warp; the machine takes them after each cycle.
    pub effects: Vec<(usize, Effect)>,
    launch: Launch,
}

/// The warps a launch (`vx_wspawn`) started on the core and how many of them have exited:
/// one log event per launch, when the last exits.
#[derive(Clone, Copy, Debug, Default)]
struct Launch {
    start: u64,
    spawned: u32,
    exited: u32,
}

impl Core {
    /// A core; `weaver`: whether it has the Weaver unit.
    pub fn new(id: u32, config: &crate::Config, weaver: bool) -> Self {
        let g = &config.gpu;
        Core {
            id,
            warps: (0..g.warps_per_core)
                .map(|_| Warp::new(g.threads_per_warp))
                .collect(),
            local: vec![0; config.local_mem.size as usize],
            local_base: config.local_mem.base,
            barriers: BTreeMap::new(),
            phase: 0,
            counters: CoreCounters::default(),
            stats: CoreStats::default(),
            iteration: 0,
            iteration_mark: None,
            iteration_counters: CoreCounters::default(),
            launch_counters: CoreCounters::default(),
            pipe: Pipeline::new(config),
            sleep_until: 0,
            weaver: weaver.then(|| WeaverUnit::new(config)),
            trace: None,
            profile: None,
            effects: Vec::new(),
            launch: Launch::default(),
        }
    }

    /// Whether any warp of the core has live lanes.
    pub fn is_live(&self) -> bool {
        self.warps.iter().any(Warp::is_live)
    }

    fn set_phase(&mut self, phase: u32, now: u64) {
        if phase != self.phase {
            self.flush_counters();
            self.phase = phase;
            if let Some(t) = &mut self.trace {
                t.events.push(CoreEvent::Phase { at: now, phase });
            }
        }
    }

    /// Warp `w` was started at `now` by a `vx_wspawn`.
    fn warp_spawned(&mut self, w: usize, now: u64) {
        self.counters.warps_spawned += 1;
        if self.launch.spawned == self.launch.exited {
            self.launch = Launch {
                start: now,
                ..Launch::default()
            };
            self.effects.push((w, Effect::Launch { started: true }));
        }
        self.launch.spawned += 1;
        if let Some(t) = &mut self.trace {
            t.warp(CoreEvent::WarpStart {
                at: now,
                warp: w as u32,
            });
        }
    }

    /// Count warp `w`'s cycles in its own phase up to `now`.
    fn count_warp_phase(&mut self, w: usize, now: u64) {
        let warp = &mut self.warps[w];
        let spent = now - std::mem::replace(&mut warp.phase_since, now);
        if spent > 0 {
            self.stats.phase(warp.phase).warp_cycles += spent;
            self.iteration_counters.warp_cycles += spent;
            self.launch_counters.warp_cycles += spent;
        }
    }

    /// Warp `w` may have retired: its time stops counting at `end` (after the cycle of its
    /// last instruction).
    fn warp_left(&mut self, w: usize, end: u64) {
        if self.warps[w].is_live() {
            return;
        }
        self.count_warp_phase(w, end);
        if let Some(t) = &mut self.trace {
            t.warp(CoreEvent::WarpEnd {
                at: end,
                warp: w as u32,
            });
        }
        if w != 0 && self.launch.exited < self.launch.spawned {
            self.launch.exited += 1;
            let launch = self.launch;
            if launch.exited == launch.spawned {
                tracing::debug!(
                    core = self.id,
                    from = launch.start,
                    to = end,
                    warps = launch.spawned,
                    "launch: every spawned warp exited"
                );
                self.effects.push((w, Effect::Launch { started: false }));
            }
        }
    }

    /// Count every live warp's time in its phase up to `now` (before reading statistics).
    pub fn count_warp_phases(&mut self, now: u64) {
        for w in 0..self.warps.len() {
            if self.warps[w].is_live() {
                self.count_warp_phase(w, now);
            }
        }
    }

    /// Fold the current phase's counters into the statistics (and the iteration's).
    pub fn flush_counters(&mut self) {
        self.settle();
        let counters = std::mem::take(&mut self.counters);
        self.stats.phase(self.phase).merge(&counters);
        self.iteration_counters.merge(&counters);
        self.launch_counters.merge(&counters);
    }
}
