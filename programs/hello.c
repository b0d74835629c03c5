/* hello.c - every core prints a greeting from main, in core order (cores take turns between
 * global barriers so that their characters do not interleave); exit 0. */
#include "wsim.h"

int main(void) {
    uint32_t core = vx_core_id(), ncores = vx_num_cores();
    for (uint32_t c = 0; c < ncores; c++) {
        if (c == core)
            wsim_printf("Hello from wsim core %d (of %d; %d warps x %d threads)\n",
                        core, ncores, vx_num_warps(), vx_num_threads());
        if (ncores > 1)
            wsim_global_barrier();
    }
    return 0;
}
