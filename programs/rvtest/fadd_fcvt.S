# fadd_fcvt.S - rvtest: fadd.s / fsub.s / fmul.s with fflags, fcvt.w.s / fcvt.s.w
#include "riscv_test.h"
#include "test_macros.h"
RVTEST_RV32UF
RVTEST_CODE_BEGIN
    /* 2.5 + 1.0 = 3.5 exact */
    TEST_FP_OP2_S(2, fadd.s, 0, 0x40600000, 0x40200000, 0x3f800000)
    /* -1235.1 + 1.1 = -1234.0 (inexact) */
    TEST_FP_OP2_S(3, fadd.s, 1, 0xc49a4000, 0xc49a6333, 0x3f8ccccd)
    /* 3.14159265 + 0.00000001 = 3.14159265 (inexact) */
    TEST_FP_OP2_S(4, fadd.s, 1, 0x40490fdb, 0x40490fdb, 0x322bcc77)
    /* inf - inf = canonical NaN, NV */
    TEST_FP_OP2_S(5, fsub.s, 0x10, 0x7fc00000, 0x7f800000, 0x7f800000)
    /* 2.5 * -3.0 = -7.5 */
    TEST_FP_OP2_S(6, fmul.s, 0, 0xc0f00000, 0x40200000, 0xc0400000)
    /* max * 2 = +inf, OF|NX */
    TEST_FP_OP2_S(7, fmul.s, 0x05, 0x7f800000, 0x7f7fffff, 0x40000000)
    TEST_FP_INT_OP_S(8, fcvt.w.s, 0x00, 0xfffffffe, 0xc0000000, rtz)      /* -2.0 -> -2 */
    TEST_FP_INT_OP_S(9, fcvt.w.s, 0x01, 0xffffffff, 0xbfc00000, rtz)      /* -1.5 rtz -> -1, NX */
    TEST_FP_INT_OP_S(10, fcvt.w.s, 0x01, 0xfffffffe, 0xbfc00000, rne)     /* -1.5 rne -> -2 */
    TEST_FP_INT_OP_S(11, fcvt.w.s, 0x10, 0x7fffffff, 0x7fc00000, rtz)     /* NaN -> max, NV */
    TEST_FP_INT_OP_S(12, fcvt.w.s, 0x10, 0x80000000, 0xff800000, rtz)     /* -inf -> min, NV */
    TEST_FP_INT_OP_S(13, fcvt.wu.s, 0x10, 0x00000000, 0xc0400000, rtz)    /* -3.0 -> 0, NV */
    TEST_FP_INT_OP_S(14, fcvt.wu.s, 0x01, 0x00000000, 0xbf000000, rtz)    /* -0.5 -> 0, NX only */
    TEST_INT_FP_OP_S(15, fcvt.s.w, 0xc0000000, 0xfffffffe)
    TEST_INT_FP_OP_S(16, fcvt.s.w, 0x4f000000, 0x7fffffff)
    TEST_INT_FP_OP_S(17, fcvt.s.wu, 0x4f800000, 0xffffffff)
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
