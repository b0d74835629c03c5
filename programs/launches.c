/* launches.c - many short launches, each a tree of local barriers: the launch- and
 * barrier-bound work of a graph program's super-steps without the graph (scripts/speed.py
 * times the simulator on it).
 *
 * LAUNCHES launches of wsim_spawn over every hardware thread. In launch k, thread g
 * contributes g + k; the threads of each core sum their values in local memory through a
 * tree with a local barrier per level, and the core's first thread stores the core's sum.
 * Core 0 then checks every (launch, core) sum against its closed form.
 * Exit: 0 ok; 1 a sum differs; 2 the machine is too large for the buffers. */
#include "wsim.h"

#define LAUNCHES 40u
#define BAR_TREE 1u
#define MAX_CORES 64u

static volatile uint32_t sums[LAUNCHES][MAX_CORES];

typedef struct {
    uint32_t launch, per_core, levels;
} job_t;

static void tree_kernel(uint32_t gid, void *p) {
    const job_t *job = p;
    uint32_t W = vx_num_warps(), n = job->per_core;
    uint32_t me = gid % n;
    volatile uint32_t *buf = (volatile uint32_t *)vx_local_mem();
    buf[me] = gid + job->launch;
    wsim_fence();
    vx_barrier(BAR_TREE, W);
    /* Level l adds the upper half of a span of 2^(levels - l) words onto its lower half. */
    for (uint32_t half = 1u << (job->levels - 1); half > 0; half >>= 1) {
        if (me < half && me + half < n)
            buf[me] += buf[me + half];
        wsim_fence();
        vx_barrier(BAR_TREE, W);
    }
    if (me == 0)
        sums[job->launch][gid / n] = buf[0];
}

/* The sum of g + k over the threads g of core c: n c n + n (n - 1) / 2 + k n (mod 2^32). */
static uint32_t expected(uint32_t k, uint32_t c, uint32_t n) {
    uint32_t triangle = (n % 2 == 0) ? (n / 2) * (n - 1) : n * ((n - 1) / 2);
    return n * c * n + triangle + k * n;
}

int main(void) {
    uint32_t C = vx_num_cores(), n = vx_num_warps() * vx_num_threads();
    if (C > MAX_CORES || n * 4 > 65536)
        return 2;
    uint32_t levels = 0;
    while ((1u << levels) < n)
        levels++;
    static job_t jobs[WSIM_MAX_CORES];
    job_t *job = &jobs[vx_core_id()];
    job->per_core = n;
    job->levels = levels ? levels : 1;
    for (uint32_t k = 0; k < LAUNCHES; k++) {
        job->launch = k;
        wsim_spawn(C * n, tree_kernel, job);
    }
    if (vx_core_id() != 0)
        return 0;
    for (uint32_t k = 0; k < LAUNCHES; k++)
        for (uint32_t c = 0; c < C; c++)
            if (sums[k][c] != expected(k, c, n)) {
                wsim_printf("launches: FAIL launch %d core %d: %x, expected %x\n", k, c,
                            sums[k][c], expected(k, c, n));
                return 1;
            }
    wsim_printf("launches: OK (%d launches, %d cores x %d threads)\n", LAUNCHES, C, n);
    return 0;
}
