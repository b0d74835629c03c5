/* rt.h - what every GCN kernel shares: the layer as a kernel sees it, the normalisation,
 * the (column, row) grid of the by-weight mappings, CTAs on wsim (groups of a core's
 * warps with their share of local memory, a local barrier, and dynamic dispatch), and the
 * split of rows among cores. Built on the graph framework's runtime (geometry, launches,
 * scans, searches: programs/graph/runtime.h). docs/GCN.md describes the kernels.
 */
#ifndef GCN_RT_H
#define GCN_RT_H

#include "runtime.h"
#include "gcn.h"

extern wsim_gcn_t wsim_gcn;

/* The layer. Edges are A + I's in-edges (CSC): destination d's are off[d] .. off[d+1]-1,
 * from sources src[e]; dst[e] is edge e's destination. deg(v) = off[v+1] - off[v]. */
typedef struct {
    uint32_t V, E, F;
    const uint32_t *off, *src, *dst;
    const uint32_t *x_off, *x_col;
    const float *x_val, *w;
    float *h, *out;
    uint32_t *scratch;
} gcn_t;

static inline gcn_t gcn_layer(void) {
    const wsim_graph_t *g = &wsim_graph;
    const wsim_gcn_t *l = &wsim_gcn;
    gcn_t L = {
        .V = g->num_vertices, .E = g->num_edges, .F = l->features,
        .off = g->in_offsets, .src = g->in_sources, .dst = g->in_dests,
        .x_off = l->x_offsets, .x_col = l->x_columns, .x_val = l->x_values, .w = l->weights,
        .h = l->hidden, .out = l->output, .scratch = g->scratch,
    };
    return L;
}

/* A kernel's start: its phase, where the thread is, and the layer. */
static inline gcn_t gcn_enter(uint32_t phase, gr_geo *g) {
    PHASE(phase);
    *g = gr_geometry();
    return gcn_layer();
}

/* Run `kernel` on every hardware thread with `arg` (a launch: returns when all are done). */
static inline void gcn_launch(wsim_kernel_t kernel, const void *arg) {
    wsim_spawn(vx_num_cores() * vx_num_warps() * vx_num_threads(), kernel, (void *)arg);
}

/* Scratch every kernel has first: two CTA dispatch counters, then the scan's per-core
 * totals (scan.h). A kernel's own arrays follow GCN_SCRATCH_COMMON words. */
#define GCN_SCRATCH_COUNTERS 2u
#define GCN_SCRATCH_COMMON (GCN_SCRATCH_COUNTERS + 1u + WSIM_MAX_CORES)

/* ---- normalisation: 1 / sqrt(deg(s) deg(d)) ---- */
static inline float gcn_sqrt(float x) {
    float r;
    __asm__ ("fsqrt.s %0, %1" : "=f"(r) : "f"(x));
    return r;
}

static inline uint32_t gcn_degree(const gcn_t *L, uint32_t v) { return L->off[v + 1] - L->off[v]; }

static inline float gcn_coefficient(uint32_t ds, uint32_t dd) {
    return 1.0f / gcn_sqrt((float)ds * (float)dd);
}

/* ---- the (column, row) grid: threads over the feature dimension first, then rows ----
 * Thread `first` of `stride` takes items first, first + stride, ... of rows x F, item i
 * being (row i / F, column i % F); stepping needs no division. */
typedef struct { uint32_t row, col, drow, dcol; } gcn_grid;

static inline gcn_grid gcn_grid_start(uint32_t first, uint32_t stride, uint32_t F) {
    gcn_grid it = { first / F, first % F, stride / F, stride % F };
    return it;
}

static inline void gcn_grid_next(gcn_grid *it, uint32_t F) {
    it->col += it->dcol;
    it->row += it->drow;
    if (it->col >= F) {
        it->col -= F;
        it->row++;
    }
}

/* ---- CTAs ----
 * CUDA's thread block has no wsim counterpart but a core's warps, which all share one
 * local memory. A CTA here is `wpc` consecutive warps of a core; a core runs as many at
 * once as its warps and local memory hold (slots), each with its share of local memory
 * and its own local barrier. The hardware block scheduler, which hands the next CTA of
 * the grid to whichever SM frees a slot, becomes a global counter: a slot's first thread
 * takes the next CTA index with one amoadd and the CTA's warps read it from local memory
 * after the slot's barrier (a one-warp CTA: a shuffle instead). The barrier also makes
 * the slot's warps finish a CTA together before the next starts, as a block's do. */
#define GCN_BAR 2u /* a slot's barrier is GCN_BAR + slot (the runtime has 0, the Weaver 1) */

typedef struct {
    uint32_t wpc;       /* warps per CTA */
    uint32_t warp;      /* this warp in the CTA */
    uint32_t tid;       /* this thread in the CTA */
    uint32_t threads;   /* threads per CTA */
    uint32_t bar;       /* the slot's local barrier */
    uint32_t round;     /* CTAs dispatched to the slot so far */
    uint32_t *dispatch; /* the slot's two dispatch words (alternating: a warp may still be
                         * reading one when the next CTA's index is written) */
    uint32_t *shared;   /* the CTA's local memory */
} gcn_cta;

#define GCN_DISPATCH_WORDS 2u

/* CTA slots of a core for CTAs of `wpc` warps needing `words` words of local memory each:
 * as many as the warps and local memory hold (0: none fits). */
static inline uint32_t gcn_slots(const gr_geo *g, uint32_t wpc, uint32_t words) {
    uint32_t by_warps = g->W / wpc;
    uint32_t by_memory = wsim_gcn.local_bytes / (4 * (words + GCN_DISPATCH_WORDS));
    return by_warps < by_memory ? by_warps : by_memory;
}

/* This warp's CTA slot; 0 when the warp is beyond the core's `slots` (it has no work). */
static inline int gcn_cta_enter(gcn_cta *c, const gr_geo *g, uint32_t wpc, uint32_t slots, uint32_t words) {
    uint32_t slot = g->warp / wpc;
    if (slot >= slots)
        return 0;
    c->wpc = wpc;
    c->warp = g->warp % wpc;
    c->tid = c->warp * g->T + g->lane;
    c->threads = wpc * g->T;
    c->bar = GCN_BAR + slot;
    c->round = 0;
    c->dispatch = (uint32_t *)vx_local_mem() + slot * (words + GCN_DISPATCH_WORDS);
    c->shared = c->dispatch + GCN_DISPATCH_WORDS;
    return 1;
}

/* The CTA's warps meet: local memory written before is seen after. */
static inline void gcn_cta_sync(const gcn_cta *c) {
    gr_converge();
    if (c->wpc > 1)
        vx_barrier(c->bar, c->wpc);
}

/* The next CTA index of the grid `counter` counts out; every warp of the CTA calls it and
 * gets the same index. */
static inline uint32_t gcn_cta_next(gcn_cta *c, uint32_t *counter) {
    uint32_t mine = 0;
    if (c->tid == 0)
        mine = __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
    gr_converge();
    if (c->wpc == 1)
        return vx_shfl_idx(mine, 0, vx_num_threads());
    uint32_t *word = &c->dispatch[c->round++ & 1];
    if (c->tid == 0)
        *word = mine;
    gcn_cta_sync(c);
    return *word;
}

/* ---- rows split among cores ----
 * Where core k of C starts among the n rows of `off` (V + 1 offsets): contiguous ranges
 * of equal nonzero counts (a binary search of the offsets), as the graph framework's
 * SparseWeaver schedule splits its vertices. */
static inline uint32_t gcn_split(const uint32_t *off, uint32_t n, uint32_t k, uint32_t C) {
    if (k == 0 || k == C)
        return k ? n : 0;
    uint32_t total = off[n] - off[0]; /* k * total / C without 64-bit division */
    return gr_search(off, 0, n + 1, off[0] + total / C * k + total % C * k / C);
}

#endif
