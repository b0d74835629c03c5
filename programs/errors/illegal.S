# errors/illegal.S - an all-zero word (illegal) with no trap handler.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    a0, 1
    .word 0
