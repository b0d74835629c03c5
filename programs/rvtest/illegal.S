# illegal.S - rvtest: an illegal instruction (all-zero word) traps with mcause = 2,
# mepc = its address and mtval = the instruction bits (0); likewise `unimp` (0xc0001073,
# csrrw x0, cycle, x0: a write to a read-only CSR).
#include "riscv_test.h"
#include "test_macros.h"
RVTEST_RV32U
RVTEST_CODE_BEGIN
    li s2, 0
    li TESTNUM, 2
    la s3, bad1
    li s6, -1                           /* mtval sentinel: handler overwrites */
bad1:
    .word 0x00000000
    TEST_CASE(3, s2, 1, nop)
    TEST_CASE(4, s4, 2, mv s4, s4)
    TEST_CASE(5, s5, 0, sub s5, s5, s3)
    TEST_CASE(6, s6, 0, mv s6, s6)      /* mtval = the faulting instruction bits = 0 */
    /* `unimp` = 0xc0001073 = csrrw x0, cycle, x0: a write to a read-only CSR is illegal */
    li TESTNUM, 7
    la s3, bad2
bad2:
    unimp
    TEST_CASE(8, s2, 2, nop)
    TEST_CASE(9, s4, 2, mv s4, s4)
    TEST_CASE(10, s5, 0, sub s5, s5, s3)
    TEST_CASE(11, s6, 0xc0001073, mv s6, s6)
    TEST_PASSFAIL

    .p2align 2
mtvec_handler:
    addi s2, s2, 1
    csrr s4, mcause
    csrr s5, mepc
    csrr s6, mtval
    addi t0, s5, 4
    csrw mepc, t0
    mret
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
