# errors/ecall.S - a system call other than exit, with no trap handler.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    a7, 64
    ecall
