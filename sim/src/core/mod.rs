//! A core: its warps, its local (shared) memory and barriers, and the functional
//! execution of their instructions. The pipeline that times them joins here.

mod exec;
pub mod fpu;
pub mod simt_stack;
pub mod warp;

use std::collections::BTreeMap;

pub use exec::Effect;
use warp::Warp;

/// Counts a core keeps while it runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CoreStats {
    /// Warp instructions executed.
    pub instructions: u64,
    /// Thread instructions: active lanes summed over warp instructions.
    pub thread_instructions: u64,
    pub branches: u64,
    /// Branches and indirect jumps whose lanes went different ways.
    pub divergent_branches: u64,
    /// Divergent indirect jumps to targets the static analysis did not find.
    pub unknown_indirect_divergence: u64,
    /// Deepest SIMT stack seen.
    pub max_stack_depth: u64,
    pub loads: u64,
    pub stores: u64,
    pub atomics: u64,
    pub barriers: u64,
    pub traps: u64,
    pub warps_spawned: u64,
    pub warps_retired: u64,
}

pub struct Core {
    /// Global core id.
    pub id: u32,
    pub warps: Vec<Warp>,
    /// Local (shared) memory contents.
    pub local: Vec<u8>,
    /// Local barriers in progress: id -> (count, warps arrived as a bit per warp).
    pub barriers: BTreeMap<u32, (u32, u32)>,
    /// Statistics phase set by the program through CSR 0x7C0.
    pub phase: u32,
    pub stats: CoreStats,
    /// Next warp the scheduler looks at.
    pub next_warp: usize,
}

impl Core {
    pub fn new(id: u32, warps: u32, threads: u32, local_size: u32) -> Self {
        Core {
            id,
            warps: (0..warps).map(|_| Warp::new(threads)).collect(),
            local: vec![0; local_size as usize],
            barriers: BTreeMap::new(),
            phase: 0,
            stats: CoreStats::default(),
            next_warp: 0,
        }
    }

    /// Whether any warp of the core has live lanes.
    pub fn is_live(&self) -> bool {
        self.warps.iter().any(Warp::is_live)
    }
}
