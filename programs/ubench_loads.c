/* ubench_loads.c - loads in flight: every warp of the core runs the same loop of
 * independent loads that hit the L1 data cache (8 `lw` to distinct registers from one
 * line), started together by a barrier. The core's LSU keeps at most `core.lsu_pending`
 * loads in flight (Vortex SimX: 2), each from its request to its answer, so the warps get
 * that many loads per L1 hit latency instead of the front end's rate. Each figure is a
 * difference of two runs of the loop that differ only in how many loads its body repeats
 * (64 and 32), so the loop's own instructions cancel out.
 * Results (ubench_results, centi-cycles): [0] per load and warp, every warp of the core at
 * once. Run on one core. Exit: 0. On Vortex SimX (e6fcb7d2, 4 warps x 4 threads): 16.00.
 */
#include "ubench.h"

#define REPS 16u

static uint32_t line[16] __attribute__((aligned(64)));

#define LOADS                                                                              \
    "lw t0, 0(%2)\n\tlw t1, 4(%2)\n\tlw t2, 8(%2)\n\tlw t3, 12(%2)\n\t"                    \
    "lw t4, 16(%2)\n\tlw t5, 20(%2)\n\tlw t6, 24(%2)\n\tlw a7, 28(%2)"

/* A loop of `reps` iterations whose body is `n` copies of LOADS; its cycles. */
#define TIMED_LOADS(name, n)                                                               \
    static __attribute__((noinline)) uint32_t name(uint32_t reps) {                        \
        uint32_t a = 1;                                                                    \
        uint32_t t0 = wsim_cycles32();                                                     \
        __asm__ volatile("1:\n\t.rept " #n "\n\t" LOADS "\n\t.endr\n\t"                    \
                         "addi %1, %1, -1\n\tbnez %1, 1b\n\t"                               \
                         "add %0, %0, %1"                                                   \
                         : "+r"(a), "+r"(reps)                                              \
                         : "r"(line)                                                        \
                         : "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a7", "memory");      \
        return wsim_cycles32() - t0 + (a & ubench_zero);                                   \
    }

TIMED_LOADS(loads64, 8)
TIMED_LOADS(loads32, 4)

#define BAR_LOADS 1u

static volatile uint32_t per_load;

static void loads(uint32_t gid, void *arg) {
    (void)arg;
    (void)gid;
    /* Every lane loads the same words: one line request per load, and control flow the
     * same in every lane (SimX runs it too). */
    uint32_t warps = vx_num_warps();
    loads64(1);
    loads32(1);
    vx_barrier(BAR_LOADS, warps);
    uint32_t t0 = wsim_cycles32();
    loads64(REPS);
    vx_barrier(BAR_LOADS, warps);
    uint32_t t1 = wsim_cycles32();
    loads32(REPS);
    vx_barrier(BAR_LOADS, warps);
    uint32_t t2 = wsim_cycles32();
    if (vx_warp_id() == 0)
        per_load = ubench_centi((t1 - t0) - (t2 - t1), 32u * REPS);
}

int main(void) {
    ubench_count = 0;
    wsim_spawn(vx_num_warps() * vx_num_threads(), loads, 0);
    ubench_record(per_load);
    ubench_print_centi("load per warp, warps", vx_num_warps(), ubench_results[0]);
    return 0;
}
