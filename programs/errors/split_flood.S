# errors/split_flood.S - vx_split without vx_join, forever: the run stops at
# limits::SPLIT_STACK entries instead of growing the warp's split stack until the host's
# memory runs out.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    t1, 1
1:  .insn r 0x0b, 2, 0, t0, t1, x0          # vx_split t0, t1
    j     1b
