/* BFS: level[source] = 0; a vertex reached in super-step s gets level s + 1 (the first
 * writer of the minimum activates it, so each vertex enters the frontier once). Pull: a
 * visited destination is done (filtered in registration, skipped mid-walk); a source counts
 * only if it is in the input frontier. The result array holds the levels (GR_INF:
 * unreached). */
#define ALGO_ID GR_BFS
#define ALGO_DATA_DRIVEN 1
#define ALGO_START_ALL 0
#define ALGO_WEIGHTED 0
#define ALGO_HAS_APPLY 0
#define ALGO_SCRATCH_PER_VERTEX 0u

static inline void algo_init(const gr_ctx *c, uint32_t v) {
    c->result[v] = v == wsim_graph.source ? 0 : GR_INF;
}

static inline int algo_done(const gr_ctx *c, uint32_t v) { return c->result[v] != GR_INF; }

/* A source of the frontier of super-step s has level s. */
static inline uint32_t algo_gather(const gr_ctx *c, uint32_t src, uint32_t dst, uint32_t w) {
    return c->step + 1;
}

static inline int algo_sum(const gr_ctx *c, uint32_t dst, uint32_t data) { return gr_sum_min(c, dst, data); }

static inline void algo_apply(const gr_ctx *c, uint32_t v) {}
