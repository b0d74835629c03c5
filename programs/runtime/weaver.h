/* weaver.h - SparseWeaver on wsim: the unit's CSRs and the registration/distribution
 * helper every Weaver kernel uses (docs/WEAVER.md). The four instructions themselves are
 * in wsim.h: weaver_reg, weaver_dec_id, weaver_dec_loc, weaver_skip.
 */
#ifndef WSIM_WEAVER_H
#define WSIM_WEAVER_H

#include "wsim.h"

#define CSR_WEAVER_EGHW_OFFSETS 0x7C1
#define CSR_WEAVER_EGHW_EDGES   0x7C2
#define CSR_WEAVER_EGHW_WEIGHTS 0x7C3
#define CSR_WEAVER_EGHW_BUFFER  0x7C4
#define CSR_WEAVER_ENTRIES      0x7C5

#define WEAVER_NONE 0xFFFFFFFFu   /* weaver_dec_id: the work is exhausted */

/* A program that needs the unit in its EGHW mode (the comparison hardware) says so with
 * this, at file scope: wsim then builds the unit in that mode, and a configuration that
 * states another mode is an error (sim/src/machine.rs, REQUIRES_EGHW). */
#define WSIM_REQUIRES_EGHW const unsigned char wsim_requires_eghw __attribute__((used)) = 1

/* ST capacity of this core's unit (0: the machine has none). */
static inline uint32_t weaver_entries(void) { return csr_read(CSR_WEAVER_ENTRIES); }

/* EGHW mode: tell the core's unit where the graph is (CSR offsets, neighbours, weights or
 * 0). Any thread of the core may do it before the first decode. */
static inline void weaver_eghw_setup(const uint32_t *offsets, const uint32_t *edges,
                                     const uint32_t *weights) {
    csr_write(CSR_WEAVER_EGHW_OFFSETS, (uintptr_t)offsets);
    csr_write(CSR_WEAVER_EGHW_EDGES, (uintptr_t)edges);
    csr_write(CSR_WEAVER_EGHW_WEIGHTS, (uintptr_t)weights);
}

/* EGHW mode: the (neighbour, weight) pair the last decode handed this lane. */
struct weaver_edge { uint32_t neighbour, weight; };
static inline struct weaver_edge weaver_eghw_edge(void) {
    const volatile uint32_t *buf = (const volatile uint32_t *)csr_read(CSR_WEAVER_EGHW_BUFFER);
    uint32_t lane = vx_thread_id();
    struct weaver_edge e = { buf[2 * lane], buf[2 * lane + 1] };
    return e;
}

/* Registration of item i of the range: the vertex in *vid, its first edge in *loc; returns
 * the degree to register (0: filtered). */
typedef uint32_t (*weaver_vertex_fn)(uint32_t i, uint32_t *vid, uint32_t *loc, void *ctx);
/* Distribution: edge `eid` of vertex `vid`, in the lane that received it. Nonzero: the
 * vertex needs no more edges (WEAVER_SKIP drops the rest). */
typedef int (*weaver_edge_fn)(uint32_t vid, uint32_t eid, void *ctx);

/* In EGHW mode (WEAVER_EGHW defined before this header) the unit hands each lane its
 * edge itself (weaver_eghw_edge), so distribution issues no WEAVER_DEC_LOC and `edge` gets
 * eid 0. */
#ifdef WEAVER_EGHW
#define WEAVER_EDGE_ID() 0u
#else
#define WEAVER_EDGE_ID() weaver_dec_loc()
#endif

/* Every thread of every warp of the core calls this with the same [begin, end): the items
 * are registered in chunks no larger than the ST (registration, barrier, distribution,
 * barrier), and each edge of each registered vertex reaches `edge` exactly once (unless
 * skipped), in whichever warp asked for it. The distribution loop runs with every lane active
 * (save mask, activate all, restore), since WEAVER_DEC_ID sets the mask to the lanes that
 * received work. */
static inline void weaver_process(uint32_t begin, uint32_t end, weaver_vertex_fn vertex,
                                  weaver_edge_fn edge, void *ctx) {
    uint32_t nwarps = vx_num_warps(), nthreads = vx_num_threads();
    uint32_t tid = vx_warp_id() * nthreads + vx_thread_id();
    uint32_t stride = nwarps * nthreads;
    uint32_t chunk = weaver_entries();
    for (uint32_t base = begin; base < end; base += chunk) {
        uint32_t bound = end - base < chunk ? end : base + chunk;
        for (uint32_t i = base + tid; i < bound; i += stride) {
            uint32_t vid = i, loc = 0;
            uint32_t deg = vertex(i, &vid, &loc, ctx);
            weaver_reg(vid, loc, deg);
        }
        /* The lanes must meet here: an empty asm the compiler cannot duplicate into the
         * loop's exits (see docs/KERNELS.md, divergence before barriers). */
        __asm__ volatile ("" ::: "memory");
        vx_barrier(WSIM_BAR_WEAVER, nwarps);
        uint32_t saved = vx_thread_mask();
        vx_tmc(wsim_lanes_mask(nthreads));
        for (;;) {
            uint32_t vid = weaver_dec_id();
            if (vid == WEAVER_NONE)
                break;
            if (edge(vid, WEAVER_EDGE_ID(), ctx))
                weaver_skip(vid);
        }
        vx_tmc(saved);
        vx_barrier(WSIM_BAR_WEAVER, nwarps);
    }
}

#endif
