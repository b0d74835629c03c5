/* EGHW (dissertation section 4.6.8): the Weaver unit in its edge-generating mode also reads
 * the topology and each edge's neighbour and weight itself and hands them over in local
 * memory; the kernel only registers vertices (after the destination filter, without reading
 * their offsets) and gathers. The program requires the unit's EGHW mode, and says so. */
#define SCHED_ID GR_EGHW
#define WEAVER_EGHW 1
#include "sparseweaver.h"

WSIM_REQUIRES_EGHW;
