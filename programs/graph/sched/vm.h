/* VM, vertex mapping: one base vertex per thread, which walks all its edges. In pull
 * direction the thread is its destination's only writer, so the atomic-free form (section
 * 2.4.1) updates it with plain loads and stores.
 * Table 4.1: no sync, kernel, atomic or shuffle in registration; nothing in distribution.
 * One kernel per super-step. */
#define SCHED_ID GR_VM
#define SCHED_SCRATCH_PER_VERTEX 0u
#define SCHED_SCRATCH_PER_STEP 0u
#define SCHED_SCRATCH_FIXED 0u
/* A thread alone updates its base vertex: in pull, the atomic-free form applies. */
#define SCHED_THREAD_OWNS_BASE 1

static void vm_kernel(uint32_t hart, void *arg) {
    gr_geo g;
    gr_ctx c = gr_enter(arg, &g);
    for (uint32_t i = g.gtid; i < c.n; i += g.nthreads) {
        PHASE(PH_REG);
        uint32_t v = gr_base(&c, i), loc, deg = gr_degree(&c, v, &loc);
        gr_walk(&c, v, loc, deg, 0, 1);
    }
    PHASE(PH_OTHER);
}

static void sched_gather(uint32_t step) { gr_launch(vm_kernel, step); }
