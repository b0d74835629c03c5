/* STRICT (Davidson et al.): the active edges of the super-step are laid out in global
 * memory and dealt to blocks B at a time. Kernel 1: each core scans the degrees of its
 * contiguous share of the base vertices (block scans, 2 barriers + 1 per round of B) and
 * stores vertex, location and block-local exclusive prefix (3|V| words) and its share's
 * total; kernel 2: each core adds the totals of the cores before it; kernel 3: block k of
 * ceil(total / B) takes edges kB .. kB + B - 1, each thread finding its vertex by a binary
 * search of the global prefixes (gr_distribute, edge.h). PageRank pull: each warp's T
 * consecutive edges are added per run of one destination (gr_pull_sum_run: 2 log2 T + 1
 * shuffles) with one float atomic per run. */
#define SCHED_ID GR_STRICT
#define SCHED_SCRATCH_PER_VERTEX 3u
#define SCHED_SCRATCH_PER_STEP 0u
#define SCHED_SCRATCH_FIXED WSIM_MAX_CORES

typedef struct {
    uint32_t *vid, *loc, *pfx, *core_total;
    uint32_t lo, hi; /* this core's share of the base vertices */
} strict_arrays;

static inline strict_arrays strict_get(const gr_ctx *c, const gr_geo *g) {
    uint32_t *s = GR_SCHED_SCRATCH(c);
    uint32_t share = (c->n + g->C - 1) / g->C;
    strict_arrays a = { s, s + c->V, s + 2 * c->V, s + 3 * c->V, 0, 0 };
    a.lo = g->core * share < c->n ? g->core * share : c->n;
    a.hi = c->n - a.lo < share ? c->n : a.lo + share;
    return a;
}

static void strict_scan_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gr_ctx c = gr_enter(arg, &g);
    strict_arrays a = strict_get(&c, &g);
    uint32_t *swarp = (uint32_t *)vx_local_mem(), run = 0;
    for (uint32_t b = a.lo; b < a.hi; b += g.B) {
        PHASE(PH_REG);
        uint32_t i = b + g.btid, v, loc, total;
        uint32_t deg = gr_register(&c, i, a.hi, &v, &loc);
        uint32_t excl = gr_block_scan(deg, &g, swarp, &total);
        if (i < a.hi) {
            a.vid[i] = v;
            a.loc[i] = loc;
            a.pfx[i] = run + excl;
        }
        run += total;
        gr_converge();
        vx_barrier(GR_BAR, g.W);
    }
    if (g.btid == 0)
        a.core_total[g.core] = run;
    PHASE(PH_OTHER);
}

static void strict_offset_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gr_ctx c = gr_enter(arg, &g);
    strict_arrays a = strict_get(&c, &g);
    PHASE(PH_REG);
    uint32_t before = 0;
    for (uint32_t k = 0; k < g.core; k++)
        before += a.core_total[k];
    for (uint32_t i = a.lo + g.btid; i < a.hi; i += g.B)
        a.pfx[i] += before;
    PHASE(PH_OTHER);
}

static void strict_distribute_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gr_ctx c = gr_enter(arg, &g);
    strict_arrays a = strict_get(&c, &g);
    uint32_t total = 0;
    for (uint32_t k = 0; k < g.C; k++)
        total += a.core_total[k];
    gr_prefix_items at = { a.vid, a.loc, a.pfx, c.n };
    gr_distribute(&c, &g, g.core * g.B + g.btid, total, g.C * g.B, gr_locate_prefix, &at, 0);
    PHASE(PH_OTHER);
}

static void sched_gather(uint32_t step) {
    gr_launch(strict_scan_kernel, step);
    gr_launch(strict_offset_kernel, step);
    gr_launch(strict_distribute_kernel, step);
}
