//! The load-store unit: local-memory accesses (the banks are `core/local_memory.rs`'s),
//! global ones through the coalescer (`coalescer.rs`) into the LSU queue, which drains
//! through the memory port (`memory_port.rs`), and the tracking of loads until their last
//! line arrives.

use std::collections::VecDeque;

use wsim_isa::{Decoded, LsuKind, RegRef, Unit};

use super::memory_port::{PortKind, PortRequest, Refusal, Ticket};
use super::scoreboard::Producer;
use super::NEVER;
use crate::core::Core;

/// The unit whose occupancy is the LSU's, and so the shared-memory port's.
pub(in crate::core) const SHARED_PORT: Unit = Unit::Lsu(LsuKind::Load);

/// Line requests the LSU may hold before it stops accepting instructions.
pub(super) const LSU_QUEUE: usize = 64;

/// A load, an atomic or an EGHW decode waiting for its line requests.
#[derive(Clone, Copy, Debug)]
pub(in crate::core) struct LoadTracker {
    pub warp: usize,
    pub dst: Option<RegRef>,
    pub remaining: u32,
    pub producer: Producer,
    /// The lines are a stage of the EGHW unit's fetch, not a load: their completion moves
    /// the fetch on.
    pub eghw: bool,
    /// Its first line has left for the data cache: it holds an entry of the pending-load
    /// table until its last line arrives.
    pub sent: bool,
}

/// The LSU's state.
#[derive(Clone, Debug, Default)]
pub(in crate::core) struct Lsu {
    /// Line requests waiting to enter the data cache: (earliest cycle, request).
    pub queue: VecDeque<(u64, PortRequest)>,
    /// The head of the queue was refused until a completion, and why.
    pub waits_completion: Option<Refusal>,
    loads: Vec<Option<LoadTracker>>,
    free_loads: Vec<usize>,
    /// Loads and atomics that may be in flight at once, from their first line sent to
    /// their last line back (`core.lsu_pending`; 0: no limit), and those that are.
    pending_limit: usize,
    pending: usize,
}

impl Lsu {
    pub(super) fn new(pending_limit: u32) -> Lsu {
        Lsu {
            pending_limit: pending_limit as usize,
            ..Lsu::default()
        }
    }

    /// The tracker in `slot` got one of its lines; the tracker if that was the last.
    pub(super) fn line_arrived(&mut self, slot: usize) -> Option<LoadTracker> {
        let tracker = self.loads.get_mut(slot).and_then(Option::as_mut)?;
        tracker.remaining -= 1;
        if tracker.remaining > 0 {
            return None;
        }
        self.free_loads.push(slot);
        let done = self.loads[slot].take();
        if done.is_some_and(|t| t.sent) {
            self.pending -= 1;
        }
        done
    }

    /// The load whose first line `ticket` is, if the pending-load table counts it (a
    /// Weaver fetch is not the LSU's).
    fn starts_load(&self, ticket: Ticket) -> Option<usize> {
        let Ticket::Load(slot) = ticket else {
            return None;
        };
        let t = self.loads.get(slot).and_then(Option::as_ref)?;
        (self.pending_limit > 0 && !t.eghw && !t.sent).then_some(slot)
    }
}

impl Core {
    /// Send the queued line requests whose time has come, until the port refuses one.
    pub(super) fn drain_lsu(
        &mut self,
        now: u64,
        port: &mut dyn super::MemoryPort,
        progressed: &mut bool,
    ) {
        while let Some(&(at, req)) = self.pipe.lsu.queue.front() {
            if at > now {
                break;
            }
            let lsu = &mut self.pipe.lsu;
            // Vortex's LSU sends a load only with a free entry in its pending-request table
            // (`LsuUnit::process_request_step`), in order: what follows waits behind it.
            let starts = lsu.starts_load(req.ticket);
            if starts.is_some() && lsu.pending >= lsu.pending_limit {
                lsu.waits_completion = Some(Refusal::PendingLoads);
                break;
            }
            if let Err(retry) = port.send(now, self.id, req) {
                self.pipe.lsu.waits_completion = retry.refusal();
                break;
            }
            let lsu = &mut self.pipe.lsu;
            if let Some(slot) = starts {
                lsu.pending += 1;
                if let Some(t) = lsu.loads[slot].as_mut() {
                    t.sent = true;
                }
            }
            lsu.queue.pop_front();
            if self.pipe.lsu.queue.len() == LSU_QUEUE - 1 {
                // Warps held back by the full queue may issue again.
                self.pipe.wake_all();
            }
            *progressed = true;
        }
    }

    /// The LSU: local-memory accesses with bank conflicts, global ones coalesced into lines
    /// (requests of the instruction at `pc`).
    pub(super) fn schedule_memory(
        &mut self,
        w: usize,
        pc: u32,
        d: &Decoded,
        kind: LsuKind,
        now: u64,
        accesses: &[u32],
    ) {
        let p = &self.pipe.p;
        let start = now + u64::from(p.lat.lsu);
        if kind == LsuKind::Fence || accesses.is_empty() {
            if let Some(dst) = d.info.dst {
                self.pipe.written_back(w, dst, start, Producer::Memory);
            }
            return;
        }
        if accesses.iter().all(|&a| self.local.contains(a)) {
            let degree = self.local.conflict_degree(accesses);
            self.counters.local_accesses += 1;
            self.counters.local_bank_conflict_cycles += degree - 1;
            if let Some(p) = &mut self.profile {
                p.memory(pc).local_bank_conflict_cycles += degree - 1;
            }
            let at = start + u64::from(p.lat.local_mem) + degree - 1;
            self.pipe.units.occupy_until(d.info.unit, now + degree);
            if let Some(dst) = d.info.dst {
                self.pipe.written_back(w, dst, at, Producer::Memory);
            }
            return;
        }
        let port_kind = match kind {
            LsuKind::Load => PortKind::Read,
            LsuKind::Store => PortKind::Write,
            _ => PortKind::Atomic,
        };
        self.coalesce(port_kind, accesses);
        let lines = self.pipe.coalescer.lines().len();
        self.counters.dcache_requests += lines as u64;
        if let Some(p) = &mut self.profile {
            p.memory(pc).line_requests += lines as u64;
        }
        let ticket = if port_kind == PortKind::Write {
            Ticket::Store
        } else {
            self.track(LoadTracker {
                warp: w,
                dst: d.info.dst,
                remaining: lines as u32,
                producer: Producer::Memory,
                eghw: false,
                sent: false,
            })
        };
        self.queue_lines(start, port_kind, ticket, pc);
    }

    /// The global addresses among `accesses` as line requests in the coalescer.
    pub(in crate::core) fn coalesce(&mut self, kind: PortKind, accesses: &[u32]) {
        self.pipe.coalescer.coalesce(kind, accesses, &self.local);
    }

    /// Wait for `tracker.remaining` requests; the ticket they carry.
    pub(in crate::core) fn track(&mut self, tracker: LoadTracker) -> Ticket {
        if let Some(dst) = tracker.dst {
            self.pipe.scoreboard[tracker.warp].set_ready(dst, NEVER, tracker.producer);
        }
        let lsu = &mut self.pipe.lsu;
        let slot = match lsu.free_loads.pop() {
            Some(s) => {
                lsu.loads[s] = Some(tracker);
                s
            }
            None => {
                lsu.loads.push(Some(tracker));
                lsu.loads.len() - 1
            }
        };
        Ticket::Load(slot)
    }

    /// Queue the coalescer's requests (with their operations for an atomic) of the
    /// instruction at `pc` for the data cache from cycle `start`.
    fn queue_lines(&mut self, start: u64, kind: PortKind, ticket: Ticket, pc: u32) {
        let phase = self.phase;
        let c = &self.pipe.coalescer;
        for (k, &line) in c.lines().iter().enumerate() {
            let req = PortRequest {
                ticket,
                line,
                kind,
                phase,
                ops: c.ops().get(k).copied().unwrap_or(0),
                pc,
            };
            self.pipe.lsu.queue.push_back((start, req));
        }
    }
}
