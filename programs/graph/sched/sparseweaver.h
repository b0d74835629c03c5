/* SparseWeaver (dissertation Figure 4.9). Built with WEAVER_EGHW: the comparison hardware
 * (eghw.h).
 *
 * Dissertation form (sw_kernel below): the base vertices in rounds of the ST's capacity,
 * round j on core j mod C (cyclic, which spreads the hubs' low ids of an unpermuted R-MAT;
 * Vortex's runtime gives each core a contiguous range of work groups); per round the core's
 * threads register (frontier loop, destination filter: a filtered vertex registers degree
 * 0, WEAVER_REG), meet at the round's one barrier, and run the distribution loop with every
 * lane on: WEAVER_DEC_ID, the test for -1, WEAVER_DEC_LOC, getEdge, the destination filter
 * (pull: WEAVER_SKIP), then the source filter and the algorithm's gather and sum, once per
 * edge. A warp answered -1 goes straight on to register the next round: the unit
 * re-initialises on a new registration (section 4.5) and answers -1 to a warp still on
 * its last batch of the round before (docs/WEAVER.md), so no barrier ends a round.
 *
 * Tuned form: each core takes a contiguous share of the base vertices (sw_split: equal edge
 * counts when they are every vertex) and walks it with weaver_process (weaver.h: two
 * barriers per chunk); PageRank pull adds each batch's runs of one destination with the
 * segmented reduction and one atomic per run.
 *
 * Table 4.1: one sync in registration; no search, atomic or sync in distribution. One
 * kernel per super-step. */
#include "weaver.h"

#ifndef SCHED_ID
#define SCHED_ID GR_SPARSEWEAVER
#endif
#define SCHED_SCRATCH_PER_VERTEX 0u
#define SCHED_SCRATCH_PER_STEP 0u
#define SCHED_SCRATCH_FIXED 0u

/* What base vertex v registers: its first edge in *loc and its degree, 0 when the
 * destination filter excludes it (pull: the destination needs nothing more). EGHW reads the
 * topology itself: the vertex id alone, degree 1 (0 if filtered). */
static inline uint32_t sw_registration(const gr_ctx *c, uint32_t v, uint32_t *loc) {
#ifdef WEAVER_EGHW
    *loc = 0;
    return !(GR_PULL_DIR && algo_done(c, v));
#else
    return gr_degree(c, v, loc);
#endif
}

/* Kernel entry (gr_enter); EGHW: point the unit at the direction's topology. */
static inline gr_ctx sw_enter(void *arg, gr_geo *g) {
    gr_ctx c = gr_enter(arg, g);
#ifdef WEAVER_EGHW
    weaver_eghw_setup(c.off, c.nbr, ALGO_WEIGHTED ? c.wt : 0);
#endif
    return c;
}

#if !GR_TUNED
static void sw_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gr_ctx c = sw_enter(arg, &g);
    uint32_t entries = weaver_entries(), all = wsim_lanes_mask(g.T);
    uint32_t saved = vx_thread_mask();
    for (uint32_t base = g.core * entries; base < c.n; base += g.C * entries) {
        PHASE(PH_REG);
        uint32_t bound = c.n - base < entries ? c.n : base + entries;
        for (uint32_t id = base + g.btid; id < bound; id += g.B) {
            uint32_t v = gr_base(&c, id), loc, deg = sw_registration(&c, v, &loc);
            weaver_reg(v, loc, deg);
        }
        gr_converge();
        vx_barrier(WSIM_BAR_WEAVER, g.W);
        vx_tmc(all);
        for (;;) {
            PHASE(PH_WORKID);
            uint32_t v = weaver_dec_id();
            if (v == WEAVER_NONE)
                break;
#ifdef WEAVER_EGHW
            PHASE(PH_EDGE);
            struct weaver_edge e = weaver_eghw_edge();
            uint32_t other = e.neighbour, w = e.weight;
#else
            uint32_t eid = weaver_dec_loc();
            PHASE(PH_EDGE);
            uint32_t other = c.nbr[eid], w = ALGO_WEIGHTED ? c.wt[eid] : 0;
#endif
            if (GR_PULL_DIR && algo_done(&c, v)) {
                weaver_skip(v);
                continue;
            }
            gr_gather(&c, v, other, w);
        }
        vx_tmc(saved);
    }
    PHASE(PH_OTHER);
}
#else
static uint32_t sw_vertex(uint32_t i, uint32_t *v, uint32_t *loc, void *ctx) {
    PHASE(PH_REG);
    const gr_ctx *c = ctx;
    *v = gr_base(c, i);
    return sw_registration(c, *v, loc);
}

#if GR_PULL_SUM
/* Pull with a float sum (PageRank): a batch holds its destinations' edges in runs of
 * consecutive lanes (lanes 0..n-1 have work, the others are inactive), so the warp adds
 * each run with gr_pull_sum_run (edge.h: a segmented reduction, 2 log2 T + 1 shuffles) and
 * the run's first lane does the one atomic add, as the software edge-parallel schedules. */
static int sw_edge(uint32_t v, uint32_t eid, void *ctx) {
    const gr_ctx *c = ctx;
    uint32_t lane = vx_thread_id(), T = vx_num_threads();
    uint32_t n = __builtin_popcount(vx_thread_mask());
    PHASE(PH_EDGE);
#ifdef WEAVER_EGHW
    uint32_t src = weaver_eghw_edge().neighbour;
#else
    uint32_t src = c->nbr[eid];
#endif
    PHASE(PH_GATHER);
    gr_pull_sum_run(c, lane, T, n, v, algo_gather_f32(c, src));
    PHASE(PH_WORKID);
    return 0;
}
#else
static int sw_edge(uint32_t v, uint32_t eid, void *ctx) {
    const gr_ctx *c = ctx;
    int done;
#ifdef WEAVER_EGHW
    /* The unit read the neighbour and the weight; they wait in local memory. */
    done = GR_PULL_DIR && algo_done(c, v);
    if (!done) {
        PHASE(PH_EDGE);
        struct weaver_edge e = weaver_eghw_edge();
        gr_gather(c, v, e.neighbour, e.weight);
    }
#else
    done = gr_edge(c, v, eid, 0);
#endif
    PHASE(PH_WORKID);
    return done;
}
#endif

/* Where core `k` of C starts in the base vertices. When they are every vertex, the cores
 * take contiguous ranges of equal edge counts (a binary search of the offsets), since
 * degrees vary along the ids (R-MAT puts its hubs at low ids); a frontier queue (push) is
 * in discovery order and is split evenly. */
static uint32_t sw_split(const gr_ctx *c, uint32_t k, uint32_t C) {
    if (k == 0 || k == C || c->queue)
        return c->n * k / C;
    uint32_t edges = c->off[c->n] - c->off[0]; /* k E / C without 64-bit division */
    uint32_t target = c->off[0] + edges / C * k + edges % C * k / C;
    return gr_search(c->off, 0, c->n + 1, target);
}

static void sw_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gr_ctx c = sw_enter(arg, &g);
    weaver_process(sw_split(&c, g.core, g.C), sw_split(&c, g.core + 1, g.C), sw_vertex, sw_edge, &c);
    PHASE(PH_OTHER);
}
#endif

static void sched_gather(uint32_t step) { gr_launch(sw_kernel, step); }
