/* ubench_pipeline.c - the core pipeline's timing: the front end, issue -> writeback and
 * the functional units' queues. Each figure is a difference of two runs of a loop that
 * differ only in how many instructions its body repeats (64 and 32), so the loop's own
 * instructions cancel out.
 * Results (ubench_results, centi-cycles):
 *   [0] per instruction of a dependent integer chain (add a0, a0, a1), one warp;
 *   [1] per instruction of independent integer adds, one warp;
 *   [2] per iteration of the loop `addi; bnez` (the branch depends on the add), one warp;
 *   [3] per instruction and warp of independent fmadd.s, every warp of the core at once;
 *   [4] per instruction and warp of independent integer adds, every warp of the core at once.
 * Run on one core. Exit: 0.
 */
#include "ubench.h"

#define REPS 16u

/* A loop of `reps` iterations whose body is `n` copies of `body`; its cycles. */
#define TIMED_LOOP(name, n, body, clobbers)                                                \
    static __attribute__((noinline)) uint32_t name(uint32_t reps) {                        \
        uint32_t a = 1, b = 2;                                                            \
        uint32_t t0 = wsim_cycles32();                                                    \
        __asm__ volatile("1:\n\t.rept " #n "\n\t" body "\n\t.endr\n\t"                    \
                         "addi %1, %1, -1\n\tbnez %1, 1b\n\t"                              \
                         "add %0, %0, %1"                                                  \
                         : "+r"(a), "+r"(reps)                                             \
                         : "r"(b)                                                          \
                         : clobbers);                                                      \
        return wsim_cycles32() - t0 + (a & ubench_zero);                                  \
    }

#define DEPENDENT "add %0, %0, %2"
#define INDEPENDENT                                                                        \
    "addi t0, zero, 1\n\taddi t1, zero, 1\n\taddi t2, zero, 1\n\taddi t3, zero, 1\n\t"     \
    "addi t4, zero, 1\n\taddi t5, zero, 1\n\taddi t6, zero, 1\n\taddi a7, zero, 1"
#define FMAS                                                                               \
    "fmadd.s ft0, fa0, fa1, fa2\n\tfmadd.s ft1, fa0, fa1, fa2\n\t"                         \
    "fmadd.s ft2, fa0, fa1, fa2\n\tfmadd.s ft3, fa0, fa1, fa2\n\t"                         \
    "fmadd.s ft4, fa0, fa1, fa2\n\tfmadd.s ft5, fa0, fa1, fa2\n\t"                         \
    "fmadd.s ft6, fa0, fa1, fa2\n\tfmadd.s ft7, fa0, fa1, fa2"
#define INT_REGS "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a7"
#define FP_REGS "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7"

TIMED_LOOP(dependent64, 64, DEPENDENT, "memory")
TIMED_LOOP(dependent32, 32, DEPENDENT, "memory")
TIMED_LOOP(independent64, 8, INDEPENDENT, INT_REGS)
TIMED_LOOP(independent32, 4, INDEPENDENT, INT_REGS)
TIMED_LOOP(fma64, 8, FMAS, FP_REGS)
TIMED_LOOP(fma32, 4, FMAS, FP_REGS)

/* `iterations` turns of `addi; bnez`; its cycles. */
static __attribute__((noinline)) uint32_t branch_loop(uint32_t iterations) {
    uint32_t t0 = wsim_cycles32();
    __asm__ volatile("1:\n\taddi %0, %0, -1\n\tbnez %0, 1b" : "+r"(iterations));
    return wsim_cycles32() - t0 + (iterations & ubench_zero);
}

/* Centi-cycles per instruction: 32 x REPS more instructions in `big` than in `small`. */
static uint32_t per_instruction(uint32_t (*big)(uint32_t), uint32_t (*small)(uint32_t)) {
    big(1); /* bring the code into the instruction cache */
    small(1);
    uint32_t b = big(REPS), s = small(REPS);
    return ubench_centi(b - s, 32u * REPS);
}

/* Local barrier among the warps of the core (the runtime owns id 0). */
#define BAR_STREAMS 1u

static volatile uint32_t stream_fma, stream_alu;

/* Every warp of the core runs the same loops, started together by a barrier; warp 0 times
 * the spans from barrier to barrier, which end when the slowest warp is done. Centi-cycles
 * per instruction and warp. */
static uint32_t together(uint32_t (*big)(uint32_t), uint32_t (*small)(uint32_t)) {
    uint32_t warps = vx_num_warps();
    big(1);
    small(1);
    vx_barrier(BAR_STREAMS, warps);
    uint32_t t0 = wsim_cycles32();
    big(REPS);
    vx_barrier(BAR_STREAMS, warps);
    uint32_t t1 = wsim_cycles32();
    small(REPS);
    vx_barrier(BAR_STREAMS, warps);
    uint32_t t2 = wsim_cycles32();
    return ubench_centi((t1 - t0) - (t2 - t1), 32u * REPS);
}

static void streams(uint32_t gid, void *arg) {
    (void)arg;
    (void)gid;
    if (vx_thread_id() != 0)
        return;
    uint32_t fma = together(fma64, fma32);
    uint32_t alu = together(independent64, independent32);
    if (vx_warp_id() == 0) {
        stream_fma = fma;
        stream_alu = alu;
    }
}

int main(void) {
    ubench_count = 0;
    ubench_record(per_instruction(dependent64, dependent32));
    ubench_record(per_instruction(independent64, independent32));
    branch_loop(2);
    uint32_t loop = branch_loop(64u * REPS) - branch_loop(32u * REPS);
    ubench_record(ubench_centi(loop, 32u * REPS));
    uint32_t warps = vx_num_warps();
    wsim_spawn(warps * vx_num_threads(), streams, 0);
    ubench_record(stream_fma);
    ubench_record(stream_alu);
    ubench_print_centi("dependent add", 0, ubench_results[0]);
    ubench_print_centi("independent add", 0, ubench_results[1]);
    ubench_print_centi("addi+bnez loop", 0, ubench_results[2]);
    ubench_print_centi("fmadd per warp, warps", warps, ubench_results[3]);
    ubench_print_centi("add per warp, warps", warps, ubench_results[4]);
    return 0;
}
