/* isa_macros.h - macros for the assembly ISA self-tests (isa_*.S) that run under the C
 * runtime (crt0 calls main; main returns 0 on success or the number of the first failing
 * test, which becomes the exit status).
 *
 * Registers: s11 holds the current test number; tests use t0-t6, a0-a7, s0-s10 freely
 * (main saves all callee-saved registers). Failure jumps to isa_fail with `j` (not a
 * conditional branch), so test files may be of any length. */
#ifndef ISA_MACROS_H
#define ISA_MACROS_H

#define TESTNUM s11

/* Begin main: save ra and s0-s11. NAME is a string used in the failure message. */
#define ISA_TEST_BEGIN(NAME)                \
    .section .rodata;                       \
isa_name: .asciz NAME;                      \
isa_fmt:  .asciz "%s: FAIL test %d\n";      \
    .text;                                  \
    .globl main;                            \
    .p2align 2;                             \
main:                                       \
    addi sp, sp, -64;                       \
    sw ra, 60(sp); sw s0, 56(sp); sw s1, 52(sp); sw s2, 48(sp); \
    sw s3, 44(sp); sw s4, 40(sp); sw s5, 36(sp); sw s6, 32(sp); \
    sw s7, 28(sp); sw s8, 24(sp); sw s9, 20(sp); sw s10, 16(sp); \
    sw s11, 12(sp);                         \
    li TESTNUM, 0;

#define ISA_TEST_END                        \
    li a0, 0;                               \
    j isa_ret;                              \
isa_fail:                                   \
    la a0, isa_fmt;                         \
    la a1, isa_name;                        \
    mv a2, TESTNUM;                         \
    call wsim_printf;                       \
    mv a0, TESTNUM;                         \
isa_ret:                                    \
    lw ra, 60(sp); lw s0, 56(sp); lw s1, 52(sp); lw s2, 48(sp); \
    lw s3, 44(sp); lw s4, 40(sp); lw s5, 36(sp); lw s6, 32(sp); \
    lw s7, 28(sp); lw s8, 24(sp); lw s9, 20(sp); lw s10, 16(sp); \
    lw s11, 12(sp);                         \
    addi sp, sp, 64;                        \
    ret;

/* fail unless reg == t6 */
#define CHECK_T6(reg)  beq reg, t6, 88f; j isa_fail; 88:
/* fail unless reg == value */
#define CHECK(reg, value) li t6, value; CHECK_T6(reg)

/* Generic: run code, then check that reg holds value. */
#define TEST_CASE(n, reg, value, ...) \
    li TESTNUM, n; __VA_ARGS__; CHECK(reg, value)

/* rd = inst(v1, v2) register-register */
#define TEST_RR(n, inst, result, v1, v2) \
    TEST_CASE(n, a4, result, li a1, v1; li a2, v2; inst a4, a1, a2)
/* rd = inst(v1, imm) */
#define TEST_IMM(n, inst, result, v1, imm) \
    TEST_CASE(n, a4, result, li a1, v1; inst a4, a1, imm)
/* rd = inst rs1, rs1 (source == both) and rd == rs1 (destination overwrites source) */
#define TEST_RR_SRC12_EQ_DEST(n, inst, result, v1) \
    TEST_CASE(n, a1, result, li a1, v1; inst a1, a1, a1)
#define TEST_IMM_SRC1_EQ_DEST(n, inst, result, v1, imm) \
    TEST_CASE(n, a1, result, li a1, v1; inst a1, a1, imm)
/* x0 as destination stays 0 */
#define TEST_RR_ZERODEST(n, inst, v1, v2) \
    TEST_CASE(n, x0, 0, li a1, v1; li a2, v2; inst x0, a1, a2)

/* load: rd = inst offset(base) */
#define TEST_LD(n, inst, result, offset, base) \
    TEST_CASE(n, a4, result, la a5, base; inst a4, offset(a5))
/* store then load back with ld */
#define TEST_ST(n, ld, st, value, offset, base) \
    TEST_CASE(n, a4, value, la a5, base; li a1, value; st a1, offset(a5); ld a4, offset(a5))

/* branches */
#define TEST_BR2_TAKEN(n, inst, v1, v2) \
    li TESTNUM, n; li a1, v1; li a2, v2; inst a1, a2, 87f; j isa_fail; 87:
#define TEST_BR2_NOT_TAKEN(n, inst, v1, v2) \
    li TESTNUM, n; li a1, v1; li a2, v2; inst a1, a2, 86f; j 85f; 86: j isa_fail; 85:

#endif
