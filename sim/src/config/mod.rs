//! The simulated machine's configuration: TOML through serde, every key documented in
//! docs/CONFIG.md. Unknown keys are errors naming the key's full path and the nearest
//! valid key; values are validated before a run starts.

use serde::{Deserialize, Serialize};

use crate::limits;
use crate::mem::hierarchy::MemConfig;

mod parse;
#[cfg(test)]
mod tests;
mod validate;

use parse::{
    check_known_keys, collect_paths, overlay, parse_override_value, set_path, typed, Origin,
};

/// The whole configuration. Every section has defaults (the Vortex SimX reference), so a
/// file only states what it changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[derive(Default)]
pub struct Config {
    pub gpu: GpuConfig,
    pub core: CoreConfig,
    pub local_mem: LocalMemConfig,
    pub stack: StackConfig,
    /// Caches, links and DRAM: `[memory.l1i]`, `[memory.l1d]`, `[memory.l2]`, `[memory.l3]`,
    /// `[memory.l1_link]`, `[memory.l2_link]`, `[memory.l3_link]`, `[memory.dram]`.
    pub memory: MemConfig,
    pub io: IoConfig,
    pub run: RunConfig,
    /// The SparseWeaver unit in each core's SFU.
    pub weaver: WeaverConfig,
    /// What a program may access besides its image, stacks, local memory and I/O words.
    pub map: MapConfig,
    /// The key paths a document or an override stated (`weaver.mode`): a program may
    /// decide what the configuration left at its default, never what it states. Not part
    /// of the configuration's TOML (nor its hash).
    #[serde(skip)]
    given: std::collections::BTreeSet<String>,
}

/// Geometry of the machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GpuConfig {
    pub clusters: u32,
    pub cores_per_cluster: u32,
    /// Cores that share one L1 instruction and one L1 data cache (Vortex's `SOCKET_SIZE`);
    /// 1: private L1s. Divides `cores_per_cluster`.
    pub cores_per_socket: u32,
    /// Which core's requests the caches and links the cores share serve first in a cycle.
    pub arbiter: Arbiter,
    pub warps_per_core: u32,
    pub threads_per_warp: u32,
}

/// The order in which the cores reach what they share within a cycle: a socket's L1s
/// (ports, banks, MSHRs), the links below them, the L2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arbiter {
    /// The lowest-numbered core first, every cycle: under contention a socket's first
    /// core takes what is free and its others wait (docs/CONFIG.md, "Sockets").
    #[default]
    CoreOrder,
    /// Round robin: the first cluster, within each cluster the first socket and within each
    /// socket the first core rotate every cycle (`Machine::served`). Vortex arbitrates a socket's cores into its L1s and the sockets into the L2
    /// round robin (`hw/rtl/cache/VX_cache_cluster.sv`: `core_arb` and `mem_arb`, each a
    /// `VX_mem_arb` with `ARBITER("R")`).
    RoundRobin,
}

/// The core pipeline: front end, scheduler, functional units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CoreConfig {
    /// Issue slots per cycle; warp `w` issues in slice `w % slices`. 0: one slice per 16
    /// warps, as Vortex.
    pub issue_slices: u32,
    /// Warp selection among ready warps.
    pub scheduler: Scheduler,
    /// Decoded instructions buffered per warp.
    pub ibuffer: u32,
    /// The front end. false (Vortex): a warp is scheduled to fetch one instruction and not
    /// again until that instruction is decoded, or, for a branch, jump or warp-control
    /// instruction, until it leaves its unit; the lowest-numbered warp that can is scheduled,
    /// and every fetch reads the instruction cache. true: a warp fetches ahead into its
    /// instruction buffer, round robin, through a line buffer; a control instruction stops
    /// its warp's fetch until it resolves.
    pub fetch_ahead: bool,
    /// Cycles from scheduling a fetch to the instruction-cache request (Vortex: the fetch
    /// latch).
    pub fetch_latency: u32,
    /// Cycles from an instruction-cache hit to the instruction buffer's head (decode).
    pub decode_latency: u32,
    /// Cycles from issue to the functional unit (operand collection and dispatch).
    pub dispatch_latency: u32,
    /// Cycles from a unit's result to the issue of an instruction that reads it (the
    /// commit stage).
    pub writeback_latency: u32,
    /// Cycles from a control instruction leaving its unit to its warp's next fetch.
    pub resume_latency: u32,
    /// Instructions each functional unit holds between dispatch and commit (0: no limit,
    /// only the initiation interval).
    pub unit_queue: u32,
    /// Loads and atomics in flight at once per core, each from its first line request to
    /// its last line's arrival; a load waits in the LSU queue, in order, for a free entry
    /// (Vortex SimX's pending-request table, `VX_CFG_LSUQ_IN_SIZE`). 0: no limit.
    pub lsu_pending: u32,
    /// Register-file banks (register `r` is in bank `r % banks`); each extra source read
    /// from an already-used bank costs a cycle.
    pub register_banks: u32,
    /// Operand collectors per issue slice; 0: Vortex's, one per 4 warps of the slice. With
    /// more than one, an instruction is routed to its warp's collector and the collectors'
    /// outputs are arbitrated: 2 more cycles from issue to the unit.
    pub operand_collectors: u32,
    /// Each unit's dispatcher takes instructions from one issue slice per cycle, in turn
    /// (Vortex), so an instruction reaches its unit on a cycle of its slice.
    pub slice_dispatch: bool,
    pub latency: LatencyConfig,
    pub lanes: LanesConfig,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scheduler {
    /// Greedy-then-oldest: keep issuing from the last warp while it can, else the oldest.
    Gto,
    /// Round robin from the warp after the last one issued.
    Rr,
}

/// Cycles from issue to result for each class of operation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LatencyConfig {
    pub alu: u32,
    /// Branches and jumps: cycles until the warp's next PC is known.
    pub branch: u32,
    pub mul: u32,
    /// div/rem; not pipelined.
    pub div: u32,
    /// fadd, fsub, fmul, fused multiply-add.
    pub fpu_fma: u32,
    /// fdiv and fsqrt; not pipelined.
    pub fpu_div: u32,
    /// Conversions between integer and float.
    pub fpu_cvt: u32,
    /// Compares, min/max, sign injection, moves, fclass.
    pub fpu_misc: u32,
    /// CSR access, warp control, vote and shuffle.
    pub sfu: u32,
    /// Address generation and coalescing before the data cache.
    pub lsu: u32,
    /// Local (shared) memory access without bank conflicts.
    pub local_mem: u32,
}

/// Lanes per functional unit (0: as many as threads per warp). A warp instruction with
/// `n` active lanes occupies a unit with `l` lanes for `ceil(n / l)` cycles.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LanesConfig {
    pub alu: u32,
    pub fpu: u32,
    pub lsu: u32,
    pub sfu: u32,
}

/// Per-core shared (local) memory, mapped at the same address in every core.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LocalMemConfig {
    /// Base address of the window (CSR 0xFC3 reads it).
    pub base: u32,
    /// Bytes.
    pub size: u32,
    /// Word-interleaved banks (0: one per thread of a warp).
    pub banks: u32,
}

/// The Weaver unit (docs/WEAVER.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WeaverConfig {
    /// `auto`: present exactly when the program contains Weaver instructions, so software
    /// schedules keep the whole L1 data cache, as in the dissertation's evaluation.
    pub enabled: WeaverPresence,
    /// `weaver`: SparseWeaver. `eghw`: the edge-generating comparison hardware, which
    /// also reads the topology and the edges itself (section 4.6.8).
    pub mode: WeaverMode,
    /// Sparse Workload Information Table entries per core.
    pub entries: u32,
    /// Cycles of one access to the tables, which live in shared memory.
    pub table_latency: u32,
    /// FSM cycles per ST entry loaded into the current-entry buffer (one per cycle).
    pub entry_cycles: u32,
    /// Percentage of the L1 data cache the unit's tables take when it is present (the
    /// dissertation: 64 KB to 32 KB, i.e. 50).
    pub l1d_reduction_percent: u32,
    /// EGHW: how the unit reads each stage's words (offsets, then edges).
    pub eghw_reads: EghwReads,
}

/// How the EGHW unit reads a stage of a decode (the entries' offsets, then the edges).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EghwReads {
    /// One word at a time, each read after the last arrived (the dissertation's unit
    /// "does not effectively hide" its reads, section 4.6.8).
    WordSerial,
    /// One line at a time, each after the last: the words of a line read are served from
    /// it without a new request.
    LineSerial,
    /// The stage's lines all at once, overlapping in the L1D's MSHRs ("adding pipelines").
    Pipelined,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WeaverPresence {
    Auto,
    On,
    Off,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WeaverMode {
    Weaver,
    Eghw,
}

impl WeaverMode {
    /// The mode as the configuration writes it.
    pub fn name(self) -> &'static str {
        match self {
            WeaverMode::Weaver => "weaver",
            WeaverMode::Eghw => "eghw",
        }
    }
}

impl Default for WeaverConfig {
    fn default() -> Self {
        WeaverConfig {
            enabled: WeaverPresence::Auto,
            mode: WeaverMode::Weaver,
            entries: 512,
            table_latency: 10,
            entry_cycles: 1,
            l1d_reduction_percent: 50,
            eghw_reads: EghwReads::WordSerial,
        }
    }
}

/// The per-thread stacks the runtime lays out (programs/runtime/crt0.S): thread `h`
/// (mhartid) owns `size` bytes below `top - h * size`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StackConfig {
    pub top: u32,
    pub size: u32,
    /// Time stack accesses as if the stacks of a warp's threads were interleaved word by
    /// word (as GPUs lay out thread-private memory), so that a warp's spill of one register
    /// is one or a few line requests instead of one per lane. `false`: Vortex's flat layout.
    pub interleave: bool,
}

impl Default for StackConfig {
    fn default() -> Self {
        StackConfig {
            top: 0xFE00_0000,
            size: 4096,
            interleave: true,
        }
    }
}

/// Memory-mapped I/O words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IoConfig {
    /// A byte stored here is printed on the console.
    pub console: u32,
    /// A word stored here is the program's exit status (the first non-zero one wins).
    pub exit: u32,
    /// Accesses below this address are errors (catches null-pointer dereferences).
    pub null_guard: u32,
}

/// The address map beyond what the program image and the machine define (docs/CONFIG.md,
/// "The memory map"): an access outside every mapped region is an error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MapConfig {
    /// Bytes above the program image's end (`_end`) a program may use as its heap.
    pub heap: u32,
    /// Further regions a program may access, e.g. `[{ base = 0xC0000000, size = 4096 }]`.
    pub regions: Vec<MapRegion>,
}

/// A region of the address map: `size` bytes from `base`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapRegion {
    pub base: u32,
    pub size: u32,
}

impl Default for MapConfig {
    fn default() -> Self {
        MapConfig {
            heap: 64 << 20,
            regions: Vec::new(),
        }
    }
}

/// How a run starts and when it is cut off.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RunConfig {
    /// Which cores start a thread at the ELF entry.
    pub start: StartCores,
    /// A run still going after this many cycles is an error.
    pub max_cycles: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StartCores {
    /// Warp 0, thread 0 of every core (Vortex's convention).
    AllCores,
    /// Warp 0, thread 0 of core 0 only.
    FirstCore,
}

impl Default for GpuConfig {
    fn default() -> Self {
        GpuConfig {
            clusters: 1,
            cores_per_cluster: 1,
            cores_per_socket: 1,
            arbiter: Arbiter::CoreOrder,
            warps_per_core: 4,
            threads_per_warp: 4,
        }
    }
}

impl Default for LocalMemConfig {
    fn default() -> Self {
        LocalMemConfig {
            base: 0xFF00_0000,
            size: 16 * 1024,
            banks: 0,
        }
    }
}

impl Default for CoreConfig {
    fn default() -> Self {
        CoreConfig {
            issue_slices: 0,
            scheduler: Scheduler::Gto,
            ibuffer: 4,
            fetch_ahead: false,
            fetch_latency: 2,
            decode_latency: 2,
            dispatch_latency: 5,
            writeback_latency: 3,
            resume_latency: 2,
            unit_queue: 2,
            lsu_pending: 0,
            register_banks: 4,
            operand_collectors: 1,
            slice_dispatch: false,
            latency: LatencyConfig::default(),
            lanes: LanesConfig::default(),
        }
    }
}

impl GpuConfig {
    /// `n` lanes (units, banks), or one per thread of a warp when `n` is 0.
    pub fn per_thread_if_zero(&self, n: u32) -> u32 {
        if n == 0 {
            self.threads_per_warp
        } else {
            n
        }
    }
}

impl CoreConfig {
    /// Issue slices of a core of `warps` warps.
    pub fn slices(&self, warps: u32) -> u32 {
        if self.issue_slices == 0 {
            warps.div_ceil(16)
        } else {
            self.issue_slices.min(warps)
        }
    }

    /// Operand collectors per issue slice of a core of `warps` warps (Vortex:
    /// `VX_CFG_NUM_OPCS` = ceil(warps / (4 x issue width))).
    pub fn collectors(&self, warps: u32) -> u32 {
        if self.operand_collectors == 0 {
            warps.div_ceil(4 * self.slices(warps))
        } else {
            self.operand_collectors
        }
    }

    /// Cycles from issue to the functional unit in a core of `warps` warps: the dispatch
    /// latency, and with several operand collectors the route to the warp's collector and
    /// the arbiter over their outputs, a cycle each (SimX `Operands::on_tick` and
    /// `rsp_arb_`, present when `VX_CFG_NUM_OPCS` >= 2).
    pub fn issue_to_unit(&self, warps: u32) -> u32 {
        let routed = if self.collectors(warps) > 1 { 2 } else { 0 };
        self.dispatch_latency + routed
    }
}

/// Vortex SimX v3's latencies.
impl Default for LatencyConfig {
    fn default() -> Self {
        LatencyConfig {
            alu: 2,
            branch: 2,
            mul: 2,
            div: 34,
            fpu_fma: 10,
            fpu_div: 19,
            fpu_cvt: 7,
            fpu_misc: 4,
            sfu: 4,
            lsu: 2,
            local_mem: 2,
        }
    }
}

impl Default for IoConfig {
    fn default() -> Self {
        IoConfig {
            console: 0x8340,
            exit: 0x8348,
            null_guard: 0x1000,
        }
    }
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            start: StartCores::AllCores,
            max_cycles: 1_000_000_000,
        }
    }
}

/// A configuration that cannot be used, with the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// Parse a TOML document (`origin` names it in errors, with the line of the key) and
    /// validate it.
    pub fn from_toml(text: &str, origin: &str) -> Result<Config, ConfigError> {
        // Bounded before it is parsed: parsing takes some 60 times the text.
        if text.len() as u64 > limits::CONFIG_BYTES {
            return Err(ConfigError(format!(
                "{origin}: {} bytes, more than a configuration may have ({}, \
                 limits::CONFIG_BYTES)",
                text.len(),
                limits::CONFIG_BYTES
            )));
        }
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| ConfigError(format!("{origin}: {e}")))?;
        let mut given = Vec::new();
        collect_paths(&table, "", false, &mut given);
        let mut config = Config::from_table(table, &Origin::File { name: origin, text })?;
        config.given = given.into_iter().collect();
        Ok(config)
    }

    /// Whether the document or an override stated the key `path` (`weaver.mode`), rather
    /// than leaving it at its default.
    pub fn states(&self, path: &str) -> bool {
        self.given.contains(path)
    }

    /// Apply `key.path=value` overrides (values in TOML syntax; a bare word is a string).
    pub fn with_overrides(&self, overrides: &[String]) -> Result<Config, ConfigError> {
        self.with_overrides_from("--set", overrides)
    }

    /// [`Config::with_overrides`], errors naming the option the items came from (`flag`:
    /// `--set`, `--vary`).
    pub fn with_overrides_from(
        &self,
        flag: &str,
        overrides: &[String],
    ) -> Result<Config, ConfigError> {
        let mut table = toml::Table::try_from(self).expect("a Config always serializes");
        let mut items = Vec::new();
        for item in overrides {
            let (path, raw) = item
                .split_once('=')
                .ok_or_else(|| ConfigError(format!("{flag} {item}: expected key.path=value")))?;
            parse_override_value(raw.trim())
                .and_then(|value| set_path(&mut table, path.trim(), value))
                .map_err(|e| {
                    let item = item.replace('\n', "\\n").replace('\r', "\\r");
                    ConfigError(format!("{flag} {item}: {e}"))
                })?;
            items.push((path.trim().to_string(), item.as_str()));
        }
        let mut given = self.given.clone();
        given.extend(items.iter().map(|(path, _)| path.clone()));
        let mut config = Config::from_table(table, &Origin::Overrides { flag, items })?;
        config.given = given;
        Ok(config)
    }

    fn from_table(table: toml::Table, origin: &Origin) -> Result<Config, ConfigError> {
        check_known_keys(&table)
            .map_err(|(key, e)| ConfigError(format!("{}{e}", origin.prefix(Some(&key)))))?;
        // A table that gives some keys of a level takes the others from that level's
        // defaults (an L2's are not an L1's): lay the document over the whole default
        // configuration rather than letting each table fall back to its type's default.
        let mut full = toml::Table::try_from(Config::default()).expect("a Config serializes");
        overlay(&mut full, table);
        let config = typed(full)
            .map_err(|(key, e)| ConfigError(format!("{}{e}", origin.prefix(key.as_deref()))))?;
        let problems = config.problems();
        if problems.is_empty() {
            Ok(config)
        } else {
            Err(origin.locate(&problems))
        }
    }

    /// Check the values against each other and against their limits ([`limits`]).
    pub fn validate(&self) -> Result<(), ConfigError> {
        let problems = self.problems();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ConfigError(problems.join("; ")))
        }
    }

    /// Hardware threads of the whole machine (mhartid values).
    pub fn hardware_threads(&self) -> u64 {
        u64::from(self.cores())
            * u64::from(self.gpu.warps_per_core)
            * u64::from(self.gpu.threads_per_warp)
    }

    /// The stacks' region `[bottom, top)`; `bottom` is negative when they would wrap.
    pub fn stack_region(&self) -> (i64, u64) {
        let top = u64::from(self.stack.top);
        let bytes = self.hardware_threads() * u64::from(self.stack.size);
        (top as i64 - bytes as i64, top)
    }

    /// The memory configuration of a machine whose cores have the Weaver unit: its tables
    /// take `weaver.l1d_reduction_percent` of the L1 data cache.
    pub fn memory_with_weaver(&self) -> MemConfig {
        let mut m = self.memory.clone();
        let kept = 100 - u64::from(self.weaver.l1d_reduction_percent.min(100));
        m.l1d.size = (u64::from(m.l1d.size) * kept / 100) as u32;
        m
    }

    /// Whether the machine can hold the Weaver unit: the reduced L1 data cache must be a
    /// valid cache, and the tables (and EGHW's edge buffers) must fit in local memory.
    pub fn weaver_fits(&self) -> Result<(), String> {
        self.memory_with_weaver()
            .validate("memory (with weaver.l1d_reduction_percent applied)")?;
        self.weaver_tables_fit()
    }

    /// Bytes at the top of each core's local memory that EGHW's edge buffers take: one
    /// (neighbour, weight) pair per thread.
    pub fn eghw_buffer_bytes(&self) -> u32 {
        self.gpu.warps_per_core * self.gpu.threads_per_warp * 8
    }

    /// Total number of cores.
    pub fn cores(&self) -> u32 {
        self.gpu.clusters * self.gpu.cores_per_cluster
    }

    /// The resolved configuration as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a Config always serializes")
    }

    /// A stable hash of the resolved configuration (FNV-1a over its TOML), for reports.
    pub fn hash(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in self.to_toml().bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        format!("{h:016x}")
    }
}
