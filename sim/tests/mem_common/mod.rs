//! Shared by the memory-hierarchy tests: a fixed-latency DRAM and request drivers.
#![allow(dead_code)] // each test file uses its own subset

use wsim_sim::mem::dram::{DramRequest, DramStats};
use wsim_sim::mem::hierarchy::{
    AccessKind, Completion, DramModel, MemAccess, MemConfig, MemoryHierarchy, Reject, ROOM,
};

/// Main memory that answers every request `latency` cycles after it is queued and holds at
/// most `capacity` requests in one queue (a small one exercises the hierarchy's
/// back-pressure).
pub struct FixedDram {
    pub latency: u64,
    pub capacity: usize,
    queue: Vec<(u64, u64)>,
    stats: DramStats,
    /// Reads and writes by phase.
    phases: Vec<DramStats>,
}

impl FixedDram {
    pub fn new(latency: u64, capacity: usize) -> FixedDram {
        FixedDram {
            latency,
            capacity,
            queue: Vec::new(),
            stats: DramStats::default(),
            phases: Vec::new(),
        }
    }
}

impl DramModel for FixedDram {
    fn enqueue(&mut self, now: u64, req: DramRequest) -> Result<(), DramRequest> {
        if self.queue.len() >= self.capacity {
            return Err(req);
        }
        let phase = req.phase as usize;
        if phase >= self.phases.len() {
            self.phases.resize(phase + 1, DramStats::default());
        }
        for s in [&mut self.stats, &mut self.phases[phase]] {
            if req.write {
                s.writes += 1;
            } else {
                s.reads += 1;
            }
        }
        self.queue.push((now + self.latency, req.id));
        Ok(())
    }
    fn queue_of(&self, _addr: u32) -> usize {
        0
    }
    fn room(&self, _queue: usize) -> usize {
        self.capacity.saturating_sub(self.queue.len())
    }
    fn tick(&mut self, now: u64, done: &mut Vec<u64>) {
        self.queue.retain(|&(at, id)| {
            if at <= now {
                done.push(id);
            }
            at > now
        });
    }
    fn next_event(&self, now: u64) -> Option<u64> {
        self.queue.iter().map(|q| q.0).filter(|&at| at > now).min()
    }
    fn pending(&self) -> usize {
        self.queue.len()
    }
    fn stats(&self) -> DramStats {
        self.stats.clone()
    }
    fn phase_stats(&self, phase: usize) -> DramStats {
        self.phases.get(phase).cloned().unwrap_or_default()
    }
}

pub const DRAM_LATENCY: u64 = 36;

/// A hierarchy over the fixed 36-cycle DRAM.
pub fn fixed(cfg: &MemConfig, clusters: u32, cores: u32) -> MemoryHierarchy<FixedDram> {
    cfg.validate("memory").unwrap();
    MemoryHierarchy::with_dram(cfg, clusters, cores, FixedDram::new(DRAM_LATENCY, 1 << 20))
}

/// A request; an atomic is one lane's operation.
pub fn req(id: u64, core: u32, addr: u32, kind: AccessKind) -> MemAccess {
    MemAccess {
        id,
        core,
        addr,
        kind,
        phase: 0,
        ops: u32::from(kind == AccessKind::Atomic),
        pc: 0,
    }
}

/// Accept `r` at `now` as a core does: an instruction-cache hit handed back (`Ok(Some(at))`)
/// joins `hits`, to be delivered as a completion at `at` (no earlier than the next tick).
pub fn accept<D: DramModel>(
    h: &mut MemoryHierarchy<D>,
    now: u64,
    r: MemAccess,
    hits: &mut Vec<(u64, Completion)>,
) -> Result<(), Reject> {
    if let Some(at) = h.access(now, r)? {
        let c = Completion {
            id: r.id,
            core: r.core,
            at,
        };
        hits.push((at.max(now + 1), c));
    }
    Ok(())
}

/// The hits of `hits` due at `now`, appended to `done` after the hierarchy's completions.
pub fn deliver_hits(now: u64, hits: &mut Vec<(u64, Completion)>, done: &mut Vec<Completion>) {
    hits.retain(|&(at, c)| {
        let due = at <= now;
        if due {
            done.push(c);
        }
        !due
    });
}

/// From cycle `from`, issue each request at its cycle or, if refused, at the next cycles
/// until accepted (in order: a refused request holds back the ones after it), ticking
/// every cycle until everything completes. Returns the completions in delivery order.
pub fn run<D: DramModel>(
    h: &mut MemoryHierarchy<D>,
    from: u64,
    reqs: &[(u64, MemAccess)],
) -> Vec<Completion> {
    let mut done = Vec::new();
    let mut hits = Vec::new();
    let mut next = 0;
    let mut now = from;
    while next < reqs.len() || h.pending() > 0 || !hits.is_empty() {
        h.tick(now, &mut done);
        deliver_hits(now, &mut hits, &mut done);
        // Room the driver was refused for has come: it retries every cycle anyway.
        done.retain(|c| c.id != ROOM);
        while next < reqs.len()
            && reqs[next].0 <= now
            && accept(h, now, reqs[next].1, &mut hits).is_ok()
        {
            next += 1;
        }
        now += 1;
        assert!(now < from + 1_000_000, "the hierarchy never went idle");
    }
    done
}

/// Cycles from issuing `r` at `start` to its completion.
pub fn latency<D: DramModel>(h: &mut MemoryHierarchy<D>, start: u64, r: MemAccess) -> u64 {
    let done = run(h, start, &[(start, r)]);
    assert_eq!(done.len(), 1);
    done[0].at - start
}
