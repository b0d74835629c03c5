/* graph.h - the graph descriptor shared by the host (wsim run --graph) and the kernels.
 *
 * A graph program defines one global `wsim_graph_t wsim_graph` with the fields marked
 * "program" set statically. The host finds the symbol in the ELF, lays the graph out in
 * simulated memory and fills the fields marked "host" before the run; after the run it reads
 * `result` back and checks it against its own reference. docs/KERNELS.md describes the
 * layout; sim/src/graph_image.rs is the host side and must agree word for word.
 */
#ifndef WSIM_GRAPH_H
#define WSIM_GRAPH_H

#include <stdint.h>

#define WSIM_GRAPH_MAGIC   0x48505247u   /* "GRPH" */
#define WSIM_GRAPH_VERSION 1u

/* algorithm */
#define GR_PR   1u
#define GR_BFS  2u
#define GR_SSSP 3u
#define GR_CC   4u
/* direction */
#define GR_PUSH 0u
#define GR_PULL 1u
/* schedule (informational: the host prints it) */
#define GR_VM 1u
#define GR_EM 2u
#define GR_WM 3u
#define GR_CM 4u
#define GR_TWC 5u
#define GR_TWCE 6u
#define GR_STRICT 7u
#define GR_SPARSEWEAVER 8u
#define GR_EGHW 9u
#define GR_EM_SEARCH 14u /* after the GCN designs' 10-13 (gcn/gcn.h) */

/* Unreached vertex (BFS level, SSSP distance). */
#define GR_INF 0xFFFFFFFFu

/* Statistics phases (CSR 0x7C0), the dissertation's breakdown (Figure 4.17) plus apply. */
#define PH_OTHER    0u  /* runtime: launches, main's loop, barriers between kernels */
#define PH_INIT     1u  /* vertex values, initial frontier, each kernel's set-up */
#define PH_REG      2u  /* registration: frontier, topology, prefix sums, queues, scans */
#define PH_WORKID   3u  /* work-id calculation: next (vertex, edge) of a thread */
#define PH_EDGE     4u  /* edge information access: neighbour id and weight */
#define PH_GATHER   5u  /* gather & sum: filters, the algorithm, output frontier */
#define PH_APPLY    6u  /* apply step and frontier maintenance */

typedef struct {
    uint32_t magic;              /* program: WSIM_GRAPH_MAGIC */
    uint32_t version;            /* program: WSIM_GRAPH_VERSION */
    uint32_t algorithm;          /* program: GR_PR .. GR_CC */
    uint32_t direction;          /* program: GR_PUSH / GR_PULL */
    uint32_t schedule;           /* program: GR_VM .. GR_EGHW, GR_EM_SEARCH */
    uint32_t scratch_per_vertex; /* program: zeroed scratch words per vertex */
    uint32_t scratch_per_edge;   /* program: ... per edge */
    uint32_t scratch_per_step;   /* program: ... per possible super-step */
    uint32_t scratch_fixed;      /* program: ... in addition */
    uint32_t num_vertices;       /* host */
    uint32_t num_edges;          /* host */
    uint32_t source;             /* host: BFS / SSSP source */
    uint32_t iterations;         /* host: PageRank iterations */
    uint32_t max_steps;          /* host: max(V, iterations) + 2, bound on super-steps */
    const uint32_t *out_offsets; /* host: CSR offsets, V + 1 */
    const uint32_t *out_targets; /* host: CSR destinations, E, sorted by (src, dst) */
    const uint32_t *out_weights; /* host: weight of each CSR edge, E */
    const uint32_t *out_sources; /* host: COO: source of each CSR edge, E */
    const uint32_t *in_offsets;  /* host: CSC offsets, V + 1 */
    const uint32_t *in_sources;  /* host: CSC sources, E, sorted by (dst, src) */
    const uint32_t *in_weights;  /* host: weight of each CSC edge, E */
    const uint32_t *in_dests;    /* host: COO: destination of each CSC edge, E */
    const uint32_t *out_degree;  /* host: out-degree of each vertex, V */
    uint32_t *result;            /* host: V words, read back (levels, distances, labels, float ranks) */
    uint32_t *scratch;           /* host: zeroed words, as many as the scratch_* fields ask */
    uint32_t supersteps;         /* device: super-steps run */
} wsim_graph_t;

_Static_assert(sizeof(wsim_graph_t) == 26 * 4, "descriptor layout: see sim/src/graph_image.rs");

#endif
