# errors/jump_bss.S - a jump into .bss, mapped memory nothing has written: it reads as
# zero, an illegal instruction, not an unmapped fetch.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    la    t0, zeros
    jr    t0
    .bss
    .p2align 2
zeros:
    .skip 64
