# errors/weaver_overflow.S - three registrations into an ST of two entries
# (run with weaver.entries = 2): the third is an overflow.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    a0, 7
    li    a1, 100
    li    a2, 3
    .insn r4 0x2b, 0, 0, x0, a0, a1, a2     # weaver.reg a0, a1, a2
    .insn r4 0x2b, 0, 0, x0, a0, a1, a2
    .insn r4 0x2b, 0, 0, x0, a0, a1, a2
    .insn r 0x0b, 0, 0, x0, x0, x0          # vx_tmc(0)
