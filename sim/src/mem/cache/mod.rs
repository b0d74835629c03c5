//! A set-associative cache that models time only: tags, dirty bits, replacement state,
//! banks and MSHRs, never data (the cores read and write memory when they issue).
//!
//! The cache decides what happens to one access in the cycle it is presented; what the
//! outcome costs in time (hit latency, a request below) is the caller's business, see
//! [`crate::mem::hierarchy`].

use serde::{Deserialize, Serialize};

use crate::counts::Phased;

/// Which way of a full set a fill replaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Replacement {
    /// Least recently used: hits refresh a line.
    Lru,
    /// First in, first out: the oldest fill goes, hits do not matter (Vortex's default).
    Fifo,
}

/// What a write does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WritePolicy {
    /// Every write goes below; a write miss does not allocate (Vortex's default).
    WriteThrough,
    /// Writes dirty the line; a write miss fetches the line first; dirty victims are
    /// written back below.
    WriteBack,
}

/// One cache. Sizes are in bytes, latencies in core cycles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CacheConfig {
    /// Capacity in bytes (a power of two).
    pub size: u32,
    /// Associativity (a power of two).
    pub ways: u32,
    /// Line size in bytes (a power of two, the same at every level).
    pub line: u32,
    /// Banks, interleaved by line; each accepts one access per cycle.
    pub banks: u32,
    /// Misses in flight to distinct lines.
    pub mshrs: u32,
    /// Further requests that may wait on one MSHR for the same line.
    pub mshr_merge: u32,
    /// Cycles from accepting an access to its hit data (and to sending a miss below).
    pub hit_latency: u32,
    pub replacement: Replacement,
    pub write_policy: WritePolicy,
    /// Accesses accepted per cycle over all banks; 0 = one per bank.
    pub ports: u32,
}

impl Default for CacheConfig {
    /// Vortex's data cache: 16 KiB, 4-way, 64-byte lines, write-through.
    fn default() -> Self {
        CacheConfig {
            size: 16 * 1024,
            ways: 4,
            line: 64,
            banks: 4,
            mshrs: 16,
            mshr_merge: 8,
            hit_latency: 4,
            replacement: Replacement::Fifo,
            write_policy: WritePolicy::WriteThrough,
            ports: 0,
        }
    }
}

/// Bounds that keep the tag store a sensible allocation.
const MAX_SIZE: u32 = 256 << 20;
const MAX_COUNT: u32 = 4096;

impl CacheConfig {
    /// Check the values; messages name `<key>.<field>`.
    pub fn validate(&self, key: &str) -> Result<(), String> {
        for (field, value, min) in [
            ("size", self.size, 1),
            ("ways", self.ways, 1),
            ("line", self.line, 4),
            ("banks", self.banks, 1),
        ] {
            if !value.is_power_of_two() || value < min {
                return Err(format!(
                    "{key}.{field} = {value} must be a power of two, at least {min}"
                ));
            }
        }
        if self.size > MAX_SIZE {
            return Err(format!(
                "{key}.size = {} exceeds {MAX_SIZE} bytes",
                self.size
            ));
        }
        let set_bytes = u64::from(self.ways) * u64::from(self.line);
        if u64::from(self.size) < set_bytes {
            return Err(format!(
                "{key}.size = {} is smaller than {key}.ways x {key}.line = {set_bytes}",
                self.size
            ));
        }
        if self.banks > self.sets() {
            return Err(format!(
                "{key}.banks = {} exceeds the {} sets",
                self.banks,
                self.sets()
            ));
        }
        for (field, value, min) in [
            ("mshrs", self.mshrs, 1),
            ("mshr_merge", self.mshr_merge, 0),
            ("ports", self.ports, 0),
        ] {
            if !(min..=MAX_COUNT).contains(&value) {
                return Err(format!(
                    "{key}.{field} = {value} must be {min}..={MAX_COUNT}"
                ));
            }
        }
        if self.hit_latency > crate::limits::LATENCY {
            return Err(format!(
                "{key}.hit_latency = {} must be 0..={}",
                self.hit_latency,
                crate::limits::LATENCY
            ));
        }
        if self.ports > self.banks {
            return Err(format!(
                "{key}.ports = {} exceeds {key}.banks = {} (each bank takes one access per cycle)",
                self.ports, self.banks
            ));
        }
        Ok(())
    }

    /// Sets (at least 1, even for an invalid configuration).
    pub fn sets(&self) -> u32 {
        let set_bytes = u64::from(self.ways.max(1)) * u64::from(self.line.max(1));
        (u64::from(self.size) / set_bytes).max(1) as u32
    }
}

/// What an access does to the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Read,
    Write,
    /// Read-modify-write at this cache: allocates like a read, dirties like a write.
    Atomic,
}

/// An accepted access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The line is here: done after the hit latency.
    Hit,
    /// A new MSHR: the caller fetches the line from below and calls [`Cache::fill`].
    Miss,
    /// Waits on the MSHR already fetching the line.
    Merged,
    /// A write-through write (hit or miss): nothing allocated, the caller sends it below.
    WriteAround,
}

/// Why an access was not accepted this cycle; the requester retries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stall {
    /// The line's bank already took an access this cycle.
    Bank,
    /// All ports are taken this cycle.
    Port,
    /// No MSHR is free (or the line's MSHR holds `mshr_merge` merged requests).
    MshrFull,
}

crate::merged_counters! {
/// Counters of one cache. Stalls count refused attempts, not distinct requests. Each event
/// also counts in the phase of its request; an eviction or write-back in the phase of the
/// miss whose fill caused it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheStats {
    /// Accepted accesses (= reads + writes + atomics = hits + misses).
    pub accesses: u64,
    pub reads: u64,
    pub writes: u64,
    pub atomics: u64,
    pub hits: u64,
    /// Includes merged misses.
    pub misses: u64,
    pub mshr_merges: u64,
    pub mshr_full_stalls: u64,
    pub bank_stalls: u64,
    pub port_stalls: u64,
    /// Refused because the link below had no room (L1 only).
    pub queue_full_stalls: u64,
    /// Dirty lines written back on eviction.
    pub writebacks: u64,
    /// Valid lines replaced.
    pub evictions: u64,
}
}

impl CacheStats {
    pub fn hit_rate(&self) -> f64 {
        ratio(self.hits, self.accesses)
    }

    pub fn miss_rate(&self) -> f64 {
        ratio(self.misses, self.accesses)
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// What a warming access did ([`Cache::warm`]): whether it goes on below, whether it
/// installed its line, and the dirty line it evicted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Warmed {
    pub below: bool,
    pub filled: bool,
    pub victim: Option<u32>,
}

/// Where a line stands in a cache ([`Cache::probe`]): its way, if present.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    way: Option<usize>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Way {
    line: u32,
    valid: bool,
    dirty: bool,
    /// Replacement order: the lowest stamp in a set is the victim.
    stamp: u64,
}

#[derive(Clone, Debug)]
struct Mshr<W> {
    /// The request that allocated the entry, then the merged ones.
    waiters: Vec<W>,
    /// A write or atomic is waiting: the filled line is dirty (write-back only).
    dirty: bool,
}

/// Marks a free MSHR: line indices are below 2^30 (lines have at least 4 bytes).
const NO_LINE: u32 = u32::MAX;

/// A tag-only cache. `W` is what the owner keeps per request waiting on a miss.
#[derive(Clone, Debug)]
pub struct Cache<W> {
    cfg: CacheConfig,
    /// Line size, as a shift.
    line_shift: u32,
    /// Sets and banks are powers of two: a line's set and bank are its low bits.
    set_mask: u32,
    bank_mask: u32,
    ways: Vec<Way>,
    clock: u64,
    /// The line each MSHR fetches (`NO_LINE`: free), apart from the entries so that a
    /// lookup scans a short array.
    mshr_lines: Vec<u32>,
    mshrs: Vec<Mshr<W>>,
    /// The free MSHRs. Which one a miss takes makes no difference.
    free_mshrs: Vec<usize>,
    /// Per bank, 1 + the last cycle it took an access (0 = never).
    bank_busy: Vec<u64>,
    port_cycle: u64,
    ports_used: u32,
    stats: Phased<CacheStats>,
}

impl<W: Copy> Cache<W> {
    /// A cold cache. `cfg` should have passed [`CacheConfig::validate`]; an invalid one
    /// still builds a (meaningless) cache rather than failing.
    pub fn new(cfg: &CacheConfig) -> Cache<W> {
        let sets = cfg.sets();
        let ways = cfg.ways.max(1);
        Cache {
            cfg: cfg.clone(),
            line_shift: cfg.line.max(1).ilog2(),
            // An invalid configuration may have other counts; masks keep indices in range.
            set_mask: sets - 1,
            bank_mask: cfg.banks.max(1) - 1,
            ways: vec![Way::default(); (sets * ways) as usize],
            clock: 0,
            mshr_lines: vec![NO_LINE; cfg.mshrs.max(1) as usize],
            mshrs: (0..cfg.mshrs.max(1))
                .map(|_| Mshr {
                    waiters: Vec::new(),
                    dirty: false,
                })
                .collect(),
            free_mshrs: (0..cfg.mshrs.max(1) as usize).rev().collect(),
            bank_busy: vec![0; cfg.banks.max(1) as usize],
            port_cycle: 0,
            ports_used: 0,
            stats: Phased::default(),
        }
    }

    pub fn config(&self) -> &CacheConfig {
        &self.cfg
    }

    /// The whole run's counters.
    pub fn stats(&self) -> &CacheStats {
        self.stats.total()
    }

    /// The counters of `phase` (see [`Phased`]).
    pub fn phase_stats(&self, phase: usize) -> CacheStats {
        self.stats.phase(phase)
    }

    /// The line index of a byte address.
    pub fn line_of(&self, addr: u32) -> u32 {
        addr >> self.line_shift
    }

    /// Whether line `line` (a line index) is present.
    pub fn contains(&self, line: u32) -> bool {
        self.find(line).is_some()
    }

    /// Whether accepting `op` on `line` now would send a request below (a new miss or a
    /// write-through write), without changing anything.
    pub fn needs_below(&self, line: u32, op: Op) -> bool {
        self.needs_below_probed(line, op, self.probe(line))
    }

    /// [`Cache::needs_below`] with `line`'s [`Cache::probe`].
    #[inline]
    pub fn needs_below_probed(&self, line: u32, op: Op, probe: Probe) -> bool {
        if op == Op::Write && self.cfg.write_policy == WritePolicy::WriteThrough {
            return true;
        }
        probe.way.is_none() && self.mshr_of(line).is_none()
    }

    /// Where `line` stands: present, or its miss in flight. Valid until the cache changes.
    #[inline]
    pub fn probe(&self, line: u32) -> Probe {
        Probe {
            way: self.find(line),
        }
    }

    /// Count a request of `phase` refused because the link below had no room.
    pub fn count_queue_full(&mut self, phase: usize) {
        self.stats.count(phase, |s| s.queue_full_stalls += 1);
    }

    /// Present `op` on `line` (a line index) at cycle `now` for a request of `phase`;
    /// `waiter` is kept if the access has to wait for a fill. Cycles must not decrease
    /// across calls.
    pub fn access(
        &mut self,
        now: u64,
        line: u32,
        op: Op,
        phase: usize,
        waiter: W,
    ) -> Result<Outcome, Stall> {
        let probe = self.probe(line);
        self.access_probed(now, line, op, phase, waiter, probe)
    }

    /// [`Cache::access`] with `line`'s [`Cache::probe`], taken since the cache last changed.
    pub fn access_probed(
        &mut self,
        now: u64,
        line: u32,
        op: Op,
        phase: usize,
        waiter: W,
        probe: Probe,
    ) -> Result<Outcome, Stall> {
        if self.cfg.ports != 0 {
            if self.port_cycle != now {
                self.port_cycle = now;
                self.ports_used = 0;
            }
            if self.ports_used >= self.cfg.ports {
                self.stats.count(phase, |s| s.port_stalls += 1);
                return Err(Stall::Port);
            }
        }
        let bank = (line & self.bank_mask) as usize;
        if self.bank_busy[bank] == now + 1 {
            self.stats.count(phase, |s| s.bank_stalls += 1);
            return Err(Stall::Bank);
        }
        let outcome = self.lookup(line, op, phase, waiter, probe)?;
        self.bank_busy[bank] = now + 1;
        self.ports_used += 1;
        self.stats.count(phase, |s| {
            s.accesses += 1;
            match op {
                Op::Read => s.reads += 1,
                Op::Write => s.writes += 1,
                Op::Atomic => s.atomics += 1,
            }
        });
        Ok(outcome)
    }

    /// Tags and MSHRs; on `Err` nothing has changed but the stall counter.
    fn lookup(
        &mut self,
        line: u32,
        op: Op,
        phase: usize,
        waiter: W,
        probe: Probe,
    ) -> Result<Outcome, Stall> {
        let write_back = self.cfg.write_policy == WritePolicy::WriteBack;
        if let Some(i) = probe.way {
            self.stats.count(phase, |s| s.hits += 1);
            if op == Op::Write && !write_back {
                return Ok(Outcome::WriteAround);
            }
            if self.cfg.replacement == Replacement::Lru {
                self.clock += 1;
                self.ways[i].stamp = self.clock;
            }
            if op != Op::Read && write_back {
                self.ways[i].dirty = true;
            }
            return Ok(Outcome::Hit);
        }
        if op == Op::Write && !write_back {
            self.stats.count(phase, |s| s.misses += 1);
            return Ok(Outcome::WriteAround);
        }
        let merge = self.cfg.mshr_merge as usize;
        let slot = match self.mshr_of(line) {
            Some(m) if self.mshrs[m].waiters.len() > merge => None,
            Some(m) => Some((m, true)),
            None => self.free_mshrs.pop().map(|m| (m, false)),
        };
        let Some((m, merged)) = slot else {
            self.stats.count(phase, |s| s.mshr_full_stalls += 1);
            return Err(Stall::MshrFull);
        };
        self.mshr_lines[m] = line;
        let entry = &mut self.mshrs[m];
        entry.waiters.push(waiter);
        entry.dirty |= op != Op::Read && write_back;
        self.stats.count(phase, |s| {
            s.misses += 1;
            s.mshr_merges += u64::from(merged);
        });
        if merged {
            Ok(Outcome::Merged)
        } else {
            Ok(Outcome::Miss)
        }
    }

    /// The line arrives from below: install it, free its MSHR and append the requests that
    /// waited on it to `waiters`. Returns a dirty victim's line index, to be written back.
    /// An eviction counts in `phase`: that of the miss the fill answers.
    pub fn fill(&mut self, line: u32, phase: usize, waiters: &mut Vec<W>) -> Option<u32> {
        let mut dirty = false;
        if let Some(m) = self.mshr_of(line) {
            let entry = &mut self.mshrs[m];
            waiters.append(&mut entry.waiters);
            dirty = entry.dirty;
            entry.dirty = false;
            self.mshr_lines[m] = NO_LINE;
            self.free_mshrs.push(m);
        }
        self.clock += 1;
        if let Some(i) = self.find(line) {
            self.ways[i].dirty |= dirty;
            return None;
        }
        let old = self.install(line, dirty)?;
        self.stats.count(phase, |s| {
            s.evictions += 1;
            s.writebacks += u64::from(old.dirty);
        });
        if old.dirty {
            Some(old.line)
        } else {
            None
        }
    }

    /// Put `line` (absent) in its set, in an invalid way or over the replacement order's
    /// victim: the valid line it replaced.
    fn install(&mut self, line: u32, dirty: bool) -> Option<Way> {
        let set = (line & self.set_mask) as usize;
        let ways = self.cfg.ways.max(1) as usize;
        let range = set * ways..(set + 1) * ways;
        let victim = range
            .clone()
            .find(|&i| !self.ways[i].valid)
            .or_else(|| range.min_by_key(|&i| self.ways[i].stamp))?;
        let old = self.ways[victim];
        self.ways[victim] = Way {
            line,
            valid: true,
            dirty,
            stamp: self.clock,
        };
        old.valid.then_some(old)
    }

    /// The lines it holds: its sets times their ways.
    pub fn lines(&self) -> u64 {
        self.ways.len() as u64
    }

    /// Functional warming: `op` on `line` changes the tags and the replacement order as
    /// the access and its fill would ([`Cache::access`], [`Cache::fill`]), at once, with
    /// no MSHR, stall or statistic. Whether a request goes below (a miss's read, a
    /// write-through write) and a dirty victim's line, to be written back.
    pub fn warm(&mut self, line: u32, op: Op) -> Warmed {
        let write_back = self.cfg.write_policy == WritePolicy::WriteBack;
        let write_around = op == Op::Write && !write_back;
        if let Some(i) = self.find(line) {
            if !write_around {
                if self.cfg.replacement == Replacement::Lru {
                    self.clock += 1;
                    self.ways[i].stamp = self.clock;
                }
                self.ways[i].dirty |= op != Op::Read && write_back;
            }
            return Warmed {
                below: write_around,
                filled: false,
                victim: None,
            };
        }
        if write_around {
            return Warmed {
                below: true,
                filled: false,
                victim: None,
            };
        }
        self.clock += 1;
        let old = self.install(line, op != Op::Read && write_back);
        Warmed {
            below: true,
            filled: true,
            victim: old.filter(|w| w.dirty).map(|w| w.line),
        }
    }

    fn find(&self, line: u32) -> Option<usize> {
        let ways = self.cfg.ways.max(1) as usize;
        let base = (line & self.set_mask) as usize * ways;
        (base..base + ways).find(|&i| self.ways[i].valid && self.ways[i].line == line)
    }

    fn mshr_of(&self, line: u32) -> Option<usize> {
        self.mshr_lines.iter().position(|&l| l == line)
    }
}

#[cfg(test)]
mod tests;
