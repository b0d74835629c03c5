/* EM-search, edge mapping on CSR/CSC alone: one edge per thread, grid-stride over every
 * edge of the direction's storage, as em.h, but the base vertex of an edge is recovered
 * with GRAssembler's searchVID (dissertation section 2.3, Table 2.3: "a computationally
 * expensive binary search on the ptr array", which every schedule but EM avoids): the
 * largest v with off[v] <= e, log2(V) dependent reads of the offsets per edge, in the
 * work-id phase. Reads |E| edge words and no COO array. Push tests the input frontier
 * bitmap per edge, pull the destination filter. Against Table 4.1's EM (2|E| edge reads,
 * no binary search: em.h) this is |E| edge reads and |E| binary searches in distribution.
 * One kernel per super-step. PageRank pull (tuned form): as em.h, the runs of one
 * destination in a round of T edges reduced (gr_distribute). */
#define SCHED_ID GR_EM_SEARCH
#define SCHED_SCRATCH_PER_VERTEX 0u
#define SCHED_SCRATCH_PER_STEP 0u
#define SCHED_SCRATCH_FIXED 0u

/* searchVID: edge e's base vertex is the vertex whose offsets range holds e. */
static inline void em_search_locate(const void *at, uint32_t e, uint32_t *base, uint32_t *eid) {
    const gr_ctx *c = at;
    *base = gr_search(c->off, 0, c->V, e);
    *eid = e;
}

static void em_search_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gr_ctx c = gr_enter(arg, &g);
    gr_distribute(&c, &g, g.gtid, c.E, g.nthreads, em_search_locate, &c, 1);
    PHASE(PH_OTHER);
}

static void sched_gather(uint32_t step) { gr_launch(em_search_kernel, step); }
