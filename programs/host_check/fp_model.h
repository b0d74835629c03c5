/* fp_model.h - host reference model of RISC-V single-precision semantics, used to derive and
 * to verify the expected values in ../fp_cases.h. Built from the RISC-V F specification:
 *   - arithmetic NaN results are the canonical NaN 0x7fc00000; sNaN inputs raise NV;
 *   - FMA raises NV for inf*0 even when the addend is a quiet NaN;
 *   - fmin/fmax follow IEEE 754-2019 minimumNumber/maximumNumber, -0 < +0, both NaN ->
 *     canonical NaN, sNaN -> NV;
 *   - feq raises NV only for sNaN, flt/fle for any NaN;
 *   - fcvt to integer: round in the given mode, then saturate; NaN -> largest value; out of
 *     range (after rounding) -> NV and saturation; in range but rounded -> NX;
 *   - tininess is detected after rounding (UF if tiny and inexact).
 * RNE/RTZ/RDN/RUP use the host (x86 SSE) FPU with fesetround/fetestexcept. RMM is derived:
 * the operation is done in long double (64-bit significand) toward zero; if that is exact
 * the exact value is rounded to single by hand with ties away from zero; if it is inexact
 * the exact value is not a midpoint (midpoints of singles need 25 bits), so RMM equals RNE. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "fp_cases.h"

#define F_NV 0x10
#define F_DZ 0x08
#define F_OF 0x04
#define F_UF 0x02
#define F_NX 0x01

static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static int is_nan(uint32_t u) { return (u & 0x7f800000) == 0x7f800000 && (u & 0x7fffff); }
static int is_snan(uint32_t u) { return is_nan(u) && !(u & 0x400000); }
static int is_inf(uint32_t u) { return (u & 0x7fffffff) == 0x7f800000; }
static int is_zero(uint32_t u) { return (u & 0x7fffffff) == 0; }

static uint32_t host_flags(void) {
    uint32_t f = 0;
    if (fetestexcept(FE_INVALID)) f |= F_NV;
    if (fetestexcept(FE_DIVBYZERO)) f |= F_DZ;
    if (fetestexcept(FE_OVERFLOW)) f |= F_OF;
    if (fetestexcept(FE_UNDERFLOW)) f |= F_UF;
    if (fetestexcept(FE_INEXACT)) f |= F_NX;
    return f;
}
static const int host_rm[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

/* Round an exact long double to single, ties away from zero; flags per RISC-V. */
static uint32_t round_rmm(long double x, uint32_t *flags) {
    if (x == 0) return signbit(x) ? 0x80000000u : 0;
    int neg = x < 0;
    long double ax = neg ? -x : x;
    int e;
    long double m = frexpl(ax, &e);                 /* ax = m * 2^e, 0.5 <= m < 1 */
    /* unbounded exponent, 24-bit precision: tininess after rounding */
    long double q = ldexpl(m, 24), r = floorl(q);
    if (q - r >= 0.5L) r += 1;
    long double unb = ldexpl(r, e - 24);
    int tiny = unb < ldexpl(1.0L, -126);
    int p = e >= -125 ? 24 : e + 149;               /* precision left for subnormals */
    long double rr;
    if (p < 0) { rr = 0; }
    else {
        q = ldexpl(m, p); rr = floorl(q);
        if (q - rr >= 0.5L) rr += 1;
    }
    long double res = ldexpl(rr, e - p);
    int inexact = res != ax;
    uint32_t out;
    if (res > (long double)3.40282346638528859811704183484516925e+38L) {
        *flags |= F_OF | F_NX;
        out = 0x7f800000u;
    } else {
        out = f2u((float)res);                       /* exact */
        if (inexact) { *flags |= F_NX; if (tiny) *flags |= F_UF; }
    }
    return out | (neg ? 0x80000000u : 0);
}

static uint32_t neg_bits(uint32_t u) { return u ^ 0x80000000u; }

/* compute op in a host rounding mode (0..3) */
static uint32_t host_arith(int op, int rm, uint32_t a, uint32_t b, uint32_t c, uint32_t *fl) {
    volatile float x = u2f(a), y = u2f(b), z = u2f(c), r = 0;
    fesetround(host_rm[rm]);
    feclearexcept(FE_ALL_EXCEPT);
    switch (op) {
    case OP_FADD: r = x + y; break;
    case OP_FSUB: r = x - y; break;
    case OP_FMUL: r = x * y; break;
    case OP_FDIV: r = x / y; break;
    case OP_FSQRT: r = sqrtf(x); break;
    case OP_FMADD:  r = fmaf(x, y, z); break;
    case OP_FMSUB:  r = fmaf(x, y, u2f(neg_bits(c))); break;
    case OP_FNMADD: r = fmaf(u2f(neg_bits(a)), y, u2f(neg_bits(c))); break;
    case OP_FNMSUB: r = fmaf(u2f(neg_bits(a)), y, z); break;
    }
    uint32_t f = host_flags();
    fesetround(FE_TONEAREST);
    uint32_t u = f2u(r);
    *fl = f;
    return is_nan(u) ? 0x7fc00000u : u;
}

static int ld_exact(int op, uint32_t a, uint32_t b, uint32_t c, long double *out) {
    long double x = u2f(a), y = u2f(b), z = u2f(c), r = 0;
    fesetround(FE_TOWARDZERO);
    feclearexcept(FE_ALL_EXCEPT);
    switch (op) {
    case OP_FADD: r = x + y; break;
    case OP_FSUB: r = x - y; break;
    case OP_FMUL: r = x * y; break;
    case OP_FDIV: r = x / y; break;
    case OP_FSQRT: r = sqrtl(x); break;
    case OP_FMADD:  r = x * y + z; break;
    case OP_FMSUB:  r = x * y - z; break;
    case OP_FNMADD: r = -(x * y) - z; break;
    case OP_FNMSUB: r = -(x * y) + z; break;
    }
    int exact = !fetestexcept(FE_INEXACT | FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW);
    fesetround(FE_TONEAREST);
    *out = r;
    return exact && isfinite(r) && r != 0;
}

static int is_fma(int op) { return op == OP_FMADD || op == OP_FMSUB || op == OP_FNMADD || op == OP_FNMSUB; }

static uint32_t model(int op, int rm, uint32_t a, uint32_t b, uint32_t c, uint32_t *fl) {
    *fl = 0;
    switch (op) {
    case OP_FADD: case OP_FSUB: case OP_FMUL: case OP_FDIV: case OP_FSQRT:
    case OP_FMADD: case OP_FMSUB: case OP_FNMADD: case OP_FNMSUB: {
        if (is_fma(op) && ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b)))) {
            *fl = F_NV;                               /* even if c is a quiet NaN */
            return 0x7fc00000u;
        }
        uint32_t r = host_arith(op, rm == 4 ? 0 : rm, a, b, c, fl);
        if (rm == 4) {
            long double x;
            if (ld_exact(op, a, b, c, &x)) { *fl = 0; r = round_rmm(x, fl); }
        }
        return r;
    }
    case OP_FCVT_W_S: case OP_FCVT_WU_S: {
        int wu = op == OP_FCVT_WU_S;
        uint32_t maxv = wu ? 0xffffffffu : 0x7fffffffu, minv = wu ? 0 : 0x80000000u;
        if (is_nan(a)) { *fl = F_NV; return maxv; }
        long double x = u2f(a), r;
        if (rm == 4) r = roundl(x);
        else { fesetround(host_rm[rm]); r = nearbyintl(x); fesetround(FE_TONEAREST); }
        long double lo = wu ? 0.0L : -2147483648.0L, hi = wu ? 4294967295.0L : 2147483647.0L;
        if (r > hi) { *fl = F_NV; return maxv; }
        if (r < lo) { *fl = F_NV; return minv; }
        if (r != x) *fl = F_NX;
        return wu ? (uint32_t)(uint64_t)r : (uint32_t)(int32_t)(int64_t)r;
    }
    case OP_FCVT_S_W: case OP_FCVT_S_WU: {
        long double x = op == OP_FCVT_S_W ? (long double)(int32_t)a : (long double)a;
        if (rm == 4) return x == 0 ? 0 : round_rmm(x, fl);
        volatile int64_t v = op == OP_FCVT_S_W ? (int64_t)(int32_t)a : (int64_t)a;
        fesetround(host_rm[rm]); feclearexcept(FE_ALL_EXCEPT);
        volatile float r = (float)v;
        *fl = host_flags(); fesetround(FE_TONEAREST);
        return f2u(r);
    }
    case OP_FMIN: case OP_FMAX: {
        if (is_snan(a) || is_snan(b)) *fl = F_NV;
        if (is_nan(a) && is_nan(b)) return 0x7fc00000u;
        if (is_nan(a)) return b;
        if (is_nan(b)) return a;
        float x = u2f(a), y = u2f(b);
        if (x == y) {   /* equal, including -0 == +0: pick by sign */
            int an = a >> 31;
            if (op == OP_FMIN) return an ? a : b;
            return an ? b : a;
        }
        return (op == OP_FMIN) == (x < y) ? a : b;
    }
    case OP_FEQ: case OP_FLT: case OP_FLE: {
        if (is_nan(a) || is_nan(b)) {
            if (op != OP_FEQ || is_snan(a) || is_snan(b)) *fl = F_NV;
            return 0;
        }
        float x = u2f(a), y = u2f(b);
        return op == OP_FEQ ? x == y : op == OP_FLT ? x < y : x <= y;
    }
    case OP_FCLASS: {
        int neg = a >> 31;
        uint32_t e = (a >> 23) & 0xff, m = a & 0x7fffff;
        if (e == 0xff) return m ? ((m & 0x400000) ? 0x200 : 0x100) : (neg ? 0x001 : 0x080);
        if (e == 0) return m ? (neg ? 0x004 : 0x020) : (neg ? 0x008 : 0x010);
        return neg ? 0x002 : 0x040;
    }
    case OP_FSGNJ:  return (a & 0x7fffffffu) | (b & 0x80000000u);
    case OP_FSGNJN: return (a & 0x7fffffffu) | (~b & 0x80000000u);
    case OP_FSGNJX: return a ^ (b & 0x80000000u);
    }
    return 0xffffffffu;
}
