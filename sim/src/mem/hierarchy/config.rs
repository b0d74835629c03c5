//! The memory system's configuration: the caches, links and DRAM, the defaults (Vortex
//! SimX) and validation across them (one line size everywhere).

use serde::{Deserialize, Serialize};

use crate::mem::cache::{CacheConfig, Replacement, WritePolicy};
use crate::mem::dram::DramConfig;
use crate::mem::interconnect::LinkConfig;

/// The memory system's configuration. Sizes in bytes, latencies in core cycles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MemConfig {
    /// Per-core instruction cache.
    pub l1i: CacheConfig,
    /// Per-core data cache.
    pub l1d: CacheConfig,
    /// Per-cluster L2, shared by the cluster's cores.
    pub l2: CacheConfig,
    pub l2_enabled: bool,
    /// L3 shared by all clusters.
    pub l3: CacheConfig,
    pub l3_enabled: bool,
    /// Per cluster: the cluster's L1 caches to the next enabled level.
    pub l1_link: LinkConfig,
    /// Per cluster: the L2 to the next enabled level (unused without L2).
    pub l2_link: LinkConfig,
    /// Shared: the L3 to DRAM (unused without L3).
    pub l3_link: LinkConfig,
    pub dram: DramConfig,
    /// The atomic units at the last-level cache.
    pub atomics: AtomicsConfig,
}

/// The atomic unit of each last-level cache bank (or of the DRAM controller without
/// caches below the L1s): it applies a warp's atomic operations on one line, words of the
/// line in parallel; the lanes of one word one after the other, or reduced to one
/// operation (`same_word`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AtomicsConfig {
    /// Cycles per operation on one word.
    pub alu_cycles: u32,
    /// What the unit does with a warp's lanes on one word.
    pub same_word: SameWord,
}

/// A warp's atomic lanes that target the same word, at the atomic unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SameWord {
    /// One operation per lane, one after the other (NVIDIA documents this for a warp's
    /// lanes on one global word).
    Serial,
    /// The lanes' operands reduced into one operation, each lane still answered with the
    /// value a serial order gives it (a combining unit; an assumption, docs/CONFIG.md).
    Combined,
}

impl Default for AtomicsConfig {
    /// One operation per word per cycle, lanes on one word serial: an assumption, not a
    /// measured figure (Vortex SimX v3 builds without the A extension by default and has
    /// no atomic unit to copy).
    fn default() -> Self {
        AtomicsConfig {
            alu_cycles: 1,
            same_word: SameWord::Serial,
        }
    }
}

impl Default for MemConfig {
    /// Vortex SimX: 16 KiB 4-way L1s, 64-byte lines, write-through, FIFO; a 1 MiB 8-way
    /// L2 per cluster; a 2 MiB 8-way L3, disabled. The L1 hit latencies are SimX's from
    /// the core's request to the response at the core (docs/CORRELATION.md): L1I 4 (input
    /// crossbar, bank pipeline, response arbiter), L1D 8 (bank 4, bank response 1, cache
    /// output 1, LSU response 2).
    fn default() -> Self {
        let cache = |size, ways, banks, mshrs, hit_latency| CacheConfig {
            size,
            ways,
            line: 64,
            banks,
            mshrs,
            mshr_merge: 8,
            hit_latency,
            replacement: Replacement::Fifo,
            write_policy: WritePolicy::WriteThrough,
            ports: 0,
        };
        let link = |latency, bandwidth, queue| LinkConfig {
            latency,
            bandwidth,
            queue,
        };
        MemConfig {
            l1i: cache(16 << 10, 4, 1, 16, 4),
            l1d: cache(16 << 10, 4, 4, 16, 8),
            l2: cache(1 << 20, 8, 4, 32, 16),
            l2_enabled: true,
            l3: cache(2 << 20, 8, 8, 64, 24),
            l3_enabled: false,
            l1_link: link(2, 2, 16),
            l2_link: link(4, 2, 16),
            l3_link: link(4, 4, 32),
            dram: DramConfig::default(),
            atomics: AtomicsConfig::default(),
        }
    }
}

impl MemConfig {
    /// Check the values; messages name `<key>.<section>.<field>`, e.g. `memory.l1d.ways`.
    pub fn validate(&self, key: &str) -> Result<(), String> {
        for (name, c) in [
            ("l1i", &self.l1i),
            ("l1d", &self.l1d),
            ("l2", &self.l2),
            ("l3", &self.l3),
        ] {
            c.validate(&format!("{key}.{name}"))?;
            if c.line != self.l1d.line {
                return Err(format!(
                    "{key}.{name}.line = {} differs from {key}.l1d.line = {}: every level uses one line size",
                    c.line, self.l1d.line
                ));
            }
        }
        for (name, l) in [
            ("l1_link", &self.l1_link),
            ("l2_link", &self.l2_link),
            ("l3_link", &self.l3_link),
        ] {
            l.validate(&format!("{key}.{name}"))?;
        }
        self.dram
            .validate()
            .map_err(|e| format!("{key}.dram: {e}"))?;
        if self.dram.line_bytes as u64 != u64::from(self.l1d.line) {
            return Err(format!(
                "{key}.dram.line_bytes = {} differs from {key}.l1d.line = {}",
                self.dram.line_bytes, self.l1d.line
            ));
        }
        if !(1..=1024).contains(&self.atomics.alu_cycles) {
            return Err(format!(
                "{key}.atomics.alu_cycles = {} must be 1..=1024",
                self.atomics.alu_cycles
            ));
        }
        Ok(())
    }
}
