/* TWC (Merrill et al.): a binning kernel puts each base vertex with edges into one of three
 * global queues by degree (small < T, medium < B, large; one global atomic per vertex),
 * then three kernels walk them: small by one thread per vertex, medium by one warp per
 * vertex, large by one block per vertex. Queues: 3|V| words; their counters are per
 * super-step, so nothing is reset. PageRank pull: in the medium and large kernels a warp's
 * lanes hold edges of the same destination, so each round of T edges is summed across the
 * warp (gr_walk_group -> gr_pull_sum_run: 2 log2 T + 1 shuffles) and added with one float
 * atomic; the small kernel's threads sum their vertex in a register and add it once
 * (gr_walk). */
#define SCHED_ID GR_TWC
#define SCHED_SCRATCH_PER_VERTEX 3u
#define SCHED_SCRATCH_PER_STEP 3u
#define SCHED_SCRATCH_FIXED 0u

/* Queue q's entries and this step's counter of queue q. */
static inline uint32_t *twc_queue(const gr_ctx *c, uint32_t q) { return GR_SCHED_SCRATCH(c) + q * c->V; }
static inline uint32_t *twc_count(const gr_ctx *c, uint32_t q) {
    return GR_SCHED_SCRATCH(c) + 3 * c->V + 3 * c->step + q;
}

static void twc_bin_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gr_ctx c = gr_enter(arg, &g);
    PHASE(PH_REG);
    for (uint32_t i = g.gtid; i < c.n; i += g.nthreads) {
        uint32_t v = gr_base(&c, i), loc, deg = gr_degree(&c, v, &loc);
        if (deg == 0)
            continue;
        uint32_t q = deg < g.T ? 0 : deg < g.B ? 1 : 2;
        twc_queue(&c, q)[__atomic_fetch_add(twc_count(&c, q), 1, __ATOMIC_RELAXED)] = v;
    }
    PHASE(PH_OTHER);
}

/* Walk queue q: small vertices by one thread each, medium by a warp, large by a block. */
static inline void twc_tier(void *arg, uint32_t q) {
    gr_geo g;
    gr_ctx c = gr_enter(arg, &g);
    uint32_t first = q == 0 ? g.gtid : q == 1 ? g.gwarp : g.core;
    uint32_t stride = q == 0 ? g.nthreads : q == 1 ? g.nwarps : g.C;
    uint32_t member = q == 0 ? 0 : q == 1 ? g.lane : g.btid;
    uint32_t group = q == 0 ? 1 : q == 1 ? g.T : g.B;
    uint32_t n = *twc_count(&c, q);
    const uint32_t *queue = twc_queue(&c, q);
    for (uint32_t j = first; j < n; j += stride) {
        PHASE(PH_REG);
        uint32_t v = queue[j], loc, deg = gr_degree(&c, v, &loc);
        gr_walk_group(&c, &g, v, loc, deg, member, group);
    }
    PHASE(PH_OTHER);
}

static void twc_small_kernel(uint32_t hart, void *arg) { twc_tier(arg, 0); }
static void twc_medium_kernel(uint32_t hart, void *arg) { twc_tier(arg, 1); }
static void twc_large_kernel(uint32_t hart, void *arg) { twc_tier(arg, 2); }

static void sched_gather(uint32_t step) {
    gr_launch(twc_bin_kernel, step);
    gr_launch(twc_small_kernel, step);
    gr_launch(twc_medium_kernel, step);
    gr_launch(twc_large_kernel, step);
}
