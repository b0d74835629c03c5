/* store_stream.c - store-heavy streaming: grid-stride loops over two arrays of 64k words
 * with one load per store, written to correlate the store path with Vortex SimX
 * (docs/CORRELATION.md): write-through stores that do not allocate in the L1 and go to
 * DRAM one warp store at a time, beside reads that stream the other array from DRAM.
 *
 * Each launch (wsim_spawn) starts one work item per hardware thread, which loops over
 * i = thread, thread + threads, ... (a few instructions per element, so memory, not the
 * front end, sets the pace). Launches: init a[i] = fa(i) (stores only); then three passes
 * b[i] = 3 a[i] + i, a[i] = b[i] ^ K, b[i] = a[i] - 7 (a load and a store each); then
 * verify (two loads). Every launch gives element i to the same thread, so each core only
 * reads words it wrote itself: the program needs no coherence between the cores' L1s and
 * runs on several cores of SimX too. When the thread count divides N (the machines SimX
 * is compared on), control flow is the same in every lane.
 *
 * Exit: 0 ok; 1 + i for a wrong element i (capped at 0xfffe) found by this core; 0xfff0
 * when the machine has more threads than the count array; 0xfff1 when the core's threads
 * did not check all of their words (a launch that skipped some).
 */
#include "wsim.h"

#define N (1u << 16)
#define K 0x2c5a96e1u

static int32_t a[N] __attribute__((aligned(64)));
static int32_t b[N] __attribute__((aligned(64)));
/* One flag per core, a line apart: the first wrong element + 1, written by any of its
 * threads and read by the core once all its threads are done. */
static volatile uint32_t bad[WSIM_MAX_CORES * 16] __attribute__((aligned(64)));
/* Elements each thread checked, summed per core afterwards: the check covered them all. */
#define MAX_THREADS 16384u
static volatile uint32_t checked[MAX_THREADS];

static inline int32_t fa(uint32_t i) { return (int32_t)(i * 2654435761u) >> 3; }

/* What each pass leaves, from the formulas: the reference the verification checks. */
static inline int32_t pass1(uint32_t i) { return 3 * fa(i) + (int32_t)i; }
static inline int32_t pass2(uint32_t i) { return (int32_t)((uint32_t)pass1(i) ^ K); }
static inline int32_t pass3(uint32_t i) { return pass2(i) - 7; }

static uint32_t threads(void) { return vx_num_cores() * vx_num_warps() * vx_num_threads(); }

/* One pass over the elements of thread t: dst[i] = op(src[i], i), pointers stepped by the
 * thread count so that the loop is a load, the operation, a store and the steps. */
#define PASS(name, dst, src, expr)                                                      \
    static void name(uint32_t t, void *p) {                                              \
        uint32_t s = threads();                                                          \
        const int32_t *x = src + t;                                                      \
        int32_t *y = dst + t, *end = dst + N;                                            \
        for (uint32_t i = t; y < end; x += s, y += s, i += s) {                          \
            int32_t v = *x;                                                              \
            *y = expr;                                                                   \
        }                                                                                \
    }

static void init_kernel(uint32_t t, void *p) {
    uint32_t s = threads();
    for (uint32_t i = t; i < N; i += s)
        a[i] = fa(i);
}
PASS(scale_kernel, b, a, 3 * v + (int32_t)i)
PASS(xor_kernel, a, b, (int32_t)((uint32_t)v ^ K))
PASS(sub_kernel, b, a, v - 7)

static void verify_kernel(uint32_t t, void *p) {
    uint32_t count = 0;
    for (uint32_t i = t, s = threads(); i < N; i += s, count++)
        if (a[i] != pass2(i) || b[i] != pass3(i))
            bad[vx_core_id() * 16] = i + 1;
    checked[t] = count;
}

int main(void) {
    uint32_t n = threads();
    uint32_t cid = vx_core_id();
    if (n > MAX_THREADS) {
        if (cid == 0)
            wsim_printf("store_stream: %u threads exceed the count array\n", n);
        return 0xfff0;
    }
    wsim_spawn(n, init_kernel, 0);
    wsim_phase(1);
    wsim_spawn(n, scale_kernel, 0);
    wsim_spawn(n, xor_kernel, 0);
    wsim_spawn(n, sub_kernel, 0);
    wsim_phase(0);
    wsim_spawn(n, verify_kernel, 0);
    /* The elements whose thread (i mod n) is one of this core's. */
    uint32_t per_core = n / vx_num_cores(), sum = 0, first_h = cid * per_core;
    uint32_t rem = N % n, tail = rem > first_h ? rem - first_h : 0;
    uint32_t want = (N / n) * per_core + (tail < per_core ? tail : per_core);
    for (uint32_t h = first_h; h < first_h + per_core; h++)
        sum += checked[h];
    if (sum != want) {
        wsim_printf("store_stream: core %u checked %u words, want %u\n", cid, sum, want);
        return 0xfff1;
    }
    uint32_t first = bad[cid * 16];
    if (first != 0) {
        uint32_t i = first - 1;
        wsim_printf("store_stream: FAIL core %u: a[%u] = %d (want %d), b[%u] = %d (want %d)\n",
                    cid, i, a[i], pass2(i), i, b[i], pass3(i));
        return 1 + (i < 0xfffe ? i : 0xfffe);
    }
    if (cid == 0)
        wsim_printf("store_stream: OK %u words\n", N);
    return 0;
}
