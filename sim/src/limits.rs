//! The largest value of every count and size of the configuration, derived from the
//! machine the key describes (docs/CONFIG.md lists them). `Config::validate` checks them
//! before anything is allocated. A leaf: the memory system's own checks use it too.

/// Vortex: 32 warps per core and 32 threads per warp (one 32-bit thread mask each).
pub const WARPS: u32 = 32;
pub const THREADS: u32 = 32;
pub const CLUSTERS: u32 = 64;
pub const CORES_PER_CLUSTER: u32 = 64;
/// Cores in the whole machine: 256 x 32 x 32 threads with their registers, local
/// memories and L1 tags stay within a few hundred MiB of host memory.
pub const CORES: u32 = 256;
/// Instruction-buffer entries per warp (Vortex has 2 to 8; a fetch stops at a branch).
pub const IBUFFER: u32 = 64;
/// Instructions a functional unit holds between dispatch and commit (`core.unit_queue`).
pub const UNIT_QUEUE: u32 = 64;
/// Loads in flight per core (`core.lsu_pending`): as many as the LSU queue holds.
pub const LSU_PENDING: u32 = 64;
/// One bank per architectural register at most.
pub const REGISTER_BANKS: u32 = 32;
/// Cycles of one latency (core, Weaver, links): keeps every cycle sum far from overflow.
pub const LATENCY: u32 = 1 << 16;
/// Local (shared) memory per core; GPUs have at most 228 KiB per multiprocessor.
pub const LOCAL_MEM: u32 = 1 << 20;
/// Local-memory banks: one per thread of a warp, twice over.
pub const LOCAL_BANKS: u32 = 64;
/// Local memory a Sparse Workload Information Table entry takes (vid, loc, deg), and
/// one in EGHW mode (the vertex id only).
pub const ST_ENTRY_BYTES: u32 = 12;
pub const EGHW_ST_ENTRY_BYTES: u32 = 4;
/// Local memory a Distribution Table entry takes (one edge id per lane).
pub const DT_ENTRY_BYTES: u32 = 4;
/// Bytes of a configuration file: a file stating every key has a few KB, and parsing
/// TOML takes some 60 times its text.
pub const CONFIG_BYTES: u64 = 1 << 20;
/// Regions in `map.regions`.
pub const MAP_REGIONS: usize = 64;
/// Distinct values a run may write to the phase CSR (0x7C0): each has its counters on
/// every core and its memory statistics, so the program must not choose how many.
pub const PHASES: usize = 256;
/// Iterations a run may mark (CSR 0x7C6): each keeps a record of its counters. A road
/// graph's BFS at the paper's size runs a few thousand super-steps.
pub const ITERATIONS: usize = 100_000;
/// Kernel launches a run keeps records of (`vx_wspawn`; a record each, about 1 KB):
/// BFS on a road graph at the paper's size launches a few per super-step.
pub const LAUNCHES: usize = 100_000;
/// Distinct vertices one core's Weaver unit skips in a round (`weaver.skip`): as many as
/// the largest ST holds (`LOCAL_MEM / EGHW_ST_ENTRY_BYTES`), so a program that skips only
/// vertices it registered never reaches it; at about 10 host bytes each (a `BTreeSet`),
/// 2.5 MiB per core.
pub const WEAVER_SKIPS: usize = (LOCAL_MEM / EGHW_ST_ENTRY_BYTES) as usize;
/// Entries of one warp's `vx_split` stack: a split pushes one, two when it diverges, and
/// its `vx_join` pops them, so code nests a few; 12 host bytes each, 6 KiB per warp at
/// most (48 MiB for the largest machine's 8,192 warps).
pub const SPLIT_STACK: usize = 512;
/// Host memory the machine's structures may take: every cache's tags (16 bytes per
/// line), local memories, registers and instruction buffers. Each cache alone may be
/// 256 MiB with 4-byte lines; together they must stay allocatable.
pub const MACHINE_BYTES: u64 = 1 << 30;
