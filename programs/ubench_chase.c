/* ubench_chase.c - load-to-use latency of each level of the memory hierarchy by dependent
 * pointer chasing (one thread: core 0, warp 0, lane 0; other cores return at once, so it
 * runs with run.start = all-cores or first-core).
 *
 * For each footprint F (4 KiB: L1 hit; 256 KiB: L1 miss, L2 hit; 8 MiB: more than the
 * default L2 + L3, DRAM) one pointer per UB_LINE bytes forms a pseudo-random cycle over
 * the F / UB_LINE lines (a full-period LCG, so consecutive loads are to unrelated lines and
 * no locality helps). A warm-up walks the whole cycle once when it has at most WARM_MAX
 * lines (so the L1 and L2 footprints are resident), then N_TIMED dependent loads
 * (`lw p, 0(p)`, unrolled by 8 in a 64-byte-aligned loop) are timed with mcycle.
 * The DRAM footprint is too large to warm; its chain is only initialised along the
 * W_DRAM + N_TIMED nodes the walk visits, which are distinct lines never loaded before:
 * with write-through, no-write-allocate caches (the default) every timed load misses every
 * cache (the initialising stores do not allocate).
 *
 * Results (ubench_results): pairs (footprint in bytes, centi-cycles per load), in the
 * order 4 KiB, 256 KiB, 8 MiB; ubench_count = 6.
 * Exit: 0; 1 if the L1 chain did not come back to its start (broken initialisation).
 */
#include "ubench.h"

#define UB_LINE   64u
#define N_TIMED   512u          /* multiple of 8 */
#define WARM_MAX  4096u         /* lines: warm the whole cycle up to this size */
#define W_DRAM    64u           /* warm-up loads (code, I-cache) for the DRAM footprint */

#define FP_L1   (4u << 10)
#define FP_L2   (256u << 10)
#define FP_DRAM (8u << 20)

/* Separate regions, so warming one footprint does not disturb another. */
static uint8_t arena[FP_DRAM + FP_L2 + FP_L1] __attribute__((aligned(4096)));

/* Next line index of the cycle: x -> (a x + c) mod m, full period for m a power of two
 * (a = 1 mod 4, c odd). */
static inline uint32_t lcg_next(uint32_t x, uint32_t m) {
    return (1664525u * x + 1013904223u) & (m - 1u);
}

/* n8 x 8 dependent loads; the final `addi` waits for the last one, so an mcycle read
 * after the call includes its latency. */

/* Link `nodes` nodes of the cycle over the m lines at base, starting at line 0. */
static void build(uint8_t *base, uint32_t m, uint32_t nodes) {
    uint32_t x = 0;
    for (uint32_t s = 0; s < nodes; s++) {
        uint32_t nx = lcg_next(x, m);
        *(uint32_t *volatile *)(base + x * UB_LINE) = (uint32_t *)(base + nx * UB_LINE);
        x = nx;
    }
}

static uint32_t measure(uint8_t *base, uint32_t footprint, uint32_t **end) {
    uint32_t m = footprint / UB_LINE;
    uint32_t warm = m <= WARM_MAX ? m : W_DRAM;
    uint32_t nodes = warm + N_TIMED;
    if (nodes > m)
        nodes = m;
    build(base, m, nodes);
    ubench_settle(20000); /* let the initialising write-through stores reach DRAM */
    uint32_t *p = chase((uint32_t *)base, warm / 8);
    uint32_t t0 = wsim_cycles32();
    p = chase(p, N_TIMED / 8);
    uint32_t t1 = wsim_cycles32();
    *end = p;
    uint32_t centi = ubench_centi(t1 - t0, N_TIMED);
    ubench_record(footprint);
    ubench_record(centi);
    ubench_print_centi("ubench_chase: footprint (bytes)", footprint, centi);
    return centi;
}

int main(void) {
    if (vx_core_id() != 0)
        return 0;
    uint32_t *end;
    ubench_count = 0;
    measure(arena + FP_DRAM + FP_L2, FP_L1, &end);
    /* 64 warm-up + 512 timed loads = 9 turns of the 64-line cycle: back at line 0. */
    int bad = end != (uint32_t *)(arena + FP_DRAM + FP_L2);
    measure(arena + FP_DRAM, FP_L2, &end);
    measure(arena, FP_DRAM, &end);
    if (bad) {
        wsim_printf("ubench_chase: FAIL the L1 chain is not a cycle\n");
        return 1;
    }
    return 0;
}
