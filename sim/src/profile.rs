//! Issue slots, instructions and memory behaviour by PC (`wsim run --profile-pc`): every
//! slot a core accounts is also charged to the PC of the instruction its reason came from,
//! and every event of a memory request to the instruction that made it, so the per-PC
//! counts add up to the report's totals, reason by reason and counter by counter. Folded
//! to functions and source lines for the report.
//!
//! Which PC a slot is charged to (docs/OBSERVING.md): an issued slot to the instruction
//! issued; a stalled slot to the warp whose answer gave the slot its reason (the first in
//! the scheduler's order with that reason), at the instruction that warp waits on: its
//! buffered instruction; with an empty buffer, the control instruction whose resolution it
//! awaits (a branch, a Weaver decode) or else the PC it fetches next; at a barrier, the
//! barrier instruction. A slot of a slice without a live warp (`no_active_warp`) has no
//! PC and is counted apart.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::counts::{Merge, Since};
use crate::mem::cache::CacheStats;
use crate::mem::dram::DramStats;
use crate::mem::hierarchy::{CacheLevel, HierarchyStats};
use crate::program::Program;
use crate::stats::{LaunchRecord, SlotReason, Slots};

crate::merged_counters! {
/// What happened at one PC.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PcCounts {
    /// Warp instructions issued.
    pub instructions: u64,
    /// Active lanes summed over them.
    pub thread_instructions: u64,
    /// Issue slots charged here, by reason (`issued` equals `instructions`).
    pub slots: Slots,
    /// What the instruction's memory requests did (absent when it made none).
    #[serde(default, skip_serializing_if = "PcMemory::is_empty")]
    pub memory: PcMemory,
}
}

crate::merged_counters! {
/// What an instruction's memory requests did: its line requests and, at every level, the
/// counters of the report's `memory` that its requests moved (a fetch's: the instruction
/// fetched), so that summed over the PCs they are the report's, field by field (the DRAM's
/// `ticked_cycles` and `refreshes` belong to no request: 0). What a request causes below
/// is charged to it (`MemoryHierarchy::stats_by_pc`): a miss's fill, the eviction and
/// dirty write-back the fill makes, a write-through store's writes down to DRAM.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PcMemory {
    /// The line requests the coalescer made of its global accesses (the report's
    /// `dcache_requests`).
    pub line_requests: u64,
    /// The extra cycles its local-memory accesses' bank conflicts cost (the report's
    /// `local_bank_conflict_cycles`).
    pub local_bank_conflict_cycles: u64,
    /// Each cache level's counters, the level's caches summed.
    pub l1i: CacheStats,
    pub l1d: CacheStats,
    pub l2: CacheStats,
    pub l3: CacheStats,
    pub dram: DramStats,
}
}

impl PcMemory {
    /// The levels' counters of one PC's requests.
    fn of(stats: &HierarchyStats) -> Self {
        PcMemory {
            line_requests: 0,
            local_bank_conflict_cycles: 0,
            l1i: stats.level(CacheLevel::L1i),
            l1d: stats.level(CacheLevel::L1d),
            l2: stats.level(CacheLevel::L2),
            l3: stats.level(CacheLevel::L3),
            dram: stats.dram.clone(),
        }
    }

    /// No request counted here.
    pub fn is_empty(&self) -> bool {
        *self == PcMemory::default()
    }
}

impl PcCounts {
    /// Slots charged here that did not issue.
    pub fn stall_slots(&self) -> u64 {
        self.slots.total() - self.slots.get(SlotReason::Issued)
    }
}

/// One core's counts by PC while the run is profiled. The image's code is counted in a
/// table per code range (one entry per instruction); code elsewhere (written at run time)
/// in a map.
#[derive(Clone, Debug)]
pub struct CoreProfile {
    ranges: Vec<(u32, Vec<PcCounts>)>,
    other: BTreeMap<u32, PcCounts>,
    /// Slots of slices without a live warp.
    no_warp: Slots,
    /// Per slice: the PC its last cycle's slot was charged to (skipped cycles repeat it).
    charged: Vec<Option<u32>>,
    /// Per warp: the PC of its last issued instruction (a barrier, a branch it waits on).
    pub(crate) last_issued: Vec<u32>,
    /// Check every slot against a fresh look at the warps (`Machine::check_slots`).
    pub(crate) check: bool,
}

impl CoreProfile {
    pub fn new(ranges: &[(u32, u32)], slices: usize, warps: usize) -> Self {
        CoreProfile {
            ranges: (ranges.iter())
                .map(|&(base, n)| (base, vec![PcCounts::default(); n as usize]))
                .collect(),
            other: BTreeMap::new(),
            no_warp: Slots::default(),
            charged: vec![None; slices],
            last_issued: vec![0; warps],
            check: false,
        }
    }

    /// The memory counters of the instruction at `pc` (the core's own: line requests and
    /// local-memory conflicts; the hierarchy's are added when the profile is made).
    pub(crate) fn memory(&mut self, pc: u32) -> &mut PcMemory {
        &mut self.at(pc).memory
    }

    #[inline]
    fn at(&mut self, pc: u32) -> &mut PcCounts {
        for (base, table) in &mut self.ranges {
            let k = pc.wrapping_sub(*base) / 4;
            if pc.is_multiple_of(4) && (k as usize) < table.len() {
                return &mut table[k as usize];
            }
        }
        self.other.entry(pc).or_default()
    }

    /// Warp `w` issued the instruction at `pc` with `lanes` active.
    pub(crate) fn issued(&mut self, w: usize, pc: u32, lanes: u32) {
        self.last_issued[w] = pc;
        let c = self.at(pc);
        c.instructions += 1;
        c.thread_instructions += u64::from(lanes);
    }

    /// Slice `slice`'s slot this cycle had `reason`, charged to `pc` (none: no live warp).
    pub(crate) fn charge(&mut self, slice: usize, pc: Option<u32>, reason: SlotReason) {
        self.charged[slice] = pc;
        self.add(pc, reason, 1);
    }

    /// The PC slice `slice`'s last slot was charged to.
    pub(crate) fn charged(&self, slice: usize) -> Option<u32> {
        self.charged[slice]
    }

    /// `n` skipped cycles, each slice's slot with its last `reasons`.
    pub(crate) fn skipped(&mut self, reasons: &[SlotReason], n: u64) {
        for (slice, &reason) in reasons.iter().enumerate() {
            self.add(self.charged[slice], reason, n);
        }
    }

    fn add(&mut self, pc: Option<u32>, reason: SlotReason, n: u64) {
        match pc {
            Some(pc) => self.at(pc).slots.add(reason, n),
            None => self.no_warp.add(reason, n),
        }
    }

    /// The slots charged to the instructions in `ranges` (start, end exclusive), by
    /// reason.
    pub(crate) fn slots_in(&self, ranges: &[(u32, u32)]) -> Slots {
        let mut slots = Slots::default();
        for &(start, end) in ranges {
            for c in self.other.range(start..end).map(|(_, c)| c) {
                slots.merge(&c.slots);
            }
            for (base, table) in &self.ranges {
                let first = start.max(*base);
                let last = end.min(base + 4 * table.len() as u32).max(first);
                let (from, to) = ((first - base).div_ceil(4), (last - base).div_ceil(4));
                for c in &table[from as usize..to as usize] {
                    slots.merge(&c.slots);
                }
            }
        }
        slots
    }

    /// Every PC with a count, in address order.
    pub(crate) fn counts(&self) -> BTreeMap<u32, PcCounts> {
        let mut all = self.other.clone();
        for (base, table) in &self.ranges {
            for (k, c) in table.iter().enumerate() {
                if *c != PcCounts::default() {
                    all.insert(base + 4 * k as u32, c.clone());
                }
            }
        }
        all
    }
}

/// One instruction's counts, where it is and what it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstructionProfile {
    pub pc: u32,
    /// `function+offset` (the offset in bytes, hexadecimal); absent outside any symbol.
    pub function: Option<String>,
    /// `file:line` from the DWARF line tables; absent without them.
    pub line: Option<String>,
    pub disasm: String,
    #[serde(flatten)]
    pub counts: PcCounts,
}

/// Counts summed over a function's or a source line's instructions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Folded {
    /// The function's symbol, or `file:line`; `?` for code outside any.
    pub name: String,
    #[serde(flatten)]
    pub counts: PcCounts,
}

/// The run's profile by PC: in the JSON report under `profile`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    /// Slots of slices without a live warp: charged to no PC.
    pub no_warp: Slots,
    /// By stall slots, most first (then by name).
    pub functions: Vec<Folded>,
    pub lines: Vec<Folded>,
    /// Every instruction with a count, in address order.
    pub instructions: Vec<InstructionProfile>,
    /// The launch wait: the slots charged to the runtime's `wsim_spawn` itself
    /// (`LAUNCH_WAIT`) while a launch ran, summed over the launches (each record's
    /// `launch_wait`): warp 0 of each core waiting there for its launch's warps to retire
    /// and for the other cores (the loop on `vx_active_warps` and the global barrier),
    /// apart from the kernels' own stalls. `functions` has all of `wsim_spawn`'s slots,
    /// these and those of setting a launch up and of the barrier after it ended.
    #[serde(default)]
    pub launch_wait: Slots,
    /// The launches asked for when the profile is restricted to some
    /// (`wsim run --profile-kernel`, `--profile-launch`); absent for the whole run's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<Selection>,
    /// The launches a restricted profile covers (those `selection` selects), by index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub launches: Vec<u32>,
}

/// The runtime's launch function (programs/runtime/wsim_rt.c): after warp 0 has run its
/// own lanes of the kernel, it waits in here until the launch ends.
pub const LAUNCH_WAIT: &str = "wsim_spawn";

/// Which launches a profile covers (`wsim run --profile-kernel NAME`, `--profile-launch
/// N`, each repeatable): a launch whose kernel is among `kernels` or whose index is among
/// `launches`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    /// Kernels by the name their launch records give them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kernels: Vec<String>,
    /// Launches by index, from 0.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub launches: Vec<u32>,
}

impl Selection {
    pub fn selects(&self, launch: &LaunchRecord) -> bool {
        self.launches.contains(&launch.index)
            || (launch.kernel.as_ref()).is_some_and(|k| self.kernels.contains(k))
    }
}

/// Every core's and the memory hierarchy's counts by PC at one moment of the run, or
/// between two (a launch's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PcTotals {
    pcs: BTreeMap<u32, PcCounts>,
    no_warp: Slots,
}

impl PcTotals {
    /// The cores' profiles summed, with what the memory hierarchy counted by PC
    /// (`MemoryHierarchy::stats_by_pc`).
    pub fn of<'a>(
        cores: impl IntoIterator<Item = &'a CoreProfile>,
        memory: &BTreeMap<u32, HierarchyStats>,
    ) -> Self {
        let mut t = PcTotals::default();
        for core in cores {
            t.no_warp.merge(&core.no_warp);
            for (pc, c) in core.counts() {
                t.pcs.entry(pc).or_default().merge(&c);
            }
        }
        for (&pc, stats) in memory {
            (t.pcs.entry(pc).or_default().memory).merge(&PcMemory::of(stats));
        }
        t
    }
}

impl Merge for PcTotals {
    fn merge(&mut self, other: &Self) {
        self.no_warp.merge(&other.no_warp);
        for (&pc, c) in &other.pcs {
            self.pcs.entry(pc).or_default().merge(c);
        }
    }
}

impl Since for PcTotals {
    /// What was counted since `earlier` (a PC counted nothing more: left out).
    fn since(&self, earlier: &Self) -> Self {
        let none = PcCounts::default();
        let pcs = (self.pcs.iter())
            .map(|(&pc, c)| (pc, c.since(earlier.pcs.get(&pc).unwrap_or(&none))))
            .filter(|(_, c)| *c != none)
            .collect();
        PcTotals {
            pcs,
            no_warp: self.no_warp.since(&earlier.no_warp),
        }
    }
}

/// A profiled run's accounts at its launches (the machine's, `Machine::profile_pcs`):
/// each launch's wait (the slots charged to `wsim_spawn` while it ran: its record's
/// `launch_wait`) and, when the profile is restricted to a selection of launches, their
/// counts by PC (at each selected launch's end since its start, summed).
#[derive(Clone, Debug, Default)]
pub struct LaunchAccounts {
    /// `wsim_spawn`'s code: (start, end exclusive).
    wait_code: Vec<(u32, u32)>,
    selection: Option<Selection>,
    /// At the open launch's start: the slots charged to `wait_code`, and the counts by PC
    /// when it is selected.
    at_start: Option<(Slots, Option<PcTotals>)>,
    /// The selected launches' counts, summed, and their indices.
    selected: PcTotals,
    launches: Vec<u32>,
    /// Their launch waits, summed; every launch's.
    selected_wait: Slots,
    wait: Slots,
}

impl LaunchAccounts {
    pub fn new(wait_code: Vec<(u32, u32)>) -> Self {
        LaunchAccounts {
            wait_code,
            ..LaunchAccounts::default()
        }
    }

    /// Restrict the profile to the launches `selection` selects.
    pub fn select(&mut self, selection: Selection) {
        self.selection = Some(selection);
    }

    /// The slots charged to `wsim_spawn` so far.
    fn waited<'a>(&self, cores: impl IntoIterator<Item = &'a CoreProfile>) -> Slots {
        let mut slots = Slots::default();
        for core in cores {
            slots.merge(&core.slots_in(&self.wait_code));
        }
        slots
    }

    /// `launch` has just opened; `cores` and `memory` give the counts so far.
    pub fn open<'a>(
        &mut self,
        launch: &LaunchRecord,
        cores: impl IntoIterator<Item = &'a CoreProfile> + Clone,
        memory: impl FnOnce() -> BTreeMap<u32, HierarchyStats>,
    ) {
        let selected = (self.selection.as_ref()).is_some_and(|s| s.selects(launch));
        let totals = selected.then(|| PcTotals::of(cores.clone(), &memory()));
        self.at_start = Some((self.waited(cores), totals));
    }

    /// `launch` has just closed: its `launch_wait` set (none when the profile began
    /// while it ran).
    pub fn close<'a>(
        &mut self,
        launch: &mut LaunchRecord,
        cores: impl IntoIterator<Item = &'a CoreProfile> + Clone,
        memory: impl FnOnce() -> BTreeMap<u32, HierarchyStats>,
    ) {
        let Some((waited, totals)) = self.at_start.take() else {
            return;
        };
        let wait = self.waited(cores.clone()).since(&waited);
        self.wait.merge(&wait);
        if let Some(at_start) = totals {
            let now = PcTotals::of(cores, &memory());
            self.selected.merge(&now.since(&at_start));
            self.launches.push(launch.index);
            self.selected_wait.merge(&wait);
        }
        launch.launch_wait = Some(wait);
    }
}

impl Profile {
    /// The run's profile from the cores' and the memory hierarchy's counts by PC
    /// (`whole`) and its launches' accounts, placed in `program`: the whole run's, or the
    /// selected launches' when the accounts have a selection.
    pub fn new(
        whole: PcTotals,
        launches: &LaunchAccounts,
        program: &Program,
        mem: &crate::mem::Memory,
    ) -> Self {
        let (totals, launch_wait) = match &launches.selection {
            None => (whole, launches.wait),
            Some(_) => (launches.selected.clone(), launches.selected_wait),
        };
        let mut functions: BTreeMap<String, PcCounts> = BTreeMap::new();
        let mut lines: BTreeMap<String, PcCounts> = BTreeMap::new();
        let instructions = (totals.pcs.into_iter())
            .map(|(pc, counts)| {
                let function = program.function_of(pc);
                let line = program.line_of(pc);
                let fold = |into: &mut BTreeMap<String, PcCounts>, key: Option<&str>| {
                    into.entry(key.unwrap_or("?").to_string())
                        .or_default()
                        .merge(&counts);
                };
                fold(&mut functions, function.map(|(name, _)| name));
                fold(&mut lines, line.as_deref());
                InstructionProfile {
                    pc,
                    function: function.map(|(name, offset)| match offset {
                        0 => name.to_string(),
                        o => format!("{name}+{o:#x}"),
                    }),
                    line,
                    disasm: program.text_of(pc, mem),
                    counts,
                }
            })
            .collect();
        Profile {
            no_warp: totals.no_warp,
            launch_wait,
            functions: by_stalls(functions),
            lines: by_stalls(lines),
            instructions,
            selection: launches.selection.clone(),
            launches: launches.launches.clone(),
        }
    }

    /// All charged counts summed: equal to the run's totals (the selected launches'
    /// for a restricted profile).
    pub fn total(&self) -> PcCounts {
        let mut t = PcCounts {
            slots: self.no_warp,
            ..PcCounts::default()
        };
        for i in &self.instructions {
            t.merge(&i.counts);
        }
        t
    }
}

fn by_stalls(folded: BTreeMap<String, PcCounts>) -> Vec<Folded> {
    let mut v: Vec<Folded> = (folded.into_iter())
        .map(|(name, counts)| Folded { name, counts })
        .collect();
    v.sort_by(|a, b| {
        (b.counts.stall_slots().cmp(&a.counts.stall_slots())).then_with(|| a.name.cmp(&b.name))
    });
    v
}
