# add.S - rvtest: add / addi (riscv-tests style)
#include "riscv_test.h"
#include "test_macros.h"
RVTEST_RV32U
RVTEST_CODE_BEGIN
    TEST_RR_OP(2,  add, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR_OP(3,  add, 0x00000002, 0x00000001, 0x00000001)
    TEST_RR_OP(4,  add, 0x0000000a, 0x00000003, 0x00000007)
    TEST_RR_OP(5,  add, 0xffff8000, 0x00000000, 0xffff8000)
    TEST_RR_OP(6,  add, 0x80000000, 0x80000000, 0x00000000)
    TEST_RR_OP(7,  add, 0x7fff8000, 0x80000000, 0xffff8000)
    TEST_RR_OP(8,  add, 0x80007ffe, 0x7fffffff, 0x00007fff)
    TEST_RR_OP(9,  add, 0x00000000, 0x00000001, 0xffffffff)
    TEST_RR_OP(10, add, 0x80000000, 0x00000001, 0x7fffffff)
    TEST_IMM_OP(11, addi, 0x000007ff, 0x00000000, 0x7ff)
    TEST_IMM_OP(12, addi, 0x7ffff800, 0x7fffffff, -0x7ff)
    TEST_CASE(13, x0, 0, li x11, 5; add x0, x11, x11)
    TEST_PASSFAIL
RVTEST_CODE_END
    .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
