/* isa_f.S - RV32F self-test, a representative set (fp_conformance.c covers rounding modes,
 * flags and special values): flw/fsw, fmv, arithmetic, sqrt, fused multiply-add family, sign
 * injection, min/max, compares, fclass, conversions. Dynamic rounding mode = RNE (frm = 0).
 * Exit status: 0 = pass, otherwise the number of the first failing test. */
#include "isa_macros.h"

#define TEST_FP_RR(n, inst, res, a, b) \
    TEST_CASE(n, a4, res, li a1, a; li a2, b; fmv.w.x fa1, a1; fmv.w.x fa2, a2; \
              inst fa4, fa1, fa2; fmv.x.w a4, fa4)
#define TEST_FP_R(n, inst, res, a) \
    TEST_CASE(n, a4, res, li a1, a; fmv.w.x fa1, a1; inst fa4, fa1; fmv.x.w a4, fa4)
#define TEST_FP_R3(n, inst, res, a, b, c) \
    TEST_CASE(n, a4, res, li a1, a; li a2, b; li a3, c; fmv.w.x fa1, a1; fmv.w.x fa2, a2; \
              fmv.w.x fa3, a3; inst fa4, fa1, fa2, fa3; fmv.x.w a4, fa4)
#define TEST_FP_CMP(n, inst, res, a, b) \
    TEST_CASE(n, a4, res, li a1, a; li a2, b; fmv.w.x fa1, a1; fmv.w.x fa2, a2; inst a4, fa1, fa2)
#define TEST_FP_TOINT(n, inst, res, a) \
    TEST_CASE(n, a4, res, li a1, a; fmv.w.x fa1, a1; inst a4, fa1)
#define TEST_FP_FROMINT(n, inst, res, a) \
    TEST_CASE(n, a4, res, li a1, a; inst fa4, a1; fmv.x.w a4, fa4)

ISA_TEST_BEGIN("isa_f")
    csrwi fcsr, 0
    TEST_FP_RR(1, fadd.s, 0x40600000, 0x40200000, 0x3f800000)
    TEST_FP_RR(2, fadd.s, 0xc49a4000, 0xc49a6333, 0x3f8ccccd)
    TEST_FP_RR(3, fsub.s, 0x3fc00000, 0x40200000, 0x3f800000)
    TEST_FP_RR(4, fsub.s, 0x00000000, 0x3f800000, 0x3f800000)
    TEST_FP_RR(5, fmul.s, 0xc0f00000, 0x40200000, 0xc0400000)
    TEST_FP_RR(6, fmul.s, 0x3803c498, 0x40490fdb, 0x3727c5ac)
    TEST_FP_RR(7, fdiv.s, 0x40400000, 0x40f00000, 0x40200000)
    TEST_FP_RR(8, fdiv.s, 0x3eaaaaab, 0x3f800000, 0x40400000)
    TEST_FP_RR(9, fmin.s, 0x3f800000, 0x40200000, 0x3f800000)
    TEST_FP_RR(10, fmin.s, 0xc0000000, 0xbf800000, 0xc0000000)
    TEST_FP_RR(11, fmax.s, 0x40200000, 0x40200000, 0x3f800000)
    TEST_FP_RR(12, fmax.s, 0xbf800000, 0xbf800000, 0xc0000000)
    TEST_FP_RR(13, fsgnj.s, 0xc0200000, 0x40200000, 0xbf800000)
    TEST_FP_RR(14, fsgnj.s, 0x40200000, 0xc0200000, 0x3f800000)
    TEST_FP_RR(15, fsgnjn.s, 0x40200000, 0x40200000, 0xbf800000)
    TEST_FP_RR(16, fsgnjn.s, 0xc0200000, 0x40200000, 0x3f800000)
    TEST_FP_RR(17, fsgnjx.s, 0x40200000, 0xc0200000, 0xbf800000)
    TEST_FP_RR(18, fsgnjx.s, 0xc0200000, 0x40200000, 0xbf800000)
    /* sign injection is bit-exact on NaN payloads */
    TEST_FP_RR(19, fsgnjn.s, 0xffc01234, 0x7fc01234, 0x7f800000)
    TEST_FP_R(30, fsqrt.s, 0x40000000, 0x40800000)
    TEST_FP_R(31, fsqrt.s, 0x3fb504f3, 0x40000000)
    TEST_FP_R(32, fsqrt.s, 0x3f000000, 0x3e800000)
    TEST_FP_R(33, fneg.s, 0xbf800000, 0x3f800000)
    TEST_FP_R(34, fabs.s, 0x3f800000, 0xbf800000)
    TEST_FP_R(35, fmv.s, 0x7f812345, 0x7f812345)              /* signalling NaN moved as bits */
    TEST_FP_R3(40, fmadd.s, 0x40e00000, 0x40000000, 0x40400000, 0x3f800000)
    TEST_FP_R3(41, fmsub.s, 0x40a00000, 0x40000000, 0x40400000, 0x3f800000)
    TEST_FP_R3(42, fnmadd.s, 0xc0e00000, 0x40000000, 0x40400000, 0x3f800000)
    TEST_FP_R3(43, fnmsub.s, 0xc0a00000, 0x40000000, 0x40400000, 0x3f800000)
    TEST_FP_R3(44, fmadd.s, 0xc0b00000, 0xbfc00000, 0x40800000, 0x3f000000)
    TEST_FP_CMP(50, feq.s, 1, 0x3f800000, 0x3f800000)
    TEST_FP_CMP(51, feq.s, 0, 0x3f800000, 0x40000000)
    TEST_FP_CMP(52, flt.s, 1, 0x3f800000, 0x40000000)
    TEST_FP_CMP(53, flt.s, 0, 0x40000000, 0x3f800000)
    TEST_FP_CMP(54, flt.s, 0, 0x80000000, 0x00000000)
    TEST_FP_CMP(55, fle.s, 1, 0x80000000, 0x00000000)
    TEST_FP_CMP(56, fle.s, 0, 0x40400000, 0x40000000)
    TEST_FP_CMP(57, feq.s, 1, 0x80000000, 0x00000000)
    TEST_FP_CMP(58, feq.s, 0, 0x7fc00000, 0x7fc00000)
    TEST_FP_TOINT(60, fcvt.w.s, -2, 0xc0200000)
    TEST_FP_TOINT(61, fcvt.w.s, 2, 0x40200000)
    TEST_FP_TOINT(62, fcvt.w.s, -1, 0xbf800000)
    TEST_FP_TOINT(63, fcvt.wu.s, 4, 0x406ccccd)
    TEST_FP_TOINT(64, fcvt.w.s, 0x7fffffff, 0x501502f9)
    TEST_FP_TOINT(65, fcvt.wu.s, 0, 0xc0400000)
    TEST_FP_TOINT(66, fmv.x.w, 0xc0200000, 0xc0200000)
    TEST_FP_TOINT(67, fclass.s, 0x002, 0xbf800000)
    TEST_FP_TOINT(68, fclass.s, 0x010, 0x00000000)
    TEST_FP_TOINT(69, fclass.s, 0x080, 0x7f800000)
    TEST_CASE(70, a4, -2, li a1, 0xc02ccccd; fmv.w.x fa1, a1; fcvt.w.s a4, fa1, rtz)  /* -2.7, static rtz */
    TEST_FP_FROMINT(80, fcvt.s.w, 0xc0000000, -2)
    TEST_FP_FROMINT(81, fcvt.s.w, 0x4f000000, 0x7fffffff)
    TEST_FP_FROMINT(82, fcvt.s.wu, 0x4f800000, 0xffffffff)
    TEST_FP_FROMINT(83, fcvt.s.wu, 0x40e00000, 7)
    TEST_FP_FROMINT(84, fcvt.s.w, 0x00000000, 0)
    /* flw / fsw */
    TEST_CASE(90, a4, 0x40490fdb, la a5, fdata; flw fa0, 0(a5); fsw fa0, 8(a5); lw a4, 8(a5))
    TEST_CASE(91, a4, 0xff800001, la a5, fdata; flw fa0, 4(a5); fsw fa0, 12(a5); lw a4, 12(a5))
    /* the flags of this simple set: fdiv 1/3 and fsqrt 2 are inexact */
    TEST_CASE(95, a4, 0x01, csrwi fflags, 0; li a1, 0x3f800000; li a2, 0x40400000;
              fmv.w.x fa1, a1; fmv.w.x fa2, a2; fdiv.s fa3, fa1, fa2; csrr a4, fflags)
    TEST_CASE(96, a4, 0x00, csrwi fflags, 0; fadd.s fa3, fa1, fa2; csrr a4, fflags)
ISA_TEST_END

    .data
    .p2align 4
fdata: .word 0x40490fdb, 0xff800001, 0, 0
