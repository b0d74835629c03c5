/* barriers.c - local barriers (all warps of a core) and global barriers (across cores).
 *  1  local barrier: warps exchange values through local (shared) memory over several rounds
 *  2  global barrier from main (warp 0 of each core, wsim_global_barrier): cores exchange
 *     values through global memory over several rounds
 *  3  global barrier over every warp of every core (id | 0x80000000, count = cores*warps)
 *  4  coverage: every hardware thread ran the kernels
 * Supports up to 32768 hardware threads and 256 cores; all of them take part.
 * Exit status: 0 ok, otherwise the number above of the first failing check. */
#include "wsim.h"

#define ROUNDS 6
#define BAR_LOCAL  2u
#define BAR_GLOBAL (WSIM_BAR_GLOBAL_BIT | 2u)
#define MAX_THREADS 32768
#define MAX_CORES 256

static volatile uint32_t err_local, err_global, err_global_all;
static volatile uint32_t ran[MAX_THREADS];
static volatile uint32_t gbuf[2][MAX_CORES];
static volatile uint32_t gall[2][MAX_THREADS];

static uint32_t val(uint32_t round, uint32_t who) { return (round + 1) * 0x10001u ^ (who * 2654435761u); }

/* Every thread of a core: write my slot, barrier, read the slot of a thread in another
 * warp (next warp, same lane) which was written by that warp before the barrier. */
static void local_kernel(uint32_t gid, void *arg) {
    uint32_t T = vx_num_threads(), W = vx_num_warps();
    uint32_t per_core = T * W;
    uint32_t me = gid % per_core;
    volatile uint32_t *lmem = (volatile uint32_t *)vx_local_mem();
    ran[gid] += 1;
    for (uint32_t r = 0; r < ROUNDS; r++) {
        volatile uint32_t *buf = lmem + (r & 1) * per_core;
        buf[me] = val(r, me);
        wsim_fence();
        vx_barrier(BAR_LOCAL, W);
        uint32_t other = (me + T) % per_core;
        if (buf[other] != val(r, other))
            err_local = 1;
    }
}

/* Every thread of every core, global barrier over all warps of all cores. */
static void global_all_kernel(uint32_t gid, void *arg) {
    uint32_t n = *(uint32_t *)arg;
    uint32_t total_warps = vx_num_cores() * vx_num_warps();
    uint32_t per_core = vx_num_threads() * vx_num_warps();
    for (uint32_t r = 0; r < ROUNDS; r++) {
        gall[r & 1][gid] = val(r, gid + 1000);
        wsim_fence();
        vx_barrier(BAR_GLOBAL, total_warps);
        uint32_t other = (gid + per_core) % n;        /* same slot, next core */
        if (gall[r & 1][other] != val(r, other + 1000))
            err_global_all = 1;
    }
}

int main(void) {
    uint32_t C = vx_num_cores(), W = vx_num_warps(), T = vx_num_threads();
    uint32_t n = C * W * T;
    uint32_t core = vx_core_id();
    if (n > MAX_THREADS || C > MAX_CORES || 2 * W * T * 4 > 16384) {
        if (core == 0) wsim_printf("barriers: configuration too large for this test\n");
        return 0x7f;
    }
    /* 1: local barriers (each core independently) */
    wsim_spawn(n, local_kernel, 0);

    /* 2: global barrier among warp 0 of every core */
    for (uint32_t r = 0; r < ROUNDS; r++) {
        gbuf[r & 1][core] = val(r, core + 7);
        wsim_global_barrier();
        uint32_t other = (core + 1) % C;
        if (gbuf[r & 1][other] != val(r, other + 7))
            err_global = 1;
    }

    /* 3: global barrier among every warp of every core */
    wsim_spawn(n, global_all_kernel, &n);

    if (core != 0)
        return 0;
    if (err_local) { wsim_printf("barriers: FAIL local barrier exchange\n"); return 1; }
    if (err_global) { wsim_printf("barriers: FAIL global barrier (main) exchange\n"); return 2; }
    if (err_global_all) { wsim_printf("barriers: FAIL global barrier (all warps) exchange\n"); return 3; }
    for (uint32_t i = 0; i < n; i++)
        if (ran[i] != 1) { wsim_printf("barriers: FAIL thread %d ran %d times\n", i, ran[i]); return 4; }
    wsim_printf("barriers: OK (%d cores x %d warps x %d threads, %d rounds)\n", C, W, T, ROUNDS);
    return 0;
}
