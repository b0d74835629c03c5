/* ubench_socket.c - whether cores share their L1 data cache (gpu.cores_per_socket): core 0
 * reads an array of lines (bringing them into its L1), then, after a global barrier, core 1
 * reads the same lines; each timed per load. With private L1s core 1 misses in its own L1
 * (the lines come from the L2); in a socket of two cores they are L1 hits. Every core must
 * run (run.start = all-cores); cores other than 0 and 1 only join the barriers.
 * Results (ubench_results): [0] core 0's centi-cycles per load (cold), [1] core 1's (after
 * core 0). Exit: 0.
 */
#include "ubench.h"

#define LINES 64u
#define LINE 64u

__attribute__((used, aligned(64))) volatile uint32_t ubench_socket_data[LINES * LINE / 4];

/* Centi-cycles per load over the lines, each address depending on the last load (the
 * array holds zeros, which the compiler cannot know). */
static __attribute__((noinline)) uint32_t walk(void) {
    uint32_t v = ubench_zero;
    uint32_t t0 = wsim_cycles32();
    /* Unrolled, so that no loop branch (which holds a Vortex warp's fetch until it
     * executes) hides part of the slower loads' latency. */
#pragma clang loop unroll(full)
    for (uint32_t i = 0; i < LINES; i++)
        v = ubench_socket_data[i * LINE / 4 + v];
    uint32_t cycles = wsim_cycles32() - t0;
    return ubench_centi(cycles + v, LINES);
}

int main(void) {
    uint32_t core = vx_core_id();
    uint32_t cold = 0, warm = 0;
    if (core == 0)
        cold = walk();
    wsim_global_barrier();
    if (core == 1)
        warm = walk();
    wsim_global_barrier();
    if (core == 1) {
        ubench_count = 0;
        ubench_record(0);
        ubench_record(warm);
    }
    wsim_global_barrier();
    if (core == 0) {
        ubench_results[0] = cold;
        wsim_printf("socket: core 0 %u, core 1 %u centi-cycles per load\n", cold,
                    ubench_results[1]);
    }
    return 0;
}
