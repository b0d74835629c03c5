/* WM, warp mapping: each warp takes T base vertices; registration: each lane loads its
 * vertex's degree and first edge, the warp scans the degrees (log2 T shuffles + 1
 * broadcast) and stores vertex, location and exclusive prefix in local memory (3 words per
 * thread); distribution: for k = lane; k < warp total; k += T, a binary search of the
 * warp's prefixes finds the owning vertex (gr_distribute, edge.h). The warp's lanes run in
 * lockstep, so the warp-level sync of Table 4.1 needs no instruction. One kernel per
 * super-step. PageRank pull: the loop runs by rounds of the warp (k = round + lane, lanes
 * past the total idle) and each round's edges, in destination order, are added per run of
 * one destination with gr_pull_sum_run (2 log2 T + 1 shuffles) and one float atomic. */
#define SCHED_ID GR_WM
#define SCHED_SCRATCH_PER_VERTEX 0u
#define SCHED_SCRATCH_PER_STEP 0u
#define SCHED_SCRATCH_FIXED 0u

static void wm_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gr_ctx c = gr_enter(arg, &g);
    uint32_t *svid = (uint32_t *)vx_local_mem() + g.warp * 3 * g.T;
    uint32_t *sloc = svid + g.T, *spfx = sloc + g.T;
    gr_prefix_items at = { svid, sloc, spfx, g.T };
    for (uint32_t b = g.gwarp * g.T; b < c.n; b += g.nwarps * g.T) {
        PHASE(PH_REG);
        uint32_t i = b + g.lane, v, loc;
        uint32_t deg = gr_register(&c, i, c.n, &v, &loc);
        uint32_t incl = gr_warp_scan(deg, g.lane, g.T);
        uint32_t total = vx_shfl_idx(incl, g.T - 1, g.T);
        svid[g.lane] = v;
        sloc[g.lane] = loc;
        spfx[g.lane] = incl - deg;
        gr_distribute(&c, &g, g.lane, total, g.T, gr_locate_prefix, &at, 0);
    }
    PHASE(PH_OTHER);
}

static void sched_gather(uint32_t step) { gr_launch(wm_kernel, step); }
