# errors/skip_flood.S - registers one vertex, then skips a new vertex id every few cycles,
# forever: the run stops at limits::WEAVER_SKIPS distinct skipped vertices instead of
# growing the unit's skip set until the host's memory runs out.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    a0, 7
    li    a1, 0
    li    a2, 1
    .insn r4 0x2b, 0, 0, x0, a0, a1, a2     # weaver.reg a0, a1, a2
    li    t0, 0
1:  .insn r4 0x2b, 1, 0, x0, t0, x0, x0     # weaver.skip t0
    addi  t0, t0, 1
    j     1b
