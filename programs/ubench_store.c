/* ubench_store.c - a stream of write-through stores from every thread of the machine: each
 * work item stores one word of a 2 MiB array (consecutive lanes, consecutive words), so the
 * L1s pass full lines down without allocating and DRAM takes one line write per 16 words.
 * With back-pressure the stores cannot outrun DRAM: the store launch takes at least
 * bytes / (the configured DRAM bandwidth) cycles. tests/microbench.rs checks it.
 *
 * Results (ubench_results): [0] words stored, [1] cycles of the store launch (core 0's
 * mcycle around it; phase 1).
 * Exit: 0.
 */
#include "ubench.h"

#define STORE_N (1u << 19)

__attribute__((used)) volatile uint32_t ubench_store_n = STORE_N;

/* Not static and used: the stores must not be optimised away. */
__attribute__((used)) volatile uint32_t ubench_store_dst[STORE_N];

static void store_kernel(uint32_t i, void *p) {
    (void)p;
    ubench_store_dst[i] = i;
}

int main(void) {
    uint32_t n = ubench_store_n;
    uint32_t t0 = wsim_cycles32();
    wsim_phase(1);
    wsim_spawn(n, store_kernel, 0);
    wsim_phase(0);
    uint32_t cycles = wsim_cycles32() - t0;
    if (vx_core_id() == 0) {
        ubench_count = 0;
        ubench_record(n);
        ubench_record(cycles);
        wsim_printf("store stream: %u words in %u cycles\n", n, cycles);
    }
    return 0;
}
