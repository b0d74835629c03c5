/* edge.h - one edge of a base vertex: storage-format access, the direction's filters, the
 * algorithm's gather & sum, and the output frontier (Algorithm 2.1, lines 16-21).
 * Included after the algorithm's UDFs. */
#ifndef GR_EDGE_H
#define GR_EDGE_H

/* Kernel entry: the set-up phase, where the thread is, and super-step `arg`'s context. */
static inline gr_ctx gr_enter(void *arg, gr_geo *g) {
    PHASE(PH_INIT);
    *g = gr_geometry();
    return gr_context((uintptr_t)arg, ALGO_DATA_DRIVEN);
}

/* Degree and first edge of base vertex v; degree 0 when the destination filter excludes it
 * (pull: the destination needs nothing more, e.g. BFS: already visited). */
static inline uint32_t gr_degree(const gr_ctx *c, uint32_t v, uint32_t *loc) {
    uint32_t begin = c->off[v];
    *loc = begin;
    if (GR_PULL_DIR && algo_done(c, v))
        return 0;
    return c->off[v + 1] - begin;
}

/* Registration of base vertex number i of n (none when i >= n: vertex 0, degree 0): its id,
 * first edge and degree. The lanes leave together: a shuffle or barrier follows. */
static inline uint32_t gr_register(const gr_ctx *c, uint32_t i, uint32_t n, uint32_t *v, uint32_t *loc) {
    uint32_t deg = 0;
    *v = 0;
    *loc = 0;
    if (i < n) {
        *v = gr_base(c, i);
        deg = gr_degree(c, *v, loc);
    }
    gr_converge();
    return deg;
}

/* Gather & sum over the edge between base vertex `base` and `other` (weight w), which the
 * caller has read: the source filter, the algorithm, the output frontier. */
static inline void gr_gather(const gr_ctx *c, uint32_t base, uint32_t other, uint32_t w) {
    PHASE(PH_GATHER);
    if (GR_PULL_DIR && ALGO_DATA_DRIVEN && !gr_active(c->in_map, other))
        return;
    uint32_t src = GR_PULL_DIR ? other : base, dst = GR_PULL_DIR ? base : other;
    if (algo_gather_sum(c, src, dst, w) && ALGO_DATA_DRIVEN)
        gr_activate(c, dst);
}

/* Process edge eid of base vertex `base`. `check_base`: the schedule walks base vertices
 * that may be inactive (EM walks every edge), so push tests the input frontier first.
 * Returns nonzero when the base vertex needs no more edges (pull: the destination is done;
 * the caller may stop walking its edges, as WEAVER_SKIP does). */
static inline int gr_edge(const gr_ctx *c, uint32_t base, uint32_t eid, int check_base) {
    if (!GR_PULL_DIR && ALGO_DATA_DRIVEN && check_base && !gr_active(c->in_map, base))
        return 0;
    if (GR_PULL_DIR && algo_done(c, base))
        return 1;
    PHASE(PH_EDGE);
    uint32_t other = c->nbr[eid];
    uint32_t w = ALGO_WEIGHTED ? c->wt[eid] : 0;
    gr_gather(c, base, other, w);
    return 0;
}

/* Edges first, first + stride, ... of the `deg` edges of base vertex v starting at `loc`:
 * a thread alone walks them all (0, 1); a warp's or block's threads share them. */
static inline void gr_walk(const gr_ctx *c, uint32_t v, uint32_t loc, uint32_t deg, uint32_t first,
                           uint32_t stride) {
    for (uint32_t e = loc + first; e < loc + deg; e += stride) {
        PHASE(PH_WORKID);
        if (gr_edge(c, v, e, 0))
            break;
    }
}

#endif
