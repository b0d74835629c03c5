/* SSSP, Bellman-Ford over a frontier: a vertex whose distance dropped in super-step s
 * relaxes its out-edges in s + 1 (atomic min). Push walks the frontier's out-edges; pull
 * walks every destination's in-edges and takes dist[s] + w only from sources in the input
 * frontier (gr_gather's bitmap filter), so dist[d] = min(dist[d], min over those of
 * dist[s] + w); a destination whose distance dropped joins the output frontier either way.
 * No destination is ever done (a shorter path may still come). The result array holds the
 * distances (GR_INF: unreached). */
#define ALGO_ID GR_SSSP
#define ALGO_DATA_DRIVEN 1
#define ALGO_START_ALL 0
#define ALGO_WEIGHTED 1
#define ALGO_HAS_APPLY 0
#define ALGO_SCRATCH_PER_VERTEX 0u

static inline void algo_init(const gr_ctx *c, uint32_t v) {
    c->result[v] = v == wsim_graph.source ? 0 : GR_INF;
}

static inline int algo_done(const gr_ctx *c, uint32_t v) { return 0; }

static inline int algo_gather_sum(const gr_ctx *c, uint32_t src, uint32_t dst, uint32_t w) {
    uint32_t d = c->result[src] + w;
    /* A path longer than 32 bits saturates at GR_INF - 1, as the host reference does; a
     * wrapped sum would look short and never let the frontier drain. */
    if (d < w || d == GR_INF)
        d = GR_INF - 1;
    if (d >= c->result[dst])
        return 0;
    return d < __atomic_fetch_min(&c->result[dst], d, __ATOMIC_RELAXED);
}

static inline void algo_apply(const gr_ctx *c, uint32_t v) {}
