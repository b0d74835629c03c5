/* float_atomics.c - amoadd.f (atomic_add_f32) from every thread of the machine: N work
 * items each add an inexact value (so the order of the sums shows in the rounding) to one of
 * SLOTS counters and record the value they replaced. The host check (tests/float_atomics.rs)
 * rebuilds each counter's chain of sums from the recorded values in f32 and requires every
 * step to be exact and every addition to appear once. Exit status 0. */
#include "wsim.h"

#define N 2048
#define SLOTS 5

float slots[SLOTS];
float olds[N];

/* The addend of work item i: 0.1 to 1.6 in steps of 0.1 (none exact in binary). */
static inline float addend(uint32_t i) { return (float)(i % 16 + 1) * 0.1f; }

static void add_kernel(uint32_t i, void *p) {
    (void)p;
    olds[i] = atomic_add_f32(&slots[i % SLOTS], addend(i));
}

int main(void) {
    wsim_spawn(N, add_kernel, 0);
    return 0;
}
