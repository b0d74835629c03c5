/* iterations.c - iteration records (CSR 0x7C6), for tests/iterations.rs.
 *
 * Core 0 marks ITERATIONS iterations, reporting 10 k + 1 for iteration k. In iteration k
 * every thread makes (k + 1) * LOADS_PER_ROUND loads of a cold array (its own words, one
 * line per warp per load), so iteration k + 1 issues LOADS_PER_ROUND more warp loads per
 * warp than iteration k and touches new lines. After wsim_iteration_end a last launch runs
 * outside every record.
 * Exit: 0 ok; 1 a load read a wrong value; 2 more than MAX_THREADS threads. */
#include "wsim.h"

#define ITERATIONS 4u
#define LOADS_PER_ROUND 8u
#define MAX_THREADS 8192u

/* Not static: the compiler may not assume they keep their initial zeros. */
uint32_t iterations_cold[(ITERATIONS * (ITERATIONS + 1) / 2) * LOADS_PER_ROUND * MAX_THREADS];
static uint32_t bad;

typedef struct {
    uint32_t first_round, rounds, threads;
} job_t;

static void load_kernel(uint32_t i, void *p) {
    const job_t *job = p;
    uint32_t sum = 0;
    for (uint32_t r = 0; r < job->rounds * LOADS_PER_ROUND; r++)
        sum += ((volatile uint32_t *)iterations_cold)[(job->first_round * LOADS_PER_ROUND + r) * job->threads + i];
    if (sum != 0)
        bad = 1;
}

int main(void) {
    uint32_t threads = vx_num_cores() * vx_num_warps() * vx_num_threads();
    if (threads > MAX_THREADS)
        return 2;
    static job_t jobs[WSIM_MAX_CORES];
    job_t *job = &jobs[vx_core_id()];
    job->threads = threads;
    job->first_round = 0;
    for (uint32_t k = 0; k < ITERATIONS; k++) {
        if (vx_core_id() == 0)
            wsim_iteration(10 * k + 1);
        job->rounds = k + 1;
        wsim_spawn(threads, load_kernel, job);
        job->first_round += k + 1;
    }
    if (vx_core_id() == 0)
        wsim_iteration_end();
    job->rounds = 1;
    job->first_round = 0;
    wsim_spawn(threads, load_kernel, job);
    if (vx_core_id() == 0 && bad)
        return bad;
    return 0;
}
