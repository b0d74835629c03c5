/* ubench_eghw.c - the latency of an EGHW decode (the program requires weaver.mode = eghw;
 * one thread: core 0, warp 0, lane 0; other cores return at once). tests/weaver.rs runs it.
 *
 * Vertex 0 has edge 0, vertex 1 edges 1 and 2 (offsets {0, 1, 3}). The graph's lines are
 * loaded first, so every line the unit reads is an L1 hit. Both vertices are registered;
 * the first decode starts the round and hands out vertex 0's edge (and brings the code
 * into the instruction cache). Then two decodes are timed, each from before weaver.dec_id to the first use of what the unit wrote into the
 * buffer in local memory:
 *   - "new entry": it loads vertex 1 (its id from the registration buffer, its offsets,
 *     then edge 1's neighbour and weight: two dependent reads through the L1D);
 *   - "same entry": edge 2 continues the current entry (no offsets: one read).
 *
 * Results (ubench_results): [0] cycles of one dependent L1-hit load, [1] cycles of the
 * new-entry decode, [2] cycles of the same-entry decode, [3] and [4] the (vertex,
 * neighbour) of those decodes' answers as vertex * 1000 + neighbour, [5] the last
 * decode's answer (0xFFFFFFFF: exhausted).
 * Exit: 0; 1 if an answer is wrong.
 */
#include "ubench.h"
#include "weaver.h"

WSIM_REQUIRES_EGHW;

static uint32_t offsets[16] __attribute__((aligned(64))) = {0, 1, 3};
static uint32_t targets[16] __attribute__((aligned(64))) = {7, 8, 9};
static uint32_t weights[16] __attribute__((aligned(64))) = {70, 80, 90};

/* Decode once and use the neighbour and weight; the cycles it took in *cycles. Not
 * inlined: the first (untimed) call brings its code into the instruction cache. */
static __attribute__((noinline)) uint32_t timed_decode(uint32_t *cycles) {
    uint32_t t0 = wsim_cycles32();
    uint32_t v = weaver_dec_id();
    struct weaver_edge e = weaver_eghw_edge();
    uint32_t x = v * 1000u + e.neighbour + 0u * e.weight;
    __asm__ volatile("addi %0, %0, 0" : "+r"(x)); /* waits for the loads */
    *cycles = wsim_cycles32() - t0;
    return x;
}

int main(void) {
    if (vx_core_id() != 0)
        return 0;
    ubench_count = 0;
    /* Bring the graph's lines into the L1 (stores do not allocate; loads do). */
    uint32_t warm = *(volatile uint32_t *)&offsets[0] + *(volatile uint32_t *)&targets[0] +
                    *(volatile uint32_t *)&weights[0];
    volatile uint32_t *p = &offsets[warm & 0u]; /* a hit */
    uint32_t t0 = wsim_cycles32();
    uint32_t y = *p;
    __asm__ volatile("addi %0, %0, 0" : "+r"(y));
    uint32_t load = wsim_cycles32() - t0;

    weaver_eghw_setup(offsets, targets, weights);
    weaver_reg(0, 0, 1);
    weaver_reg(1, 0, 1); /* the degree only says "not filtered": the unit reads it */
    uint32_t new_entry, same_entry;
    uint32_t first = timed_decode(&new_entry);
    uint32_t a = timed_decode(&new_entry);
    uint32_t b = timed_decode(&same_entry);
    uint32_t end = weaver_dec_id();
    ubench_record(load);
    ubench_record(new_entry);
    ubench_record(same_entry);
    ubench_record(a);
    ubench_record(b);
    ubench_record(end);
    wsim_printf("ubench_eghw: load %u, new entry %u, same entry %u cycles\n", load, new_entry,
                same_entry);
    return !(y == 0 && first == 7 && a == 1008 && b == 1009 && end == WEAVER_NONE);
}
