// The software schedules of the dissertation's Table 4.1 (section 4.3) as CUDA kernels for
// the gather step of PageRank pull: for every destination v, acc[v] += contrib[s] over its
// in-edges (s, v). The schedules differ only in how edges are dealt to threads; each is the
// project's reading of the table (docs/KERNELS.md, "Schedules as implemented"), written for
// an NVIDIA GPU: a block (CTA) is B threads of one SM, a warp 32 lanes.
//
// Two forms, as wsim's programs (docs/KERNELS.md, "Forms and names"):
//  - dissertation (TUNED = false): Algorithm 2.1's model, one atomicAdd per edge;
//  - tuned (TUNED = true): a thread that walks a destination alone sums it in a register
//    and adds once; lanes that hold edges of one destination (edge-parallel schedules) add
//    per run of lanes after a segmented warp reduction (2 log2 32 + 1 shuffles), one
//    atomicAdd per run.
#pragma once

#include <cstdint>

namespace pr {

constexpr uint32_t WARP = 32;
// Threads per block. The dissertation does not give GRAssembler's; 256 is the common CUDA
// choice, and the medium/large tiers of TWC and TWCE are split at it.
constexpr uint32_t BLOCK = 256;
constexpr uint32_t WARPS = BLOCK / WARP;
constexpr unsigned FULL = 0xffffffffu;

// The graph and PageRank's arrays on the device. Pull walks in-edges: `off` and `src` are
// the CSC (offsets, V+1, and the source of each in-edge, sorted by destination then source),
// `dst` the destination of each CSC edge (the COO array EM reads).
struct Dev {
    uint32_t V, E;
    const uint32_t *off, *src, *dst, *outdeg;
    float *rank, *contrib, *acc;
    // Schedule scratch: TWC's three queues (3V) and counters (3); STRICT's vertex, location
    // and prefix arrays (3V), block totals and bases.
    uint32_t *queue, *count, *svid, *sloc, *spfx, *btotal, *bbase;
    uint32_t nblocks;  // ceil(V / BLOCK)
};

__device__ __forceinline__ uint32_t lane_id() { return threadIdx.x & (WARP - 1); }

// One edge's sum in the dissertation form.
__device__ __forceinline__ void add_edge(const Dev &g, uint32_t v, float x) {
    atomicAdd(g.acc + v, x);
}

// The tuned form's sum of one round of a warp: lane l holds edge (v, x) if `valid`; the
// valid lanes come first and hold their destinations in runs. Every lane of the warp must
// call it. Each run's first lane adds the run's sum.
__device__ __forceinline__ void add_round(const Dev &g, bool valid, uint32_t v, float x) {
    const uint32_t lane = lane_id();
    uint32_t key = valid ? v : 0xffffffffu;
    float sum = valid ? x : 0.0f;
    // Segmented suffix sums (Hillis-Steele): lane l adds lane l+o's partial sum when it is
    // of the same run; runs are contiguous, so that partial lies inside l's run.
    for (uint32_t o = 1; o < WARP; o <<= 1) {
        float y = __shfl_down_sync(FULL, sum, o);
        uint32_t k = __shfl_down_sync(FULL, key, o);
        if (lane + o < WARP && k == key)
            sum += y;
    }
    uint32_t before = __shfl_up_sync(FULL, key, 1);
    if (valid && (lane == 0 || before != key))
        atomicAdd(g.acc + v, sum);
}

// Inclusive scan of `x` over the warp (log2 32 shuffles).
__device__ __forceinline__ uint32_t warp_scan(uint32_t x) {
    const uint32_t lane = lane_id();
    for (uint32_t o = 1; o < WARP; o <<= 1) {
        uint32_t y = __shfl_up_sync(FULL, x, o);
        if (lane >= o)
            x += y;
    }
    return x;
}

// Exclusive scan of `x` over the block; `*total` gets the block's sum. Warp scans, the warp
// totals through shared memory scanned by warp 0, two barriers.
__device__ __forceinline__ uint32_t block_scan(uint32_t x, uint32_t *swarp, uint32_t *total) {
    const uint32_t lane = lane_id(), w = threadIdx.x / WARP;
    uint32_t incl = warp_scan(x);
    if (lane == WARP - 1)
        swarp[w] = incl;
    __syncthreads();
    if (w == 0) {
        uint32_t t = lane < WARPS ? swarp[lane] : 0;
        uint32_t s = warp_scan(t);
        if (lane < WARPS)
            swarp[lane] = s - t;  // exclusive
        if (lane == WARPS - 1)
            swarp[WARPS] = s;
    }
    __syncthreads();
    *total = swarp[WARPS];
    return swarp[w] + incl - x;
}

// The largest j in [0, n) with pfx[j] <= k (pfx nondecreasing, pfx[0] <= k): the item k's
// owner. A vertex of degree 0 shares its prefix with the next, which is chosen.
__device__ __forceinline__ uint32_t search(const uint32_t *pfx, uint32_t n, uint32_t k) {
    uint32_t lo = 0, hi = n;  // pfx[lo] <= k; the answer is below hi
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (pfx[mid] <= k)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

// A thread walks destination v's in-edges alone (VM; TWC's and TWCE's small tier).
template <bool TUNED>
__device__ __forceinline__ void walk_thread(const Dev &g, uint32_t v, uint32_t loc, uint32_t deg) {
    float sum = 0.0f;
    for (uint32_t i = loc; i < loc + deg; i++) {
        float x = g.contrib[g.src[i]];
        if (TUNED)
            sum += x;
        else
            add_edge(g, v, x);
    }
    if (TUNED && deg > 0)
        atomicAdd(g.acc + v, sum);
}

// `group` threads (a warp or the block; `member` this thread's rank in it) walk v's
// in-edges in rounds of `group` (TWC's and TWCE's medium and large tiers). Every thread of
// the group must call it.
template <bool TUNED>
__device__ __forceinline__ void walk_group(const Dev &g, uint32_t v, uint32_t loc, uint32_t deg,
                                           uint32_t member, uint32_t group) {
    for (uint32_t kb = 0; kb < deg; kb += group) {
        uint32_t k = kb + member;
        bool valid = k < deg;
        float x = valid ? g.contrib[g.src[loc + k]] : 0.0f;
        if (TUNED)
            add_round(g, valid, v, x);
        else if (valid)
            add_edge(g, v, x);
    }
}

// ---- VM: thread i takes destination i and walks its in-edges. ----
template <bool TUNED>
__global__ void __launch_bounds__(BLOCK) gather_vm(Dev g) {
    uint32_t v = blockIdx.x * BLOCK + threadIdx.x;
    if (v >= g.V)
        return;
    uint32_t loc = g.off[v];
    walk_thread<TUNED>(g, v, loc, g.off[v + 1] - loc);
}

// ---- EM: thread e takes edge e; its destination from the COO array (2|E| edge words). ----
template <bool TUNED>
__global__ void __launch_bounds__(BLOCK) gather_em(Dev g) {
    uint32_t e = blockIdx.x * BLOCK + threadIdx.x;
    bool valid = e < g.E;
    uint32_t v = valid ? g.dst[e] : 0;
    float x = valid ? g.contrib[g.src[e]] : 0.0f;
    if (TUNED)
        add_round(g, valid, v, x);
    else if (valid)
        add_edge(g, v, x);
}

// ---- EM-search: as EM, but the destination found by a binary search of the offsets
// (GRAssembler's searchVID on CSR, chapter 2): |E| edge words and |E| searches. ----
template <bool TUNED>
__global__ void __launch_bounds__(BLOCK) gather_emsearch(Dev g) {
    uint32_t e = blockIdx.x * BLOCK + threadIdx.x;
    bool valid = e < g.E;
    uint32_t v = valid ? search(g.off, g.V, e) : 0;
    float x = valid ? g.contrib[g.src[e]] : 0.0f;
    if (TUNED)
        add_round(g, valid, v, x);
    else if (valid)
        add_edge(g, v, x);
}

// ---- WM: each warp takes 32 destinations; registration: degrees scanned across the warp
// (5 shuffles + 1 broadcast), vertex, location and exclusive prefix in shared memory (3|B|
// words), a warp sync; distribution: item k = lane, lane + 32, ... of the warp's total, its
// owner by a binary search of the warp's 32 prefixes. ----
template <bool TUNED>
__global__ void __launch_bounds__(BLOCK) gather_wm(Dev g) {
    __shared__ uint32_t svid[BLOCK], sloc[BLOCK], spfx[BLOCK];
    const uint32_t lane = lane_id(), wbase = threadIdx.x - lane;
    uint32_t i = blockIdx.x * BLOCK + threadIdx.x;
    uint32_t loc = i < g.V ? g.off[i] : 0;
    uint32_t deg = i < g.V ? g.off[i + 1] - loc : 0;
    uint32_t incl = warp_scan(deg);
    uint32_t total = __shfl_sync(FULL, incl, WARP - 1);
    svid[threadIdx.x] = i;
    sloc[threadIdx.x] = loc;
    spfx[threadIdx.x] = incl - deg;
    __syncwarp();
    for (uint32_t kb = 0; kb < total; kb += WARP) {
        uint32_t k = kb + lane;
        bool valid = k < total;
        uint32_t v = 0;
        float x = 0.0f;
        if (valid) {
            uint32_t j = wbase + search(spfx + wbase, WARP, k);
            v = svid[j];
            x = g.contrib[g.src[sloc[j] + k - spfx[j]]];
        }
        if (TUNED)
            add_round(g, valid, v, x);
        else if (valid)
            add_edge(g, v, x);
    }
}

// ---- CM: as WM over the block: a block-wide scan (2 barriers), the arrays, a barrier;
// item k = tid, tid + B, ... of the block's total, its owner by a binary search of the
// block's B prefixes. ----
template <bool TUNED>
__global__ void __launch_bounds__(BLOCK) gather_cm(Dev g) {
    __shared__ uint32_t svid[BLOCK], sloc[BLOCK], spfx[BLOCK], swarp[WARPS + 1];
    uint32_t i = blockIdx.x * BLOCK + threadIdx.x, total;
    uint32_t loc = i < g.V ? g.off[i] : 0;
    uint32_t deg = i < g.V ? g.off[i + 1] - loc : 0;
    uint32_t excl = block_scan(deg, swarp, &total);
    svid[threadIdx.x] = i;
    sloc[threadIdx.x] = loc;
    spfx[threadIdx.x] = excl;
    __syncthreads();
    for (uint32_t kb = 0; kb < total; kb += BLOCK) {
        uint32_t k = kb + threadIdx.x;
        bool valid = k < total;
        uint32_t v = 0;
        float x = 0.0f;
        if (valid) {
            uint32_t j = search(spfx, BLOCK, k);
            v = svid[j];
            x = g.contrib[g.src[sloc[j] + k - spfx[j]]];
        }
        if (TUNED)
            add_round(g, valid, v, x);
        else if (valid)
            add_edge(g, v, x);
    }
}

// ---- TWC (Merrill et al.): a binning kernel puts each destination with in-edges on one of
// three global queues by degree (< 32, < B, larger; one global atomic each), then three
// kernels walk them: a thread, a warp, a block per vertex (persistent grids, grid-stride).
// The counters are zeroed before the binning kernel. ----
__global__ void __launch_bounds__(BLOCK) twc_bin(Dev g) {
    uint32_t v = blockIdx.x * BLOCK + threadIdx.x;
    if (v >= g.V)
        return;
    uint32_t deg = g.off[v + 1] - g.off[v];
    if (deg == 0)
        return;
    uint32_t q = deg < WARP ? 0 : deg < BLOCK ? 1 : 2;
    g.queue[q * g.V + atomicAdd(g.count + q, 1u)] = v;
}

template <bool TUNED>
__global__ void __launch_bounds__(BLOCK) twc_small(Dev g) {
    uint32_t n = g.count[0];
    for (uint32_t j = blockIdx.x * BLOCK + threadIdx.x; j < n; j += gridDim.x * BLOCK) {
        uint32_t v = g.queue[j], loc = g.off[v];
        walk_thread<TUNED>(g, v, loc, g.off[v + 1] - loc);
    }
}

template <bool TUNED>
__global__ void __launch_bounds__(BLOCK) twc_medium(Dev g) {
    uint32_t n = g.count[1];
    const uint32_t *queue = g.queue + g.V;
    uint32_t warp = (blockIdx.x * BLOCK + threadIdx.x) / WARP;
    for (uint32_t j = warp; j < n; j += gridDim.x * WARPS) {
        uint32_t v = queue[j], loc = g.off[v];
        walk_group<TUNED>(g, v, loc, g.off[v + 1] - loc, lane_id(), WARP);
    }
}

template <bool TUNED>
__global__ void __launch_bounds__(BLOCK) twc_large(Dev g) {
    uint32_t n = g.count[2];
    const uint32_t *queue = g.queue + 2 * g.V;
    for (uint32_t j = blockIdx.x; j < n; j += gridDim.x) {
        uint32_t v = queue[j], loc = g.off[v];
        walk_group<TUNED>(g, v, loc, g.off[v + 1] - loc, threadIdx.x, BLOCK);
    }
}

// ---- TWCE: TWC's three tiers inside one kernel, in shared memory: each block takes B
// destinations; medium and large ones go on shared queues (a shared atomic each, 3 words an
// entry, 6|B| in all); after a barrier each thread walks its own small vertex, warps pop
// medium entries with a shared atomic and walk each with 32 lanes, and the whole block
// walks each large entry. ----
template <bool TUNED>
__global__ void __launch_bounds__(BLOCK) gather_twce(Dev g) {
    __shared__ uint32_t medium[3 * BLOCK], large[3 * BLOCK];
    __shared__ uint32_t nmedium, nlarge, taken;
    if (threadIdx.x == 0)
        nmedium = nlarge = taken = 0;
    __syncthreads();
    uint32_t v = blockIdx.x * BLOCK + threadIdx.x;
    uint32_t loc = v < g.V ? g.off[v] : 0;
    uint32_t deg = v < g.V ? g.off[v + 1] - loc : 0;
    if (deg >= BLOCK) {
        uint32_t *e = large + 3 * atomicAdd(&nlarge, 1u);
        e[0] = v, e[1] = loc, e[2] = deg;
    } else if (deg >= WARP) {
        uint32_t *e = medium + 3 * atomicAdd(&nmedium, 1u);
        e[0] = v, e[1] = loc, e[2] = deg;
    }
    __syncthreads();
    if (deg < WARP)
        walk_thread<TUNED>(g, v, loc, deg);
    const uint32_t lane = lane_id();
    for (;;) {
        uint32_t j = 0;
        if (lane == 0)
            j = atomicAdd(&taken, 1u);
        j = __shfl_sync(FULL, j, 0);
        if (j >= nmedium)
            break;
        const uint32_t *e = medium + 3 * j;
        walk_group<TUNED>(g, e[0], e[1], e[2], lane, WARP);
    }
    for (uint32_t j = 0; j < nlarge; j++) {
        const uint32_t *e = large + 3 * j;
        walk_group<TUNED>(g, e[0], e[1], e[2], threadIdx.x, BLOCK);
    }
}

// ---- STRICT (Davidson et al.): the super-step's edges laid out in global memory and dealt
// to blocks B at a time. Kernel 1 scans each block's B degrees (block scan) and stores
// vertex, location and block-local prefix (3|V| words) and the block's total; kernel 2 (one
// block) scans the block totals; kernel 3 adds each block's base to its prefixes; kernel 4:
// block k takes edges kB .. kB + B - 1, each thread finding its vertex by a binary search of
// all V global prefixes (as wsim's strict.h: no staging in shared memory). ----
__global__ void __launch_bounds__(BLOCK) strict_scan(Dev g) {
    __shared__ uint32_t swarp[WARPS + 1];
    uint32_t i = blockIdx.x * BLOCK + threadIdx.x, total;
    uint32_t loc = i < g.V ? g.off[i] : 0;
    uint32_t deg = i < g.V ? g.off[i + 1] - loc : 0;
    uint32_t excl = block_scan(deg, swarp, &total);
    if (i < g.V) {
        g.svid[i] = i;
        g.sloc[i] = loc;
        g.spfx[i] = excl;
    }
    if (threadIdx.x == 0)
        g.btotal[blockIdx.x] = total;
}

__global__ void __launch_bounds__(BLOCK) strict_offsets(Dev g) {
    __shared__ uint32_t swarp[WARPS + 1];
    uint32_t carry = 0;
    for (uint32_t b = 0; b < g.nblocks; b += BLOCK) {
        uint32_t i = b + threadIdx.x, total;
        uint32_t x = i < g.nblocks ? g.btotal[i] : 0;
        uint32_t excl = block_scan(x, swarp, &total);
        if (i < g.nblocks)
            g.bbase[i] = carry + excl;
        carry += total;
        __syncthreads();  // swarp is reused by the next chunk's scan
    }
    if (threadIdx.x == 0)
        g.bbase[g.nblocks] = carry;
}

__global__ void __launch_bounds__(BLOCK) strict_add(Dev g) {
    uint32_t i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < g.V)
        g.spfx[i] += g.bbase[blockIdx.x];
}

template <bool TUNED>
__global__ void __launch_bounds__(BLOCK) strict_distribute(Dev g) {
    uint32_t total = g.bbase[g.nblocks];
    uint32_t k = blockIdx.x * BLOCK + threadIdx.x;
    bool valid = k < total;
    uint32_t v = 0;
    float x = 0.0f;
    if (valid) {
        uint32_t j = search(g.spfx, g.V, k);
        v = g.svid[j];
        x = g.contrib[g.src[g.sloc[j] + k - g.spfx[j]]];
    }
    if (TUNED)
        add_round(g, valid, v, x);
    else if (valid)
        add_edge(g, v, x);
}

// ---- The apply step (every schedule): rank = (1 - d)/V + d acc; contrib = rank / outdeg,
// 0 for a vertex without out-edges (its rank is dropped, as the host reference does). ----
__global__ void __launch_bounds__(BLOCK) pr_apply(Dev g, float base, float damping) {
    uint32_t v = blockIdx.x * BLOCK + threadIdx.x;
    if (v >= g.V)
        return;
    float r = base + damping * g.acc[v];
    g.rank[v] = r;
    uint32_t d = g.outdeg[v];
    g.contrib[v] = d ? r / (float)d : 0.0f;
    g.acc[v] = 0.0f;
}

__global__ void __launch_bounds__(BLOCK) pr_init(Dev g) {
    uint32_t v = blockIdx.x * BLOCK + threadIdx.x;
    if (v >= g.V)
        return;
    float r = 1.0f / (float)g.V;
    g.rank[v] = r;
    uint32_t d = g.outdeg[v];
    g.contrib[v] = d ? r / (float)d : 0.0f;
    g.acc[v] = 0.0f;
}

}  // namespace pr
