//! How a run is sampled: the user's choices.

/// How a run is sampled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Of each kernel's units after its first two, one in `every` is simulated in detail.
    pub every: u32,
    /// Units simulated in detail, unmeasured, before each measured one (and back to the
    /// previous unit of its kernel, when there is one within [`crate::REACH`]; 0: none).
    pub warmup_units: u32,
    /// Detailed simulations at once (besides the functional run).
    pub threads: usize,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            every: 10,
            warmup_units: 1,
            threads: 1,
        }
    }
}
