// gpu/atomics.cu - how a real GPU's L2 handles atomics, against wsim's atomic path (each
// atomic at the last-level cache's atomic unit, written through to DRAM): the patterns of
// programs/ubench_atomic.c and programs/ubench_atomic_l2.c on silicon.
//
//   latency: one warp, the cycles (SM clock) from before an atom.global.add.u32 to the use
//            of its result, after an untimed first round brought the lines into the L2;
//            median of 101 rounds. Patterns: same_word (every lane adds to one word),
//            words (lane l adds to word l: one 128-byte line), lines (lane l adds to a word
//            of line l: 32 lines).
//   stream:  every thread of a grid adds 1 to the first word of its own 128-byte line (one
//            request per lane, as ubench_atomic_l2), 2^22 / lines times, so that every
//            footprint makes 2^22 atomics; a first launch to bring the lines in, a second
//            timed with events. Atomics per nanosecond; Nsight Compute gives the timed
//            launch's DRAM bytes (gpu/atomics.sh).
//   contended: every thread of a grid adds 1 to one word; and each warp to a word of its own.
//
// Inline PTX, so that the compiler does not aggregate a warp's atomics to one address
// itself: what is measured is the memory system's handling. Every result is checked
// against the count of atomics applied (exit 1 when one is wrong).
//
// Output: CSV on stdout, test,pattern,footprint_bytes,threads,value,unit.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(x)                                                                           \
    do {                                                                                   \
        cudaError_t e_ = (x);                                                              \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));    \
            exit(2);                                                                       \
        }                                                                                  \
    } while (0)

constexpr unsigned LINE_WORDS = 32;  // 128-byte lines
constexpr int ROUNDS = 101;

__device__ __forceinline__ unsigned atom_add(unsigned *p, unsigned v) {
    unsigned old;
    asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

// One warp: per round, lane 0's cycles from before the atomic to after its result is used.
__global__ void latency(unsigned *base, int pattern, long long *cycles, unsigned *sink) {
    unsigned lane = threadIdx.x;
    unsigned *p = pattern == 0 ? base : pattern == 1 ? base + lane : base + lane * LINE_WORDS;
    unsigned acc = atom_add(p, 1);
    for (int r = 0; r < ROUNDS; r++) {
        __syncwarp();
        long long t0 = clock64();
        unsigned old = atom_add(p, 1);
        // The add waits for the atomic's result; the clock is read after it.
        asm volatile("add.u32 %0, %0, %1;" : "+r"(acc) : "r"(old));
        long long t1 = clock64();
        if (lane == 0)
            cycles[r] = t1 - t0;
    }
    sink[lane] = acc;
}

__global__ void stream(unsigned *base, unsigned n, unsigned reps) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        for (unsigned r = 0; r < reps; r++)
            atom_add(base + (size_t)i * LINE_WORDS, 1);
}

__global__ void contended(unsigned *base, unsigned n, int per_warp) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atom_add(base + (per_warp ? (size_t)(i / 32) * LINE_WORDS : 0), 1);
}

static bool ok = true;

static void expect(const char *what, const std::vector<unsigned> &got, unsigned want,
                   size_t stride, size_t count) {
    for (size_t k = 0; k < count; k++)
        if (got[k * stride] != want) {
            fprintf(stderr, "%s: word %zu is %u, expected %u\n", what, k * stride,
                    got[k * stride], want);
            ok = false;
            return;
        }
}

int main(int argc, char **argv) {
    std::string only = argc > 1 ? argv[1] : "all";
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    fprintf(stderr, "%s, L2 %d bytes, %d SMs\n", prop.name, prop.l2CacheSize,
            prop.multiProcessorCount);
    printf("test,pattern,footprint_bytes,threads,value,unit\n");
    const size_t max_lines = 1u << 22;  // 512 MiB of lines
    unsigned *buf;
    CHECK(cudaMalloc(&buf, max_lines * LINE_WORDS * sizeof(unsigned)));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));

    if (only == "all" || only == "latency") {
        long long *cycles;
        unsigned *sink;
        CHECK(cudaMalloc(&cycles, ROUNDS * sizeof(long long)));
        CHECK(cudaMalloc(&sink, 32 * sizeof(unsigned)));
        const char *names[] = {"same_word", "words", "lines"};
        for (int pattern = 0; pattern < 3; pattern++) {
            CHECK(cudaMemset(buf, 0, 32 * LINE_WORDS * sizeof(unsigned)));
            latency<<<1, 32>>>(buf, pattern, cycles, sink);
            CHECK(cudaDeviceSynchronize());
            std::vector<long long> c(ROUNDS);
            CHECK(cudaMemcpy(c.data(), cycles, ROUNDS * sizeof(long long),
                             cudaMemcpyDeviceToHost));
            std::vector<unsigned> words(32 * LINE_WORDS);
            CHECK(cudaMemcpy(words.data(), buf, words.size() * sizeof(unsigned),
                             cudaMemcpyDeviceToHost));
            if (pattern == 0)
                expect("latency same_word", words, 32 * (ROUNDS + 1), 1, 1);
            else
                expect(names[pattern], words, ROUNDS + 1, pattern == 1 ? 1 : LINE_WORDS, 32);
            std::sort(c.begin(), c.end());
            printf("latency,%s,%u,32,%lld,cycles\n", names[pattern],
                   pattern == 2 ? 32 * LINE_WORDS * 4 : LINE_WORDS * 4, c[ROUNDS / 2]);
        }
        CHECK(cudaFree(cycles));
        CHECK(cudaFree(sink));
    }

    if (only == "all" || only == "stream") {
        // L2-resident (2 MiB), about the L2 (32 MiB), and beyond it (512 MiB).
        for (size_t lines : {size_t(1) << 14, size_t(1) << 18, max_lines}) {
            size_t bytes = lines * LINE_WORDS * sizeof(unsigned);
            CHECK(cudaMemset(buf, 0, bytes));
            unsigned blocks = (unsigned)((lines + 255) / 256);
            unsigned reps = (unsigned)(max_lines / lines);
            stream<<<blocks, 256>>>(buf, (unsigned)lines, reps);
            CHECK(cudaEventRecord(e0));
            stream<<<blocks, 256>>>(buf, (unsigned)lines, reps);
            CHECK(cudaEventRecord(e1));
            CHECK(cudaEventSynchronize(e1));
            float ms;
            CHECK(cudaEventElapsedTime(&ms, e0, e1));
            std::vector<unsigned> words(lines * LINE_WORDS);
            CHECK(cudaMemcpy(words.data(), buf, bytes, cudaMemcpyDeviceToHost));
            expect("stream", words, 2 * reps, LINE_WORDS, lines);
            printf("stream,one_per_line,%zu,%zu,%.3f,atomics/ns\n", bytes, lines,
                   max_lines / (ms * 1e6));
        }
    }

    if (only == "all" || only == "contended") {
        const unsigned n = 1u << 22;
        for (int per_warp = 0; per_warp < 2; per_warp++) {
            size_t words_used = per_warp ? (size_t)(n / 32) * LINE_WORDS : 1;
            CHECK(cudaMemset(buf, 0, words_used * sizeof(unsigned)));
            contended<<<n / 256, 256>>>(buf, n, per_warp);
            CHECK(cudaEventRecord(e0));
            contended<<<n / 256, 256>>>(buf, n, per_warp);
            CHECK(cudaEventRecord(e1));
            CHECK(cudaEventSynchronize(e1));
            float ms;
            CHECK(cudaEventElapsedTime(&ms, e0, e1));
            std::vector<unsigned> words(words_used);
            CHECK(cudaMemcpy(words.data(), buf, words_used * sizeof(unsigned),
                             cudaMemcpyDeviceToHost));
            if (per_warp)
                expect("contended per_warp", words, 64, LINE_WORDS, n / 32);
            else
                expect("contended one_word", words, 2 * n, 1, 1);
            printf("contended,%s,%zu,%u,%.3f,atomics/ns\n", per_warp ? "word_per_warp" : "one_word",
                   words_used * 4, n, n / (ms * 1e6));
        }
    }
    CHECK(cudaFree(buf));
    return ok ? 0 : 1;
}
