/* simt_explicit.c - explicit SIMT control and warp-level primitives with known results.
 * Every hardware thread (all cores, warps, lanes) runs the kernel once; core 0 checks.
 * Exit status (first failing check):
 *   1 vx_split/vx_join (masks inside each side, values, mask after join)
 *   2 vx_split_n        3 vx_pred        4 vx_pred_n        5 vx_pred fallback mask
 *   6 vx_tmc (single lane, subset)      7 vote over the full warp
 *   8 vote with a member mask           9 vote in divergent code (only active lanes count)
 *  10 shuffles over the whole warp     11 shuffles in segments of 4 lanes (if T % 4 == 0)
 *  12 inclusive prefix sum with shfl_up    13 coverage
 */
#include "wsim.h"

#define MAX_THREADS 4096
#define NRES 24
#define SENT 0xdeadbeefu

static uint32_t out[NRES][MAX_THREADS];
static volatile uint32_t ran[MAX_THREADS];

static void kernel(uint32_t gid, void *arg) {
    uint32_t lane = vx_thread_id();
    uint32_t T = vx_num_threads();
    uint32_t full = vx_thread_mask();
    ran[gid] += 1;

    /* 1: split / join: odd lanes first, then even lanes; record the mask each side sees */
    {
        uint32_t pred = lane & 1;
        uint32_t d = vx_split(pred);
        uint32_t m = vx_thread_mask();
        if (pred) out[0][gid] = m * 2 + 1;
        else      out[0][gid] = m * 2;
        vx_join(d);
        out[1][gid] = vx_thread_mask();
    }
    /* 2: split_n: lanes with !pred (lane < 2) first */
    {
        uint32_t pred = lane >= 2;
        uint32_t d = vx_split_n(pred);
        out[2][gid] = vx_thread_mask();
        vx_join(d);
        out[3][gid] = vx_thread_mask();
    }
    /* 3: pred: only lanes with lane % 3 == 0 stay active until tmc restores */
    out[4][gid] = SENT;
    vx_pred(lane % 3 == 0, full);
    out[4][gid] = vx_thread_mask();
    vx_tmc(full);
    /* 4: pred_n: lanes with lane % 3 != 0 */
    out[5][gid] = SENT;
    vx_pred_n(lane % 3 == 0, full);
    out[5][gid] = vx_thread_mask();
    vx_tmc(full);
    /* 5: no lane's condition holds -> fallback mask (lanes 0 and 1 -> mask 0b11 & full) */
    out[6][gid] = SENT;
    vx_pred(lane > 1000, full & 3);
    out[6][gid] = vx_thread_mask();
    vx_tmc(full);
    /* 6: tmc to lane 0 only, then to the even lanes */
    out[7][gid] = SENT;
    out[8][gid] = SENT;
    vx_tmc(1);
    out[7][gid] = vx_thread_mask() + 100;
    vx_tmc(full & 0x55555555u);
    out[8][gid] = vx_thread_mask() + 200;
    vx_tmc(full);
    out[9][gid] = vx_thread_mask();
    /* 7: votes over the full warp */
    {
        uint32_t odd = lane & 1;
        out[10][gid] = vx_vote_all(odd, full) | vx_vote_any(odd, full) << 1 |
                       vx_vote_uni(odd, full) << 2 | vx_vote_all(1, full) << 3 |
                       vx_vote_any(0, full) << 4 | vx_vote_uni(lane < 100, full) << 5;
        out[11][gid] = vx_vote_ballot(odd, full);
    }
    /* 8: member mask = even lanes only. The constant is materialised by a volatile asm so
     * that clang cannot compute it inside the single-lane region of section 6 above (it
     * does not know vx_tmc narrows the lanes) and reuse it here in every lane. */
    {
        uint32_t odd = lane & 1, even_m;
        __asm__ volatile("li %0, 0x55555555" : "=r"(even_m));
        out[12][gid] = vx_vote_all(odd, even_m) | vx_vote_any(odd, even_m) << 1 |
                       vx_vote_uni(odd, even_m) << 2 | vx_vote_any(!odd, even_m) << 3;
        out[13][gid] = vx_vote_ballot(1, even_m);
    }
    /* 9: ballot and any inside divergent code */
    {
        uint32_t r = 0;
        if (lane < 2)
            r = vx_vote_ballot(1, full) | 0x1000;
        else
            r = vx_vote_ballot(lane & 1, full) | 0x2000;
        out[14][gid] = r;
    }
    /* 10: shuffles over the whole warp (width T) */
    {
        uint32_t v = lane * 10 + 1;
        out[15][gid] = vx_shfl_up(v, 1, T);
        out[16][gid] = vx_shfl_down(v, 2, T);
        out[17][gid] = vx_shfl_bfly(v, 1, T);
        out[18][gid] = vx_shfl_idx(v, T - 1, T);
    }
    /* 11: segments of 4 lanes */
    if (T % 4 == 0) {
        uint32_t v = lane * 10 + 1;
        out[19][gid] = vx_shfl_up(v, 1, 4);
        out[20][gid] = vx_shfl_down(v, 1, 4);
        out[21][gid] = vx_shfl_bfly(v, 2, 4);
        out[22][gid] = vx_shfl_idx(v, 1, 4);
    }
    /* 12: inclusive scan of lane + 1 (Hillis-Steele with shfl_up) */
    {
        uint32_t x = lane + 1;
        for (uint32_t d = 1; d < T; d <<= 1) {
            uint32_t y = vx_shfl_up(x, d, T);
            if (lane >= d)
                x += y;
        }
        out[23][gid] = x;
    }
}

static int check(uint32_t code, uint32_t k, uint32_t gid, uint32_t got, uint32_t want) {
    if (got == want)
        return 0;
    wsim_printf("simt_explicit: FAIL check %d (row %d) gid %d: got %x want %x\n", code, k, gid,
                got, want);
    return 1;
}

int main(void) {
    uint32_t T = vx_num_threads();
    uint32_t n = vx_num_cores() * vx_num_warps() * T;
    if (n > MAX_THREADS) n = MAX_THREADS - MAX_THREADS % T;
    wsim_spawn(n, kernel, 0);
    if (vx_core_id() != 0)
        return 0;
    uint32_t full = wsim_lanes_mask(T);
    uint32_t odd_m = full & 0xAAAAAAAAu, even_m = full & 0x55555555u;
    uint32_t m3 = 0;
    for (uint32_t l = 0; l < T; l += 3) m3 |= 1u << l;
    for (uint32_t g = 0; g < n; g++) {
        uint32_t l = g % T;
        uint32_t v = l * 10 + 1;
        if (ran[g] != 1) { wsim_printf("simt_explicit: FAIL coverage gid %d\n", g); return 13; }
#define CK(code, k, want) do { if (check(code, k, g, out[k][g], (want))) return code; } while (0)
        CK(1, 0, (l & 1) ? odd_m * 2 + 1 : even_m * 2);
        CK(1, 1, full);
        CK(2, 2, l >= 2 ? full & ~3u : full & 3u);
        CK(2, 3, full);
        CK(3, 4, l % 3 == 0 ? m3 : SENT);
        CK(4, 5, l % 3 != 0 ? full & ~m3 : SENT);
        CK(5, 6, l < 2 ? (full & 3) : SENT);
        CK(6, 7, l == 0 ? 101 : SENT);
        CK(6, 8, (l & 1) == 0 ? even_m + 200 : SENT);
        CK(6, 9, full);
        /* all(odd), any(odd), uni(odd), all(1), any(0), uni(true) */
        uint32_t all_odd = (T == 1) ? 0 : 0, any_odd = T > 1, uni_odd = T == 1;
        CK(7, 10, all_odd | any_odd << 1 | uni_odd << 2 | 1 << 3 | 0 << 4 | 1 << 5);
        CK(7, 11, odd_m);
        /* members = even lanes (all have odd = 0): all 0, any 0, uni 1, any(!odd) 1 */
        CK(8, 12, 0 | 0 << 1 | 1 << 2 | 1 << 3);
        CK(8, 13, even_m);
        /* divergent: lanes 0,1 see only lanes {0,1}; the others see the odd lanes >= 2 */
        CK(9, 14, l < 2 ? (full & 3) | 0x1000 : (odd_m & ~3u) | 0x2000);
        CK(10, 15, l >= 1 ? v - 10 : v);
        CK(10, 16, l + 2 < T ? v + 20 : v);
        CK(10, 17, (l ^ 1) < T ? (l ^ 1) * 10 + 1 : v);
        CK(10, 18, (T - 1) * 10 + 1);
        if (T % 4 == 0) {
            CK(11, 19, l % 4 >= 1 ? v - 10 : v);
            CK(11, 20, l % 4 + 1 < 4 ? v + 10 : v);
            CK(11, 21, (l ^ 2) * 10 + 1);
            CK(11, 22, (l & ~3u) * 10 + 11);
        }
        CK(12, 23, (l + 1) * (l + 2) / 2);
    }
    wsim_printf("simt_explicit: OK (%d threads per warp)\n", T);
    return 0;
}
