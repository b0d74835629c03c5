# errors/launch_flood.S - launches a kernel (vx_wspawn of warp 1, which exits at once)
# again and again, forever: the run stops at limits::LAUNCHES records instead of
# exhausting the host's memory.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    a0, 2
    la    a1, kernel
1:  .insn r 0x0b, 1, 0, x0, a0, a1      # vx_wspawn(2, kernel): starts warp 1 when it is not running
    j     1b
kernel:
    .insn r 0x0b, 0, 0, x0, x0, x0      # vx_tmc(0): warp 1 exits
