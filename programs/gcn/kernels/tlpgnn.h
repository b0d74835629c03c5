/* TLPGNN (Fu, Ji, Huang, HPDC 2022; seeds/tlpgnn.txt), GraphSum:
 * - two-level parallelism (section 4): a warp per destination (vertex parallelism, no
 *   atomics), its lanes over the feature dimension (feature parallelism), the loop
 *   edge-then-feature: each edge's row of H is read by consecutive lanes;
 * - kernel fusion and register caching (section 6): the coefficient is computed in the
 *   aggregation (no separate normalisation pass, no preprocessing), the row's bounds and
 *   the sums stay in registers and each column is stored once;
 * - hybrid dynamic workload assignment (section 5): software mode (persistent warps
 *   taking `step` vertices from a global counter) when V > 1M or the mean degree > 50,
 *   otherwise hardware mode (a grid of one warp per vertex in blocks whose warps the
 *   hardware schedules as a unit).
 * On wsim both modes draw from a counter (rt.h's CTAs; wsim has no hardware block
 * scheduler): hardware mode per block of 4 warps (the released code's block), whose
 * warps then wait for each other as a block's do; software mode per warp, step 1 (the
 * released code's). A lane keeps TLP_REGS sums; F > T x TLP_REGS takes more passes over
 * the edges. SpMM: spmm_by_weight.h. */
#define GCN_KERNEL GR_TLPGNN
#define GCN_SCRATCH_PER_VERTEX 0u
#define GCN_SCRATCH_PER_EDGE 0u
#define GCN_SCRATCH_FIXED 0u

#include "spmm_by_weight.h"

#define TLP_REGS 4u
#define TLP_HW_WARPS_PER_BLOCK 4u
#define TLP_SW_MIN_VERTICES 1000000u
#define TLP_SW_MIN_MEAN_DEGREE 50u

/* Warps per CTA: one in software mode (each warp takes its own vertices). */
static inline uint32_t tlp_warps_per_cta(const gcn_t *L, const gr_geo *g) {
    int software = L->V > TLP_SW_MIN_VERTICES || L->E > TLP_SW_MIN_MEAN_DEGREE * L->V;
    if (software)
        return 1;
    return g->W < TLP_HW_WARPS_PER_BLOCK ? g->W : TLP_HW_WARPS_PER_BLOCK;
}

static const char *gcn_check(const gcn_t *L, const gr_geo *g) {
    return gcn_slots(g, tlp_warps_per_cta(L, g), 0) ? 0 : "TLPGNN's blocks need local memory for their dispatch";
}

static void tlp_graphsum_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_INIT, &g);
    uint32_t wpc = tlp_warps_per_cta(&L, &g), F = L.F;
    gcn_cta c;
    if (gcn_cta_enter(&c, &g, wpc, gcn_slots(&g, wpc, 0), 0)) {
        for (;;) {
            PHASE(GCN_PH_WORKID);
            uint32_t d = gcn_cta_next(&c, L.scratch) * wpc + c.warp;
            if (d - c.warp >= L.V)
                break;
            if (d < L.V) {
                uint32_t begin = L.off[d], end = L.off[d + 1];
                for (uint32_t base = 0; base < F; base += TLP_REGS * g.T) {
                    float sum[TLP_REGS] = { 0.0f };
                    for (uint32_t e = begin; e < end; e++) {
                        PHASE(GCN_PH_WORKID);
                        PHASE(GCN_PH_EDGE);
                        uint32_t s = L.src[e];
                        PHASE(GCN_PH_GATHER);
                        float a = gcn_coefficient(gcn_degree(&L, s), end - begin);
                        const float *hs = L.h + s * F;
#pragma unroll
                        for (uint32_t r = 0; r < TLP_REGS; r++) {
                            uint32_t col = base + r * g.T + g.lane;
                            if (col < F)
                                sum[r] += a * hs[col];
                        }
                    }
#pragma unroll
                    for (uint32_t r = 0; r < TLP_REGS; r++) {
                        uint32_t col = base + r * g.T + g.lane;
                        if (col < F)
                            L.out[d * F + col] = sum[r];
                    }
                }
            }
            gr_converge();
        }
    }
    PHASE(GCN_PH_OTHER);
}

static void gcn_graphsum(const gcn_t *L, const gr_geo *g) { gcn_launch(tlp_graphsum_kernel, 0); }
