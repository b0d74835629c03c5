/* gcn.h - the GCN layer descriptor shared by the host (wsim run) and the GCN programs.
 *
 * A GCN program is a graph program (graph.h's `wsim_graph`, algorithm GR_GCN, laid out by
 * the host as A + I: every vertex with a self-loop added) with a second descriptor,
 * `wsim_gcn_t wsim_gcn`, for the layer: the sparse input features X, the weights W and
 * the two results, H = X W (SpMM) and the output Â H (GraphSum). The program sets magic
 * and version; the host fills the rest before the run and reads H and the output after
 * it. docs/GCN.md describes the layer; sim/src/gcn_image.rs is the host side and must
 * agree word for word.
 */
#ifndef WSIM_GCN_H
#define WSIM_GCN_H

#include <stdint.h>

#define WSIM_GCN_MAGIC   0x314E4347u   /* "GCN1" */
#define WSIM_GCN_VERSION 1u

/* graph.h's algorithm and schedule ids continued (sim/src/graph_image.rs names them). */
#define GR_GCN 5u
#define GR_GNNADVISOR 10u
#define GR_ACCEL_GCN 11u
#define GR_TLPGNN 12u
#define GR_BIKD 13u

typedef struct {
    uint32_t magic;          /* program: WSIM_GCN_MAGIC */
    uint32_t version;        /* program: WSIM_GCN_VERSION */
    uint32_t features;       /* host: F, the width of H and of the output */
    uint32_t in_features;    /* host: the columns of X (the rows of W) */
    uint32_t x_nnz;          /* host: X's nonzeros */
    uint32_t l2_bytes;       /* host: the L2's capacity (a cluster's), 0 without an L2 */
    uint32_t local_bytes;    /* host: a core's local memory */
    const uint32_t *x_offsets; /* host: X's rows, V + 1 */
    const uint32_t *x_columns; /* host: x_nnz, sorted within a row */
    const float *x_values;     /* host: x_nnz */
    const float *weights;      /* host: W, in_features x F, row-major */
    float *hidden;             /* host: H = X W, V x F, zeroed */
    float *output;             /* host: the layer's output, V x F, zeroed */
} wsim_gcn_t;

_Static_assert(sizeof(wsim_gcn_t) == 13 * 4, "descriptor layout: see sim/src/gcn_image.rs");

/* Statistics phases (CSR 0x7C0): the two kernels of Figure 4.19, and inside GraphSum the
 * graph kernels' steps (graph.h) where a design has them. */
#define GCN_PH_OTHER   0u  /* runtime: launches, main, the barriers that end kernels */
#define GCN_PH_INIT    1u  /* zeroing H and the output; each kernel's set-up */
#define GCN_PH_SPMM    2u  /* H = X W */
#define GCN_PH_REG     3u  /* registration: Weaver registration, a design's preprocessing */
#define GCN_PH_WORKID  4u  /* work-id calculation: the next vertex, group, block or edge */
#define GCN_PH_EDGE    5u  /* edge access: the neighbour (and a stored coefficient) */
#define GCN_PH_GATHER  6u  /* gather & sum: coefficient, features, accumulation, output */

/* Iteration records (CSR 0x7C6): the value is the launch's kernel. */
#define GCN_REC_INIT      0u
#define GCN_REC_SPMM      1u
#define GCN_REC_PREPARE   2u  /* a design's preprocessing, before GraphSum */
#define GCN_REC_GRAPHSUM  3u

#endif
