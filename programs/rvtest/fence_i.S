# fence_i.S - rvtest (after riscv-tests' rv32ui fence_i): fence.i makes stored code visible
# to instruction fetch, both patched into the code section and copied into data memory.
# Test 5 checks wsim's documented choice for a missing fence.i (Zifencei leaves it open):
# a fetch keeps the code it decoded before, until the next fence.i.
#include "riscv_test.h"
#include "test_macros.h"
RVTEST_RV32U
RVTEST_CODE_BEGIN
    # 2: patch the code section: `addi a3, a3, 1` at 1f becomes `addi a3, a3, 333`.
    TEST_CASE(2, a3, 444, li a3, 111; la t0, insn; lh a0, 0(t0); lh a1, 2(t0);
              la t1, 1f; sh a0, 0(t1); sh a1, 2(t1); fence.i; 1: addi a3, a3, 1)

    # 3: copy `addi a0, a0, 5; ret` into a data buffer, fence.i, call it.
    TEST_CASE(3, a0, 15, la t0, routine; la t1, buf; lw t2, 0(t0); sw t2, 0(t1);
              lw t2, 4(t0); sw t2, 4(t1); fence.i; li a0, 10; jalr ra, 0(t1))

    # 4: the code in data memory runs again.
    TEST_CASE(4, a0, 6, li a0, 1; la t1, buf; jalr ra, 0(t1))

    # 5: overwrite it with `addi a0, a0, 7` without fence.i: the old code still runs.
    TEST_CASE(5, a0, 6, la t1, buf; li t2, 0x00750513; sw t2, 0(t1); li a0, 1; jalr ra, 0(t1))

    # 6: after fence.i the new code runs.
    TEST_CASE(6, a0, 8, fence.i; li a0, 1; la t1, buf; jalr ra, 0(t1))
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
insn:
    addi a3, a3, 333
routine:
    .word 0x00550513        # addi a0, a0, 5
    .word 0x00008067        # ret
    .p2align 4
buf:
    .word 0, 0
RVTEST_DATA_END
