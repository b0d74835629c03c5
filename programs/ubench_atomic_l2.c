/* ubench_atomic_l2.c - a stream of atomics from every thread of the machine, one per line:
 * work item i adds 1 to the first word of line i of an array of `ubench_atomic_lines`
 * lines (consecutive lanes, consecutive lines: one request per lane). Item i runs on the
 * same hardware thread in every launch, so a line is always in the same cluster's L2. A
 * first launch brings the lines into the L2s; the second, timed one (phase 1) does the
 * same atomics again. With a write-through L2 each atomic writes its line to DRAM, so the
 * launch cannot outrun DRAM; with a write-back L2 the lines stay there, dirty, and reach
 * DRAM only when evicted (a footprint beyond the L2's). tests/microbench.rs checks it.
 *
 * Results (ubench_results): [0] lines, [1] cycles of the timed launch (core 0's mcycle
 * around it), [2] 1 if every line's word is 2 afterwards.
 * Exit: 0.
 */
#include "ubench.h"

#define LINE_WORDS 16u
#define MAX_LINES (1u << 16) /* 4 MiB */

__attribute__((used)) volatile uint32_t ubench_atomic_lines = 1u << 14;

static uint32_t data[MAX_LINES * LINE_WORDS] __attribute__((aligned(64)));
static uint32_t wrong;

static void add_kernel(uint32_t i, void *p) {
    (void)p;
    __atomic_fetch_add(&data[i * LINE_WORDS], 1, __ATOMIC_RELAXED);
}

static void check_kernel(uint32_t i, void *p) {
    (void)p;
    if (data[i * LINE_WORDS] != 2)
        __atomic_fetch_add(&wrong, 1, __ATOMIC_RELAXED);
}

int main(void) {
    uint32_t n = ubench_atomic_lines;
    if (n > MAX_LINES)
        n = MAX_LINES;
    wsim_spawn(n, add_kernel, 0);
    uint32_t t0 = wsim_cycles32();
    wsim_phase(1);
    wsim_spawn(n, add_kernel, 0);
    wsim_phase(0);
    uint32_t cycles = wsim_cycles32() - t0;
    wsim_spawn(n, check_kernel, 0);
    if (vx_core_id() == 0) {
        ubench_count = 0;
        ubench_record(n);
        ubench_record(cycles);
        ubench_record(wrong == 0);
        wsim_printf("atomic stream: %u lines in %u cycles (ok %u)\n", n, cycles, wrong == 0);
    }
    return 0;
}
