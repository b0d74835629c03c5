/* ubench_eghw_batch.c - how the EGHW unit reads a warp's batch (weaver.eghw_reads): core
 * 0's warp 0 with every lane (the program requires weaver.mode = eghw; every core
 * launches, only that warp works). Run it with one warp per core (tests/microbench.rs
 * does): the other warps' own loads through the L1 would meet the unit's reads.
 *
 * Vertex 0 has edges 0..31, vertex 1 edges 32..95 (offsets {0, 32, 96}); the neighbour
 * and weight arrays are line-aligned, so 32 consecutive edges are 2 lines of neighbours
 * and 2 of weights (64-byte lines). Lane 0 registers both vertices; the first decode
 * (untimed) starts the round and hands out vertex 0's 32 edges. Two decodes are timed,
 * each right after the graph's lines were loaded into the L1 (so that every read of the
 * unit is an L1 hit), from before weaver.dec_id to the first use of what the unit wrote
 * into the buffer:
 *   [0] "new entry": it loads vertex 1 (its offsets: 2 words of one line), then edges
 *       32..63 (a neighbour and a weight each: 64 words on 4 lines);
 *   [1] "same entry": edges 64..95 continue the entry (64 words on 4 lines).
 * Results (ubench_results): [0], [1] the decodes' cycles, [2] 1 if every lane got its
 * edge in every decode and the round then ended.
 * Exit: 0; 1 if an answer is wrong.
 */
#include "ubench.h"
#include "weaver.h"

WSIM_REQUIRES_EGHW;

#define EDGES 96u

static uint32_t offsets[16] __attribute__((aligned(64))) = {0, 32, EDGES};
static uint32_t targets[EDGES] __attribute__((aligned(64)));
static uint32_t weights[EDGES] __attribute__((aligned(64)));

/* Decode once with every lane and use the neighbour and weight; the cycles it took in
 * *cycles. Returns 1 when each lane got vertex `v` and edge `first + lane`. */
static __attribute__((noinline)) uint32_t timed_decode(uint32_t v, uint32_t first, uint32_t *cycles) {
    uint32_t t0 = wsim_cycles32();
    uint32_t got = weaver_dec_id();
    struct weaver_edge e = weaver_eghw_edge();
    uint32_t x = e.neighbour + e.weight;
    __asm__ volatile("addi %0, %0, 0" : "+r"(x)); /* waits for the loads */
    *cycles = wsim_cycles32() - t0;
    uint32_t edge = first + vx_thread_id();
    return (got == v) & (e.neighbour == 1000u + edge) & (e.weight == edge) & (x == 1000u + 2 * edge);
}

static uint32_t cycles[2], lanes_ok;

/* Load every line of the graph (the lanes share them) and wait for the loads. */
static inline void warm(uint32_t lane, uint32_t n) {
    uint32_t x = offsets[0];
    for (uint32_t e = lane; e < EDGES; e += n)
        x += *(volatile uint32_t *)&targets[e] + *(volatile uint32_t *)&weights[e];
    __asm__ volatile("addi %0, %0, 0" : "+r"(x));
}

/* The measurement, by the lanes of core 0's warp 0 (every lane active, each with its
 * stack: a wsim_spawn launch). */
static void measure(uint32_t gid, void *arg) {
    if (vx_core_id() != 0 || vx_warp_id() != 0)
        return;
    uint32_t n = vx_num_threads(), all = wsim_lanes_mask(n), lane = vx_thread_id();
    if (lane == 0) {
        weaver_eghw_setup(offsets, targets, weights);
        weaver_reg(0, 0, 1);
        weaver_reg(1, 0, 1); /* the degree only says "not filtered": the unit reads it */
    }
    /* Each decode after the stores before it have drained (a store the L1 cannot yet
     * pass down holds the LSU queue, and the unit's reads behind it), and right after the
     * graph's lines were loaded into the L1 (stores do not allocate; loads do). */
    uint32_t untimed, timed[2];
    uint32_t ok = timed_decode(0, 0, &untimed);
    vx_tmc(all);
    ubench_settle(1000);
    warm(lane, n);
    ok &= timed_decode(1, 32, &timed[0]);
    vx_tmc(all);
    ubench_settle(1000);
    warm(lane, n);
    ok &= timed_decode(1, 64, &timed[1]);
    vx_tmc(all);
    ok &= weaver_dec_id() == WEAVER_NONE;
    ok = vx_vote_all(ok, all);
    if (lane == 0) {
        cycles[0] = timed[0];
        cycles[1] = timed[1];
        lanes_ok = ok;
    }
}

int main(void) {
    if (vx_core_id() == 0) {
        ubench_count = 0;
        for (uint32_t e = 0; e < EDGES; e++) {
            targets[e] = 1000u + e;
            weights[e] = e;
        }
    }
    wsim_spawn(vx_num_cores() * vx_num_warps() * vx_num_threads(), measure, 0);
    if (vx_core_id() != 0)
        return 0;
    ubench_record(cycles[0]);
    ubench_record(cycles[1]);
    ubench_record(lanes_ok);
    wsim_printf("ubench_eghw_batch: new entry %u, same entry %u cycles (ok %u)\n", cycles[0],
                cycles[1], lanes_ok);
    return lanes_ok ? 0 : 1;
}
