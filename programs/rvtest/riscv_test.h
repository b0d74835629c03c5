/* riscv_test.h - a small riscv-tests "-p" environment for wsim (written for this project,
 * modelled on the shape of riscv-tests' env/p/riscv_test.h).
 *
 * - Entry _start in machine mode; harts other than mhartid 0 retire at once (vx_tmc(0)).
 * - mtvec = trap_vector. If the test defines `mtvec_handler` (weak symbol), traps jump there
 *   with all registers intact except t5; otherwise a trap fails the test with exit code
 *   TESTNUM | 0x400 (unexpected trap).
 * - mstatus.FS enabled (Initial), fcsr = 0, mstatus.MPP = M; enters the test body via mret.
 * - tohost / fromhost: 64-byte-aligned words in section .tohost. RVTEST_PASS writes 1,
 *   RVTEST_FAIL writes (TESTNUM << 1) | 1 (HTIF convention), then both spin.
 * TESTNUM is gp (x3) as in riscv-tests. */
#ifndef RISCV_TEST_H
#define RISCV_TEST_H

#define TESTNUM gp

#define MSTATUS_MPP   0x00001800
#define MSTATUS_FS    0x00006000
#define CAUSE_ILLEGAL_INSTRUCTION 2
#define CAUSE_BREAKPOINT          3
#define CAUSE_MACHINE_ECALL       11

#define RVTEST_RV32U
#define RVTEST_RV32UF
#define RVTEST_RV32M

#define RVTEST_CODE_BEGIN                                   \
        .section .text.init, "ax", @progbits;               \
        .p2align 6;                                         \
        .weak mtvec_handler;                                \
        .globl _start;                                      \
_start:                                                     \
        j reset_vector;                                     \
        .p2align 2;                                         \
trap_vector:                                                \
        la t5, mtvec_handler;                               \
        beqz t5, 1f;                                        \
        jr t5;                                              \
1:      ori TESTNUM, TESTNUM, 0x400; /* unexpected trap */  \
        j fail;                                             \
reset_vector:                                               \
        csrr a0, mhartid;                                   \
        beqz a0, 2f;                                        \
        .insn r 0x0b, 0, 0, x0, x0, x0; /* vx_tmc(0) */     \
3:      j 3b;                                               \
2:      li x1, 0; li x2, 0; li x3, 0; li x4, 0;             \
        li x5, 0; li x6, 0; li x7, 0; li x8, 0;             \
        li x9, 0; li x10, 0; li x11, 0; li x12, 0;          \
        li x13, 0; li x14, 0; li x15, 0; li x16, 0;         \
        li x17, 0; li x18, 0; li x19, 0; li x20, 0;         \
        li x21, 0; li x22, 0; li x23, 0; li x24, 0;         \
        li x25, 0; li x26, 0; li x27, 0; li x28, 0;         \
        li x29, 0; li x30, 0; li x31, 0;                    \
        la t0, trap_vector;                                 \
        csrw mtvec, t0;                                     \
        csrwi mstatus, 0;                                   \
        li t0, MSTATUS_FS | MSTATUS_MPP;                    \
        csrs mstatus, t0;                                   \
        csrwi fcsr, 0;                                      \
        la t0, 4f;                                          \
        csrw mepc, t0;                                      \
        mret;                                               \
4:

#define RVTEST_CODE_END                                     \
        unimp

#define RVTEST_PASS                                         \
        fence;                                              \
        li TESTNUM, 1;                                      \
        la t0, tohost;                                      \
        sw TESTNUM, 0(t0);                                  \
5:      j 5b

#define RVTEST_FAIL                                         \
        fence;                                              \
        slli t0, TESTNUM, 1;                                \
        ori t0, t0, 1;                                      \
        la t1, tohost;                                      \
        sw t0, 0(t1);                                       \
6:      j 6b

#define RVTEST_DATA_BEGIN                                   \
        .pushsection .tohost, "aw", @progbits;              \
        .p2align 6; .globl tohost; tohost: .word 0; .word 0;\
        .p2align 6; .globl fromhost; fromhost: .word 0; .word 0; \
        .popsection;                                        \
        .data;                                              \
        .p2align 4;                                         \
        .globl begin_signature; begin_signature:

#define RVTEST_DATA_END .globl end_signature; end_signature:

#endif
