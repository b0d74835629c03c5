//! The simulated machine's configuration: TOML through serde, every key documented in
//! docs/CONFIG.md. Unknown keys are errors naming the key's full path and the nearest
//! valid key; values are validated before a run starts.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

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

impl Config {
    /// Parse a TOML document (`origin` names it in errors) and validate it.
    pub fn from_toml(text: &str, origin: &str) -> Result<Config, ConfigError> {
        let mut value: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| ConfigError(format!("{origin}: {e}")))?;
        check_known_keys(&value, origin)?;
        // A table that gives some keys of a level takes the others from that level's
        // defaults (an L2's are not an L1's): lay the document over the whole default
        // configuration rather than letting each table fall back to its type's default.
        let mut config = toml::Table::try_from(Config::default()).expect("a Config serializes");
        overlay(&mut config, std::mem::take(&mut value));
        // Every key is known; typed deserialization now only fails on a value.
        let config: Config = toml::Value::Table(config)
            .try_into()
            .map_err(|e: toml::de::Error| ConfigError(format!("{origin}: {}", e.message())))?;
        config
            .validate()
            .map_err(|e| ConfigError(format!("{origin}: {e}")))?;
        Ok(config)
    }

    /// Apply `key.path=value` overrides (values in TOML syntax; a bare word is a string).
    pub fn with_overrides(&self, overrides: &[String]) -> Result<Config, ConfigError> {
        let mut table = toml::Table::try_from(self).expect("a Config always serializes");
        for item in overrides {
            let (path, raw) = item
                .split_once('=')
                .ok_or_else(|| ConfigError(format!("--set {item}: expected key.path=value")))?;
            let value = parse_override_value(raw.trim());
            set_path(&mut table, path.trim(), value, item)?;
        }
        Config::from_toml(
            &toml::to_string(&table).expect("a table serializes"),
            "--set",
        )
    }

    /// Check the values for consistency.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let g = &self.gpu;
        let mut problems = String::new();
        let mut problem = |s: String| {
            let _ = write!(
                problems,
                "{}{s}",
                if problems.is_empty() { "" } else { "; " }
            );
        };
        if g.clusters == 0 || g.cores_per_cluster == 0 {
            problem("gpu.clusters and gpu.cores_per_cluster must be at least 1".into());
        }
        if g.cores_per_socket == 0
            || !g
                .cores_per_cluster
                .is_multiple_of(g.cores_per_socket.max(1))
        {
            problem(format!(
                "gpu.cores_per_socket = {} must divide gpu.cores_per_cluster = {} (a socket \
                 lies within a cluster)",
                g.cores_per_socket, g.cores_per_cluster
            ));
        }
        if !(1..=32).contains(&g.warps_per_core) {
            problem(format!(
                "gpu.warps_per_core = {} must be 1..=32",
                g.warps_per_core
            ));
        }
        if !(1..=32).contains(&g.threads_per_warp) {
            problem(format!(
                "gpu.threads_per_warp = {} must be 1..=32",
                g.threads_per_warp
            ));
        }
        let c = &self.core;
        if c.ibuffer == 0 {
            problem("core.ibuffer must be at least 1".into());
        }
        if c.register_banks == 0 {
            problem("core.register_banks must be at least 1".into());
        }
        let l = &c.latency;
        for (name, v) in [
            ("alu", l.alu),
            ("branch", l.branch),
            ("mul", l.mul),
            ("div", l.div),
            ("fpu_fma", l.fpu_fma),
            ("fpu_div", l.fpu_div),
            ("fpu_cvt", l.fpu_cvt),
            ("fpu_misc", l.fpu_misc),
            ("sfu", l.sfu),
            ("lsu", l.lsu),
            ("local_mem", l.local_mem),
        ] {
            if v == 0 {
                problem(format!("core.latency.{name} must be positive"));
            }
        }
        let lanes = &c.lanes;
        for (name, v) in [
            ("alu", lanes.alu),
            ("fpu", lanes.fpu),
            ("lsu", lanes.lsu),
            ("sfu", lanes.sfu),
        ] {
            if v > g.threads_per_warp {
                problem(format!(
                    "core.lanes.{name} = {v} exceeds gpu.threads_per_warp = {}",
                    g.threads_per_warp
                ));
            }
        }
        if self.local_mem.banks > 64 {
            problem("local_mem.banks must be at most 64".into());
        }
        if let Err(e) = self.memory.validate("memory") {
            problem(e);
        }
        let lm = &self.local_mem;
        if !lm.size.is_multiple_of(4) || !lm.base.is_multiple_of(4) {
            problem("local_mem.base and local_mem.size must be multiples of 4".into());
        }
        if u64::from(lm.base) + u64::from(lm.size) > 1 << 32 {
            problem("local_mem.base + local_mem.size exceeds the 32-bit address space".into());
        }
        let io = &self.io;
        for (name, addr) in [("io.console", io.console), ("io.exit", io.exit)] {
            if addr % 4 != 0 {
                problem(format!("{name} = {addr:#x} must be word aligned"));
            }
            if addr >= lm.base && u64::from(addr) < u64::from(lm.base) + u64::from(lm.size) {
                problem(format!("{name} = {addr:#x} lies inside local memory"));
            }
        }
        if io.console == io.exit {
            problem("io.console and io.exit must differ".into());
        }
        let st = &self.stack;
        if !st.size.is_power_of_two() || st.size < 4 || !st.top.is_multiple_of(st.size) {
            problem("stack.size must be a power of two of at least 4 dividing stack.top".into());
        }
        if self.run.max_cycles == 0 {
            problem("run.max_cycles must be positive".into());
        }
        let wv = &self.weaver;
        if wv.entries == 0 || wv.table_latency == 0 || wv.entry_cycles == 0 {
            problem(
                "weaver.entries, weaver.table_latency and weaver.entry_cycles must be positive"
                    .into(),
            );
        }
        if wv.l1d_reduction_percent >= 100 {
            problem("weaver.l1d_reduction_percent must be below 100".into());
        } else if wv.enabled == WeaverPresence::On {
            if let Err(e) = self.weaver_fits() {
                problem(e);
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ConfigError(problems))
        }
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
    /// valid cache, and EGHW's edge buffers must fit in local memory.
    pub fn weaver_fits(&self) -> Result<(), String> {
        self.memory_with_weaver()
            .validate("memory (with weaver.l1d_reduction_percent applied)")?;
        let need = self.eghw_buffer_bytes();
        if self.weaver.mode == WeaverMode::Eghw && need > self.local_mem.size {
            return Err(format!(
                "weaver.mode = eghw needs {need} bytes of local memory for its edge buffers; \
                 local_mem.size is {}",
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

fn parse_override_value(raw: &str) -> toml::Value {
    // Parse as a TOML value; a bare word that is not valid TOML is taken as a string.
    format!("v = {raw}")
        .parse::<toml::Table>()
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(raw.to_string()))
}

fn set_path(
    table: &mut toml::Table,
    path: &str,
    value: toml::Value,
    item: &str,
) -> Result<(), ConfigError> {
    let mut parts = path.split('.').peekable();
    let mut current = table;
    while let Some(part) = parts.next() {
        if parts.peek().is_none() {
            current.insert(part.to_string(), value);
            return Ok(());
        }
        current = match current
            .entry(part.to_string())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()))
        {
            toml::Value::Table(t) => t,
            _ => {
                return Err(ConfigError(format!(
                    "--set {item}: {part} is not a section"
                )))
            }
        };
    }
    Err(ConfigError(format!("--set {item}: empty key")))
}

/// Reject keys that are not in the schema, naming the full path and the nearest valid key.
fn check_known_keys(table: &toml::Table, origin: &str) -> Result<(), ConfigError> {
    let known = toml::Table::try_from(Config::default()).expect("a Config always serializes");
    let mut known_paths = Vec::new();
    collect_paths(&known, "", &mut known_paths);
    let mut given = Vec::new();
    collect_paths(table, "", &mut given);
    for path in given {
        if known_paths.contains(&path) {
            continue;
        }
        // A section given where a value is expected, or a key below a value, are type
        // errors reported by deserialization; only unknown leaves and sections land here.
        if known_paths
            .iter()
            .any(|k| k.starts_with(&format!("{path}.")))
        {
            continue;
        }
        let nearest = known_paths
            .iter()
            .min_by_key(|k| strsim::levenshtein(k, &path))
            .cloned()
            .unwrap_or_default();
        return Err(ConfigError(format!(
            "{origin}: unknown key `{path}` (did you mean `{nearest}`?)"
        )));
    }
    Ok(())
}

fn collect_paths(table: &toml::Table, prefix: &str, out: &mut Vec<String>) {
    for (key, value) in table {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match value {
            toml::Value::Table(t) => collect_paths(t, &path, out),
            _ => out.push(path),
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
            "x.toml: unknown key `gpu.warps_per_cor` (did you mean `gpu.warps_per_core`?)"
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
    fn hash_is_stable_and_sensitive() {
        let a = Config::default();
        let mut b = Config::default();
        assert_eq!(a.hash(), b.hash());
        b.gpu.warps_per_core = 8;
        assert_ne!(a.hash(), b.hash());
    }
}
