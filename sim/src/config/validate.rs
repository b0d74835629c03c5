//! Validation of a configuration: every count and size within its limit, then the
//! cross-checks (memory footprint, address map, stacks, the Weaver's tables).

use super::{Config, WeaverMode, WeaverPresence};
use crate::limits;

impl Config {
    /// Every problem, each naming its key, the value and the limit.
    /// Every count and size outside its limit: (key, value, least, most).
    fn range_problems(&self) -> Vec<String> {
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
            (
                "core.operand_collectors",
                u(c.operand_collectors),
                0,
                u(g.warps_per_core),
            ),
            ("core.fetch_latency", u(c.fetch_latency), 0, latency),
            ("core.decode_latency", u(c.decode_latency), 0, latency),
            ("core.dispatch_latency", u(c.dispatch_latency), 0, latency),
            ("core.writeback_latency", u(c.writeback_latency), 0, latency),
            ("core.resume_latency", u(c.resume_latency), 0, latency),
            ("core.unit_queue", u(c.unit_queue), 0, u(max::UNIT_QUEUE)),
            ("core.lsu_pending", u(c.lsu_pending), 0, u(max::LSU_PENDING)),
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
        (ranges.iter())
            .filter(|(_, value, lo, hi)| !(lo..=hi).contains(&value))
            .map(|(key, value, lo, hi)| format!("{key} = {value} must be {lo}..={hi}"))
            .collect()
    }

    pub(super) fn problems(&self) -> Vec<String> {
        use limits as max;
        let (g, lm, wv) = (&self.gpu, &self.local_mem, &self.weaver);
        let mut problems = self.range_problems();
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
            if addr < io.null_guard {
                problems.push(format!(
                    "{name} = {addr:#x} lies below io.null_guard = {:#x}: every store to it \
                     would be refused as a null pointer",
                    io.null_guard
                ));
            }
            if addr >= lm.base && u64::from(addr) < local_end {
                problems.push(format!("{name} = {addr:#x} lies inside local memory"));
            }
        }
        if lm.base < io.null_guard {
            problems.push(format!(
                "local_mem.base = {:#x} lies below io.null_guard = {:#x}: every access to local \
                 memory there would be refused as a null pointer",
                lm.base, io.null_guard
            ));
        }
        if io.console == io.exit {
            problems.push(format!(
                "io.console and io.exit must differ (both {:#x})",
                io.exit
            ));
        }
        problems.extend(self.stack_problems());
        // With the unit possibly present (auto: a program with Weaver instructions), its
        // reduced L1 data cache must be a cache and its tables must fit where they live.
        if wv.enabled != WeaverPresence::Off {
            if let Err(e) = self.weaver_fits() {
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
        let bytes = self.host_bytes();
        let (cores, clusters) = (self.cores(), self.gpu.clusters);
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

    /// The host memory the machine's structures take: every cache's tags (16 bytes a
    /// line), local memories, registers and instruction buffers.
    pub fn host_bytes(&self) -> u64 {
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
        cores * per_core
            + if m.l2_enabled {
                clusters * tags(&m.l2)
            } else {
                0
            }
            + if m.l3_enabled { tags(&m.l3) } else { 0 }
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
        // The heap lies above the program image, below or above the stacks: larger than
        // either room it fits no image (checked here, where the key's line is known, and
        // against the image's own end when it is loaded).
        let room = (bottom as u64 - u64::from(self.io.null_guard)).max((1 << 32) - top);
        if u64::from(self.map.heap) > room {
            problems.push(format!(
                "map.heap = {:#x} bytes cannot fit above any program image: the address space \
                 has {room:#x} bytes between io.null_guard and the stacks or above them",
                self.map.heap
            ));
        }
        problems
    }

    /// The ST and DT (and EGHW's edge buffers) live in each core's local memory.
    pub(super) fn weaver_tables_fit(&self) -> Result<(), String> {
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
}
