# errors/spawn_misaligned.S - vx_wspawn starts warp 1 at _start+2, inside mapped code but
# not on an instruction: a misaligned fetch, not an unmapped one.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    a0, 2
    la    a1, _start
    addi  a1, a1, 2
    .insn r 0x0b, 1, 0, x0, a0, a1      # vx_wspawn(2, _start+2)
    .insn r 0x0b, 0, 0, x0, x0, x0      # vx_tmc(0)
