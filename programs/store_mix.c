/* store_mix.c - read-heavy and write-heavy launches in turn over two arrays of 64k words
 * (512 KB, past a 16 KB L1 with no L2). Four rounds, each a write launch (two stores per
 * element, no load) and a read launch (two loads per element, summed per thread, and on
 * every eighth trip of the loop a store of their sum to a third array), then a check.
 * Written for issue 49 to correlate with Vortex SimX (docs/CORRELATION.md) how a DRAM
 * turns between reads and writes: whole launches of writes, then reads with a trickle of
 * writes among them. On 4-lane warps every warp access is 16 bytes, a quarter of a line.
 *
 * Each launch (wsim_spawn) starts one work item per hardware thread, looping over
 * i = thread + k * threads; element i belongs to the same thread in every launch, so each
 * core only reads words it wrote itself. The eighth-trip store depends on k alone, so
 * control flow is the same in every lane when the thread count divides N.
 *
 * Exit: 0 ok; 1 + i for a wrong element i (capped at 0xfffe) found by this core; 0xfffd
 * for a wrong sum; 0xfff0 when the machine has more threads than the count arrays; 0xfff1
 * when the core's threads did not check all of their words.
 */
#include "wsim.h"

#define N (1u << 16)
#define ROUNDS 4u

static uint32_t a[N] __attribute__((aligned(64)));
static uint32_t b[N] __attribute__((aligned(64)));
static uint32_t c[N] __attribute__((aligned(64)));
static volatile uint32_t bad[WSIM_MAX_CORES * 16] __attribute__((aligned(64)));
#define MAX_THREADS 16384u
static volatile uint32_t checked[MAX_THREADS];
static volatile uint32_t sums[MAX_THREADS];

static uint32_t threads(void) { return vx_num_cores() * vx_num_warps() * vx_num_threads(); }

static inline uint32_t fa(uint32_t r, uint32_t i) { return i * 0x9e3779b9u + r; }
static inline uint32_t fb(uint32_t r, uint32_t i) { return (i ^ (r << 20)) * 3u; }

static void write_kernel(uint32_t t, void *p) {
    uint32_t r = (uint32_t)(uintptr_t)p;
    for (uint32_t i = t, s = threads(); i < N; i += s) {
        a[i] = fa(r, i);
        b[i] = fb(r, i);
    }
}

static void read_kernel(uint32_t t, void *p) {
    uint32_t acc = 0, k = 0;
    for (uint32_t i = t, s = threads(); i < N; i += s, k++) {
        uint32_t u = a[i], v = b[i];
        acc += u ^ v;
        if ((k & 7) == 0)
            c[i] = u + v;
    }
    sums[t] += acc;
}

static void check_kernel(uint32_t t, void *p) {
    uint32_t count = 0, want = 0, k = 0, last = ROUNDS - 1;
    for (uint32_t i = t, s = threads(); i < N; i += s, k++, count++) {
        for (uint32_t r = 0; r < ROUNDS; r++)
            want += fa(r, i) ^ fb(r, i);
        if (a[i] != fa(last, i) || b[i] != fb(last, i) ||
            ((k & 7) == 0 && c[i] != fa(last, i) + fb(last, i)))
            bad[vx_core_id() * 16] = i + 1;
    }
    if (sums[t] != want)
        bad[vx_core_id() * 16] = 0xfffd;
    checked[t] = count;
}

int main(void) {
    uint32_t n = threads();
    uint32_t cid = vx_core_id();
    if (n > MAX_THREADS) {
        if (cid == 0)
            wsim_printf("store_mix: %u threads exceed the count arrays\n", n);
        return 0xfff0;
    }
    wsim_phase(1);
    for (uint32_t r = 0; r < ROUNDS; r++) {
        wsim_spawn(n, write_kernel, (void *)(uintptr_t)r);
        wsim_spawn(n, read_kernel, 0);
    }
    wsim_phase(0);
    wsim_spawn(n, check_kernel, 0);
    uint32_t per_core = n / vx_num_cores(), sum = 0, first_h = cid * per_core;
    uint32_t rem = N % n, tail = rem > first_h ? rem - first_h : 0;
    uint32_t want = (N / n) * per_core + (tail < per_core ? tail : per_core);
    for (uint32_t h = first_h; h < first_h + per_core; h++)
        sum += checked[h];
    if (sum != want) {
        wsim_printf("store_mix: core %u checked %u words, want %u\n", cid, sum, want);
        return 0xfff1;
    }
    uint32_t first = bad[cid * 16];
    if (first == 0xfffd) {
        wsim_printf("store_mix: FAIL core %u: a thread's sum\n", cid);
        return 0xfffd;
    }
    if (first != 0) {
        uint32_t i = first - 1;
        wsim_printf("store_mix: FAIL core %u at %u: a %u b %u c %u\n", cid, i, a[i], b[i], c[i]);
        return 1 + (i < 0xfffe ? i : 0xfffe);
    }
    if (cid == 0)
        wsim_printf("store_mix: OK %u words x %u rounds\n", N, ROUNDS);
    return 0;
}
