# errors/weaver_in_flight.S - a registration while the distribution is still going: the
# first decode hands out 1 of vertex 7's 5 edges, then the warp registers again.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    a0, 7
    li    a1, 100
    li    a2, 5
    .insn r4 0x2b, 0, 0, x0, a0, a1, a2     # weaver.reg a0, a1, a2
    .insn r 0x0b, 0, 2, a3, x0, x0          # weaver.dec_id a3
    .insn r4 0x2b, 0, 0, x0, a0, a1, a2     # weaver.reg: error
    .insn r 0x0b, 0, 0, x0, x0, x0          # vx_tmc(0)
