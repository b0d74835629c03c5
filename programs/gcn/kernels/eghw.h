/* EGHW (dissertation 4.6.8-9): the Weaver unit in its edge-generating mode reads the rows'
 * extents and each nonzero's column and value (SpMM) or each edge's source (GraphSum)
 * itself and hands them over in local memory; the kernel registers row ids and does the
 * arithmetic. Needs the unit in its EGHW mode, which the program declares. */
#define GCN_KERNEL GR_EGHW
#define WEAVER_EGHW 1

const unsigned char wsim_requires_eghw __attribute__((used)) = 1;

#include "sparseweaver.h"
