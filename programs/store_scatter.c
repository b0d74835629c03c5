/* store_scatter.c - stores whose lines are scattered over 256 KB: each warp owns chunks of
 * one word per lane (16 bytes on 4-lane warps) and visits them in an order that jumps
 * between DRAM rows, first storing only (two launches), then copying scattered chunks of
 * one array to scattered chunks of another (one load and one store per chunk), then a
 * check. Written for issue 49 to correlate with Vortex SimX (docs/CORRELATION.md) writes
 * that hit DRAM rows at random, where streams see row hits almost only.
 *
 * Chunk j of a warp-sized group of lanes lives at p(j) * lanes, p(j) = j * P mod chunks
 * (P odd: a permutation); group g of G visits j = g, g + G, ...; every lane of a warp is
 * in one group, so control flow is the same in every lane when G divides the chunk count.
 * Element e belongs to the same thread in every launch (the lane of its chunk, the group
 * that visits it), so each core only reads words it wrote itself.
 *
 * Exit: 0 ok; 1 + e for a wrong element e (capped at 0xfffe) found by this core; 0xfff0
 * when the machine has more threads than the count array; 0xfff1 when the core's threads
 * did not check all of their words.
 */
#include "wsim.h"

#define N (1u << 16)
#define P 0x2f1bu
#define Q 0x0a57u

static uint32_t a[N] __attribute__((aligned(64)));
static uint32_t b[N] __attribute__((aligned(64)));
static volatile uint32_t bad[WSIM_MAX_CORES * 16] __attribute__((aligned(64)));
#define MAX_THREADS 16384u
static volatile uint32_t checked[MAX_THREADS];

static uint32_t threads(void) { return vx_num_cores() * vx_num_warps() * vx_num_threads(); }

static inline uint32_t fa(uint32_t k, uint32_t e) { return e * 0x85ebca6bu ^ k; }

/* The element lane `l` of chunk `j` owns under the permutation factor `f`. */
static inline uint32_t elem(uint32_t f, uint32_t j, uint32_t l, uint32_t lanes) {
    return ((j * f) & (N / lanes - 1)) * lanes + l;
}

static void fill_kernel(uint32_t t, void *p) {
    uint32_t k = (uint32_t)(uintptr_t)p, lanes = vx_num_threads();
    uint32_t l = t % lanes, g = t / lanes, groups = threads() / lanes;
    for (uint32_t j = g; j < N / lanes; j += groups) {
        uint32_t e = elem(P, j, l, lanes);
        a[e] = fa(k, e);
    }
}

/* b at chunk p_Q(j) takes a's chunk p_P(j), plus one: a scattered load and store. */
static void copy_kernel(uint32_t t, void *p) {
    uint32_t lanes = vx_num_threads();
    uint32_t l = t % lanes, g = t / lanes, groups = threads() / lanes;
    for (uint32_t j = g; j < N / lanes; j += groups)
        b[elem(Q, j, l, lanes)] = a[elem(P, j, l, lanes)] + 1;
}

/* The check walks the same chunks, so each thread reads what it wrote. */
static void check_kernel(uint32_t t, void *p) {
    uint32_t lanes = vx_num_threads(), count = 0;
    uint32_t l = t % lanes, g = t / lanes, groups = threads() / lanes;
    for (uint32_t j = g; j < N / lanes; j += groups, count++) {
        uint32_t e = elem(P, j, l, lanes), d = elem(Q, j, l, lanes);
        if (a[e] != fa(1, e) || b[d] != fa(1, e) + 1)
            bad[vx_core_id() * 16] = e + 1;
    }
    checked[t] = count;
}

int main(void) {
    uint32_t n = threads();
    uint32_t cid = vx_core_id();
    if (n > MAX_THREADS) {
        if (cid == 0)
            wsim_printf("store_scatter: %u threads exceed the count array\n", n);
        return 0xfff0;
    }
    wsim_phase(1);
    wsim_spawn(n, fill_kernel, (void *)0);
    wsim_spawn(n, fill_kernel, (void *)1);
    wsim_spawn(n, copy_kernel, 0);
    wsim_phase(0);
    wsim_spawn(n, check_kernel, 0);
    /* The chunks this core's groups visit: group g of G visits those j = g mod G. */
    uint32_t lanes = vx_num_threads(), chunks = N / lanes, groups = n / lanes;
    uint32_t per_core = n / vx_num_cores(), sum = 0, want = 0;
    for (uint32_t h = cid * per_core; h < (cid + 1) * per_core; h++) {
        uint32_t g = h / lanes;
        sum += checked[h];
        want += g < chunks ? (chunks - g + groups - 1) / groups : 0;
    }
    if (sum != want) {
        wsim_printf("store_scatter: core %u checked %u chunks, want %u\n", cid, sum, want);
        return 0xfff1;
    }
    uint32_t first = bad[cid * 16];
    if (first != 0) {
        uint32_t e = first - 1;
        wsim_printf("store_scatter: FAIL core %u at element %u: a %u\n", cid, e, a[e]);
        return 1 + (e < 0xfffe ? e : 0xfffe);
    }
    if (cid == 0)
        wsim_printf("store_scatter: OK %u words\n", N);
    return 0;
}
