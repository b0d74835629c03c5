/* simt_divergence.c - divergent control flow from a stock compiler, per lane.
 *
 * A kernel over GRID global ids (many lanes, several warps, every core) exercises one
 * divergence pattern per result row; core 0 then checks every element against a reference
 * written in a different form (closed forms, differently structured loops, tables).
 * Exit status: 0 ok; otherwise the number of the first failing pattern:
 *   1 coverage (every gid ran exactly once)   2 if/else chain        3 nested if
 *   4 per-lane trip-count loop                5 break + continue     6 early returns
 *   7 dense switch (jump table)               8 noinline calls in divergent code
 *   9 recursion in divergent code            10 loop with divergent inner control (collatz)
 *  11 indirect calls through a table         12 short-circuit && / || and ?:
 *  13 nested loops with a divergent break out of the inner loop
 */
#include "wsim.h"

#define GRID 320
#define NPAT 14

static int32_t out[NPAT][GRID];
static volatile uint32_t runs[GRID];

/* ------------------------------------------------------------ kernel side */

__attribute__((noinline)) static int32_t early_ret(uint32_t g) {
    if (g % 4 == 0)
        return 1;
    int32_t acc = (int32_t)g;
    if (g % 4 == 1) {
        for (uint32_t i = 0; i < g % 7; i++)
            acc += (int32_t)i;
        return acc;
    }
    if (g & 8)
        return -acc;
    acc *= 3;
    return acc + 5;
}

__attribute__((noinline)) static int32_t sw_helper(int32_t x) { return x * x - 1; }

__attribute__((noinline)) static int32_t dense_switch(uint32_t g) {
    int32_t x = (int32_t)g;
    int32_t r;
    switch (g % 13) {
    case 0:  r = x * 3; break;
    case 1:  r = x ^ 0x55; break;
    case 2:  r = x >> 2; break;
    case 3:  r = sw_helper(x); break;
    case 4:  r = -x; break;
    case 5:  r = x + 1000; break;
    case 6:  r = x * x * x; break;
    case 7:  r = (x << 5) | 7; break;
    case 8:  r = x / 3; break;
    case 9:  r = x % 5; break;
    case 10: r = 12345 - x; break;
    case 11: r = sw_helper(x + 1) * 2; break;
    default: r = 77; break;
    }
    return r + 1;
}

__attribute__((noinline)) static int32_t helper(uint32_t n, uint32_t k) {
    int32_t s = 0;
    for (uint32_t i = 0; i < n % 11; i++)
        s += (int32_t)(i * k);
    return s;
}

__attribute__((noinline)) static int32_t fib_rec(uint32_t n) {
    return n < 2 ? (int32_t)n : fib_rec(n - 1) + fib_rec(n - 2);
}

__attribute__((noinline)) static int32_t fact_rec(uint32_t n) {
    if (n <= 1)
        return 1;
    return (int32_t)n * fact_rec(n - 1);
}

__attribute__((noinline)) static int32_t f_add(uint32_t g) { return (int32_t)g + 17; }
__attribute__((noinline)) static int32_t f_mul(uint32_t g) { return (int32_t)g * 5; }
__attribute__((noinline)) static int32_t f_neg(uint32_t g) { return -(int32_t)g; }
__attribute__((noinline)) static int32_t f_sq(uint32_t g)  { return (int32_t)(g * g); }
static int32_t (*const fn_table[4])(uint32_t) = { f_add, f_mul, f_neg, f_sq };

static void kernel(uint32_t g, void *arg) {
    (void)arg;
    runs[g] += 1;
    out[1][g] = (int32_t)(g ^ 0xabc00000u);

    /* 2: if / else-if chain */
    {
        int32_t x = (int32_t)(g * 7 + 3), r;
        if (x % 3 == 0)
            r = x / 3;
        else if (x % 3 == 1)
            r = x * 2;
        else
            r = -x;
        out[2][g] = r;
    }
    /* 3: nested if */
    {
        int32_t r;
        if (g & 1) {
            if (g & 2) r = 10; else r = 20 + (int32_t)g;
        } else {
            if (g % 5 == 0) r = 30 + (int32_t)g; else r = 40;
        }
        out[3][g] = r;
    }
    /* 4: trip count differs per lane: sum of squares of 0..n-1 */
    {
        uint32_t n = g % 17;
        int32_t s = 0;
        for (uint32_t i = 0; i < n; i++)
            s += (int32_t)(i * i);
        out[4][g] = s;
    }
    /* 5: break and continue */
    {
        int32_t acc = 0;
        for (uint32_t i = 0; i < 1000; i++) {
            if (i % 3 == g % 3)
                continue;
            if (i * i > g * 5)
                break;
            acc += (int32_t)i;
        }
        out[5][g] = acc;
    }
    /* 6: early returns in a called function */
    out[6][g] = early_ret(g);
    /* 7: dense switch */
    out[7][g] = dense_switch(g);
    /* 8: noinline calls from divergent code */
    {
        int32_t r;
        if (g % 3 == 0)
            r = helper(g, 5);
        else
            r = helper(g + 1, 2) + 1;
        out[8][g] = r;
    }
    /* 9: recursion in divergent code */
    {
        int32_t r;
        if (g & 1)
            r = fib_rec(g % 13);
        else
            r = fact_rec(g % 10);
        out[9][g] = r;
    }
    /* 10: collatz steps of g+1 (divergent loop with divergent body) */
    {
        uint32_t n = g + 1;
        int32_t steps = 0;
        while (n != 1) {
            if (n & 1)
                n = 3 * n + 1;
            else
                n >>= 1;
            steps++;
        }
        out[10][g] = steps;
    }
    /* 11: indirect calls */
    out[11][g] = fn_table[g % 4](g);
    /* 12: short-circuit logic and selects */
    {
        volatile uint32_t vg = g;            /* keep the branches */
        uint32_t x = vg;
        int32_t r = 0;
        if ((x % 2 == 0 && x % 3 == 0) || x % 7 == 0)
            r = 1;
        if (x > 100 || (x & 4))
            r += 2;
        r += (x % 5 == 1) ? 10 : 20;
        out[12][g] = r;
    }
    /* 13: nested loops, divergent break from the inner loop, outer continues */
    {
        int32_t cnt = 0;
        for (uint32_t i = 0; i < 8; i++) {
            for (uint32_t j = 0; j < 8; j++) {
                if (i * 8 + j > g % 50)
                    break;
                cnt++;
            }
        }
        out[13][g] = cnt;
    }
}

/* ------------------------------------------------------------ reference side (independent forms) */

static uint32_t isqrt_floor(uint32_t v) {           /* bitwise integer square root */
    uint32_t r = 0, bit = 1u << 30;
    while (bit > v) bit >>= 2;
    while (bit) {
        if (v >= r + bit) { v -= r + bit; r = (r >> 1) + bit; }
        else r >>= 1;
        bit >>= 2;
    }
    return r;
}

static int32_t ref(uint32_t p, uint32_t g) {
    int32_t x = (int32_t)g;
    switch (p) {
    case 1: return (int32_t)(g ^ 0xabc00000u);
    case 2: {
        uint32_t m = (g * 7 + 3) % 3;       /* same as (g+0)%3 pattern: 7g+3 = g (mod 3) */
        int32_t v = x * 7 + 3;
        return m == 0 ? v / 3 : m == 1 ? 2 * v : -v;
    }
    case 3: {
        static const int32_t odd[2] = { 0, 10 };  /* g&2 ? 10 : 20+g */
        if (g % 2) return (g / 2) % 2 ? odd[1] : 20 + x;
        return g % 10 == 0 ? 30 + x : 40;
    }
    case 4: { int32_t n = (int32_t)(g % 17); return (n - 1) * n * (2 * n - 1) / 6; }
    case 5: {
        /* break at the first i with i*i > 5g: i = isqrt(5g) + 1; sum of 0..B-1 minus the
         * terms congruent to g (mod 3) */
        int32_t B = (int32_t)isqrt_floor(5 * g) + 1;
        int32_t total = B * (B - 1) / 2;
        int32_t c = (int32_t)(g % 3);
        if (c < B) {
            int32_t k = (B - 1 - c) / 3 + 1;       /* terms c, c+3, ..., < B */
            total -= k * c + 3 * k * (k - 1) / 2;
        }
        return total;
    }
    case 6: {
        switch (g & 3) {
        case 0: return 1;
        case 1: { int32_t m = (int32_t)(g % 7); return x + m * (m - 1) / 2; }
        default: return (g >> 3) & 1 ? -x : 3 * x + 5;
        }
    }
    case 7: {
        uint32_t c = g - (g / 13) * 13;
        int32_t r =
            c == 0 ? 3 * x : c == 1 ? (x ^ 85) : c == 2 ? x / 4 : c == 3 ? x * x - 1 :
            c == 4 ? 0 - x : c == 5 ? x + 1000 : c == 6 ? x * x * x : c == 7 ? x * 32 + 7 :
            c == 8 ? x / 3 : c == 9 ? x - (x / 5) * 5 : c == 10 ? 12345 - x :
            c == 11 ? 2 * ((x + 1) * (x + 1) - 1) : 77;
        return r + 1;
    }
    case 8: {
        /* helper(n,k) = k * sum(0..n%11-1) = k * m(m-1)/2 */
        if (g % 3 == 0) { int32_t m = (int32_t)(g % 11); return 5 * m * (m - 1) / 2; }
        int32_t m = (int32_t)((g + 1) % 11);
        return 2 * m * (m - 1) / 2 + 1;
    }
    case 9: {
        if (g & 1) {
            int32_t a = 0, b = 1;
            for (uint32_t i = g % 13; i > 0; i--) { int32_t t = a + b; a = b; b = t; }
            return a;
        }
        static const int32_t facts[10] = { 1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880 };
        return facts[g % 10];
    }
    case 10: {
        /* strip all trailing zeros at once (one step per halving) */
        uint32_t n = g + 1;
        int32_t steps = 0;
        for (;;) {
            int32_t tz = __builtin_ctz(n);
            n >>= tz;
            steps += tz;
            if (n == 1) return steps;
            n = 3 * n + 1;
            steps++;
        }
    }
    case 11: {
        int32_t v[4] = { x + 17, 5 * x, -x, x * x };
        return v[g & 3];
    }
    case 12: {
        int32_t r = (g % 6 == 0 || g % 7 == 0) ? 1 : 0;
        r += (g > 100 || ((g >> 2) & 1)) ? 2 : 0;
        r += (g % 5 == 1) ? 10 : 20;
        return r;
    }
    case 13: {
        int32_t lim = (int32_t)(g % 50) + 1;       /* cells 0..g%50 pass, capped at 64 */
        return lim > 64 ? 64 : lim;
    }
    }
    return 0x7fffffff;
}

int main(void) {
    wsim_spawn(GRID, kernel, 0);
    if (vx_core_id() != 0)
        return 0;
    for (uint32_t g = 0; g < GRID; g++) {
        if (runs[g] != 1) {
            wsim_printf("simt_divergence: FAIL coverage gid %d ran %d times\n", g, runs[g]);
            return 1;
        }
    }
    for (uint32_t p = 1; p < NPAT; p++) {
        for (uint32_t g = 0; g < GRID; g++) {
            int32_t want = ref(p, g);
            if (out[p][g] != want) {
                wsim_printf("simt_divergence: FAIL pattern %d gid %d: got %d want %d\n",
                            p, g, out[p][g], want);
                return p == 1 ? 1 : p;
            }
        }
    }
    wsim_printf("simt_divergence: OK (%d ids x %d patterns)\n", GRID, NPAT - 1);
    return 0;
}
