/* VM by weight (dissertation 4.6.9, the baseline of Figure 4.19): VM's mapping turned to
 * the feature dimension first, then the vertices. SpMM: spmm_by_weight.h. GraphSum: thread
 * (column k, destination d) walks d's in-edges and sums coefficient x H[s][k] itself, so
 * no atomics; every one of d's F threads computes each edge's coefficient
 * 1/sqrt(deg(s) deg(d)) again (the cost SparseWeaver saves, by the dissertation). */
#define GCN_KERNEL GR_VM
#define GCN_SCRATCH_PER_VERTEX 0u
#define GCN_SCRATCH_PER_EDGE 0u
#define GCN_SCRATCH_FIXED 0u

#include "spmm_by_weight.h"

static const char *gcn_check(const gcn_t *L, const gr_geo *g) { return 0; }

static void vm_graphsum_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_INIT, &g);
    for (gcn_grid it = gcn_grid_start(g.gtid, g.nthreads, L.F); it.row < L.V; gcn_grid_next(&it, L.F)) {
        PHASE(GCN_PH_WORKID);
        uint32_t d = it.row, begin = L.off[d], end = L.off[d + 1];
        float acc = 0.0f;
        for (uint32_t e = begin; e < end; e++) {
            PHASE(GCN_PH_WORKID);
            PHASE(GCN_PH_EDGE);
            uint32_t s = L.src[e];
            PHASE(GCN_PH_GATHER);
            acc += gcn_coefficient(gcn_degree(&L, s), end - begin) * L.h[s * L.F + it.col];
        }
        L.out[d * L.F + it.col] = acc;
    }
    PHASE(GCN_PH_OTHER);
}

static void gcn_graphsum(const gcn_t *L, const gr_geo *g) { gcn_launch(vm_graphsum_kernel, 0); }
