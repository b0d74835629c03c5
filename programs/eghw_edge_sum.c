/* eghw_edge_sum.c - weaver_edge_sum in the EGHW comparison mode (the program requires
 * weaver.mode = eghw: WSIM_REQUIRES_EGHW). */
#define WEAVER_EGHW 1
#include "weaver_edge_sum.c"

WSIM_REQUIRES_EGHW;
