//! The memory system: the functional backing store and the timing model of the
//! hierarchy (caches, interconnect, DRAM).

pub mod cache;
pub mod dram;
pub mod hierarchy;
pub mod interconnect;
mod memory;

pub use memory::{Memory, PAGE_SIZE};
