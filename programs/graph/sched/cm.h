/* CM, CTA mapping: as WM over a block (the B = W*T threads of a core): a block-wide scan
 * (warp scans, warp totals through local memory, 2 barriers), vertex / location / prefix in
 * local memory (3 words per thread), a barrier, then k = btid; k < block total; k += B with
 * a binary search over the block's B prefixes (gr_distribute, edge.h), and a barrier
 * before the next round reuses the arrays. One kernel per super-step. PageRank pull: a
 * warp's lanes take consecutive k, so its edges are in destination order; per round of the
 * warp a segmented reduction (gr_pull_sum_run: 2 log2 T + 1 shuffles) and one float atomic
 * per run of one destination. */
#define SCHED_ID GR_CM
#define SCHED_SCRATCH_PER_VERTEX 0u
#define SCHED_SCRATCH_PER_STEP 0u
#define SCHED_SCRATCH_FIXED 0u

static void cm_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gr_ctx c = gr_enter(arg, &g);
    uint32_t *svid = (uint32_t *)vx_local_mem();
    uint32_t *sloc = svid + g.B, *spfx = sloc + g.B, *swarp = spfx + g.B;
    gr_prefix_items at = { svid, sloc, spfx, g.B };
    for (uint32_t b = g.core * g.B; b < c.n; b += g.C * g.B) {
        PHASE(PH_REG);
        uint32_t i = b + g.btid, v, loc, total;
        uint32_t deg = gr_register(&c, i, c.n, &v, &loc);
        uint32_t excl = gr_block_scan(deg, &g, swarp, &total);
        svid[g.btid] = v;
        sloc[g.btid] = loc;
        spfx[g.btid] = excl;
        gr_converge();
        vx_barrier(GR_BAR, g.W);
        gr_distribute(&c, &g, g.btid, total, g.B, gr_locate_prefix, &at, 0);
        gr_converge();
        PHASE(PH_REG);
        vx_barrier(GR_BAR, g.W);
    }
    PHASE(PH_OTHER);
}

static void sched_gather(uint32_t step) { gr_launch(cm_kernel, step); }
