/* Accel-GCN (Xie, Peng et al., ICCAD 2023; seeds/accel-gcn.txt), GraphSum as its SpMM of
 * Â (values precomputed, edge_values.h) with H:
 * - degree sorting: the rows (destinations) counting-sorted by degree into `perm`;
 * - block-level partition (Algorithms 1 and 2): a CTA of mbw warps takes rows of one
 *   degree, f warps per row (f the smallest factor of mbw with f x 32 >= deg), mbw / f
 *   rows per block; a row longer than deg_bound = mbw x 32 is split over blocks of
 *   deg_bound nonzeros; one 4-word metadata record per block {deg, row, loc, info};
 * - combined warps: c = ceil(F / T) warps act as one logical warp covering a whole row of
 *   H (round_dim = c T lanes), the CTA's mbw warps giving mbw logical warps over c rounds;
 * - accumulation on three levels: lanes in registers; the logical warps of a row in a
 *   shared-memory slot with local atomic adds (CUDA's atomicAdd_block); a row split over
 *   blocks into the output with global atomic adds, any other row with plain stores.
 * Preprocessing (GCN_PH_REG): the values, a degree histogram (atomics), the bucket
 * prefixes (one thread), the scatter into degree order (atomics), a scan of the long
 * rows' block counts and the metadata (the paper's on-the-fly preprocessing, on the
 * device). mbw: the largest divisor of the core's warps up to the paper's 12 (8 on a
 * 32-warp core); max_warp_nzs = 32 (the released code's). Rows are reached through perm
 * and the original offsets (as the released code's mapped kernel), not a sorted copy of
 * the CSR. SpMM: spmm_by_weight.h. */
#define GCN_KERNEL GR_ACCEL_GCN
#define GCN_PREPARES 1

#define ACC_MAX_BLOCK_WARPS 12u
#define ACC_MAX_WARP_NZS 32u
#define ACC_MAX_BUCKETS (ACC_MAX_BLOCK_WARPS * ACC_MAX_WARP_NZS + 2u)

/* perm, a long row's block count (scanned: its first block), 4 words of metadata per
 * vertex and one per edge (blocks <= V + E / 32); the values. Per bucket (degree 0 ..
 * deg_bound, then the long rows): count, start, cursor, blocks before; three totals. */
#define GCN_SCRATCH_PER_VERTEX 6u
#define GCN_SCRATCH_PER_EDGE 2u
#define GCN_SCRATCH_FIXED (4u * ACC_MAX_BUCKETS + 3u)

#include "edge_values.h"
#include "scan.h"
#include "spmm_by_weight.h"

typedef struct {
    uint32_t mbw, bound, c, round_dim, buckets;
    float *val;                 /* E */
    uint32_t *perm;             /* V: sorted position -> vertex */
    uint32_t *long_blocks;      /* per long row */
    uint32_t *meta;             /* 4 per block */
    uint32_t *count, *start, *cursor, *blocks; /* per bucket */
    uint32_t *totals;           /* small blocks, long rows, all blocks */
} acc_t;

static inline acc_t acc_params(const gcn_t *L, const gr_geo *g) {
    acc_t P;
    P.mbw = 1;
    for (uint32_t f = 1; f <= ACC_MAX_BLOCK_WARPS && f <= g->W; f++)
        if (g->W % f == 0)
            P.mbw = f;
    P.bound = P.mbw * ACC_MAX_WARP_NZS;
    P.c = (L->F + g->T - 1) / g->T;
    P.round_dim = P.c * g->T;
    P.buckets = P.bound + 2;
    uint32_t *s = L->scratch + GCN_SCRATCH_COMMON;
    P.val = (float *)s;
    s += L->E;
    P.perm = s;
    s += L->V;
    P.long_blocks = s;
    s += L->V;
    P.meta = s;
    s += 4 * L->V + L->E;
    P.count = s;
    P.start = s + ACC_MAX_BUCKETS;
    P.cursor = s + 2 * ACC_MAX_BUCKETS;
    P.blocks = s + 3 * ACC_MAX_BUCKETS;
    P.totals = s + 4 * ACC_MAX_BUCKETS;
    return P;
}

/* Algorithm 1 for a row of degree d <= deg_bound: f warps per row (the smallest factor of
 * mbw with f x 32 >= d), mbw / f rows per block, ceil(d / f) nonzeros per warp. */
static inline uint32_t acc_warps_per_row(const acc_t *P, uint32_t d) {
    uint32_t f = 1;
    while (P->mbw % f || f * ACC_MAX_WARP_NZS < d)
        f++;
    return f;
}

static inline uint32_t acc_bucket(const acc_t *P, uint32_t d) { return d <= P->bound ? d : P->bound + 1; }

static const char *gcn_check(const gcn_t *L, const gr_geo *g) {
    acc_t P = acc_params(L, g);
    return gcn_slots(g, P.mbw, P.mbw * L->F) ? 0 : "Accel-GCN's CTA needs more local memory than the core has";
}

static void acc_histogram_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_REG, &g);
    acc_t P = acc_params(&L, &g);
    for (uint32_t v = g.gtid; v < L.V; v += g.nthreads)
        __atomic_fetch_add(&P.count[acc_bucket(&P, gcn_degree(&L, v))], 1, __ATOMIC_RELAXED);
    PHASE(GCN_PH_OTHER);
}

/* One thread: where each bucket starts in degree order, and the short rows' blocks
 * before each bucket (a few hundred buckets). */
static void acc_buckets_kernel(uint32_t hart, void *arg) {
    PHASE(GCN_PH_REG);
    gr_geo g = gr_geometry();
    if (g.gtid == 0) {
        gcn_t L = gcn_layer();
        acc_t P = acc_params(&L, &g);
        uint32_t at = 0, blocks = 0, f = 1, rows = P.mbw;
        for (uint32_t b = 0; b < P.buckets; b++) {
            P.start[b] = P.cursor[b] = at;
            at += P.count[b];
            P.blocks[b] = blocks;
            if (b <= P.bound && P.count[b]) {
                if (f * ACC_MAX_WARP_NZS < b) { /* f grows with the degree */
                    f = acc_warps_per_row(&P, b);
                    rows = P.mbw / f;
                }
                blocks += (P.count[b] + rows - 1) / rows;
            }
        }
        P.totals[0] = blocks;
        P.totals[1] = P.count[P.bound + 1];
    }
    PHASE(GCN_PH_OTHER);
}

static void acc_scatter_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_REG, &g);
    acc_t P = acc_params(&L, &g);
    uint32_t longest = P.bound + 1;
    for (uint32_t v = g.gtid; v < L.V; v += g.nthreads) {
        uint32_t d = gcn_degree(&L, v), b = acc_bucket(&P, d);
        uint32_t at = __atomic_fetch_add(&P.cursor[b], 1, __ATOMIC_RELAXED);
        P.perm[at] = v;
        if (b == longest)
            P.long_blocks[at - P.start[longest]] = (d + P.bound - 1) / P.bound;
    }
    PHASE(GCN_PH_OTHER);
}

/* Algorithm 2: item k < small blocks is short-row block k; the others are the long rows,
 * each writing its blocks of deg_bound nonzeros. */
static void acc_meta_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_REG, &g);
    acc_t P = acc_params(&L, &g);
    uint32_t small = P.totals[0], longest = P.bound + 1;
    if (g.gtid == 0)
        P.totals[2] = small + *gcn_scan_sum(); /* the long rows' blocks, scanned */
    for (uint32_t k = g.gtid; k < small + P.totals[1]; k += g.nthreads) {
        if (k < small) {
            uint32_t b = gr_search(P.blocks, 0, longest, k);
            uint32_t f = acc_warps_per_row(&P, b), rows = P.mbw / f, i = k - P.blocks[b];
            uint32_t left = P.count[b] - i * rows;
            uint32_t *m = P.meta + 4 * k;
            m[0] = b;
            m[1] = P.start[b] + i * rows;
            m[2] = 0;
            m[3] = ((b + f - 1) / f) << 16 | (left < rows ? left : rows);
        } else {
            uint32_t r = k - small, at = P.start[longest] + r, d = gcn_degree(&L, P.perm[at]);
            uint32_t *m = P.meta + 4 * (small + P.long_blocks[r]);
            for (uint32_t loc = 0; loc < d; loc += P.bound, m += 4) {
                m[0] = d;
                m[1] = at;
                m[2] = loc;
                m[3] = d - loc < P.bound ? d - loc : P.bound;
            }
        }
    }
    PHASE(GCN_PH_OTHER);
}

static void gcn_prepare(const gcn_t *L, const gr_geo *g) {
    acc_t P = acc_params(L, g);
    gcn_launch(gcn_edge_values_kernel, P.val);
    gcn_launch(acc_histogram_kernel, 0);
    gcn_launch(acc_buckets_kernel, 0);
    gcn_launch(acc_scatter_kernel, 0);
    gcn_scan(P.long_blocks, P.totals[1]);
    gcn_launch(acc_meta_kernel, 0);
}

static void acc_graphsum_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_INIT, &g);
    acc_t P = acc_params(&L, &g);
    gcn_cta c;
    uint32_t F = L.F, words = P.mbw * F;
    if (gcn_cta_enter(&c, &g, P.mbw, gcn_slots(&g, P.mbw, words), words)) {
        float *rows_acc = (float *)c.shared;
        for (;;) {
            PHASE(GCN_PH_WORKID);
            uint32_t blk = gcn_cta_next(&c, L.scratch);
            if (blk >= P.totals[2])
                break;
            const uint32_t *m = P.meta + 4 * blk;
            uint32_t deg = m[0], row = m[1], loc = m[2], info = m[3];
            int split = deg > P.bound; /* a long row: other blocks add to it too */
            uint32_t nrows = split ? 1 : info & 0xFFFF;
            uint32_t wnz = split ? ACC_MAX_WARP_NZS : info >> 16;
            uint32_t rownz = split ? info : deg;
            uint32_t wpr = (rownz + wnz - 1) / wnz, logical = nrows * wpr;
            int shared = wpr > 1;
            if (shared) {
                for (uint32_t x = c.tid; x < nrows * F; x += c.threads)
                    rows_acc[x] = 0.0f;
                gcn_cta_sync(&c);
            }
            /* The combined-warp loop: virtual thread tid + ext x threads is lane
             * (column) t % round_dim of logical warp t / round_dim. */
            for (uint32_t ext = 0; ext < P.c; ext++) {
                PHASE(GCN_PH_WORKID);
                uint32_t t = c.tid + ext * c.threads, lw = t / P.round_dim, col = t - lw * P.round_dim;
                if (col < F && lw < logical) {
                    uint32_t r = lw / wpr, v = P.perm[row + r];
                    uint32_t first = L.off[v] + loc, e = first + (lw - r * wpr) * wnz;
                    uint32_t end = e + wnz < first + rownz ? e + wnz : first + rownz;
                    float sum = gcn_edge_values_sum(&L, P.val, e, end, col);
                    if (shared)
                        atomic_add_f32(&rows_acc[r * F + col], sum);
                    else if (split)
                        atomic_add_f32(&L.out[v * F + col], sum);
                    else
                        L.out[v * F + col] = sum;
                }
                gr_converge();
            }
            if (shared) {
                gcn_cta_sync(&c);
                PHASE(GCN_PH_GATHER);
                for (uint32_t x = c.tid; x < nrows * F; x += c.threads) {
                    uint32_t r = x / F, v = P.perm[row + r];
                    if (split)
                        atomic_add_f32(&L.out[v * F + x - r * F], rows_acc[x]);
                    else
                        L.out[v * F + x - r * F] = rows_acc[x];
                }
            }
        }
    }
    PHASE(GCN_PH_OTHER);
}

static void gcn_graphsum(const gcn_t *L, const gr_geo *g) { gcn_launch(acc_graphsum_kernel, 0); }
