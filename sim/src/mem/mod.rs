//! The memory system. For now the functional backing store; the timing model (coalescer,
//! caches, DRAM, interconnect) joins it here.

mod memory;

pub use memory::{Memory, PAGE_SIZE};
