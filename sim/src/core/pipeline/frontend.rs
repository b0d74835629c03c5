//! The front end: one instruction fetch per core per cycle, through the instruction cache
//! into the warp's instruction buffer (`ibuffer.rs`), `core.fetch_latency` +
//! `core.decode_latency` after the cache. A branch, jump or warp-control instruction stops
//! its warp's fetch until it resolves. Two disciplines (`core.fetch_ahead`):
//! - Vortex's (SimX `Scheduler::schedule`, `Core::Impl::decode`): the lowest-numbered warp
//!   that can is scheduled, reads the cache for one instruction and is not scheduled again
//!   until that instruction is decoded; control instructions keep it until they leave
//!   their unit.
//! - ahead: round robin over the warps whose buffer has room, each fetching ahead from a
//!   line buffer that holds its last instruction line.

use wsim_isa::{Decoded, Flow};

use super::coalescer::line_of;
use super::ibuffer::{Fetched, InstructionBuffer};
use super::memory_port::{PortKind, PortRequest, Refusal, Ticket};
use super::{bits_from, MemoryPort, NEVER};
use crate::core::warp::WarpWait;
use crate::core::Core;
use crate::shared::Shared;

/// Where a warp's fetch stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FetchState {
    /// It fetches when its instruction buffer has room.
    Open,
    /// It waits for the instruction cache to deliver this line.
    Miss(u32),
    /// Vortex: its fetched instruction is decoded at `at`; the warp is scheduled again then.
    Decode { at: u64 },
    /// A fetched branch, jump or warp-control instruction has not resolved yet. `at`: when
    /// it resolves (`NEVER` until it issues, or while the Weaver's answer is unknown);
    /// `weaver`: it is a Weaver decode, whose warp waits on the unit.
    Control { at: u64, weaver: bool },
}

/// One warp's front end.
#[derive(Clone, Debug)]
pub(super) struct WarpFront {
    /// The state belongs to the warp's current launch.
    pub started: bool,
    pub fetch_pc: u32,
    pub state: FetchState,
    pub ibuf: InstructionBuffer,
    /// The instruction line held by the warp's fetch buffer.
    pub line: Option<u32>,
    /// Vortex: the instruction whose line is being read (none if the warp was redirected
    /// meanwhile).
    fetching: Option<(u32, Option<Decoded>)>,
}

impl WarpFront {
    pub(super) fn new(ibuffer: usize) -> Self {
        WarpFront {
            started: false,
            fetch_pc: 0,
            state: FetchState::Open,
            ibuf: InstructionBuffer::new(ibuffer),
            line: None,
            fetching: None,
        }
    }

    /// The PC of the instruction being fetched, or else of the next to fetch.
    pub(super) fn next_pc(&self) -> u32 {
        self.fetching.map_or(self.fetch_pc, |(pc, _)| pc)
    }

    /// Fetch stopped for a control instruction: go on from `pc`.
    fn resume(&mut self, pc: u32) {
        self.state = FetchState::Open;
        self.ibuf.clear();
        self.fetch_pc = pc;
    }
}

/// The core's front end.
#[derive(Clone, Debug)]
pub(super) struct FrontEnd {
    pub warps: Vec<WarpFront>,
    next_fetch: usize,
    /// A bit per warp that may be able to fetch: set when the warp is woken, cleared when
    /// it is found unable, so fetch looks only at these (none: no warp can fetch until
    /// one is woken). Every change that lets a warp fetch wakes it.
    pub may_fetch: u32,
    /// A bit per warp whose control instruction or decode may resolve (its state has a
    /// known cycle); cleared when it resolves or is found to have none.
    resolving: u32,
    /// The instruction cache refused a fetch until a completion, and why.
    pub waits_completion: Option<Refusal>,
    /// The earliest cycle a pending control instruction resolves.
    pub next_resolve: u64,
    /// Instruction-cache hits handed back by the port, (cycle, warp), to complete at their
    /// cycle (at most one per warp), and the earliest of those cycles.
    pub hits: Vec<(u64, usize)>,
    pub next_hit: u64,
}

impl FrontEnd {
    pub(super) fn new(warps: usize, ibuffer: usize) -> Self {
        FrontEnd {
            warps: (0..warps).map(|_| WarpFront::new(ibuffer)).collect(),
            next_fetch: 0,
            may_fetch: 0,
            resolving: 0,
            waits_completion: None,
            next_resolve: NEVER,
            hits: Vec::new(),
            next_hit: NEVER,
        }
    }

    /// Warp `w`'s pending control instruction resolves at `at`.
    pub(in crate::core) fn resolve_at(&mut self, w: usize, at: u64, weaver: bool) {
        if let FetchState::Control {
            at: when,
            weaver: waits,
        } = &mut self.warps[w].state
        {
            *when = at;
            *waits = weaver;
            if at != NEVER {
                self.resolving |= 1 << w;
            }
        }
        self.next_resolve = self.next_resolve.min(at);
    }
}

impl Core {
    /// The instruction line warp `w` waited for arrived at `now`.
    pub(super) fn line_arrived(&mut self, w: usize, now: u64) {
        let (ahead, decode) = (self.pipe.p.fetch_ahead, self.pipe.p.decode);
        let front = &mut self.pipe.front;
        let t = &mut front.warps[w];
        if let FetchState::Miss(line) = t.state {
            t.state = FetchState::Open;
            if ahead {
                t.line = Some(line);
            } else if let Some((pc, decoded)) = t.fetching.take() {
                let at = now + decode;
                t.ibuf.push(Fetched::new(pc, at, &decoded));
                t.state = if decoded.is_some_and(|d| d.info.flow != Flow::None) {
                    FetchState::Control {
                        at: NEVER,
                        weaver: false,
                    }
                } else {
                    front.next_resolve = front.next_resolve.min(at);
                    front.resolving |= 1 << w;
                    FetchState::Decode { at }
                };
            }
        }
        self.pipe.wake(w);
    }

    pub(super) fn can_fetch(&self, w: usize) -> bool {
        let t = &self.pipe.front.warps[w];
        t.started && t.state == FetchState::Open && t.ibuf.has_room() && self.warps[w].is_live()
    }

    /// Whether warp `w` would fetch next cycle by itself: from its line buffer, or by
    /// (re)trying the instruction cache.
    pub(super) fn fetches_by_itself(&self, w: usize) -> bool {
        let t = &self.pipe.front.warps[w];
        let buffered = t.line == Some(line_of(t.fetch_pc, self.pipe.p.line));
        self.can_fetch(w) && (buffered || self.pipe.front.waits_completion.is_none())
    }

    /// Control instructions whose time has come resolve, and (Vortex) decodes complete:
    /// their warps fetch again.
    pub(super) fn resolve_control(&mut self, now: u64, progressed: &mut bool) {
        if now < self.pipe.front.next_resolve {
            return;
        }
        let mut next = NEVER;
        let mut pending = self.pipe.front.resolving;
        while pending != 0 {
            let w = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            let (at, control) = match self.pipe.front.warps[w].state {
                FetchState::Control { at, .. } if at != NEVER => (at, true),
                FetchState::Decode { at } => (at, false),
                _ => {
                    self.pipe.front.resolving &= !(1 << w);
                    continue;
                }
            };
            if at > now {
                next = next.min(at);
                continue;
            }
            self.pipe.front.resolving &= !(1 << w);
            let t = &mut self.pipe.front.warps[w];
            if !control {
                t.state = FetchState::Open;
                self.pipe.wake(w);
                *progressed = true;
                continue;
            }
            let pc = if self.warps[w].is_live() {
                self.warps[w].stack.pc()
            } else {
                t.fetch_pc
            };
            t.resume(pc);
            self.pipe.wake(w);
            *progressed = true;
        }
        self.pipe.front.next_resolve = next;
    }

    /// One instruction fetch per core per cycle: Vortex's lowest-numbered warp that can, or
    /// (fetching ahead) round robin.
    pub(super) fn fetch(
        &mut self,
        now: u64,
        sh: &mut Shared,
        port: &mut dyn MemoryPort,
        progressed: &mut bool,
    ) {
        let n = self.warps.len();
        let ahead = self.pipe.p.fetch_ahead;
        let next = if ahead { self.pipe.front.next_fetch } else { 0 };
        // The first warp from `next` on that can fetch; those found unable wait for a wake
        // (they issue, a fill arrives or a branch resolves).
        let mut found = None;
        while let Some(w) = bits_from(self.pipe.front.may_fetch, next).next() {
            if self.can_fetch(w) {
                found = Some(w);
                break;
            }
            self.pipe.front.may_fetch &= !(1 << w);
        }
        let Some(w) = found else {
            return;
        };
        self.pipe.front.next_fetch = (w + 1) % n;
        let (line_size, decode) = (self.pipe.p.line, self.pipe.p.decode);
        let t = &mut self.pipe.front.warps[w];
        let line = line_of(t.fetch_pc, line_size);
        if ahead && t.line == Some(line) {
            let decoded = match sh.program.fetch(t.fetch_pc, &sh.mem) {
                Some(Ok(d)) => Some(*d),
                _ => None,
            };
            if decoded.is_some_and(|d| d.info.flow != Flow::None) {
                t.state = FetchState::Control {
                    at: NEVER,
                    weaver: false,
                };
            }
            t.ibuf
                .push(Fetched::new(t.fetch_pc, now + decode, &decoded));
            t.fetch_pc = t.fetch_pc.wrapping_add(4);
            self.pipe.sched.wake(w);
            *progressed = true;
        } else {
            let req = PortRequest {
                ticket: Ticket::Fetch(w),
                line,
                kind: PortKind::Fetch,
                phase: self.phase,
                ops: 0,
                pc: t.fetch_pc,
            };
            match port.send(now, self.id, req) {
                Ok(hit) => {
                    if let Some(at) = hit {
                        // Applied no earlier than a completion would be (the next tick).
                        let at = at.max(now + 1);
                        self.pipe.front.hits.push((at, w));
                        self.pipe.front.next_hit = self.pipe.front.next_hit.min(at);
                    }
                    let t = &mut self.pipe.front.warps[w];
                    t.state = FetchState::Miss(line);
                    // Its answer is the instruction cache's now, not an empty buffer's.
                    if t.ibuf.is_empty() && self.warps[w].wait == WarpWait::Ready {
                        self.pipe.sched.fetch_sent(w);
                    }
                    if !ahead {
                        // Decoded from the word now; it reaches the buffer with the line.
                        let decoded = match sh.program.fetch(t.fetch_pc, &sh.mem) {
                            Some(Ok(d)) => Some(*d),
                            _ => None,
                        };
                        t.fetching = Some((t.fetch_pc, decoded));
                        t.fetch_pc = t.fetch_pc.wrapping_add(4);
                    }
                    *progressed = true;
                }
                Err(retry) => {
                    // The same warp asks again: the instruction cache keeps its place in the
                    // queue for the way below (back-pressure grants credits in order).
                    self.pipe.front.next_fetch = w;
                    self.pipe.front.waits_completion = retry.refusal();
                }
            }
        }
    }

    /// After an instruction that was not expected to change the flow (a trap, the end of
    /// a divergent path), refetch from the warp's actual next PC.
    pub(super) fn redirect_if_needed(&mut self, w: usize) {
        self.pipe.wake(w);
        let t = &mut self.pipe.front.warps[w];
        if !self.warps[w].is_live() {
            t.ibuf.clear();
            t.fetching = None;
            if matches!(
                t.state,
                FetchState::Control { .. } | FetchState::Decode { .. }
            ) {
                t.state = FetchState::Open;
            }
            return;
        }
        let pc = self.warps[w].stack.pc();
        let expected = (t.ibuf.front().map(|f| f.pc))
            .or(t.fetching.map(|(p, _)| p))
            .unwrap_or(t.fetch_pc);
        if pc != expected {
            let pending = matches!(
                t.state,
                FetchState::Control { .. } | FetchState::Decode { .. }
            );
            t.ibuf.clear();
            t.fetching = None;
            t.fetch_pc = pc;
            if pending {
                t.state = FetchState::Open;
            }
        }
    }
}
