/* atomics.c - atomics across all lanes, warps and cores.
 *  1  contended counter: every hardware thread does ITERS amoadd.w of 1; expect the exact total
 *  2  amoadd return values: every old value seen is unique (each thread records a bitmap bit)
 *  3  spin lock (amoswap.w.aq / sw .rl) protecting a non-atomic read-modify-write of two words
 *  4  lr/sc increment loop (contended)
 *  5  amomin.w / amomax.w / amominu.w / amomaxu.w over all thread values
 *  6  amoor.w: every thread sets its bit of a multi-word bitmap; amoand.w clears them again
 * Exit status: 0 ok, otherwise the number above of the first failing check. */
#include "wsim.h"

#define ITERS 8
#define MAX_THREADS 4096

static volatile uint32_t counter;
static volatile uint32_t lrsc_counter;
static volatile uint32_t lock;
static volatile uint32_t shared_a, shared_b;   /* protected by lock; b == 2*a always */
static volatile int32_t  vmin = 0x7fffffff, vmax = (int32_t)0x80000000;
static volatile uint32_t umin = 0xffffffffu, umax = 0;
static volatile uint32_t seen[MAX_THREADS * ITERS / 32];
static volatile uint32_t bits[MAX_THREADS / 32];
static volatile uint32_t bad_lock;

static inline uint32_t amoadd(volatile uint32_t *p, uint32_t v) {
    uint32_t old;
    __asm__ volatile ("amoadd.w %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");
    return old;
}
static inline uint32_t amoswap_aq(volatile uint32_t *p, uint32_t v) {
    uint32_t old;
    __asm__ volatile ("amoswap.w.aq %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");
    return old;
}
static inline void store_rl(volatile uint32_t *p, uint32_t v) {
    __asm__ volatile ("fence rw, w; sw %1, 0(%0)" :: "r"(p), "r"(v) : "memory");
}
#define AMO(name, insn)                                                                   \
    static inline uint32_t name(volatile void *p, uint32_t v) {                           \
        uint32_t old;                                                                     \
        __asm__ volatile (insn " %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");  \
        return old;                                                                       \
    }
AMO(amomin, "amomin.w")
AMO(amomax, "amomax.w")
AMO(amominu, "amominu.w")
AMO(amomaxu, "amomaxu.w")
AMO(amoor, "amoor.w")
AMO(amoand, "amoand.w")

static inline void lrsc_inc(volatile uint32_t *p) {
    uint32_t tmp, fail;
    __asm__ volatile (
        "1: lr.w.aq %0, (%2)\n"
        "   addi %0, %0, 1\n"
        "   sc.w.rl %1, %0, (%2)\n"
        "   bnez %1, 1b\n"
        : "=&r"(tmp), "=&r"(fail) : "r"(p) : "memory");
}

/* a value per thread with both signs: */
static int32_t thread_value(uint32_t t) { return (int32_t)((t * 2654435761u) ^ (t << 3)) ; }

static void kernel(uint32_t gid, void *arg) {
    for (int i = 0; i < ITERS; i++) {
        uint32_t old = amoadd(&counter, 1);
        if (old < MAX_THREADS * ITERS)
            amoor(&seen[old / 32], 1u << (old % 32));
    }
    /* Spin lock in SIMT code. A spin loop with several lanes of one warp contending
     * deadlocks under post-dominator reconvergence: the winning lane waits at the loop
     * exit for its warp-mates, which spin on the lock it holds. Writing the critical
     * section inside the retry loop does not help with a stock compiler (clang -O2
     * threads it back into `while (swap(&lock, 1)) {}`), so the lanes of a warp take
     * turns: only one lane of the warp is active while it spins. Warps and cores still
     * contend with each other. */
    uint32_t my_lane = vx_thread_id(), nt = vx_num_threads();
    for (uint32_t lane = 0; lane < nt; lane++) {
        if (lane == my_lane) {
            for (int i = 0; i < 4; i++) {
                while (amoswap_aq(&lock, 1) != 0) { }
                uint32_t a = shared_a;         /* plain loads and stores inside the lock */
                uint32_t b = shared_b;
                if (b != 2 * a) bad_lock = 1;
                shared_a = a + 1;
                shared_b = b + 2;
                store_rl(&lock, 0);
            }
        }
    }
    for (int i = 0; i < 4; i++)
        lrsc_inc(&lrsc_counter);
    int32_t v = thread_value(gid);
    amomin(&vmin, (uint32_t)v);
    amomax(&vmax, (uint32_t)v);
    amominu(&umin, (uint32_t)v);
    amomaxu(&umax, (uint32_t)v);
    amoor(&bits[gid / 32], 1u << (gid % 32));
}

static void clear_kernel(uint32_t gid, void *arg) {
    amoand(&bits[gid / 32], ~(1u << (gid % 32)));
}

int main(void) {
    uint32_t n = vx_num_cores() * vx_num_warps() * vx_num_threads();
    if (n > MAX_THREADS) n = MAX_THREADS;
    wsim_spawn(n, kernel, 0);
    if (vx_core_id() == 0) {
        uint32_t code = 0;
        if (counter != n * ITERS) {
            wsim_printf("atomics: FAIL counter %d want %d\n", counter, n * ITERS);
            code = 1;
        }
        for (uint32_t i = 0; !code && i < n * ITERS; i++)
            if (!((seen[i / 32] >> (i % 32)) & 1)) {
                wsim_printf("atomics: FAIL amoadd old value %d never returned\n", i);
                code = 2;
            }
        if (!code && (bad_lock || shared_a != n * 4 || shared_b != n * 8)) {
            wsim_printf("atomics: FAIL lock a=%d b=%d bad=%d want a=%d\n", shared_a, shared_b,
                        bad_lock, n * 4);
            code = 3;
        }
        if (!code && lrsc_counter != n * 4) {
            wsim_printf("atomics: FAIL lr/sc counter %d want %d\n", lrsc_counter, n * 4);
            code = 4;
        }
        if (!code) {
            int32_t wmin = 0x7fffffff, wmax = (int32_t)0x80000000;
            uint32_t wumin = 0xffffffffu, wumax = 0;
            for (uint32_t t = 0; t < n; t++) {
                int32_t v = thread_value(t);
                if (v < wmin) wmin = v;
                if (v > wmax) wmax = v;
                if ((uint32_t)v < wumin) wumin = (uint32_t)v;
                if ((uint32_t)v > wumax) wumax = (uint32_t)v;
            }
            if (vmin != wmin || vmax != wmax || umin != wumin || umax != wumax) {
                wsim_printf("atomics: FAIL min/max %x %x %x %x want %x %x %x %x\n", vmin, vmax,
                            umin, umax, wmin, wmax, wumin, wumax);
                code = 5;
            }
        }
        for (uint32_t t = 0; !code && t < n; t++)
            if (!((bits[t / 32] >> (t % 32)) & 1)) {
                wsim_printf("atomics: FAIL amoor bit %d\n", t);
                code = 6;
            }
        if (code)
            wsim_set_status(code);
    }
    wsim_global_barrier();          /* core 0 has read bits before anyone clears them */
    wsim_spawn(n, clear_kernel, 0);
    if (vx_core_id() == 0) {
        for (uint32_t i = 0; i < MAX_THREADS / 32; i++)
            if (bits[i] != 0) {
                wsim_printf("atomics: FAIL amoand word %d = %x\n", i, bits[i]);
                wsim_set_status(6);
                return 6;
            }
        wsim_printf("atomics: done (%d threads)\n", n);
    }
    return 0;
}
