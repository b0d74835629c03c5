//! Tests of the FPU: IEEE special cases, flags, rounding and conversions, each result
//! checked against the SoftFloat reference (`execute_reference`).

use super::*;

fn ex(op: Op, a: u32, b: u32, rm: u8) -> (u32, u8) {
    let r = execute(op, a, b, 0, rm).unwrap();
    assert_eq!(
        r,
        execute_reference(op, a, b, 0, rm).unwrap(),
        "{op:?} {a:#x} {b:#x}"
    );
    r
}
fn ex3(op: Op, a: u32, b: u32, c: u32, rm: u8) -> (u32, u8) {
    let r = execute(op, a, b, c, rm).unwrap();
    assert_eq!(r, execute_reference(op, a, b, c, rm).unwrap());
    r
}
fn f(x: f32) -> u32 {
    x.to_bits()
}

const PINF: u32 = 0x7f80_0000;
const NINF: u32 = 0xff80_0000;
const QNAN: u32 = 0x7fc0_0000;
const QNAN_PAYLOAD: u32 = 0xffc1_2345;
const SNAN: u32 = 0x7f80_0001;
const NZERO: u32 = 0x8000_0000;
const MIN_SUB: u32 = 0x0000_0001;
const MAX: u32 = 0x7f7f_ffff;

#[test]
fn specialization_canonical_nan_and_flag_bits() {
    assert_eq!(ex(Op::FdivS, 0, 0, RNE), (CANONICAL_NAN, NV));
    assert_eq!(ex(Op::FdivS, f(1.0), 0, RNE), (PINF, DZ));
    assert_eq!(ex(Op::FdivS, f(-1.0), 0, RNE), (NINF, DZ));
    assert_eq!(ex(Op::FdivS, f(1.0), NZERO, RNE), (NINF, DZ));
    assert_eq!(ex(Op::FsqrtS, f(-1.0), 0, RNE), (CANONICAL_NAN, NV));
    assert_eq!(ex(Op::FsqrtS, NZERO, 0, RNE), (NZERO, 0));
    assert_eq!(ex(Op::FsqrtS, PINF, 0, RNE), (PINF, 0));
    assert_eq!(ex(Op::FsqrtS, f(4.0), 0, RNE), (f(2.0), 0));
    assert_eq!(ex(Op::FsqrtS, f(2.0), 0, RNE), (f(2f32.sqrt()), NX));
    // No payload propagation, quiet NaN in: no flags; signalling in: NV.
    assert_eq!(ex(Op::FaddS, QNAN_PAYLOAD, f(1.0), RNE), (CANONICAL_NAN, 0));
    assert_eq!(ex(Op::FmulS, f(1.0), SNAN, RNE), (CANONICAL_NAN, NV));
    assert_eq!(ex(Op::FaddS, 0xff80_1234, SNAN, RNE), (CANONICAL_NAN, NV));
    assert_eq!(ex(Op::FsubS, PINF, PINF, RNE), (CANONICAL_NAN, NV));
    assert_eq!(ex(Op::FmulS, PINF, 0, RNE), (CANONICAL_NAN, NV));
    assert_eq!(ex(Op::FdivS, PINF, NINF, RNE), (CANONICAL_NAN, NV));
    assert_eq!(ex(Op::FsqrtS, QNAN_PAYLOAD, 0, RNE), (CANONICAL_NAN, 0));
    assert_eq!(ex(Op::FsqrtS, SNAN, 0, RNE), (CANONICAL_NAN, NV));
    assert_eq!(
        ex3(Op::FmaddS, PINF, 0, QNAN_PAYLOAD, RNE),
        (CANONICAL_NAN, NV)
    );
    assert_eq!(
        ex3(Op::FmaddS, f(1.0), f(1.0), SNAN, RNE),
        (CANONICAL_NAN, NV)
    );
    assert_eq!(
        ex3(Op::FnmaddS, QNAN_PAYLOAD, f(1.0), f(1.0), RNE),
        (CANONICAL_NAN, 0)
    );
    assert_eq!(ex(Op::FaddS, PINF, f(1.0), RNE), (PINF, 0));
    assert_eq!(ex(Op::FsubS, f(1.0), f(1.0), RNE), (0, 0));
    assert_eq!(ex(Op::FsubS, f(1.0), f(1.0), RDN), (NZERO, 0));
    assert_eq!(ex(Op::FaddS, NZERO, NZERO, RNE), (NZERO, 0));
    assert_eq!(ex(Op::FaddS, f(1.0), f(2.0), RNE), (f(3.0), 0));
    assert_eq!(ex(Op::FaddS, f(1.0), f(1e-10), RNE), (f(1.0), NX));
    assert_eq!(ex(Op::FaddS, f(1.0), f(1e-10), RUP), (0x3f80_0001, NX));
    assert_eq!(ex(Op::FaddS, f(-1.0), f(-1e-10), RDN), (0xbf80_0001, NX));
}

#[test]
fn tininess_after_rounding() {
    let min_norm = 0x0080_0000; // 2^-126
                                // 2^-126 * (1 - 2^-24): representable with an unbounded exponent, so tiny after
                                // rounding; bounded rounding (a tie at half of 2^-149) goes to even 2^-126: UF|NX.
    assert_eq!(
        ex(Op::FmulS, min_norm, 0x3f7f_ffff, RNE),
        (min_norm, UF | NX)
    );
    // fmadd(2^-75, -2^-76, 2^-126) = 2^-126 - 2^-151: tiny before rounding, but the
    // unbounded rounding (a tie, to even) is 2^-126, so RISC-V raises NX without UF.
    let (p75, n76, n77, n74) = (0x1a00_0000, 0x9980_0000, 0x9900_0000, 0x9a80_0000);
    assert_eq!(ex3(Op::FmaddS, p75, n76, min_norm, RNE), (min_norm, NX));
    assert_eq!(ex3(Op::FmaddS, p75, n76, min_norm, RMM), (min_norm, NX));
    assert_eq!(ex3(Op::FmaddS, p75, n77, min_norm, RNE), (min_norm, NX));
    // Toward zero the unbounded result stays below 2^-126: tiny, UF|NX.
    assert_eq!(
        ex3(Op::FmaddS, p75, n76, min_norm, RTZ),
        (0x007f_ffff, UF | NX)
    );
    assert_eq!(ex3(Op::FmaddS, p75, n76, min_norm, RUP), (min_norm, NX));
    // 2^-126 - 2^-150 is exact with 24 bits: tiny; rounds to 2^-126 (tie to even).
    let n75 = 0x9a00_0000;
    assert_eq!(
        ex3(Op::FmaddS, p75, n75, min_norm, RNE),
        (min_norm, UF | NX)
    );
    // 2^-126 - 2^-149 is exact in the subnormal range: no flags.
    assert_eq!(ex3(Op::FmaddS, p75, n74, min_norm, RNE), (0x007f_ffff, 0));
    // (2^-126 + 2^-149) * (1 - 2^-24) = 2^-126 (1 + 2^-24 - 2^-47): not tiny.
    assert_eq!(ex(Op::FmulS, 0x0080_0001, 0x3f7f_ffff, RNE), (min_norm, NX));
    assert_eq!(
        ex(Op::FmulS, 0x0080_0001, 0x3f7f_ffff, RUP),
        (0x0080_0001, NX)
    );
    assert_eq!(ex(Op::FmulS, 0x0080_0001, 0x3f7f_ffff, RTZ), (min_norm, NX));
    assert_eq!(ex(Op::FmulS, min_norm, 0x3300_0000, RNE), (0, UF | NX)); // 2^-151
                                                                         // Exact subnormal results raise no UF.
    assert_eq!(ex(Op::FmulS, MIN_SUB, f(1.0), RNE), (MIN_SUB, 0));
    assert_eq!(ex(Op::FmulS, 0x0000_0002, f(0.5), RNE), (MIN_SUB, 0));
    // Smallest subnormal results from inexact operations: UF|NX.
    assert_eq!(ex(Op::FmulS, MIN_SUB, f(0.75), RNE), (MIN_SUB, UF | NX));
    assert_eq!(ex(Op::FmulS, MIN_SUB, f(0.5), RNE), (0, UF | NX)); // tie to even 0
    assert_eq!(ex(Op::FmulS, MIN_SUB, f(0.5), RUP), (MIN_SUB, UF | NX));
    assert_eq!(ex(Op::FmulS, MIN_SUB, f(0.5), RMM), (MIN_SUB, UF | NX));
    assert_eq!(ex(Op::FmulS, MIN_SUB, f(-0.5), RDN), (0x8000_0001, UF | NX));
    assert_eq!(ex(Op::FmulS, MIN_SUB, f(-0.5), RTZ), (NZERO, UF | NX));
    assert_eq!(ex(Op::FdivS, MIN_SUB, f(3.0), RUP), (MIN_SUB, UF | NX));
    assert_eq!(ex(Op::FdivS, f(1e-30), f(1e30), RNE), (0, UF | NX));
}

#[test]
fn overflow() {
    let big = f(1e38);
    assert_eq!(ex(Op::FmulS, big, f(10.0), RNE), (PINF, OF | NX));
    assert_eq!(ex(Op::FmulS, big, f(10.0), RTZ), (MAX, OF | NX));
    assert_eq!(ex(Op::FmulS, big, f(10.0), RDN), (MAX, OF | NX));
    assert_eq!(ex(Op::FmulS, big, f(10.0), RUP), (PINF, OF | NX));
    assert_eq!(ex(Op::FmulS, big, f(10.0), RMM), (PINF, OF | NX));
    assert_eq!(ex(Op::FmulS, big, f(-10.0), RUP), (MAX | SIGN, OF | NX));
    assert_eq!(ex(Op::FmulS, big, f(-10.0), RDN), (NINF, OF | NX));
    assert_eq!(ex(Op::FaddS, MAX, MAX, RNE), (PINF, OF | NX));
    // MAX + half an ulp rounds (RNE, tie to even) up to overflow; less stays at MAX.
    assert_eq!(ex(Op::FaddS, MAX, 0x7300_0000, RNE), (PINF, OF | NX)); // 2^103
    assert_eq!(ex(Op::FaddS, MAX, 0x72ff_ffff, RNE), (MAX, NX));
    // Overflow is judged after rounding in the current mode: toward zero, MAX + 2^103
    // rounds to MAX even with an unbounded exponent, so it does not overflow.
    assert_eq!(ex(Op::FaddS, MAX, 0x7300_0000, RTZ), (MAX, NX));
    assert_eq!(ex(Op::FaddS, MAX, 0x7300_0000, RUP), (PINF, OF | NX));
    assert_eq!(ex(Op::FdivS, MAX, f(0.5), RNE), (PINF, OF | NX));
    assert_eq!(ex(Op::FcvtSWu, u32::MAX, 0, RNE), (f(4294967296.0), NX));
    assert_eq!(ex(Op::FcvtSWu, u32::MAX, 0, RTZ), (0x4f7f_ffff, NX));
}

#[test]
fn fused_single_rounding() {
    // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: separate rounding loses 2^-46.
    let a = 0x3f80_0001;
    let one_p22 = 0x3f80_0002;
    assert_eq!(ex(Op::FmulS, a, a, RNE), (one_p22, NX));
    // fmsub: a*a - (1 + 2^-22) = 2^-46 exactly (separately it would be 0).
    assert_eq!(ex3(Op::FmsubS, a, a, one_p22, RNE), (0x2880_0000, 0));
    assert_eq!(
        ex3(Op::FnmaddS, a, a, one_p22 | SIGN, RNE),
        (0xa880_0000, 0)
    );
    assert_eq!(ex3(Op::FnmsubS, a, a, one_p22, RNE), (0xa880_0000, 0));
    assert_eq!(ex3(Op::FmaddS, a, a, one_p22 | SIGN, RNE), (0x2880_0000, 0));
    // Directed rounding sees the 2^-46 sticky bit.
    assert_eq!(ex3(Op::FmaddS, a, a, 0, RUP), (0x3f80_0003, NX));
    assert_eq!(ex3(Op::FmaddS, a, a, 0, RTZ), (one_p22, NX));
    assert_eq!(ex3(Op::FmaddS, f(2.0), f(3.0), f(4.0), RNE), (f(10.0), 0));
    assert_eq!(ex3(Op::FmsubS, f(2.0), f(3.0), f(4.0), RNE), (f(2.0), 0));
    assert_eq!(ex3(Op::FnmsubS, f(2.0), f(3.0), f(4.0), RNE), (f(-2.0), 0));
    assert_eq!(ex3(Op::FnmaddS, f(2.0), f(3.0), f(4.0), RNE), (f(-10.0), 0));
    // Zero signs: -(+0) - (+0) = -0; (+0) - (+0) = +0 in RNE, -0 in RDN.
    assert_eq!(ex3(Op::FnmaddS, 0, f(1.0), 0, RNE), (NZERO, 0));
    assert_eq!(ex3(Op::FmsubS, 0, f(1.0), 0, RNE), (0, 0));
    assert_eq!(ex3(Op::FmsubS, 0, f(1.0), 0, RDN), (NZERO, 0));
    assert_eq!(
        ex3(Op::FmaddS, PINF, f(1.0), NINF, RNE),
        (CANONICAL_NAN, NV)
    );
    // inf * 0 + qNaN is invalid in RISC-V (SoftFloat raises NV for it).
    assert_eq!(ex3(Op::FmaddS, 0, PINF, QNAN, RNE), (CANONICAL_NAN, NV));
}

#[test]
fn conversions_to_int() {
    let x = f(2.5);
    let w = |rm| ex(Op::FcvtWS, x, 0, rm);
    assert_eq!(
        [w(RNE), w(RTZ), w(RDN), w(RUP), w(RMM)],
        [(2, NX), (2, NX), (2, NX), (3, NX), (3, NX)]
    );
    let n = f(-2.5);
    let w = |rm| ex(Op::FcvtWS, n, 0, rm).0 as i32;
    assert_eq!(
        [w(RNE), w(RTZ), w(RDN), w(RUP), w(RMM)],
        [-2, -2, -3, -2, -3]
    );
    assert_eq!(ex(Op::FcvtWS, f(3.5), 0, RNE), (4, NX));
    assert_eq!(ex(Op::FcvtWS, f(-7.0), 0, RNE), (-7i32 as u32, 0));
    assert_eq!(ex(Op::FcvtWS, QNAN, 0, RNE), (0x7fff_ffff, NV));
    assert_eq!(ex(Op::FcvtWS, QNAN | SIGN, 0, RNE), (0x7fff_ffff, NV));
    assert_eq!(ex(Op::FcvtWS, SNAN, 0, RNE), (0x7fff_ffff, NV));
    assert_eq!(ex(Op::FcvtWS, PINF, 0, RNE), (0x7fff_ffff, NV));
    assert_eq!(ex(Op::FcvtWS, NINF, 0, RNE), (0x8000_0000, NV));
    assert_eq!(ex(Op::FcvtWS, f(3e9), 0, RNE), (0x7fff_ffff, NV));
    assert_eq!(ex(Op::FcvtWS, f(-3e9), 0, RNE), (0x8000_0000, NV));
    assert_eq!(ex(Op::FcvtWS, f(-2147483648.0), 0, RNE), (0x8000_0000, 0));
    assert_eq!(ex(Op::FcvtWS, f(2147483648.0), 0, RNE), (0x7fff_ffff, NV));
    assert_eq!(ex(Op::FcvtWS, f(2147483520.0), 0, RNE), (2147483520, 0));
    assert_eq!(ex(Op::FcvtWS, NZERO, 0, RNE), (0, 0));
    assert_eq!(ex(Op::FcvtWS, MIN_SUB, 0, RUP), (1, NX));
    assert_eq!(ex(Op::FcvtWS, MIN_SUB | SIGN, 0, RDN), (u32::MAX, NX));
    assert_eq!(ex(Op::FcvtWuS, QNAN, 0, RNE), (0xffff_ffff, NV));
    assert_eq!(ex(Op::FcvtWuS, QNAN | SIGN, 0, RNE), (0xffff_ffff, NV));
    assert_eq!(ex(Op::FcvtWuS, PINF, 0, RNE), (0xffff_ffff, NV));
    assert_eq!(ex(Op::FcvtWuS, NINF, 0, RNE), (0, NV));
    assert_eq!(ex(Op::FcvtWuS, f(-1.0), 0, RNE), (0, NV));
    assert_eq!(ex(Op::FcvtWuS, f(-0.4), 0, RTZ), (0, NX));
    assert_eq!(ex(Op::FcvtWuS, f(-0.4), 0, RNE), (0, NX));
    assert_eq!(ex(Op::FcvtWuS, f(-0.4), 0, RDN), (0, NV));
    assert_eq!(ex(Op::FcvtWuS, f(-0.6), 0, RNE), (0, NV));
    assert_eq!(ex(Op::FcvtWuS, NZERO, 0, RNE), (0, 0));
    assert_eq!(ex(Op::FcvtWuS, f(4294967040.0), 0, RNE), (4294967040, 0));
    assert_eq!(ex(Op::FcvtWuS, f(4294967296.0), 0, RNE), (0xffff_ffff, NV));
    assert_eq!(ex(Op::FcvtWuS, f(2.5), 0, RUP), (3, NX));
    assert_eq!(ex(Op::FcvtWuS, f(3e9), 0, RTZ), (3_000_000_000, 0));
}

#[test]
fn conversions_from_int() {
    assert_eq!(ex(Op::FcvtSW, 0, 0, RNE), (0, 0));
    assert_eq!(ex(Op::FcvtSW, -1i32 as u32, 0, RNE), (f(-1.0), 0));
    assert_eq!(ex(Op::FcvtSW, 0x8000_0000, 0, RNE), (0xcf00_0000, 0));
    // 2^24 + 1 is not representable: ties to even / directed.
    let v = (1 << 24) + 1;
    assert_eq!(ex(Op::FcvtSW, v, 0, RNE), (f(16777216.0), NX));
    assert_eq!(ex(Op::FcvtSW, v, 0, RUP), (f(16777218.0), NX));
    assert_eq!(ex(Op::FcvtSW, v, 0, RMM), (f(16777218.0), NX));
    assert_eq!(
        ex(Op::FcvtSW, (-(v as i32)) as u32, 0, RDN),
        (f(-16777218.0), NX)
    );
    assert_eq!(
        ex(Op::FcvtSW, (-(v as i32)) as u32, 0, RTZ),
        (f(-16777216.0), NX)
    );
    assert_eq!(ex(Op::FcvtSWu, 0x8000_0000, 0, RNE), (0x4f00_0000, 0));
    assert_eq!(ex(Op::FcvtSWu, 0xffff_ffff, 0, RNE), (0x4f80_0000, NX));
}

#[test]
fn compare() {
    let one = f(1.0);
    let two = f(2.0);
    for (op, lt, eq, gt) in [
        (Op::FeqS, 0, 1, 0),
        (Op::FltS, 1, 0, 0),
        (Op::FleS, 1, 1, 0),
    ] {
        assert_eq!(ex(op, one, two, RNE), (lt, 0));
        assert_eq!(ex(op, one, one, RNE), (eq, 0));
        assert_eq!(ex(op, two, one, RNE), (gt, 0));
        assert_eq!(ex(op, 0, NZERO, RNE), (eq, 0));
        assert_eq!(ex(op, NINF, PINF, RNE), (lt, 0));
    }
    assert_eq!(ex(Op::FeqS, QNAN, one, RNE), (0, 0));
    assert_eq!(ex(Op::FeqS, QNAN, QNAN, RNE), (0, 0));
    assert_eq!(ex(Op::FeqS, SNAN, one, RNE), (0, NV));
    assert_eq!(ex(Op::FeqS, one, SNAN, RNE), (0, NV));
    for op in [Op::FltS, Op::FleS] {
        assert_eq!(ex(op, QNAN, one, RNE), (0, NV));
        assert_eq!(ex(op, one, QNAN, RNE), (0, NV));
        assert_eq!(ex(op, SNAN, SNAN, RNE), (0, NV));
    }
}

#[test]
fn min_max_rules() {
    let one = f(1.0);
    assert_eq!(ex(Op::FminS, NZERO, 0, RNE), (NZERO, 0));
    assert_eq!(ex(Op::FminS, 0, NZERO, RNE), (NZERO, 0));
    assert_eq!(ex(Op::FmaxS, NZERO, 0, RNE), (0, 0));
    assert_eq!(ex(Op::FmaxS, 0, NZERO, RNE), (0, 0));
    assert_eq!(ex(Op::FminS, SNAN, one, RNE), (one, NV));
    assert_eq!(ex(Op::FmaxS, one, SNAN, RNE), (one, NV));
    assert_eq!(ex(Op::FminS, QNAN_PAYLOAD, one, RNE), (one, 0));
    assert_eq!(ex(Op::FmaxS, one, QNAN_PAYLOAD, RNE), (one, 0));
    assert_eq!(
        ex(Op::FminS, QNAN_PAYLOAD, QNAN_PAYLOAD, RNE),
        (CANONICAL_NAN, 0)
    );
    assert_eq!(ex(Op::FmaxS, SNAN, QNAN_PAYLOAD, RNE), (CANONICAL_NAN, NV));
    assert_eq!(ex(Op::FminS, f(-3.0), f(2.0), RNE), (f(-3.0), 0));
    assert_eq!(ex(Op::FmaxS, f(-3.0), f(2.0), RNE), (f(2.0), 0));
    assert_eq!(ex(Op::FminS, f(-3.0), f(-2.0), RNE), (f(-3.0), 0));
    assert_eq!(
        ex(Op::FmaxS, NINF, MIN_SUB | SIGN, RNE),
        (MIN_SUB | SIGN, 0)
    );
    assert_eq!(ex(Op::FminS, PINF, MAX, RNE), (MAX, 0));
    // rm is ignored by non-rounding operations.
    assert_eq!(execute(Op::FminS, one, 0, 0, 7), Some((0, 0)));
}

#[test]
fn sign_injection_and_moves_keep_nans() {
    let p = 0x7f80_1234; // sNaN with payload
    assert_eq!(ex(Op::FsgnjS, p, NZERO, RNE), (p | SIGN, 0));
    assert_eq!(ex(Op::FsgnjnS, p, NZERO, RNE), (p, 0));
    assert_eq!(ex(Op::FsgnjnS, p, 0, RNE), (p | SIGN, 0));
    assert_eq!(ex(Op::FsgnjxS, p | SIGN, NZERO, RNE), (p, 0));
    assert_eq!(ex(Op::FsgnjxS, f(-2.0), f(3.0), RNE), (f(-2.0), 0));
    assert_eq!(ex(Op::FsgnjS, f(-2.0), f(3.0), RNE), (f(2.0), 0));
    assert_eq!(ex(Op::FmvXW, p, 0, RNE), (p, 0));
    assert_eq!(ex(Op::FmvWX, QNAN_PAYLOAD, 0, RNE), (QNAN_PAYLOAD, 0));
}

#[test]
fn classify() {
    let cases = [
        (NINF, 0),
        (f(-1.0), 1),
        (MIN_SUB | SIGN, 2),
        (0x807f_ffff, 2),
        (NZERO, 3),
        (0, 4),
        (MIN_SUB, 5),
        (0x007f_ffff, 5),
        (0x0080_0000, 6),
        (MAX, 6),
        (PINF, 7),
        (SNAN, 8),
        (0xffbf_ffff, 8),
        (QNAN, 9),
        (QNAN_PAYLOAD, 9),
    ];
    for (x, bit) in cases {
        assert_eq!(ex(Op::FclassS, x, 0, RNE), (1 << bit, 0), "{x:#x}");
    }
}

#[test]
fn rejects_non_f_ops_and_bad_rounding_modes() {
    assert_eq!(execute(Op::Add, 1, 2, 0, RNE), None);
    assert_eq!(execute(Op::Flw, 1, 2, 0, RNE), None);
    assert_eq!(execute(Op::FaddS, f(1.0), f(2.0), 0, 5), None);
    assert_eq!(execute(Op::FcvtWS, f(1.0), 0, 0, 7), None);
    assert_eq!(execute(Op::FsgnjS, f(1.0), 0, 0, 7), Some((f(1.0), 0)));
}

/// SoftFloat's state is per thread: flags and rounding modes set in one thread never
/// show in another.
#[test]
fn state_is_thread_local() {
    let third = [
        (0x3eaa_aaab, NX),
        (0x3eaa_aaaa, NX),
        (0x3eaa_aaaa, NX),
        (0x3eaa_aaab, NX),
        (0x3eaa_aaab, NX),
    ];
    let handles: Vec<_> = (0..6u8)
        .map(|t| {
            std::thread::spawn(move || {
                for i in 0..20_000u32 {
                    if t == 5 {
                        // Raise every flag it can, all the time.
                        let _ = execute_reference(Op::FdivS, 0, 0, 0, RNE);
                        let _ = execute_reference(Op::FmulS, MAX, MAX, 0, RUP);
                        let _ = execute_reference(Op::FmulS, MIN_SUB, f(0.5), 0, RDN);
                    } else {
                        let rm = ((t as u32 + i) % 5) as u8;
                        let r = execute_reference(Op::FdivS, f(1.0), f(3.0), 0, rm).unwrap();
                        assert_eq!(r, third[rm as usize]);
                        assert_eq!(
                            execute_reference(Op::FaddS, f(1.0), f(1.0), 0, rm).unwrap(),
                            (f(2.0), 0)
                        );
                    }
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}
