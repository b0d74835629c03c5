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
mod tests;
