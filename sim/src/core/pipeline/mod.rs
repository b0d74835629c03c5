//! The timing of a core, one file per block: the front end (`frontend.rs`: fetch), the
//! instruction buffers (`ibuffer.rs`), the scoreboard (`scoreboard.rs`), the warp
//! scheduler (`scheduler.rs`: issue slices, GTO/RR), the functional units (`units.rs`),
//! the LSU (`lsu.rs`: local accesses, the LSU queue, load tracking), its coalescer
//! (`coalescer.rs`) and the memory port (`memory_port.rs`); the Weaver's timing is
//! `core/weaver/timing.rs`. This file is the per-cycle order, sleeping, and the
//! reason every issue slot of every cycle gets ([`SlotReason`]).
//!
//! Execution happens at issue ([`Core::execute`]): the functional result is known at once
//! and its [`super::Executed`] record is all the timing model learns; this module decides when
//! the result becomes visible (the scoreboard's ready times), so timing never changes what
//! a program computes.

mod coalescer;
mod frontend;
mod ibuffer;
mod lsu;
mod memory_port;
mod scheduler;
mod scoreboard;
mod units;

use wsim_isa::{Flow, RegRef, SfuKind, Unit};

pub(in crate::core) use lsu::{LoadTracker, SHARED_PORT};
pub use memory_port::{MemoryPort, PortKind, PortRequest, Refusal, Retry, Ticket};
pub(in crate::core) use scoreboard::Producer;

use super::exec::Executed;
use super::Core;
use crate::config::Config;
use crate::error::SimResult;
use crate::instruction_trace::Issued;
use crate::shared::Shared;
use crate::stats::SlotReason;
use coalescer::Coalescer;
use frontend::{FetchState, FrontEnd, WarpFront};
use lsu::Lsu;
use scheduler::Scheduler;
use scoreboard::Scoreboard;
use units::Units;

/// Not yet known (a load in flight, a branch not yet issued).
pub(in crate::core) const NEVER: u64 = u64::MAX;

/// The set bits of `mask` from bit `start` up, then from bit 0.
fn bits_from(mask: u32, start: usize) -> impl Iterator<Item = usize> {
    let high = mask & (u32::MAX << start);
    let ones = |mut m: u32| {
        std::iter::from_fn(move || {
            let bit = (m != 0).then(|| m.trailing_zeros() as usize);
            m &= m.wrapping_sub(1);
            bit
        })
    };
    ones(high).chain(ones(mask & !high))
}

/// Pipeline parameters resolved from the configuration.
#[derive(Clone, Debug)]
pub(in crate::core) struct Params {
    slices: usize,
    ibuffer: usize,
    fetch_ahead: bool,
    /// Scheduling a fetch to the instruction in the buffer, less the cache: the fetch latch
    /// and decode.
    decode: u64,
    /// Issue to the unit.
    pub dispatch: u64,
    /// Slices the units' dispatchers take in turn, one per cycle (1: any cycle).
    dispatch_turns: u64,
    /// A unit's result to a dependent's issue.
    pub writeback: u64,
    /// A control instruction's exit from its unit to its warp's next fetch.
    pub resume: u64,
    register_banks: u32,
    alu_lanes: u32,
    fpu_lanes: u32,
    lsu_lanes: u32,
    sfu_lanes: u32,
    pub threads: u32,
    pub line: u32,
    pub lat: crate::config::LatencyConfig,
    pub weaver: crate::config::WeaverConfig,
}

impl Pipeline {
    /// Warp `w`'s register `dst` gets the value `producer` has at the end of its unit at
    /// `exit`: a dependent can issue `writeback` cycles later (the commit stage).
    pub(in crate::core) fn written_back(
        &mut self,
        w: usize,
        dst: RegRef,
        exit: u64,
        producer: Producer,
    ) {
        self.scoreboard[w].set_ready(dst, exit + self.p.writeback, producer);
    }
}

impl Params {
    /// The cycle warp `w`'s instruction, through operand collection by `ready`, reaches its
    /// unit: the next cycle on which the dispatchers take the warp's slice.
    pub(in crate::core) fn reaches_unit(&self, w: usize, ready: u64) -> u64 {
        let turns = self.dispatch_turns;
        ready + (w as u64 % turns + turns - ready % turns) % turns
    }

    /// The cycle a warp fetches again after its control instruction left the unit at `exit`.
    fn resumes_at(&self, exit: u64) -> u64 {
        if exit == NEVER {
            NEVER
        } else {
            exit + self.resume
        }
    }
}

#[derive(Clone)]
pub struct Pipeline {
    pub(in crate::core) p: Params,
    front: FrontEnd,
    pub(in crate::core) scoreboard: Vec<Scoreboard>,
    sched: Scheduler,
    pub(in crate::core) units: Units,
    pub(in crate::core) lsu: Lsu,
    pub(in crate::core) coalescer: Coalescer,
    /// Warps may have started or retired: match the timing state to them.
    membership_changed: bool,
    /// Reasons of the last cycle's slots, reused for skipped cycles.
    reasons: Vec<SlotReason>,
    /// Cycles skipped since the counters last counted them.
    skipped: u64,
}

impl Pipeline {
    pub fn new(config: &Config) -> Self {
        let g = &config.gpu;
        let c = &config.core;
        let lanes = |l: u32| g.per_thread_if_zero(l);
        let slices = c.slices(g.warps_per_core) as usize;
        let warps = g.warps_per_core as usize;
        let p = Params {
            slices,
            ibuffer: c.ibuffer as usize,
            fetch_ahead: c.fetch_ahead,
            decode: u64::from(c.fetch_latency) + u64::from(c.decode_latency),
            dispatch: u64::from(c.issue_to_unit(g.warps_per_core)),
            dispatch_turns: if c.slice_dispatch { slices as u64 } else { 1 },
            writeback: u64::from(c.writeback_latency),
            resume: u64::from(c.resume_latency),
            register_banks: c.register_banks,
            alu_lanes: lanes(c.lanes.alu),
            fpu_lanes: lanes(c.lanes.fpu),
            lsu_lanes: lanes(c.lanes.lsu),
            sfu_lanes: lanes(c.lanes.sfu),
            threads: g.threads_per_warp,
            line: config.memory.l1d.line,
            lat: c.latency.clone(),
            weaver: config.weaver.clone(),
        };
        // Stacks interleaved for timing: (top, bytes per thread, threads in the machine).
        let stacks = config.stack.interleave.then(|| {
            let threads = config.cores() * g.warps_per_core * g.threads_per_warp;
            (config.stack.top, config.stack.size, threads)
        });
        Pipeline {
            front: FrontEnd::new(warps, p.ibuffer),
            scoreboard: vec![Scoreboard::default(); warps],
            sched: Scheduler::new(c.scheduler, slices, warps),
            units: Units::new(c.unit_queue as usize, p.dispatch),
            lsu: Lsu::new(c.lsu_pending),
            coalescer: Coalescer::new(p.line, stacks),
            membership_changed: true,
            reasons: vec![SlotReason::NoActiveWarp; slices],
            skipped: 0,
            p,
        }
    }

    /// Issue slots per cycle.
    pub fn slices(&self) -> usize {
        self.p.slices
    }

    /// Warp `w`'s state changed: examine it again before issuing.
    pub fn wake(&mut self, w: usize) {
        self.sched.wake(w);
        self.front.may_fetch |= 1 << w;
    }

    pub(in crate::core) fn wake_all(&mut self) {
        for w in 0..self.front.warps.len() {
            self.wake(w);
        }
    }

    /// Warp `w`'s pending control instruction (a Weaver decode) leaves the unit at `exit`.
    pub(in crate::core) fn resolve_at(&mut self, w: usize, exit: u64) {
        self.front.resolve_at(w, self.p.resumes_at(exit), true);
    }
}

impl Core {
    /// A memory request of this core completed at `now`.
    /// The core wakes.
    pub fn complete(&mut self, id: u64, now: u64) {
        self.sleep_until = 0;
        self.pipe.lsu.waits_completion = None;
        self.pipe.front.waits_completion = None;
        match Ticket::decode(id) {
            Some(Ticket::Fetch(w)) => self.line_arrived(w, now),
            Some(Ticket::Load(slot)) => {
                let Some(t) = self.pipe.lsu.line_arrived(slot) else {
                    return;
                };
                if t.eghw {
                    self.eghw_lines_done(now);
                } else if let Some(dst) = t.dst {
                    self.pipe.written_back(t.warp, dst, now, t.producer);
                }
                self.pipe.wake(t.warp);
            }
            Some(Ticket::Store) | None => {}
        }
    }

    /// The instruction-cache hits due at `now` complete, as [`Core::complete`] would
    /// (the port handed back their cycle instead of a completion). Whether any did.
    #[inline]
    pub fn complete_hits(&mut self, now: u64) -> bool {
        if self.pipe.front.next_hit > now {
            return false;
        }
        let mut hits = std::mem::take(&mut self.pipe.front.hits);
        let mut next = NEVER;
        hits.retain(|&(at, w)| {
            if at <= now {
                self.complete(Ticket::Fetch(w).encode(), now);
                false
            } else {
                next = next.min(at);
                true
            }
        });
        self.pipe.front.hits = hits;
        self.pipe.front.next_hit = next;
        true
    }

    /// The cycle of the earliest instruction-cache hit still to complete.
    pub fn next_hit(&self) -> Option<u64> {
        let at = self.pipe.front.next_hit;
        (at != NEVER).then_some(at)
    }

    /// Simulate cycle `now` of this core. Whether something changed (an instruction issued
    /// or fetched, a branch resolved, a request entered the memory system): then the next
    /// cycle must be simulated; if not, the core sleeps until its next wakeup. What the
    /// machine must do after it is left for [`Core::take_effects`].
    pub fn cycle(
        &mut self,
        now: u64,
        sh: &mut Shared,
        port: &mut dyn MemoryPort,
    ) -> SimResult<bool> {
        let mut progressed = false;
        self.settle();
        self.counters.cycles += 1;
        self.start_new_warps();
        self.resolve_control(now, &mut progressed);
        self.drain_lsu(now, port, &mut progressed);
        for slice in 0..self.pipe.p.slices {
            let reason = match self.select(slice, now) {
                Ok(w) => {
                    self.issue(w, now, sh)?;
                    progressed = true;
                    SlotReason::Issued
                }
                Err(reason) => reason,
            };
            self.pipe.reasons[slice] = reason;
            self.counters.slots.add(reason, 1);
            if self.profile.is_some() {
                self.charge_slot(slice, reason, now);
            }
        }
        self.fetch(now, sh, port, &mut progressed);
        if !progressed {
            // Nothing can change here before this (or a completion, or a release).
            self.sleep_until = self.next_wakeup(now).unwrap_or(u64::MAX);
            if self.profile.as_ref().is_some_and(|p| p.check) {
                self.check_sleep(now);
            }
        }
        Ok(progressed)
    }

    /// Account `n` cycles in which nothing changes: each slot keeps its last reason. They
    /// are added up and counted when the core next runs or its counters are read
    /// ([`Core::settle`]).
    #[inline]
    pub fn skip(&mut self, n: u64) {
        self.pipe.skipped += n;
    }

    /// Count the skipped cycles into the counters.
    pub fn settle(&mut self) {
        let n = std::mem::take(&mut self.pipe.skipped);
        if n > 0 {
            self.counters.cycles += n;
            for &r in &self.pipe.reasons {
                self.counters.slots.add(r, n);
            }
            if let Some(p) = &mut self.profile {
                p.skipped(&self.pipe.reasons, n);
            }
        }
    }

    /// Charge slice `slice`'s slot of cycle `now` to a PC (docs/OBSERVING.md says which).
    fn charge_slot(&mut self, slice: usize, reason: SlotReason, now: u64) {
        let pc = (self.charged_warp(slice, reason)).map(|w| self.charged_pc(w, reason));
        let Some(p) = &mut self.profile else {
            return;
        };
        p.charge(slice, pc, reason);
        // An issued slot changed the state a fresh look would examine.
        if p.check && reason != SlotReason::Issued {
            self.check_slot(slice, now, (reason, pc));
        }
    }

    /// The PC a slot with `reason` charged to warp `w` goes to: the instruction issued or
    /// waited at (a barrier, a control instruction not yet resolved), else the buffered one,
    /// else the one being fetched or to be fetched next.
    fn charged_pc(&self, w: usize, reason: SlotReason) -> u32 {
        let t = &self.pipe.front.warps[w];
        let last = || self.profile.as_ref().map_or(0, |p| p.last_issued[w]);
        match (reason, t.ibuf.front()) {
            (SlotReason::Issued | SlotReason::Barrier, _) => last(),
            (_, Some(f)) => f.pc,
            (_, None) if matches!(t.state, FetchState::Control { .. }) => last(),
            (_, None) => t.next_pc(),
        }
    }

    /// `Machine::check_slots`: slice `slice`'s slot at cycle `at` was given `slot` (its
    /// reason and PC), which must be what examining every warp afresh gives.
    fn check_slot(&self, slice: usize, at: u64, slot: (SlotReason, Option<u32>)) {
        let (reason, w) = match self.fresh_slot(slice, at) {
            Ok(w) => (SlotReason::Issued, Some(w)),
            Err(answer) => answer,
        };
        let fresh = (reason, w.map(|w| self.charged_pc(w, reason)));
        assert_eq!(
            slot, fresh,
            "core {} slice {slice} cycle {at}: the slot's (reason, PC) against a fresh look",
            self.id
        );
    }

    /// `Machine::check_slots`: the core falls asleep after cycle `now`, and the cycles it
    /// skips repeat each slot's reason and PC. A fresh look at either end of the sleep must
    /// give them (an answer changes only where a ready time passes, so if both ends agree,
    /// every cycle between does).
    fn check_sleep(&self, now: u64) {
        let end = self.sleep_until.min(NEVER - 1) - 1;
        if end <= now {
            return;
        }
        let charged = |slice| self.profile.as_ref().and_then(|p| p.charged(slice));
        for at in [now + 1, end] {
            for slice in 0..self.pipe.p.slices {
                self.check_slot(slice, at, (self.pipe.reasons[slice], charged(slice)));
            }
        }
    }

    /// Whether the scheduler schedules warp `w`: it is live and its timing state has
    /// started (a warp a warp-control instruction starts joins the next cycle).
    pub(super) fn scheduled(&self, w: usize) -> bool {
        self.warps[w].is_live() && self.pipe.front.warps[w].started
    }

    /// Give the scheduler the warps it schedules now.
    fn update_scheduled(&mut self) {
        let live = (0..self.warps.len())
            .filter(|&w| self.scheduled(w))
            .fold(0, |m, w| m | 1 << w);
        self.pipe.sched.update_live(live);
    }

    /// The earliest cycle after `now` at which this core can make progress by itself
    /// (memory completions aside), or `None` if only a completion or a barrier release
    /// can wake it.
    fn next_wakeup(&self, now: u64) -> Option<u64> {
        let pipe = &self.pipe;
        if pipe.membership_changed {
            return Some(now + 1);
        }
        let mut next = pipe.front.next_resolve;
        if let Some(&(at, _)) = pipe.lsu.queue.front() {
            if pipe.lsu.waits_completion.is_none() {
                next = next.min(at.max(now + 1));
            }
        }
        if next <= now + 1 {
            return Some(now + 1);
        }
        // Only a warp that may fetch (woken since it was last found unable) fetches by
        // itself.
        if bits_from(pipe.front.may_fetch, 0).any(|w| self.fetches_by_itself(w)) {
            return Some(now + 1);
        }
        // This cycle's issue stage examined every live warp (the started ones: no warp
        // started or retired) and cached why it waits and until when.
        next = next.min(pipe.sched.next_expiry());
        (next != NEVER).then_some(next.max(now + 1))
    }

    /// The memory hierarchy's refusal warp `w` is held on, if any: a fetch its L1I refused
    /// (the warp has no instruction to issue), or the LSU queue whose head its L1D refused,
    /// each until a completion for this core. For the deadlock and `max_cycles` reports:
    /// such a warp waits on no barrier, yet cannot go on by itself.
    pub fn refused_wait(&self, w: usize) -> Option<String> {
        let pipe = &self.pipe;
        let retry = |why: Refusal| {
            format!(
                "({}), retried after a completion for core {}",
                why.describe(),
                self.id
            )
        };
        let front = &pipe.front.warps[w];
        if let Some(why) = pipe.front.waits_completion {
            if front.ibuf.is_empty() && self.can_fetch(w) && !self.fetches_by_itself(w) {
                return Some(format!(
                    "an instruction fetch its L1I refused {}",
                    retry(why)
                ));
            }
        }
        let why = pipe
            .lsu
            .waits_completion
            .filter(|_| !pipe.lsu.queue.is_empty())?;
        Some(format!(
            "the LSU queue ({} line requests), whose head its L1D refused {}",
            pipe.lsu.queue.len(),
            retry(why)
        ))
    }

    /// Match the timing state to warps that started or retired.
    fn start_new_warps(&mut self) {
        if !std::mem::take(&mut self.pipe.membership_changed) {
            return;
        }
        self.pipe.wake_all();
        for (w, warp) in self.warps.iter().enumerate() {
            let pipe = &mut self.pipe;
            match (warp.is_live(), pipe.front.warps[w].started) {
                (true, false) => {
                    let front = &mut pipe.front.warps[w];
                    *front = WarpFront::new(pipe.p.ibuffer);
                    front.started = true;
                    front.fetch_pc = warp.stack.pc();
                    pipe.scoreboard[w] = Scoreboard::default();
                    pipe.sched.launched(w);
                }
                (false, true) => pipe.front.warps[w].started = false,
                _ => {}
            }
        }
        self.pipe.sched.reorder();
        self.update_scheduled();
    }

    /// Issue warp `w`'s next instruction: execute it and schedule its results.
    fn issue(&mut self, w: usize, now: u64, sh: &mut Shared) -> SimResult<()> {
        self.pipe.sched.issued(w);
        // Its buffer now has room to fetch into.
        self.pipe.front.may_fetch |= 1 << w;
        let pc = self.pipe.front.warps[w]
            .ibuf
            .pop()
            .expect("ready warps have an instruction")
            .pc;
        let lanes = self.warps[w].stack.mask();
        let core = self.id;
        if let Some(trace) = &mut sh.instructions {
            trace.issued(Issued {
                cycle: now,
                core,
                warp: w as u32,
                pc,
                lanes,
            });
        }
        let mut rec = Executed::new(std::mem::take(&mut self.accesses));
        let performed = self.perform(w, pc, now, sh, &mut rec);
        let d = match performed {
            Ok(Some(d)) => d,
            Ok(None) => {
                // A word that did not decode issued and trapped.
                self.accesses = rec.accesses;
                self.redirect_if_needed(w);
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        for k in super::warp::lanes(rec.released) {
            self.pipe.wake(k);
        }
        if d.info.unit == Unit::Sfu(SfuKind::WarpControl) {
            self.pipe.membership_changed = true;
            // Later slices of this cycle no longer see the warps it retired.
            self.update_scheduled();
        }
        let exit = self.schedule(w, pc, &d, lanes.count_ones(), now, &mut rec);
        self.accesses = rec.accesses;
        let t = &self.pipe.front.warps[w];
        let pending = matches!(t.state, FetchState::Control { .. });
        if d.info.flow != Flow::None && pending && t.ibuf.is_empty() {
            let exit = exit.expect("control instructions leave a unit at a known cycle");
            let weaver = d.info.unit == Unit::Sfu(SfuKind::Weaver);
            self.pipe
                .front
                .resolve_at(w, self.pipe.p.resumes_at(exit), weaver);
        } else {
            self.redirect_if_needed(w);
        }
        Ok(())
    }
}
