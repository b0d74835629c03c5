/* ubench_shared.c - local (shared) memory bank conflicts.
 *
 * One warp with all lanes active (wsim_spawn with a grid of exactly one warp: core 0,
 * warp 0; the other warps get no work). Lane l accesses the word at
 * local_base + l * stride * 4 for strides 1, 2, 4, 8, 16, 32 words. With B word-interleaved
 * banks the warp's access needs as many cycles as the most words any bank holds (the
 * conflict degree: gcd(stride, B) lanes per bank for power-of-two strides and B = threads).
 *
 * Latency: each lane's word holds its own address, so `lw p, 0(p)` repeated is a dependent
 * chain that keeps hitting the same pattern; N_LAT loads are timed by mcycle (the whole warp
 * reads it; lane 0 records). Expected: lsu + local_mem latency + degree - 1 per load.
 * Throughput: N_THR independent loads (8 per loop iteration, to distinct registers) from
 * the same addresses: the LSU accepts one every `degree` cycles.
 *
 * Results (ubench_results): 6 triples (stride in words, latency centi-cycles per load,
 * throughput centi-cycles per load); ubench_count = 18.
 * Exit: 0; 2 if a lane read back a wrong value; 3 if the grid did not run on core 0 warp 0.
 */
#include "ubench.h"

#define N_LAT 256u   /* multiple of 8 */
#define N_THR 512u   /* multiple of 8 */
#define MAX_STRIDE 32u

static volatile uint32_t errors;
static volatile uint32_t lanes_seen;


/* n8 x 8 independent loads from p; the final `add` waits for the last one. */
static __attribute__((noinline)) uint32_t stream(uint32_t *p, uint32_t n8) {
    uint32_t sum;
    __asm__ volatile(
        ".balign 64\n"
        "1:\n\t"
        "lw t0, 0(%1)\n\t"
        "lw t1, 0(%1)\n\t"
        "lw t2, 0(%1)\n\t"
        "lw t3, 0(%1)\n\t"
        "lw t4, 0(%1)\n\t"
        "lw t5, 0(%1)\n\t"
        "lw t6, 0(%1)\n\t"
        "lw %0, 0(%1)\n\t"
        "addi %2, %2, -1\n\t"
        "bnez %2, 1b\n\t"
        "add %0, %0, t6\n"
        : "=&r"(sum), "+r"(p), "+r"(n8)
        :
        : "t0", "t1", "t2", "t3", "t4", "t5", "t6", "memory");
    return sum;
}

static void kernel(uint32_t gid, void *arg) {
    uint32_t lane = gid;
    if (vx_core_id() == 0 && vx_warp_id() == 0)
        __atomic_fetch_or(&lanes_seen, 1u << lane, __ATOMIC_RELAXED);
    uint32_t *base = vx_local_mem();
    for (uint32_t stride = 1; stride <= MAX_STRIDE; stride <<= 1) {
        uint32_t *p = base + lane * stride;
        *(volatile uint32_t *)p = (uint32_t)p;
        p = chase(p, 1); /* warm-up (code) */
        uint32_t t0 = wsim_cycles32();
        p = chase(p, N_LAT / 8);
        uint32_t t1 = wsim_cycles32();
        uint32_t sum = stream(p, 1);
        uint32_t t2 = wsim_cycles32();
        sum = stream(p, N_THR / 8);
        uint32_t t3 = wsim_cycles32();
        if (p != base + lane * stride || sum != 2u * (uint32_t)p)
            errors = 1;
        if (lane == 0) {
            uint32_t lat = ubench_centi(t1 - t0, N_LAT);
            uint32_t thr = ubench_centi(t3 - t2, N_THR);
            ubench_record(stride);
            ubench_record(lat);
            ubench_record(thr);
        }
    }
}

int main(void) {
    uint32_t threads = vx_num_threads();
    if (vx_core_id() == 0)
        ubench_count = 0;
    wsim_spawn(threads, kernel, 0);
    if (vx_core_id() != 0)
        return 0;
    if (lanes_seen != wsim_lanes_mask(threads)) {
        wsim_printf("ubench_shared: FAIL lanes %x ran\n", lanes_seen);
        return 3;
    }
    if (errors) {
        wsim_printf("ubench_shared: FAIL wrong value read back\n");
        return 2;
    }
    for (uint32_t i = 0; i + 2 < ubench_count; i += 3) {
        uint32_t lat = ubench_results[i + 1], thr = ubench_results[i + 2];
        wsim_printf("ubench_shared: stride %u words: latency %u.%02u, throughput %u.%02u cycles/load\n",
                    ubench_results[i], lat / 100, lat % 100, thr / 100, thr % 100);
    }
    return 0;
}
