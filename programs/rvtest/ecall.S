# ecall.S - rvtest: ecall traps to mtvec with mcause = 11 (machine ecall) and mepc = the
# ecall's address; the handler returns with mret to mepc + 4. ebreak: mcause = 3.
#include "riscv_test.h"
#include "test_macros.h"
RVTEST_RV32U
RVTEST_CODE_BEGIN
    li s2, 0                            /* handler-visited counter */
    li TESTNUM, 2
    la s3, ecall_site
ecall_site:
    ecall
    TEST_CASE(3, s2, 1, nop)            /* handler ran once and returned after the ecall */
    TEST_CASE(4, s4, 11, mv s4, s4)     /* mcause seen by the handler */
    TEST_CASE(5, s5, 0, sub s5, s5, s3) /* mepc seen by the handler == address of the ecall */
    li TESTNUM, 6
    la s3, ebreak_site
ebreak_site:
    ebreak
    TEST_CASE(7, s2, 2, nop)
    TEST_CASE(8, s4, 3, mv s4, s4)
    TEST_CASE(9, s5, 0, sub s5, s5, s3)
    TEST_PASSFAIL

    .p2align 2
mtvec_handler:
    addi s2, s2, 1
    csrr s4, mcause
    csrr s5, mepc
    addi t0, s5, 4
    csrw mepc, t0
    mret
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
