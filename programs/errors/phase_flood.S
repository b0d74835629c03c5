# errors/phase_flood.S - writes a new value to the phase CSR (0x7C0) every few cycles,
# forever: the run stops at limits::PHASES distinct phases instead of growing a counter
# set per value.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    t0, 0
1:  csrw  0x7C0, t0
    addi  t0, t0, 1
    j     1b
