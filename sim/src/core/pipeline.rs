//! The timing of a core: fetch through the instruction cache into per-warp instruction
//! buffers, issue with a scoreboard and greedy-then-oldest (or round-robin) selection per
//! issue slice, functional units with latencies, lanes and initiation intervals, the LSU's
//! coalescer and local-memory banks. Every issue slot of every cycle gets one
//! [`SlotReason`].
//!
//! Execution happens at issue ([`Core::execute`]): the functional result is known at once
//! and this module decides when it becomes visible (the scoreboard's ready times), so
//! timing never changes what a program computes.

use std::cell::Cell;
use std::collections::VecDeque;

use wsim_isa::{Decoded, Flow, FpuClass, LsuKind, RegFile, RegRef, SfuKind, Unit};

use super::warp::WarpWait;
use super::weaver::Trace;
use super::{Core, Effect, WeaverRequest};
use crate::config::{Config, Scheduler, WeaverMode};
use crate::error::{ErrorKind, SimError, SimResult, Site};
use crate::machine::Shared;
use crate::stats::{FsmState, SlotReason};

/// The kind of a request the core sends to the memory hierarchy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortKind {
    Fetch,
    Read,
    Write,
    Atomic,
}

/// A line-sized request from the core. `id` comes back in the completion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortRequest {
    pub id: u64,
    pub line: u32,
    pub kind: PortKind,
    /// The core's statistics phase when it made the request (issue or fetch).
    pub phase: u32,
}

/// When a refused request can be tried again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retry {
    NextCycle,
    /// Only after one of this core's requests completes (its L1 has no free MSHR).
    AfterCompletion,
}

/// What a core needs from the memory hierarchy: it accepts a request, or says when to retry.
pub trait MemoryPort {
    fn send(&mut self, now: u64, core: u32, req: PortRequest) -> Result<(), Retry>;
}

/// Unit that produced a pending register, for scoreboard stall attribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Producer {
    Memory,
    Alu,
    Fpu,
    Sfu,
    Weaver,
}

impl Producer {
    fn stall(self) -> SlotReason {
        match self {
            Producer::Memory => SlotReason::ScoreboardMemory,
            Producer::Alu => SlotReason::ScoreboardAlu,
            Producer::Fpu => SlotReason::ScoreboardFpu,
            Producer::Sfu => SlotReason::ScoreboardSfu,
            Producer::Weaver => SlotReason::Weaver,
        }
    }
}

/// Not yet known (a load in flight, a branch not yet issued).
const NEVER: u64 = u64::MAX;
const FETCH_TAG: u64 = 1 << 62;
const STORE_TAG: u64 = 2 << 62;
const LOAD_TAG: u64 = 3 << 62;
const TAG_MASK: u64 = 3 << 62;

/// Front-end and scoreboard state of one warp.
#[derive(Clone, Debug)]
struct WarpTiming {
    /// The warp's timing state belongs to its current launch.
    started: bool,
    /// Launch order, for greedy-then-oldest.
    age: u64,
    fetch_pc: u32,
    /// A fetched branch, jump or warp-control instruction has not resolved yet.
    control_pending: bool,
    /// When it resolves (`NEVER` until it issues).
    resolve_at: u64,
    /// The pending instruction is a Weaver decode: the warp waits on the unit.
    waits_weaver: bool,
    /// Fetched instructions: (pc, cycle it is decoded and ready to issue, the decoded
    /// instruction if the word decodes).
    ibuf: VecDeque<(u32, u64, Option<Decoded>)>,
    /// The instruction line held by the warp's fetch buffer.
    line: Option<u32>,
    /// Waiting for the instruction cache to deliver this line.
    fetch_miss: bool,
    pending_line: u32,
    x_ready: [u64; 32],
    f_ready: [u64; 32],
    x_producer: [Producer; 32],
    f_producer: [Producer; 32],
}

impl WarpTiming {
    fn new(ibuffer: usize) -> Self {
        WarpTiming {
            started: false,
            age: 0,
            fetch_pc: 0,
            control_pending: false,
            resolve_at: NEVER,
            waits_weaver: false,
            ibuf: VecDeque::with_capacity(ibuffer),
            line: None,
            fetch_miss: false,
            pending_line: 0,
            x_ready: [0; 32],
            f_ready: [0; 32],
            x_producer: [Producer::Alu; 32],
            f_producer: [Producer::Alu; 32],
        }
    }

    #[inline]
    fn ready_at(&self, r: RegRef) -> (u64, Producer) {
        let n = r.num as usize;
        match r.file {
            RegFile::Int => (self.x_ready[n], self.x_producer[n]),
            RegFile::Float => (self.f_ready[n], self.f_producer[n]),
        }
    }

    #[inline]
    fn set_ready(&mut self, r: RegRef, at: u64, producer: Producer) {
        let n = r.num as usize;
        match r.file {
            RegFile::Int => {
                self.x_ready[n] = at;
                self.x_producer[n] = producer;
            }
            RegFile::Float => {
                self.f_ready[n] = at;
                self.f_producer[n] = producer;
            }
        }
    }
}

/// A load, an atomic or an EGHW decode waiting for its line requests.
#[derive(Clone, Copy, Debug)]
struct LoadTracker {
    warp: usize,
    dst: Option<RegRef>,
    remaining: u32,
    producer: Producer,
    /// The lines are a stage of the EGHW unit's fetch ([`EghwFetch`]), not a load: their
    /// completion moves the fetch on.
    eghw: bool,
}

/// Functional units of a core: the cycle each can accept its next instruction.
#[derive(Clone, Debug, Default)]
struct Units([u64; 7]);

impl Units {
    /// The unit an instruction occupies (fdiv/fsqrt have their own, unpipelined one).
    fn index(unit: Unit) -> usize {
        match unit {
            Unit::Alu => 0,
            Unit::Mul => 1,
            Unit::Div => 2,
            Unit::Fpu(FpuClass::Div | FpuClass::Sqrt) => 3,
            Unit::Fpu(_) => 4,
            Unit::Lsu(_) => 5,
            Unit::Sfu(_) => 6,
        }
    }

    fn free_at(&self, unit: Unit) -> u64 {
        self.0[Self::index(unit)]
    }

    fn occupy_until(&mut self, unit: Unit, cycle: u64) {
        self.0[Self::index(unit)] = cycle;
    }

    /// Occupy `unit` for `cycles` more, after what it already does.
    fn hold(&mut self, unit: Unit, now: u64, cycles: u64) {
        let free = &mut self.0[Self::index(unit)];
        *free = (*free).max(now) + cycles;
    }
}

/// When the Weaver's FSM does what ([`super::weaver`] says what). It prepares one batch
/// ahead: after handing a batch out it fills the next while the warps work.
#[derive(Clone, Debug, Default)]
struct WeaverClock {
    /// When the FSM starts filling the next batch.
    prep_start: u64,
    /// When the round's last ST write lands in shared memory.
    st_ready: u64,
    /// Since when the unit idles in S0 (registering) or S8 (finished).
    idle_since: u64,
    finished: bool,
    /// EGHW: the request whose topology and edges the unit is fetching; it serves no other
    /// request until they have arrived (its reads are not overlapped with other work).
    eghw: Option<EghwFetch>,
}

/// EGHW: a decode request in flight. Its reads are two dependent round trips through the
/// L1D: the offsets of the entries it loads (the degrees decide which lanes get which
/// edges), then the neighbour (and weight) of each edge it hands out; then the unit writes
/// them into the warp's buffer in local memory and the warp gets its answer.
#[derive(Clone, Debug)]
struct EghwFetch {
    warp: usize,
    dst: Option<RegRef>,
    /// The edge lines, read once the offsets are in (empty when the offsets are in flight
    /// and the batch has no work, or once the edge reads were queued).
    edges: Vec<u32>,
    /// The offsets are in flight (else the edges are).
    offsets_pending: bool,
    /// When the lines in flight were queued (the FSM's cycles waiting for them).
    queued: u64,
    /// Cycles between the offsets' arrival and the edge reads (S2: remapping).
    fill: u64,
    /// Shared-memory port cycles of the buffer write (0: no work, nothing written).
    buffer_cycles: u64,
    /// S5 and S7 cycles after the buffer write.
    write: u64,
    last: u64,
}

/// Pipeline parameters resolved from the configuration.
#[derive(Clone, Debug)]
struct Params {
    slices: usize,
    scheduler: Scheduler,
    ibuffer: usize,
    decode: u64,
    register_banks: u32,
    alu_lanes: u32,
    fpu_lanes: u32,
    lsu_lanes: u32,
    sfu_lanes: u32,
    local_banks: u32,
    threads: u32,
    line: u32,
    lat: crate::config::LatencyConfig,
    weaver: crate::config::WeaverConfig,
    /// Stacks interleaved for timing: (top, bytes per thread, threads in the machine).
    stacks: Option<(u32, u32, u32)>,
}

/// The unit whose occupancy is the LSU's, and so the shared-memory port's.
const SHARED_PORT: Unit = Unit::Lsu(LsuKind::Load);

/// Line requests the LSU may hold before it stops accepting instructions.
const LSU_QUEUE: usize = 64;

/// The issue state of one slice. Its warps are the bits of masks, in the scheduler's order
/// (GTO: by age; RR: by index in the slice, the search starting after the last issuer), so
/// that the slice learns which warp can issue, or why none can, from the few warps whose
/// answer may have changed rather than from all of them.
#[derive(Clone, Debug)]
struct Slice {
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
            blocked: Cell::new((0, SlotReason::Issued)),
            last_issued: None,
        }
    }

    /// Remember why the warp at `bit` cannot issue before `until`.
    fn block(&self, bit: usize, until: u64, reason: SlotReason) {
        self.until[bit].set(until);
        self.reason[bit].set(reason);
        let set = |mask: &Cell<u32>, on: bool| {
            mask.set(mask.get() & !(1 << bit) | u32::from(on) << bit);
        };
        set(&self.barrier, reason == SlotReason::Barrier);
        set(&self.fetch, reason == SlotReason::Fetch);
        let unranked = [
            SlotReason::Barrier,
            SlotReason::Fetch,
            SlotReason::IbufferEmpty,
        ];
        set(&self.ranked, !unranked.contains(&reason));
    }

    /// The warp at `bit` must be examined again, and so must the slice.
    fn unblock(&self, bit: usize) {
        self.until[bit].set(0);
        self.blocked.set((0, SlotReason::Issued));
    }
}

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

pub struct Pipeline {
    p: Params,
    warps: Vec<WarpTiming>,
    /// Warp `w` issues in slice `w % slices`, where it is bit `bits[w]`.
    slices: Vec<Slice>,
    bits: Vec<usize>,
    units: Units,
    next_fetch: usize,
    next_age: u64,
    /// Line requests waiting to enter the data cache: (earliest cycle, request).
    lsu_queue: VecDeque<(u64, PortRequest)>,
    /// The head of the LSU queue or an instruction fetch was refused until a completion.
    lsu_waits_completion: bool,
    fetch_waits_completion: bool,
    /// Warps may have started or retired: match the timing state to them.
    membership_changed: bool,
    /// No warp can fetch until one is woken.
    fetch_idle: bool,
    /// The earliest cycle a pending branch or warp-control instruction resolves.
    next_resolve: u64,
    loads: Vec<Option<LoadTracker>>,
    free_loads: Vec<usize>,
    weaver: WeaverClock,
    /// Scratch: the lines of the instruction being issued.
    lines: Vec<u32>,
    /// Reasons of the last cycle's slots, reused for skipped cycles.
    reasons: Vec<SlotReason>,
}

impl Pipeline {
    pub fn new(config: &Config) -> Self {
        let g = &config.gpu;
        let c = &config.core;
        let lanes = |l: u32| if l == 0 { g.threads_per_warp } else { l };
        let slices = if c.issue_slices == 0 {
            g.warps_per_core.div_ceil(16)
        } else {
            c.issue_slices.min(g.warps_per_core)
        } as usize;
        let p = Params {
            slices,
            scheduler: c.scheduler,
            ibuffer: c.ibuffer as usize,
            decode: u64::from(c.decode_latency),
            register_banks: c.register_banks,
            alu_lanes: lanes(c.lanes.alu),
            fpu_lanes: lanes(c.lanes.fpu),
            lsu_lanes: lanes(c.lanes.lsu),
            sfu_lanes: lanes(c.lanes.sfu),
            local_banks: lanes(config.local_mem.banks),
            threads: g.threads_per_warp,
            line: config.memory.l1d.line,
            lat: c.latency.clone(),
            weaver: config.weaver.clone(),
            stacks: config.stack.interleave.then(|| {
                let threads = config.cores() * g.warps_per_core * g.threads_per_warp;
                (config.stack.top, config.stack.size, threads)
            }),
        };
        Pipeline {
            warps: (0..g.warps_per_core)
                .map(|_| WarpTiming::new(p.ibuffer))
                .collect(),
            slices: (0..slices)
                .map(|s| Slice::new((s..g.warps_per_core as usize).step_by(slices).collect()))
                .collect(),
            bits: (0..g.warps_per_core as usize).map(|w| w / slices).collect(),
            units: Units::default(),
            next_fetch: 0,
            next_age: 0,
            lsu_queue: VecDeque::new(),
            lsu_waits_completion: false,
            fetch_waits_completion: false,
            membership_changed: true,
            fetch_idle: false,
            next_resolve: NEVER,
            loads: Vec::new(),
            free_loads: Vec::new(),
            weaver: WeaverClock::default(),
            lines: Vec::with_capacity(32),
            reasons: vec![SlotReason::NoActiveWarp; slices],
            p,
        }
    }

    /// Issue slots per cycle.
    pub fn slices(&self) -> usize {
        self.p.slices
    }
}

/// What one core did in one cycle.
#[derive(Debug, Default)]
pub struct CycleOutcome {
    /// Something changed (an instruction issued or fetched, a branch resolved, a request
    /// entered the memory system): the next cycle must be simulated.
    pub progressed: bool,
    pub effects: Vec<(usize, Effect)>,
}

impl Core {
    /// A memory request of this core completed at `now`.
    pub fn complete(&mut self, id: u64, now: u64) {
        self.pipe.lsu_waits_completion = false;
        self.pipe.fetch_waits_completion = false;
        let index = (id & !TAG_MASK) as usize;
        match id & TAG_MASK {
            FETCH_TAG => {
                let t = &mut self.pipe.warps[index];
                t.fetch_miss = false;
                t.line = Some(t.pending_line);
                self.pipe.wake(index);
            }
            LOAD_TAG => {
                let Some(tracker) = self.pipe.loads.get_mut(index).and_then(Option::as_mut) else {
                    return;
                };
                tracker.remaining -= 1;
                if tracker.remaining == 0 {
                    let t = *tracker;
                    self.pipe.loads[index] = None;
                    self.pipe.free_loads.push(index);
                    if t.eghw {
                        self.eghw_lines_done(now);
                    } else if let Some(dst) = t.dst {
                        self.pipe.warps[t.warp].set_ready(dst, now, t.producer);
                    }
                    self.pipe.wake(t.warp);
                }
            }
            _ => {}
        }
    }

    /// Simulate cycle `now` of this core.
    pub fn cycle(
        &mut self,
        now: u64,
        sh: &mut Shared,
        port: &mut dyn MemoryPort,
    ) -> SimResult<CycleOutcome> {
        let mut out = CycleOutcome::default();
        self.counters.cycles += 1;
        self.start_new_warps();
        self.resolve_control(now, &mut out);
        self.drain_lsu(now, port, &mut out);
        for slice in 0..self.pipe.p.slices {
            let reason = match self.select(slice, now) {
                Ok(w) => {
                    self.issue(w, now, sh, &mut out)?;
                    SlotReason::Issued
                }
                Err(reason) => reason,
            };
            self.pipe.reasons[slice] = reason;
            self.counters.slots.add(reason, 1);
        }
        self.fetch(now, sh, port, &mut out);
        Ok(out)
    }

    /// Account `n` cycles in which nothing changes: each slot keeps its last reason.
    pub fn skip(&mut self, n: u64) {
        self.counters.cycles += n;
        for &r in &self.pipe.reasons {
            self.counters.slots.add(r, n);
        }
    }

    /// The earliest cycle after `now` at which this core can make progress by itself
    /// (memory completions aside), or `None` if only a completion or a barrier release
    /// can wake it.
    pub fn next_wakeup(&self, now: u64) -> Option<u64> {
        let pipe = &self.pipe;
        if pipe.membership_changed {
            return Some(now + 1);
        }
        let mut next = pipe.next_resolve;
        if let Some(&(at, _)) = pipe.lsu_queue.front() {
            if !pipe.lsu_waits_completion {
                next = next.min(at.max(now + 1));
            }
        }
        // With no warp able to fetch until one is woken, none fetches by itself.
        if !pipe.fetch_idle {
            for (w, t) in pipe.warps.iter().enumerate() {
                let buffered = t.line == Some(line_of(t.fetch_pc, pipe.p.line));
                if self.can_fetch(w) && (buffered || !pipe.fetch_waits_completion) {
                    // It fetches from its line buffer or (re)tries the instruction cache.
                    return Some(now + 1);
                }
            }
        }
        // This cycle's issue stage examined every live warp (the started ones: no warp
        // started or retired) and cached why it waits and until when.
        for slice in &pipe.slices {
            for (bit, until) in slice.until.iter().enumerate() {
                if slice.live & 1 << bit != 0 {
                    next = next.min(until.get());
                }
            }
        }
        (next != NEVER).then_some(next.max(now + 1))
    }

    fn start_new_warps(&mut self) {
        if !std::mem::take(&mut self.pipe.membership_changed) {
            return;
        }
        for w in 0..self.warps.len() {
            self.pipe.wake(w);
        }
        for (w, warp) in self.warps.iter().enumerate() {
            let t = &mut self.pipe.warps[w];
            match (warp.is_live(), t.started) {
                (true, false) => {
                    *t = WarpTiming::new(self.pipe.p.ibuffer);
                    t.started = true;
                    t.age = self.pipe.next_age;
                    t.fetch_pc = warp.stack.pc();
                    self.pipe.next_age += 1;
                }
                (false, true) => t.started = false,
                _ => {}
            }
        }
        // Ages changed: the GTO order of the slices' bits with them.
        let pipe = &mut self.pipe;
        if pipe.p.scheduler == Scheduler::Gto {
            for slice in &mut pipe.slices {
                let age = |&w: &usize| pipe.warps[w].age;
                slice.warps.sort_by_key(age);
                for (bit, &w) in slice.warps.iter().enumerate() {
                    pipe.bits[w] = bit;
                }
            }
        }
        self.update_live();
    }

    /// The live warps of each slice, after warps may have started or retired.
    fn update_live(&mut self) {
        for slice in &mut self.pipe.slices {
            slice.live = (slice.warps.iter().enumerate())
                .map(|(bit, &w)| u32::from(self.warps[w].is_live()) << bit)
                .fold(0, |a, b| a | b);
        }
    }

    fn resolve_control(&mut self, now: u64, out: &mut CycleOutcome) {
        if now < self.pipe.next_resolve {
            return;
        }
        let mut next = NEVER;
        for (w, t) in self.pipe.warps.iter_mut().enumerate() {
            if !t.control_pending || t.resolve_at == NEVER {
                continue;
            }
            if t.resolve_at > now {
                next = next.min(t.resolve_at);
                continue;
            }
            t.control_pending = false;
            t.resolve_at = NEVER;
            t.waits_weaver = false;
            t.ibuf.clear();
            self.pipe.slices[w % self.pipe.p.slices].unblock(self.pipe.bits[w]);
            self.pipe.fetch_idle = false;
            if self.warps[w].is_live() {
                t.fetch_pc = self.warps[w].stack.pc();
            }
            out.progressed = true;
        }
        self.pipe.next_resolve = next;
    }

    fn drain_lsu(&mut self, now: u64, port: &mut dyn MemoryPort, out: &mut CycleOutcome) {
        while let Some(&(at, req)) = self.pipe.lsu_queue.front() {
            if at > now {
                break;
            }
            if let Err(retry) = port.send(now, self.id, req) {
                self.pipe.lsu_waits_completion = retry == Retry::AfterCompletion;
                break;
            }
            self.pipe.lsu_queue.pop_front();
            if self.pipe.lsu_queue.len() == LSU_QUEUE - 1 {
                // Warps held back by the full queue may issue again.
                for w in 0..self.pipe.warps.len() {
                    self.pipe.wake(w);
                }
            }
            out.progressed = true;
        }
    }

    fn can_fetch(&self, w: usize) -> bool {
        let t = &self.pipe.warps[w];
        t.started
            && !t.control_pending
            && !t.fetch_miss
            && t.ibuf.len() < self.pipe.p.ibuffer
            && self.warps[w].is_live()
    }

    /// One instruction fetch per core per cycle, round robin over the warps that can.
    fn fetch(&mut self, now: u64, sh: &Shared, port: &mut dyn MemoryPort, out: &mut CycleOutcome) {
        if self.pipe.fetch_idle {
            return;
        }
        let n = self.warps.len();
        let next = self.pipe.next_fetch;
        let Some(w) = (next..n).chain(0..next).find(|&w| self.can_fetch(w)) else {
            // No warp can fetch until one is woken (it issues, a fill or a branch resolves).
            self.pipe.fetch_idle = true;
            return;
        };
        self.pipe.next_fetch = (w + 1) % n;
        let line_size = self.pipe.p.line;
        let decode = self.pipe.p.decode;
        let t = &mut self.pipe.warps[w];
        let line = line_of(t.fetch_pc, line_size);
        if t.line == Some(line) {
            let decoded = match sh.program.fetch(t.fetch_pc) {
                Some(Ok(d)) => Some(*d),
                _ => None,
            };
            if decoded.is_some_and(|d| d.info.flow != Flow::None) {
                t.control_pending = true;
                t.resolve_at = NEVER;
            }
            t.ibuf.push_back((t.fetch_pc, now + decode, decoded));
            t.fetch_pc = t.fetch_pc.wrapping_add(4);
            self.pipe.slices[w % self.pipe.p.slices].unblock(self.pipe.bits[w]);
            out.progressed = true;
        } else {
            let req = PortRequest {
                id: FETCH_TAG | w as u64,
                line,
                kind: PortKind::Fetch,
                phase: self.phase,
            };
            match port.send(now, self.id, req) {
                Ok(()) => {
                    t.fetch_miss = true;
                    t.pending_line = line;
                    out.progressed = true;
                }
                Err(retry) => self.pipe.fetch_waits_completion = retry == Retry::AfterCompletion,
            }
        }
    }

    /// Pick the warp of `slice` to issue, or the reason none can.
    fn select(&self, slice: usize, now: u64) -> Result<usize, SlotReason> {
        let pipe = &self.pipe;
        let s = &pipe.slices[slice];
        let (until, cached) = s.blocked.get();
        if now < until {
            return Err(cached);
        }
        if let Some(last) = s.last_issued {
            if pipe.p.scheduler == Scheduler::Gto && self.ready(last, now).is_ok() {
                return Ok(last);
            }
        }
        // Only warps whose answer ran out can have changed; the others wait at least until
        // the earliest of their cycles.
        let mut expired = 0;
        let mut until = NEVER;
        for (bit, u) in s.until.iter().enumerate() {
            let u = u.get();
            if u <= now {
                expired |= 1 << bit;
            } else if s.live & 1 << bit != 0 {
                until = until.min(u);
            }
        }
        // In priority order, so the first that can issue is the scheduler's choice. Every
        // one is examined even then: the answers cached now are what later cycles see.
        let start = match pipe.p.scheduler {
            Scheduler::Gto => 0,
            Scheduler::Rr => s.last_issued.map_or(0, |l| pipe.bits[l] + 1) % s.warps.len(),
        };
        let mut best = None;
        for bit in bits_from(expired & s.live, start) {
            match self.examine(s.warps[bit], now) {
                Ok(()) => {
                    best = best.or(Some(s.warps[bit]));
                }
                Err((reason, u)) => {
                    s.block(bit, u, reason);
                    until = until.min(u);
                }
            }
        }
        if let Some(w) = best {
            return Ok(w);
        }
        let live = s.live;
        let reason = if live == 0 {
            SlotReason::NoActiveWarp
        } else if let Some(bit) = bits_from(s.ranked.get() & live, start).next() {
            s.reason[bit].get()
        } else if s.barrier.get() & live == live {
            SlotReason::Barrier
        } else if s.fetch.get() & live != 0 {
            SlotReason::Fetch
        } else {
            SlotReason::IbufferEmpty
        };
        // The answer stands until the first live warp's may change (or one is woken).
        s.blocked.set((until, reason));
        Err(reason)
    }

    /// Whether warp `w` can issue its next instruction at `now`, or why not.
    #[inline]
    fn ready(&self, w: usize, now: u64) -> Result<(), SlotReason> {
        let (s, bit) = (&self.pipe.slices[w % self.pipe.p.slices], self.pipe.bits[w]);
        if now < s.until[bit].get() {
            return Err(s.reason[bit].get());
        }
        self.examine(w, now).map_err(|(reason, until)| {
            s.block(bit, until, reason);
            reason
        })
    }

    /// [`Self::ready`] worked out: why not, and until when at the earliest.
    fn examine(&self, w: usize, now: u64) -> Result<(), (SlotReason, u64)> {
        let t = &self.pipe.warps[w];
        if self.warps[w].wait != WarpWait::Ready {
            return Err((SlotReason::Barrier, NEVER));
        }
        let Some(&(_, ready, decoded)) = t.ibuf.front() else {
            if t.waits_weaver {
                return Err((SlotReason::Weaver, t.resolve_at));
            }
            let reason = if t.fetch_miss {
                SlotReason::Fetch
            } else {
                SlotReason::IbufferEmpty
            };
            return Err((reason, NEVER));
        };
        if ready > now {
            return Err((SlotReason::IbufferEmpty, ready));
        }
        // A word that does not decode issues anyway: execution traps or reports it.
        let Some(d) = decoded else { return Ok(()) };
        for r in d.info.srcs.iter().flatten().chain(d.info.dst.iter()) {
            let (at, producer) = t.ready_at(*r);
            if at > now {
                return Err((producer.stall(), at));
            }
        }
        let unit_free = self.pipe.units.free_at(d.info.unit);
        if unit_free > now {
            return Err((SlotReason::UnitBusy, unit_free));
        }
        if matches!(d.info.unit, Unit::Lsu(_)) && self.pipe.lsu_queue.len() >= LSU_QUEUE {
            return Err((SlotReason::UnitBusy, NEVER));
        }
        if self.pipe.weaver.eghw.is_some() && d.info.unit == Unit::Sfu(SfuKind::Weaver) {
            return Err((SlotReason::Weaver, NEVER));
        }
        Ok(())
    }

    /// Issue warp `w`'s next instruction: execute it and schedule its results.
    fn issue(
        &mut self,
        w: usize,
        now: u64,
        sh: &mut Shared,
        out: &mut CycleOutcome,
    ) -> SimResult<()> {
        let slice = w % self.pipe.p.slices;
        self.pipe.slices[slice].last_issued = Some(w);
        // Its buffer now has room to fetch into.
        self.pipe.fetch_idle = false;
        let (pc, _, _) = self.pipe.warps[w]
            .ibuf
            .pop_front()
            .expect("ready warps have an instruction");
        out.progressed = true;
        let lanes = self.warps[w].stack.mask();
        let core = self.id;
        let site = |instr: String| Site {
            core,
            warp: w as u32,
            lanes,
            pc,
            instr,
        };
        self.touched.clear();
        let d = match sh.program.fetch(pc) {
            Some(Ok(d)) => *d,
            Some(Err(e)) => {
                let (word, reason) = (e.word, e.reason);
                self.illegal_word(w, word, reason)
                    .map_err(|err| err.at(site(format!(".word {word:#010x}"))))?;
                self.redirect_if_needed(w);
                return Ok(());
            }
            None => {
                let word = sh.mem.read_u32(pc & !3);
                return Err(SimError::new(ErrorKind::Unmapped {
                    what: "instruction fetch",
                    addr: pc,
                    reason: "outside the program's code",
                })
                .at(site(format!("{word:#010x}"))));
            }
        };
        let effect = self
            .execute(w, &d, sh)
            .map_err(|err| err.at(site(wsim_isa::disasm_plain(&d.instr, pc))))?;
        if d.info.unit == Unit::Sfu(SfuKind::WarpControl) {
            self.pipe.membership_changed = true;
            // Later slices of this cycle see warps it started or retired.
            self.update_live();
        }
        let depth = self.warps[w].stack.depth() as u64;
        self.stats.max_stack_depth = self.stats.max_stack_depth.max(depth);
        let active = lanes.count_ones();
        if effect != Effect::None {
            out.effects.push((w, effect));
        }
        let answer = self.schedule(w, &d, active, now);
        let t = &mut self.pipe.warps[w];
        if d.info.flow != Flow::None && t.control_pending && t.ibuf.is_empty() {
            let lat = &self.pipe.p.lat;
            let delay = if d.info.flow == Flow::WarpControl {
                lat.sfu
            } else {
                lat.branch
            };
            t.resolve_at = answer.unwrap_or(now + u64::from(delay));
            t.waits_weaver = answer.is_some();
            self.pipe.next_resolve = self.pipe.next_resolve.min(t.resolve_at);
        } else {
            self.redirect_if_needed(w);
        }
        Ok(())
    }

    /// After an instruction that was not expected to change the flow (a trap, the end of
    /// a divergent path), refetch from the warp's actual next PC.
    fn redirect_if_needed(&mut self, w: usize) {
        self.pipe.wake(w);
        let t = &mut self.pipe.warps[w];
        if !self.warps[w].is_live() {
            t.ibuf.clear();
            t.control_pending = false;
            return;
        }
        let pc = self.warps[w].stack.pc();
        let expected = t.ibuf.front().map_or(t.fetch_pc, |&(p, _, _)| p);
        if pc != expected {
            t.ibuf.clear();
            t.control_pending = false;
            t.resolve_at = NEVER;
            t.fetch_pc = pc;
        }
    }

    /// Unit occupancy, result latency and memory requests of an issued instruction; for a
    /// Weaver decode, when the unit answers (`NEVER`: when its memory reads complete).
    fn schedule(&mut self, w: usize, d: &Decoded, active: u32, now: u64) -> Option<u64> {
        let p = &self.pipe.p;
        let lat = &p.lat;
        let groups = |lanes: u32| u64::from(active.max(1).div_ceil(lanes));
        let conflicts = register_bank_conflicts(&d.info.srcs, p.register_banks);
        self.counters.register_bank_conflicts += conflicts;
        let (latency, occupancy, producer) = match d.info.unit {
            Unit::Alu => {
                self.counters.alu += 1;
                (lat.alu, groups(p.alu_lanes), Producer::Alu)
            }
            Unit::Mul => {
                self.counters.mul += 1;
                (lat.mul, groups(p.alu_lanes), Producer::Alu)
            }
            Unit::Div => {
                self.counters.div += 1;
                (
                    lat.div,
                    u64::from(lat.div) * groups(p.alu_lanes),
                    Producer::Alu,
                )
            }
            Unit::Fpu(class) => {
                self.counters.fpu += 1;
                let l = match class {
                    FpuClass::AddMul => lat.fpu_fma,
                    FpuClass::Div | FpuClass::Sqrt => lat.fpu_div,
                    FpuClass::Cvt => lat.fpu_cvt,
                    FpuClass::Compare | FpuClass::Move => lat.fpu_misc,
                };
                let pipelined = !matches!(class, FpuClass::Div | FpuClass::Sqrt);
                let occ = if pipelined {
                    groups(p.fpu_lanes)
                } else {
                    u64::from(l) * groups(p.fpu_lanes)
                };
                (l, occ, Producer::Fpu)
            }
            Unit::Sfu(SfuKind::Weaver) => {
                self.counters.sfu += 1;
                let occupancy = groups(p.sfu_lanes);
                self.pipe
                    .units
                    .occupy_until(d.info.unit, now + occupancy + conflicts);
                return self.schedule_weaver(w, d, now + conflicts + occupancy - 1);
            }
            Unit::Sfu(_) => {
                self.counters.sfu += 1;
                (lat.sfu, groups(p.sfu_lanes), Producer::Sfu)
            }
            Unit::Lsu(kind) => {
                self.counters.lsu += 1;
                self.pipe
                    .units
                    .occupy_until(d.info.unit, now + groups(p.lsu_lanes) + conflicts);
                self.schedule_memory(w, d, kind, now + conflicts);
                return None;
            }
        };
        self.pipe
            .units
            .occupy_until(d.info.unit, now + occupancy + conflicts);
        if let Some(dst) = d.info.dst {
            let at = now + u64::from(latency) + conflicts + occupancy - 1;
            self.pipe.warps[w].set_ready(dst, at, producer);
        }
        None
    }

    /// The LSU: local-memory accesses with bank conflicts, global ones coalesced into lines.
    fn schedule_memory(&mut self, w: usize, d: &Decoded, kind: LsuKind, now: u64) {
        let p = &self.pipe.p;
        let start = now + u64::from(p.lat.lsu);
        if kind == LsuKind::Fence || self.touched.is_empty() {
            if let Some(dst) = d.info.dst {
                self.pipe.warps[w].set_ready(dst, start, Producer::Memory);
            }
            return;
        }
        let local_base = self.local_base;
        let local_size = self.local.len() as u32;
        let in_local = |a: u32| a.wrapping_sub(local_base) < local_size;
        if self.touched.iter().all(|&a| in_local(a)) {
            let degree = bank_conflict_degree(&self.touched, p.local_banks);
            self.counters.local_accesses += 1;
            self.counters.local_bank_conflict_cycles += degree - 1;
            let at = start + u64::from(p.lat.local_mem) + degree - 1;
            self.pipe.units.occupy_until(d.info.unit, now + degree);
            if let Some(dst) = d.info.dst {
                self.pipe.warps[w].set_ready(dst, at, Producer::Memory);
            }
            return;
        }
        let port_kind = match kind {
            LsuKind::Load => PortKind::Read,
            LsuKind::Store => PortKind::Write,
            _ => PortKind::Atomic,
        };
        self.coalesce(port_kind);
        self.counters.dcache_requests += self.pipe.lines.len() as u64;
        let id = if port_kind == PortKind::Write {
            STORE_TAG
        } else {
            self.track(LoadTracker {
                warp: w,
                dst: d.info.dst,
                remaining: self.pipe.lines.len() as u32,
                producer: Producer::Memory,
                eghw: false,
            })
        };
        self.queue_lines(start, port_kind, id);
    }

    /// The global addresses in `touched` as requests in `pipe.lines`: one per distinct
    /// line, or for atomics one per lane (they serialise at the last-level cache).
    fn coalesce(&mut self, kind: PortKind) {
        self.coalesce_range(kind, 0..self.touched.len());
    }

    /// [`Self::coalesce`] for `touched[range]`.
    fn coalesce_range(&mut self, kind: PortKind, range: std::ops::Range<usize>) {
        let local_base = self.local_base;
        let local_size = self.local.len() as u32;
        let line = self.pipe.p.line;
        let stacks = self.pipe.p.stacks;
        self.pipe.lines.clear();
        for &a in &self.touched[range] {
            if a.wrapping_sub(local_base) < local_size {
                continue;
            }
            let a = stacks.map_or(a, |(top, size, threads)| {
                interleaved_stack_address(a, top, size, threads)
            });
            let l = if kind == PortKind::Atomic {
                a & !3
            } else {
                line_of(a, line)
            };
            // Neighbouring lanes mostly share the last line: check it first.
            if self.pipe.lines.last() != Some(&l) && !self.pipe.lines.contains(&l) {
                self.pipe.lines.push(l);
            }
        }
    }

    /// Wait for `tracker.remaining` requests; their id.
    fn track(&mut self, tracker: LoadTracker) -> u64 {
        if let Some(dst) = tracker.dst {
            self.pipe.warps[tracker.warp].set_ready(dst, NEVER, tracker.producer);
        }
        let slot = match self.pipe.free_loads.pop() {
            Some(s) => {
                self.pipe.loads[s] = Some(tracker);
                s
            }
            None => {
                self.pipe.loads.push(Some(tracker));
                self.pipe.loads.len() - 1
            }
        };
        LOAD_TAG | slot as u64
    }

    /// Queue the requests in `pipe.lines` for the data cache from cycle `start`.
    fn queue_lines(&mut self, start: u64, kind: PortKind, id: u64) {
        let phase = self.phase;
        for &line in &self.pipe.lines {
            let req = PortRequest {
                id,
                line,
                kind,
                phase,
            };
            self.pipe.lsu_queue.push_back((start, req));
        }
    }

    /// The Weaver unit's timing: table accesses through shared memory (latency and port
    /// cycles), the FSM filling the next batch while warps work, and in EGHW mode the
    /// unit's own reads of the graph. Returns when a decode's answer reaches the warp
    /// (`NEVER`: when the EGHW unit's reads and buffer write are done).
    fn schedule_weaver(&mut self, w: usize, d: &Decoded, now: u64) -> Option<u64> {
        let unit = self
            .weaver
            .as_mut()
            .expect("Weaver instructions execute on the unit");
        let request = unit.last.take().expect("the unit recorded the request");
        let eghw = unit.mode == WeaverMode::Eghw;
        let p = &self.pipe.p;
        let table = u64::from(p.weaver.table_latency);
        let entry_cycles = u64::from(p.weaver.entry_cycles);
        let sfu = u64::from(p.lat.sfu);
        let banks = u64::from(p.local_banks);
        // Shared-memory port cycles for that many words.
        let port = |words: u64| words.div_ceil(banks);
        // An ST entry: (vid, loc, deg); in EGHW the registration buffer holds vertex ids.
        let entry_words = if eghw { 1 } else { 3 };
        let clock = &mut self.pipe.weaver;
        let cycles = &mut self.counters.weaver.state_cycles;
        match request {
            WeaverRequest::Register(r) => {
                if r.new_round {
                    if clock.finished {
                        cycles.add(FsmState::S8, now.saturating_sub(clock.idle_since));
                    }
                    *clock = WeaverClock {
                        idle_since: now,
                        ..WeaverClock::default()
                    };
                }
                clock.st_ready = clock.st_ready.max(now + table);
                let words = entry_words * u64::from(r.entries);
                if eghw && words > 0 {
                    // The warp stores its vertex ids in the buffer in shared memory.
                    self.counters.local_accesses += 1;
                    self.counters.local_bank_conflict_cycles += port(words) - 1;
                }
                self.pipe.units.hold(SHARED_PORT, now, port(words));
                None
            }
            WeaverRequest::Skip => None,
            WeaverRequest::Locate(lanes) => {
                self.pipe
                    .units
                    .hold(SHARED_PORT, now, port(u64::from(lanes)));
                if let Some(dst) = d.info.dst {
                    self.pipe.warps[w].set_ready(dst, now + sfu + table, Producer::Weaver);
                }
                None
            }
            WeaverRequest::Decode { trace, work } => {
                if trace.started {
                    let start = now.max(clock.st_ready);
                    cycles.add(FsmState::S0, start.saturating_sub(clock.idle_since));
                    cycles.add(FsmState::S1, table + 1);
                    clock.prep_start = start + table + 1;
                }
                if eghw && !clock.finished {
                    return self.eghw_decode(w, d, now, trace, work);
                }
                let answer = if clock.finished {
                    now
                } else {
                    let fill = u64::from(trace.fills > 0);
                    let loads = u64::from(trace.entries_loaded) * entry_cycles;
                    let write = u64::from(work != 0);
                    let last = u64::from(trace.ran_out);
                    cycles.add(FsmState::S2, fill);
                    cycles.add(FsmState::S4, loads);
                    cycles.add(FsmState::S5, write);
                    cycles.add(FsmState::S7, last);
                    let ready = clock.prep_start + fill + loads + write + last;
                    if work != 0 {
                        cycles.add(FsmState::S6, now.saturating_sub(ready));
                    }
                    let handout = now.max(ready);
                    clock.prep_start = handout;
                    if trace.ran_out {
                        clock.finished = true;
                        clock.idle_since = handout;
                    }
                    handout
                };
                let lanes = u64::from(work.count_ones());
                let st_reads = u64::from(trace.entries_loaded + u32::from(trace.started));
                self.pipe
                    .units
                    .hold(SHARED_PORT, now, port(3 * st_reads + lanes));
                let at = answer + sfu;
                if let Some(dst) = d.info.dst {
                    self.pipe.warps[w].set_ready(dst, at, Producer::Weaver);
                }
                Some(at)
            }
        }
    }

    /// EGHW: a decode request with work to look for. Nothing is prepared ahead (which
    /// entries and edges a batch takes depends on degrees the unit must read first): the
    /// unit starts when the request comes and it is free, reads the vertex ids of the
    /// entries it loads from the registration buffer, then their offsets, then the edges
    /// ([`Self::eghw_advance`] carries it on as the lines arrive). The request's port
    /// cycles for the ids and the DT row are charged at issue, like SparseWeaver's table
    /// traffic. Returns when the answer reaches the warp, `NEVER` if lines are in flight.
    fn eghw_decode(
        &mut self,
        w: usize,
        d: &Decoded,
        now: u64,
        trace: Trace,
        work: u32,
    ) -> Option<u64> {
        let p = &self.pipe.p;
        let entry_cycles = u64::from(p.weaver.entry_cycles);
        let banks = u64::from(p.local_banks);
        let threads = p.threads;
        let start = now.max(self.pipe.weaver.prep_start);
        // The ids of the entries it loads come from shared memory: one table access, the
        // further ids streaming behind it (a round's first entry was read in S1).
        let loads = if trace.entries_loaded == 0 {
            0
        } else {
            let first = if trace.started {
                0
            } else {
                u64::from(p.weaver.table_latency)
            };
            first + u64::from(trace.entries_loaded) * entry_cycles
        };
        self.counters.weaver.state_cycles.add(FsmState::S4, loads);
        let st_reads = u64::from(trace.entries_loaded + u32::from(trace.started));
        let id_cycles = st_reads.div_ceil(banks);
        if st_reads > 0 {
            self.counters.local_accesses += 1;
            self.counters.local_bank_conflict_cycles += id_cycles - 1;
        }
        let dt_cycles = u64::from(work.count_ones()).div_ceil(banks);
        self.pipe
            .units
            .hold(SHARED_PORT, now, id_cycles + dt_cycles);
        // The buffer write: (neighbour, weight) per lane, banks as for any local access.
        let buffer_cycles = if work == 0 {
            0
        } else {
            let unit = self.weaver.as_ref().expect("EGHW runs on the unit");
            let base = self.local_base.wrapping_add(unit.buffer_of(w, threads));
            let mut words = [0u32; 64];
            let mut n = 0;
            for l in super::warp::lanes(work) {
                let at = base.wrapping_add(8 * l as u32);
                words[n..n + 2].copy_from_slice(&[at, at.wrapping_add(4)]);
                n += 2;
            }
            bank_conflict_degree(&words[..n], p.local_banks)
        };
        // exec read the offsets (two words per entry, `topology_reads` of them) first, then
        // the neighbours and weights.
        let split = 2 * trace.topology_reads as usize;
        debug_assert!(split <= self.touched.len());
        self.coalesce_range(PortKind::Read, split..self.touched.len());
        let edges = self.pipe.lines.clone();
        self.coalesce_range(PortKind::Read, 0..split);
        self.counters.weaver.memory_requests += (self.pipe.lines.len() + edges.len()) as u64;
        if let Some(dst) = d.info.dst {
            self.pipe.warps[w].set_ready(dst, NEVER, Producer::Weaver);
        }
        let queued = start + loads;
        self.pipe.weaver.eghw = Some(EghwFetch {
            warp: w,
            dst: d.info.dst,
            edges,
            offsets_pending: true,
            queued,
            fill: u64::from(trace.fills > 0),
            buffer_cycles,
            write: u64::from(work != 0),
            last: u64::from(trace.ran_out),
        });
        if self.pipe.lines.is_empty() {
            // Every lane continues the current entry: no topology to read.
            return Some(self.eghw_advance(queued).map_or(NEVER, |(_, at)| at));
        }
        let id = self.track(LoadTracker {
            warp: w,
            dst: None,
            remaining: self.pipe.lines.len() as u32,
            producer: Producer::Weaver,
            eghw: true,
        });
        self.queue_lines(queued, PortKind::Read, id);
        Some(NEVER)
    }

    /// EGHW: the lines of the fetch's current stage arrived at `now`.
    fn eghw_lines_done(&mut self, now: u64) {
        if let Some((w, at)) = self.eghw_advance(now) {
            // The decode's warp-control instruction resolves with the answer.
            self.pipe.warps[w].resolve_at = at;
            self.pipe.next_resolve = self.pipe.next_resolve.min(at);
        }
    }

    /// EGHW: carry the fetch on from `now`, when the lines it waited for (if any) are in:
    /// after the offsets, remap (S2) and read the edges; after the edges, write the buffer
    /// through the shared-memory port and answer. The warp and when the answer reaches it,
    /// once the fetch is over; `None` while lines are in flight.
    fn eghw_advance(&mut self, now: u64) -> Option<(usize, u64)> {
        let table = u64::from(self.pipe.p.weaver.table_latency);
        let cycles = &mut self.counters.weaver.state_cycles;
        let f = self.pipe.weaver.eghw.as_mut().expect("an EGHW fetch");
        let mut now = now;
        if f.offsets_pending {
            f.offsets_pending = false;
            cycles.add(FsmState::S4, now - f.queued);
            cycles.add(FsmState::S2, f.fill);
            now += f.fill;
            if !f.edges.is_empty() {
                f.queued = now;
                let (warp, edges) = (f.warp, std::mem::take(&mut f.edges));
                let id = self.track(LoadTracker {
                    warp,
                    dst: None,
                    remaining: edges.len() as u32,
                    producer: Producer::Weaver,
                    eghw: true,
                });
                let phase = self.phase;
                for line in edges {
                    let kind = PortKind::Read;
                    let req = PortRequest {
                        id,
                        line,
                        kind,
                        phase,
                    };
                    self.pipe.lsu_queue.push_back((now, req));
                }
                return None;
            }
        } else {
            cycles.add(FsmState::S2, now - f.queued);
        }
        let f = self.pipe.weaver.eghw.take().expect("an EGHW fetch");
        let landed = if f.buffer_cycles == 0 {
            now
        } else {
            // The unit waits for the port like any local store; the words land
            // `table_latency` after the last cycle.
            let begin = self.pipe.units.free_at(SHARED_PORT).max(now);
            self.pipe.units.hold(SHARED_PORT, now, f.buffer_cycles);
            self.counters.local_accesses += 1;
            self.counters.local_bank_conflict_cycles += f.buffer_cycles - 1;
            begin + f.buffer_cycles - 1 + table
        };
        let at = landed + f.write + f.last;
        let cycles = &mut self.counters.weaver.state_cycles;
        cycles.add(FsmState::S5, landed - now + f.write);
        cycles.add(FsmState::S7, f.last);
        if let Some(dst) = f.dst {
            self.pipe.warps[f.warp].set_ready(dst, at, Producer::Weaver);
        }
        // The unit is free again: the next request starts from its answer.
        let clock = &mut self.pipe.weaver;
        clock.prep_start = at;
        if f.last > 0 {
            clock.finished = true;
            clock.idle_since = at;
        }
        for w in 0..self.pipe.warps.len() {
            self.pipe.wake(w);
        }
        Some((f.warp, at))
    }
}

impl Pipeline {
    /// Warp `w`'s state changed: examine it again before issuing.
    pub fn wake(&mut self, w: usize) {
        self.slices[w % self.p.slices].unblock(self.bits[w]);
        self.fetch_idle = false;
    }
}

#[inline]
fn line_of(addr: u32, line: u32) -> u32 {
    addr & !(line - 1)
}

/// Where stack address `a` lies when all threads' stacks are interleaved word by word, as
/// GPUs lay out thread-private memory: byte `o` below thread `h`'s stack top goes to word
/// `(o / 4) * threads + h`. A warp's lanes (consecutive harts) share lines, and the hot tops
/// of all stacks are one contiguous block rather than one block per warp `size * warp`
/// bytes apart, which would map to the same cache sets. A bijection on the stack region
/// (other addresses are unchanged), so caches see distinct lines for distinct data.
fn interleaved_stack_address(a: u32, top: u32, size: u32, threads: u32) -> u32 {
    let below = u64::from(top.wrapping_sub(a).wrapping_sub(1));
    let (size, threads) = (u64::from(size), u64::from(threads));
    if a >= top || below >= threads * size {
        return a;
    }
    let (thread, offset) = (below / size, below % size);
    let mapped = ((offset / 4) * threads + thread) * 4 + offset % 4;
    top - 1 - mapped as u32
}

/// Extra cycles to read the source registers: each register beyond the first in one bank.
fn register_bank_conflicts(srcs: &[Option<RegRef>; 3], banks: u32) -> u64 {
    // Register numbers are below 32, so are their banks: one bit per register (integer
    // then float) and one per bank read.
    let (mut seen, mut used, mut extra) = (0u64, 0u32, 0);
    for r in srcs.iter().flatten() {
        let reg = 1 << (u32::from(r.num) + 32 * u32::from(r.file == RegFile::Float));
        if seen & reg != 0 {
            continue;
        }
        seen |= reg;
        let bank = 1 << (u32::from(r.num) % banks);
        extra += u64::from(used & bank != 0);
        used |= bank;
    }
    extra
}

/// The number of cycles a local-memory access needs: the largest number of distinct words
/// that fall in one bank (words are interleaved over `banks`). A word read by several lanes
/// is one access (a broadcast).
fn bank_conflict_degree(addrs: &[u32], banks: u32) -> u64 {
    let mut per_bank = [0u64; 64];
    for (k, &a) in addrs.iter().enumerate() {
        let word = a >> 2;
        if !addrs[..k].iter().any(|&b| b >> 2 == word) {
            per_bank[(word % banks) as usize % 64] += 1;
        }
    }
    per_bank.iter().copied().max().unwrap_or(1).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(num: u8) -> Option<RegRef> {
        Some(RegRef {
            file: RegFile::Int,
            num,
        })
    }

    #[test]
    fn register_banks() {
        assert_eq!(register_bank_conflicts(&[r(1), r(2), None], 4), 0);
        assert_eq!(register_bank_conflicts(&[r(1), r(5), None], 4), 1);
        assert_eq!(
            register_bank_conflicts(&[r(1), r(1), None], 4),
            0,
            "one read of one register"
        );
        assert_eq!(register_bank_conflicts(&[r(1), r(5), r(9)], 4), 2);
    }

    #[test]
    fn interleaved_stacks_coalesce_and_stay_distinct() {
        let (top, size, threads) = (0xFE00_0000u32, 4096, 64);
        // The same spill slot of a warp's 32 threads: 32 words in two 64-byte lines.
        let lines: std::collections::BTreeSet<u32> = (0..32)
            .map(|h| interleaved_stack_address(top - h * size - 8, top, size, threads) & !63)
            .collect();
        assert_eq!(lines.len(), 2);
        // A bijection on the region; addresses outside are unchanged.
        let region = top - threads * size;
        let mut seen = std::collections::BTreeSet::new();
        for a in (region..top).step_by(4) {
            let m = interleaved_stack_address(a, top, size, threads);
            assert!((region..top).contains(&m) && seen.insert(m), "{a:#x}");
        }
        assert_eq!(interleaved_stack_address(top, top, size, threads), top);
        assert_eq!(
            interleaved_stack_address(region - 4, top, size, threads),
            region - 4
        );
    }

    #[test]
    fn local_bank_degree() {
        let unit_stride: Vec<u32> = (0..32).map(|l| 0xFF00_0000 + 4 * l).collect();
        assert_eq!(bank_conflict_degree(&unit_stride, 32), 1);
        let stride2: Vec<u32> = (0..32).map(|l| 0xFF00_0000 + 8 * l).collect();
        assert_eq!(bank_conflict_degree(&stride2, 32), 2);
        let same_word = vec![0xFF00_0000; 32];
        assert_eq!(bank_conflict_degree(&same_word, 32), 1, "a broadcast");
        let stride32: Vec<u32> = (0..32).map(|l| 0xFF00_0000 + 128 * l).collect();
        assert_eq!(bank_conflict_degree(&stride32, 32), 32);
    }
}
