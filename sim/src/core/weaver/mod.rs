//! The SparseWeaver unit in a core's SFU: its tables and FSM (`table.rs`), what its four
//! instructions do (`exec.rs`), when it does it (`timing.rs`: the FSM's clock, the EGHW
//! mode's fetch), and here the unit as the core holds it, with its CSRs.

mod exec;
pub(in crate::core) mod table;
mod timing;

pub use table::{Batch, Registered, StEntry, Trace, Weaver, WeaverRequest};
use timing::WeaverClock;

use wsim_isa::csr;

use crate::config::WeaverMode;
use crate::shared::Geometry;

/// A core's Weaver unit: its tables and FSM, the FSM's clock, the registers of its EGHW
/// mode.
#[derive(Clone)]
pub(in crate::core) struct WeaverUnit {
    pub unit: Weaver,
    pub mode: WeaverMode,
    clock: WeaverClock,
    /// EGHW: where the graph's offsets, neighbours and weights (0: none) are.
    offsets: u32,
    edges: u32,
    weights: u32,
    /// EGHW: offset of warp 0's edge buffer in local memory.
    buffer: u32,
}

impl WeaverUnit {
    pub fn new(config: &crate::Config) -> Self {
        let g = &config.gpu;
        WeaverUnit {
            unit: Weaver::new(config.weaver.entries, g.warps_per_core, g.threads_per_warp),
            mode: config.weaver.mode,
            clock: WeaverClock::default(),
            offsets: 0,
            edges: 0,
            weights: 0,
            buffer: config.local_mem.size - config.eghw_buffer_bytes(),
        }
    }

    /// The EGHW unit is fetching for a request and takes no other.
    pub fn busy(&self) -> bool {
        self.clock.busy()
    }

    /// EGHW: offset in local memory of warp `w`'s buffer, a (neighbour, weight) per lane.
    pub fn buffer_of(&self, w: usize, threads: u32) -> u32 {
        self.buffer + w as u32 * threads * 8
    }

    /// A write of one of the unit's CSRs (the read-only ones ignore it).
    pub fn csr_write(&mut self, num: u16, v: u32) {
        match num {
            csr::WEAVER_EGHW_OFFSETS => self.offsets = v,
            csr::WEAVER_EGHW_EDGES => self.edges = v,
            csr::WEAVER_EGHW_WEIGHTS => self.weights = v,
            _ => {}
        }
    }
}

/// The unit's CSR `num` as warp `w` reads it (`None`: the machine has no such CSR).
pub(in crate::core) fn csr_read(
    unit: Option<&WeaverUnit>,
    num: u16,
    w: usize,
    g: &Geometry,
) -> Option<u32> {
    if num == csr::WEAVER_ENTRIES {
        // Readable on every machine: 0 says there is no unit.
        return Some(unit.map_or(0, |u| u.unit.capacity()));
    }
    let unit = unit?;
    match num {
        csr::WEAVER_EGHW_OFFSETS => Some(unit.offsets),
        csr::WEAVER_EGHW_EDGES => Some(unit.edges),
        csr::WEAVER_EGHW_WEIGHTS => Some(unit.weights),
        csr::WEAVER_EGHW_BUFFER => Some(g.local_base + unit.buffer_of(w, g.threads)),
        _ => None,
    }
}
