/* crt0.S - wsim start-up code.
 * On every core, lane 0 of warp 0 starts at _start. No .bss clearing here: several cores
 * start at once, so the loader must provide zeroed .bss (ELF memsz > filesz is zero-filled).
 */
#define WSIM_STACK_TOP  0xFE000000
#define WSIM_STACK_LOG2 12          /* 4 KiB per hardware thread */
#define CSR_MHARTID     0xF14
#define CSR_THREAD_ID   0xCC0
#define CSR_NUM_THREADS 0xFC0
#define WSIM_EXIT_ADDR  0x8348

/* t1 <- mask with the low NUM_THREADS bits set (works for 32: srl by 0). */
.macro FULL_MASK
    csrr  t0, CSR_NUM_THREADS
    li    t1, -1
    li    t2, 32
    sub   t2, t2, t0
    srl   t1, t1, t2
.endm

/* gp for the lane */
.macro SET_GP
    .option push
    .option norelax
    la    gp, __global_pointer$
    .option pop
.endm

/* t2 <- this lane's stack top = WSIM_STACK_TOP - mhartid * 4096 */
.macro LANE_STACK_TOP
    csrr  t0, CSR_MHARTID
    slli  t0, t0, WSIM_STACK_LOG2
    li    t2, WSIM_STACK_TOP
    sub   t2, t2, t0
.endm

    .section .text.init, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    SET_GP
    LANE_STACK_TOP
    mv    sp, t2
    li    a0, 0
    li    a1, 0
    call  main
    j     _exit
    .size _start, . - _start

/* void _exit(int status): record the status, retire the warp. */
    .text
    .globl _exit
    .type _exit, @function
_exit:
    li    t0, WSIM_EXIT_ADDR
    sw    a0, 0(t0)
    fence rw, rw
    .insn r 0x0b, 0, 0, x0, x0, x0      /* vx_tmc(0) */
1:  j     1b
    .size _exit, . - _exit

/* Entry of warps 1..N-1 activated by wsim_spawn's vx_wspawn: only lane 0 is active and its
 * registers are not initialised. Enable all lanes, give each its gp/sp, run the lane's share
 * of the grid (which ends with the local barrier), then retire the warp. */
    .globl __wsim_spawn_stub
    .type __wsim_spawn_stub, @function
    .p2align 2
__wsim_spawn_stub:
    FULL_MASK
    .insn r 0x0b, 0, 0, x0, t1, x0      /* vx_tmc(all lanes) */
    SET_GP
    LANE_STACK_TOP
    mv    sp, t2
    call  __wsim_spawn_lane
    .insn r 0x0b, 0, 0, x0, x0, x0      /* vx_tmc(0): retire */
1:  j     1b
    .size __wsim_spawn_stub, . - __wsim_spawn_stub

/* void __wsim_spawn_warp0(void): called by lane 0 of warp 0 (from wsim_spawn). Enables all
 * lanes of warp 0; lanes != 0 get their own gp/sp while lane 0 keeps its sp (it is inside
 * main's stack frame); all run __wsim_spawn_lane; then back to lane 0 only. */
    .globl __wsim_spawn_warp0
    .type __wsim_spawn_warp0, @function
    .p2align 2
__wsim_spawn_warp0:
    addi  sp, sp, -16
    sw    ra, 12(sp)
    FULL_MASK
    .insn r 0x0b, 0, 0, x0, t1, x0      /* vx_tmc(all lanes) */
    SET_GP
    LANE_STACK_TOP                      /* t2 = fresh stack top of this lane */
    csrr  t3, CSR_THREAD_ID
    seqz  t3, t3
    neg   t3, t3                        /* t3 = lane 0 ? ~0 : 0 */
    and   t4, sp, t3                    /* lane 0 keeps its sp */
    not   t3, t3
    and   t2, t2, t3
    or    sp, t4, t2
    call  __wsim_spawn_lane
    li    t0, 1
    .insn r 0x0b, 0, 0, x0, t0, x0      /* vx_tmc(1): lane 0 only again */
    lw    ra, 12(sp)
    addi  sp, sp, 16
    ret
    .size __wsim_spawn_warp0, . - __wsim_spawn_warp0
