//! Exact RISC-V single-precision arithmetic (the F extension), one lane at a time.
//!
//! Built on Berkeley SoftFloat 3e through `softfloat-wrapper` with its `riscv` feature: the
//! library and specialization the RISC-V reference model (Spike) uses, so results and fflags
//! match it bit for bit (canonical NaN, tininess after rounding, RISC-V integer saturation).
//! Build requirement: its dependency `c99` runs `cmake` at build time (Debian package `cmake`).
//!
//! # SoftFloat's state
//! SoftFloat keeps the rounding mode and the exception flags in C globals; `softfloat-sys`
//! compiles them `_Thread_local`, so parallel test threads cannot disturb each other. Every call
//! here sets the rounding mode and clears the flags before the operation and reads the flags
//! after it, so nothing carries over between calls. The tininess mode is never written (the
//! RISC-V specialization initialises it to "after rounding"; a test checks it).
//!
//! # Fast path
//! [`execute`] first tries a host-arithmetic fast path for `fadd/fsub/fmul/fdiv/fsqrt` and the
//! four fused multiply-adds, in RNE only, when every operand is normal and the result's exponent
//! field is in `2..=254` (so neither overflow nor underflow is possible and only NX can be
//! raised). The host's f32 `+ - * / sqrt` are IEEE correctly rounded to nearest-even (Rust never
//! changes the host rounding mode; FTZ/DAZ cannot matter as no subnormal is read or produced),
//! and NX is decided exactly:
//! - `fmul`: the f64 product of two f32 is exact (48 significant bits), NX iff it differs from
//!   the rounded result.
//! - `fadd/fsub`: with exponent fields `ea >= eb`, `d = ea - eb`, the exact sum is an integer of
//!   at most `25 + d` bits times `2^(eb-150)`, so the f64 sum is exact for `d <= 28`; for
//!   `d > 28` the smaller operand lies wholly below the larger one's rounding position, so the
//!   result is inexact.
//! - `fdiv`: `q = a/b` exactly iff `q*b == a`, and `q*b` (24x24 bits) is exact in f64.
//! - `fsqrt`: `r = sqrt(a)` exactly iff `r*r == a`, again exact in f64.
//! - fused: `p = a*b` is exact in f64; `s = p + c` in f64 with the TwoSum error `e` (exact).
//!   If `e == 0`, `s` is the exact value. Otherwise the exact value lies strictly within half an
//!   f64 ulp of `s`; every f32 value and every f32 rounding midpoint of the normal range is an f64
//!   number whose low 29 significand bits are `0` or `0x1000_0000`, so if `s` is neither, the
//!   exact value and `s` lie between the same two such points: they round to the same f32 and the
//!   result is inexact. If `s` is one of them, the slow path decides.
//!
//! `feq/flt/fle` are done on the bits, and `fcvt.s.w[u]` of integers of at most 24 significant
//! bits by host conversion (exact, so no rounding and no flags), in every rounding mode.
//!
//! The fast path is checked against SoftFloat on many millions of random operands (see
//! `sim/tests/fpu_props.rs`); [`execute_reference`] is the SoftFloat-only path.

use softfloat_wrapper::{ExceptionFlags, Float, RoundingMode, F32};
use wsim_isa::Op;

/// fflags bits (RISC-V): invalid operation.
pub const NV: u8 = 0x10;
/// fflags: divide by zero.
pub const DZ: u8 = 0x08;
/// fflags: overflow.
pub const OF: u8 = 0x04;
/// fflags: underflow.
pub const UF: u8 = 0x02;
/// fflags: inexact.
pub const NX: u8 = 0x01;

/// The canonical NaN every NaN-producing arithmetic operation returns.
pub const CANONICAL_NAN: u32 = 0x7fc0_0000;

/// Rounding modes, as encoded in the `rm` field and `frm`.
pub const RNE: u8 = 0;
pub const RTZ: u8 = 1;
pub const RDN: u8 = 2;
pub const RUP: u8 = 3;
pub const RMM: u8 = 4;

const SIGN: u32 = 0x8000_0000;

/// Executes one F-extension operation on one lane.
///
/// `a, b, c` are the rs1, rs2, rs3 values: f-register bits for float operands, the integer
/// register value for `fcvt.s.w`, `fcvt.s.wu` and `fmv.w.x`. `rm` is the resolved rounding mode
/// (0..=4: RNE, RTZ, RDN, RUP, RMM); operations that do not round ignore it.
///
/// Returns `(result, fflags)`: float bits, or the integer result of `fcvt.w[u].s`, `feq`,
/// `flt`, `fle`, `fclass` and `fmv.x.w`; fflags use the RISC-V bits ([`NV`] .. [`NX`]).
///
/// Returns `None` — a caller bug, never a guest-visible outcome — if `op` is not one of the 26
/// F-extension computational operations (loads/stores `flw`/`fsw` included), or if `op` rounds
/// and `rm > 4` (the caller must resolve the dynamic mode 7 from `frm` and raise an
/// illegal-instruction exception for 5, 6 or an invalid `frm`).
#[inline]
pub fn execute(op: Op, a: u32, b: u32, c: u32, rm: u8) -> Option<(u32, u8)> {
    if rm == RNE {
        let fast = match op {
            Op::FaddS => fast_add(a, b),
            Op::FsubS => fast_add(a, b ^ SIGN),
            Op::FmulS => fast_mul(a, b),
            Op::FdivS => fast_div(a, b),
            Op::FsqrtS => fast_sqrt(a),
            Op::FmaddS => fast_fma(a, b, c),
            Op::FmsubS => fast_fma(a, b, c ^ SIGN),
            Op::FnmsubS => fast_fma(a ^ SIGN, b, c),
            Op::FnmaddS => fast_fma(a ^ SIGN, b, c ^ SIGN),
            _ => None,
        };
        if fast.is_some() {
            return fast;
        }
    }
    match op {
        Op::FeqS | Op::FltS | Op::FleS => Some(compare(op, a, b)),
        // Integers of at most 24 significant bits convert exactly in every mode (0 -> +0).
        Op::FcvtSW if (a as i32).unsigned_abs() <= 1 << 24 => {
            Some(((a as i32 as f32).to_bits(), 0))
        }
        Op::FcvtSWu if a <= 1 << 24 => Some(((a as f32).to_bits(), 0)),
        _ => execute_reference(op, a, b, c, rm),
    }
}

/// `feq/flt/fle` on the bits (checked against SoftFloat's `f32_eq/lt/le` by the tests):
/// -0 == +0; feq raises NV only for a signalling NaN, flt/fle for any NaN.
#[inline]
fn compare(op: Op, a: u32, b: u32) -> (u32, u8) {
    if is_nan(a) || is_nan(b) {
        let nv = op != Op::FeqS || is_snan(a) || is_snan(b);
        return (0, if nv { NV } else { 0 });
    }
    let zeros = (a | b) & !SIGN == 0;
    let r = match op {
        Op::FeqS => a == b || zeros,
        Op::FltS => order_key(a) < order_key(b) && !zeros,
        _ => order_key(a) <= order_key(b) || zeros,
    };
    (r as u32, 0)
}

/// [`execute`] without the fast path: SoftFloat for everything that rounds or compares.
pub fn execute_reference(op: Op, a: u32, b: u32, c: u32, rm: u8) -> Option<(u32, u8)> {
    let r = match op {
        // No rounding, no flags, NaNs untouched.
        Op::FsgnjS => (a & !SIGN) | (b & SIGN),
        Op::FsgnjnS => (a & !SIGN) | (!b & SIGN),
        Op::FsgnjxS => a ^ (b & SIGN),
        Op::FmvXW | Op::FmvWX => a,
        Op::FclassS => fclass(a),
        Op::FminS => return Some(min_max(a, b, false)),
        Op::FmaxS => return Some(min_max(a, b, true)),
        // Comparisons: feq is quiet (NV for sNaN only), flt/fle signal on any NaN.
        Op::FeqS => return Some(soft(|| F32::from_bits(a).eq(F32::from_bits(b)) as u32)),
        Op::FltS => return Some(soft(|| F32::from_bits(a).lt(F32::from_bits(b)) as u32)),
        Op::FleS => return Some(soft(|| F32::from_bits(a).le(F32::from_bits(b)) as u32)),
        _ => {
            let rnd = rounding(rm)?;
            let (x, y, z) = (F32::from_bits(a), F32::from_bits(b), F32::from_bits(c));
            let neg = |v: u32| F32::from_bits(v ^ SIGN);
            return Some(match op {
                Op::FaddS => soft(|| x.add(y, rnd).to_bits()),
                Op::FsubS => soft(|| x.sub(y, rnd).to_bits()),
                Op::FmulS => soft(|| x.mul(y, rnd).to_bits()),
                Op::FdivS => soft(|| x.div(y, rnd).to_bits()),
                Op::FsqrtS => soft(|| x.sqrt(rnd).to_bits()),
                // Spike's forms: the negations are applied to the operands, then one rounding.
                Op::FmaddS => soft(|| x.fused_mul_add(y, z, rnd).to_bits()),
                Op::FmsubS => soft(|| x.fused_mul_add(y, neg(c), rnd).to_bits()),
                Op::FnmsubS => soft(|| neg(a).fused_mul_add(y, z, rnd).to_bits()),
                Op::FnmaddS => soft(|| neg(a).fused_mul_add(y, neg(c), rnd).to_bits()),
                // RISC-V saturation values come from SoftFloat's RISC-V specialization.
                Op::FcvtWS => soft(|| x.to_i32(rnd, true) as u32),
                Op::FcvtWuS => soft(|| x.to_u32(rnd, true)),
                Op::FcvtSW => soft(|| F32::from_i32(a as i32, rnd).to_bits()),
                Op::FcvtSWu => soft(|| F32::from_u32(a, rnd).to_bits()),
                _ => return None,
            });
        }
    };
    Some((r, 0))
}

fn rounding(rm: u8) -> Option<RoundingMode> {
    Some(match rm {
        RNE => RoundingMode::TiesToEven,
        RTZ => RoundingMode::TowardZero,
        RDN => RoundingMode::TowardNegative,
        RUP => RoundingMode::TowardPositive,
        RMM => RoundingMode::TiesToAway,
        _ => return None,
    })
}

/// Runs `f` with SoftFloat's (thread-local) flags cleared and returns its result with the
/// flags it raised. SoftFloat's flag bits are RISC-V's (inexact 1 .. invalid 16).
#[inline]
fn soft(f: impl FnOnce() -> u32) -> (u32, u8) {
    ExceptionFlags::default().set();
    let r = f();
    let mut flags = ExceptionFlags::default();
    flags.get();
    (r, flags.to_bits() & 0x1f)
}

#[inline]
fn is_nan(x: u32) -> bool {
    x & !SIGN > 0x7f80_0000
}

#[inline]
fn is_snan(x: u32) -> bool {
    is_nan(x) && x & 0x0040_0000 == 0
}

/// A key whose unsigned order is the float order of non-NaN values, with -0 < +0.
#[inline]
fn order_key(x: u32) -> u32 {
    if x & SIGN != 0 {
        !x
    } else {
        x | SIGN
    }
}

fn min_max(a: u32, b: u32, max: bool) -> (u32, u8) {
    let flags = if is_snan(a) || is_snan(b) { NV } else { 0 };
    let r = match (is_nan(a), is_nan(b)) {
        (true, true) => CANONICAL_NAN,
        (true, false) => b,
        (false, true) => a,
        (false, false) => {
            if (order_key(a) < order_key(b)) != max {
                a
            } else {
                b
            }
        }
    };
    (r, flags)
}

/// The 10-bit one-hot class of `fclass.s`.
fn fclass(x: u32) -> u32 {
    let neg = x & SIGN != 0;
    let exp = (x >> 23) & 0xff;
    let frac = x & 0x7f_ffff;
    let bit = match (exp, frac) {
        (0xff, 0) => {
            if neg {
                0
            } else {
                7
            }
        }
        (0xff, f) => {
            if f & 0x40_0000 != 0 {
                9
            } else {
                8
            }
        }
        (0, 0) => {
            if neg {
                3
            } else {
                4
            }
        }
        (0, _) => {
            if neg {
                2
            } else {
                5
            }
        }
        _ => {
            if neg {
                1
            } else {
                6
            }
        }
    };
    1 << bit
}

// ---- fast path (RNE only; see the module documentation for the proofs) ----

#[inline(always)]
fn exp_field(x: u32) -> u32 {
    (x >> 23) & 0xff
}

/// Exponent field in 1..=254: normal, not zero, subnormal, infinite or NaN.
#[inline(always)]
fn is_normal(x: u32) -> bool {
    exp_field(x).wrapping_sub(1) < 254
}

/// Result exponent field in 2..=254: no overflow, and not tiny before or after rounding.
#[inline(always)]
fn result_ok(r: u32) -> bool {
    exp_field(r).wrapping_sub(2) < 253
}

#[inline(always)]
fn nx(inexact: bool) -> u8 {
    inexact as u8
}

#[inline]
fn fast_mul(a: u32, b: u32) -> Option<(u32, u8)> {
    if !(is_normal(a) && is_normal(b)) {
        return None;
    }
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let r = x * y;
    let rb = r.to_bits();
    if !result_ok(rb) {
        return None;
    }
    Some((rb, nx(r as f64 != x as f64 * y as f64)))
}

#[inline]
fn fast_add(a: u32, b: u32) -> Option<(u32, u8)> {
    if !(is_normal(a) && is_normal(b)) {
        return None;
    }
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let r = x + y;
    let rb = r.to_bits();
    if !result_ok(rb) {
        return None;
    }
    let inexact = if exp_field(a).abs_diff(exp_field(b)) <= 28 {
        r as f64 != x as f64 + y as f64
    } else {
        true
    };
    Some((rb, nx(inexact)))
}

#[inline]
fn fast_div(a: u32, b: u32) -> Option<(u32, u8)> {
    if !(is_normal(a) && is_normal(b)) {
        return None;
    }
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let r = x / y;
    let rb = r.to_bits();
    if !result_ok(rb) {
        return None;
    }
    Some((rb, nx(r as f64 * y as f64 != x as f64)))
}

#[inline]
fn fast_sqrt(a: u32) -> Option<(u32, u8)> {
    if !(is_normal(a) && a & SIGN == 0) {
        return None;
    }
    let x = f32::from_bits(a);
    let r = x.sqrt();
    let rb = r.to_bits();
    if !result_ok(rb) {
        return None;
    }
    Some((rb, nx(r as f64 * r as f64 != x as f64)))
}

#[inline]
fn fast_fma(a: u32, b: u32, c: u32) -> Option<(u32, u8)> {
    if !(is_normal(a) && is_normal(b) && is_normal(c)) {
        return None;
    }
    let p = f32::from_bits(a) as f64 * f32::from_bits(b) as f64; // exact
    let z = f32::from_bits(c) as f64;
    let s = p + z;
    // TwoSum (Knuth): p + z == s + e exactly (no overflow possible: |p| < 2^256).
    let bv = s - p;
    let av = s - bv;
    let e = (p - av) + (z - bv);
    let inexact = if e == 0.0 {
        None
    } else {
        let low = s.to_bits() & 0x1fff_ffff;
        if low == 0 || low == 0x1000_0000 {
            return None; // s is an f32 value or a rounding midpoint: let SoftFloat decide
        }
        Some(true)
    };
    let r = s as f32;
    let rb = r.to_bits();
    if !result_ok(rb) {
        return None;
    }
    Some((rb, nx(inexact.unwrap_or(r as f64 != s))))
}

#[cfg(test)]
mod tests {
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
}
