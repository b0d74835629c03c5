/* ubench.h - shared helpers of the timing microbenchmarks (programs/ubench_*.c).
 *
 * Each microbenchmark records its measurements in the global array `ubench_results`
 * (`ubench_count` entries) and prints them. tests/microbench.rs finds both through the ELF
 * symbol table and reads them from simulated memory after the run; the meaning of entry i
 * is documented at the top of each program. Cycle figures are in centi-cycles
 * (cycles x 100) so fractions survive the integer division.
 */
#ifndef UBENCH_H
#define UBENCH_H

#include "wsim.h"

#define UBENCH_MAX 64

/* Not static: the test looks them up by name. `used` keeps them even if unreferenced. */
__attribute__((used)) volatile uint32_t ubench_results[UBENCH_MAX];
__attribute__((used)) volatile uint32_t ubench_count;

/* A value the compiler cannot know (always 0 at run time): used to make an address depend
 * on a loaded value without changing it. */
__attribute__((used)) volatile uint32_t ubench_zero;

static inline void ubench_record(uint32_t value) {
    uint32_t i = ubench_count;
    if (i < UBENCH_MAX) {
        ubench_results[i] = value;
        ubench_count = i + 1;
    }
}

/* cycles x 100 / n, rounded to nearest. */
static inline uint32_t ubench_centi(uint32_t cycles, uint32_t n) {
    return (uint32_t)(((uint64_t)cycles * 100u + n / 2) / n);
}

/* Print "label value.xx" for a centi-cycle value. */
static inline void ubench_print_centi(const char *label, uint32_t arg, uint32_t centi) {
    wsim_printf("%s %u: %u.%02u cycles\n", label, arg, centi / 100, centi % 100);
}

/* Busy-wait `cycles` cycles (lets write-through stores drain before a measurement). */
static inline void ubench_settle(uint32_t cycles) {
    uint32_t t0 = wsim_cycles32();
    while (wsim_cycles32() - t0 < cycles) {
    }
}

/* n8 x 8 dependent loads through the chain at p; the final `addi` waits for the last one,
 * so an mcycle read after the call includes its latency. The loop counter is decremented
 * after the first load, so the branch waits only for the last load's issue, and the first
 * instruction after the branch is the next load: with a front end that holds a warp's fetch
 * until the branch leaves its unit (Vortex's), that load is fetched as soon as possible. */
static __attribute__((noinline, unused)) uint32_t *chase(uint32_t *p, uint32_t n8) {
    __asm__ volatile(
        ".balign 64\n"
        "1:\n\t"
        "lw %0, 0(%0)\n\t"
        "addi %1, %1, -1\n\t"
        "lw %0, 0(%0)\n\t"
        "lw %0, 0(%0)\n\t"
        "lw %0, 0(%0)\n\t"
        "lw %0, 0(%0)\n\t"
        "lw %0, 0(%0)\n\t"
        "lw %0, 0(%0)\n\t"
        "lw %0, 0(%0)\n\t"
        "bnez %1, 1b\n\t"
        "addi %0, %0, 0\n"
        : "+r"(p), "+r"(n8)
        :
        : "memory");
    return p;
}

#endif
