/* mem_phases.c - two statistics phases with opposite memory behaviour, for the split of
 * the cache and DRAM statistics by phase (tests/programs.rs).
 *
 * Phase 0 fills a small table (SMALL_N words, 4 lines) and has every thread read all of
 * it, so every core's L1 data cache holds it. Phase 1 streams once through a cold array,
 * one word per line: every load is an L1 miss and a DRAM read (BIG_LINES of them).
 * Phase 2 (ITEMS_PER_THREAD items per thread, so that the launch's own traffic is small
 * beside it) reads the small table REPS times per item and checks the sum: L1 hits, and no
 * store unless a check fails.
 * Exit: 0 ok; 1 a phase 1 load read a wrong value; 2 a sum of the small table is wrong.
 */
#include "wsim.h"

#define BIG_LINES 4096u /* 256 KiB, one word read per 64-byte line */
#define LINE_WORDS 16u
#define SMALL_N 64u
#define REPS 16u
#define ITEMS_PER_THREAD 16u

/* Not static: the compiler may not assume they keep their initial zeros. */
uint32_t mem_phases_big[BIG_LINES * LINE_WORDS];
uint32_t mem_phases_small[SMALL_N];
static uint32_t bad;

static void fill_kernel(uint32_t i, void *p) { mem_phases_small[i] = i; }

static void warm_kernel(uint32_t i, void *p) {
    uint32_t s = 0;
    for (uint32_t k = 0; k < SMALL_N; k++)
        s += mem_phases_small[k];
    if (s != SMALL_N * (SMALL_N - 1) / 2)
        bad = 2;
}

static void stream_kernel(uint32_t i, void *p) {
    if (mem_phases_big[i * LINE_WORDS] != 0)
        bad = 1;
}

/* Consecutive items read consecutive words, so the lanes of a warp share lines. */
static void reuse_kernel(uint32_t i, void *p) {
    uint32_t s = 0, want = 0;
    for (uint32_t k = 0; k < REPS; k++) {
        s += mem_phases_small[(i + k) % SMALL_N];
        want += (i + k) % SMALL_N;
    }
    if (s != want)
        bad = 2;
}

int main(void) {
    uint32_t threads = vx_num_cores() * vx_num_warps() * vx_num_threads();
    wsim_spawn(SMALL_N, fill_kernel, 0);
    wsim_spawn(threads, warm_kernel, 0);
    wsim_phase(1);
    wsim_spawn(BIG_LINES, stream_kernel, 0);
    wsim_phase(2);
    wsim_spawn(ITEMS_PER_THREAD * threads, reuse_kernel, 0);
    wsim_phase(0);
    if (vx_core_id() != 0)
        return 0;
    if (bad) {
        wsim_printf("mem_phases: FAIL %u\n", bad);
        return bad;
    }
    wsim_printf("mem_phases: OK\n");
    return 0;
}
