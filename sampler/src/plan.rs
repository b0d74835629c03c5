//! How a run is sampled: the user's choices.

/// How a run is sampled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// Of each stratum's units after its first two, one in `every` is simulated in detail
    /// (at a random place in each block of `every` after its first, `Choice`).
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
    /// copy starts its warm-up with the caches the run left. Measured, it removes the
    /// cold-start excess on a road BFS and on CC, but alone makes PageRank under EM 8% low
    /// and a BFS at the paper's size 7%: functional rounds touch the lines in another
    /// order than the detailed warps, which decides what a FIFO L2 keeps
    /// (`mem/hierarchy/warm.rs`); the warm-up check corrects that.
    pub warm_caches: bool,
    /// Each kernel's later whole launches are strata by cluster, of this diameter (a
    /// launch joins the first cluster whose first launch is within it), not by octave of
    /// warp instructions: the L1 distance of their basic-block vectors plus the difference
    /// of their active lanes, 0 to 3 (`features.rs`); 0: by octave. 0.25, measured: a grid
    /// BFS's and PageRank's later launches lie within 0.02 of their kernel's first, the
    /// road BFS's within 0.23, and splitting those (0.1) made its estimate worse
    /// (docs/ARCHITECTURE.md, "Sampled simulation").
    pub cluster: f64,
    /// The warm-up check: the first two stretches of measured units and then one in
    /// [`crate::CHECKED`] are measured again after at most this many units of detailed
    /// warm-up (fewer once they have refilled the last-level cache [`crate::REFILLS`]
    /// times), and the run's measured units are corrected by the ratio of the two (0: no
    /// check).
    /// A warm-up too short for the state the run carries from unit to unit (an L2 holding
    /// what earlier launches left) biases every measured unit alike, which no interval
    /// from the units' spread shows.
    pub check_warmup: u32,
    /// A run whose plan would simulate [`crate::WHOLE_AT`] of its warp instructions in
    /// detail or more (a short one: each warm-up check takes up to `check_warmup` units
    /// more) is simulated whole from its start instead, exactly (`Sampling::whole_run`;
    /// decided for runs of at most [`crate::HOLD`] units).
    pub exact_fallback: bool,
    /// With a `period`, each launch body's units are scaled by the cores' progress through
    /// it (`progress.rs`): under core order a socket's cores finish one after another and
    /// the last runs alone, where every copy the functional run made has them all at work;
    /// each kernel's first measured body unit probes its sockets with fewer cores at work
    /// for their rates then.
    pub progress: bool,
    /// The share of the run's warp instructions the plan may simulate in detail (warm-ups,
    /// checks and probes included): every job is held to the run's end and the plan is
    /// trimmed to it where it can be, each stratum keeping one measured unit (`budget.rs`).
    /// None: the plan as it comes.
    pub budget: Option<f64>,
}

impl Plan {
    /// Whether `share` can be a budget of detail: a finite share above 0 (1 or more trims
    /// nothing).
    pub fn is_budget(share: f64) -> bool {
        share.is_finite() && share > 0.0
    }
}

/// The defaults are the best setting measured (docs/ARCHITECTURE.md, "Sampled
/// simulation", item 6): on the machine's default arbiter every interval covered the
/// full-detail cycles, within 0.7% on the small validation jobs and 1.5% on a BFS at the
/// paper's size, at 2.7-3.4x less CPU on the searches.
impl Default for Plan {
    fn default() -> Self {
        Plan {
            every: 20,
            period: 0,
            warmup_units: 0,
            threads: 1,
            warm_caches: true,
            cluster: 0.25,
            check_warmup: 8,
            exact_fallback: true,
            progress: true,
            budget: None,
        }
    }
}
