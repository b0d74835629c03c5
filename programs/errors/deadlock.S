# errors/deadlock.S - warps 0 and 1 wait on barrier 1 for 3 warps; only 2 exist that run.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    a0, 2
    la    a1, wait
    .insn r 0x0b, 1, 0, x0, a0, a1      # vx_wspawn(2, wait)
wait:
    li    a0, 1
    li    a1, 3
    .insn r 0x0b, 4, 0, x0, a0, a1      # vx_bar(1, 3)
    .insn r 0x0b, 0, 0, x0, x0, x0      # vx_tmc(0)
