/* ubench_stride.c - L1 capacity and line size from sequential dependent accesses (one
 * thread: core 0, warp 0, lane 0; other cores return at once).
 *
 * Every access is a dependent load `lw p, 0(p)`: the word at offset o of the region holds
 * the address of offset (o + stride) mod footprint, so the walk is a sequential sweep at the
 * given stride, repeated cyclically, and each load's full latency is exposed. One warm-up
 * sweep brings the footprint into the caches, then N_TIMED loads are timed with mcycle.
 *
 * (a) footprint sweep at stride 64 bytes (one access per 64-byte line), footprints
 *     1 KiB .. 128 KiB: a footprint that fits in the L1 data cache hits on every access; a
 *     larger one misses the L1 (LRU or FIFO, cyclic sweep) and hits the L2 (all footprints
 *     here fit in the L2). The jump lies between l1d.size and 2 x l1d.size.
 * (b) stride sweep at footprint 64 KiB (more than the L1, less than the L2), strides 4 ..
 *     256 bytes: with stride s < line, one access in line / s misses the L1, so cycles per
 *     access grow with s until s reaches the line size; from there on every access misses
 *     and the curve is flat.
 *
 * Results (ubench_results): (a) 8 pairs (footprint bytes, centi-cycles per access) at
 * indices 0..15, then (b) 7 pairs (stride bytes, centi-cycles per access) at 16..29;
 * ubench_count = 30. Exit: 0.
 */
#include "ubench.h"

#define N_TIMED 2048u            /* multiple of 8 */
#define FP_MAX  (128u << 10)
#define FP_B    (64u << 10)

static uint8_t arena[FP_MAX] __attribute__((aligned(4096)));


/* Centi-cycles per access of a cyclic sweep of `footprint` bytes at `stride`. */
static uint32_t sweep(uint32_t footprint, uint32_t stride) {
    uint32_t n = footprint / stride;
    for (uint32_t o = 0; o < footprint; o += stride) {
        uint32_t next = o + stride == footprint ? 0 : o + stride;
        *(uint32_t *volatile *)(arena + o) = (uint32_t *)(arena + next);
    }
    ubench_settle(5000);
    uint32_t warm = (n + 7u) & ~7u;
    uint32_t *p = chase((uint32_t *)arena, warm / 8);
    uint32_t t0 = wsim_cycles32();
    chase(p, N_TIMED / 8);
    uint32_t t1 = wsim_cycles32();
    return ubench_centi(t1 - t0, N_TIMED);
}

int main(void) {
    if (vx_core_id() != 0)
        return 0;
    ubench_count = 0;
    for (uint32_t fp = 1u << 10; fp <= FP_MAX; fp <<= 1) {
        uint32_t c = sweep(fp, 64);
        ubench_record(fp);
        ubench_record(c);
        ubench_print_centi("ubench_stride: stride 64, footprint (bytes)", fp, c);
    }
    for (uint32_t s = 4; s <= 256; s <<= 1) {
        uint32_t c = sweep(FP_B, s);
        ubench_record(s);
        ubench_record(c);
        ubench_print_centi("ubench_stride: footprint 64 KiB, stride (bytes)", s, c);
    }
    return 0;
}
