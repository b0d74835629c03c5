# mul_div.S - rvtest: mul / mulh* / div / rem with the corner cases
#include "riscv_test.h"
#include "test_macros.h"
RVTEST_RV32M
RVTEST_CODE_BEGIN
    TEST_RR_OP(2,  mul,    0x00000015, 0x00000003, 0x00000007)
    TEST_RR_OP(3,  mul,    0x0000ff7f, 0xaaaaaaab, 0x0002fe7d)
    TEST_RR_OP(4,  mulh,   0xc0000000, 0x80000000, 0x7fffffff)
    TEST_RR_OP(5,  mulhu,  0x7fffffff, 0x80000000, 0xffffffff)
    TEST_RR_OP(6,  mulhsu, 0x80000000, 0x80000000, 0xffffffff)
    TEST_RR_OP(7,  div,    0xfffffffd, 0xffffffec, 0x00000006)
    TEST_RR_OP(8,  div,    0x80000000, 0x80000000, 0xffffffff)
    TEST_RR_OP(9,  div,    0xffffffff, 0x00000001, 0x00000000)
    TEST_RR_OP(10, divu,   0x2aaaaaa7, 0xffffffec, 0x00000006)
    TEST_RR_OP(11, divu,   0xffffffff, 0x00000001, 0x00000000)
    TEST_RR_OP(12, rem,    0xfffffffe, 0xffffffec, 0x00000006)
    TEST_RR_OP(13, rem,    0x00000000, 0x80000000, 0xffffffff)
    TEST_RR_OP(14, rem,    0x00000001, 0x00000001, 0x00000000)
    TEST_RR_OP(15, remu,   0x00000002, 0xffffffec, 0x00000006)
    TEST_RR_OP(16, remu,   0xffffffec, 0xffffffec, 0x00000000)
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
