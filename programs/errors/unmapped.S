# errors/unmapped.S - a store to 0xC0000000, which nothing maps (not the image, heap,
# stacks, local memory, I/O nor a graph). With map.regions mapping it, the store and the
# load back succeed and the exit status is the value stored (7).
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    a0, 0xC0000000
    li    a1, 7
    sw    a1, 0(a0)
    lw    a2, 0(a0)
    li    t0, 0x8348
    sw    a2, 0(t0)                     # exit status
    .insn r 0x0b, 0, 0, x0, x0, x0      # vx_tmc(0)
