/* isa_zicsr.S - Zicsr and Zifencei self-test: csrrw/csrrs/csrrc and the immediate forms on
 * mscratch, fflags, frm and fcsr (fcsr = frm << 5 | fflags); read-only counters advance;
 * fence.i makes a store to code visible to instruction fetch (self-modifying code; the patched
 * function lives in a writable+executable section of .data).
 * Exit status: 0 = pass, otherwise the number of the first failing test. */
#include "isa_macros.h"

ISA_TEST_BEGIN("isa_zicsr")
    /* mscratch */
    TEST_CASE(1, a4, 0,          li a1, 0x12345678; csrrw a4, mscratch, a1; csrrw a4, mscratch, a1; li t6, 0x12345678; sub a4, a4, t6)
    TEST_CASE(2, a4, 0x12345678, li a1, 0x0000ff00; csrrs a4, mscratch, a1)
    TEST_CASE(3, a4, 0x1234ff78, csrr a4, mscratch)
    TEST_CASE(4, a4, 0x1234ff78, li a1, 0x00ff0000; csrrc a4, mscratch, a1)
    TEST_CASE(5, a4, 0x1200ff78, csrr a4, mscratch)
    TEST_CASE(6, a4, 0x1200ff78, csrrwi a4, mscratch, 0x1f)
    TEST_CASE(7, a4, 0x1f,       csrrsi a4, mscratch, 0x0)      /* rs1=x0 form: read only */
    TEST_CASE(8, a4, 0x1f,       csrrsi a4, mscratch, 0x10)
    TEST_CASE(9, a4, 0x1f,       csrrci a4, mscratch, 0x03)
    TEST_CASE(10, a4, 0x1c,      csrr a4, mscratch)
    TEST_CASE(11, a4, 0x1c,      csrrs a4, mscratch, x0)        /* no write */
    TEST_CASE(12, a4, 0x1c,      csrrc a4, mscratch, x0)
    TEST_CASE(13, a4, 0x1c,      csrrw x0, mscratch, a4; csrr a4, mscratch)

    /* fflags (5 bits), frm (3 bits), fcsr (8 bits) */
    TEST_CASE(20, a4, 0,         csrwi fcsr, 0; csrr a4, fcsr)
    TEST_CASE(21, a4, 0,         csrrwi a4, fflags, 0x1f)
    TEST_CASE(22, a4, 0x1f,      csrr a4, fflags)
    TEST_CASE(23, a4, 0x1f,      csrr a4, fcsr)
    TEST_CASE(24, a4, 0x1f,      csrrci a4, fflags, 0x05)
    TEST_CASE(25, a4, 0x1a,      csrr a4, fflags)
    TEST_CASE(26, a4, 0,         csrrwi a4, frm, 3)
    TEST_CASE(27, a4, 0x7a,      csrr a4, fcsr)                /* 3 << 5 | 0x1a */
    TEST_CASE(28, a4, 3,         csrrsi a4, frm, 4)
    TEST_CASE(29, a4, 7,         csrr a4, frm)
    TEST_CASE(30, a4, 0xfa,      li a1, 0x21; csrrw a4, fcsr, a1)
    TEST_CASE(31, a4, 1,         csrr a4, frm)
    TEST_CASE(32, a4, 1,         csrr a4, fflags)
    TEST_CASE(33, a4, 0x21,      li a1, 0xffffff00; csrrs a4, fcsr, a1; csrr a4, fcsr)  /* bits above 7 ignored */
    TEST_CASE(34, a4, 0,         li a1, 0xff; csrrc x0, fcsr, a1; csrr a4, fcsr)
    TEST_CASE(35, a4, 0x1f,      li a1, 0xffffffff; csrw fflags, a1; csrr a4, fflags)
    TEST_CASE(36, a4, 0x07,      csrw frm, a1; csrr a4, frm)
    TEST_CASE(37, a4, 0,         csrwi fcsr, 0; csrr a4, fcsr)

    /* counters move forward */
    TEST_CASE(40, a4, 1, csrr a1, mcycle; nop; nop; nop; csrr a2, mcycle; sltu a4, a1, a2)
    TEST_CASE(41, a4, 1, csrr a1, minstret; nop; nop; nop; csrr a2, minstret; sltu a4, a1, a2)
    TEST_CASE(42, a4, 1, csrr a1, 0xB00; nop; csrr a2, 0xB00; sltu a4, a1, a2)
    /* mhartid is consistent with the Vortex CSRs: ((core*W + warp)*T + thread) */
    TEST_CASE(43, a4, 0,
              csrr a1, 0xCC2; csrr a2, 0xFC1; mul a1, a1, a2; csrr a2, 0xCC1; add a1, a1, a2;
              csrr a2, 0xFC0; mul a1, a1, a2; csrr a2, 0xCC0; add a1, a1, a2;
              csrr a2, mhartid; sub a4, a1, a2)

    /* fence.i: run smc_fn (warm any decode cache), patch it, fence.i, run again */
    TEST_CASE(50, a0, 1, call smc_fn)
    TEST_CASE(51, a0, 2, la a5, smc_fn; li a1, 0x00200513; sw a1, 0(a5); fence.i; call smc_fn)
    TEST_CASE(52, a0, 3, la a5, smc_fn; li a1, 0x00300513; sw a1, 0(a5); fence.i; call smc_fn)
ISA_TEST_END

    .section .data.smc, "awx", @progbits
    .p2align 2
smc_fn:
    li a0, 1            /* addi a0, x0, 1 = 0x00100513; patched at run time */
    ret
