# errors/null.S - a store through a null pointer (below io.null_guard).
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    a1, 7
    sw    a1, 8(zero)
