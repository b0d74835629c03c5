/* SparseWeaver (dissertation 4.6.9): both kernels edge-parallel through the Weaver unit,
 * each lane looping over the feature dimension with atomic adds. SpMM: X's rows are
 * registered (WEAVER_REG) and their nonzeros distributed (WEAVER_DEC_ID/DEC_LOC); the
 * lane holding nonzero x[v][j] adds x[v][j] W[j][k] to H[v][k] for every k. GraphSum:
 * the destinations are registered and their in-edges distributed; the lane holding edge
 * s -> d computes the coefficient once and adds coefficient x H[s][k] to out[d][k] for
 * every k. Each core takes a contiguous range of rows with an equal share of the
 * nonzeros (gcn_split) and walks it in chunks of its table (weaver_process, weaver.h).
 * Built with WEAVER_EGHW: the comparison hardware, which also reads the rows' extents and
 * the nonzeros or edges itself (eghw.h). */
#include "weaver.h"

#ifndef GCN_KERNEL
#define GCN_KERNEL GR_SPARSEWEAVER
#endif
#define GCN_SCRATCH_PER_VERTEX 0u
#define GCN_SCRATCH_PER_EDGE 0u
#define GCN_SCRATCH_FIXED 0u

static const char *gcn_check(const gcn_t *L, const gr_geo *g) { return 0; }

/* Registration of row i of the CSR `off`: its first entry and length (EGHW: the unit
 * reads them; the row is registered by id alone). */
static inline uint32_t sw_row(const uint32_t *off, uint32_t i, uint32_t *vid, uint32_t *loc) {
    *vid = i;
#ifdef WEAVER_EGHW
    *loc = 0;
    return 1;
#else
    *loc = off[i];
    return off[i + 1] - off[i];
#endif
}

static uint32_t sw_spmm_row(uint32_t i, uint32_t *vid, uint32_t *loc, void *ctx) {
    const gcn_t *L = ctx;
    return sw_row(L->x_off, i, vid, loc);
}

static int sw_spmm_nonzero(uint32_t v, uint32_t j, void *ctx) {
    const gcn_t *L = ctx;
#ifdef WEAVER_EGHW
    struct weaver_edge e = weaver_eghw_edge();
    union { uint32_t u; float f; } x = { .u = e.weight };
    uint32_t col = e.neighbour;
    float value = x.f;
#else
    uint32_t col = L->x_col[j];
    float value = L->x_val[j];
#endif
    float *hv = L->h + v * L->F;
    const float *wj = L->w + col * L->F;
    for (uint32_t k = 0; k < L->F; k++)
        atomic_add_f32(&hv[k], value * wj[k]);
    return 0;
}

/* One kernel's pass: every core walks its share of the rows of `off` through the unit
 * (EGHW: after pointing it at the rows, their entries and the entries' values). */
static void sw_pass(gcn_t *L, const gr_geo *g, const uint32_t *off, const uint32_t *entries, const uint32_t *values,
                    weaver_vertex_fn row, weaver_edge_fn entry) {
#ifdef WEAVER_EGHW
    weaver_eghw_setup(off, entries, values);
#endif
    weaver_process(gcn_split(off, L->V, g->core, g->C), gcn_split(off, L->V, g->core + 1, g->C), row, entry, L);
    PHASE(GCN_PH_OTHER);
}

static void sw_spmm_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_SPMM, &g);
    sw_pass(&L, &g, L.x_off, L.x_col, (const uint32_t *)L.x_val, sw_spmm_row, sw_spmm_nonzero);
}

static void gcn_spmm(const gcn_t *L, const gr_geo *g) { gcn_launch(sw_spmm_kernel, 0); }

static uint32_t sw_destination(uint32_t i, uint32_t *vid, uint32_t *loc, void *ctx) {
    PHASE(GCN_PH_REG);
    const gcn_t *L = ctx;
    return sw_row(L->off, i, vid, loc);
}

static int sw_in_edge(uint32_t d, uint32_t e, void *ctx) {
    const gcn_t *L = ctx;
    PHASE(GCN_PH_EDGE);
#ifdef WEAVER_EGHW
    uint32_t s = weaver_eghw_edge().neighbour;
#else
    uint32_t s = L->src[e];
#endif
    PHASE(GCN_PH_GATHER);
    float c = gcn_coefficient(gcn_degree(L, s), gcn_degree(L, d));
    float *od = L->out + d * L->F;
    const float *hs = L->h + s * L->F;
    for (uint32_t k = 0; k < L->F; k++)
        atomic_add_f32(&od[k], c * hs[k]);
    PHASE(GCN_PH_WORKID);
    return 0;
}

static void sw_graphsum_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_INIT, &g);
    sw_pass(&L, &g, L.off, L.src, 0, sw_destination, sw_in_edge);
}

static void gcn_graphsum(const gcn_t *L, const gr_geo *g) { gcn_launch(sw_graphsum_kernel, 0); }
