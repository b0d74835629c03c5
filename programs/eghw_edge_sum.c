/* eghw_edge_sum.c - weaver_edge_sum in the EGHW comparison mode (weaver.mode = eghw). */
#define WEAVER_EGHW 1
#include "weaver_edge_sum.c"
