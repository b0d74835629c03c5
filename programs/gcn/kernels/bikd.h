/* BiKD (Kim et al., IEEE Access; seeds/bikd.txt), GraphSum as its aggregation of Â
 * (values precomputed, edge_values.h) with H:
 * - CTA-level vertex mapping (section III): a CTA per destination, its threads over a
 *   slab of feature columns (cta_size a multiple of the warp), so a CTA's warps finish
 *   together and the next CTA takes the slot;
 * - feature partitioning (IV.A): F cut into slabs of cta_size columns, a kernel each;
 * - graph partitioning (IV.B, graph binning): the sources cut into ranges of R vertices
 *   whose slab of H is 1-2x the L2 (the paper's best; R a power of two), a subgraph per
 *   range: for every destination with in-edges from the range, an entry {destination,
 *   first edge, end} (a destination's in-edges are sorted by source, so its edges from
 *   one range are consecutive);
 * - bidirectional decomposition (IV.C, Algorithms 3 and 4): one launch per (subgraph,
 *   slab), subgraph by subgraph; a CTA preloads its destination's partial output, adds
 *   its entry's edges and stores once: no atomics.
 * Preprocessing (GCN_PH_REG): the values; the entries, counted per subgraph (atomics over
 * the edges that start a run), scanned, and filled (an atomic cursor per subgraph, a
 * binary search for the run's end). Entries keep the edges where the CSR has them
 * (BiKD copies each subgraph's into its own CSR). cta_size: F rounded up to warps, at
 * most 4 warps (128 threads at T = 32); the L2 size comes from the descriptor. SpMM:
 * spmm_by_weight.h. */
#define GCN_KERNEL GR_BIKD
#define GCN_PREPARES 1
/* per subgraph (at most V): entry count (scanned: first entry) and cursor; per edge: the
 * value and an entry of 3 words (at most one entry per edge) */
#define GCN_SCRATCH_PER_VERTEX 2u
#define GCN_SCRATCH_PER_EDGE 4u
#define GCN_SCRATCH_FIXED 0u

#include "edge_values.h"
#include "scan.h"
#include "spmm_by_weight.h"

#define BIKD_MAX_CTA_WARPS 4u

typedef struct {
    uint32_t wpc, cta_size, slabs; /* warps and threads of a CTA; F / cta_size, rounded up */
    uint32_t shift, subgraphs;     /* sources per subgraph: 1 << shift; subgraphs */
    float *val;
    uint32_t *start, *cursor;      /* per subgraph */
    uint32_t *entries;             /* 3 per entry */
} bikd_t;

static inline bikd_t bikd_params(const gcn_t *L, const gr_geo *g) {
    bikd_t P;
    uint32_t warps = (L->F + g->T - 1) / g->T;
    P.wpc = warps < BIKD_MAX_CTA_WARPS ? warps : BIKD_MAX_CTA_WARPS;
    if (P.wpc > g->W)
        P.wpc = g->W;
    P.cta_size = P.wpc * g->T;
    P.slabs = (L->F + P.cta_size - 1) / P.cta_size;
    /* A slab's row of H is at most cta_size floats (F when narrower); without an L2, one
     * subgraph. */
    uint32_t row_bytes = 4 * (L->F < P.cta_size ? L->F : P.cta_size);
    uint32_t fill = wsim_gcn.l2_bytes ? wsim_gcn.l2_bytes / row_bytes : L->V;
    P.shift = 0;
    while ((1u << P.shift) < fill && (1u << P.shift) < L->V)
        P.shift++;
    P.subgraphs = ((L->V - 1) >> P.shift) + 1;
    uint32_t *s = L->scratch + GCN_SCRATCH_COMMON;
    P.val = (float *)s;
    P.start = s + L->E;
    P.cursor = P.start + L->V;
    P.entries = P.cursor + L->V;
    return P;
}

static const char *gcn_check(const gcn_t *L, const gr_geo *g) {
    bikd_t P = bikd_params(L, g);
    return gcn_slots(g, P.wpc, 0) ? 0 : "BiKD's CTAs need local memory for their dispatch";
}

/* The entries' two passes over the edges that start a run (arg 0: count them per
 * subgraph; 1: after the scan, write each entry: its end found by a binary search for the
 * first source beyond its range). */
static void bikd_runs_kernel(uint32_t hart, void *arg) {
    int fill = (uintptr_t)arg;
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_REG, &g);
    bikd_t P = bikd_params(&L, &g);
    for (uint32_t e = g.gtid; e < L.E; e += g.nthreads) {
        uint32_t r = L.src[e] >> P.shift, d = L.dst[e];
        if (e != L.off[d] && L.src[e - 1] >> P.shift == r)
            continue;
        if (!fill) {
            __atomic_fetch_add(&P.start[r], 1, __ATOMIC_RELAXED);
            continue;
        }
        uint32_t row_end = L.off[d + 1], limit = (r + 1) << P.shift;
        uint32_t end = limit <= L.src[row_end - 1] ? gr_search(L.src, e, row_end, limit - 1) + 1 : row_end;
        uint32_t *entry = P.entries + 3 * (P.start[r] + __atomic_fetch_add(&P.cursor[r], 1, __ATOMIC_RELAXED));
        entry[0] = d;
        entry[1] = e;
        entry[2] = end;
    }
    PHASE(GCN_PH_OTHER);
}

static void gcn_prepare(const gcn_t *L, const gr_geo *g) {
    bikd_t P = bikd_params(L, g);
    gcn_launch(gcn_edge_values_kernel, P.val);
    gcn_launch(bikd_runs_kernel, (void *)0);
    gcn_scan(P.start, P.subgraphs); /* the entry count is left in *gcn_scan_sum() */
    gcn_launch(bikd_runs_kernel, (void *)1);
}

/* Launch n: subgraph n / slabs, slab n % slabs. Its CTAs are counted out by counter
 * n & 1; the launch clears the other for the next. */
static void bikd_kernel(uint32_t hart, void *arg) {
    uint32_t n = (uintptr_t)arg;
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_INIT, &g);
    bikd_t P = bikd_params(&L, &g);
    if (g.gtid == 0)
        L.scratch[(n + 1) & 1] = 0;
    gcn_cta c;
    if (gcn_cta_enter(&c, &g, P.wpc, gcn_slots(&g, P.wpc, 0), 0)) {
        uint32_t sub = n / P.slabs, F = L.F, col = (n - sub * P.slabs) * P.cta_size + c.tid;
        uint32_t first = P.start[sub];
        uint32_t last = sub + 1 < P.subgraphs ? P.start[sub + 1] : *gcn_scan_sum();
        for (;;) {
            PHASE(GCN_PH_WORKID);
            uint32_t k = gcn_cta_next(&c, &L.scratch[n & 1]);
            if (k >= last - first)
                break;
            const uint32_t *entry = P.entries + 3 * (first + k);
            uint32_t v = entry[0], e = entry[1], end = entry[2];
            if (col < F) {
                PHASE(GCN_PH_GATHER);
                float preload = L.out[v * F + col];
                L.out[v * F + col] = gcn_edge_values_sum(&L, P.val, e, end, col) + preload;
            }
            gr_converge();
        }
    }
    PHASE(GCN_PH_OTHER);
}

static void gcn_graphsum(const gcn_t *L, const gr_geo *g) {
    bikd_t P = bikd_params(L, g);
    for (uint32_t n = 0; n < P.subgraphs * P.slabs; n++)
        gr_launch(bikd_kernel, n);
}
