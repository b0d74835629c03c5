// PageRank pull under the dissertation's software schedules on an NVIDIA GPU (issue 48):
// reads a graph in wsim's binary CSR format (`wsim graph gen SPEC -o G.bcsr`), runs every
// schedule in both forms, checks each result against a host reference with the definition
// of wsim's (graph/src/reference.rs), times each with CUDA events (warm-up runs, then the
// median of several), and appends one row per (schedule, form) to a CSV in the form of
// wsim's experiment tables (docs/GPU.md says which columns).
//
//   pagerank G.bcsr --graph HW --spec gen:table43:graph=HW,scale=1 --experiment fig4_3
//            --profile full --csv out.csv [--iterations 3] [--warmup 2] [--reps 7]
//            [--schedules vm,em,...] [--forms dissertation,tuned] [--once]
//
// --once runs each schedule once (no warm-up, no timing: for Nsight Compute) and still
// checks it. Exit status: 0 when every result matched, 1 when one did not, 2 on an error.
#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <string>
#include <vector>

#include "schedules.cuh"

namespace {

using pr::BLOCK;

// The reference's constants (workloads/src/graph_run.rs: PR_DAMPING, PR_TOLERANCE).
constexpr double DAMPING = 0.85;
constexpr double TOLERANCE = 1e-4;

[[noreturn]] void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "pagerank: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(2);
}

void check(cudaError_t e, const char *what) {
    if (e != cudaSuccess)
        fail("%s: %s", what, cudaGetErrorString(e));
}

// ---- The graph ----

struct Host {
    uint32_t V = 0, E = 0;
    std::vector<uint32_t> outdeg;                // from the CSR
    std::vector<uint32_t> in_off, in_src, in_dst;  // CSC and its COO destinations
};

void read_words(FILE *f, uint32_t *out, size_t n, const char *path, const char *what) {
    if (fread(out, 4, n, f) != n)
        fail("%s: the file ends inside the %s", path, what);
}

// wsim's binary CSR (graph/src/binary.rs): magic, version, V, E, reserved, then offsets
// (V+1), targets (E), weights (E), all little-endian u32. The CSC is the CSR transposed by
// a counting sort over sources in order, so each destination's sources are ascending, the
// order wsim's CSC (and the reference's sums) have.
Host load(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        fail("cannot open %s: %s", path, strerror(errno));
    char magic[8];
    uint32_t head[4];
    if (fread(magic, 1, 8, f) != 8 || memcmp(magic, "WSIMBCSR", 8) != 0)
        fail("%s: not a wsim binary CSR file (write one with `wsim graph gen SPEC -o G.bcsr`)",
             path);
    read_words(f, head, 4, path, "header");
    if (head[0] != 1)
        fail("%s: binary CSR version %u; this reads version 1", path, head[0]);
    Host h;
    h.V = head[1];
    h.E = head[2];
    if (h.V == 0 || h.E == 0)
        fail("%s: a graph of %u vertices and %u edges", path, h.V, h.E);
    std::vector<uint32_t> off(h.V + 1), dst(h.E);
    read_words(f, off.data(), off.size(), path, "offsets");
    read_words(f, dst.data(), dst.size(), path, "targets");
    // The weights follow; PageRank has no use for them.
    fclose(f);
    if (off[0] != 0 || off[h.V] != h.E)
        fail("%s: offsets run from %u to %u, not 0 to %u", path, off[0], off[h.V], h.E);
    h.outdeg.resize(h.V);
    h.in_off.assign(h.V + 1, 0);
    for (uint32_t u = 0; u < h.V; u++) {
        if (off[u + 1] < off[u])
            fail("%s: offsets decrease at vertex %u", path, u);
        h.outdeg[u] = off[u + 1] - off[u];
    }
    for (uint32_t t : dst) {
        if (t >= h.V)
            fail("%s: an edge targets vertex %u of %u", path, t, h.V);
        h.in_off[t + 1]++;
    }
    for (uint32_t v = 0; v < h.V; v++)
        h.in_off[v + 1] += h.in_off[v];
    std::vector<uint32_t> next(h.in_off.begin(), h.in_off.end() - 1);
    h.in_src.resize(h.E);
    h.in_dst.resize(h.E);
    for (uint32_t u = 0; u < h.V; u++)
        for (uint32_t i = off[u]; i < off[u + 1]; i++) {
            uint32_t slot = next[dst[i]]++;
            h.in_src[slot] = u;
            h.in_dst[slot] = dst[i];
        }
    return h;
}

// The host reference, as graph/src/reference.rs defines it: rank from 1/V; each iteration
// contribution[u] = rank[u] / outdeg(u) (0 without out-edges: dropped, not redistributed)
// and rank[v] = (1 - d)/V + d * (sum over v's in-edges, in CSC order), in double.
std::vector<double> step(const Host &h, const std::vector<double> &rank) {
    const double base = (1.0 - DAMPING) / h.V;
    std::vector<double> contribution(h.V), next(h.V);
#pragma omp parallel for schedule(static)
    for (int64_t u = 0; u < (int64_t)h.V; u++)
        contribution[u] = h.outdeg[u] ? rank[u] / h.outdeg[u] : 0.0;
#pragma omp parallel for schedule(dynamic, 4096)
    for (int64_t v = 0; v < (int64_t)h.V; v++) {
        double acc = 0.0;
        for (uint32_t i = h.in_off[v]; i < h.in_off[v + 1]; i++)
            acc += contribution[h.in_src[i]];
        next[v] = base + DAMPING * acc;
    }
    return next;
}

std::vector<double> reference(const Host &h, uint32_t iterations) {
    std::vector<double> rank(h.V, 1.0 / h.V);
    for (uint32_t it = 0; it < iterations; it++)
        rank = step(h, rank);
    return rank;
}

// How far one f32 iteration may stand from the same iteration in double, from the same
// input ranks, at each vertex, as a relative error: wsim's own tolerance, or where a
// vertex sums more in-edges than that tolerance allows for, the deterministic error bound
// of recursive summation (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd
// ed., section 4.2): a sum of n positive terms, added in any order (atomics arrive in any
// order), is within gamma_n = n u / (1 - n u) of exact, relatively; the division, the
// damping and the base add three roundings. Checking each iteration from the GPU's own
// input keeps one iteration's rounding from spreading to the next one's tolerance: only a
// vertex with more than about 1,600 in-edges gets more than 1e-4. (The first check
// compared the end of the run with the reference: an 838k-in-edge hub's f32 drift then
// spread to 600k neighbours, and a probabilistic bound, lambda sqrt(n) u, failed on the
// first iteration's identical contributions: docs/GPU.md.)
std::vector<double> step_tolerance(const Host &h) {
    const double u = std::ldexp(1.0, -24);
    std::vector<double> tolerance(h.V);
    uint32_t widened = 0;
    double widest = TOLERANCE;
    for (uint32_t v = 0; v < h.V; v++) {
        const double n = h.in_off[v + 1] - h.in_off[v];
        const double bound = (n * u < 1 ? n * u / (1 - n * u) : INFINITY) + 3 * u;
        tolerance[v] = std::max(bound, TOLERANCE);
        widened += bound > TOLERANCE;
        widest = std::max(widest, bound);
    }
    fprintf(stderr, "pagerank: one iteration's f32 bound past %.0e on %u of %u vertices (at most %.2e)\n",
            TOLERANCE, widened, h.V, widest);
    return tolerance;
}

// ---- The schedules ----

enum Sched { VM, EM, EM_SEARCH, WM, CM, TWC, TWCE, STRICT, NSCHED };
const char *const SCHED_NAME[NSCHED] = {"VM", "EM", "EM-search", "WM", "CM", "TWC", "TWCE", "STRICT"};
// wsim's program names (programs/graph/sched/*.h).
const char *const SCHED_FILE[NSCHED] = {"vm", "em", "emsearch", "wm", "cm", "twc", "twce", "strict"};

uint32_t blocks(uint64_t n) { return (uint32_t)((n + BLOCK - 1) / BLOCK); }

struct Machine {
    cudaDeviceProp prop;
    uint32_t persistent;  // TWC's tier grids: the blocks that fit on the GPU at once
};

// One gather step of schedule s.
template <bool TUNED>
void gather(Sched s, const pr::Dev &g, const Machine &m) {
    switch (s) {
    case VM:
        pr::gather_vm<TUNED><<<blocks(g.V), BLOCK>>>(g);
        break;
    case EM:
        pr::gather_em<TUNED><<<blocks(g.E), BLOCK>>>(g);
        break;
    case EM_SEARCH:
        pr::gather_emsearch<TUNED><<<blocks(g.E), BLOCK>>>(g);
        break;
    case WM:
        pr::gather_wm<TUNED><<<blocks(g.V), BLOCK>>>(g);
        break;
    case CM:
        pr::gather_cm<TUNED><<<blocks(g.V), BLOCK>>>(g);
        break;
    case TWC:
        check(cudaMemsetAsync(g.count, 0, 3 * sizeof(uint32_t)), "TWC counters");
        pr::twc_bin<<<blocks(g.V), BLOCK>>>(g);
        pr::twc_small<TUNED><<<m.persistent, BLOCK>>>(g);
        pr::twc_medium<TUNED><<<m.persistent, BLOCK>>>(g);
        pr::twc_large<TUNED><<<m.persistent, BLOCK>>>(g);
        break;
    case TWCE:
        pr::gather_twce<TUNED><<<blocks(g.V), BLOCK>>>(g);
        break;
    case STRICT:
        pr::strict_scan<<<g.nblocks, BLOCK>>>(g);
        pr::strict_offsets<<<1, BLOCK>>>(g);
        pr::strict_add<<<g.nblocks, BLOCK>>>(g);
        // PageRank pull's active edges are all E; the kernel reads the scanned total.
        pr::strict_distribute<TUNED><<<blocks(g.E), BLOCK>>>(g);
        break;
    default:
        fail("no schedule %d", (int)s);
    }
}

// A whole PageRank run after its initialisation: `iterations` gather and apply steps.
void pagerank(Sched s, bool tuned, const pr::Dev &g, const Machine &m, uint32_t iterations) {
    const float base = (float)((1.0 - DAMPING) / g.V);
    for (uint32_t it = 0; it < iterations; it++) {
        if (tuned)
            gather<true>(s, g, m);
        else
            gather<false>(s, g, m);
        pr::pr_apply<<<blocks(g.V), BLOCK>>>(g, base, (float)DAMPING);
    }
}

void init(const pr::Dev &g) {
    // Poison the result first: a rank no kernel writes cannot pass the check.
    check(cudaMemset(g.rank, 0xff, (size_t)g.V * 4), "poison ranks");
    pr::pr_init<<<blocks(g.V), BLOCK>>>(g);
    check(cudaGetLastError(), "init launch");
}

// ---- Options and output ----

struct Options {
    const char *path = nullptr, *csv = nullptr;
    std::string graph, spec, experiment = "fig4_3", profile, wsim_version;
    uint32_t iterations = 3, warmup = 2, reps = 7;
    std::vector<Sched> schedules;
    std::vector<bool> forms = {false, true};
    bool once = false;
};

std::vector<std::string> split(const std::string &s) {
    std::vector<std::string> out;
    size_t at = 0;
    while (at <= s.size()) {
        size_t comma = s.find(',', at);
        if (comma == std::string::npos)
            comma = s.size();
        if (comma > at)
            out.push_back(s.substr(at, comma - at));
        at = comma + 1;
    }
    return out;
}

uint32_t number(const char *flag, const char *text) {
    char *end;
    unsigned long v = strtoul(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v == 0 || v > 1000000)
        fail("%s wants a positive whole number, not `%s`", flag, text);
    return (uint32_t)v;
}

Options parse(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto value = [&]() -> const char * {
            if (i + 1 >= argc)
                fail("%s needs a value", a.c_str());
            return argv[++i];
        };
        if (a == "--graph")
            o.graph = value();
        else if (a == "--spec")
            o.spec = value();
        else if (a == "--experiment")
            o.experiment = value();
        else if (a == "--profile")
            o.profile = value();
        else if (a == "--wsim-version")
            o.wsim_version = value();
        else if (a == "--csv")
            o.csv = value();
        else if (a == "--iterations")
            o.iterations = number("--iterations", value());
        else if (a == "--warmup")
            o.warmup = (uint32_t)atoi(value());
        else if (a == "--reps")
            o.reps = number("--reps", value());
        else if (a == "--once")
            o.once = true;
        else if (a == "--schedules") {
            for (auto &name : split(value())) {
                int k = 0;
                while (k < NSCHED && name != SCHED_FILE[k])
                    k++;
                if (k == NSCHED)
                    fail("no schedule `%s` (vm, em, emsearch, wm, cm, twc, twce, strict)",
                         name.c_str());
                o.schedules.push_back((Sched)k);
            }
        } else if (a == "--forms") {
            o.forms.clear();
            for (auto &name : split(value())) {
                if (name != "dissertation" && name != "tuned")
                    fail("no form `%s` (dissertation, tuned)", name.c_str());
                o.forms.push_back(name == "tuned");
            }
        } else if (a[0] == '-')
            fail("unknown option %s", a.c_str());
        else if (o.path)
            fail("one graph file, not %s and %s", o.path, a.c_str());
        else
            o.path = argv[i];
    }
    if (!o.path)
        fail("usage: pagerank G.bcsr --graph NAME [--spec SPEC] [--csv OUT.csv] ...");
    if (o.schedules.empty())
        for (int k = 0; k < NSCHED; k++)
            o.schedules.push_back((Sched)k);
    if (o.graph.empty())
        o.graph = o.path;
    return o;
}

// A CSV field, quoted when it holds a comma or a quote.
std::string field(const std::string &s) {
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

const char *const HEADER =
    "experiment,profile,reading,run,program,algorithm,schedule,direction,form,vertices,edges,"
    "source,iterations,graph,graph_spec,graph_options,config,config_hash,wsim_version,status,"
    "exit,verified,milliseconds,ms_min,ms_max,ms_per_iteration,repetitions,warmup,"
    "mismatches,max_rel_error,gpu,gpu_sms,gpu_l2_bytes,gpu_memory_bytes,gpu_clock_mhz,"
    "gpu_memory_clock_mhz,gpu_memory_bus_bits,cuda_driver,cuda_runtime,block,date,verdict,"
    "error";

std::string cuda_version(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

}  // namespace

int main(int argc, char **argv) {
    Options o = parse(argc, argv);
    Machine m;
    check(cudaGetDeviceProperties(&m.prop, 0), "device properties");
    int per_sm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, pr::twc_medium<false>, BLOCK, 0),
          "occupancy");
    m.persistent = (uint32_t)std::max(1, per_sm) * m.prop.multiProcessorCount;
    int driver = 0, runtime = 0;
    check(cudaDriverGetVersion(&driver), "driver version");
    check(cudaRuntimeGetVersion(&runtime), "runtime version");
    int clock_khz = 0, mem_khz = 0, bus = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0);
    cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0);

    Host h = load(o.path);
    fprintf(stderr, "pagerank: %s: %u vertices, %u edges; %s, %d SMs, %zu MiB L2\n",
            o.graph.c_str(), h.V, h.E, m.prop.name, m.prop.multiProcessorCount,
            (size_t)m.prop.l2CacheSize >> 20);
    const std::vector<double> want = reference(h, o.iterations);
    const std::vector<double> tolerance = step_tolerance(h);

    // Device arrays.
    pr::Dev g{};
    g.V = h.V;
    g.E = h.E;
    g.nblocks = blocks(h.V);
    auto upload = [](const std::vector<uint32_t> &v, const char *what) {
        uint32_t *d;
        check(cudaMalloc(&d, v.size() * 4), what);
        check(cudaMemcpy(d, v.data(), v.size() * 4, cudaMemcpyHostToDevice), what);
        return d;
    };
    g.off = upload(h.in_off, "offsets");
    g.src = upload(h.in_src, "sources");
    g.dst = upload(h.in_dst, "destinations");
    g.outdeg = upload(h.outdeg, "out-degrees");
    auto words = [](size_t n, const char *what) {
        void *d;
        check(cudaMalloc(&d, std::max<size_t>(n, 1) * 4), what);
        return d;
    };
    g.rank = (float *)words(h.V, "ranks");
    g.contrib = (float *)words(h.V, "contributions");
    g.acc = (float *)words(h.V, "sums");
    g.queue = (uint32_t *)words(3 * (size_t)h.V, "TWC queues");
    g.count = (uint32_t *)words(3, "TWC counters");
    g.svid = (uint32_t *)words(h.V, "STRICT vertices");
    g.sloc = (uint32_t *)words(h.V, "STRICT locations");
    g.spfx = (uint32_t *)words(h.V, "STRICT prefixes");
    g.btotal = (uint32_t *)words(g.nblocks, "STRICT block totals");
    g.bbase = (uint32_t *)words(g.nblocks + 1, "STRICT block bases");

    FILE *csv = nullptr;
    int run = 0;
    if (o.csv) {
        // Appending to a table: its runs are numbered on from the rows it has.
        FILE *probe = fopen(o.csv, "r");
        bool fresh = !probe;
        if (probe) {
            for (int c; (c = fgetc(probe)) != EOF;)
                run += c == '\n';
            run = std::max(0, run - 1);
            fclose(probe);
        }
        csv = fopen(o.csv, "a");
        if (!csv)
            fail("cannot write %s: %s", o.csv, strerror(errno));
        if (fresh)
            fprintf(csv, "%s\n", HEADER);
    }
    char date[32];
    time_t now = time(nullptr);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));

    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "event");
    check(cudaEventCreate(&stop), "event");
    std::vector<float> got(h.V);
    bool all_ok = true;
    printf("%-10s %-12s %9s %9s %9s  %s\n", "schedule", "form", "ms", "min", "max", "check");
    for (Sched s : o.schedules)
        for (bool tuned : o.forms) {
            // The checked run, an iteration at a time: each iteration's ranks against the
            // reference's iteration from the GPU's own input ranks; `worst` is the end's
            // relative distance from the reference run whole (f32's drift, not checked).
            init(g);
            check(cudaMemcpy(got.data(), g.rank, (size_t)h.V * 4, cudaMemcpyDeviceToHost), "ranks");
            uint32_t bad = 0, first = UINT32_MAX, first_iteration = 0;
            double first_want = 0.0, first_got = 0.0;
            for (uint32_t it = 0; it < o.iterations; it++) {
                const std::vector<double> expect = step(h, std::vector<double>(got.begin(), got.end()));
                pagerank(s, tuned, g, m, 1);
                check(cudaGetLastError(), "launch");
                check(cudaDeviceSynchronize(), SCHED_NAME[s]);
                check(cudaMemcpy(got.data(), g.rank, (size_t)h.V * 4, cudaMemcpyDeviceToHost), "ranks");
                for (uint32_t v = 0; v < h.V; v++) {
                    double e = expect[v], x = (double)got[v];
                    if (!(std::fabs(x - e) <= tolerance[v] * std::fabs(e)) && bad++ == 0) {  // NaN fails too
                        first = v;
                        first_iteration = it;
                        first_want = e;
                        first_got = x;
                    }
                }
            }
            double worst = 0.0;
            for (uint32_t v = 0; v < h.V; v++) {
                double rel = std::fabs((double)got[v] - want[v]) / std::fabs(want[v]);
                worst = std::max(worst, std::isnan(rel) ? INFINITY : rel);
            }
            if (bad) {
                all_ok = false;
                fprintf(stderr,
                        "pagerank: %s %s on %s: %u ranks differ; iteration %u, vertex %u: want %.9e, got %.9e\n",
                        SCHED_NAME[s], tuned ? "tuned" : "dissertation", o.graph.c_str(), bad,
                        first_iteration + 1, first, first_want, first_got);
            }
            // The timed runs: each from a fresh initialisation, its iterations alone timed.
            std::vector<float> ms;
            if (!o.once) {
                for (uint32_t r = 0; r < o.warmup + o.reps; r++) {
                    init(g);
                    check(cudaEventRecord(start), "event");
                    pagerank(s, tuned, g, m, o.iterations);
                    check(cudaEventRecord(stop), "event");
                    check(cudaEventSynchronize(stop), SCHED_NAME[s]);
                    check(cudaGetLastError(), "launch");
                    float t;
                    check(cudaEventElapsedTime(&t, start, stop), "elapsed");
                    if (r >= o.warmup)
                        ms.push_back(t);
                }
                std::sort(ms.begin(), ms.end());
            }
            double median = ms.empty() ? NAN
                            : ms.size() % 2 ? ms[ms.size() / 2]
                                            : 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]);
            printf("%-10s %-12s %9.3f %9.3f %9.3f  %s\n", SCHED_NAME[s], tuned ? "tuned" : "dissertation",
                   median, ms.empty() ? NAN : ms.front(), ms.empty() ? NAN : ms.back(),
                   bad ? "MISMATCH" : "verified");
            fflush(stdout);
            if (csv) {
                std::string program = std::string("pr_") + SCHED_FILE[s] + "_pull" + (tuned ? "_tuned" : "");
                auto num = [](double x, int digits) {
                    if (std::isnan(x))
                        return std::string();
                    char b[64];
                    snprintf(b, sizeof b, "%.*f", digits, x);
                    return std::string(b);
                };
                char err[64];
                snprintf(err, sizeof err, "%.3e", worst);
                std::string row = o.experiment + "," + field(o.profile) + ",," + std::to_string(run++) +
                                  "," + program + ",PageRank," + SCHED_NAME[s] + ",pull," +
                                  (tuned ? "tuned" : "dissertation") + "," + std::to_string(h.V) + "," +
                                  std::to_string(h.E) + ",," + std::to_string(o.iterations) + "," +
                                  field(o.graph) + "," + field(o.spec) + ",," + field(m.prop.name) +
                                  ",," + field(o.wsim_version) + ",ok,0," + (bad ? "NO" : "yes") + "," +
                                  num(median, 6) + "," + num(ms.empty() ? NAN : ms.front(), 6) + "," +
                                  num(ms.empty() ? NAN : ms.back(), 6) + "," +
                                  num(median / o.iterations, 6) + "," + std::to_string(ms.size()) + "," +
                                  std::to_string(o.once ? 0 : o.warmup) + "," + std::to_string(bad) + "," +
                                  err + "," + field(m.prop.name) + "," +
                                  std::to_string(m.prop.multiProcessorCount) + "," +
                                  std::to_string(m.prop.l2CacheSize) + "," +
                                  std::to_string(m.prop.totalGlobalMem) + "," +
                                  std::to_string(clock_khz / 1000) + "," + std::to_string(mem_khz / 1000) +
                                  "," + std::to_string(bus) + "," + cuda_version(driver) + "," +
                                  cuda_version(runtime) + "," + std::to_string(BLOCK) + "," + date + "," +
                                  (bad ? "mismatch" : "ok") + ",";
                fprintf(csv, "%s\n", row.c_str());
                fflush(csv);
            }
        }
    if (csv)
        fclose(csv);
    return all_ok ? 0 : 1;
}
