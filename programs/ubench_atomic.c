/* ubench_atomic.c - the cost of a warp's atomic at the last-level cache's atomic unit (one
 * warp: core 0, warp 0, every lane; other cores return at once). tests/microbench.rs runs
 * it. Each pattern is timed from before the amoadd.w to the first use of its result, after
 * a first, untimed round has brought the lines into the L2:
 *   [0] same word: every lane adds to one word (the unit applies 32 operations in turn);
 *   [1] distinct words of consecutive lines: lane l adds to word l (two lines, one
 *       operation per word, words in parallel);
 *   [2] distinct lines: lane l adds to a word of line l (one request per lane).
 * Results (ubench_results): [0..2] cycles of each pattern; [3] 1 if every final value is
 * right. Exit: 0.
 */
#include "ubench.h"

#define LINE 64u

static uint32_t same_word __attribute__((aligned(64)));
static uint32_t words[32] __attribute__((aligned(64)));
static uint32_t lines[32 * LINE / 4] __attribute__((aligned(64)));

static inline uint32_t amoadd(uint32_t *p, uint32_t v) {
    uint32_t old;
    __asm__ volatile("amoadd.w %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");
    return old;
}

/* The cycles one amoadd.w takes to return, for lane address `p`; lane 0's count. */
static __attribute__((noinline)) uint32_t timed(uint32_t *p) {
    uint32_t t0 = wsim_cycles32();
    uint32_t old = amoadd(p, 1);
    __asm__ volatile("addi %0, %0, 0" : "+r"(old)); /* waits for the result */
    return wsim_cycles32() - t0 + 0u * old;
}

int main(void) {
    if (vx_core_id() != 0)
        return 0;
    ubench_count = 0;
    uint32_t n = vx_num_threads();
    vx_tmc(wsim_lanes_mask(n));
    uint32_t lane = vx_thread_id();
    uint32_t *same = &same_word;
    uint32_t *word = &words[lane];
    uint32_t *line = &lines[lane * LINE / 4];
    uint32_t cycles[3];
    for (int round = 0; round < 2; round++) {
        cycles[0] = timed(same);
        cycles[1] = timed(word);
        cycles[2] = timed(line);
    }
    vx_tmc(1);
    /* 2 rounds: the same word took 2 x n additions, every other word 2. */
    uint32_t ok = same_word == 2 * n;
    for (uint32_t l = 0; l < n; l++)
        ok &= words[l] == 2 && lines[l * LINE / 4] == 2;
    for (int k = 0; k < 3; k++)
        ubench_record(cycles[k]);
    ubench_record(ok);
    wsim_printf("atomic: same word %u, distinct words %u, distinct lines %u cycles (ok %u)\n",
                cycles[0], cycles[1], cycles[2], ok);
    return 0;
}
