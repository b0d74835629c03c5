//! When the Weaver does what (`table.rs` says what): table accesses through shared memory
//! (latency and port cycles), the FSM filling the next batch while the warps work, and in
//! EGHW mode the unit's own dependent reads of the graph through the L1D.

use std::collections::VecDeque;

use wsim_isa::Decoded;

use super::{Trace, WeaverRequest};
use crate::config::{EghwReads, WeaverMode};
use crate::core::pipeline::{LoadTracker, PortKind, PortRequest, Producer, NEVER, SHARED_PORT};
use crate::core::warp::lanes;
use crate::core::Core;
use crate::stats::FsmState;
use crate::timeline::CoreEvent;

/// The FSM's clock. It prepares one batch ahead: after handing a batch out it fills the
/// next while the warps work.
#[derive(Clone, Debug, Default)]
pub(super) struct WeaverClock {
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

impl WeaverClock {
    /// The EGHW unit is fetching for a request and takes no other.
    pub(super) fn busy(&self) -> bool {
        self.eghw.is_some()
    }
}

/// EGHW: a decode request in flight. Its reads are two dependent stages through the L1D:
/// the offsets of the entries it loads (the degrees decide which lanes get which edges),
/// then the neighbour (and weight) of each edge it hands out; then the unit writes them
/// into the warp's buffer in local memory and the warp gets its answer. The unit reads
/// one word at a time, each read waiting for the one before (the dissertation's EGHW
/// "does not effectively hide the overhead of memory reads", section 4.6.8), unless
/// `weaver.eghw_reads` has it read a line at a time or issue each stage's lines together.
#[derive(Clone, Debug)]
struct EghwFetch {
    warp: usize,
    /// The decode instruction: its reads are charged to it.
    pc: u32,
    dst: Option<wsim_isa::RegRef>,
    /// The edge reads, made once the offsets are in (empty when the offsets are in
    /// flight and the batch has no work, or once the edge reads started).
    edges: Vec<u32>,
    /// Serial reads: the reads of the current stage still to make, one after the other.
    waiting: VecDeque<u32>,
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

impl Core {
    fn clock(&mut self) -> &mut WeaverClock {
        &mut self
            .weaver
            .as_mut()
            .expect("the Weaver's timing runs on the unit")
            .clock
    }

    /// The timing of `request`, issued by warp `w` at `now` (the instruction at `pc`) with
    /// the addresses execution recorded. Returns when a decode's answer reaches the warp (`NEVER`: when the EGHW
    /// unit's reads and buffer write are done).
    pub(in crate::core) fn schedule_weaver(
        &mut self,
        w: usize,
        pc: u32,
        d: &Decoded,
        now: u64,
        request: WeaverRequest,
        accesses: &[u32],
    ) -> Option<u64> {
        let unit = self
            .weaver
            .as_mut()
            .expect("Weaver instructions execute on the unit");
        let eghw = unit.mode == WeaverMode::Eghw;
        let p = &self.pipe.p;
        let table = u64::from(p.weaver.table_latency);
        let entry_cycles = u64::from(p.weaver.entry_cycles);
        let sfu = u64::from(p.lat.sfu);
        let banks = u64::from(self.local.banks());
        // Shared-memory port cycles for that many words.
        let port = |words: u64| words.div_ceil(banks);
        // An ST entry: (vid, loc, deg); in EGHW the registration buffer holds vertex ids.
        let entry_words = if eghw { 1 } else { 3 };
        let clock = &mut unit.clock;
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
            WeaverRequest::Skip { .. } => None,
            WeaverRequest::Locate(lanes) => {
                self.pipe
                    .units
                    .hold(SHARED_PORT, now, port(u64::from(lanes)));
                if let Some(dst) = d.info.dst {
                    self.pipe
                        .written_back(w, dst, now + sfu + table, Producer::Weaver);
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
                // A warp still in a finished round, or past the end of the last one, is
                // answered -1 at once.
                let over = clock.finished || trace.previous_round;
                if eghw && !over {
                    let at = self.eghw_decode((w, pc), d, now, trace, work, accesses);
                    self.trace_weaver_wait(w, now, at.filter(|&at| at != NEVER));
                    return at;
                }
                let answer = if over {
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
                    self.pipe.written_back(w, dst, at, Producer::Weaver);
                }
                self.trace_weaver_wait(w, now, Some(at));
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
    /// The request is warp `w`'s instruction at `pc`.
    fn eghw_decode(
        &mut self,
        (w, pc): (usize, u32),
        d: &Decoded,
        now: u64,
        trace: Trace,
        work: u32,
        accesses: &[u32],
    ) -> Option<u64> {
        let start = now.max(self.clock().prep_start);
        let p = &self.pipe.p;
        let entry_cycles = u64::from(p.weaver.entry_cycles);
        let banks = u64::from(self.local.banks());
        let threads = p.threads;
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
            let base = self.local.address(unit.buffer_of(w, threads));
            let mut words = [0u32; 64];
            let mut n = 0;
            for l in lanes(work) {
                let at = base.wrapping_add(8 * l as u32);
                words[n..n + 2].copy_from_slice(&[at, at.wrapping_add(4)]);
                n += 2;
            }
            self.local.conflict_degree(&words[..n])
        };
        // Execution read the offsets (two words per entry, `topology_reads` of them)
        // first, then the neighbours and weights.
        let split = 2 * trace.topology_reads as usize;
        debug_assert!(split <= accesses.len());
        let mode = p.weaver.eghw_reads;
        let pipelined = mode == EghwReads::Pipelined;
        // A stage's requests: one per word, or one per distinct line (its words are
        // served from the line).
        let reads = |core: &mut Core, words: &[u32]| {
            if mode == EghwReads::WordSerial {
                core.pipe.coalescer.word_reads(words);
            } else {
                core.coalesce(PortKind::Read, words);
            }
            core.pipe.coalescer.take_lines()
        };
        let edges = reads(self, &accesses[split..]);
        let mut offsets: VecDeque<u32> = reads(self, &accesses[..split]).into();
        self.counters.weaver.memory_requests += (offsets.len() + edges.len()) as u64;
        if let Some(dst) = d.info.dst {
            self.pipe.scoreboard[w].set_ready(dst, NEVER, Producer::Weaver);
        }
        let queued = start + loads;
        self.clock().eghw = Some(EghwFetch {
            warp: w,
            pc,
            dst: d.info.dst,
            edges,
            waiting: VecDeque::new(),
            offsets_pending: true,
            queued,
            fill: u64::from(trace.fills > 0),
            buffer_cycles,
            write: u64::from(work != 0),
            last: u64::from(trace.ran_out),
        });
        if offsets.is_empty() {
            // Every lane continues the current entry: no topology to read.
            return Some(self.eghw_advance(queued).map_or(NEVER, |(_, at)| at));
        }
        let first = if pipelined {
            offsets.drain(..).collect()
        } else {
            vec![offsets.pop_front().expect("an offset read")]
        };
        self.clock()
            .eghw
            .as_mut()
            .expect("the fetch just begun")
            .waiting = offsets;
        self.eghw_read(w, pc, first, queued);
        Some(NEVER)
    }

    /// EGHW: make the reads of `lines` (one request each, of the decode at `pc`) from `at`;
    /// the fetch moves on when the last has arrived.
    fn eghw_read(&mut self, warp: usize, pc: u32, lines: Vec<u32>, at: u64) {
        let ticket = self.track(LoadTracker {
            warp,
            dst: None,
            remaining: lines.len() as u32,
            producer: Producer::Weaver,
            eghw: true,
            sent: false,
        });
        let phase = self.phase;
        for line in lines {
            let kind = PortKind::Read;
            let req = PortRequest {
                ticket,
                line,
                kind,
                phase,
                ops: 0,
                pc,
            };
            self.pipe.lsu.queue.push_back((at, req));
        }
    }

    /// EGHW: the lines of the fetch's current stage arrived at `now`.
    pub(in crate::core) fn eghw_lines_done(&mut self, now: u64) {
        if let Some((w, at)) = self.eghw_advance(now) {
            // The decode's warp-control instruction resolves with the answer.
            self.pipe.resolve_at(w, at);
            if let Some(t) = &mut self.trace {
                t.warp(CoreEvent::WeaverAnswer { at, warp: w as u32 });
            }
        }
    }

    /// For the timeline: warp `w` waits for its decode's answer from `from` until `until`
    /// (`None`: the EGHW fetch's end tells).
    fn trace_weaver_wait(&mut self, w: usize, from: u64, until: Option<u64>) {
        if let Some(t) = &mut self.trace {
            let warp = w as u32;
            t.warp(CoreEvent::WeaverWait { warp, from, until });
        }
    }

    /// EGHW: carry the fetch on from `now`, when the lines it waited for (if any) are in:
    /// after the offsets, remap (S2) and read the edges; after the edges, write the buffer
    /// through the shared-memory port and answer. The warp and when the answer reaches it,
    /// once the fetch is over; `None` while lines are in flight.
    fn eghw_advance(&mut self, now: u64) -> Option<(usize, u64)> {
        let table = u64::from(self.pipe.p.weaver.table_latency);
        let cycles = &mut self.counters.weaver.state_cycles;
        let pipelined = self.pipe.p.weaver.eghw_reads == EghwReads::Pipelined;
        let clock = &mut self.weaver.as_mut().expect("EGHW runs on the unit").clock;
        let f = clock.eghw.as_mut().expect("an EGHW fetch");
        let mut now = now;
        if let Some(line) = f.waiting.pop_front() {
            // Serial: the stage's next read.
            let (warp, pc) = (f.warp, f.pc);
            self.eghw_read(warp, pc, vec![line], now);
            return None;
        }
        if f.offsets_pending {
            f.offsets_pending = false;
            cycles.add(FsmState::S4, now - f.queued);
            cycles.add(FsmState::S2, f.fill);
            now += f.fill;
            if !f.edges.is_empty() {
                f.queued = now;
                let (warp, pc) = (f.warp, f.pc);
                let mut edges: VecDeque<u32> = std::mem::take(&mut f.edges).into();
                let first = if pipelined {
                    edges.drain(..).collect()
                } else {
                    vec![edges.pop_front().expect("an edge read")]
                };
                f.waiting = edges;
                self.eghw_read(warp, pc, first, now);
                return None;
            }
        } else {
            cycles.add(FsmState::S2, now - f.queued);
        }
        let f = self.clock().eghw.take().expect("an EGHW fetch");
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
            self.pipe.written_back(f.warp, dst, at, Producer::Weaver);
        }
        // The unit is free again: the next request starts from its answer.
        let clock = self.clock();
        clock.prep_start = at;
        if f.last > 0 {
            clock.finished = true;
            clock.idle_since = at;
        }
        self.pipe.wake_all();
        Some((f.warp, at))
    }
}
