/* args.c - a kernel sized by its arguments (`wsim run args.elf -- N [STEP]`, the WSIM_ARGS
 * block of wsim_args.h): c[i] = i * STEP over N elements (default 256 and 3; N at most 4096);
 * core 0 checks them and prints what it was given.
 * Exit: 0 ok; 1 an argument that is not a number in range; 2 + i for the first wrong c[i]. */
#include "wsim.h"
#include "wsim_args.h"

WSIM_ARGS;

#define MAX_N 4096

static uint32_t c[MAX_N];
static uint32_t step;

/* Argument k as a decimal number, `fallback` when there is none, -1 when it is no number. */
static int32_t number(int k, int32_t fallback) {
    if (k >= wsim_args.argc)
        return fallback;
    const char *s = wsim_args.argv[k];
    int32_t v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > 10000000)
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

static void fill(uint32_t i, void *p) { c[i] = i * *(uint32_t *)p; }

int main(void) {
    int32_t n = number(1, 256), s = number(2, 3);
    if (n < 1 || n > MAX_N || s < 0) {
        if (vx_core_id() == 0)
            wsim_printf("args: usage: args.elf -- N (1 to %d) [STEP]\n", MAX_N);
        return 1;
    }
    step = (uint32_t)s;
    wsim_spawn((uint32_t)n, fill, &step);
    if (vx_core_id() != 0)
        return 0;
    for (int32_t i = 0; i < n; i++) {
        if (c[i] != (uint32_t)i * step) {
            wsim_printf("args: FAIL c[%d] = %u, want %u\n", i, c[i], (uint32_t)i * step);
            return 2 + i;
        }
    }
    for (int k = 0; k < wsim_args.argc; k++)
        wsim_printf("args: argv[%d] = %s\n", k, wsim_args.argv[k]);
    wsim_printf("args: OK (%d elements, step %d)\n", n, s);
    return 0;
}
