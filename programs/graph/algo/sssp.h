/* SSSP, Bellman-Ford over a frontier: a vertex whose distance dropped in super-step s
 * relaxes its out-edges in s + 1 (a minimum). Push walks the frontier's out-edges; pull
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

/* a + w, or GR_INF when the sum wraps: a wrapped sum would look short (and never let the
 * frontier drain), while GR_INF never improves a distance. Discarding such a candidate is
 * exact, since the host refuses graphs whose distances do not fit in 32 bits. Without a
 * branch: RV32IM has no select, clang turns `d < w ? ... : ...` (even as a mask) into
 * one, and a branch per edge holds the warp's fetch until it resolves; the asm hides the
 * comparison from it. */
static inline uint32_t sssp_add(uint32_t a, uint32_t w) {
    uint32_t d = a + w, wrapped;
    __asm__ ("sltu %0, %1, %2" : "=r"(wrapped) : "r"(d), "r"(w));
    return d | -wrapped;
}

static inline uint32_t algo_gather(const gr_ctx *c, uint32_t src, uint32_t dst, uint32_t w) {
    return sssp_add(c->result[src], w);
}

static inline int algo_sum(const gr_ctx *c, uint32_t dst, uint32_t data) { return gr_sum_min(c, dst, data); }

static inline void algo_apply(const gr_ctx *c, uint32_t v) {}
