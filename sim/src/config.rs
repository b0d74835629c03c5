//! The simulated machine's configuration: TOML through serde, every key documented in
//! docs/CONFIG.md. Unknown keys are errors naming the key's full path and the nearest
//! valid key; values are validated before a run starts.

use serde::{Deserialize, Serialize};

use crate::limits;
use crate::mem::hierarchy::MemConfig;

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
    pub warps_per_core: u32,
    pub threads_per_warp: u32,
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
    /// Cycles from an instruction-cache hit to the instruction buffer (decode).
    pub decode_latency: u32,
    /// Register-file banks (register `r` is in bank `r % banks`); each extra source read
    /// from an already-used bank costs a cycle.
    pub register_banks: u32,
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
    /// EGHW: issue each stage's reads (offsets, then edges) together, coalesced into
    /// lines, instead of one word at a time as the dissertation's unit (section 4.6.8).
    pub eghw_pipelined: bool,
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

impl Default for WeaverConfig {
    fn default() -> Self {
        WeaverConfig {
            enabled: WeaverPresence::Auto,
            mode: WeaverMode::Weaver,
            entries: 512,
            table_latency: 10,
            entry_cycles: 1,
            l1d_reduction_percent: 50,
            eghw_pipelined: false,
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
            decode_latency: 1,
            register_banks: 4,
            latency: LatencyConfig::default(),
            lanes: LanesConfig::default(),
        }
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

/// Where a configuration came from, so that each error names the file and line of the
/// key, or the `--set`/`--vary` item that set it.
enum Origin<'a> {
    File {
        name: &'a str,
        text: &'a str,
    },
    Overrides {
        flag: &'a str,
        /// (key path, item) in the order given.
        items: Vec<(String, &'a str)>,
    },
}

impl Origin<'_> {
    /// `name: line N: ` or `--set item: ` for a message about `key`.
    fn prefix(&self, key: Option<&str>) -> String {
        match self {
            Origin::File { name, text } => match key.and_then(|k| key_line(text, k)) {
                Some(line) => format!("{name}: line {line}: "),
                None => format!("{name}: "),
            },
            Origin::Overrides { flag, items } => {
                let related = |path: &str, k: &str| {
                    path == k
                        || k.starts_with(&format!("{path}."))
                        || path.starts_with(&format!("{k}."))
                };
                match key.and_then(|k| items.iter().rev().find(|(p, _)| related(p, k))) {
                    Some((_, item)) => format!("{flag} {item}: "),
                    None => format!("{flag}: "),
                }
            }
        }
    }

    /// Each problem prefixed with where its first named key was given, joined by "; ".
    fn locate(&self, problems: &[String]) -> ConfigError {
        let known = known_paths(true);
        let located: Vec<String> = problems
            .iter()
            .map(|p| format!("{}{p}", self.prefix(first_key(p, &known))))
            .collect();
        ConfigError(located.join("; "))
    }
}

/// The 1-based line of `path` (`a.b.c`) in a TOML document, when it is given there.
fn key_line(text: &str, path: &str) -> Option<usize> {
    let doc = toml::de::DeTable::parse(text).ok()?;
    let mut table = doc.get_ref();
    let mut span = None;
    let mut parts = path.split('.').peekable();
    while let Some(part) = parts.next() {
        let (key, value) = table.get_key_value(part)?;
        span = Some(key.span());
        if parts.peek().is_some() {
            table = value.get_ref().as_table()?;
        }
    }
    Some(text[..span?.start].matches('\n').count() + 1)
}

/// The first configuration key (in `known`) a message names.
fn first_key<'a>(msg: &str, known: &'a [String]) -> Option<&'a str> {
    msg.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .map(|w| w.trim_end_matches('.'))
        .find_map(|w| known.iter().find(|k| *k == w))
        .map(String::as_str)
}

impl Config {
    /// Parse a TOML document (`origin` names it in errors, with the line of the key) and
    /// validate it.
    pub fn from_toml(text: &str, origin: &str) -> Result<Config, ConfigError> {
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| ConfigError(format!("{origin}: {e}")))?;
        Config::from_table(table, &Origin::File { name: origin, text })
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
            let value = parse_override_value(raw.trim());
            set_path(&mut table, path.trim(), value)
                .map_err(|e| ConfigError(format!("{flag} {item}: {e}")))?;
            items.push((path.trim().to_string(), item.as_str()));
        }
        Config::from_table(table, &Origin::Overrides { flag, items })
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

    /// Every problem, each naming its key, the value and the limit.
    fn problems(&self) -> Vec<String> {
        use limits as max;
        let (g, c, l, lanes) = (&self.gpu, &self.core, &self.core.latency, &self.core.lanes);
        let (lm, wv) = (&self.local_mem, &self.weaver);
        let u = u64::from;
        let (latency, threads) = (u(max::LATENCY), u(g.threads_per_warp));
        // (key, value, least, most); lanes: 0 = as many as gpu.threads_per_warp.
        let ranges = [
            ("gpu.clusters", u(g.clusters), 1, u(max::CLUSTERS)),
            (
                "gpu.cores_per_cluster",
                u(g.cores_per_cluster),
                1,
                u(max::CORES_PER_CLUSTER),
            ),
            (
                "gpu.cores_per_socket",
                u(g.cores_per_socket),
                1,
                u(g.cores_per_cluster),
            ),
            ("gpu.warps_per_core", u(g.warps_per_core), 1, u(max::WARPS)),
            (
                "gpu.threads_per_warp",
                u(g.threads_per_warp),
                1,
                u(max::THREADS),
            ),
            (
                "core.issue_slices",
                u(c.issue_slices),
                0,
                u(g.warps_per_core),
            ),
            ("core.ibuffer", u(c.ibuffer), 1, u(max::IBUFFER)),
            (
                "core.register_banks",
                u(c.register_banks),
                1,
                u(max::REGISTER_BANKS),
            ),
            ("core.decode_latency", u(c.decode_latency), 0, latency),
            ("core.latency.alu", u(l.alu), 1, latency),
            ("core.latency.branch", u(l.branch), 1, latency),
            ("core.latency.mul", u(l.mul), 1, latency),
            ("core.latency.div", u(l.div), 1, latency),
            ("core.latency.fpu_fma", u(l.fpu_fma), 1, latency),
            ("core.latency.fpu_div", u(l.fpu_div), 1, latency),
            ("core.latency.fpu_cvt", u(l.fpu_cvt), 1, latency),
            ("core.latency.fpu_misc", u(l.fpu_misc), 1, latency),
            ("core.latency.sfu", u(l.sfu), 1, latency),
            ("core.latency.lsu", u(l.lsu), 1, latency),
            ("core.latency.local_mem", u(l.local_mem), 1, latency),
            ("core.lanes.alu", u(lanes.alu), 0, threads),
            ("core.lanes.fpu", u(lanes.fpu), 0, threads),
            ("core.lanes.lsu", u(lanes.lsu), 0, threads),
            ("core.lanes.sfu", u(lanes.sfu), 0, threads),
            ("local_mem.size", u(lm.size), 4, u(max::LOCAL_MEM)),
            ("local_mem.banks", u(lm.banks), 0, u(max::LOCAL_BANKS)),
            ("weaver.entries", u(wv.entries), 1, u(u32::MAX)),
            ("weaver.table_latency", u(wv.table_latency), 1, latency),
            ("weaver.entry_cycles", u(wv.entry_cycles), 1, latency),
            (
                "weaver.l1d_reduction_percent",
                u(wv.l1d_reduction_percent),
                0,
                99,
            ),
            ("run.max_cycles", self.run.max_cycles, 1, u64::MAX),
        ];
        let mut problems: Vec<String> = (ranges.iter())
            .filter(|(_, value, lo, hi)| !(lo..=hi).contains(&value))
            .map(|(key, value, lo, hi)| format!("{key} = {value} must be {lo}..={hi}"))
            .collect();
        if !problems.is_empty() {
            // The cross-checks below assume every value is within its limits.
            return problems;
        }
        if g.clusters * g.cores_per_cluster > max::CORES {
            problems.push(format!(
                "gpu.clusters x gpu.cores_per_cluster = {} cores exceeds {}",
                u64::from(g.clusters) * u64::from(g.cores_per_cluster),
                max::CORES
            ));
        }
        if !g.cores_per_cluster.is_multiple_of(g.cores_per_socket) {
            problems.push(format!(
                "gpu.cores_per_socket = {} must divide gpu.cores_per_cluster = {} (a socket \
                 lies within a cluster)",
                g.cores_per_socket, g.cores_per_cluster
            ));
        }
        if let Err(e) = self.memory.validate("memory") {
            problems.push(e);
        } else if let Some(e) = self.footprint_problem() {
            problems.push(e);
        }
        if !lm.size.is_multiple_of(4) || !lm.base.is_multiple_of(4) {
            problems.push(format!(
                "local_mem.base = {:#x} and local_mem.size = {} must be multiples of 4",
                lm.base, lm.size
            ));
        }
        let local_end = u64::from(lm.base) + u64::from(lm.size);
        if local_end > 1 << 32 {
            problems.push(format!(
                "local_mem.base + local_mem.size = {local_end:#x} exceeds the 32-bit address space"
            ));
        }
        let io = &self.io;
        for (name, addr) in [("io.console", io.console), ("io.exit", io.exit)] {
            if addr % 4 != 0 {
                problems.push(format!("{name} = {addr:#x} must be word aligned"));
            }
            if addr >= lm.base && u64::from(addr) < local_end {
                problems.push(format!("{name} = {addr:#x} lies inside local memory"));
            }
        }
        if io.console == io.exit {
            problems.push(format!(
                "io.console and io.exit must differ (both {:#x})",
                io.exit
            ));
        }
        problems.extend(self.stack_problems());
        if wv.enabled == WeaverPresence::On {
            if let Err(e) = self.weaver_fits() {
                problems.push(e);
            }
        } else if wv.enabled == WeaverPresence::Auto {
            // The unit may be present: its tables must fit where they live.
            if let Err(e) = self.weaver_tables_fit() {
                problems.push(e);
            }
        }
        let map = &self.map;
        if map.regions.len() > max::MAP_REGIONS {
            problems.push(format!(
                "map.regions has {} regions, at most {}",
                map.regions.len(),
                max::MAP_REGIONS
            ));
        }
        for (i, r) in map.regions.iter().enumerate() {
            if r.size == 0 || u64::from(r.base) + u64::from(r.size) > 1 << 32 {
                problems.push(format!(
                    "map.regions[{i}] = {{ base = {:#x}, size = {:#x} }} must be non-empty and end within the 32-bit address space",
                    r.base, r.size
                ));
            }
        }
        problems
    }

    /// The host memory the machine's structures need must be within
    /// [`limits::MACHINE_BYTES`] (the counts are each within their limits).
    fn footprint_problem(&self) -> Option<String> {
        const TAG_BYTES: u64 = 16;
        // x and f registers, 4 bytes each; an instruction-buffer entry, per warp.
        const THREAD_BYTES: u64 = 64 * 4;
        const IBUFFER_ENTRY_BYTES: u64 = 64;
        let m = &self.memory;
        let tags = |c: &crate::mem::cache::CacheConfig| TAG_BYTES * u64::from(c.size / c.line);
        let cores = u64::from(self.cores());
        let clusters = u64::from(self.gpu.clusters);
        let warps = u64::from(self.gpu.warps_per_core);
        let per_core = u64::from(self.local_mem.size)
            + tags(&m.l1i)
            + tags(&m.l1d)
            + warps * u64::from(self.gpu.threads_per_warp) * THREAD_BYTES
            + warps * u64::from(self.core.ibuffer) * IBUFFER_ENTRY_BYTES;
        let bytes = cores * per_core
            + if m.l2_enabled {
                clusters * tags(&m.l2)
            } else {
                0
            }
            + if m.l3_enabled { tags(&m.l3) } else { 0 };
        (bytes > limits::MACHINE_BYTES).then(|| {
            format!(
                "memory.l1d.size, memory.l1i.size and local_mem.size x {cores} cores, memory.l2.size x \
                 {clusters} clusters and memory.l3.size need {} MiB of host memory (16 bytes of tags \
                 per cache line, local memories, registers), more than {} MiB",
                bytes >> 20,
                limits::MACHINE_BYTES >> 20
            )
        })
    }

    /// The stacks (one of `stack.size` bytes per hardware thread below `stack.top`) must fit
    /// in the address space above the null guard and overlap neither local memory nor the
    /// I/O words. Overlap with the program image is checked when it is loaded.
    fn stack_problems(&self) -> Vec<String> {
        let st = &self.stack;
        if !st.size.is_power_of_two() || st.size < 4 || !st.top.is_multiple_of(st.size) {
            return vec![format!(
                "stack.size = {} must be a power of two of at least 4 dividing stack.top = {:#x}",
                st.size, st.top
            )];
        }
        let (bottom, top) = self.stack_region();
        let mut problems = Vec::new();
        let threads = self.hardware_threads();
        if bottom < i64::from(self.io.null_guard) {
            problems.push(format!(
                "stack.top = {:#x}: the stacks of {threads} hardware threads x stack.size = {} bytes \
                 reach below {} (they must fit above io.null_guard = {:#x})",
                st.top,
                st.size,
                if bottom < 0 { "address 0".to_string() } else { format!("{bottom:#x}") },
                self.io.null_guard
            ));
            return problems;
        }
        let lm = &self.local_mem;
        let overlaps = |lo: u64, hi: u64| (bottom as u64) < hi && lo < top;
        if overlaps(lm.base.into(), u64::from(lm.base) + u64::from(lm.size)) {
            problems.push(format!(
                "stack.top = {:#x}: the stacks [{bottom:#x}, {top:#x}) overlap local memory at local_mem.base = {:#x}",
                st.top, lm.base
            ));
        }
        for (name, addr) in [("io.console", self.io.console), ("io.exit", self.io.exit)] {
            if overlaps(addr.into(), u64::from(addr) + 4) {
                problems.push(format!(
                    "stack.top = {:#x}: the stacks [{bottom:#x}, {top:#x}) contain {name} = {addr:#x}",
                    st.top
                ));
            }
        }
        problems
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

    /// The ST and DT (and EGHW's edge buffers) live in each core's local memory.
    fn weaver_tables_fit(&self) -> Result<(), String> {
        let wv = &self.weaver;
        let eghw = wv.mode == WeaverMode::Eghw;
        let entry = if eghw {
            limits::EGHW_ST_ENTRY_BYTES
        } else {
            limits::ST_ENTRY_BYTES
        };
        let lanes = u64::from(self.gpu.warps_per_core) * u64::from(self.gpu.threads_per_warp);
        let tables =
            u64::from(wv.entries) * u64::from(entry) + lanes * u64::from(limits::DT_ENTRY_BYTES);
        let buffers = if eghw {
            u64::from(self.eghw_buffer_bytes())
        } else {
            0
        };
        if tables + buffers > u64::from(self.local_mem.size) {
            return Err(format!(
                "weaver.entries = {} needs {} bytes of local memory for the tables ({entry} per ST entry, \
                 {} per DT entry of each of {lanes} threads){}; local_mem.size is {}",
                wv.entries,
                tables + buffers,
                limits::DT_ENTRY_BYTES,
                if eghw {
                    format!(" and {buffers} for weaver.mode = eghw's edge buffers")
                } else {
                    String::new()
                },
                self.local_mem.size
            ));
        }
        Ok(())
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

/// Lay `top` over `base`: its values replace `base`'s, its tables merge into `base`'s.
fn overlay(base: &mut toml::Table, top: toml::Table) {
    for (key, value) in top {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(below)), toml::Value::Table(above)) => overlay(below, above),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

/// The typed configuration of a table whose keys are all known. A value of the wrong type
/// or out of its type's range is reported with its key: the table's leaves are tried one
/// at a time on top of the defaults, since serde's error does not say which it was.
fn typed(table: toml::Table) -> Result<Config, (Option<String>, String)> {
    let err = match toml::Value::Table(table.clone()).try_into::<Config>() {
        Ok(config) => return Ok(config),
        Err(e) => e,
    };
    let defaults = toml::Table::try_from(Config::default()).expect("a Config always serializes");
    let mut leaves = Vec::new();
    collect_leaves(&table, "", &mut leaves);
    for (path, value) in leaves {
        let mut t = defaults.clone();
        let shown = describe(&value);
        if set_path(&mut t, &path, value).is_err() {
            continue;
        }
        if let Err(e) = toml::Value::Table(t).try_into::<Config>() {
            return Err((
                Some(path.clone()),
                format!("`{path}` = {shown}: {}", plain(e.message())),
            ));
        }
    }
    Err((None, plain(err.message())))
}

/// A value as TOML, shortened for a message.
fn describe(value: &toml::Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text,
    }
}

/// serde's type names in words.
fn plain(msg: &str) -> String {
    msg.replace("expected u32", "expected an integer in 0..=4294967295")
        .replace("expected u64", "expected a non-negative integer")
        .replace("expected a boolean", "expected true or false")
}

fn parse_override_value(raw: &str) -> toml::Value {
    // Parse as a TOML value; a bare word that is not valid TOML is taken as a string.
    format!("v = {raw}")
        .parse::<toml::Table>()
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(raw.to_string()))
}

fn set_path(table: &mut toml::Table, path: &str, value: toml::Value) -> Result<(), String> {
    let mut parts = path.split('.').peekable();
    let mut current = table;
    while let Some(part) = parts.next() {
        if part.is_empty() {
            break;
        }
        if parts.peek().is_none() {
            current.insert(part.to_string(), value);
            return Ok(());
        }
        current = match current
            .entry(part.to_string())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()))
        {
            toml::Value::Table(t) => t,
            _ => return Err(format!("`{part}` is a value, not a section")),
        };
    }
    Err("empty key".into())
}

/// Every key path of the schema: values, and with `sections` the sections too.
fn known_paths(sections: bool) -> Vec<String> {
    let known = toml::Table::try_from(Config::default()).expect("a Config always serializes");
    let mut paths = Vec::new();
    collect_paths(&known, "", sections, &mut paths);
    paths
}

/// Reject keys that are not in the schema, naming the full path and the nearest valid key,
/// a section given a value, and a value given keys. `Err((path, message))`.
fn check_known_keys(table: &toml::Table) -> Result<(), (String, String)> {
    let known = known_paths(false);
    let mut given = Vec::new();
    collect_paths(table, "", false, &mut given);
    for path in given {
        if known.contains(&path) {
            continue;
        }
        let below = format!("{path}.");
        let keys: Vec<&str> = known
            .iter()
            .filter(|k| k.starts_with(&below))
            .map(String::as_str)
            .collect();
        if !keys.is_empty() {
            return Err((
                path.clone(),
                format!(
                    "`{path}` is a section, not a value; set its keys: {}",
                    keys.join(", ")
                ),
            ));
        }
        if let Some(value) = known.iter().find(|k| path.starts_with(&format!("{k}."))) {
            return Err((
                path.clone(),
                format!("`{value}` is a value, not a section (given `{path}`)"),
            ));
        }
        let nearest = known
            .iter()
            .min_by_key(|k| strsim::levenshtein(k, &path))
            .cloned()
            .unwrap_or_default();
        return Err((
            path.clone(),
            format!("unknown key `{path}` (did you mean `{nearest}`?)"),
        ));
    }
    Ok(())
}

/// Key paths below `prefix`: the values, and with `sections` the sections too.
fn collect_paths(table: &toml::Table, prefix: &str, sections: bool, out: &mut Vec<String>) {
    walk(table, prefix, &mut |path, value| {
        if sections || !value.is_table() {
            out.push(path);
        }
    });
}

/// The values of a table with their key paths.
fn collect_leaves(table: &toml::Table, prefix: &str, out: &mut Vec<(String, toml::Value)>) {
    walk(table, prefix, &mut |path, value| {
        if !value.is_table() {
            out.push((path, value.clone()));
        }
    });
}

/// Every entry below `prefix` with its key path, a section before its keys.
fn walk(table: &toml::Table, prefix: &str, visit: &mut dyn FnMut(String, &toml::Value)) {
    for (key, value) in table {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        visit(path.clone(), value);
        if let toml::Value::Table(t) = value {
            walk(t, &path, visit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_validate() {
        assert_eq!(Config::default().validate(), Ok(()));
    }

    #[test]
    fn unknown_key_names_path_and_nearest() {
        let err = Config::from_toml("[gpu]\nwarps_per_cor = 8\n", "x.toml").unwrap_err();
        assert_eq!(
            err.0,
            "x.toml: line 2: unknown key `gpu.warps_per_cor` (did you mean `gpu.warps_per_core`?)"
        );
    }

    #[test]
    fn bad_value_is_reported() {
        let err = Config::from_toml("[gpu]\nthreads_per_warp = 64\n", "x.toml").unwrap_err();
        assert!(
            err.0.contains("gpu.threads_per_warp = 64 must be 1..=32"),
            "{}",
            err.0
        );
        let err = Config::from_toml("[gpu]\nthreads_per_warp = \"many\"\n", "x.toml").unwrap_err();
        assert!(err.0.starts_with("x.toml: "), "{}", err.0);
    }

    #[test]
    fn overrides_apply_and_are_checked() {
        let c = Config::default()
            .with_overrides(&[
                "gpu.warps_per_core=32".into(),
                "run.start=first-core".into(),
            ])
            .unwrap();
        assert_eq!(c.gpu.warps_per_core, 32);
        assert_eq!(c.run.start, StartCores::FirstCore);
        let err = Config::default()
            .with_overrides(&["gpu.warp=3".into()])
            .unwrap_err();
        assert!(err.0.contains("unknown key `gpu.warp`"), "{}", err.0);
    }

    #[test]
    fn the_largest_machine_the_limits_allow_is_valid_and_its_caches_are_bounded_together() {
        let set = |items: &[&str]| {
            let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
            Config::default().with_overrides(&items)
        };
        let largest = [
            "gpu.clusters=8",
            "gpu.cores_per_cluster=32",
            "gpu.warps_per_core=32",
            "gpu.threads_per_warp=32",
            "local_mem.size=1048576",
            "core.ibuffer=64",
        ];
        assert!(set(&largest).is_ok());
        // Each cache within its own limit, but 4-byte lines make 16 bytes of tags per 4.
        let err = set(&[
            "memory.l1d.size=268435456",
            "memory.l1d.line=4",
            "memory.l1i.line=4",
            "memory.l2.line=4",
            "memory.l3.line=4",
            "memory.dram.line_bytes=4",
            "memory.dram.bus_bytes=1",
            "memory.dram.burst_length=4",
        ])
        .unwrap_err();
        assert!(
            err.0
                .starts_with("--set memory.l1d.size=268435456: memory.l1d.size, ")
                && err.0.contains("need 1028 MiB of host memory")
                && err.0.contains("more than 1024 MiB"),
            "{}",
            err.0
        );
    }

    #[test]
    fn problems_in_a_file_name_their_lines() {
        let text = "[gpu]\nclusters = 2\n\n[core]\nibuffer = 0\nregister_banks = 33\n";
        let err = Config::from_toml(text, "m.toml").unwrap_err();
        assert_eq!(
            err.0,
            "m.toml: line 5: core.ibuffer = 0 must be 1..=64; \
             m.toml: line 6: core.register_banks = 33 must be 1..=32"
        );
        // A cross-check names the line of the first key it mentions.
        let text = "[local_mem]\nsize = 4096\n[weaver]\nentries = 1000\n";
        let err = Config::from_toml(text, "m.toml").unwrap_err();
        assert!(
            err.0
                .starts_with("m.toml: line 4: weaver.entries = 1000 needs"),
            "{}",
            err.0
        );
    }

    #[test]
    fn hash_is_stable_and_sensitive() {
        let a = Config::default();
        let mut b = Config::default();
        assert_eq!(a.hash(), b.hash());
        b.gpu.warps_per_core = 8;
        assert_ne!(a.hash(), b.hash());
    }
}
