/* isa_m.S - RV32M self-test: mul/mulh/mulhsu/mulhu, div/divu/rem/remu including division by
 * zero (quotient all ones / dividend as remainder) and overflow (-2^31 / -1).
 * Exit status: 0 = pass, otherwise the number of the first failing test. */
#include "isa_macros.h"

ISA_TEST_BEGIN("isa_m")
    TEST_RR(1,  mul,    0x00000000, 0x00000000, 0x00000000)
    TEST_RR(2,  mul,    0x00000015, 0x00000003, 0x00000007)
    TEST_RR(3,  mul,    0xffff8000, 0x00000001, 0xffff8000)
    TEST_RR(4,  mul,    0x00000000, 0x80000000, 0x00000002)
    TEST_RR(5,  mul,    0x00000001, 0xffffffff, 0xffffffff)
    TEST_RR(6,  mul,    0x0000ff7f, 0xaaaaaaab, 0x0002fe7d)
    TEST_RR(7,  mulh,   0xffffffff, 0xffffffff, 0x00000001)
    TEST_RR(8,  mulh,   0x00000000, 0xffffffff, 0xffffffff)
    TEST_RR(9,  mulh,   0xc0000000, 0x80000000, 0x7fffffff)
    TEST_RR(10, mulh,   0x40000000, 0x80000000, 0x80000000)
    TEST_RR(11, mulhu,  0xfffffffe, 0xffffffff, 0xffffffff)
    TEST_RR(12, mulhu,  0x7fffffff, 0x80000000, 0xffffffff)
    TEST_RR(13, mulhu,  0x0001fefe, 0xaaaaaaab, 0x0002fe7d)
    TEST_RR(14, mulhsu, 0xffffffff, 0xffffffff, 0x00000001)   /* -1 * 1 */
    TEST_RR(15, mulhsu, 0xffffffff, 0xffffffff, 0xffffffff)   /* -1 * (2^32-1) */
    TEST_RR(16, mulhsu, 0x7ffffffe, 0x7fffffff, 0xffffffff)
    TEST_RR(17, mulhsu, 0x80000000, 0x80000000, 0xffffffff)

    TEST_RR(20, div,  3, 20, 6)
    TEST_RR(21, div, -3, -20, 6)
    TEST_RR(22, div, -3, 20, -6)
    TEST_RR(23, div,  3, -20, -6)
    TEST_RR(24, div, 0x80000000, 0x80000000, -1)   /* overflow: quotient = dividend */
    TEST_RR(25, div, -1, 7, 0)                       /* by zero: all ones */
    TEST_RR(26, div, -1, 0x80000000, 0)
    TEST_RR(27, divu, 3, 20, 6)
    TEST_RR(28, divu, 715827879, -20, 6)
    TEST_RR(29, divu, 0, 20, -6)
    TEST_RR(30, divu, 0xffffffff, 7, 0)              /* by zero: 2^32-1 */
    TEST_RR(31, divu, 1, 0x80000000, 0x80000000)
    TEST_RR(32, rem,  2, 20, 6)
    TEST_RR(33, rem, -2, -20, 6)
    TEST_RR(34, rem,  2, 20, -6)
    TEST_RR(35, rem, -2, -20, -6)
    TEST_RR(36, rem,  0, 0x80000000, -1)             /* overflow: remainder 0 */
    TEST_RR(37, rem,  7, 7, 0)                       /* by zero: dividend */
    TEST_RR(38, rem, -7, -7, 0)
    TEST_RR(39, remu, 2, 20, 6)
    TEST_RR(40, remu, 2, -20, 6)
    TEST_RR(41, remu, 20, 20, -6)
    TEST_RR(42, remu, -20, -20, 0)                   /* by zero: dividend */
    TEST_RR(43, remu, 0, 0x80000000, 0x80000000)
    TEST_RR_SRC12_EQ_DEST(44, mul, 169, 13)
    TEST_RR_SRC12_EQ_DEST(45, div, 1, -13)
    TEST_RR_SRC12_EQ_DEST(46, rem, 0, -13)
ISA_TEST_END
