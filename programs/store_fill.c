/* store_fill.c - pure stores: four launches whose grid-stride loops each overwrite an
 * array of 64k words, a[i] = f(k, i) for pass k, then one launch that checks the last
 * pass. Written to correlate the store path with Vortex SimX (docs/CORRELATION.md): every
 * warp store is a write-through write that does not allocate in the L1, so the stores go
 * to DRAM with nothing else in flight. Each launch (wsim_spawn) starts one work item per
 * hardware thread, which loops over i = thread, thread + threads, ...; element i is stored
 * and checked by the same thread in every launch, so each core only reads words it wrote
 * itself (no coherence between the cores' L1s is needed). When the thread count divides N
 * (the machines SimX is compared on), control flow is the same in every lane.
 *
 * Exit: 0 ok; 1 + i for a wrong element i (capped at 0xfffe) found by this core; 0xfff0
 * when the machine has more threads than the count array; 0xfff1 when the core's threads
 * did not check all of their words (a launch that skipped some).
 */
#include "wsim.h"

#define N (1u << 16)
#define PASSES 4u

static uint32_t a[N] __attribute__((aligned(64)));
/* One flag per core, a line apart: the first wrong element + 1. */
static volatile uint32_t bad[WSIM_MAX_CORES * 16] __attribute__((aligned(64)));
/* Elements each thread checked, summed per core afterwards: the check covered them all. */
#define MAX_THREADS 16384u
static volatile uint32_t checked[MAX_THREADS];

/* The value pass k stores at i: the reference the check uses. */
static inline uint32_t f(uint32_t k, uint32_t i) { return (i * 0x9e3779b9u) ^ (k << 24) ^ k; }

static uint32_t threads(void) { return vx_num_cores() * vx_num_warps() * vx_num_threads(); }

static void fill_kernel(uint32_t t, void *p) {
    uint32_t k = (uint32_t)(uintptr_t)p;
    for (uint32_t i = t, s = threads(); i < N; i += s)
        a[i] = f(k, i);
}

static void check_kernel(uint32_t t, void *p) {
    uint32_t count = 0;
    for (uint32_t i = t, s = threads(); i < N; i += s, count++)
        if (a[i] != f(PASSES - 1, i))
            bad[vx_core_id() * 16] = i + 1;
    checked[t] = count;
}

int main(void) {
    uint32_t n = threads();
    uint32_t cid = vx_core_id();
    if (n > MAX_THREADS) {
        if (cid == 0)
            wsim_printf("store_fill: %u threads exceed the count array\n", n);
        return 0xfff0;
    }
    wsim_phase(1);
    for (uint32_t k = 0; k < PASSES; k++)
        wsim_spawn(n, fill_kernel, (void *)(uintptr_t)k);
    wsim_phase(0);
    wsim_spawn(n, check_kernel, 0);
    /* The elements whose thread (i mod n) is one of this core's. */
    uint32_t per_core = n / vx_num_cores(), sum = 0, first_h = cid * per_core;
    uint32_t rem = N % n, tail = rem > first_h ? rem - first_h : 0;
    uint32_t want = (N / n) * per_core + (tail < per_core ? tail : per_core);
    for (uint32_t h = first_h; h < first_h + per_core; h++)
        sum += checked[h];
    if (sum != want) {
        wsim_printf("store_fill: core %u checked %u words, want %u\n", cid, sum, want);
        return 0xfff1;
    }
    uint32_t first = bad[cid * 16];
    if (first != 0) {
        uint32_t i = first - 1;
        wsim_printf("store_fill: FAIL core %u: a[%u] = %u, want %u\n", cid, i, a[i],
                    f(PASSES - 1, i));
        return 1 + (i < 0xfffe ? i : 0xfffe);
    }
    if (cid == 0)
        wsim_printf("store_fill: OK %u words x %u passes\n", N, PASSES);
    return 0;
}
