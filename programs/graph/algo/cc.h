/* Connected components by label propagation: label[v] = v, then every vertex whose label
 * dropped propagates it along its edges (a minimum) until nothing changes. The label of v
 * is the smallest id from which v is reachable (components of a symmetric graph). The
 * result array holds the labels. */
#define ALGO_ID GR_CC
#define ALGO_DATA_DRIVEN 1
#define ALGO_START_ALL 1
#define ALGO_WEIGHTED 0
#define ALGO_HAS_APPLY 0
#define ALGO_SCRATCH_PER_VERTEX 0u

static inline void algo_init(const gr_ctx *c, uint32_t v) { c->result[v] = v; }

static inline int algo_done(const gr_ctx *c, uint32_t v) { return 0; }

static inline uint32_t algo_gather(const gr_ctx *c, uint32_t src, uint32_t dst, uint32_t w) {
    return c->result[src];
}

static inline int algo_sum(const gr_ctx *c, uint32_t dst, uint32_t data) { return gr_sum_min(c, dst, data); }

static inline void algo_apply(const gr_ctx *c, uint32_t v) {}
