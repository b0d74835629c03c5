/* phase_names.c - a program that names its statistics phases through `wsim_phase_names`
 * (the report and the JSON show the names; tests/phase_names.rs) and leaves one phase
 * unnamed (reported by its number).
 *
 * Phase 0 "setup" fills a histogram's input, phase 1 "count" builds the histogram with
 * atomics, phase 2 "prefix" turns it into offsets (core 0 alone), phase 5 (unnamed) checks.
 * Exit: 0 ok; 1 a count is wrong; 2 an offset is wrong.
 */
#include "wsim.h"

#define N 2048u
#define BINS 16u

/* Index = phase number, ended by a null pointer. */
const char *const wsim_phase_names[] __attribute__((used)) = {"setup", "count", "prefix", 0};

static uint32_t input[N];
static uint32_t histogram[BINS];
static uint32_t offsets[BINS];

static uint32_t bin_of(uint32_t i) { return (i * 2654435761u) >> 28; }

static void fill_kernel(uint32_t i, void *p) { input[i] = bin_of(i); }

static void count_kernel(uint32_t i, void *p) {
    __atomic_fetch_add(&histogram[input[i]], 1, __ATOMIC_RELAXED);
}

int main(void) {
    wsim_spawn(N, fill_kernel, 0);
    wsim_phase(1);
    wsim_spawn(N, count_kernel, 0);
    wsim_phase(2);
    if (vx_core_id() != 0)
        return 0;
    uint32_t sum = 0;
    for (uint32_t b = 0; b < BINS; b++) {
        offsets[b] = sum;
        sum += histogram[b];
    }
    wsim_phase(5);
    uint32_t want[BINS] = {0};
    for (uint32_t i = 0; i < N; i++)
        want[bin_of(i)]++;
    for (uint32_t b = 0, at = 0; b < BINS; at += want[b], b++) {
        if (histogram[b] != want[b]) {
            wsim_printf("phase_names: FAIL bin %d counted %d, want %d\n", b, histogram[b], want[b]);
            return 1;
        }
        if (offsets[b] != at) {
            wsim_printf("phase_names: FAIL offset %d is %d, want %d\n", b, offsets[b], at);
            return 2;
        }
    }
    wsim_printf("phase_names: OK (%d items, %d bins)\n", N, BINS);
    return 0;
}
