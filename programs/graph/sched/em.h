/* EM, edge mapping: one edge per thread, grid-stride over every edge of the direction's
 * storage; the base vertex of an edge comes from the COO array (no search). Push tests the
 * input frontier bitmap per edge, pull the destination filter. Reads 2|E| edge words.
 * Table 4.1: nothing in registration or distribution. One kernel per super-step. */
#define SCHED_ID GR_EM
#define SCHED_SCRATCH_PER_VERTEX 0u
#define SCHED_SCRATCH_PER_STEP 0u
#define SCHED_SCRATCH_FIXED 0u

static void em_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gr_ctx c = gr_enter(arg, &g);
    for (uint32_t e = g.gtid; e < c.E; e += g.nthreads) {
        PHASE(PH_WORKID);
        gr_edge(&c, c.coo[e], e, 1);
    }
    PHASE(PH_OTHER);
}

static void sched_gather(uint32_t step) { gr_launch(em_kernel, step); }
