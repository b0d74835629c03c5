# errors/forever.S - never ends; stopped by run.max_cycles.
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    j     _start
