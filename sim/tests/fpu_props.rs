//! Property tests of `core::fpu`: the fast path against SoftFloat, and both against
//! independent oracles (host f32 arithmetic in RNE; exact f64 arithmetic plus a rounding
//! routine written here for the directed modes and RMM; f64 for integer conversions).
//!
//! `FPU_FUZZ_CASES` (default 200000) sets the size of the deterministic random sweeps; run
//! e.g. `FPU_FUZZ_CASES=20000000 cargo test --release --test fpu_props` for a long check.

use proptest::prelude::*;
use wsim_isa::Op;
use wsim_sim::core::fpu::{self, execute, execute_reference, CANONICAL_NAN, NV, NX, OF, UF};

const SIGN: u32 = 0x8000_0000;
const ROUNDING: [Op; 9] = [
    Op::FaddS,
    Op::FsubS,
    Op::FmulS,
    Op::FdivS,
    Op::FsqrtS,
    Op::FmaddS,
    Op::FmsubS,
    Op::FnmsubS,
    Op::FnmaddS,
];

fn is_nan(x: u32) -> bool {
    x & !SIGN > 0x7f80_0000
}
fn is_snan(x: u32) -> bool {
    is_nan(x) && x & 0x0040_0000 == 0
}
fn finite(x: u32) -> bool {
    x & 0x7f80_0000 != 0x7f80_0000
}

/// xorshift64*: a small deterministic generator for the long sweeps.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Operand bits biased toward the interesting places.
    fn operand(&mut self) -> u32 {
        let r = self.next();
        let sign = ((r >> 63) as u32) << 31;
        let frac = (r >> 8) as u32 & 0x7f_ffff;
        match r % 16 {
            0..=4 => r as u32,                                          // anything
            5..=8 => sign | (self.below(40) as u32 + 107) << 23 | frac, // near 1.0
            9 => sign | frac,                                           // subnormal / zero
            10 => sign | (self.below(6) as u32) << 23 | frac,           // lowest binades
            11 => sign | (249 + self.below(6) as u32) << 23 | frac,     // highest binades
            12 => sign | SPECIAL[self.below(SPECIAL.len() as u64) as usize],
            13 => sign | (self.below(254) as u32 + 1) << 23 | (frac & !0xff), // short significands
            14 => sign | (self.below(254) as u32 + 1) << 23 | (frac | 0xff) & 0x7f_ffff,
            _ => sign | (self.below(254) as u32 + 1) << 23 | frac, // any normal
        }
    }
}

const SPECIAL: [u32; 14] = [
    0,
    1,
    0x007f_ffff,
    0x0080_0000,
    0x0080_0001,
    0x3f80_0000,
    0x3f7f_ffff,
    0x3f80_0001,
    0x7f7f_ffff,
    0x7f80_0000,
    0x7fc0_0000,
    0x7f80_0001,
    0x7fff_ffff,
    0x4b00_0000,
];

fn cases() -> u64 {
    std::env::var("FPU_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000)
}

// ---- the directed-rounding oracle ----

/// Rounds the real number `v` to f32 in mode `rm`, where `v` is `q` (a nonzero finite f64)
/// if `dir == 0`, or lies strictly between `q` and its f64 neighbour in direction `dir`
/// (within half an f64 ulp). Returns the bits and the flags NX, UF (tininess after
/// rounding) and OF.
fn oracle_round(q: f64, dir: i32, rm: u8) -> (u32, u8) {
    assert!(q.is_finite() && q != 0.0);
    let neg = q < 0.0;
    let m = q.abs();
    let dm = if neg { -dir } else { dir };
    // In magnitude terms: 0 down, 1 up, 2 nearest-even, 3 nearest-away.
    let mode = match rm {
        0 => 2,
        1 => 0,
        2 => neg as u8,
        3 => !neg as u8,
        4 => 3,
        _ => unreachable!(),
    };
    let (bits, inexact) = round_mag(m, dm, mode);
    let mut flags = if inexact { NX } else { 0 };
    let two128 = 2f64.powi(128);
    if bits == 0x7f80_0000 || m > two128 || (m == two128 && dm >= 0) {
        flags |= OF | NX;
    }
    let min_norm = 2f64.powi(-126);
    let tiny = if m > min_norm || (m == min_norm && dm >= 0) {
        false
    } else if m < 2f64.powi(-180) {
        true
    } else {
        // Unbounded-exponent rounding: scale into the normal range (exact) and round there.
        let (b, _) = round_mag(m * 2f64.powi(64), dm, mode);
        (f32::from_bits(b) as f64) < 2f64.powi(-62)
    };
    if tiny && inexact {
        flags |= UF;
    }
    (if neg { bits | SIGN } else { bits }, flags)
}

fn round_mag(m: f64, dm: i32, mode: u8) -> (u32, bool) {
    let c = m as f32;
    let mut lo = if c as f64 > m {
        c.to_bits() - 1
    } else {
        c.to_bits()
    };
    if f32::from_bits(lo) as f64 == m && dm < 0 {
        lo -= 1;
    }
    let lo_v = f32::from_bits(lo) as f64;
    if lo_v == m && dm == 0 {
        return (lo, false);
    }
    let hi = lo + 1;
    let hi_v = if hi == 0x7f80_0000 {
        2f64.powi(128)
    } else {
        f32::from_bits(hi) as f64
    };
    let mid = (lo_v + hi_v) / 2.0;
    let cmp = if m != mid {
        if m > mid {
            1
        } else {
            -1
        }
    } else {
        dm.signum()
    };
    let up = match mode {
        0 => false,
        1 => true,
        2 => cmp > 0 || (cmp == 0 && lo & 1 == 1),
        _ => cmp >= 0,
    };
    (if up { hi } else { lo }, true)
}

fn sign_of(x: f64) -> i32 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// Knuth's TwoSum: `a + b == s + e` exactly.
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bv = s - a;
    let av = s - bv;
    (s, (a - av) + (b - bv))
}

/// The exact result of a rounding op on finite operands as `(q, dir)`, or `None` when the
/// exact result is zero (its sign follows rules tested by the vectors) or the op is invalid.
fn exact(op: Op, a: u32, b: u32, c: u32) -> Option<(f64, i32)> {
    let (x, y, z) = (
        f32::from_bits(a) as f64,
        f32::from_bits(b) as f64,
        f32::from_bits(c) as f64,
    );
    let r = match op {
        Op::FaddS => two_sum(x, y),
        Op::FsubS => two_sum(x, -y),
        Op::FmulS => (x * y, 0.0),
        Op::FdivS => {
            if y == 0.0 {
                return None;
            }
            let q = x / y;
            // v - q = (x - q*y) / y; q*y - x is computed with one rounding, sign exact.
            let res = q.mul_add(y, -x);
            (q, -(sign_of(res) * sign_of(y)) as f64)
        }
        Op::FsqrtS => {
            if x < 0.0 {
                return None;
            }
            let q = x.sqrt();
            (q, -sign_of(q.mul_add(q, -x)) as f64)
        }
        Op::FmaddS => two_sum(x * y, z),
        Op::FmsubS => two_sum(x * y, -z),
        Op::FnmsubS => two_sum(-x * y, z),
        Op::FnmaddS => two_sum(-x * y, -z),
        _ => unreachable!(),
    };
    if r.0 == 0.0 {
        assert_eq!(r.1, 0.0);
        return None;
    }
    Some((r.0, sign_of(r.1)))
}

fn check_rounding_op(op: Op, a: u32, b: u32, c: u32, rm: u8) -> Result<(), String> {
    let got = execute(op, a, b, c, rm).unwrap();
    let reference = execute_reference(op, a, b, c, rm).unwrap();
    if got != reference {
        return Err(format!(
            "{op:?} {a:#x} {b:#x} {c:#x} rm{rm}: fast {got:x?} softfloat {reference:x?}"
        ));
    }
    let uses_c = matches!(op, Op::FmaddS | Op::FmsubS | Op::FnmsubS | Op::FnmaddS);
    let uses_b = op != Op::FsqrtS;
    let ins: &[u32] = match (uses_b, uses_c) {
        (_, true) => &[a, b, c],
        (true, false) => &[a, b],
        _ => &[a],
    };
    if is_nan(got.0) {
        if got.0 != CANONICAL_NAN {
            return Err(format!(
                "{op:?} {a:#x} {b:#x} {c:#x}: NaN not canonical: {got:x?}"
            ));
        }
        let snan = ins.iter().any(|&v| is_snan(v));
        if snan && got.1 & NV == 0 {
            return Err(format!("{op:?} {a:#x} {b:#x} {c:#x}: sNaN without NV"));
        }
    }
    if ins.iter().any(|&v| is_nan(v)) {
        if got.0 != CANONICAL_NAN {
            return Err(format!(
                "{op:?} {a:#x} {b:#x} {c:#x}: NaN input, result {got:x?}"
            ));
        }
        return Ok(());
    }
    if !ins.iter().all(|&v| finite(v)) {
        return Ok(());
    }
    if let Some((q, dir)) = exact(op, a, b, c) {
        let want = oracle_round(q, dir, rm);
        if got != want {
            return Err(format!(
                "{op:?} {a:#x} {b:#x} {c:#x} rm{rm}: got {got:x?} oracle {want:x?}"
            ));
        }
    }
    // RNE against the host FPU (IEEE, round to nearest even) for the plain operations.
    if rm == 0 {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        let host = match op {
            Op::FaddS => Some(x + y),
            Op::FsubS => Some(x - y),
            Op::FmulS => Some(x * y),
            Op::FdivS => Some(x / y),
            Op::FsqrtS => Some(x.sqrt()),
            _ => None,
        };
        if let Some(h) = host {
            let ok = if h.is_nan() {
                got.0 == CANONICAL_NAN
            } else {
                got.0 == h.to_bits()
            };
            if !ok {
                return Err(format!(
                    "{op:?} {a:#x} {b:#x}: got {got:x?} host {:#x}",
                    h.to_bits()
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn oracle_agrees_with_spec_vectors() {
    // The oracle itself, on values worked out by hand.
    assert_eq!(oracle_round(1e39, 0, 0), (0x7f80_0000, OF | NX));
    assert_eq!(oracle_round(1e39, 0, 1), (0x7f7f_ffff, OF | NX));
    assert_eq!(oracle_round(2f64.powi(-149), 0, 0), (1, 0));
    assert_eq!(oracle_round(2f64.powi(-150), 0, 0), (0, UF | NX));
    assert_eq!(oracle_round(2f64.powi(-150), 0, 4), (1, UF | NX));
    assert_eq!(oracle_round(-2f64.powi(-150), 0, 2), (0x8000_0001, UF | NX));
    assert_eq!(
        oracle_round(2f64.powi(-126) - 2f64.powi(-150), 0, 0),
        (0x0080_0000, UF | NX)
    );
    assert_eq!(
        oracle_round(2f64.powi(-126) - 2f64.powi(-151), 0, 0),
        (0x0080_0000, NX)
    );
    assert_eq!(oracle_round(1.0, 1, 3), (0x3f80_0001, NX));
    assert_eq!(oracle_round(1.0, -1, 1), (0x3f7f_ffff, NX));
    assert_eq!(oracle_round(1.0, -1, 0), (0x3f80_0000, NX));
}

#[test]
fn sweep_rounding_ops_all_modes() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let n = cases();
    for i in 0..n {
        let op = ROUNDING[(i % ROUNDING.len() as u64) as usize];
        let (a, b, c) = (rng.operand(), rng.operand(), rng.operand());
        // RNE twice as often: that is where the fast path lives.
        let rm = (rng.below(7) as u8).saturating_sub(2);
        if let Err(e) = check_rounding_op(op, a, b, c, rm) {
            panic!("case {i}: {e}");
        }
    }
}

/// The fast path's domain (normal operands, RNE) swept hard, compared with SoftFloat.
#[test]
fn sweep_fast_path_domain() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let n = cases();
    let normal = |rng: &mut Rng| -> u32 {
        let r = rng.next();
        let e = match r % 4 {
            0 => rng.below(254) as u32 + 1,
            1 => rng.below(8) as u32 + 1, // results near the underflow edge
            2 => 247 + rng.below(8) as u32, // near overflow
            _ => 112 + rng.below(30) as u32, // ordinary magnitudes
        };
        let frac = match (r >> 2) % 4 {
            0 => 0x7f_ffff,
            1 => (r >> 8) as u32 & 0x7f_0000,
            _ => (r >> 8) as u32 & 0x7f_ffff,
        };
        ((r >> 63) as u32) << 31 | e << 23 | frac
    };
    for i in 0..n {
        let op = ROUNDING[(i % ROUNDING.len() as u64) as usize];
        let a = normal(&mut rng);
        let mut b = normal(&mut rng);
        let mut c = normal(&mut rng);
        match rng.below(8) {
            // Sums that cancel, exponent gaps around 28, products that land near c.
            0 => b = a ^ SIGN ^ (rng.below(4) as u32),
            1 => {
                b = (a & 0x807f_ffff)
                    | ((a >> 23 & 0xff)
                        .saturating_sub(27 + rng.below(4) as u32)
                        .max(1)
                        << 23)
            }
            2 => {
                let p = f32::from_bits(a) * f32::from_bits(b);
                c = (-p).to_bits() ^ (rng.below(3) as u32);
            }
            _ => {}
        }
        let got = execute(op, a, b, c, 0).unwrap();
        let reference = execute_reference(op, a, b, c, 0).unwrap();
        assert_eq!(got, reference, "case {i}: {op:?} {a:#x} {b:#x} {c:#x}");
    }
}

#[test]
fn sweep_conversions_and_compares() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    for _ in 0..cases() {
        let a = rng.operand();
        let b = rng.operand();
        let rm = rng.below(5) as u8;
        let x = f32::from_bits(a);
        // fcvt.w.s / fcvt.wu.s
        let r = match rm {
            0 => (x as f64).round_ties_even(),
            1 => (x as f64).trunc(),
            2 => (x as f64).floor(),
            3 => (x as f64).ceil(),
            _ => (x as f64).round(),
        };
        let nx = if r != x as f64 { NX } else { 0 };
        let want_w = if x.is_nan() {
            (0x7fff_ffff, NV)
        } else if r < i32::MIN as f64 {
            (0x8000_0000, NV)
        } else if r > i32::MAX as f64 {
            (0x7fff_ffff, NV)
        } else {
            (r as i32 as u32, nx)
        };
        let want_wu = if x.is_nan() {
            (u32::MAX, NV)
        } else if r < 0.0 {
            (0, NV)
        } else if r > u32::MAX as f64 {
            (u32::MAX, NV)
        } else {
            (r as u32, nx)
        };
        assert_eq!(
            execute(Op::FcvtWS, a, 0, 0, rm),
            Some(want_w),
            "fcvt.w.s {a:#x} rm{rm}"
        );
        assert_eq!(
            execute(Op::FcvtWuS, a, 0, 0, rm),
            Some(want_wu),
            "fcvt.wu.s {a:#x} rm{rm}"
        );
        // fcvt.s.w / fcvt.s.wu on integer bit patterns (a's bits, and small values)
        for v in [a, a >> (rng.below(32) as u32)] {
            for (op, val) in [(Op::FcvtSW, v as i32 as f64), (Op::FcvtSWu, v as f64)] {
                let want = if val == 0.0 {
                    (0, 0)
                } else {
                    oracle_round(val, 0, rm)
                };
                assert_eq!(execute(op, v, 0, 0, rm), Some(want), "{op:?} {v:#x} rm{rm}");
            }
        }
        // Fast paths against SoftFloat, on float and on small-integer operands.
        for (p, q) in [
            (a, b),
            (a >> rng.below(32), b >> rng.below(32)),
            (a >> 7, b >> 7 | SIGN),
        ] {
            for op in [
                Op::FeqS,
                Op::FltS,
                Op::FleS,
                Op::FcvtSW,
                Op::FcvtSWu,
                Op::FminS,
                Op::FmaxS,
            ] {
                assert_eq!(
                    execute(op, p, q, 0, rm),
                    execute_reference(op, p, q, 0, rm),
                    "{op:?} {p:#x} {q:#x} rm{rm}"
                );
            }
        }
        // compares
        let y = f32::from_bits(b);
        let any_nan = x.is_nan() || y.is_nan();
        let snan = is_snan(a) || is_snan(b);
        let quiet_nv = if snan { NV } else { 0 };
        let sig_nv = if any_nan { NV } else { 0 };
        assert_eq!(
            execute(Op::FeqS, a, b, 0, rm),
            Some(((x == y) as u32, quiet_nv))
        );
        assert_eq!(
            execute(Op::FltS, a, b, 0, rm),
            Some(((x < y) as u32, sig_nv))
        );
        assert_eq!(
            execute(Op::FleS, a, b, 0, rm),
            Some(((x <= y) as u32, sig_nv))
        );
        // min / max
        let want_min = match (x.is_nan(), y.is_nan()) {
            (true, true) => CANONICAL_NAN,
            (true, false) => b,
            (false, true) => a,
            _ if x == y => {
                if a & SIGN != 0 {
                    a
                } else {
                    b
                }
            }
            _ => x.min(y).to_bits(),
        };
        let want_max = match (x.is_nan(), y.is_nan()) {
            (true, true) => CANONICAL_NAN,
            (true, false) => b,
            (false, true) => a,
            _ if x == y => {
                if a & SIGN == 0 {
                    a
                } else {
                    b
                }
            }
            _ => x.max(y).to_bits(),
        };
        assert_eq!(
            execute(Op::FminS, a, b, 0, rm),
            Some((want_min, quiet_nv)),
            "fmin {a:#x} {b:#x}"
        );
        assert_eq!(
            execute(Op::FmaxS, a, b, 0, rm),
            Some((want_max, quiet_nv)),
            "fmax {a:#x} {b:#x}"
        );
        // sign injection, moves, class: bit manipulation only, no flags
        assert_eq!(
            execute(Op::FsgnjS, a, b, 0, rm),
            Some(((a & !SIGN) | (b & SIGN), 0))
        );
        assert_eq!(
            execute(Op::FsgnjnS, a, b, 0, rm),
            Some(((a & !SIGN) | (!b & SIGN), 0))
        );
        assert_eq!(execute(Op::FsgnjxS, a, b, 0, rm), Some((a ^ (b & SIGN), 0)));
        assert_eq!(execute(Op::FmvXW, a, b, 0, rm), Some((a, 0)));
        assert_eq!(execute(Op::FmvWX, a, b, 0, rm), Some((a, 0)));
        let class = execute(Op::FclassS, a, 0, 0, rm).unwrap();
        assert_eq!(class.1, 0);
        assert_eq!(class.0.count_ones(), 1);
        assert!(class.0 < 1 << 10);
    }
}

fn bits_strategy() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>(),
        (any::<bool>(), 0u32..0x80_0000).prop_map(|(s, f)| (s as u32) << 31 | f),
        (any::<bool>(), 100u32..156, 0u32..0x80_0000)
            .prop_map(|(s, e, f)| (s as u32) << 31 | e << 23 | f),
        prop::sample::select(SPECIAL.to_vec()),
        (any::<bool>(), 0usize..SPECIAL.len()).prop_map(|(s, i)| (s as u32) << 31 | SPECIAL[i]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    /// RNE against host f32 arithmetic: equal bits on non-NaN results, canonical NaNs.
    #[test]
    fn rne_matches_host(a in bits_strategy(), b in bits_strategy()) {
        for op in [Op::FaddS, Op::FsubS, Op::FmulS, Op::FdivS, Op::FsqrtS] {
            prop_assert!(check_rounding_op(op, a, b, 0, fpu::RNE).is_ok(), "{}", check_rounding_op(op, a, b, 0, fpu::RNE).unwrap_err());
        }
    }

    /// All modes, all rounding ops, against SoftFloat and the oracle.
    #[test]
    fn all_modes_match_oracle(a in bits_strategy(), b in bits_strategy(), c in bits_strategy(), rm in 0u8..5) {
        for op in ROUNDING {
            let r = check_rounding_op(op, a, b, c, rm);
            prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        }
    }
}
