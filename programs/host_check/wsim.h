/* host_check/wsim.h - host shim replacing runtime/wsim.h so that the plain-C logic of some
 * programs (kernels, reference functions, checks, printf) can be compiled with the host
 * compiler and run sequentially: one core, one warp, one lane; wsim_spawn runs the grid in a
 * loop. SIMT-only intrinsics (split/join/vote/shuffle/...) are deliberately absent. */
#ifndef WSIM_H
#define WSIM_H
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WSIM_HOST 1
#define WSIM_BAR_GLOBAL_BIT 0x80000000u

static inline uint32_t vx_thread_id(void)   { return 0; }
static inline uint32_t vx_warp_id(void)     { return 0; }
static inline uint32_t vx_core_id(void)     { return 0; }
static inline uint32_t vx_num_threads(void) { return 1; }
static inline uint32_t vx_num_warps(void)   { return 1; }
static inline uint32_t vx_num_cores(void)   { return 1; }
static inline uint32_t vx_hart_id(void)     { return 0; }
static inline uint32_t vx_thread_mask(void) { return 1; }
static inline void wsim_phase(uint32_t n)   { (void)n; }
static inline void wsim_fence(void)         { }
static inline void vx_barrier(uint32_t id, uint32_t n) { (void)id; (void)n; }
static inline void wsim_global_barrier(void) { }
static inline uint32_t wsim_cycles32(void)  { return 0; }
static inline uint32_t wsim_lanes_mask(uint32_t n) { return n >= 32 ? 0xFFFFFFFFu : ((1u << n) - 1u); }

#define wsim_printf printf
static inline void wsim_putchar(int c) { putchar(c); }
static inline void wsim_puts(const char *s) { fputs(s, stdout); }
static inline void wsim_set_status(uint32_t c) { if (c) { printf("status %u\n", c); } }
static inline void wsim_exit(uint32_t c) { exit((int)c); }

typedef void (*wsim_kernel_t)(uint32_t gid, void *arg);
static inline void wsim_spawn(uint32_t grid, wsim_kernel_t k, void *arg) {
    for (uint32_t g = 0; g < grid; g++) k(g, arg);
}
#endif
