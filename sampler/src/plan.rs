//! How a run is sampled: the user's choices.

/// How a run is sampled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Of each stratum's units after its first two, one in `every` is simulated in detail.
    pub every: u32,
    /// A unit inside a launch ends once it has this many warp instructions, so that a long
    /// launch is sampled too (0: units end only where launches end).
    pub period: u64,
    /// Units simulated in detail, unmeasured, before each measured one (and back to the
    /// previous unit of its kernel, when there is one within [`crate::REACH`]; 0: none).
    pub warmup_units: u32,
    /// Detailed simulations at once (besides the functional run).
    pub threads: usize,
    /// The functional run warms the caches' tags (`Machine::warm_caches`), so that each
    /// copy starts its warm-up with the caches the run left. Off by default: measured, it
    /// removes the cold-start excess on a road BFS and on CC but makes PageRank under EM
    /// 9% low: functional rounds touch the lines in another order than the detailed warps,
    /// which decides what a FIFO L2 as large as the edges keeps (`mem/hierarchy/warm.rs`).
    pub warm_caches: bool,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            every: 10,
            period: 0,
            warmup_units: 1,
            threads: 1,
            warm_caches: false,
        }
    }
}
