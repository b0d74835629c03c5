/* kernel.c - a graph program: the descriptor, the initialisation and vertex kernels and the
 * super-step loop, around one algorithm (GR_ALGO_FILE: algo/<name>.h) and one schedule
 * (GR_SCHED_FILE: sched/<name>.h, which defines sched_gather(step): the gather step's
 * kernels), in one form (GR_FORM, runtime.h). The Makefile builds
 * build/graph/<algo>_<sched>_<dir>[_<form>].elf from it.
 *
 * Each super-step is an iteration record (wsim_iteration: core 0 marks it with the size of
 * the input frontier, or V for PageRank), from the gather launch to the next super-step.
 *
 * Exit status: 0 done (the host verifies the result), GR_EXIT_NO_GRAPH when no graph was
 * laid out, GR_EXIT_STEPS when the super-step bound was reached. */
#include "runtime.h"
#include GR_ALGO_FILE
#include "edge.h"
#include GR_SCHED_FILE

#if GR_ATOMIC_FREE && !(GR_PULL_DIR && defined(SCHED_THREAD_OWNS_BASE))
#error "the atomic-free form needs a schedule whose thread owns its base vertex (VM), in pull"
#endif

#define GR_EXIT_NO_GRAPH 100
#define GR_EXIT_STEPS 101

/* The statistics phases' names (graph.h), for the report. */
const char *const wsim_phase_names[] __attribute__((used)) = {
    [PH_OTHER] = "runtime",
    [PH_INIT] = "init",
    [PH_REG] = "registration",
    [PH_WORKID] = "work_id",
    [PH_EDGE] = "edge_access",
    [PH_GATHER] = "gather_sum",
    [PH_APPLY] = "apply",
    [PH_APPLY + 1] = 0,
};

wsim_graph_t wsim_graph = {
    .magic = WSIM_GRAPH_MAGIC,
    .version = WSIM_GRAPH_VERSION,
    .algorithm = ALGO_ID,
    .direction = GR_DIR,
    .schedule = SCHED_ID,
    .scratch_per_vertex = GR_RT_SCRATCH_PER_VERTEX + ALGO_SCRATCH_PER_VERTEX + SCHED_SCRATCH_PER_VERTEX,
    .scratch_per_edge = 0,
    .scratch_per_step = GR_RT_SCRATCH_PER_STEP + SCHED_SCRATCH_PER_STEP,
    .scratch_fixed = GR_RT_SCRATCH_FIXED + SCHED_SCRATCH_FIXED,
};

/* Vertex values and the initial frontier (the output of "super-step -1"). */
static void init_kernel(uint32_t hart, void *arg) {
    PHASE(PH_INIT);
    gr_geo g = gr_geometry();
    gr_ctx c = gr_context(GR_INIT_STEP, 0);
    for (uint32_t v = g.gtid; v < c.V; v += g.nthreads) {
        algo_init(&c, v);
        if (ALGO_DATA_DRIVEN && ALGO_START_ALL && !GR_PULL_DIR)
            c.out_queue[v] = v;
    }
    if (ALGO_DATA_DRIVEN && ALGO_START_ALL) {
        uint32_t words = gr_bitmap_words(c.V);
        for (uint32_t w = g.gtid; w < words; w += g.nthreads)
            c.out_map[w] = w == words - 1 && c.V % 32 ? (1u << (c.V % 32)) - 1 : 0xFFFFFFFFu;
    }
    if (ALGO_DATA_DRIVEN && g.gtid == 0) {
        if (ALGO_START_ALL)
            *c.out_cnt = c.V;
        else
            gr_activate(&c, wsim_graph.source);
    }
    PHASE(PH_OTHER);
}

/* The apply step (Algorithm 2.1, lines 26-30), and the input bitmap cleared: it becomes
 * the next super-step's output. */
static void vertex_kernel(uint32_t hart, void *arg) {
    PHASE(PH_APPLY);
    gr_geo g = gr_geometry();
    gr_ctx c = gr_context((uintptr_t)arg, ALGO_DATA_DRIVEN);
    if (ALGO_HAS_APPLY)
        for (uint32_t v = g.gtid; v < c.V; v += g.nthreads)
            algo_apply(&c, v);
    if (ALGO_DATA_DRIVEN) {
        uint32_t *map = (uint32_t *)c.in_map;
        for (uint32_t w = g.gtid; w < gr_bitmap_words(c.V); w += g.nthreads)
            map[w] = 0;
    }
    PHASE(PH_OTHER);
}

int main(void) {
    const wsim_graph_t *d = &wsim_graph;
    if (!d->result) {
        if (vx_core_id() == 0)
            wsim_puts("no graph: run this program with wsim run, which lays one out (--graph)\n");
        return GR_EXIT_NO_GRAPH;
    }
    gr_launch(init_kernel, 0);
    uint32_t step = 0;
    for (;; step++) {
        uint32_t active = ALGO_DATA_DRIVEN ? d->scratch[step] : d->num_vertices;
        if (ALGO_DATA_DRIVEN ? active == 0 : step == d->iterations)
            break;
        if (step + 1 >= d->max_steps) {
            if (vx_core_id() == 0)
                wsim_printf("no convergence after %u super-steps\n", step);
            return GR_EXIT_STEPS;
        }
        if (vx_core_id() == 0)
            wsim_iteration(active);
        sched_gather(step);
        gr_launch(vertex_kernel, step);
    }
    if (vx_core_id() == 0) {
        wsim_iteration_end();
        wsim_graph.supersteps = step;
    }
    return 0;
}
