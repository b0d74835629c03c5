/* GNNAdvisor (Wang et al., OSDI 2021; seeds/gnnadvisor.txt), GraphSum:
 * - coarse-grained neighbour partitioning (4.1): each destination's in-edges are cut into
 *   neighbour groups of ngs edges, a group the unit of work of one warp;
 * - fine-grained dimension partitioning (4.2): dw lanes of the warp (dimension workers)
 *   share the feature dimension, dw = T when F >= T, else T/2 (equation 6);
 * - warp-based thread alignment (4.3): a warp takes one group, its lanes different
 *   columns (coalesced rows of H);
 * - warp-aware memory customisation (5.2, Algorithm 1): the warps of a CTA whose groups
 *   have the same target add into one shared-memory slot of F floats, and the first of
 *   them (the leader) adds the slot to the output with one global atomic per column.
 * Preprocessing (GCN_PH_REG, before GraphSum): per-vertex norms 1/sqrt(deg), as the
 * released code keeps them (a coefficient is the product of two), and the groups: a
 * count per vertex, a machine-wide scan, a fill (the paper's neighbour-partitioning
 * module runs on the host). Parameters: ngs = the mean degree of A + I, at most 32 (the
 * released code's auto mode and its MAX_NB), CTAs of 4 warps (tpb = 128, the paper's
 * 32..128), dw by equation 6. Not modelled: Rabbit reordering (5.1; the graphs keep their
 * ids). SpMM: spmm_by_weight.h. */
#define GCN_KERNEL GR_GNNADVISOR
#define GCN_PREPARES 1
/* norm, a vertex's first group; a group's target and first edge (at most V + E groups) */
#define GCN_SCRATCH_PER_VERTEX 4u
#define GCN_SCRATCH_PER_EDGE 2u
#define GCN_SCRATCH_FIXED 0u

#include "scan.h"
#include "spmm_by_weight.h"

#define GNA_MAX_NGS 32u
#define GNA_WARPS_PER_CTA 4u

typedef struct {
    uint32_t ngs, dw, wpb;
    uint32_t words;         /* local memory of a CTA: wpb slots of F, wpb x ngs ids and coefficients */
    float *norm;            /* V */
    uint32_t *start;        /* V: the group count, then (scanned) the first group */
    uint32_t *node, *begin; /* per group: target, first edge */
} gna_t;

static inline gna_t gna_params(const gcn_t *L, const gr_geo *g) {
    gna_t P;
    uint32_t mean = L->E / L->V;
    P.ngs = mean < 1 ? 1 : mean > GNA_MAX_NGS ? GNA_MAX_NGS : mean;
    P.dw = L->F >= g->T || g->T == 1 ? g->T : g->T / 2;
    P.wpb = g->W < GNA_WARPS_PER_CTA ? g->W : GNA_WARPS_PER_CTA;
    P.words = P.wpb * (L->F + 2 * P.ngs);
    uint32_t *s = L->scratch + GCN_SCRATCH_COMMON;
    P.norm = (float *)s;
    P.start = s + L->V;
    P.node = s + 2 * L->V;
    P.begin = P.node + L->V + L->E;
    return P;
}

static const char *gcn_check(const gcn_t *L, const gr_geo *g) {
    gna_t P = gna_params(L, g);
    return gcn_slots(g, P.wpb, P.words) ? 0 : "GNNAdvisor's CTA needs more local memory than the core has";
}

static void gna_count_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_REG, &g);
    gna_t P = gna_params(&L, &g);
    for (uint32_t v = g.gtid; v < L.V; v += g.nthreads) {
        uint32_t d = gcn_degree(&L, v);
        P.start[v] = (d + P.ngs - 1) / P.ngs;
        P.norm[v] = 1.0f / gcn_sqrt((float)d);
    }
    PHASE(GCN_PH_OTHER);
}

/* Edge e starts a group when it is a multiple of ngs into its destination's edges. */
static void gna_fill_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_REG, &g);
    gna_t P = gna_params(&L, &g);
    for (uint32_t e = g.gtid; e < L.E; e += g.nthreads) {
        uint32_t d = L.dst[e], k = e - L.off[d], q = k / P.ngs;
        if (q * P.ngs == k) {
            P.node[P.start[d] + q] = d;
            P.begin[P.start[d] + q] = e;
        }
    }
    PHASE(GCN_PH_OTHER);
}

static void gcn_prepare(const gcn_t *L, const gr_geo *g) {
    gcn_launch(gna_count_kernel, 0);
    gna_t P = gna_params(L, g);
    gcn_scan(P.start, L->V); /* the group count is left in *gcn_scan_sum() */
    gcn_launch(gna_fill_kernel, 0);
}

static void gna_graphsum_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_INIT, &g);
    gna_t P = gna_params(&L, &g);
    gcn_cta c;
    if (gcn_cta_enter(&c, &g, P.wpb, gcn_slots(&g, P.wpb, P.words), P.words)) {
        float *slots = (float *)c.shared;
        uint32_t *ids = c.shared + P.wpb * L.F + c.warp * P.ngs;
        float *coefs = (float *)(c.shared + P.wpb * (L.F + P.ngs)) + c.warp * P.ngs;
        uint32_t groups = *gcn_scan_sum(), ctas = (groups + P.wpb - 1) / P.wpb;
        for (;;) {
            PHASE(GCN_PH_WORKID);
            uint32_t cta = gcn_cta_next(&c, L.scratch);
            if (cta >= ctas)
                break;
            /* Algorithm 1: the CTA's warps take consecutive groups; a warp's slot counts
             * the target changes from the CTA's first group, and the first warp of a
             * target is its leader. */
            uint32_t first = cta * P.wpb, grp = first + c.warp;
            uint32_t node = 0, begin = 0, n = 0, slot = 0;
            int leader = 0;
            if (grp < groups) {
                node = P.node[grp];
                begin = P.begin[grp];
                uint32_t end = begin + P.ngs, last = L.off[node + 1];
                n = (end < last ? end : last) - begin;
                for (uint32_t q = first + 1; q <= grp; q++)
                    slot += P.node[q] != P.node[q - 1];
                leader = grp == first || P.node[grp - 1] != node;
            }
            gr_converge();
            PHASE(GCN_PH_EDGE);
            float *acc = slots + slot * L.F;
            if (leader)
                for (uint32_t k = g.lane; k < L.F; k += g.T)
                    acc[k] = 0.0f;
            float norm = n ? P.norm[node] : 0.0f;
            for (uint32_t i = g.lane; i < n; i += g.T) {
                uint32_t s = L.src[begin + i];
                ids[i] = s;
                coefs[i] = norm * P.norm[s];
            }
            gcn_cta_sync(&c);
            PHASE(GCN_PH_GATHER);
            if (g.lane < P.dw) {
                for (uint32_t k = g.lane; k < L.F; k += P.dw) {
                    float sum = 0.0f;
                    for (uint32_t i = 0; i < n; i++)
                        sum += coefs[i] * L.h[ids[i] * L.F + k];
                    if (n)
                        atomic_add_f32(&acc[k], sum);
                }
            }
            gcn_cta_sync(&c);
            if (leader)
                for (uint32_t k = g.lane; k < L.F; k += g.T)
                    atomic_add_f32(&L.out[node * L.F + k], acc[k]);
        }
    }
    PHASE(GCN_PH_OTHER);
}

static void gcn_graphsum(const gcn_t *L, const gr_geo *g) { gcn_launch(gna_graphsum_kernel, 0); }
