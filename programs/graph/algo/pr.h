/* PageRank: every vertex is active in every super-step; `iterations` super-steps.
 * rank0 = 1/V; acc[d] = sum of contrib[s] over edges s->d, contrib[s] = rank[s]/outdeg[s]
 * (computed once per vertex in apply, so the gather is one load); apply:
 * rank = (1-D)/V + D*acc. Rank lost at vertices without out-edges is dropped. The result
 * array holds the ranks as floats. Scratch: acc, contrib (V floats each). */
#define ALGO_ID GR_PR
#define ALGO_DATA_DRIVEN 0
#define ALGO_START_ALL 1
#define ALGO_WEIGHTED 0
#define ALGO_HAS_APPLY 1
#define ALGO_SCRATCH_PER_VERTEX 2u
#define PR_DAMPING 0.85f

static inline float pr_f(uint32_t u) { union { uint32_t u; float f; } x = { .u = u }; return x.f; }
static inline uint32_t pr_u(float f) { union { float f; uint32_t u; } x = { .f = f }; return x.u; }

static inline uint32_t pr_contrib(float rank, uint32_t deg) { return deg ? pr_u(rank / (float)deg) : 0; }

static inline void algo_init(const gr_ctx *c, uint32_t v) {
    float r = 1.0f / (float)c->V;
    c->algo[c->V + v] = pr_contrib(r, wsim_graph.out_degree[v]);
    c->result[v] = pr_u(r);
}

static inline int algo_done(const gr_ctx *c, uint32_t v) { return 0; }

/* The sum is a float addition: a schedule whose lanes hold runs of edges of one
 * destination may add the run first and then call algo_sum_f32 once (ALGO_SUM_F32, the
 * tuned form). The atomic is the machine's float AMO (amoadd.f). */
#define ALGO_SUM_F32 1
static inline float algo_gather_f32(const gr_ctx *c, uint32_t src) { return pr_f(c->algo[c->V + src]); }
static inline void algo_sum_f32(const gr_ctx *c, uint32_t dst, float x) {
#if GR_ATOMIC_FREE
    /* Section 2.4.1: the destination's thread is its only writer; volatile keeps the
     * transformation's load-add-store per edge (the compiler could not promote it
     * either: acc and contrib share one array). */
    volatile float *a = (volatile float *)&c->algo[dst];
    *a = *a + x;
#else
    atomic_add_f32((float *)&c->algo[dst], x);
#endif
}

static inline uint32_t algo_gather(const gr_ctx *c, uint32_t src, uint32_t dst, uint32_t w) {
    return c->algo[c->V + src];
}

static inline int algo_sum(const gr_ctx *c, uint32_t dst, uint32_t data) {
    algo_sum_f32(c, dst, pr_f(data));
    return 0;
}

static inline void algo_apply(const gr_ctx *c, uint32_t v) {
    float r = (1.0f - PR_DAMPING) / (float)c->V + PR_DAMPING * pr_f(c->algo[v]);
    c->algo[v] = 0;
    c->algo[c->V + v] = pr_contrib(r, wsim_graph.out_degree[v]);
    c->result[v] = pr_u(r);
}
