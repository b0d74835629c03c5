/* scan.h - an exclusive prefix sum of n words over the whole machine, in place, for the
 * designs that build their work lists on the device (GNNAdvisor's neighbour groups,
 * Accel-GCN's blocks of long rows, BiKD's subgraphs). Two launches: each core scans its
 * contiguous share by block scans (gr_block_scan: rounds of a core's threads) and leaves
 * its total; then each core adds the totals of the cores before it. */
#ifndef GCN_SCAN_H
#define GCN_SCAN_H

typedef struct {
    uint32_t *a;
    uint32_t n;
} gcn_scan_job;

/* The per-core totals, and the grand total after the second launch. */
static inline uint32_t *gcn_scan_totals(void) { return wsim_graph.scratch + GCN_SCRATCH_COUNTERS + 1; }
static inline uint32_t *gcn_scan_sum(void) { return wsim_graph.scratch + GCN_SCRATCH_COUNTERS; }

/* Core k's share of n items: [n k / C, n (k + 1) / C) without 64-bit division. */
static inline uint32_t gcn_share(uint32_t n, uint32_t k, uint32_t C) { return n / C * k + n % C * k / C; }

static void gcn_scan_local(uint32_t hart, void *arg) {
    PHASE(GCN_PH_REG);
    const gcn_scan_job *j = arg;
    gr_geo g = gr_geometry();
    uint32_t lo = gcn_share(j->n, g.core, g.C), hi = gcn_share(j->n, g.core + 1, g.C);
    uint32_t *sh = vx_local_mem();
    uint32_t carry = 0;
    for (uint32_t base = lo; base < hi; base += g.B) {
        uint32_t i = base + g.btid;
        uint32_t x = i < hi ? j->a[i] : 0, total;
        gr_converge();
        uint32_t before = gr_block_scan(x, &g, sh, &total);
        if (i < hi)
            j->a[i] = carry + before;
        carry += total;
        gr_converge();
        vx_barrier(GR_BAR, g.W); /* before the next round's scan reuses sh */
    }
    if (g.btid == 0)
        gcn_scan_totals()[g.core] = carry;
    PHASE(GCN_PH_OTHER);
}

static void gcn_scan_add(uint32_t hart, void *arg) {
    PHASE(GCN_PH_REG);
    const gcn_scan_job *j = arg;
    gr_geo g = gr_geometry();
    const uint32_t *totals = gcn_scan_totals();
    uint32_t add = 0;
    for (uint32_t k = 0; k < g.core; k++)
        add += totals[k];
    uint32_t hi = gcn_share(j->n, g.core + 1, g.C);
    for (uint32_t i = gcn_share(j->n, g.core, g.C) + g.btid; i < hi; i += g.B)
        j->a[i] += add;
    if (g.core == g.C - 1 && g.btid == 0)
        *gcn_scan_sum() = add + totals[g.core];
    PHASE(GCN_PH_OTHER);
}

/* a[i] <- a[0] + ... + a[i-1]; returns the sum of all n. Called by main on every core. */
static uint32_t gcn_scan(uint32_t *a, uint32_t n) {
    gcn_scan_job j = { a, n };
    gcn_launch(gcn_scan_local, &j);
    gcn_launch(gcn_scan_add, &j);
    return *gcn_scan_sum();
}

#endif
