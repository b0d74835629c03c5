# amoadd.S - rvtest: amoadd.w returns the old value and adds; amoswap; lr/sc pair
#include "riscv_test.h"
#include "test_macros.h"
RVTEST_RV32U
RVTEST_CODE_BEGIN
    TEST_CASE(2, x14, 0x80000000, la x15, amo_data; li x11, 0x80000000; sw x11, 0(x15);
              li x12, 0xfffff800; amoadd.w x14, x12, (x15))
    TEST_CASE(3, x14, 0x7ffff800, lw x14, 0(x15))
    TEST_CASE(4, x14, 0x7ffff800, li x12, 0xffffffff; amoadd.w x14, x12, (x15))
    TEST_CASE(5, x14, 0x7ffff7ff, lw x14, 0(x15))
    TEST_CASE(6, x14, 0x7ffff7ff, li x12, 0x11; amoswap.w x14, x12, (x15))
    TEST_CASE(7, x14, 0x11, lw x14, 0(x15))
    TEST_CASE(8, x14, 0x11, lr.w x14, (x15))
    TEST_CASE(9, x13, 0, li x12, 0x22; sc.w x13, x12, (x15))
    TEST_CASE(10, x14, 0x22, lw x14, 0(x15))
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .p2align 3
amo_data: .word 0, 0
RVTEST_DATA_END
