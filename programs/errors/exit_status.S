# errors/exit_status.S - exits with status 3, the status wsim itself gives a failed
# simulation: `wsim run` must tell the two apart (tests/cli/errors.rs).
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li    a0, 3
    li    a7, 93
    ecall
