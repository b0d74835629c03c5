/* weaver_edge_sum.c - per-vertex sums of edge weights through the Weaver unit.
 *
 * The host (tests/weaver.rs) writes a CSR graph into graph_* before the run and checks
 * vertex_sum against its own sums afterwards. Each core takes a contiguous vertex range;
 * its warps register it chunk by chunk and sum the edges the unit hands them. Built twice:
 * as is (SparseWeaver) and as eghw_edge_sum (WEAVER_EGHW: the unit reads the topology and
 * the weights itself and hands them over in local memory).
 */
#include "weaver.h"

#define MAX_VERTICES 8192
#define MAX_EDGES    65536

uint32_t graph_vertices;
uint32_t graph_offsets[MAX_VERTICES + 1];
uint32_t graph_targets[MAX_EDGES];
uint32_t graph_weights[MAX_EDGES];
uint32_t vertex_sum[MAX_VERTICES];

static uint32_t vertex(uint32_t v, uint32_t *vid, uint32_t *loc, void *ctx) {
    *loc = graph_offsets[v];
    return graph_offsets[v + 1] - *loc;
}

static int edge(uint32_t vid, uint32_t eid, void *ctx) {
#ifdef WEAVER_EGHW
    uint32_t w = weaver_eghw_edge().weight;
#else
    uint32_t w = graph_weights[eid];
#endif
    __atomic_fetch_add(&vertex_sum[vid], w, __ATOMIC_RELAXED);
    return 0;
}

static void kernel(uint32_t gid, void *arg) {
    uint32_t cores = vx_num_cores(), core = vx_core_id();
    uint32_t v = graph_vertices;
    weaver_process(v * core / cores, v * (core + 1) / cores, vertex, edge, 0);
}

int main(void) {
    if (graph_vertices > MAX_VERTICES || graph_offsets[graph_vertices] > MAX_EDGES)
        return 1;
#ifdef WEAVER_EGHW
    weaver_eghw_setup(graph_offsets, graph_targets, graph_weights);
#endif
    wsim_spawn(vx_num_cores() * vx_num_warps() * vx_num_threads(), kernel, 0);
    return 0;
}
