/* edge_values.h - the normalised adjacency as values, one per in-edge of A + I:
 * val[e] = 1/sqrt(deg(src[e]) deg(dst[e])), computed edge-parallel before GraphSum by the
 * designs that read a sparse matrix with values (Accel-GCN, BiKD: their papers take Â
 * as given, as DGL and PyG compute it). */
#ifndef GCN_EDGE_VALUES_H
#define GCN_EDGE_VALUES_H

static void gcn_edge_values_kernel(uint32_t hart, void *arg) {
    PHASE(GCN_PH_REG);
    float *val = arg;
    gr_geo g = gr_geometry();
    gcn_t L = gcn_layer();
    for (uint32_t e = g.gtid; e < L.E; e += g.nthreads)
        val[e] = gcn_coefficient(gcn_degree(&L, L.src[e]), gcn_degree(&L, L.dst[e]));
    PHASE(GCN_PH_OTHER);
}

#endif
