/* EM, edge mapping: one edge per thread, grid-stride over every edge of the direction's
 * storage; the base vertex of an edge comes from the COO array (no search). Push tests the
 * input frontier bitmap per edge, pull the destination filter. Reads 2|E| edge words.
 * Table 4.1: nothing in registration or distribution. One kernel per super-step.
 * PageRank pull: a warp's lanes hold consecutive CSC edges, so runs of one destination;
 * each round of T edges adds its runs with gr_pull_sum_run (edge.h: 2 log2 T + 1 shuffles)
 * and one float atomic per run (gr_distribute). */
#define SCHED_ID GR_EM
#define SCHED_SCRATCH_PER_VERTEX 0u
#define SCHED_SCRATCH_PER_STEP 0u
#define SCHED_SCRATCH_FIXED 0u

/* Edge e's base vertex is in the COO array. */
static inline void em_locate(const void *at, uint32_t e, uint32_t *base, uint32_t *eid) {
    *base = ((const gr_ctx *)at)->coo[e];
    *eid = e;
}

static void em_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gr_ctx c = gr_enter(arg, &g);
    gr_distribute(&c, &g, g.gtid, c.E, g.nthreads, em_locate, &c, 1);
    PHASE(PH_OTHER);
}

static void sched_gather(uint32_t step) { gr_launch(em_kernel, step); }
