# errors/weaver_dec_loc.S - weaver.dec_loc without a decode before it.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    a1, 0                             # (LLVM 14's -g line table needs an ordinary first instruction)
    .insn r 0x0b, 1, 2, a0, x0, x0          # weaver.dec_loc a0
    .insn r 0x0b, 0, 0, x0, x0, x0          # vx_tmc(0)
