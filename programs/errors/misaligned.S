# errors/misaligned.S - a word load from an address that is not word aligned.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    la    a0, data
    lw    a1, 2(a0)
    .data
    .p2align 2
data: .word 0x12345678
