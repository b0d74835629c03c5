//! The load-store unit: the core's port to the memory hierarchy, the coalescer (global
//! accesses to line requests, stack addresses through the thread-interleaved layout),
//! the LSU queue, the tracking of loads until their last line arrives, and the timing of
//! local-memory accesses (the banks are `core/local_memory.rs`'s).

use std::collections::VecDeque;

use wsim_isa::{Decoded, LsuKind, RegRef, Unit};

use super::scoreboard::Producer;
use super::NEVER;
use crate::core::Core;

/// The kind of a request the core sends to the memory hierarchy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortKind {
    Fetch,
    Read,
    Write,
    Atomic,
}

/// What a completion belongs to: an instruction fetch of a warp, a store (nothing waits
/// for it), or the load tracker in a slot. Travels through the hierarchy as a number
/// ([`Ticket::encode`]); this is the one place that knows the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ticket {
    Fetch(usize),
    Store,
    Load(usize),
}

const FETCH_TAG: u64 = 1 << 62;
const STORE_TAG: u64 = 2 << 62;
const LOAD_TAG: u64 = 3 << 62;
const TAG_MASK: u64 = 3 << 62;

impl Ticket {
    pub fn encode(self) -> u64 {
        match self {
            Ticket::Fetch(w) => FETCH_TAG | w as u64,
            Ticket::Store => STORE_TAG,
            Ticket::Load(slot) => LOAD_TAG | slot as u64,
        }
    }

    /// The ticket a completion carries (`None`: not one of the core's, e.g. the
    /// hierarchy's word that a credit has come).
    pub fn decode(id: u64) -> Option<Self> {
        if id == crate::mem::hierarchy::ROOM {
            return None;
        }
        let index = (id & !TAG_MASK) as usize;
        match id & TAG_MASK {
            FETCH_TAG => Some(Ticket::Fetch(index)),
            STORE_TAG => Some(Ticket::Store),
            LOAD_TAG => Some(Ticket::Load(index)),
            _ => None,
        }
    }
}

/// A line-sized request from the core; its ticket comes back in the completion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortRequest {
    pub ticket: Ticket,
    pub line: u32,
    pub kind: PortKind,
    /// The core's statistics phase when it made the request (issue or fetch).
    pub phase: u32,
    /// An atomic: its lanes' operations on the line's busiest word (0 otherwise).
    pub ops: u32,
}

/// When a refused request can be tried again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retry {
    NextCycle,
    /// Only after a completion for this core (one of its requests, or the hierarchy's word
    /// that room has come).
    AfterCompletion(Refusal),
}

/// Why the memory hierarchy refused a request until a completion (kept for the deadlock
/// and `max_cycles` reports: a core stuck here names it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The L1 had no free MSHR.
    MshrFull,
    /// The buffer below the L1 had no credit for the request.
    NoCredit,
}

impl Refusal {
    pub fn describe(self) -> &'static str {
        match self {
            Refusal::MshrFull => "no free MSHR",
            Refusal::NoCredit => "no credit for the way below",
        }
    }
}

impl Retry {
    /// The refusal to wait out for a completion (None: retry next cycle).
    pub(super) fn refusal(self) -> Option<Refusal> {
        match self {
            Retry::NextCycle => None,
            Retry::AfterCompletion(why) => Some(why),
        }
    }
}

/// What a core needs from the memory hierarchy: it accepts a request, or says when to retry.
pub trait MemoryPort {
    fn send(&mut self, now: u64, core: u32, req: PortRequest) -> Result<(), Retry>;
}

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
}

/// The LSU's state.
#[derive(Debug, Default)]
pub(in crate::core) struct Lsu {
    /// Line requests waiting to enter the data cache: (earliest cycle, request).
    pub queue: VecDeque<(u64, PortRequest)>,
    /// The head of the queue was refused until a completion, and why.
    pub waits_completion: Option<Refusal>,
    loads: Vec<Option<LoadTracker>>,
    free_loads: Vec<usize>,
    /// Scratch: the lines of the instruction being issued and, for an atomic, each line's
    /// operations on its busiest word.
    pub lines: Vec<u32>,
    pub ops: Vec<u32>,
    /// Scratch: an atomic's words and the lanes on each.
    words: Vec<(u32, u32)>,
}

impl Lsu {
    /// The tracker in `slot` got one of its lines; the tracker if that was the last.
    pub(super) fn line_arrived(&mut self, slot: usize) -> Option<LoadTracker> {
        let tracker = self.loads.get_mut(slot).and_then(Option::as_mut)?;
        tracker.remaining -= 1;
        if tracker.remaining > 0 {
            return None;
        }
        self.free_loads.push(slot);
        self.loads[slot].take()
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
            if let Err(retry) = port.send(now, self.id, req) {
                self.pipe.lsu.waits_completion = retry.refusal();
                break;
            }
            self.pipe.lsu.queue.pop_front();
            if self.pipe.lsu.queue.len() == LSU_QUEUE - 1 {
                // Warps held back by the full queue may issue again.
                self.pipe.wake_all();
            }
            *progressed = true;
        }
    }

    /// The LSU: local-memory accesses with bank conflicts, global ones coalesced into lines.
    pub(super) fn schedule_memory(
        &mut self,
        w: usize,
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
        self.counters.dcache_requests += self.pipe.lsu.lines.len() as u64;
        let ticket = if port_kind == PortKind::Write {
            Ticket::Store
        } else {
            self.track(LoadTracker {
                warp: w,
                dst: d.info.dst,
                remaining: self.pipe.lsu.lines.len() as u32,
                producer: Producer::Memory,
                eghw: false,
            })
        };
        self.queue_lines(start, port_kind, ticket);
    }

    /// The global addresses among `accesses` as requests in `lsu.lines`: one per distinct
    /// line. For an atomic (one access per lane) also, per line, how many lanes work on
    /// its busiest word (`lsu.ops`): the atomic unit at the last-level cache applies those
    /// one after the other.
    pub(in crate::core) fn coalesce(&mut self, kind: PortKind, accesses: &[u32]) {
        let line = self.pipe.p.line;
        let stacks = self.pipe.p.stacks;
        let atomic = kind == PortKind::Atomic;
        self.pipe.lsu.lines.clear();
        self.pipe.lsu.words.clear();
        for &a in accesses {
            if self.local.contains(a) {
                continue;
            }
            let a = stacks.map_or(a, |(top, size, threads)| {
                interleaved_stack_address(a, top, size, threads)
            });
            let l = line_of(a, line);
            let lsu = &mut self.pipe.lsu;
            // Neighbouring lanes mostly share the last line: check it first.
            if lsu.lines.last() != Some(&l) && !lsu.lines.contains(&l) {
                lsu.lines.push(l);
            }
            if atomic {
                match lsu.words.iter_mut().find(|(w, _)| *w == a & !3) {
                    Some((_, lanes)) => *lanes += 1,
                    None => lsu.words.push((a & !3, 1)),
                }
            }
        }
        let lsu = &mut self.pipe.lsu;
        lsu.ops.clear();
        if atomic {
            for &l in &lsu.lines {
                let on_line = lsu.words.iter().filter(|(w, _)| line_of(*w, line) == l);
                lsu.ops
                    .push(on_line.map(|&(_, lanes)| lanes).max().unwrap_or(1));
            }
        }
    }

    /// One request per word of `accesses` (for a unit that reads word by word), in order,
    /// into `lsu.lines`.
    pub(in crate::core) fn word_reads(&mut self, accesses: &[u32]) {
        let line = self.pipe.p.line;
        self.pipe.lsu.lines.clear();
        self.pipe
            .lsu
            .lines
            .extend(accesses.iter().map(|&a| line_of(a, line)));
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

    /// Queue the requests in `lsu.lines` (with `lsu.ops` for an atomic) for the data cache
    /// from cycle `start`.
    pub(in crate::core) fn queue_lines(&mut self, start: u64, kind: PortKind, ticket: Ticket) {
        let phase = self.phase;
        let lsu = &mut self.pipe.lsu;
        for (k, &line) in lsu.lines.iter().enumerate() {
            let req = PortRequest {
                ticket,
                line,
                kind,
                phase,
                ops: lsu.ops.get(k).copied().unwrap_or(0),
            };
            lsu.queue.push_back((start, req));
        }
    }
}

#[inline]
pub(super) fn line_of(addr: u32, line: u32) -> u32 {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tickets_round_trip() {
        for t in [
            Ticket::Fetch(0),
            Ticket::Fetch(31),
            Ticket::Store,
            Ticket::Load(7),
        ] {
            assert_eq!(Ticket::decode(t.encode()), Some(t));
        }
        assert_eq!(Ticket::decode(5), None);
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
}
