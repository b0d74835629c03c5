//! A core: warps, their functional execution and (later) the pipeline that times them.

pub mod fpu;
