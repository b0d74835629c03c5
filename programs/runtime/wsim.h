/* wsim.h - intrinsics and runtime interface for programs running on wsim.
 *
 * Machine conventions (see programs/README.md):
 *   RV32IMAF, ilp32f, code linked at 0x80000000.
 *   Console: byte store to WSIM_CONSOLE_ADDR; exit status: word store to WSIM_EXIT_ADDR
 *   (first non-zero value wins, 0 = success).
 *   Each hardware thread has a 4 KiB stack: sp = WSIM_STACK_TOP - mhartid * WSIM_STACK_SIZE.
 */
#ifndef WSIM_H
#define WSIM_H

#include <stdint.h>
#include <stddef.h>

#define WSIM_CONSOLE_ADDR 0x00008340u
#define WSIM_EXIT_ADDR    0x00008348u
#define WSIM_STACK_TOP    0xFE000000u
#define WSIM_STACK_SIZE   4096u

/* Barrier ids reserved by the runtime. Programs should use ids >= 2. */
#define WSIM_BAR_SPAWN    0u            /* local: end of a wsim_spawn launch in a core */
#define WSIM_BAR_WEAVER   1u            /* local: weaver_process (weaver.h) */
#define WSIM_BAR_GLOBAL   0x80000001u   /* global: wsim_global_barrier / end of wsim_spawn */
#define WSIM_BAR_GLOBAL_BIT 0x80000000u

/* CSR numbers */
#define CSR_VX_THREAD_ID    0xCC0
#define CSR_VX_WARP_ID      0xCC1
#define CSR_VX_CORE_ID      0xCC2
#define CSR_VX_ACTIVE_WARPS 0xCC3
#define CSR_VX_THREAD_MASK  0xCC4
#define CSR_VX_NUM_THREADS  0xFC0
#define CSR_VX_NUM_WARPS    0xFC1
#define CSR_VX_NUM_CORES    0xFC2
#define CSR_VX_LOCAL_MEM    0xFC3
#define CSR_MHARTID         0xF14
#define CSR_MCYCLE          0xB00
#define CSR_MCYCLEH         0xB80
#define CSR_MINSTRET        0xB02
#define CSR_MINSTRETH       0xB82
#define CSR_WSIM_PHASE      0x7C0
#define CSR_WSIM_ITERATION  0x7C6

#define WSIM_STR_(x) #x
#define WSIM_STR(x) WSIM_STR_(x)

#define csr_read(csr) ({ uint32_t __v; \
    __asm__ volatile ("csrr %0, " WSIM_STR(csr) : "=r"(__v) :: "memory"); __v; })
#define csr_write(csr, val) ({ \
    __asm__ volatile ("csrw " WSIM_STR(csr) ", %0" :: "rK"((uint32_t)(val)) : "memory"); })

/* ---- identity and geometry ---- */
static inline uint32_t vx_thread_id(void)   { return csr_read(CSR_VX_THREAD_ID); }
static inline uint32_t vx_warp_id(void)     { return csr_read(CSR_VX_WARP_ID); }
static inline uint32_t vx_core_id(void)     { return csr_read(CSR_VX_CORE_ID); }
static inline uint32_t vx_active_warps(void){ return csr_read(CSR_VX_ACTIVE_WARPS); }
static inline uint32_t vx_thread_mask(void) { return csr_read(CSR_VX_THREAD_MASK); }
static inline uint32_t vx_num_threads(void) { return csr_read(CSR_VX_NUM_THREADS); }
static inline uint32_t vx_num_warps(void)   { return csr_read(CSR_VX_NUM_WARPS); }
static inline uint32_t vx_num_cores(void)   { return csr_read(CSR_VX_NUM_CORES); }
static inline uint32_t vx_hart_id(void)     { return csr_read(CSR_MHARTID); }
static inline void    *vx_local_mem(void)   { return (void *)(uintptr_t)csr_read(CSR_VX_LOCAL_MEM); }

/* Mask with the low n bits set (n may be 32). */
static inline uint32_t wsim_lanes_mask(uint32_t n) { return n >= 32 ? 0xFFFFFFFFu : ((1u << n) - 1u); }

static inline uint64_t wsim_cycles(void) {
    uint32_t hi, lo, hi2;
    do {
        hi  = csr_read(CSR_MCYCLEH);
        lo  = csr_read(CSR_MCYCLE);
        hi2 = csr_read(CSR_MCYCLEH);
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}
static inline uint32_t wsim_cycles32(void) { return csr_read(CSR_MCYCLE); }
static inline uint32_t wsim_instret32(void) { return csr_read(CSR_MINSTRET); }

/* Mark a statistics phase (small integer). */
static inline void wsim_phase(uint32_t n) { csr_write(CSR_WSIM_PHASE, n); }

/* Iteration records (machine-wide; one core should write): wsim_iteration(n) closes the
 * open iteration and opens the next, reporting n (a frontier size, say);
 * wsim_iteration_end() closes it. The run's end closes one left open. */
#define WSIM_ITERATION_END 0xFFFFFFFFu
static inline void wsim_iteration(uint32_t n) { csr_write(CSR_WSIM_ITERATION, n); }
static inline void wsim_iteration_end(void) { csr_write(CSR_WSIM_ITERATION, WSIM_ITERATION_END); }

/* ---- Vortex SIMT control (CUSTOM0 = 0x0B, funct7 = 0) ---- */
static inline void vx_tmc(uint32_t mask) {
    __asm__ volatile (".insn r 0x0b, 0, 0, x0, %0, x0" :: "r"(mask) : "memory");
}
static inline void vx_tmc_zero(void) {
    __asm__ volatile (".insn r 0x0b, 0, 0, x0, x0, x0" ::: "memory");
}
static inline void vx_tmc_one(void) { vx_tmc(1); }
/* Activate warps 1..count-1 of this core at pc (lane 0 only); warp 0 keeps running. */
static inline void vx_wspawn(uint32_t count, void (*pc)(void)) {
    __asm__ volatile (".insn r 0x0b, 1, 0, x0, %0, %1" :: "r"(count), "r"(pc) : "memory");
}
/* Split on pred (taken lanes run first); returns the depth to pass to vx_join. */
static inline uint32_t vx_split(uint32_t pred) {
    uint32_t d;
    __asm__ volatile (".insn r 0x0b, 2, 0, %0, %1, x0" : "=r"(d) : "r"(pred) : "memory");
    return d;
}
/* Split on !pred. */
static inline uint32_t vx_split_n(uint32_t pred) {
    uint32_t d;
    __asm__ volatile (".insn r 0x0b, 2, 0, %0, %1, x1" : "=r"(d) : "r"(pred) : "memory");
    return d;
}
static inline void vx_join(uint32_t depth) {
    __asm__ volatile (".insn r 0x0b, 3, 0, x0, %0, x0" :: "r"(depth) : "memory");
}
/* Barrier: id (bit 31 = global across cores), count = number of warps that must arrive. */
static inline void vx_barrier(uint32_t id, uint32_t count) {
    __asm__ volatile (".insn r 0x0b, 4, 0, x0, %0, %1" :: "r"(id), "r"(count) : "memory");
}
/* Thread mask <- active lanes whose cond != 0; if none, <- fallback mask. */
static inline void vx_pred(uint32_t cond, uint32_t mask) {
    __asm__ volatile (".insn r 0x0b, 5, 0, x0, %0, %1" :: "r"(cond), "r"(mask) : "memory");
}
/* Same with the condition negated (rd field = x1; x1 is not written). */
static inline void vx_pred_n(uint32_t cond, uint32_t mask) {
    __asm__ volatile (".insn r 0x0b, 5, 0, x1, %0, %1" :: "r"(cond), "r"(mask) : "memory");
}
static inline void vx_wsync(void) {
    __asm__ volatile (".insn r 0x0b, 7, 0, x0, x0, x0" ::: "memory");
}

/* ---- warp-level primitives (CUSTOM0, funct7 = 1) ----
 * vote: CUDA __all/__any/__uni/__ballot_sync over the active lanes in member mask. */
static inline uint32_t vx_vote_all(uint32_t pred, uint32_t members) {
    uint32_t r; __asm__ volatile (".insn r 0x0b, 0, 1, %0, %1, %2" : "=r"(r) : "r"(pred), "r"(members)); return r;
}
static inline uint32_t vx_vote_any(uint32_t pred, uint32_t members) {
    uint32_t r; __asm__ volatile (".insn r 0x0b, 1, 1, %0, %1, %2" : "=r"(r) : "r"(pred), "r"(members)); return r;
}
static inline uint32_t vx_vote_uni(uint32_t pred, uint32_t members) {
    uint32_t r; __asm__ volatile (".insn r 0x0b, 2, 1, %0, %1, %2" : "=r"(r) : "r"(pred), "r"(members)); return r;
}
static inline uint32_t vx_vote_ballot(uint32_t pred, uint32_t members) {
    uint32_t r; __asm__ volatile (".insn r 0x0b, 3, 1, %0, %1, %2" : "=r"(r) : "r"(pred), "r"(members)); return r;
}
/* shuffles: control = (c << 6) | b, b = delta / xor mask / source lane (bits 5:0),
 * c = segment width - 1 (bits 11:6). Raw forms take the control word. */
#define WSIM_SHFL_CTL(b, width) ((((uint32_t)(width) - 1u) << 6) | ((uint32_t)(b) & 63u))
static inline uint32_t vx_shfl_up_c(uint32_t v, uint32_t ctl) {
    uint32_t r; __asm__ volatile (".insn r 0x0b, 4, 1, %0, %1, %2" : "=r"(r) : "r"(v), "r"(ctl)); return r;
}
static inline uint32_t vx_shfl_down_c(uint32_t v, uint32_t ctl) {
    uint32_t r; __asm__ volatile (".insn r 0x0b, 5, 1, %0, %1, %2" : "=r"(r) : "r"(v), "r"(ctl)); return r;
}
static inline uint32_t vx_shfl_bfly_c(uint32_t v, uint32_t ctl) {
    uint32_t r; __asm__ volatile (".insn r 0x0b, 6, 1, %0, %1, %2" : "=r"(r) : "r"(v), "r"(ctl)); return r;
}
static inline uint32_t vx_shfl_idx_c(uint32_t v, uint32_t ctl) {
    uint32_t r; __asm__ volatile (".insn r 0x0b, 7, 1, %0, %1, %2" : "=r"(r) : "r"(v), "r"(ctl)); return r;
}
static inline uint32_t vx_shfl_up(uint32_t v, uint32_t delta, uint32_t width)  { return vx_shfl_up_c(v, WSIM_SHFL_CTL(delta, width)); }
static inline uint32_t vx_shfl_down(uint32_t v, uint32_t delta, uint32_t width){ return vx_shfl_down_c(v, WSIM_SHFL_CTL(delta, width)); }
static inline uint32_t vx_shfl_bfly(uint32_t v, uint32_t mask, uint32_t width) { return vx_shfl_bfly_c(v, WSIM_SHFL_CTL(mask, width)); }
static inline uint32_t vx_shfl_idx(uint32_t v, uint32_t lane, uint32_t width)  { return vx_shfl_idx_c(v, WSIM_SHFL_CTL(lane, width)); }

/* ---- float atomic add (CUSTOM0 funct7 = 3, funct3 = 0): amoadd.f rd, rs2, (rs1) ----
 * *p += v in IEEE single precision (round to nearest even), returning the old value; lanes
 * of a warp apply in lane order. CUDA's atomicAdd(float *, float). */
static inline float atomic_add_f32(float *p, float v) {
    float old;
    __asm__ volatile (".insn r 0x0b, 0, 3, %0, %1, %2" : "=f"(old) : "r"(p), "f"(v) : "memory");
    return old;
}

/* ---- SparseWeaver (CUSTOM0 funct7 = 2; CUSTOM1 = 0x2B R4-type) ---- */
static inline uint32_t weaver_dec_id(void) {
    uint32_t r; __asm__ volatile (".insn r 0x0b, 0, 2, %0, x0, x0" : "=r"(r) :: "memory"); return r;
}
static inline uint32_t weaver_dec_loc(void) {
    uint32_t r; __asm__ volatile (".insn r 0x0b, 1, 2, %0, x0, x0" : "=r"(r) :: "memory"); return r;
}
static inline void weaver_reg(uint32_t vid, uint32_t loc, uint32_t deg) {
    __asm__ volatile (".insn r4 0x2b, 0, 0, x0, %0, %1, %2" :: "r"(vid), "r"(loc), "r"(deg) : "memory");
}
static inline void weaver_skip(uint32_t vid) {
    __asm__ volatile (".insn r4 0x2b, 1, 0, x0, %0, x0, x0" :: "r"(vid) : "memory");
}

/* ---- memory ordering ---- */
static inline void wsim_fence(void) { __asm__ volatile ("fence rw, rw" ::: "memory"); }

/* ---- console and exit ---- */
static inline void wsim_putchar(int c) { *(volatile uint8_t *)WSIM_CONSOLE_ADDR = (uint8_t)c; }
void wsim_puts(const char *s);                 /* no newline appended */
int  wsim_printf(const char *fmt, ...);        /* %d %i %u %x %X %p %s %c %% ; width/0-pad; l ignored */
/* Record the exit status (first non-zero wins); does not stop the thread. */
static inline void wsim_set_status(uint32_t code) { *(volatile uint32_t *)WSIM_EXIT_ADDR = code; }
/* Record the status and retire the calling warp. */
void wsim_exit(uint32_t code) __attribute__((noreturn));

/* ---- kernel launch ----
 * Called by main on every core (warp 0, one lane). Runs kernel(gid, arg) for every
 * gid < grid, spread over all cores/warps/lanes (gid starts at the global hart index and
 * strides by the total number of hardware threads). Returns on every core when the whole
 * grid has finished (ends with a global barrier). */
typedef void (*wsim_kernel_t)(uint32_t gid, void *arg);
void wsim_spawn(uint32_t grid, wsim_kernel_t kernel, void *arg);
/* Global barrier over warp 0 of every core (call from main, one warp per core). */
void wsim_global_barrier(void);

#define WSIM_MAX_CORES 256

void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
void *memmove(void *d, const void *s, size_t n);
int   memcmp(const void *a, const void *b, size_t n);

#endif
