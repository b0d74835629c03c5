# errors/stack_overflow.S - hart 0 (warp 0, lane 0 of core 0) takes a frame larger than its
# 4 KiB stack and stores below it: into hart 1's stack, or below every stack on a machine
# of one thread.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    sp, 0xFE000000                # hart 0's stack top (crt0.S's WSIM_STACK_TOP)
    addi  sp, sp, -2048
    addi  sp, sp, -2048
    addi  sp, sp, -16                   # 4112 bytes: past the 4096 of its stack
    sw    ra, 12(sp)
    .insn r 0x0b, 0, 0, x0, x0, x0      # vx_tmc(0)
