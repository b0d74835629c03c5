# ma_data.S - rvtest: misaligned loads and stores succeed in a machine-mode environment
# (a trap handler is installed), as riscv-tests' rv32ui ma_data expects; any trap fails.
#include "riscv_test.h"
#include "test_macros.h"
RVTEST_RV32U
RVTEST_CODE_BEGIN
    TEST_LD_OP(2, lh,  0x00000201, 1, mdat)
    TEST_LD_OP(3, lhu, 0x00000201, 1, mdat)
    TEST_LD_OP(4, lw,  0x04030201, 1, mdat)
    TEST_LD_OP(5, lw,  0x06050403, 3, mdat)
    TEST_LD_OP(6, lw,  0x82818000, 63, mdat)
    TEST_ST_OP(7, lw, sw, 0x8b8a8988, 2, mdat)
    TEST_ST_OP(8, lh, sh, 0xffffd5d4, 31, mdat)
    TEST_ST_OP(9, lw, sw, 0x43424140, 61, mdat)
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .p2align 3
mdat:
    .byte 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07
    .fill 56, 1, 0
    .byte 0x80, 0x81, 0x82, 0x83
RVTEST_DATA_END
