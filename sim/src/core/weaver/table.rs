//! The Weaver unit of SparseWeaver (dissertation §4.4–4.5, Figure 4.6), one per core in
//! the SFU: the Sparse Workload Information Table (ST), the Dense Work ID Table (DT), the
//! current-entry (CED) and output-data (OD) buffers, and the FSM that turns registered
//! (vertex, first edge, degree) triples into dense batches of (vertex, edge) pairs, one
//! per lane.
//!
//! This file is the unit's tables and FSM as functions: what each request returns and which
//! FSM states it passes through ([`Trace`]). When that happens is `timing.rs`'s business
//! (it turns traces into cycles), so timing never changes what a kernel computes.

use std::collections::BTreeSet;

use crate::core::warp::lanes;
use crate::limits;

/// One ST entry: a vertex, the location of its first edge and its degree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StEntry {
    pub vid: u32,
    pub loc: u32,
    pub deg: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Round {
    /// Registrations append to the ST (FSM in S0).
    Registering,
    /// Decode requests are being served from the ordered ST.
    Distributing,
    /// Every entry was handed out (S8): requests get -1, a registration starts a new round.
    Finished,
}

/// The current entry: its vertex, the next edge id to hand out and how many remain.
#[derive(Clone, Copy, Debug)]
struct Ced {
    vid: u32,
    next: u32,
    remaining: u32,
}

/// A warp's row of the DT: the edge ids its last decode handed to each lane.
#[derive(Clone, Copy, Debug)]
struct DtRow {
    valid: bool,
    lanes: u32,
    eids: [u32; 32],
}

const EMPTY_ROW: DtRow = DtRow {
    valid: false,
    lanes: 0,
    eids: [0; 32],
};

/// What a registration did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Registered {
    /// It opened a new round (the first registration, or one after a finished
    /// distribution).
    pub new_round: bool,
    pub entries: u32,
}

/// The FSM path of one decode request, for the timing model and the statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The request started the distribution: sort the ST, load its first entry (S1).
    pub started: bool,
    /// Further ST entries loaded into the CED (S3 then S4 each).
    pub entries_loaded: u32,
    /// CED runs that filled OD slots (S2 visits).
    pub fills: u32,
    /// The ST ran out during this request (S7).
    pub ran_out: bool,
    /// Edges dropped because their vertex had been skipped.
    pub edges_skipped: u64,
    /// EGHW: entries whose topology (two offsets) the unit read from memory, in the order
    /// of the `topology` calls.
    pub topology_reads: u32,
    /// The request came from a warp still in the previous round's distribution, after
    /// another warp had started the next round's registration: it is told at once that its
    /// round is over (-1), without the FSM.
    pub previous_round: bool,
}

/// What a Weaver instruction asked of the unit, for the timing model and the statistics.
#[derive(Clone, Copy, Debug)]
pub enum WeaverRequest {
    Register(Registered),
    Decode {
        trace: Trace,
        work: u32,
    },
    /// DEC_LOC from this many lanes.
    Locate(u32),
    /// SKIP from this many lanes, which dropped this many edges of the current entry.
    Skip {
        lanes: u32,
        edges: u64,
    },
}

/// The answer to a decode request.
#[derive(Clone, Copy, Debug)]
pub struct Batch {
    /// Lanes that received work (0: the work is exhausted; every lane gets -1).
    pub work: u32,
    pub vid: [u32; 32],
    pub eid: [u32; 32],
    pub trace: Trace,
}

/// The unit's state in one core.
#[derive(Clone, Debug)]
pub struct Weaver {
    capacity: usize,
    threads: usize,
    /// Registered entries with their order key (slot, warp, lane): decoding scans them in
    /// that order whatever order the warps registered in.
    st: Vec<(u64, StEntry)>,
    /// Per (warp, lane): entries registered this round (the next registration slot).
    slots: Vec<u32>,
    round: Round,
    /// Next ST entry to load.
    cursor: usize,
    ced: Option<Ced>,
    skipped: BTreeSet<u32>,
    dt: Vec<DtRow>,
    /// Rounds started (a registration after a finished distribution starts one).
    epoch: u64,
    /// Per warp, the round it is in as far as the unit can tell: the one it last registered
    /// in or received work from, or the one after the round that answered it -1. A warp
    /// whose round is older than the unit's, asking while the unit's round registers, is
    /// still in an earlier distribution (it had not asked since that round ran out): its
    /// requests belong to that round, not to the new one.
    round_of: Vec<u64>,
}

impl Weaver {
    pub fn new(capacity: u32, warps: u32, threads: u32) -> Self {
        Weaver {
            capacity: capacity as usize,
            threads: threads as usize,
            st: Vec::with_capacity(capacity as usize),
            slots: vec![0; (warps * threads) as usize],
            round: Round::Registering,
            cursor: 0,
            ced: None,
            skipped: BTreeSet::new(),
            dt: vec![EMPTY_ROW; warps as usize],
            epoch: 0,
            round_of: vec![0; warps as usize],
        }
    }

    /// ST capacity in entries.
    pub fn capacity(&self) -> u32 {
        self.capacity as u32
    }

    /// WEAVER_REG from `warp`: append one entry per (lane, entry) to the ST.
    pub fn register(
        &mut self,
        warp: usize,
        entries: &[(usize, StEntry)],
    ) -> Result<Registered, String> {
        let new_round = match self.round {
            Round::Distributing => {
                return Err(format!(
                    "weaver.reg while a distribution is in flight (decoding ST entry {} of \
                     {}): every warp must register before any decodes (a barrier between \
                     registration and distribution), and register again only after its -1",
                    self.cursor,
                    self.st.len()
                ))
            }
            Round::Finished => {
                self.reset();
                true
            }
            Round::Registering => self.st.is_empty(),
        };
        if self.st.len() + entries.len() > self.capacity {
            return Err(format!(
                "Weaver ST overflow: {} entries registered and {} more requested, capacity \
                 {} (weaver.entries): register the vertex range in chunks no larger than the \
                 table",
                self.st.len(),
                entries.len(),
                self.capacity
            ));
        }
        self.round_of[warp] = self.epoch;
        for &(lane, entry) in entries {
            let k = warp * self.threads + lane;
            let slot = self.slots[k];
            self.slots[k] += 1;
            let key = u64::from(slot) << 16 | (warp as u64) << 8 | lane as u64;
            self.st.push((key, entry));
        }
        Ok(Registered {
            new_round,
            entries: entries.len() as u32,
        })
    }

    /// WEAVER_DEC_ID from `warp` with active `lanes`: the next batch, one (vertex, edge)
    /// pair per active lane in lane order; the edge ids go to the warp's DT row. In EGHW
    /// mode `topology` reads an entry's (first edge, degree) from memory; otherwise it is
    /// `None` and the registered values are used.
    pub fn decode<F: FnMut(u32) -> (u32, u32)>(
        &mut self,
        warp: usize,
        active: u32,
        mut topology: Option<F>,
    ) -> Batch {
        let mut batch = Batch {
            work: 0,
            vid: [u32::MAX; 32],
            eid: [u32::MAX; 32],
            trace: Trace::default(),
        };
        let trace = &mut batch.trace;
        if self.from_previous_round(warp) {
            // Another warp, done with the last round, registers the next one: this warp's
            // round is over. It will register and meet the others at the round's barrier.
            self.round_of[warp] = self.epoch;
            trace.previous_round = true;
            self.dt[warp] = EMPTY_ROW;
            return batch;
        }
        if self.round == Round::Registering {
            // Registration is over (the kernel synchronised): scan the table in order.
            self.st.sort_unstable_by_key(|&(key, _)| key);
            self.round = Round::Distributing;
            trace.started = true;
        }
        if self.round == Round::Distributing {
            if let Some(c) = self.ced.as_mut().filter(|c| self.skipped.contains(&c.vid)) {
                trace.edges_skipped += u64::from(c.remaining);
                c.remaining = 0;
            }
            let mut filling_from: Option<usize> = None;
            for lane in lanes(active) {
                if self.ced_empty() && !self.load_next(trace, &mut topology) {
                    break;
                }
                let c = self.ced.as_mut().expect("a loaded entry");
                // One S2 visit per CED run that contributes to this batch.
                if filling_from != Some(self.cursor) {
                    filling_from = Some(self.cursor);
                    trace.fills += 1;
                }
                batch.vid[lane] = c.vid;
                batch.eid[lane] = c.next;
                batch.work |= 1 << lane;
                c.next = c.next.wrapping_add(1);
                c.remaining -= 1;
            }
            if self.ced_empty() && !self.has_more_work() {
                self.round = Round::Finished;
                trace.ran_out = true;
            }
        }
        // A -1 ends the warp's round: it goes on to the next.
        self.round_of[warp] = self.epoch + u64::from(batch.work == 0);
        let row = &mut self.dt[warp];
        row.valid = batch.work != 0;
        row.lanes = batch.work;
        row.eids = batch.eid;
        batch
    }

    /// WEAVER_DEC_LOC from `warp` in `lane`: the edge id its last decode handed the lane
    /// (-1 for a lane that got none).
    pub fn location(&self, warp: usize, lane: usize) -> Result<u32, String> {
        let row = &self.dt[warp];
        if !row.valid {
            return Err(
                "weaver.dec_loc without a preceding weaver.dec_id that handed this \
                        warp work"
                    .into(),
            );
        }
        Ok(if row.lanes >> lane & 1 == 1 {
            row.eids[lane]
        } else {
            u32::MAX
        })
    }

    /// WEAVER_SKIP from `warp`: hand out no more edges of `vid` this round. Returns the
    /// edges of the current entry it dropped (entries not yet loaded are dropped when
    /// loaded). A skip from a warp still in the previous round's distribution concerns
    /// that round, which is over: it changes nothing. An error when `vid` would be the
    /// round's skipped vertex past [`limits::WEAVER_SKIPS`].
    pub fn skip(&mut self, warp: usize, vid: u32) -> Result<u64, String> {
        if self.round == Round::Finished || self.from_previous_round(warp) {
            return Ok(0);
        }
        if self.skipped.len() == limits::WEAVER_SKIPS && !self.skipped.contains(&vid) {
            return Err(format!(
                "weaver.skip of vertex {vid} would be the round's distinct skipped vertex {}: \
                 a round skips at most {} (limits::WEAVER_SKIPS, as many as the largest ST \
                 holds); skip only vertices the round registered",
                limits::WEAVER_SKIPS + 1,
                limits::WEAVER_SKIPS
            ));
        }
        self.skipped.insert(vid);
        Ok(match self.ced.as_mut() {
            Some(c) if c.vid == vid => std::mem::take(&mut c.remaining).into(),
            _ => 0,
        })
    }

    /// Load the next ST entry with work into the CED (S1 for the first of the round, S3
    /// and S4 after that); false when the table is exhausted.
    fn load_next<F: FnMut(u32) -> (u32, u32)>(
        &mut self,
        trace: &mut Trace,
        topology: &mut Option<F>,
    ) -> bool {
        while let Some(&(_, e)) = self.st.get(self.cursor) {
            if self.cursor > 0 {
                trace.entries_loaded += 1;
            }
            self.cursor += 1;
            // A zero degree marks a filtered vertex: no work, and in EGHW no topology read.
            if e.deg == 0 {
                continue;
            }
            let (loc, deg) = match topology {
                Some(read) => {
                    trace.topology_reads += 1;
                    read(e.vid)
                }
                None => (e.loc, e.deg),
            };
            if self.skipped.contains(&e.vid) {
                trace.edges_skipped += u64::from(deg);
                continue;
            }
            if deg == 0 {
                continue;
            }
            self.ced = Some(Ced {
                vid: e.vid,
                next: loc,
                remaining: deg,
            });
            return true;
        }
        self.ced = None;
        false
    }

    /// A request from `warp` belongs to a round before the one registering now.
    fn from_previous_round(&self, warp: usize) -> bool {
        self.round == Round::Registering && self.round_of[warp] < self.epoch
    }

    fn ced_empty(&self) -> bool {
        self.ced.is_none_or(|c| c.remaining == 0)
    }

    /// Whether an entry not yet loaded may still carry work.
    fn has_more_work(&self) -> bool {
        self.st[self.cursor..].iter().any(|(_, e)| e.deg > 0)
    }

    /// Start a new round: empty ST and buffers. The DT rows stay: a warp still working on
    /// its last batch of the previous round may yet ask for its edge ids (every decode
    /// rewrites its warp's row).
    fn reset(&mut self) {
        self.st.clear();
        self.slots.fill(0);
        self.round = Round::Registering;
        self.cursor = 0;
        self.ced = None;
        self.skipped.clear();
        self.epoch += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_TOPOLOGY: Option<fn(u32) -> (u32, u32)> = None;

    fn entry(vid: u32, loc: u32, deg: u32) -> StEntry {
        StEntry { vid, loc, deg }
    }

    fn lanes_of(b: &Batch, n: usize) -> (Vec<i64>, Vec<i64>) {
        let f = |v: u32| if v == u32::MAX { -1 } else { i64::from(v) };
        (
            b.vid[..n].iter().map(|&v| f(v)).collect(),
            b.eid[..n].iter().map(|&v| f(v)).collect(),
        )
    }

    /// The dissertation's worked example (Figures 4.6 and 4.7), 4 lanes.
    #[test]
    fn worked_example() {
        let mut wv = Weaver::new(512, 4, 4);
        let st = [entry(0, 2, 1), entry(2, 10, 2), entry(4, 30, 5)];
        let reg: Vec<_> = st.iter().copied().enumerate().collect();
        let r = wv.register(0, &reg).unwrap();
        assert_eq!(
            r,
            Registered {
                new_round: true,
                entries: 3
            }
        );
        // Warp 1 asks first: distribution is dynamic.
        let b = wv.decode(1, 0xF, NO_TOPOLOGY);
        assert_eq!(lanes_of(&b, 4), (vec![0, 2, 2, 4], vec![2, 10, 11, 30]));
        assert_eq!(b.work, 0xF);
        assert!(b.trace.started);
        assert_eq!((b.trace.entries_loaded, b.trace.fills), (2, 3));
        assert_eq!(wv.location(1, 2), Ok(11));
        let b = wv.decode(3, 0xF, NO_TOPOLOGY);
        assert_eq!(lanes_of(&b, 4), (vec![4, 4, 4, 4], vec![31, 32, 33, 34]));
        assert_eq!((b.trace.entries_loaded, b.trace.fills), (0, 1));
        assert!(b.trace.ran_out, "the last entry is used up");
        let b = wv.decode(0, 0xF, NO_TOPOLOGY);
        assert_eq!(b.work, 0);
        assert_eq!(lanes_of(&b, 4), (vec![-1; 4], vec![-1; 4]));
        assert!(wv.location(0, 0).is_err(), "a -1 answer leaves no DT row");
        assert_eq!(wv.location(3, 1), Ok(32), "other warps keep their rows");
    }

    #[test]
    fn order_is_by_slot_then_warp_and_lane_not_arrival() {
        let mut wv = Weaver::new(16, 4, 2);
        wv.register(2, &[(0, entry(20, 200, 1)), (1, entry(21, 210, 1))])
            .unwrap();
        wv.register(0, &[(1, entry(1, 10, 1))]).unwrap();
        wv.register(0, &[(1, entry(3, 30, 1))]).unwrap(); // lane 1's second slot
        wv.register(0, &[(0, entry(0, 0, 1))]).unwrap();
        let mut vids = Vec::new();
        loop {
            let b = wv.decode(0, 0b11, NO_TOPOLOGY);
            if b.work == 0 {
                break;
            }
            vids.extend(lanes(b.work).map(|l| b.vid[l]));
        }
        assert_eq!(vids, [0, 1, 20, 21, 3]);
    }

    #[test]
    fn zero_degrees_and_skips_produce_no_work() {
        let mut wv = Weaver::new(8, 1, 4);
        let reg = [
            (0, entry(7, 100, 0)),
            (1, entry(8, 200, 3)),
            (2, entry(9, 300, 6)),
            (3, entry(10, 400, 2)),
        ];
        wv.register(0, &reg).unwrap();
        let b = wv.decode(0, 0xF, NO_TOPOLOGY);
        assert_eq!(
            lanes_of(&b, 4),
            (vec![8, 8, 8, 9], vec![200, 201, 202, 300])
        );
        assert_eq!(wv.skip(0, 9), Ok(5), "the rest of vertex 9's edges");
        assert_eq!(wv.skip(0, 10), Ok(0), "not loaded yet: dropped when it is");
        let b = wv.decode(0, 0xF, NO_TOPOLOGY);
        assert_eq!(b.work, 0);
        assert_eq!(b.trace.edges_skipped, 2);
        assert!(b.trace.ran_out);
    }

    #[test]
    fn errors_and_new_rounds() {
        let mut wv = Weaver::new(3, 2, 2);
        wv.register(0, &[(0, entry(0, 0, 4)), (1, entry(1, 4, 1))])
            .unwrap();
        let err = wv
            .register(1, &[(0, entry(2, 5, 1)), (1, entry(3, 6, 1))])
            .unwrap_err();
        assert!(
            err.contains("overflow") && err.contains("capacity 3"),
            "{err}"
        );
        assert!(wv.location(0, 0).is_err(), "no decode yet");
        let b = wv.decode(0, 0b1, NO_TOPOLOGY);
        assert_eq!(b.work, 1);
        let err = wv.register(1, &[(0, entry(2, 5, 1))]).unwrap_err();
        assert!(err.contains("in flight"), "{err}");
        while wv.decode(1, 0b11, NO_TOPOLOGY).work != 0 {}
        let r = wv.register(1, &[(0, entry(5, 50, 1))]).unwrap();
        assert!(r.new_round);
        // Warp 0 was never answered -1: its next request still belongs to round 1.
        assert!(wv.decode(0, 0b11, NO_TOPOLOGY).trace.previous_round);
        let b = wv.decode(0, 0b11, NO_TOPOLOGY);
        assert_eq!(lanes_of(&b, 2), (vec![5, -1], vec![50, -1]));
    }

    /// One barrier per round (Figure 4.9): a warp answered -1 registers the next round at
    /// once, while another still works on its last batch. That warp's requests belong to
    /// the finished round: its edge ids stay readable, its skip changes nothing, and its
    /// next decode is answered -1 without starting the new round's distribution. A warp
    /// that registers is in the new round.
    #[test]
    fn a_new_round_while_a_warp_finishes_the_last() {
        let mut wv = Weaver::new(8, 3, 2);
        wv.register(0, &[(0, entry(0, 100, 2)), (1, entry(1, 200, 1))])
            .unwrap();
        let b = wv.decode(1, 0b11, NO_TOPOLOGY);
        assert_eq!(lanes_of(&b, 2), (vec![0, 0], vec![100, 101]));
        let b = wv.decode(2, 0b11, NO_TOPOLOGY);
        assert_eq!((b.work, b.trace.ran_out), (0b01, true));
        assert_eq!(wv.decode(0, 0b11, NO_TOPOLOGY).work, 0, "warp 0 is done");
        // Warp 0 opens round 2 while warps 1 and 2 still hold their last batches.
        let r = wv.register(0, &[(0, entry(1, 200, 3))]).unwrap();
        assert!(r.new_round);
        assert_eq!(wv.location(1, 1), Ok(101), "warp 1's batch of round 1");
        assert_eq!(wv.skip(1, 1), Ok(0), "a skip of round 1's vertex 1");
        let b = wv.decode(1, 0b11, NO_TOPOLOGY);
        assert_eq!(b.work, 0);
        assert!(b.trace.previous_round && !b.trace.started);
        // Warp 2 registers instead of asking again: it has left round 1 too.
        wv.register(2, &[(1, entry(5, 500, 1))]).unwrap();
        // After the barrier: round 2 has both entries, vertex 1 unskipped.
        let b = wv.decode(2, 0b11, NO_TOPOLOGY);
        assert!(b.trace.started && !b.trace.previous_round);
        assert_eq!(lanes_of(&b, 2), (vec![1, 1], vec![200, 201]));
        let b = wv.decode(1, 0b11, NO_TOPOLOGY);
        assert_eq!(lanes_of(&b, 2), (vec![1, 5], vec![202, 500]));
    }

    #[test]
    fn eghw_reads_the_topology() {
        let mut wv = Weaver::new(8, 1, 4);
        // EGHW: only the vertex is registered; a zero degree still filters it.
        wv.register(
            0,
            &[
                (0, entry(3, 0, 1)),
                (1, entry(4, 0, 0)),
                (2, entry(5, 0, 1)),
            ],
        )
        .unwrap();
        let mut reads = Vec::new();
        let mut topology = |vid: u32| {
            reads.push(vid);
            (vid * 10, 2)
        };
        let b = wv.decode(0, 0xF, Some(&mut topology));
        assert_eq!(lanes_of(&b, 4), (vec![3, 3, 5, 5], vec![30, 31, 50, 51]));
        assert_eq!(reads, [3, 5]);
        assert_eq!(b.trace.topology_reads, 2, "the filtered vertex is not read");
        let mut none = |_: u32| -> (u32, u32) { unreachable!("nothing left to read") };
        let b = wv.decode(0, 0xF, Some(&mut none));
        assert_eq!((b.work, b.trace.topology_reads), (0, 0));
    }
}
