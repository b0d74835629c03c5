//! What an executed instruction counts: its [`Executed`] record into the core's counters
//! and the timeline's events, in one place. Execution counts nothing itself; the
//! pipeline's issue counts the instruction and calls [`Core::account`] after it executed
//! (also when it failed: a failed run's statistics include what it did).

use wsim_isa::Unit;

use super::exec::{Executed, MemoryOp};
use super::warp::lanes;
use super::weaver::{Trace, WeaverRequest};
use super::Core;
use crate::config::WeaverMode;
use crate::stats::{FsmState, WeaverCounters};
use crate::timeline::CoreEvent;

impl Core {
    /// Warp `w` issued an instruction with `lanes` active lanes (before it executes: a
    /// phase it sets counts from the next one).
    #[inline]
    pub(in crate::core) fn count_issue(&mut self, lanes: u32) {
        self.counters.instructions += 1;
        self.counters.thread_instructions += u64::from(lanes.count_ones());
    }

    /// A warp instruction on `unit`, counted once it executed (so one that sets the phase
    /// counts its unit in the new phase, and a failed one none).
    #[inline]
    pub(in crate::core) fn count_unit(&mut self, unit: Unit) {
        let c = &mut self.counters;
        match unit {
            Unit::Alu => c.alu += 1,
            Unit::Mul => c.mul += 1,
            Unit::Div => c.div += 1,
            Unit::Fpu(_) => c.fpu += 1,
            Unit::Lsu(_) => c.lsu += 1,
            Unit::Sfu(_) => c.sfu += 1,
        }
    }

    /// Count what warp `w`'s instruction, executed at `now`, did.
    #[inline]
    pub(in crate::core) fn account(&mut self, w: usize, rec: &Executed, now: u64) {
        let e = &rec.events;
        let c = &mut self.counters;
        c.branches += u64::from(e.branch);
        c.divergent_branches += u64::from(e.divergent);
        c.unknown_indirect_divergence += u64::from(e.unknown_indirect);
        c.traps += u64::from(e.trapped);
        match e.memory {
            Some(MemoryOp::Load) => c.loads += 1,
            Some(MemoryOp::Store) => c.stores += 1,
            Some(MemoryOp::Atomic) => c.atomics += 1,
            None => {}
        }
        if let Some(request) = &rec.weaver {
            let eghw = self
                .weaver
                .as_ref()
                .is_some_and(|u| u.mode == WeaverMode::Eghw);
            count_weaver(&mut self.counters.weaver, request, eghw);
        }
        for k in lanes(e.spawned) {
            self.warp_spawned(k, now);
        }
        if e.retired {
            self.warp_left(w, now + 1);
        }
        if let Some(id) = e.barrier {
            self.counters.barriers += 1;
            if let Some(t) = &mut self.trace {
                let warp = w as u32;
                t.warp(CoreEvent::BarrierArrive { at: now, warp, id });
                if rec.released != 0 {
                    let warps = rec.released;
                    t.warp(CoreEvent::BarrierRelease { at: now, warps });
                }
            }
        }
    }
}

/// The Weaver unit's counts of a request: table traffic and the FSM's state visits
/// (its cycles in each state are the timing's, `core/weaver/timing.rs`).
fn count_weaver(c: &mut WeaverCounters, request: &WeaverRequest, eghw: bool) {
    match *request {
        WeaverRequest::Register(r) => {
            c.registrations += 1;
            c.entries_registered += u64::from(r.entries);
            c.table_writes += u64::from(r.entries);
            if r.new_round {
                c.rounds += 1;
                c.state_visits.add(FsmState::S0, 1);
            }
        }
        WeaverRequest::Locate(lanes) => {
            c.location_requests += 1;
            c.table_reads += u64::from(lanes);
        }
        WeaverRequest::Skip { lanes, edges } => {
            c.edges_skipped += edges;
            c.skips += u64::from(lanes);
        }
        WeaverRequest::Decode { trace, work } => count_decode(c, trace, work, eghw),
    }
}

fn count_decode(c: &mut WeaverCounters, t: Trace, work: u32, eghw: bool) {
    c.decode_requests += 1;
    c.edges_skipped += t.edges_skipped;
    c.table_reads += u64::from(t.entries_loaded + u32::from(t.started));
    let v = &mut c.state_visits;
    v.add(FsmState::S1, u64::from(t.started));
    v.add(FsmState::S2, u64::from(t.fills));
    v.add(FsmState::S3, u64::from(t.entries_loaded));
    v.add(FsmState::S4, u64::from(t.entries_loaded));
    v.add(FsmState::S7, u64::from(t.ran_out));
    let filled = u64::from(work.count_ones());
    if work == 0 {
        c.empty_answers += 1;
        v.add(FsmState::S8, 1);
    } else {
        c.batches += 1;
        c.lanes_filled += filled;
        c.table_writes += filled;
        v.add(FsmState::S5, 1);
        v.add(FsmState::S6, 1);
    }
    if eghw {
        // The unit writes each lane's (neighbour, weight) into the warp's buffer.
        c.table_writes += 2 * filled;
    }
}
