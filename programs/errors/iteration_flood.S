# errors/iteration_flood.S - marks a new iteration (CSR 0x7C6) every few cycles, forever:
# the run stops at limits::ITERATIONS records instead of exhausting the host's memory.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    t0, 0
1:  csrw  0x7C6, t0
    addi  t0, t0, 1
    j     1b
