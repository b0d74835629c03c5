//! A core: its warps, their functional execution (`exec`), the pipeline that times them
//! (`pipeline`), its local (shared) memory and barriers, and its statistics. Its state is
//! its own: the machine drives it through the methods here (a cycle, a completion, a
//! global barrier's release) and reads it through accessors.

mod account;
mod barriers;
mod exec;
pub mod fpu;
mod functional;
pub mod local_memory;
pub mod pipeline;
pub mod simt_stack;
pub mod warp;
pub mod weaver;

use barriers::Barriers;
pub use exec::{Effect, Executed};
pub use functional::PcCounts;
use local_memory::LocalMemory;
use pipeline::{Pipeline, PortKind};
use warp::{Warp, WarpWait};
use weaver::WeaverUnit;

use wsim_isa::Decoded;

use crate::error::{ErrorKind, SimError, SimResult, Site};
use crate::profile::CoreProfile;
use crate::shared::Shared;
use crate::stats::{CoreCounters, CoreStats, Merge};
use crate::timeline::{CoreEvent, CoreSample, CoreTrace};

#[derive(Clone)]
pub struct Core {
    /// Global core id.
    id: u32,
    warps: Vec<Warp>,
    local: LocalMemory,
    barriers: Barriers,
    /// Statistics phase set by the program through CSR 0x7C0.
    phase: u32,
    /// Counters of the current phase; folded into `stats` at the next flush. Boxed, as a
    /// phase change swaps them with `left`'s.
    counters: Box<CoreCounters>,
    /// Counters of the other phases since the last flush (those the core left, and its
    /// warps' own phases' cycles), one entry a phase, never the current one: kernels mark
    /// phases per edge, and a change swaps counters here rather than folding them into
    /// `stats`'s map and the intervals' share each time.
    left: Vec<(u32, Box<CoreCounters>)>,
    stats: CoreStats,
    /// The warp instructions outside `counters` (in `stats` or `left`): a sampler asks
    /// [`Core::instructions`] every cycle, which then walks neither.
    past_instructions: u64,
    /// The last value the program wrote to the iteration CSR (0x7C6), and the write the
    /// machine has not yet seen (it cuts the iteration records).
    iteration: u32,
    iteration_mark: Option<u32>,
    /// Counters flushed since the machine last took them: its intervals' share
    /// (`Core::take_interval_counters`).
    interval_counters: CoreCounters,
    pipe: Pipeline,
    /// The core cannot change state before this cycle unless a memory completion or a
    /// barrier release wakes it (0: awake).
    sleep_until: u64,
    /// Parked (`Machine::park`): it issues nothing more, whatever wakes it.
    parked: bool,
    /// The SparseWeaver unit, if the machine has one.
    weaver: Option<WeaverUnit>,
    /// The events the timeline shows, while one is recorded (`Machine::record_timeline`).
    trace: Option<CoreTrace>,
    /// Slots and instructions by PC, while the run is profiled (`Machine::profile_pcs`).
    profile: Option<CoreProfile>,
    /// What the machine must do after this cycle's instructions (an exit, a global
    /// barrier's arrival), by warp; the machine takes them after each cycle.
    effects: Vec<(usize, Effect)>,
    /// A buffer for execution's record of accesses, reused from instruction to instruction.
    accesses: Vec<u32>,
    launch: Launch,
    /// While the functional mode warms the caches (`Core::warm_caches`): the lines its
    /// memory instructions requested, for the machine to present to the hierarchy.
    warming: Option<Vec<(u32, PortKind)>>,
    /// Instructions by PC, while the functional mode counts them (`Core::count_pcs`).
    counted: Option<PcCounts>,
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
            warps: (0..g.warps_per_core).map(|_| Warp::new()).collect(),
            local: LocalMemory::new(
                config.local_mem.base,
                config.local_mem.size,
                g.per_thread_if_zero(config.local_mem.banks),
            ),
            barriers: Barriers::default(),
            phase: 0,
            counters: Box::default(),
            left: Vec::new(),
            stats: CoreStats::default(),
            past_instructions: 0,
            iteration: 0,
            iteration_mark: None,
            interval_counters: CoreCounters::default(),
            pipe: Pipeline::new(config),
            sleep_until: 0,
            parked: false,
            weaver: weaver.then(|| WeaverUnit::new(config)),
            trace: None,
            profile: None,
            effects: Vec::new(),
            accesses: Vec::with_capacity(64),
            launch: Launch::default(),
            warming: None,
            counted: None,
        }
    }

    /// Whether any warp of the core has live lanes.
    pub fn is_live(&self) -> bool {
        self.warps.iter().any(Warp::is_live)
    }

    /// Global core id.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The local (shared) memory.
    pub fn local_memory(&self) -> &LocalMemory {
        &self.local
    }

    /// The statistics folded so far ([`Core::flush_counters`] folds the phases not yet folded).
    pub fn stats(&self) -> &CoreStats {
        &self.stats
    }

    /// Issue slots per cycle.
    pub fn slices(&self) -> usize {
        self.pipe.slices()
    }

    /// Start warp 0 at `entry` with one lane (the program's start on this core).
    pub fn start(&mut self, entry: u32) {
        self.warps[0].launch(entry, 1, 0, 0);
    }

    /// Whether the core sleeps at `now`: nothing can change on it before
    /// [`Core::sleeps_until`] but a completion or a barrier release, which wake it.
    #[inline]
    pub fn asleep(&self, now: u64) -> bool {
        self.parked || now < self.sleep_until
    }

    /// The cycle the core wakes by itself (`u64::MAX`: only a completion or a release
    /// wakes it, or it is parked; 0: awake).
    pub fn sleeps_until(&self) -> u64 {
        if self.parked {
            u64::MAX
        } else {
            self.sleep_until
        }
    }

    /// Park the core: from now on it sleeps whatever would wake it, so it issues and
    /// fetches nothing (what it has in flight still completes).
    pub fn park(&mut self) {
        self.parked = true;
    }

    /// Park warp `w` if it is live and ready: from now on it issues nothing (a warp at a
    /// barrier keeps waiting there, as its release would make it ready again).
    pub fn park_warp(&mut self, w: usize) {
        if let Some(warp) = self.warps.get_mut(w) {
            if warp.is_live() && warp.wait == WarpWait::Ready {
                warp.wait = WarpWait::Parked;
            }
        }
    }

    /// How many of its warps are live.
    pub fn live_warps(&self) -> usize {
        self.warps.iter().filter(|warp| warp.is_live()).count()
    }

    /// Its live warps that are ready to issue, by index.
    pub fn ready_warps(&self) -> impl Iterator<Item = usize> + '_ {
        (self.warps.iter().enumerate())
            .filter(|(_, warp)| warp.is_live() && warp.wait == WarpWait::Ready)
            .map(|(w, _)| w)
    }

    /// Each warp's instructions retired so far, by index.
    pub fn instructions_by_warp(&self) -> impl Iterator<Item = u64> + '_ {
        self.warps.iter().map(|warp| warp.instret)
    }

    /// Warp `w` is released at `now` from the global barrier it waited on: it may issue
    /// again, and its core wakes.
    pub fn release_from_global_barrier(&mut self, w: usize, now: u64) {
        self.warps[w].wait = WarpWait::Ready;
        self.pipe.wake(w);
        self.sleep_until = 0;
        if let Some(t) = &mut self.trace {
            let warps = 1 << w;
            t.warp(CoreEvent::BarrierRelease { at: now, warps });
        }
    }

    /// Move what the machine must do after this cycle's instructions into `into`.
    #[inline]
    pub fn take_effects(&mut self, into: &mut Vec<(usize, Effect)>) {
        if !self.effects.is_empty() {
            into.append(&mut self.effects);
        }
    }

    /// The iteration CSR's last write if the machine has not yet seen it.
    pub fn take_iteration_mark(&mut self) -> Option<u32> {
        self.iteration_mark.take()
    }

    /// The counters flushed since the machine last took them (call
    /// [`Core::flush_counters`] first), leaving none: what the core did in the machine's
    /// open intervals since its last cut.
    pub fn take_interval_counters(&mut self) -> CoreCounters {
        std::mem::take(&mut self.interval_counters)
    }

    /// Warp instructions so far (the current phase's counters included).
    pub fn instructions(&self) -> u64 {
        self.counters.instructions + self.past_instructions
    }

    /// The timeline's sample of the counters so far (skipped cycles settled).
    pub fn sample(&mut self) -> CoreSample {
        self.settle();
        let mut slots = self.counters.slots;
        for p in self
            .stats
            .phases
            .values()
            .chain(self.left.iter().map(|(_, c)| &**c))
        {
            slots.merge(&p.slots);
        }
        CoreSample {
            instructions: self.instructions(),
            slots,
        }
    }

    /// Record the timeline's events from `now` (`warps`: warp-level ones too): the live
    /// warps start there.
    pub fn record_timeline(&mut self, warps: bool, now: u64) {
        let mut trace = CoreTrace {
            warps,
            events: Vec::new(),
        };
        for (w, warp) in self.warps.iter().enumerate() {
            if warp.is_live() {
                trace.warp(CoreEvent::WarpStart {
                    at: now,
                    warp: w as u32,
                });
            }
        }
        self.trace = Some(trace);
    }

    /// The timeline's events recorded since the last call.
    pub fn timeline_events(&mut self) -> impl Iterator<Item = CoreEvent> + '_ {
        self.trace.iter_mut().flat_map(|t| t.events.drain(..))
    }

    /// Stop recording the timeline.
    pub fn stop_timeline(&mut self) {
        self.trace = None;
    }

    /// Charge slots and instructions to PCs from now on ([`crate::profile`]).
    pub fn profile_pcs(&mut self, ranges: &[(u32, u32)]) {
        let (slices, warps) = (self.pipe.slices(), self.warps.len());
        self.profile = Some(CoreProfile::new(ranges, slices, warps));
    }

    /// Check every slot of the profiled run against a fresh look at the warps
    /// (`Machine::check_slots`).
    pub fn check_slots(&mut self) {
        if let Some(p) = &mut self.profile {
            p.check = true;
        }
    }

    /// The profile by PC, if the run is profiled.
    pub fn profile(&self) -> Option<&CoreProfile> {
        self.profile.as_ref()
    }

    fn set_phase(&mut self, phase: u32, now: u64) {
        if phase != self.phase {
            self.settle();
            self.switch_counters(phase);
            self.phase = phase;
            if let Some(t) = &mut self.trace {
                t.events.push(CoreEvent::Phase { at: now, phase });
            }
        }
    }

    /// Warp `w`'s instruction at `pc`, issued at `now` (the pipeline's issue, or a
    /// functional round): counted, executed into `rec` (an empty record) and accounted,
    /// also when it fails; an effect on the machine is left for [`Core::take_effects`]. The
    /// decoded instruction, or `None` for a word that did not decode (it trapped).
    pub(in crate::core) fn perform(
        &mut self,
        w: usize,
        pc: u32,
        now: u64,
        sh: &mut Shared,
        rec: &mut Executed,
    ) -> SimResult<Option<Decoded>> {
        let lanes = self.warps[w].stack.mask();
        if let Some(p) = &mut self.profile {
            p.issued(w, pc, lanes.count_ones());
        }
        let core = self.id;
        let site = |instr: String| Site {
            core,
            warp: w as u32,
            lanes,
            pc,
            instr,
        };
        let zero;
        let fetched = match sh.program.fetch(pc, &sh.mem) {
            Some(fetched) => Some(fetched),
            // Mapped memory nothing has written (.bss, the heap, a stack) reads as zero,
            // which is an illegal instruction, not an unmapped one.
            None if pc.is_multiple_of(4)
                && sh.geometry.map.check(pc, 4, "instruction fetch").is_ok() =>
            {
                zero = wsim_isa::decode(0);
                Some(&zero)
            }
            None => None,
        };
        let d = match fetched {
            Some(Ok(d)) => *d,
            Some(Err(e)) => {
                // It issues (and traps): it takes its slot like any instruction.
                let (word, reason) = (e.word, e.reason);
                self.count_issue(lanes);
                let result = self.illegal_word(w, word, reason, rec);
                self.account(w, rec, now);
                result.map_err(|err| err.at(site(format!(".word {word:#010x}"))))?;
                return Ok(None);
            }
            None => {
                let word = sh.mem.read_u32(pc & !3);
                let kind = if pc.is_multiple_of(4) {
                    ErrorKind::Unmapped {
                        what: "instruction fetch",
                        addr: pc,
                        reason: "no code or data is mapped there",
                    }
                } else {
                    ErrorKind::Misaligned {
                        what: "instruction fetch",
                        addr: pc,
                        width: 4,
                    }
                };
                return Err(SimError::new(kind).at(site(format!("{word:#010x}"))));
            }
        };
        self.count_issue(lanes);
        let result = self.execute(w, &d, sh, rec);
        self.account(w, rec, now);
        result.map_err(|err| err.at(site(wsim_isa::disasm_plain(&d.instr, pc))))?;
        let depth = self.warps[w].stack.depth() as u64;
        self.stats.max_stack_depth = self.stats.max_stack_depth.max(depth);
        if rec.effect != Effect::None {
            self.effects.push((w, rec.effect));
        }
        Ok(Some(d))
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
            let phase = warp.phase;
            self.counters_of(phase).warp_cycles += spent;
        }
    }

    /// The counters `phase`'s counts go to until the next flush: the current phase's, or
    /// those left aside for it (a warp's own phase need not be its core's).
    fn counters_of(&mut self, phase: u32) -> &mut CoreCounters {
        if phase == self.phase {
            return &mut self.counters;
        }
        let at = self.aside(phase);
        &mut self.left[at].1
    }

    /// `left`'s entry for `phase` (not the current one), made empty if it has none.
    fn aside(&mut self, phase: u32) -> usize {
        (self.left.iter().position(|(p, _)| *p == phase)).unwrap_or_else(|| {
            self.left.push((phase, Box::default()));
            self.left.len() - 1
        })
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

    /// Make `phase`'s counters current (those left in it since the last flush, or none)
    /// and leave the current phase's aside.
    fn switch_counters(&mut self, phase: u32) {
        let leaving = self.counters.instructions;
        let at = self.aside(phase);
        let entry = &mut self.left[at];
        entry.0 = self.phase;
        std::mem::swap(&mut entry.1, &mut self.counters);
        self.past_instructions = self.past_instructions + leaving - self.counters.instructions;
    }

    /// Fold the counters of the current phase and of those left since the last flush into
    /// the statistics (and the intervals' share).
    pub fn flush_counters(&mut self) {
        self.settle();
        let current = std::mem::take(&mut self.counters);
        self.past_instructions += current.instructions;
        for (phase, counters) in self.left.drain(..).chain([(self.phase, current)]) {
            self.stats.phase(phase).merge(&counters);
            self.interval_counters.merge(&counters);
        }
    }
    /// Each live warp, one line each: where it is (`place` names a PC's function and line)
    /// and what it waits on (`global`: a global barrier's count and the warps arrived, from
    /// the machine's table). For the deadlock and `max_cycles` reports.
    pub fn describe_waits(
        &self,
        place: impl Fn(u32) -> Option<String>,
        global: impl Fn(u32) -> (u32, usize),
    ) -> Vec<String> {
        let mut lines = Vec::new();
        for (w, warp) in self.warps.iter().enumerate() {
            if !warp.is_live() {
                continue;
            }
            // A warp at a barrier has executed it: name the barrier, not the PC after it.
            let pc = match warp.wait {
                WarpWait::Barrier { .. } => warp.stack.pc().wrapping_sub(4),
                WarpWait::Ready | WarpWait::Parked => warp.stack.pc(),
            };
            let place = place(pc).map(|p| format!(" in {p}")).unwrap_or_default();
            let state = match warp.wait {
                WarpWait::Barrier { id } if id & 0x8000_0000 != 0 => {
                    let (count, arrived) = global(id);
                    format!("global barrier {id:#x}: {arrived} of {count} warps arrived")
                }
                WarpWait::Barrier { id } => {
                    let (count, arrived) = self.barriers.get(id).unwrap_or_default();
                    format!(
                        "local barrier {id}: {} of {count} warps arrived",
                        arrived.count_ones()
                    )
                }
                WarpWait::Ready => self
                    .refused_wait(w)
                    .unwrap_or_else(|| "nothing (ready to issue)".into()),
                WarpWait::Parked => "nothing: it is parked".into(),
            };
            lines.push(format!(
                "core {} warp {w} (pc {pc:#010x}{place}, lanes {:#x}): waits on {state}",
                self.id,
                warp.stack.mask()
            ));
        }
        lines
    }

    /// Log each local barrier in progress: who arrived, who did not and why (a deadlock's).
    pub fn log_barriers(&self) {
        let all = &self.warps;
        for (id, count, arrived) in self.barriers.iter() {
            let warps = |live: bool| -> Vec<usize> {
                (0..all.len())
                    .filter(|&w| arrived >> w & 1 == 0 && all[w].is_live() == live)
                    .collect()
            };
            tracing::info!(
                core = self.id,
                barrier = id,
                count,
                arrived = ?(0..32).filter(|w| arrived >> w & 1 != 0).collect::<Vec<_>>(),
                elsewhere = ?warps(true),
                not_running = ?warps(false),
                "deadlock: local barrier short of warps"
            );
        }
    }
}
