/* TWC (Merrill et al.): a binning kernel puts each base vertex with edges into one of three
 * global queues by degree (small < T, medium < B, large; one global atomic per vertex),
 * then three kernels walk them: small by one thread per vertex, medium by one warp per
 * vertex, large by one block per vertex. Queues: 3|V| words; their counters are per
 * super-step, so nothing is reset. */
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
    PHASE(PH_INIT);
    gr_geo g = gr_geometry();
    gr_ctx c = gr_context((uintptr_t)arg, ALGO_DATA_DRIVEN);
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

/* Queue q: entries first, first + stride, ...; each walked by `group` threads, this one
 * being number `member`. */
static inline void twc_walk(const gr_ctx *c, uint32_t q, uint32_t first, uint32_t stride,
                            uint32_t member, uint32_t group) {
    uint32_t n = *twc_count(c, q);
    const uint32_t *queue = twc_queue(c, q);
    for (uint32_t j = first; j < n; j += stride) {
        PHASE(PH_REG);
        uint32_t v = queue[j], loc, deg = gr_degree(c, v, &loc);
        gr_walk(c, v, loc, deg, member, group);
    }
}

static void twc_small_kernel(uint32_t hart, void *arg) {
    PHASE(PH_INIT);
    gr_geo g = gr_geometry();
    gr_ctx c = gr_context((uintptr_t)arg, ALGO_DATA_DRIVEN);
    twc_walk(&c, 0, g.gtid, g.nthreads, 0, 1);
    PHASE(PH_OTHER);
}

static void twc_medium_kernel(uint32_t hart, void *arg) {
    PHASE(PH_INIT);
    gr_geo g = gr_geometry();
    gr_ctx c = gr_context((uintptr_t)arg, ALGO_DATA_DRIVEN);
    twc_walk(&c, 1, g.gwarp, g.nwarps, g.lane, g.T);
    PHASE(PH_OTHER);
}

static void twc_large_kernel(uint32_t hart, void *arg) {
    PHASE(PH_INIT);
    gr_geo g = gr_geometry();
    gr_ctx c = gr_context((uintptr_t)arg, ALGO_DATA_DRIVEN);
    twc_walk(&c, 2, g.core, g.C, g.btid, g.B);
    PHASE(PH_OTHER);
}

static void sched_gather(uint32_t step) {
    gr_launch(twc_bin_kernel, step);
    gr_launch(twc_small_kernel, step);
    gr_launch(twc_medium_kernel, step);
    gr_launch(twc_large_kernel, step);
}
