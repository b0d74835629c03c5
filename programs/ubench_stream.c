/* ubench_stream.c - memory-bound streaming over all cores: c[i] = a[i] + b[i].
 *
 * Three launches with wsim_spawn over ubench_stream_n elements (STREAM_N, a compile-time
 * constant, by default; a test may lower the word `ubench_stream_n` in memory before the
 * run for a shorter one): init (a[i], b[i] from formulas), add (phase 1, timed with
 * mcycle by core 0), verify (each thread compares c[i] with the formula and records the
 * lowest wrong index with amominu). 3 x 4 bytes x STREAM_N = 6 MiB do not fit in the
 * caches, and with write-through caches the initialising stores do not allocate, so the add
 * streams from DRAM: its time follows the DRAM latency and bandwidth (e.g. the
 * memory.dram.clock_ratio).
 * On configs/sparseweaver.toml (6 cores x 32 warps x 32 threads) the run executes more
 * than 10 million thread instructions (the speed benchmark).
 *
 * Results (ubench_results): [0] elements, [1] cycles of the add launch, [2] cycles of the
 * whole run up to the end of the verification; ubench_count = 3.
 * Exit: 0 ok; 1 + i for the first wrong element i (capped at 0xffff).
 */
#include "ubench.h"

#define STREAM_N (1u << 19)

__attribute__((used)) volatile uint32_t ubench_stream_n = STREAM_N;

static int32_t a[STREAM_N], b[STREAM_N], c[STREAM_N];
static uint32_t first_bad = 0xffffffffu;

static inline int32_t fa(uint32_t i) { return (int32_t)(i * 7u) - 12345; }
static inline int32_t fb(uint32_t i) { return (int32_t)((i * i) ^ 0x5a5a5a5au); }

static void init_kernel(uint32_t i, void *p) {
    a[i] = fa(i);
    b[i] = fb(i);
}

static void add_kernel(uint32_t i, void *p) {
    c[i] = a[i] + b[i];
}

static void verify_kernel(uint32_t i, void *p) {
    if (c[i] != fa(i) + fb(i))
        __atomic_fetch_min(&first_bad, i, __ATOMIC_RELAXED);
}

int main(void) {
    uint32_t n = ubench_stream_n;
    if (n > STREAM_N)
        n = STREAM_N;
    uint32_t t0 = wsim_cycles32();
    wsim_spawn(n, init_kernel, 0);
    wsim_phase(1);
    uint32_t t1 = wsim_cycles32();
    wsim_spawn(n, add_kernel, 0);
    uint32_t t2 = wsim_cycles32();
    wsim_phase(0);
    wsim_spawn(n, verify_kernel, 0);
    uint32_t t3 = wsim_cycles32();
    if (vx_core_id() != 0)
        return 0;
    ubench_count = 0;
    ubench_record(n);
    ubench_record(t2 - t1);
    ubench_record(t3 - t0);
    if (first_bad != 0xffffffffu) {
        uint32_t i = first_bad;
        wsim_printf("ubench_stream: FAIL c[%u] = %d, want %d\n", i, c[i], fa(i) + fb(i));
        return 1 + (i < 0xfffe ? i : 0xfffe);
    }
    wsim_printf("ubench_stream: OK %u elements, add %u cycles, total %u cycles\n", n, t2 - t1,
                t3 - t0);
    return 0;
}
