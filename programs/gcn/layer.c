/* layer.c - a GCN program: one layer (Kipf and Welling) as the dissertation's case study
 * runs it (section 4.6.9): initialisation, SpMM (H = X W) and GraphSum (the normalised
 * aggregation over A + I), each a launch over every hardware thread, around one design
 * (GCN_KERNEL_FILE: kernels/<name>.h, which defines gcn_check (why the design cannot run
 * on this machine, or 0), gcn_spmm, gcn_graphsum and, when it preprocesses the graph
 * (GCN_PREPARES), gcn_prepare). The Makefile builds build/gcn/gcn_<name>.elf.
 *
 * Each launch is an iteration record whose value is GCN_REC_* (gcn.h), so the report gives
 * SpMM's and GraphSum's cycles apart (Figure 4.19's split); phases split them further.
 *
 * Exit status: 0 done (the host verifies H and the output), GCN_EXIT_NO_GRAPH when no
 * graph was laid out, GCN_EXIT_UNFIT when a design's CTA does not fit a core.
 */
#include "rt.h"

#define GCN_EXIT_NO_GRAPH 100
#define GCN_EXIT_UNFIT 102

#include GCN_KERNEL_FILE

wsim_graph_t wsim_graph = {
    .magic = WSIM_GRAPH_MAGIC,
    .version = WSIM_GRAPH_VERSION,
    .algorithm = GR_GCN,
    .direction = GR_PULL,
    .schedule = GCN_KERNEL,
    .scratch_per_vertex = GCN_SCRATCH_PER_VERTEX,
    .scratch_per_edge = GCN_SCRATCH_PER_EDGE,
    .scratch_per_step = 0,
    .scratch_fixed = GCN_SCRATCH_COMMON + GCN_SCRATCH_FIXED,
};

wsim_gcn_t wsim_gcn = {
    .magic = WSIM_GCN_MAGIC,
    .version = WSIM_GCN_VERSION,
};

const char *const wsim_phase_names[] __attribute__((used)) = {
    "other", "init", "spmm", "registration", "work_id", "edge_access", "gather_sum", 0,
};

/* Initialisation: H and the output zeroed (the kernels that accumulate need it; the
 * dissertation's GCN runs it for every schedule). */
static void init_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gcn_t L = gcn_enter(GCN_PH_INIT, &g);
    for (uint32_t i = g.gtid; i < L.V * L.F; i += g.nthreads) {
        L.h[i] = 0.0f;
        L.out[i] = 0.0f;
    }
    PHASE(GCN_PH_OTHER);
}

static void gcn_record(uint32_t kernel) {
    if (vx_core_id() == 0)
        wsim_iteration(kernel);
}

int main(void) {
    if (!wsim_graph.result) {
        if (vx_core_id() == 0)
            wsim_puts("no graph: run this program with wsim run, which lays one out (--graph)\n");
        return GCN_EXIT_NO_GRAPH;
    }
    gr_geo g = gr_geometry();
    gcn_t L = gcn_layer();
    /* A design whose CTA needs more warps or local memory than a core has cannot run:
     * every core stops, core 0 says why. */
    const char *unfit = gcn_check(&L, &g);
    if (unfit) {
        if (vx_core_id() == 0)
            wsim_printf("the GCN kernel does not fit a core: %s\n", unfit);
        return GCN_EXIT_UNFIT;
    }
    gcn_record(GCN_REC_INIT);
    gcn_launch(init_kernel, 0);
    gcn_record(GCN_REC_SPMM);
    gcn_spmm(&L, &g);
#ifdef GCN_PREPARES
    gcn_record(GCN_REC_PREPARE);
    gcn_prepare(&L, &g);
#endif
    gcn_record(GCN_REC_GRAPHSUM);
    gcn_graphsum(&L, &g);
    if (vx_core_id() == 0) {
        wsim_iteration_end();
        wsim_graph.supersteps = 1;
    }
    return 0;
}
