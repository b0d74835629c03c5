/* edge_values.h - the normalised adjacency as values, one per in-edge of A + I:
 * val[e] = 1/sqrt(deg(src[e]) deg(dst[e])), computed edge-parallel before GraphSum by the
 * designs that read a sparse matrix with values (Accel-GCN, BiKD: their papers take Â
 * as given, as DGL and PyG compute it), and a thread's sum over a run of such edges. */
#ifndef GCN_EDGE_VALUES_H
#define GCN_EDGE_VALUES_H

static void gcn_edge_values_kernel(uint32_t hart, void *arg) {
    float *val = arg;
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_REG, &g);
    for (uint32_t e = g.gtid; e < L.E; e += g.nthreads)
        val[e] = gcn_coefficient(gcn_degree(&L, L.src[e]), gcn_degree(&L, L.dst[e]));
    PHASE(GCN_PH_OTHER);
}

/* One column of Â H over edges [e, end) of a destination: sum of val[e] H[src[e]][col]. */
static inline float gcn_edge_values_sum(const gcn_t *L, const float *val, uint32_t e, uint32_t end, uint32_t col) {
    float sum = 0.0f;
    for (; e < end; e++) {
        PHASE(GCN_PH_WORKID);
        PHASE(GCN_PH_EDGE);
        uint32_t s = L->src[e];
        float a = val[e];
        PHASE(GCN_PH_GATHER);
        sum += a * L->h[s * L->F + col];
    }
    return sum;
}

#endif
