/* test_macros.h - test-case macros for the rvtest programs (own, riscv-tests-like). A failing
 * check jumps to `fail` with `j` so a test file may exceed the conditional-branch range. */
#ifndef TEST_MACROS_H
#define TEST_MACROS_H

#define CHECK_EQ(reg, value) li x7, value; beq reg, x7, 88f; j fail; 88:

#define TEST_CASE(n, reg, value, ...) \
    test_ ## n: li TESTNUM, n; __VA_ARGS__; CHECK_EQ(reg, value)

#define TEST_RR_OP(n, inst, result, v1, v2) \
    TEST_CASE(n, x14, result, li x11, v1; li x12, v2; inst x14, x11, x12)
#define TEST_IMM_OP(n, inst, result, v1, imm) \
    TEST_CASE(n, x14, result, li x11, v1; inst x14, x11, imm)
#define TEST_LD_OP(n, inst, result, offset, base) \
    TEST_CASE(n, x14, result, la x15, base; inst x14, offset(x15))
#define TEST_ST_OP(n, ld, st, value, offset, base) \
    TEST_CASE(n, x14, value, la x15, base; li x11, value; st x11, offset(x15); ld x14, offset(x15))

/* floating point: inputs and result as bit patterns; also checks fflags */
#define TEST_FP_OP2_S(n, inst, flags, result, v1, v2) \
    TEST_CASE(n, x14, result, csrwi fflags, 0; li x11, v1; li x12, v2; fmv.w.x f1, x11; \
              fmv.w.x f2, x12; inst f3, f1, f2; fmv.x.w x14, f3; csrr x13, fflags); \
    CHECK_EQ(x13, flags)
#define TEST_FP_INT_OP_S(n, inst, flags, result, v1, rm) \
    TEST_CASE(n, x14, result, csrwi fflags, 0; li x11, v1; fmv.w.x f1, x11; \
              inst x14, f1, rm; csrr x13, fflags); \
    CHECK_EQ(x13, flags)
#define TEST_INT_FP_OP_S(n, inst, result, v1) \
    TEST_CASE(n, x14, result, li x11, v1; inst f1, x11; fmv.x.w x14, f1)

#define TEST_PASSFAIL \
    j pass; \
fail: RVTEST_FAIL; \
pass: RVTEST_PASS

#endif
