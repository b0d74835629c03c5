/* vecadd.c - c[i] = a[i] + b[i] over N elements with wsim_spawn; core 0 checks.
 * Exit: 0 ok; 1 + i for the first wrong element i (capped at 0xffff). */
#include "wsim.h"

#define N 1000

static int32_t a[N], b[N], c[N];

struct args { const int32_t *a, *b; int32_t *c; };

static void init_kernel(uint32_t i, void *p) {
    a[i] = (int32_t)(i * 3u) - 700;
    b[i] = (int32_t)(i * i) ^ 0x5a5a;
}

static void vecadd_kernel(uint32_t i, void *p) {
    struct args *x = p;
    x->c[i] = x->a[i] + x->b[i];
}

int main(void) {
    static struct args args = { a, b, c };
    wsim_spawn(N, init_kernel, 0);
    wsim_phase(1);
    wsim_spawn(N, vecadd_kernel, &args);
    wsim_phase(0);
    if (vx_core_id() != 0)
        return 0;
    for (uint32_t i = 0; i < N; i++) {
        int32_t want = ((int32_t)(i * 3u) - 700) + ((int32_t)(i * i) ^ 0x5a5a);
        if (c[i] != want) {
            wsim_printf("vecadd: FAIL c[%d] = %d, want %d\n", i, c[i], want);
            return 1 + (i < 0xfffe ? i : 0xfffe);
        }
    }
    wsim_printf("vecadd: OK (%d elements)\n", N);
    return 0;
}
