/* runtime.h - device side of the graph framework: machine geometry, the per-super-step
 * context (storage of the walking direction, input and output frontiers, scratch), frontier
 * updates, launches, and the scans and searches the schedules share.
 *
 * A program is one translation unit (kernel.c) compiled with GR_DIR, GR_ALGO_FILE and
 * GR_SCHED_FILE, so the algorithm's UDFs and the storage access inline into the
 * schedule's loops (as GRAssembler's templates do). See docs/KERNELS.md.
 */
#ifndef GR_RUNTIME_H
#define GR_RUNTIME_H

#include "wsim.h"
#include "graph.h"

#if !defined(GR_DIR) || (GR_DIR != GR_PUSH && GR_DIR != GR_PULL)
#error "compile with -DGR_DIR=GR_PUSH or -DGR_DIR=GR_PULL"
#endif
#define GR_PULL_DIR (GR_DIR == GR_PULL)

/* The program's form (docs/KERNELS.md), -DGR_FORM=GR_FORM_<name> from the program's name:
 * the dissertation's (Algorithm 2.1: the sum applied per edge with an atomic; Figure 4.9
 * for SparseWeaver and EGHW), the tuned one (sums in registers or per warp run, a test
 * before each atomic), or VM pull without atomics on vertex values (section 2.4.1). */
#define GR_FORM_dissertation 0
#define GR_FORM_tuned 1
#define GR_FORM_atomicfree 2
#if !defined(GR_FORM) || GR_FORM < 0 || GR_FORM > 2
#error "compile with -DGR_FORM=GR_FORM_dissertation, GR_FORM_tuned or GR_FORM_atomicfree"
#endif
#define GR_TUNED (GR_FORM == GR_FORM_tuned)
#define GR_ATOMIC_FREE (GR_FORM == GR_FORM_atomicfree)

/* Local barrier id the schedules use among the warps of a core (the runtime owns 0). */
#define GR_BAR 2u

#define PHASE(n) wsim_phase(n)

/* A point where the lanes of a warp that diverged before it run together again, placed
 * before shuffles and barriers. The engine reconverges at immediate post-dominators, but
 * the compiler may duplicate a join block into the branches before it (a loop guard, say),
 * which moves the post-dominator past the shuffle. Graph programs are compiled with
 * -fconvergent-functions, which makes inline asm convergent: this empty asm cannot be
 * duplicated, so every path reaches it and it stays the join. */
static inline void gr_converge(void) { __asm__ volatile ("" ::: "memory"); }

extern wsim_graph_t wsim_graph;

/* Where a thread is. A block (CTA) is the warps of one core: they share local memory and
 * local barriers. */
typedef struct {
    uint32_t T, W, C;          /* threads per warp, warps per core, cores */
    uint32_t lane, warp, core;
    uint32_t B, btid;          /* threads per block, thread id in the block */
    uint32_t gwarp, nwarps;    /* global warp id, warps in the machine */
    uint32_t gtid, nthreads;   /* global thread id, threads in the machine */
} gr_geo;

static inline gr_geo gr_geometry(void) {
    gr_geo g;
    g.T = vx_num_threads();
    g.W = vx_num_warps();
    g.C = vx_num_cores();
    g.lane = vx_thread_id();
    g.warp = vx_warp_id();
    g.core = vx_core_id();
    g.B = g.T * g.W;
    g.btid = g.warp * g.T + g.lane;
    g.gwarp = g.core * g.W + g.warp;
    g.nwarps = g.C * g.W;
    g.gtid = g.core * g.B + g.btid;
    g.nthreads = g.C * g.B;
    return g;
}

/* Everything a kernel of super-step `step` needs. Base vertices are the vertices whose
 * edge lists are walked: sources in push (the input frontier, or all vertices), every
 * destination in pull. */
typedef struct {
    uint32_t step, V, E;
    uint32_t n;                 /* number of base vertices */
    const uint32_t *queue;      /* base vertex i = queue[i]; i itself when NULL */
    const uint32_t *off, *nbr;  /* CSR (push) or CSC (pull): offsets and opposite vertices */
    const uint32_t *wt;         /* weight of each edge of nbr */
    const uint32_t *coo;        /* base vertex of each edge of nbr (for EM) */
    const uint32_t *in_map;     /* input frontier as a bitmap */
    uint32_t *out_map, *out_queue, *out_cnt;
    uint32_t *cnt;              /* cnt[s] = size of the input frontier of super-step s */
    uint32_t *result;           /* V words: the algorithm's output */
    uint32_t *algo;             /* the algorithm's scratch, then the schedule's */
} gr_ctx;

/* The schedule's scratch: after the algorithm's (a macro: the algorithm is included later). */
#define GR_SCHED_SCRATCH(c) ((c)->algo + ALGO_SCRATCH_PER_VERTEX * (c)->V)

static inline uint32_t gr_bitmap_words(uint32_t V) { return (V + 31) / 32; }

/* Scratch the runtime needs (words), in the descriptor's units. */
#define GR_RT_SCRATCH_PER_VERTEX 3u /* two queues; two bitmaps need at most V/16 + 2 */
#define GR_RT_SCRATCH_PER_STEP 1u   /* frontier sizes */
#define GR_RT_SCRATCH_FIXED 2u

/* The initialisation kernel acts as super-step -1: its output frontier is step 0's input. */
#define GR_INIT_STEP 0xFFFFFFFFu

/* The context of super-step `step`; `data_driven`: base vertices (push) come from the
 * input queue rather than being every vertex. */
static inline gr_ctx gr_context(uint32_t step, uint32_t data_driven) {
    const wsim_graph_t *d = &wsim_graph;
    gr_ctx c;
    uint32_t V = d->num_vertices, bw = gr_bitmap_words(V);
    c.step = step;
    c.V = V;
    c.E = d->num_edges;
    c.result = d->result;
    c.off = GR_PULL_DIR ? d->in_offsets : d->out_offsets;
    c.nbr = GR_PULL_DIR ? d->in_sources : d->out_targets;
    c.wt = GR_PULL_DIR ? d->in_weights : d->out_weights;
    c.coo = GR_PULL_DIR ? d->in_dests : d->out_sources;
    uint32_t *s = d->scratch;
    c.cnt = s;
    s += d->max_steps;
    uint32_t *queues = s;
    s += 2 * V;
    uint32_t *maps = s;
    s += 2 * bw;
    c.algo = s;
    c.in_map = maps + (step & 1) * bw;
    c.out_map = maps + ((step + 1) & 1) * bw;
    c.out_queue = queues + ((step + 1) & 1) * V;
    c.out_cnt = &c.cnt[step + 1];
    if (data_driven && !GR_PULL_DIR) {
        c.queue = queues + (step & 1) * V;
        c.n = c.cnt[step];
    } else {
        c.queue = 0;
        c.n = V;
    }
    return c;
}

static inline uint32_t gr_base(const gr_ctx *c, uint32_t i) { return c->queue ? c->queue[i] : i; }

static inline int gr_active(const uint32_t *map, uint32_t v) { return (map[v >> 5] >> (v & 31)) & 1; }

/* Add v to the output frontier once: the bitmap deduplicates, the counter sizes it, and in
 * push direction the queue lists it for the next super-step. */
static inline void gr_activate(const gr_ctx *c, uint32_t v) {
    uint32_t bit = 1u << (v & 31);
    if (__atomic_fetch_or(&c->out_map[v >> 5], bit, __ATOMIC_RELAXED) & bit)
        return;
    uint32_t slot = __atomic_fetch_add(c->out_cnt, 1, __ATOMIC_RELAXED);
    if (!GR_PULL_DIR)
        c->out_queue[slot] = v;
}

/* Algorithm 2.1's sum for the algorithms whose sum is a minimum (BFS, SSSP, CC): value[dst]
 * = min(value[dst], data); nonzero when it dropped (the destination joins the output
 * frontier). The dissertation's form applies it with an atomic (amominu) per edge; the
 * tuned form reads first and skips the atomic when it cannot lower the value; the
 * atomic-free form (VM pull: the destination's thread is its only writer) loads, compares
 * and stores. */
static inline int gr_sum_min(const gr_ctx *c, uint32_t dst, uint32_t data) {
#if GR_ATOMIC_FREE
    if (data >= c->result[dst])
        return 0;
    c->result[dst] = data;
    return 1;
#else
    if (GR_TUNED && data >= c->result[dst])
        return 0;
    return data < __atomic_fetch_min(&c->result[dst], data, __ATOMIC_RELAXED);
#endif
}

/* Run kernel(hart, step) on every hardware thread once; returns when all have finished. */
static inline void gr_launch(wsim_kernel_t kernel, uint32_t step) {
    wsim_spawn(vx_num_cores() * vx_num_warps() * vx_num_threads(), kernel, (void *)(uintptr_t)step);
}

/* ---- shared by the schedules ---- */

/* Inclusive prefix sum over the lanes of the warp: log2(T) shuffles. All lanes must be
 * active (shuffles read inactive lanes' stale registers). */
static inline uint32_t gr_warp_scan(uint32_t x, uint32_t lane, uint32_t T) {
    for (uint32_t d = 1; d < T; d <<= 1) {
        uint32_t y = vx_shfl_up(x, d, T);
        if (lane >= d)
            x += y;
        gr_converge();
    }
    return x;
}

/* Exclusive prefix sum of x over the threads of the core; *total = the sum. `sh` holds W
 * words of local memory. Two local barriers; the caller must pass a barrier before the next
 * call reuses `sh`. */
static inline uint32_t gr_block_scan(uint32_t x, const gr_geo *g, uint32_t *sh, uint32_t *total) {
    uint32_t incl = gr_warp_scan(x, g->lane, g->T);
    if (g->lane == g->T - 1)
        sh[g->warp] = incl;
    gr_converge();
    vx_barrier(GR_BAR, g->W);
    if (g->warp == 0) {
        uint32_t carry = 0;
        for (uint32_t b = 0; b < g->W; b += g->T) {
            uint32_t i = b + g->lane;
            uint32_t t = i < g->W ? sh[i] : 0;
            gr_converge();
            t = gr_warp_scan(t, g->lane, g->T) + carry;
            if (i < g->W)
                sh[i] = t;
            gr_converge();
            carry = vx_shfl_idx(t, g->T - 1, g->T);
        }
    }
    gr_converge();
    vx_barrier(GR_BAR, g->W);
    *total = sh[g->W - 1];
    return (g->warp ? sh[g->warp - 1] : 0) + incl - x;
}

/* The largest j in [lo, hi) with pfx[j] <= k (pfx non-decreasing, pfx[lo] <= k): the entry
 * that owns work item k. */
static inline uint32_t gr_search(const uint32_t *pfx, uint32_t lo, uint32_t hi, uint32_t k) {
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) >> 1;
        if (pfx[mid] <= k)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

#endif
