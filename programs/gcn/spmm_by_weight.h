/* spmm_by_weight.h - SpMM (H = X W) by weight: the threads run over H's (column, row)
 * items, feature dimension first, and each walks its row's nonzeros of X for its column
 * and stores the sum: no atomics (the dissertation's "VM parallelized by weight"). The
 * four GNN designs use it as well: their papers are about the aggregation and leave the
 * feature transformation to a library GEMM. */
#ifndef GCN_SPMM_BY_WEIGHT_H
#define GCN_SPMM_BY_WEIGHT_H

static void spmm_by_weight_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_SPMM, &g);
    for (gcn_grid it = gcn_grid_start(g.gtid, g.nthreads, L.F); it.row < L.V; gcn_grid_next(&it, L.F)) {
        float acc = 0.0f;
        for (uint32_t j = L.x_off[it.row]; j < L.x_off[it.row + 1]; j++)
            acc += L.x_val[j] * L.w[L.x_col[j] * L.F + it.col];
        L.h[it.row * L.F + it.col] = acc;
    }
    PHASE(GCN_PH_OTHER);
}

static void gcn_spmm(const gcn_t *L, const gr_geo *g) { gcn_launch(spmm_by_weight_kernel, 0); }

#endif
