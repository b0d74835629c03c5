/* TWCE: the three TWC tiers inside one kernel, in local memory. Per round the block's B
 * threads take B base vertices; a medium (T <= degree < B) or large vertex is pushed on a
 * local queue with a local atomic (3 words per entry, 6 words per thread in all); after a
 * barrier each thread walks its own small vertex, warps pop medium entries with a local
 * atomic and walk each with their T lanes, and the whole block walks each large entry.
 * Queue counters alternate between two sets per round, so one barrier ends a round.
 * PageRank pull: the medium and large walks sum each round of the warp's T edges (one
 * destination) with gr_pull_sum_run (2 log2 T + 1 shuffles) and add it with one float
 * atomic (gr_walk_group, edge.h); a small vertex is summed in its thread's register and
 * added once (gr_walk). */
#define SCHED_ID GR_TWCE
#define SCHED_SCRATCH_PER_VERTEX 0u
#define SCHED_SCRATCH_PER_STEP 0u
#define SCHED_SCRATCH_FIXED 0u

/* A local queue of B entries (vertex, location, degree), 3 words each. */
static inline void twce_push(uint32_t *q, uint32_t *count, uint32_t v, uint32_t loc, uint32_t deg) {
    uint32_t *e = q + 3 * __atomic_fetch_add(count, 1, __ATOMIC_RELAXED);
    e[0] = v;
    e[1] = loc;
    e[2] = deg;
}

static void twce_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gr_ctx c = gr_enter(arg, &g);
    /* counters: per round parity: medium count, large count, medium entries taken */
    uint32_t *ctr = (uint32_t *)vx_local_mem();
    uint32_t *medium = ctr + 6, *large = medium + 3 * g.B;
    if (g.btid < 6)
        ctr[g.btid] = 0;
    vx_barrier(GR_BAR, g.W);
    uint32_t r = 0;
    for (uint32_t b = g.core * g.B; b < c.n; b += g.C * g.B, r ^= 1) {
        PHASE(PH_REG);
        uint32_t *k = ctr + 3 * r;
        uint32_t i = b + g.btid, v, loc;
        uint32_t deg = gr_register(&c, i, c.n, &v, &loc);
        if (deg >= g.B)
            twce_push(large, &k[1], v, loc, deg);
        else if (deg >= g.T)
            twce_push(medium, &k[0], v, loc, deg);
        if (g.btid < 3)
            ctr[3 * (r ^ 1) + g.btid] = 0;
        gr_converge();
        vx_barrier(GR_BAR, g.W);
        if (deg < g.T)
            gr_walk(&c, v, loc, deg, 0, 1);
        for (;;) {
            gr_converge();
            PHASE(PH_WORKID);
            uint32_t j = 0;
            if (g.lane == 0)
                j = __atomic_fetch_add(&k[2], 1, __ATOMIC_RELAXED);
            gr_converge();
            j = vx_shfl_idx(j, 0, g.T);
            if (j >= k[0])
                break;
            const uint32_t *e = medium + 3 * j;
            gr_walk_group(&c, &g, e[0], e[1], e[2], g.lane, g.T);
        }
        for (uint32_t j = 0; j < k[1]; j++) {
            const uint32_t *e = large + 3 * j;
            gr_walk_group(&c, &g, e[0], e[1], e[2], g.btid, g.B);
        }
        gr_converge();
        PHASE(PH_REG);
        vx_barrier(GR_BAR, g.W);
    }
    PHASE(PH_OTHER);
}

static void sched_gather(uint32_t step) { gr_launch(twce_kernel, step); }
