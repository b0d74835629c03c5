//! The memory system's statistics: every cache, link and the DRAM, for the whole run, by
//! phase and (profiled) by PC, gathered from the blocks on request.

use std::collections::btree_map::Entry;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{DramModel, Level, MemoryHierarchy};
use crate::counts::Merge;
use crate::mem::cache::{Cache, CacheStats};
use crate::mem::dram::DramStats;
use crate::mem::interconnect::{Link, LinkStats};

/// Statistics of the whole memory system. Per core, per cluster, or shared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HierarchyStats {
    pub l1i: Vec<CacheStats>,
    pub l1d: Vec<CacheStats>,
    /// Per cluster; empty without L2.
    pub l2: Vec<CacheStats>,
    pub l3: Option<CacheStats>,
    /// Per cluster.
    pub l1_links: Vec<LinkStats>,
    /// Per cluster; empty without L2.
    pub l2_links: Vec<LinkStats>,
    pub l3_link: Option<LinkStats>,
    pub dram: DramStats,
    /// Most requests that waited at once in front of the DRAM queues, refused by them: 0
    /// by construction, since a request goes down only with a place promised in its queue
    /// (back-pressure; the field stays so that reports can show it). Whole run only.
    pub dram_backlog_peak: u64,
    /// Requests in the DRAM queues or waiting in a cache's outbox when the statistics were
    /// taken: at the end of a run, DRAM traffic the cycle count does not include. Whole run
    /// only.
    pub dram_unfinished: u64,
    /// The same, by phase: what the requests of each phase did (see the module
    /// documentation). Only phases that made requests appear; their entries have no
    /// `phases`. Field by field the phases sum to the totals, except a link's `max_queue`
    /// (the largest), the DRAM's `ticked_cycles` and `refreshes`, `dram_backlog_peak` and
    /// `dram_unfinished` (whole-run only, 0 in a phase).
    #[serde(skip)]
    pub phases: BTreeMap<u32, HierarchyStats>,
}

/// A level of caches, as reports name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CacheLevel {
    L1i,
    L1d,
    L2,
    L3,
}

impl CacheLevel {
    pub const ALL: [CacheLevel; 4] = [
        CacheLevel::L1i,
        CacheLevel::L1d,
        CacheLevel::L2,
        CacheLevel::L3,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CacheLevel::L1i => "l1i",
            CacheLevel::L1d => "l1d",
            CacheLevel::L2 => "l2",
            CacheLevel::L3 => "l3",
        }
    }
}

impl HierarchyStats {
    /// The caches of a level, every counter summed (zero for a level the machine lacks).
    pub fn level(&self, level: CacheLevel) -> CacheStats {
        let caches = match level {
            CacheLevel::L1i => &self.l1i[..],
            CacheLevel::L1d => &self.l1d[..],
            CacheLevel::L2 => &self.l2[..],
            CacheLevel::L3 => self.l3.as_slice(),
        };
        let mut sum = CacheStats::default();
        for c in caches {
            sum.merge(c);
        }
        sum
    }
}

impl HierarchyStats {
    /// Add `other`'s counters, block by block (a phase's or a PC's into a fold of them).
    fn fold(&mut self, other: &HierarchyStats) {
        fn each<T: Merge>(a: &mut [T], b: &[T]) {
            for (a, b) in a.iter_mut().zip(b) {
                a.merge(b);
            }
        }
        each(&mut self.l1i, &other.l1i);
        each(&mut self.l1d, &other.l1d);
        each(&mut self.l2, &other.l2);
        each(self.l3.as_mut_slice(), other.l3.as_slice());
        each(&mut self.l1_links, &other.l1_links);
        each(&mut self.l2_links, &other.l2_links);
        each(self.l3_link.as_mut_slice(), other.l3_link.as_slice());
        self.dram.merge(&other.dram);
    }
}

impl<D: DramModel> MemoryHierarchy<D> {
    pub fn stats(&self) -> HierarchyStats {
        let mut total = self.stats_of(None);
        total.phases = self.fold_keys(|(phase, _)| phase);
        total
    }

    /// What the requests of each instruction did, by its PC (a fetch's: the instruction
    /// fetched), field by field adding up to the whole run's as the phases do; empty unless
    /// the hierarchy counts by PC ([`Self::count_by_pc`]). What a request causes counts at
    /// its PC too: an L1 or L2 miss's request below, the fill's eviction and the dirty
    /// victim's write-back (to the PC whose miss brought the fill), a write-through
    /// store's trip down to DRAM (the store's), an atomic's write below. A miss merged into
    /// another's MSHR counts its own access and miss; what goes below is the first one's.
    pub fn stats_by_pc(&self) -> BTreeMap<u32, HierarchyStats> {
        if self.key_index.is_none() {
            return BTreeMap::new();
        }
        self.fold_keys(|(_, pc)| pc)
    }

    /// The statistics of the keys (phase, PC) folded by `by` of the key.
    fn fold_keys(&self, by: impl Fn((u32, u32)) -> u32) -> BTreeMap<u32, HierarchyStats> {
        let mut folded = BTreeMap::new();
        for (i, &key) in self.keys.iter().enumerate() {
            let stats = self.stats_of(Some(i));
            match folded.entry(by(key)) {
                Entry::Vacant(e) => {
                    e.insert(stats);
                }
                Entry::Occupied(mut e) => e.get_mut().fold(&stats),
            }
        }
        folded
    }

    /// The whole run's statistics so far, without the split by phase.
    pub fn totals(&self) -> HierarchyStats {
        self.stats_of(None)
    }

    /// The whole run's statistics (`None`) or those of the key with index `phase` (its
    /// phase and PC), without the split by phase.
    fn stats_of(&self, phase: Option<usize>) -> HierarchyStats {
        fn cache<W: Copy>(c: &Cache<W>, phase: Option<usize>) -> CacheStats {
            phase.map_or_else(|| c.stats().clone(), |p| c.phase_stats(p))
        }
        let link = |l: &Link| phase.map_or_else(|| l.stats(), |p| l.phase_stats(p));
        let caches = |level| {
            self.lower
                .iter()
                .filter(move |l| l.level == level)
                .map(move |l| cache(&l.cache, phase))
        };
        let (dram_backlog_peak, dram_unfinished) = match phase {
            None => (0, (self.parked() + self.dram.pending()) as u64),
            Some(_) => (0, 0),
        };
        let n = self.clusters;
        let l2_links = if self.l2_enabled { n } else { 0 };
        let links = |range: std::ops::Range<usize>| self.links[range].iter().map(link);
        HierarchyStats {
            l1i: self.l1i.iter().map(|c| cache(c, phase)).collect(),
            l1d: self.l1d.iter().map(|c| cache(c, phase)).collect(),
            l2: caches(Level::L2).collect(),
            l3: caches(Level::L3).next(),
            l1_links: links(0..n).collect(),
            l2_links: links(n..n + l2_links).collect(),
            l3_link: links(n + l2_links..self.links.len()).next(),
            dram: phase.map_or_else(|| self.dram.stats(), |p| self.dram.phase_stats(p)),
            dram_backlog_peak,
            dram_unfinished,
            phases: BTreeMap::new(),
        }
    }
}
