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
 * caller has read: the source filter, the algorithm's gather and sum, the output frontier
 * (Algorithm 2.1, lines 17-21). */
static inline void gr_gather(const gr_ctx *c, uint32_t base, uint32_t other, uint32_t w) {
    PHASE(PH_GATHER);
    if (GR_PULL_DIR && ALGO_DATA_DRIVEN && !gr_active(c->in_map, other))
        return;
    uint32_t src = GR_PULL_DIR ? other : base, dst = GR_PULL_DIR ? base : other;
    if (algo_sum(c, dst, algo_gather(c, src, dst, w)) && ALGO_DATA_DRIVEN)
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

/* ---- Edge-parallel distribution, and the PageRank pull reduction ----
 *
 * GR_PULL_SUM, the tuned form's pull with a float sum and no frontier (PageRank): the
 * lanes of a warp that hold edges of one destination add their values with a segmented
 * warp reduction and the run's first lane does the one atomic add. Every edge-parallel
 * schedule does this: SparseWeaver's batches, EM, WM, CM, STRICT, and TWC's and TWCE's
 * warp and block tiers. A thread that walks its destination alone (VM, the one-thread
 * tiers) sums in a register (gr_walk). The dissertation's form adds per edge. */
#if GR_TUNED && GR_PULL_DIR && defined(ALGO_SUM_F32) && !ALGO_DATA_DRIVEN
#define GR_PULL_SUM 1
#else
#define GR_PULL_SUM 0
#endif

/* Edges first, first + stride, ... of the `deg` edges of base vertex v starting at `loc`:
 * a thread alone walks them all (0, 1); a warp's or block's threads share them (but see
 * gr_walk_group). GR_PULL_SUM, a thread alone: v's sum is the thread's own, so it adds
 * the edges in a register and does one atomic add for the vertex (the same order of
 * additions as one atomic per edge, so the same float result). */
static inline void gr_walk(const gr_ctx *c, uint32_t v, uint32_t loc, uint32_t deg, uint32_t first,
                           uint32_t stride) {
#if GR_PULL_SUM
    if (stride == 1) {
        float x = 0.0f;
        for (uint32_t e = loc + first; e < loc + deg; e++) {
            PHASE(PH_WORKID);
            PHASE(PH_EDGE);
            uint32_t src = c->nbr[e];
            PHASE(PH_GATHER);
            x += algo_gather_f32(c, src);
        }
        if (first < deg)
            algo_sum_f32(c, v, x);
        return;
    }
#endif
    for (uint32_t e = loc + first; e < loc + deg; e += stride) {
        PHASE(PH_WORKID);
        if (gr_edge(c, v, e, 0))
            break;
    }
}

/* The distribution helpers below take the context and geometry by pointer and a locate
 * function: inlined, these become registers and a direct computation (an outlined copy
 * would read them from memory every edge). */
#define GR_INLINE static inline __attribute__((always_inline))

#if GR_PULL_SUM
static inline float gr_f32(uint32_t u) { union { uint32_t u; float f; } x = { .u = u }; return x.f; }
static inline uint32_t gr_u32(float f) { union { float f; uint32_t u; } x = { .f = f }; return x.u; }

/* Lanes 0 .. n-1 hold the value x of one edge of destination dst each (n is the same for the
 * whole warp; lanes n .. T-1 may be inactive or hold anything: they are never read), and
 * the lanes of one destination are consecutive. Each run of lanes with the same dst is
 * summed with a segmented reduction (log2 T steps of two shuffles, then one shuffle to
 * find the run heads) and its first lane adds the sum with one atomic. Lanes 0 .. n-1 must
 * all be here together: shuffles read every lane. */
GR_INLINE void gr_pull_sum_run(const gr_ctx *c, uint32_t lane, uint32_t T, uint32_t n, uint32_t dst,
                               float x) {
    gr_converge();
    for (uint32_t d = 1; d < T; d <<= 1) {
        float y = gr_f32(vx_shfl_down(gr_u32(x), d, T));
        uint32_t w = vx_shfl_down(dst, d, T);
        if (lane + d < n && w == dst)
            x += y;
        gr_converge();
    }
    uint32_t before = vx_shfl_up(dst, 1, T);
    if (lane < n && (lane == 0 || before != dst))
        algo_sum_f32(c, dst, x);
    gr_converge();
}
#endif

/* Where work item k is: its base vertex and the edge's id in the direction's storage. */
typedef void (*gr_locate_fn)(const void *at, uint32_t k, uint32_t *base, uint32_t *eid);

/* Distribution of work items (edges) first, first + stride, ... below `total`, each to
 * gr_edge (check_base as there). The lanes of a warp take consecutive items: first - lane
 * and total are the same for the whole warp and stride is a multiple of T, and the whole
 * warp calls this. GR_PULL_SUM: the loop runs by rounds of the warp (every lane stays in
 * it; lanes past `total` hold nothing) and the round's edges go through gr_pull_sum_run,
 * so the items must be in destination order (a destination's edges consecutive). */
GR_INLINE void gr_distribute(const gr_ctx *c, const gr_geo *g, uint32_t first, uint32_t total,
                             uint32_t stride, gr_locate_fn locate, const void *at, int check_base) {
#if GR_PULL_SUM
    for (uint32_t kb = first - g->lane; kb < total; kb += stride) {
        PHASE(PH_WORKID);
        uint32_t n = total - kb < g->T ? total - kb : g->T, v = 0;
        float x = 0.0f;
        if (g->lane < n) {
            uint32_t eid;
            locate(at, kb + g->lane, &v, &eid);
            PHASE(PH_EDGE);
            uint32_t src = c->nbr[eid];
            PHASE(PH_GATHER);
            x = algo_gather_f32(c, src);
        }
        gr_pull_sum_run(c, g->lane, g->T, n, v, x);
    }
#else
    for (uint32_t k = first; k < total; k += stride) {
        PHASE(PH_WORKID);
        uint32_t v, eid;
        locate(at, k, &v, &eid);
        gr_edge(c, v, eid, check_base);
    }
#endif
}

/* Items are base vertices' edges in prefix order: entry j of vid/loc/pfx (n entries, pfx
 * non-decreasing, exclusive prefixes of the degrees) owns items pfx[j] .. pfx[j+1]-1;
 * a binary search finds it. WM, CM (local memory) and STRICT (global). */
typedef struct { const uint32_t *vid, *loc, *pfx; uint32_t n; } gr_prefix_items;

GR_INLINE void gr_locate_prefix(const void *at, uint32_t k, uint32_t *base, uint32_t *eid) {
    const gr_prefix_items *a = at;
    uint32_t j = gr_search(a->pfx, 0, a->n, k);
    *base = a->vid[j];
    *eid = a->loc[j] + k - a->pfx[j];
}

/* Items are the edges of one vertex. */
typedef struct { uint32_t v, loc; } gr_vertex_items;

GR_INLINE void gr_locate_vertex(const void *at, uint32_t k, uint32_t *base, uint32_t *eid) {
    const gr_vertex_items *a = at;
    *base = a->v;
    *eid = a->loc + k;
}

/* gr_walk by a thread alone (first = 0, stride = 1), the threads of a warp (lane, T) or of a
 * block (btid, B); a warp's lanes walk the same vertex. GR_PULL_SUM, warp or block: by rounds
 * of the warp with the reduction (all the warp's lanes hold edges of v); otherwise gr_walk. */
GR_INLINE void gr_walk_group(const gr_ctx *c, const gr_geo *g, uint32_t v, uint32_t loc, uint32_t deg,
                             uint32_t first, uint32_t stride) {
#if GR_PULL_SUM
    if (stride > 1) {
        gr_vertex_items at = { v, loc };
        gr_distribute(c, g, first, deg, stride, gr_locate_vertex, &at, 0);
        return;
    }
#endif
    gr_walk(c, v, loc, deg, first, stride);
}

#endif
