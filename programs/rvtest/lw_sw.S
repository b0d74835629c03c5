# lw_sw.S - rvtest: lw / sw (and lb/lbu/lh/lhu/sb/sh on the same data)
#include "riscv_test.h"
#include "test_macros.h"
RVTEST_RV32U
RVTEST_CODE_BEGIN
    TEST_LD_OP(2, lw,  0x00ff00ff, 0,  tdat)
    TEST_LD_OP(3, lw,  0xff00ff00, 4,  tdat)
    TEST_LD_OP(4, lw,  0x0ff00ff0, 8,  tdat)
    TEST_LD_OP(5, lw,  0xf00ff00f, 12, tdat)
    TEST_LD_OP(6, lw,  0x00ff00ff, -12, tdat + 12)
    TEST_LD_OP(7, lh,  0xffffff00, 4, tdat)
    TEST_LD_OP(8, lhu, 0x0000ff00, 4, tdat)
    TEST_LD_OP(9, lb,  0xfffffff0, 8, tdat)
    TEST_LD_OP(10, lbu, 0x000000f0, 8, tdat)
    TEST_ST_OP(11, lw, sw, 0x00aa00aa, 0,  sdat)
    TEST_ST_OP(12, lw, sw, 0xaa00aa00, 4,  sdat)
    TEST_ST_OP(13, lw, sw, 0xa00aa00a, -4, sdat + 12)
    TEST_ST_OP(14, lh, sh, 0xffffa00a, 12, sdat)
    TEST_ST_OP(15, lb, sb, 0xffffffaa, 14, sdat)
    TEST_CASE(16, x14, 0x12aaa00a, la x15, sdat; lw x14, 12(x15))
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
tdat: .word 0x00ff00ff, 0xff00ff00, 0x0ff00ff0, 0xf00ff00f
sdat: .word 0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0x12345678
RVTEST_DATA_END
