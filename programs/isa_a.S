/* isa_a.S - RV32A self-test (single thread): lr/sc success and failure, every AMO with its
 * returned old value and the new memory value. aq/rl variants are also exercised.
 * Exit status: 0 = pass, otherwise the number of the first failing test. */
#include "isa_macros.h"

/* AMO test: mem = init; rd = amo(mem, src); check rd == init and mem == result */
#define TEST_AMO(n, inst, init, src, result)                           \
    TEST_CASE(n, a4, init, la a5, amo_word; li a1, init; sw a1, 0(a5); \
              li a2, src; inst a4, a2, (a5));                          \
    TEST_CASE(n, a3, result, lw a3, 0(a5))

ISA_TEST_BEGIN("isa_a")
    TEST_AMO(1,  amoswap.w,    0x80000000, 0xaaaaaaaa, 0xaaaaaaaa)
    TEST_AMO(2,  amoadd.w,     0x80000000, 0xfffff800, 0x7ffff800)
    TEST_AMO(3,  amoadd.w,     0x7fffffff, 1, 0x80000000)
    TEST_AMO(4,  amoxor.w,     0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0)
    TEST_AMO(5,  amoand.w,     0xff00ff00, 0x0ff00ff0, 0x0f000f00)
    TEST_AMO(6,  amoor.w,      0xff00ff00, 0x0ff00ff0, 0xfff0fff0)
    TEST_AMO(7,  amomin.w,     0x80000000, 0xfffff800, 0x80000000)
    TEST_AMO(8,  amomin.w,     5, -1, -1)
    TEST_AMO(9,  amomax.w,     0x80000000, 0xfffff800, 0xfffff800)
    TEST_AMO(10, amomax.w,     5, -1, 5)
    TEST_AMO(11, amominu.w,    0x80000000, 0xfffff800, 0x80000000)
    TEST_AMO(12, amominu.w,    5, -1, 5)
    TEST_AMO(13, amomaxu.w,    0x80000000, 0xfffff800, 0xfffff800)
    TEST_AMO(14, amomaxu.w,    5, -1, -1)
    TEST_AMO(15, amoadd.w.aq,  10, 20, 30)
    TEST_AMO(16, amoswap.w.rl, 1, 2, 2)
    TEST_AMO(17, amoor.w.aqrl, 1, 2, 3)

    /* amo with rd = x0 still updates memory */
    TEST_CASE(20, a3, 12, la a5, amo_word; li a1, 5; sw a1, 0(a5); li a2, 7;
              amoadd.w x0, a2, (a5); lw a3, 0(a5))

    /* lr/sc: success returns 0 and stores */
    TEST_CASE(21, a4, 0x1234, la a5, amo_word; li a1, 0x1234; sw a1, 0(a5); lr.w a4, (a5))
    TEST_CASE(22, a3, 0, li a2, 0x5678; sc.w a3, a2, (a5))
    TEST_CASE(23, a4, 0x5678, lw a4, 0(a5))
    /* sc without a reservation (the previous sc consumed it) fails: rd != 0, no store */
    TEST_CASE(24, a3, 1, li a2, 0x9999; sc.w a3, a2, (a5); snez a3, a3)
    TEST_CASE(25, a4, 0x5678, lw a4, 0(a5))
    /* lr/sc increment loop */
    TEST_CASE(26, a4, 0x5678 + 10,
              li a6, 10;
              1: lr.w.aq a4, (a5); addi a4, a4, 1; sc.w.rl a3, a4, (a5); bnez a3, 1b;
              addi a6, a6, -1; bnez a6, 1b;
              lw a4, 0(a5))
ISA_TEST_END

    .data
    .p2align 3
amo_word: .word 0, 0
