//! The warp scheduler: issue slices, greedy-then-oldest or round-robin selection among the
//! warps whose next instruction passes the scoreboard and finds its unit free, and the
//! reason a slot did not issue. Each warp's answer is cached until it may change, so a
//! slice re-examines only the warps woken or due.

use std::cell::Cell;

use wsim_isa::{SfuKind, Unit};

use super::frontend::FetchState;
use super::lsu::LSU_QUEUE;
use super::{bits_from, NEVER};
use crate::config::Scheduler as Policy;
use crate::core::warp::WarpWait;
use crate::core::Core;
use crate::stats::SlotReason;

/// The issue state of one slice. Its warps are the bits of masks, in the scheduler's order
/// (GTO: by age; RR: by index in the slice, the search starting after the last issuer), so
/// that the slice learns which warp can issue, or why none can, from the few warps whose
/// answer may have changed rather than from all of them.
#[derive(Clone, Debug)]
pub(super) struct Slice {
    /// Bit -> warp.
    warps: Vec<usize>,
    /// Bits of the live warps.
    live: u32,
    /// Per bit: why the warp cannot issue and the cycle before which that answer stands
    /// (0: ask again). Cleared by every event that can change it, so a core whose warps
    /// all wait does not re-examine them every cycle.
    until: Vec<Cell<u64>>,
    reason: Vec<Cell<SlotReason>>,
    /// Bits whose answer is a barrier, the instruction cache, or a reason ranked by the
    /// scheduler's order (a scoreboard, a busy unit, the Weaver); an empty buffer is none.
    barrier: Cell<u32>,
    fetch: Cell<u32>,
    ranked: Cell<u32>,
    /// Bits to examine whatever their cycle: the woken, and those that could issue when
    /// last examined. Each has an answer that ran out.
    due: Cell<u32>,
    /// No live warp outside `due` has an answer that runs out before this cycle (a lower
    /// bound, exact after a search), so until then the search examines only `due`.
    expiry: Cell<u64>,
    /// Why the slice cannot issue and until when (0: look again).
    blocked: Cell<(u64, SlotReason)>,
    last_issued: Option<usize>,
}

impl Slice {
    fn new(warps: Vec<usize>) -> Self {
        let n = warps.len();
        Slice {
            warps,
            live: 0,
            until: vec![Cell::new(0); n],
            reason: vec![Cell::new(SlotReason::Issued); n],
            barrier: Cell::new(0),
            fetch: Cell::new(0),
            ranked: Cell::new(0),
            due: Cell::new(0),
            expiry: Cell::new(0),
            blocked: Cell::new((0, SlotReason::Issued)),
            last_issued: None,
        }
    }

    /// Remember why the warp at `bit` cannot issue before `until`.
    fn block(&self, bit: usize, until: u64, reason: SlotReason) {
        self.until[bit].set(until);
        self.due.set(self.due.get() & !(1 << bit));
        self.expiry.set(self.expiry.get().min(until));
        self.reason[bit].set(reason);
        let set = |mask: &Cell<u32>, on: bool| {
            mask.set(mask.get() & !(1 << bit) | u32::from(on) << bit);
        };
        set(&self.barrier, reason == SlotReason::Barrier);
        set(&self.fetch, reason == SlotReason::Fetch);
        set(&self.ranked, ranked(reason));
    }

    /// The warp at `bit` must be examined again, and so must the slice.
    fn unblock(&self, bit: usize) {
        self.until[bit].set(0);
        self.due.set(self.due.get() | 1 << bit);
        self.blocked.set((0, SlotReason::Issued));
    }

    /// The cached answers of the live warps, the scheduler's order starting at `start`.
    fn answers(&self, start: usize) -> Answers {
        Answers {
            live: self.live,
            ranked: self.ranked.get(),
            barrier: self.barrier.get(),
            fetch: self.fetch.get(),
            start,
        }
    }

    /// The earliest cycle at which a live warp's cached answer runs out.
    fn next_expiry(&self) -> u64 {
        let mut next = NEVER;
        for (bit, until) in self.until.iter().enumerate() {
            if self.live & 1 << bit != 0 {
                next = next.min(until.get());
            }
        }
        next
    }
}

/// Whether a warp's `reason` is ranked by the scheduler's order (a scoreboard, a busy unit,
/// the Weaver): the first such warp gives the slot its reason.
fn ranked(reason: SlotReason) -> bool {
    !matches!(
        reason,
        SlotReason::Barrier | SlotReason::Fetch | SlotReason::IbufferEmpty
    )
}

/// What a slice's live warps answered when none could issue, as masks of bits: the slot's
/// reason and the warp it is charged to follow from these alone, whether the answers were
/// cached or just worked out (so the two can be compared: [`Core::fresh_slot`]).
struct Answers {
    live: u32,
    ranked: u32,
    barrier: u32,
    fetch: u32,
    /// The bit the scheduler's order starts from.
    start: usize,
}

impl Answers {
    /// The first warp in the scheduler's order with a ranked reason gives it (`reason_of`
    /// its bit); else a barrier if every live warp waits at one, else the instruction cache
    /// if any waits for it, else an empty buffer.
    fn reason(&self, reason_of: impl Fn(usize) -> SlotReason) -> SlotReason {
        let live = self.live;
        if live == 0 {
            SlotReason::NoActiveWarp
        } else if let Some(bit) = bits_from(self.ranked & live, self.start).next() {
            reason_of(bit)
        } else if self.barrier & live == live {
            SlotReason::Barrier
        } else if self.fetch & live != 0 {
            SlotReason::Fetch
        } else {
            SlotReason::IbufferEmpty
        }
    }

    /// The bit of the first warp in the scheduler's order whose answer is `reason` (not
    /// `Issued`); none without a live warp.
    fn charged(&self, reason: SlotReason) -> Option<usize> {
        let live = self.live;
        let mask = match reason {
            SlotReason::NoActiveWarp => 0,
            SlotReason::Barrier => live,
            SlotReason::Fetch => self.fetch & live,
            SlotReason::IbufferEmpty => live & !self.barrier & !self.fetch,
            _ => self.ranked & live,
        };
        bits_from(mask, self.start).next()
    }
}

/// The scheduler's state: its slices, and the launch order of the warps (for GTO).
#[derive(Clone, Debug)]
pub(super) struct Scheduler {
    policy: Policy,
    slices: Vec<Slice>,
    /// Warp `w` issues in slice `slice_of[w]` (`w % slices`), where it is bit `bits[w]`.
    slice_of: Vec<u8>,
    bits: Vec<usize>,
    ages: Vec<u64>,
    next_age: u64,
}

impl Scheduler {
    pub(super) fn new(policy: Policy, slices: usize, warps: usize) -> Self {
        Scheduler {
            policy,
            slices: (0..slices)
                .map(|s| Slice::new((s..warps).step_by(slices).collect()))
                .collect(),
            slice_of: (0..warps).map(|w| (w % slices) as u8).collect(),
            bits: (0..warps).map(|w| w / slices).collect(),
            ages: vec![0; warps],
            next_age: 0,
        }
    }

    /// Warp `w`'s answer may have changed.
    #[inline]
    pub(super) fn wake(&self, w: usize) {
        self.slices[self.slice_of[w] as usize].unblock(self.bits[w]);
    }

    /// Warp `w` was launched: it is the youngest.
    pub(super) fn launched(&mut self, w: usize) {
        self.ages[w] = self.next_age;
        self.next_age += 1;
    }

    /// Ages changed: the GTO order of the slices' bits with them.
    pub(super) fn reorder(&mut self) {
        if self.policy != Policy::Gto {
            return;
        }
        for slice in &mut self.slices {
            slice.warps.sort_by_key(|&w| self.ages[w]);
            for (bit, &w) in slice.warps.iter().enumerate() {
                self.bits[w] = bit;
            }
        }
    }

    /// The warps each slice schedules, after warps may have started or retired: `live`
    /// has a bit per warp ([`Core::scheduled`]). Each slice's answer is worked out again
    /// (the warps it was made of changed).
    pub(super) fn update_live(&mut self, live: u32) {
        for slice in &mut self.slices {
            slice.live = (slice.warps.iter().enumerate())
                .map(|(bit, &w)| (live >> w & 1) << bit)
                .fold(0, |a, b| a | b);
            slice.expiry.set(0);
            slice.blocked.set((0, SlotReason::Issued));
        }
    }

    /// The bit of `slice` its search starts from (GTO: the oldest; RR: the one after the
    /// last issuer).
    fn start(&self, slice: usize) -> usize {
        let s = &self.slices[slice];
        match self.policy {
            Policy::Gto => 0,
            Policy::Rr => s.last_issued.map_or(0, |l| self.bits[l] + 1) % s.warps.len(),
        }
    }

    /// Warp `w`, its buffer empty and at no barrier, sent a fetch: its answer is the
    /// instruction cache's until the line arrives (which wakes it). Cached as it is, and
    /// the slice's answer made again from the answers, without examining anything.
    pub(super) fn fetch_sent(&self, w: usize) {
        let slice = self.slice_of[w] as usize;
        let (s, bit) = (&self.slices[slice], self.bits[w]);
        if s.due.get() & 1 << bit != 0 {
            // Examined next cycle anyway.
            return;
        }
        s.block(bit, NEVER, SlotReason::Fetch);
        let (until, _) = s.blocked.get();
        if until != 0 {
            let reason = s.answers(self.start(slice)).reason(|b| s.reason[b].get());
            s.blocked.set((until, reason));
        }
    }

    pub(super) fn issued(&mut self, w: usize) {
        let slice = self.slice_of[w] as usize;
        self.slices[slice].last_issued = Some(w);
    }

    /// The earliest cycle a live warp's cached answer runs out (`NEVER`: none).
    pub(super) fn next_expiry(&self) -> u64 {
        self.slices
            .iter()
            .map(Slice::next_expiry)
            .fold(NEVER, u64::min)
    }
}

impl Core {
    /// Pick the warp of `slice` to issue, or the reason none can.
    pub(super) fn select(&self, slice: usize, now: u64) -> Result<usize, SlotReason> {
        let sched = &self.pipe.sched;
        let s = &sched.slices[slice];
        let (until, cached) = s.blocked.get();
        if now < until {
            return Err(cached);
        }
        if let Some(last) = s.last_issued {
            if sched.policy == Policy::Gto && self.ready(last, now).is_ok() {
                return Ok(last);
            }
        }
        // Only warps whose answer ran out can have changed; the others wait at least until
        // the earliest of their cycles (before `expiry`, only the `due` ones have run out).
        let mut expired = s.due.get();
        let mut until = s.expiry.get();
        if now >= until {
            expired = 0;
            until = NEVER;
            for (bit, u) in s.until.iter().enumerate() {
                let u = u.get();
                if u <= now {
                    expired |= 1 << bit;
                } else if s.live & 1 << bit != 0 {
                    until = until.min(u);
                }
            }
        }
        // In priority order, so the first that can issue is the scheduler's choice. Every
        // one is examined even then: the answers cached now are what later cycles see.
        let start = sched.start(slice);
        let mut best = None;
        let mut can_issue = 0;
        for bit in bits_from(expired & s.live, start) {
            match self.examine(s.warps[bit], now) {
                Ok(()) => {
                    best = best.or(Some(s.warps[bit]));
                    can_issue |= 1 << bit;
                }
                Err((reason, u)) => {
                    s.block(bit, u, reason);
                    until = until.min(u);
                }
            }
        }
        // The warps that could issue are examined again next cycle.
        s.due.set(can_issue);
        s.expiry.set(until);
        if let Some(w) = best {
            return Ok(w);
        }
        let reason = s.answers(start).reason(|bit| s.reason[bit].get());
        // The answer stands until the first live warp's may change (or one is woken).
        s.blocked.set((until, reason));
        Err(reason)
    }

    /// The warp slice `slice`'s slot was charged with this cycle: the one issued, or the
    /// first in the scheduler's order whose answer is `reason` (none without a live warp).
    /// For the profile by PC; the masks are those [`Self::select`] just decided from.
    pub(super) fn charged_warp(&self, slice: usize, reason: SlotReason) -> Option<usize> {
        let sched = &self.pipe.sched;
        let s = &sched.slices[slice];
        let start = sched.start(slice);
        if reason == SlotReason::Issued {
            return s.last_issued;
        }
        s.answers(start).charged(reason).map(|bit| s.warps[bit])
    }

    /// Slice `slice`'s slot at `now` worked out from scratch, every scheduled warp
    /// examined and nothing cached or kept: the warp that issues, or the reason none can
    /// and the warp the slot is charged to. What [`Self::select`] and
    /// [`Self::charged_warp`] must answer whenever they are asked (`Machine::check_slots`).
    pub(super) fn fresh_slot(
        &self,
        slice: usize,
        now: u64,
    ) -> Result<usize, (SlotReason, Option<usize>)> {
        let sched = &self.pipe.sched;
        let s = &sched.slices[slice];
        if let Some(last) = s.last_issued {
            if sched.policy == Policy::Gto && self.examine(last, now).is_ok() {
                return Ok(last);
            }
        }
        let mut a = Answers {
            live: 0,
            ranked: 0,
            barrier: 0,
            fetch: 0,
            start: sched.start(slice),
        };
        for (bit, &w) in s.warps.iter().enumerate() {
            a.live |= u32::from(self.scheduled(w)) << bit;
        }
        let mut reasons = vec![SlotReason::Issued; s.warps.len()];
        for bit in bits_from(a.live, a.start) {
            let reason = match self.examine(s.warps[bit], now) {
                Ok(()) => return Ok(s.warps[bit]),
                Err((reason, _)) => reason,
            };
            reasons[bit] = reason;
            let on = |is: bool| u32::from(is) << bit;
            a.barrier |= on(reason == SlotReason::Barrier);
            a.fetch |= on(reason == SlotReason::Fetch);
            a.ranked |= on(ranked(reason));
        }
        let reason = a.reason(|bit| reasons[bit]);
        Err((reason, a.charged(reason).map(|bit| s.warps[bit])))
    }

    /// Whether warp `w` can issue its next instruction at `now`, or why not.
    #[inline]
    fn ready(&self, w: usize, now: u64) -> Result<(), SlotReason> {
        let sched = &self.pipe.sched;
        let (s, bit) = (&sched.slices[sched.slice_of[w] as usize], sched.bits[w]);
        if now < s.until[bit].get() {
            return Err(s.reason[bit].get());
        }
        self.examine(w, now).map_err(|(reason, until)| {
            s.block(bit, until, reason);
            reason
        })
    }

    /// [`Self::ready`] worked out: why not, and until when at the earliest.
    #[inline]
    fn examine(&self, w: usize, now: u64) -> Result<(), (SlotReason, u64)> {
        let t = &self.pipe.front.warps[w];
        if self.warps[w].wait != WarpWait::Ready {
            return Err((SlotReason::Barrier, NEVER));
        }
        let Some(f) = t.ibuf.front() else {
            let reason = match t.state {
                FetchState::Control { at, weaver: true } => return Err((SlotReason::Weaver, at)),
                FetchState::Miss(_) => SlotReason::Fetch,
                _ => SlotReason::IbufferEmpty,
            };
            return Err((reason, NEVER));
        };
        if f.ready > now {
            return Err((SlotReason::IbufferEmpty, f.ready));
        }
        // A word that does not decode issues anyway: execution traps or reports it.
        let Some(needs) = &f.needs else {
            return Ok(());
        };
        let scoreboard = &self.pipe.scoreboard[w];
        for &slot in &needs.regs[..needs.count as usize] {
            let (at, producer) = scoreboard.ready_at(slot);
            if at > now {
                return Err((producer.stall(), at));
            }
        }
        let unit_free = self.pipe.units.free_at(needs.unit);
        if unit_free > now {
            return Err((SlotReason::UnitBusy, unit_free));
        }
        if matches!(needs.unit, Unit::Lsu(_)) && self.pipe.lsu.queue.len() >= LSU_QUEUE {
            return Err((SlotReason::UnitBusy, NEVER));
        }
        if needs.unit == Unit::Sfu(SfuKind::Weaver)
            && self.weaver.as_ref().is_some_and(|u| u.busy())
        {
            return Err((SlotReason::Weaver, NEVER));
        }
        Ok(())
    }
}
