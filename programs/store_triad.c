/* store_triad.c - three arrays of 64k words (768 KB, far past a 16 KB L1 with no L2): a
 * store-only launch that writes two arrays, then four launches that each load two arrays
 * and store the third (c = a + b style), then a check. Written for issue 49 to correlate
 * with Vortex SimX (docs/CORRELATION.md) the traffic a triad makes at DRAM: on 4-lane
 * warps every warp store is 16 bytes, a quarter of a line, written through the L1 without
 * allocating, and the reads of two arrays interleave with the writes of a third.
 *
 * Each launch (wsim_spawn) starts one work item per hardware thread, looping over
 * i = thread, thread + threads, ...; element i belongs to the same thread in every launch,
 * so each core only reads words it wrote itself (no coherence between the cores' L1s is
 * needed). When the thread count divides N, control flow is the same in every lane.
 *
 * Exit: 0 ok; 1 + i for a wrong element i (capped at 0xfffe) found by this core; 0xfff0
 * when the machine has more threads than the count array; 0xfff1 when the core's threads
 * did not check all of their words.
 */
#include "wsim.h"

#define N (1u << 16)

static uint32_t a[N] __attribute__((aligned(64)));
static uint32_t b[N] __attribute__((aligned(64)));
static uint32_t c[N] __attribute__((aligned(64)));
static volatile uint32_t bad[WSIM_MAX_CORES * 16] __attribute__((aligned(64)));
#define MAX_THREADS 16384u
static volatile uint32_t checked[MAX_THREADS];

static uint32_t threads(void) { return vx_num_cores() * vx_num_warps() * vx_num_threads(); }

static inline uint32_t a0(uint32_t i) { return i * 0x01000193u + 17; }
static inline uint32_t b0(uint32_t i) { return (i << 7) ^ 0x5bd1e995u; }
/* The launches, in order; the reference recomputes them per element. */
static inline uint32_t c1(uint32_t i) { return a0(i) + b0(i); }
static inline uint32_t a2(uint32_t i) { return b0(i) ^ c1(i); }
static inline uint32_t b3(uint32_t i) { return c1(i) - a2(i); }
static inline uint32_t c4(uint32_t i) { return a2(i) + 3 * b3(i); }

static void init_kernel(uint32_t t, void *p) {
    for (uint32_t i = t, s = threads(); i < N; i += s) {
        a[i] = a0(i);
        b[i] = b0(i);
    }
}

/* dst[i] = op(x[i], y[i]): two loads and a store per element. */
#define TRIAD(name, dst, x, y, expr)                                                    \
    static void name(uint32_t t, void *p) {                                              \
        for (uint32_t i = t, s = threads(); i < N; i += s) {                             \
            uint32_t u = x[i], v = y[i];                                                 \
            dst[i] = expr;                                                               \
        }                                                                                \
    }
TRIAD(k1, c, a, b, u + v)
TRIAD(k2, a, b, c, u ^ v)
TRIAD(k3, b, c, a, u - v)
TRIAD(k4, c, a, b, u + 3 * v)

static void check_kernel(uint32_t t, void *p) {
    uint32_t count = 0;
    for (uint32_t i = t, s = threads(); i < N; i += s, count++)
        if (a[i] != a2(i) || b[i] != b3(i) || c[i] != c4(i))
            bad[vx_core_id() * 16] = i + 1;
    checked[t] = count;
}

int main(void) {
    uint32_t n = threads();
    uint32_t cid = vx_core_id();
    if (n > MAX_THREADS) {
        if (cid == 0)
            wsim_printf("store_triad: %u threads exceed the count array\n", n);
        return 0xfff0;
    }
    wsim_phase(1);
    wsim_spawn(n, init_kernel, 0);
    wsim_spawn(n, k1, 0);
    wsim_spawn(n, k2, 0);
    wsim_spawn(n, k3, 0);
    wsim_spawn(n, k4, 0);
    wsim_phase(0);
    wsim_spawn(n, check_kernel, 0);
    uint32_t per_core = n / vx_num_cores(), sum = 0, first_h = cid * per_core;
    uint32_t rem = N % n, tail = rem > first_h ? rem - first_h : 0;
    uint32_t want = (N / n) * per_core + (tail < per_core ? tail : per_core);
    for (uint32_t h = first_h; h < first_h + per_core; h++)
        sum += checked[h];
    if (sum != want) {
        wsim_printf("store_triad: core %u checked %u words, want %u\n", cid, sum, want);
        return 0xfff1;
    }
    uint32_t first = bad[cid * 16];
    if (first != 0) {
        uint32_t i = first - 1;
        wsim_printf("store_triad: FAIL core %u at %u: a %u/%u b %u/%u c %u/%u\n", cid, i,
                    a[i], a2(i), b[i], b3(i), c[i], c4(i));
        return 1 + (i < 0xfffe ? i : 0xfffe);
    }
    if (cid == 0)
        wsim_printf("store_triad: OK %u words\n", N);
    return 0;
}
