//! Microbenchmarks of the timing model (programs/ubench_*.c): the programs measure latencies
//! and throughputs with mcycle and leave them in `ubench_results`; these tests read them
//! back from simulated memory and compare them with the configured numbers, each with a
//! stated tolerance. Every check is also run on a second configuration (a different
//! latency, size or line) so that a model ignoring the key, or swapping levels, fails.
//!
//! Results are centi-cycles (cycles x 100) per access, averaged over hundreds of accesses.

mod common;

use common::preset;
use wsim_sim::config::StartCores;
use wsim_sim::{Config, Machine, RunSummary};

/// A finished benchmark run: its results array, summary and console.
struct Bench {
    results: Vec<u32>,
    summary: RunSummary,
    console: String,
}

impl Bench {
    /// Entry `i` in cycles.
    fn cycles(&self, i: usize) -> f64 {
        f64::from(self.results[i]) / 100.0
    }
}

/// Run `name` on `config` after storing `pokes` (symbol, word) in memory; require exit 0
/// and return the `ubench_results` array.
fn bench(name: &str, config: &Config, pokes: &[(&str, u32)]) -> Bench {
    let pokes: Vec<(String, u32)> = pokes.iter().map(|(s, v)| (s.to_string(), *v)).collect();
    let (machine, result) = common::run_prepared(
        name,
        config,
        Box::new(move |machine: &mut Machine| {
            for (sym, value) in &pokes {
                let at = machine.symbol(sym).map(|s| s.addr);
                let at = at.unwrap_or_else(|| panic!("no symbol {sym}"));
                machine.write_words(at, &[*value]);
            }
        }),
    );
    let console = String::from_utf8_lossy(machine.console()).into_owned();
    let summary = result.unwrap_or_else(|e| panic!("{name} failed: {e}\nconsole:\n{console}"));
    assert_eq!(
        summary.exit_code, 0,
        "{name} exit status; console:\n{console}"
    );
    let addr = |sym: &str| {
        machine
            .symbol(sym)
            .unwrap_or_else(|| panic!("{name}: no symbol {sym}"))
            .addr
    };
    let count = machine.read_u32(addr("ubench_count")) as usize;
    let base = addr("ubench_results");
    let results = (0..count)
        .map(|i| machine.read_u32(base + 4 * i as u32))
        .collect();
    Bench {
        results,
        summary,
        console,
    }
}

/// A preset with `key=value` overrides.
fn config(preset_name: &str, overrides: &[String]) -> Config {
    preset(preset_name)
        .with_overrides(overrides)
        .unwrap_or_else(|e| panic!("{overrides:?}: {e}"))
}

/// Single-thread benchmarks start only core 0.
fn single(preset_name: &str, overrides: &[String]) -> Config {
    let mut c = config(preset_name, overrides);
    c.run.start = StartCores::FirstCore;
    c
}

fn assert_near(what: &str, measured: f64, expected: f64, tolerance: f64, console: &str) {
    assert!(
        (measured - expected).abs() <= tolerance,
        "{what}: measured {measured:.2} cycles, expected {expected:.2} +- {tolerance}\nconsole:\n{console}"
    );
}

// ---------------------------------------------------------------------------------------
// Pointer chasing: load-to-use latency of L1, L2 and DRAM.

/// The cycles a dependent load takes from its issue to its dependent's issue beyond the
/// cache's `latency`: dispatch, the LSU, and writeback. A load issued at cycle t puts its
/// line request in the LSU queue for t + dispatch + lsu; the L1 accepts it that cycle and
/// completes a hit hit_latency later; the completion is delivered before the cores' cycle
/// and the value is usable writeback cycles later.
fn load_to_use(cfg: &Config, latency: u32) -> f64 {
    let c = &cfg.core;
    f64::from(c.dispatch_latency + c.latency.lsu + latency + c.writeback_latency)
}

/// Cycles per load of a chain of `latency` in the chase loop (ubench.h): 8 loads, then the
/// branch, which issues right after the last load (its counter was decremented after the
/// first), leaves the ALU, resumes the warp's fetch, which fetches the next first load.
/// When that turn is longer than a load, the difference shows once per 8 loads; and the
/// second load comes two fetches after the first (the counter's `addi` is between them),
/// which shows when two fetches take longer than a load. Vortex's front end and the
/// 18-cycle L1 hit just hide both; local memory shows them.
fn chase_per_load(cfg: &Config, latency: f64) -> f64 {
    let s = Stages::of(cfg);
    let turn = 1.0 + s.dispatch + f64::from(cfg.core.latency.branch) + s.resume + s.fetch;
    let refill = 2.0 * s.fetch;
    latency + ((turn - latency).max(0.0) + (refill - latency).max(0.0)) / 8.0
}

/// Cycles per load of the L1, L2 and DRAM footprints of ubench_chase.
fn chase(overrides: &[String]) -> (Config, [f64; 3], String) {
    let cfg = single("tiny", overrides);
    let b = bench("ubench_chase", &cfg, &[]);
    assert_eq!(b.results.len(), 6, "console:\n{}", b.console);
    assert_eq!(
        [b.results[0], b.results[2], b.results[4]],
        [4 << 10, 256 << 10, 8 << 20]
    );
    (cfg, [b.cycles(1), b.cycles(3), b.cycles(5)], b.console)
}

/// Expected L1-hit and L2-hit load-to-use latencies from the configuration: the load's
/// pipeline ([`load_to_use`]) with the L1 hit_latency (also the time before a miss
/// leaves), for the L2 also the L1 link down and up and the L2 hit_latency.
fn expected_l1_l2(cfg: &Config) -> (f64, f64) {
    let m = &cfg.memory;
    let l1 = load_to_use(cfg, m.l1d.hit_latency);
    let l2 = l1 + 2.0 * f64::from(m.l1_link.latency) + f64::from(m.l2.hit_latency);
    (chase_per_load(cfg, l1), chase_per_load(cfg, l2))
}

#[test]
fn chase_latencies_match_the_configuration() {
    let (cfg, [l1, l2, dram], console) = chase(&[]);
    eprintln!("chase (default): L1 {l1:.2}, L2 {l2:.2}, DRAM {dram:.2} cycles/load");
    let (want_l1, want_l2) = expected_l1_l2(&cfg);
    // The L1 figure is exact in the model; +-3 leaves room for a cycle of loop overhead or
    // request acceptance that a later pipeline change may add.
    assert_near("L1-hit load", l1, want_l1, 3.0, &console);
    // The L2 path adds the two link crossings and the L2 tag access; +-3 as for L1.
    assert_near("L2-hit load", l2, want_l2, 3.0, &console);
    assert!(
        l1 < l2 && l2 < dram,
        "L1 {l1} < L2 {l2} < DRAM {dram}\n{console}"
    );
    let (want_dram, tolerance) = expected_dram(&cfg);
    assert_near("DRAM load", dram, want_dram, tolerance, &console);
}

/// DRAM cycles from the end of a read's first burst to the end of its last: 0 when reads
/// are answered with their first burst (`memory.dram.first_burst_response`).
fn later_bursts(cfg: &Config) -> u32 {
    let d = &cfg.memory.dram;
    let bursts = (d.line_bytes / (d.bus_bytes * d.burst_length)).max(1);
    if d.first_burst_response {
        0
    } else {
        (bursts - 1) * d.t_ccd.max(d.burst_length / 2)
    }
}

/// Expected DRAM load-to-use latency and its tolerance. Beyond the L2-hit path (whose L2
/// hit_latency is also the time before an L2 miss leaves; the fill is forwarded without a
/// second tag pass), the request crosses the L2 link both ways and meets a row conflict in
/// its bank: the chased lines are random over 8 MiB, i.e. 32 rows per bank, so the open
/// row is another one 31 times in 32 (tRP + tRCD + tCL + the burst, in DRAM cycles x
/// clock_ratio). Tolerance: 3 cycles + 5% of the DRAM part (an occasional row hit makes
/// the average cheaper, the DRAM clock alignment up to a DRAM cycle dearer).
fn expected_dram(cfg: &Config) -> (f64, f64) {
    let m = &cfg.memory;
    let d = &m.dram;
    let (_, l2) = expected_l1_l2(cfg);
    let device = f64::from(d.clock_ratio)
        * f64::from(d.t_rp + d.t_rcd + d.t_cl + d.burst_length / 2 + later_bursts(cfg));
    (
        l2 + 2.0 * f64::from(m.l2_link.latency) + device,
        3.0 + 0.05 * device,
    )
}

#[test]
fn chase_latencies_follow_the_configured_latencies() {
    // Slower L1 (+8), slower L2 (+20), DRAM at a quarter of the core clock: each level's
    // figure moves by the changes on its path (+-0.5: the figures are averages of an exact
    // model), the slower DRAM shows in the DRAM figure only. Swapping two levels'
    // latencies, or ignoring a key, fails here.
    let (base, [l1, l2, dram], _) = chase(&[]);
    let (l1_hit, l2_hit) = (base.memory.l1d.hit_latency, base.memory.l2.hit_latency);
    let (cfg, [l1b, l2b, dramb], console) = chase(&[
        format!("memory.l1d.hit_latency={}", l1_hit + 8),
        format!("memory.l2.hit_latency={}", l2_hit + 20),
        "memory.dram.clock_ratio=4".into(),
    ]);
    eprintln!("chase (slower): L1 {l1b:.2}, L2 {l2b:.2}, DRAM {dramb:.2} cycles/load");
    assert_eq!(cfg.memory.l1d.hit_latency, l1_hit + 8);
    assert_near("L1 +8", l1b - l1, 8.0, 0.5, &console);
    assert_near("L2 +8 (L1) +20 (L2)", l2b - l2, 28.0, 0.5, &console);
    // DRAM at clock_ratio 4: the device part is 4x longer, the path above it +28.
    let (want_dram, tolerance) = expected_dram(&cfg);
    assert_near(
        "DRAM load at clock_ratio 4",
        dramb,
        want_dram,
        tolerance,
        &console,
    );
    assert!(
        dramb - l2b >= 3.0 * (dram - l2),
        "DRAM part {:.2} -> {:.2} at clock_ratio 4\n{console}",
        dram - l2,
        dramb - l2b
    );
}

// ---------------------------------------------------------------------------------------
// Sequential sweeps: L1 capacity and line size.

/// (footprint or stride, cycles per access) pairs.
type Sweep = Vec<(u32, f64)>;

/// The two sweeps of ubench_stride: (a) footprints, (b) strides.
fn stride(overrides: &[String]) -> (Config, Sweep, Sweep, String) {
    let cfg = single("tiny", overrides);
    let b = bench("ubench_stride", &cfg, &[]);
    assert_eq!(b.results.len(), 30, "console:\n{}", b.console);
    let pairs = |from: usize, n: usize| -> Sweep {
        (0..n)
            .map(|k| (b.results[from + 2 * k], b.cycles(from + 2 * k + 1)))
            .collect()
    };
    (cfg, pairs(0, 8), pairs(16, 7), b.console)
}

/// A line size `line` everywhere it must agree (each cache level and the DRAM request).
fn line_overrides(line: u32) -> Vec<String> {
    let mut o: Vec<String> = ["l1i", "l1d", "l2", "l3"]
        .iter()
        .map(|c| format!("memory.{c}.line={line}"))
        .collect();
    o.push(format!("memory.dram.line_bytes={line}"));
    if line < 64 {
        // A DRAM request must be a whole number of bursts (8 beats).
        o.push(format!("memory.dram.bus_bytes={}", line / 8));
    }
    o
}

/// The footprint sweep: every footprint up to l1d.size costs an L1 hit (+-1 cycle: a few
/// lines of other data may share the sets), every larger one at least half the L2 penalty
/// more: the jump sits exactly at the configured size.
fn check_capacity(cfg: &Config, sweep: &[(u32, f64)], console: &str) {
    let size = cfg.memory.l1d.size;
    let (hit, l2) = expected_l1_l2(cfg);
    for &(fp, c) in sweep {
        if fp <= size {
            assert_near(
                &format!("footprint {fp} <= l1d.size {size}"),
                c,
                hit,
                1.0,
                console,
            );
        } else {
            assert!(
                c >= hit + (l2 - hit) / 2.0,
                "footprint {fp} > l1d.size {size}: {c:.2} cycles, want >= {:.2}\n{console}",
                hit + (l2 - hit) / 2.0
            );
        }
    }
}

#[test]
fn footprint_sweep_finds_the_l1_size() {
    for size in [16384u32, 4096, 32768] {
        let (cfg, sweep, _, console) = stride(&[format!("memory.l1d.size={size}")]);
        eprintln!("l1d.size {size}: {sweep:?}");
        assert_eq!(cfg.memory.l1d.size, size);
        check_capacity(&cfg, &sweep, &console);
    }
}

/// The stride sweep: per access, hit + (L2 - hit) x stride / line below the line size
/// (one access in line / stride misses), flat at the L2 latency from the line size on.
/// Tolerance: 1 cycle (the L1-hit part is exact, misses see an occasional extra cycle).
fn check_line(cfg: &Config, sweep: &[(u32, f64)], console: &str) {
    let line = cfg.memory.l1d.line;
    let (hit, l2) = expected_l1_l2(cfg);
    let plateau = sweep.last().unwrap().1;
    for &(s, c) in sweep {
        let want = if s >= line {
            plateau
        } else {
            hit + (l2 - hit) * f64::from(s) / f64::from(line)
        };
        assert_near(&format!("stride {s} (line {line})"), c, want, 1.0, console);
    }
    // The plateau starts at the line size: the first stride within 1 cycle of it is `line`
    // (the one below is half the penalty cheaper, checked above).
    let first = sweep.iter().find(|&&(_, c)| c >= plateau - 1.0).unwrap().0;
    assert_eq!(
        first, line,
        "plateau starts at {first}, line {line}\n{console}"
    );
    assert_near("plateau = L2 latency", plateau, l2, 3.0, console);
}

#[test]
fn stride_sweep_finds_the_line_size() {
    for line in [64u32, 128, 32] {
        let (cfg, _, sweep, console) = stride(&line_overrides(line));
        eprintln!("line {line}: {sweep:?}");
        check_line(&cfg, &sweep, &console);
    }
}

// ---------------------------------------------------------------------------------------
// Local memory bank conflicts.

/// The conflict degree of lanes 0..threads at word stride `stride` over `banks` banks:
/// the most distinct words any bank holds.
fn degree(threads: u32, stride: u32, banks: u32) -> u32 {
    let mut per_bank = vec![0u32; banks as usize];
    for lane in 0..threads {
        per_bank[((lane * stride) % banks) as usize] += 1;
    }
    per_bank.into_iter().max().unwrap()
}

#[test]
fn local_memory_costs_follow_the_bank_conflict_degree() {
    // SimX's pipeline (vortex) and one that fetches ahead (rtx's), whose single warp is not
    // held to one instruction per fetch loop, so its independent loads show the LSU's rate.
    for (preset_name, banks) in [("vortex", 0u32), ("vortex", 8), ("rtx", 0), ("rtx", 8)] {
        let cfg = config(
            preset_name,
            &[
                "gpu.clusters=1".into(),
                "gpu.cores_per_cluster=1".into(),
                "gpu.threads_per_warp=32".into(),
                format!("local_mem.banks={banks}"),
            ],
        );
        let b = bench("ubench_shared", &cfg, &[]);
        assert_eq!(b.results.len(), 18, "console:\n{}", b.console);
        let threads = cfg.gpu.threads_per_warp;
        let nbanks = if banks == 0 { threads } else { banks };
        for k in 0..6 {
            let stride = b.results[3 * k];
            let d = f64::from(degree(threads, stride, nbanks));
            let latency = b.cycles(3 * k + 1);
            let throughput = b.cycles(3 * k + 2);
            eprintln!(
                "{preset_name}: banks {nbanks} stride {stride}: degree {d}, latency {latency:.2}, throughput {throughput:.2}"
            );
            // Conflict-free dependent load: the load's pipeline with local_mem for the
            // cache; each extra word in a bank costs one cycle. Tolerance +-0.5: the
            // figures are averages over 256 loads of an exact model.
            let local = load_to_use(&cfg, cfg.core.latency.local_mem) + d - 1.0;
            assert_near(
                &format!("{preset_name}: latency, stride {stride}, {nbanks} banks"),
                latency,
                chase_per_load(&cfg, local),
                0.5,
                &b.console,
            );
            if !cfg.core.fetch_ahead {
                continue;
            }
            // Independent loads: the LSU takes one every `degree` cycles; with no
            // conflict, the loop's branch bubble (refetch after `bnez`) adds up to 6
            // cycles per 8 loads. Tolerance: 0 .. +0.75 cycles per load.
            assert!(
                throughput >= d - 0.05 && throughput <= d.max(1.0) + 0.75,
                "throughput, stride {stride}, {nbanks} banks: {throughput:.2} cycles/load, degree {d}\n{}",
                b.console
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Streaming: DRAM clock ratio.

/// Elements for the tests (the program's default, 2^19, is for the speed benchmark).
const STREAM_TEST_N: u32 = 32768;

#[test]
fn stream_slows_down_with_the_dram_clock_ratio() {
    let run = |ratio: u32| {
        let cfg = config("tiny", &[format!("memory.dram.clock_ratio={ratio}")]);
        let b = bench("ubench_stream", &cfg, &[("ubench_stream_n", STREAM_TEST_N)]);
        assert_eq!(b.results[0], STREAM_TEST_N);
        (f64::from(b.results[1]), b)
    };
    let (fast, _) = run(1);
    let (slow, b) = run(4);
    eprintln!("stream add: {fast} cycles at clock_ratio 1, {slow} at 4");
    // The add streams 3 x 128 KiB through DRAM with little parallelism (tiny: 8 warps of
    // 4 threads per core): most of its time is DRAM time, which 4x longer DRAM cycles
    // stretch. Required: at least 2x slower (measured 2.87x: 178334 -> 511939 cycles).
    assert!(
        slow >= 2.0 * fast,
        "clock_ratio 4: {slow} cycles, clock_ratio 1: {fast}\n{}",
        b.console
    );
}

#[test]
fn stream_is_large_enough_for_the_speed_benchmark() {
    // The element count compiled in must give the speed benchmark at least 10 million
    // thread instructions on configs/sparseweaver.toml (measured there: 35.2 million).
    // Counted here on tiny, 4x faster to simulate: the program does the same work per
    // element on any geometry (a grid-stride loop), so the thread-instruction count
    // differs only by the per-thread launch overhead.
    let b = bench("ubench_stream", &preset("tiny"), &[]);
    assert_eq!(b.results[0], 1 << 19, "the compiled-in element count");
    let thread_instructions = b.summary.total().thread_instructions;
    eprintln!(
        "stream on tiny: {thread_instructions} thread instructions, {} cycles",
        b.summary.cycles
    );
    assert!(thread_instructions >= 10_000_000, "{thread_instructions}");
}

/// With interleaved stacks a warp's register spill is a couple of line requests instead of
/// one per lane: vecadd's line requests (mostly spawn prologue spills) drop accordingly.
#[test]
fn interleaved_stacks_coalesce_spills() {
    let requests = |interleave: bool| {
        let c = config("sparseweaver", &[format!("stack.interleave={interleave}")]);
        let (_, s) = common::run_ok("vecadd", &c);
        (s.total().dcache_requests, s.cycles)
    };
    let (flat, flat_cycles) = requests(false);
    let (interleaved, cycles) = requests(true);
    assert!(
        interleaved * 4 < flat && cycles < flat_cycles,
        "line requests {flat} -> {interleaved}, cycles {flat_cycles} -> {cycles}"
    );
}

// ---------------------------------------------------------------------------------------
// Back-pressure: write-through stores cannot outrun DRAM.

/// The configured peak DRAM bandwidth in bytes per core cycle: per channel, a column
/// command moves `bus_bytes x burst_length` bytes in `burst_length / 2` DRAM cycles.
fn dram_peak(cfg: &Config) -> f64 {
    let d = &cfg.memory.dram;
    f64::from(d.channels * 2 * d.bus_bytes) / f64::from(d.clock_ratio)
}

/// Every thread stores one word of a 2 MiB array (programs/ubench_store.c); write-through
/// caches pass the lines down. With back-pressure the stores wait for DRAM: nothing queues
/// in front of it, the launch cannot store faster than DRAM writes, and DRAM, the limit,
/// stays busy. Checked at two DRAM clock ratios.
#[test]
fn store_stream_is_bounded_by_the_dram_bandwidth() {
    for ratio in [1u32, 4] {
        let cfg = config(
            "sparseweaver",
            &[format!("memory.dram.clock_ratio={ratio}")],
        );
        let b = bench("ubench_store", &cfg, &[]);
        let (words, cycles) = (f64::from(b.results[0]), f64::from(b.results[1]));
        let peak = dram_peak(&cfg);
        let memory = &b.summary.memory;
        let written = memory.phases[&1].dram.bytes as f64;
        let what = format!(
            "clock_ratio {ratio}: {words} words in {cycles} cycles, {written} DRAM bytes in \
             the store phase, peak {peak} B/cycle\n{}",
            b.console
        );
        assert_eq!(memory.dram_backlog_peak, 0, "{what}");
        assert!(4.0 * words / cycles <= peak, "stores outran DRAM: {what}");
        assert!(written / cycles >= 0.5 * peak, "DRAM idle: {what}");
    }
}

/// `memory.dram.first_burst_response` (Vortex SimX answers a line with its first 16-byte
/// request): a DRAM read completes when its first burst has arrived, so the chased DRAM
/// load is shorter by the later bursts' time (with four bursts per line, 3 x 4 DRAM
/// cycles: `later_bursts` x clock_ratio, +-0.5) and the L1 and L2 figures do not move; a
/// write still takes the bus for all its bursts, so a store stream bound by DRAM
/// (ubench_store on sparseweaver.toml) moves the same bytes in the same time (+-1%).
#[test]
fn first_burst_response_shortens_reads_not_writes() {
    // Four 16-byte bursts per line (the tiny preset moves a line in one).
    let four_bursts = || vec!["memory.dram.bus_bytes=2".to_string()];
    let (base, [l1, l2, dram], _) = chase(&four_bursts());
    let mut first = four_bursts();
    first.push("memory.dram.first_burst_response=true".into());
    let (cfg, [l1f, l2f, dramf], console) = chase(&first);
    eprintln!("chase (first burst): L1 {l1f:.2}, L2 {l2f:.2}, DRAM {dramf:.2} cycles/load");
    let saved = f64::from((later_bursts(&base) - later_bursts(&cfg)) * cfg.memory.dram.clock_ratio);
    assert_eq!(saved, 12.0, "three later bursts of 4 DRAM cycles");
    assert_near("L1 unchanged", l1f, l1, 0.01, &console);
    assert_near("L2 unchanged", l2f, l2, 0.01, &console);
    assert_near("DRAM read shortened", dram - dramf, saved, 0.5, &console);
    let (want_dram, tolerance) = expected_dram(&cfg);
    assert_near(
        "DRAM load (first burst)",
        dramf,
        want_dram,
        tolerance,
        &console,
    );

    let store = |first: bool| {
        let cfg = config(
            "sparseweaver",
            &[format!("memory.dram.first_burst_response={first}")],
        );
        let b = bench("ubench_store", &cfg, &[]);
        let written = b.summary.memory.phases[&1].dram.bytes;
        (f64::from(b.results[1]), written, b.console)
    };
    let (cycles, written, _) = store(false);
    let (cycles_f, written_f, console) = store(true);
    assert_eq!(written_f, written, "DRAM bytes written\n{console}");
    assert_near("store launch", cycles_f, cycles, 0.01 * cycles, &console);
}

// ---------------------------------------------------------------------------------------
// Atomics: the atomic unit at the last-level cache.

/// One warp's amoadd.w in three patterns (programs/ubench_atomic.c), all L2 hits, at two
/// `memory.atomics.alu_cycles`: the 32 lanes on one word take 32 operations in turn, 31
/// more than lanes on distinct words of a line (words in parallel, one request per line);
/// 32 distinct lines are 32 requests spread over the L2's banks, each bank's unit taking
/// its share in turn.
#[test]
fn atomics_cost_what_the_atomic_unit_is_configured_to() {
    let run = |alu: u32| {
        let cfg = config(
            "sparseweaver",
            &[format!("memory.atomics.alu_cycles={alu}")],
        );
        let b = bench("ubench_atomic", &cfg, &[]);
        assert_eq!(b.results[3], 1, "final values\n{}", b.console);
        let r: Vec<f64> = (0..3).map(|i| f64::from(b.results[i])).collect();
        (cfg, r, b.console)
    };
    let (cfg, one, console) = run(1);
    let (_, eight, _) = run(8);
    let lanes = f64::from(cfg.gpu.threads_per_warp);
    let banks = f64::from(cfg.memory.l2.banks);
    let what = format!("alu 1: {one:?}, alu 8: {eight:?}\n{console}");
    assert_near(
        "same word minus distinct words, alu 1",
        one[0] - one[1],
        lanes - 1.0,
        2.0,
        &what,
    );
    assert_near(
        "same word minus distinct words, alu 8",
        eight[0] - eight[1],
        8.0 * (lanes - 1.0),
        2.0,
        &what,
    );
    assert_near(
        "distinct words, alu 8 - 1",
        eight[1] - one[1],
        7.0,
        1.0,
        &what,
    );
    // The last bank's unit finishes its lanes / banks lines after the first one's.
    assert_near(
        "distinct lines, alu 8 - 1",
        eight[2] - one[2],
        7.0 * (lanes / banks - 1.0),
        4.0,
        &what,
    );
}

/// The same three patterns with `memory.atomics.same_word = "combined"`: the 32 lanes on
/// one word are one operation, as lanes on distinct words of a line are, at either
/// `alu_cycles`; against the serial unit the same-word pattern saves (lanes - 1) x
/// alu_cycles, and the other two patterns cost the same (they have one lane per word).
/// The final values are the same (the run checks them).
#[test]
fn a_combining_unit_applies_a_words_lanes_as_one_operation() {
    let run = |alu: u32, same_word: &str| {
        let cfg = config(
            "sparseweaver",
            &[
                format!("memory.atomics.alu_cycles={alu}"),
                format!("memory.atomics.same_word={same_word}"),
            ],
        );
        let b = bench("ubench_atomic", &cfg, &[]);
        assert_eq!(b.results[3], 1, "final values\n{}", b.console);
        let r: Vec<f64> = (0..3).map(|i| f64::from(b.results[i])).collect();
        (cfg, r, b.console)
    };
    for alu in [1u32, 8] {
        let (cfg, serial, _) = run(alu, "serial");
        let (_, combined, console) = run(alu, "combined");
        let lanes = f64::from(cfg.gpu.threads_per_warp);
        let what = format!("alu {alu}: serial {serial:?}, combined {combined:?}\n{console}");
        assert_near(
            "combined: same word minus distinct words",
            combined[0] - combined[1],
            0.0,
            2.0,
            &what,
        );
        assert_near(
            "same word: serial minus combined",
            serial[0] - combined[0],
            f64::from(alu) * (lanes - 1.0),
            2.0,
            &what,
        );
        for (i, pattern) in [(1, "distinct words"), (2, "distinct lines")] {
            assert_near(pattern, combined[i], serial[i], 0.0, &what);
        }
    }
}

/// Every thread of the machine makes one atomic per line (programs/ubench_atomic_l2.c),
/// timed on the second pass. A write-through L2 (the default) writes each atomic's line to
/// DRAM, so DRAM takes at least one line write per atomic and the pass cannot outrun its
/// configured bandwidth. A write-back L2 keeps the lines, dirty: with a footprint within
/// the L2s nothing reaches DRAM but the odd eviction of other lines, and the pass goes
/// faster than DRAM could have written the lines; with a footprint twice the L2s every
/// atomic misses, and what reaches DRAM is exactly the L2's write-backs of dirty victims,
/// about one per atomic.
#[test]
fn a_write_back_l2_keeps_atomic_lines_until_evicted() {
    let run = |policy: &str, lines: u32| {
        let cfg = config(
            "sparseweaver",
            &[format!("memory.l2.write_policy={policy}")],
        );
        let b = bench("ubench_atomic_l2", &cfg, &[("ubench_atomic_lines", lines)]);
        assert_eq!(
            (b.results[0], b.results[2]),
            (lines, 1),
            "lines, final values\n{}",
            b.console
        );
        let m = &b.summary.memory.phases[&1];
        let sum =
            |f: fn(&wsim_sim::mem::cache::CacheStats) -> u64| -> u64 { m.l2.iter().map(f).sum() };
        let (atomics, writebacks) = (sum(|c| c.atomics), sum(|c| c.writebacks));
        let what = format!(
            "{policy}, {lines} lines: {} cycles, {atomics} L2 atomics, {writebacks} L2 \
             write-backs, DRAM {:?}\n{}",
            b.results[1], m.dram, b.console
        );
        (
            cfg,
            f64::from(b.results[1]),
            atomics,
            writebacks,
            m.dram.clone(),
            what,
        )
    };
    let line_bytes = |cfg: &Config| f64::from(cfg.memory.l2.line);
    // Within the L2s: half their capacity in all.
    let cfg = config("sparseweaver", &[]);
    let fits = cfg.gpu.clusters * cfg.memory.l2.size / cfg.memory.l2.line / 2;
    let (cfg, cycles, atomics, _, dram, what) = run("write-through", fits);
    let peak = dram_peak(&cfg);
    assert!(atomics >= u64::from(fits), "{what}");
    assert!(dram.writes >= atomics, "a line write per atomic: {what}");
    assert!(
        atomics as f64 * line_bytes(&cfg) / cycles <= peak,
        "outran DRAM: {what}"
    );
    let (cfg, cycles, atomics, writebacks, dram, what) = run("write-back", fits);
    assert_eq!(dram.writes, writebacks, "only write-backs: {what}");
    assert!(writebacks * 100 < atomics, "lines kept: {what}");
    assert!(
        atomics as f64 * line_bytes(&cfg) / cycles > peak,
        "not DRAM-bound: {what}"
    );
    // Twice the L2s: every atomic's line evicts a dirty one.
    let (_, _, atomics, writebacks, dram, what) = run("write-back", 4 * fits);
    assert_eq!(dram.writes, writebacks, "only write-backs: {what}");
    assert!(
        writebacks * 10 >= atomics * 9,
        "a write-back per atomic: {what}"
    );
    assert!(dram.reads * 10 >= atomics * 9, "a fill per atomic: {what}");
}

// ---------------------------------------------------------------------------------------
// EGHW: how the unit reads a batch's topology and edges.

/// Two EGHW decodes of a whole warp, alone on its core (programs/ubench_eghw_batch.c),
/// every line an L1 hit:
/// one that loads a vertex (its two offsets, in one line) and hands out 32 edges, one that
/// continues it with 32 more; each edge is a neighbour and a weight, so a batch is 2 x 32
/// words on 2 x 32 x 4 / line lines. Each read the unit waits for costs the L1's hit
/// latency, so raising it by 100 cycles adds 100 per serial read: `word-serial` (the
/// default) waits for every word (2 + 64 reads, 64), `line-serial` for every distinct line
/// (1 + 4, 4 with 64-byte lines; 1 + 8, 8 with 32-byte lines), `pipelined` for each stage
/// once (2, 1). Within a cycle per request the unit makes (the LSU queue takes them in
/// turn).
#[test]
fn eghw_reads_a_word_a_line_or_a_stage_at_a_time() {
    for line in [64u32, 32] {
        for reads in ["word-serial", "line-serial", "pipelined"] {
            let cycles = |hit: u32| {
                let mut sets = line_overrides(line);
                sets.push("gpu.warps_per_core=1".into());
                sets.push(format!("weaver.eghw_reads={reads}"));
                sets.push(format!("memory.l1d.hit_latency={hit}"));
                let cfg = config("sparseweaver", &sets);
                let b = bench("ubench_eghw_batch", &cfg, &[]);
                assert_eq!(b.results[2], 1, "answers\n{}", b.console);
                (cfg, [b.results[0], b.results[1]], b.console)
            };
            let (cfg, low, console) = cycles(8);
            let (_, high, _) = cycles(108);
            let lanes = cfg.gpu.threads_per_warp;
            let edge_lines = 2 * lanes * 4 / line;
            let (new, same, requests) = match reads {
                "word-serial" => (2 + 2 * lanes, 2 * lanes, 2 + 2 * lanes),
                "line-serial" => (1 + edge_lines, edge_lines, 1 + edge_lines),
                _ => (2, 1, 1 + edge_lines),
            };
            let what =
                format!("{reads}, {line}-byte lines: hit 8 {low:?}, hit 108 {high:?}\n{console}");
            for (k, serial, made) in [(0, new, requests), (1, same, requests - 1)] {
                assert_near(
                    &format!("decode {k}: cycles added by 100 more per hit"),
                    f64::from(high[k]) - f64::from(low[k]),
                    100.0 * f64::from(serial),
                    f64::from(made),
                    &what,
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Sockets: cores sharing their L1s.

/// Core 1 reads the lines core 0 has just read (programs/ubench_socket.c). With private
/// L1s they come from the L2 (its hit latency and the link both ways); with the cluster's
/// three cores in one socket they are hits in the shared L1D, and the cores' accesses meet
/// in its banks.
#[test]
fn a_socket_shares_its_l1_between_its_cores() {
    let run = |per_socket: u32| {
        let cfg = config(
            "sparseweaver",
            &[format!("gpu.cores_per_socket={per_socket}")],
        );
        let b = bench("ubench_socket", &cfg, &[]);
        let l1d = &b.summary.memory.l1d;
        let bank_stalls: u64 = l1d.iter().map(|c| c.bank_stalls).sum();
        (cfg, b.cycles(1), l1d.len(), bank_stalls, b.console)
    };
    let (cfg, private, caches, private_stalls, console) = run(1);
    let (_, shared, shared_caches, shared_stalls, _) = run(3);
    assert_eq!((caches, shared_caches), (6, 2));
    let l2_trip = f64::from(cfg.memory.l2.hit_latency + 2 * cfg.memory.l1_link.latency);
    assert_near(
        "private minus shared per load",
        private - shared,
        l2_trip,
        1.0,
        &format!("private {private}, shared {shared}\n{console}"),
    );
    assert!(
        shared_stalls > private_stalls,
        "bank stalls: shared {shared_stalls}, private {private_stalls}"
    );
}

/// The arbiter between the cores (`gpu.arbiter`): ubench_stream gives every core the same
/// share of a DRAM-bound stream, so the cores of a socket contend for its L1's MSHRs and
/// the sockets (or private L1s) for the link below. Round robin serves them alike: at
/// cycle 100,000 every core has issued the same instructions within 5% (measured 2.5%). In core order the
/// socket's first core takes what frees first: the socket layout's last core has issued
/// under a tenth of its first core's.
#[test]
fn round_robin_arbitration_serves_the_cores_alike() {
    let issued = |preset_name: &str, arbiter: &str| {
        let cfg = config(
            preset_name,
            &[
                format!("gpu.arbiter={arbiter}"),
                "run.max_cycles=100000".to_string(),
            ],
        );
        let (mut machine, result) = common::run("ubench_stream", &cfg);
        assert!(
            result.is_err(),
            "{preset_name}: the stream outlasts 100,000 cycles"
        );
        let summary = machine.summary();
        let per_core: Vec<u64> = (summary.cores.iter())
            .map(|c| c.phases.values().map(|p| p.instructions).sum())
            .collect();
        let (low, high) = (per_core.iter().min(), per_core.iter().max());
        let spread = *high.expect("cores") as f64 / (*low.expect("cores")).max(1) as f64;
        (spread, per_core)
    };
    for preset_name in ["sparseweaver", "sparseweaver-clusters"] {
        let (spread, per_core) = issued(preset_name, "round-robin");
        assert!(spread <= 1.05, "{preset_name}, round robin: {per_core:?}");
    }
    let (spread, per_core) = issued("sparseweaver", "core-order");
    assert!(spread > 10.0, "sockets in core order: {per_core:?}");
}

// ---------------------------------------------------------------------------------------
// The pipeline (programs/ubench_pipeline.c): front end, issue -> writeback, unit queues.

/// The pipeline's figures of ubench_pipeline on one core of `preset` with `overrides`:
/// dependent add, independent add, `addi; bnez` iteration, fmadd and add per warp with
/// every warp running.
fn pipeline(preset_name: &str, overrides: &[String]) -> (Config, [f64; 5], String) {
    let mut all = vec![
        "gpu.clusters=1".to_string(),
        "gpu.cores_per_cluster=1".to_string(),
    ];
    all.extend_from_slice(overrides);
    let cfg = config(preset_name, &all);
    let b = bench("ubench_pipeline", &cfg, &[]);
    assert_eq!(b.results.len(), 5, "console:\n{}", b.console);
    let figures = std::array::from_fn(|i| b.cycles(i));
    (cfg, figures, b.console)
}

/// What the configuration says of the pipeline: the cycles from scheduling a fetch to the
/// instruction at the head of its buffer (Vortex: the fetch latch, the L1I hit and decode),
/// and from issue to a dependent's issue.
struct Stages {
    fetch: f64,
    dispatch: f64,
    writeback: f64,
    resume: f64,
}

impl Stages {
    fn of(cfg: &Config) -> Self {
        let c = &cfg.core;
        let icache = if c.fetch_ahead {
            0
        } else {
            cfg.memory.l1i.hit_latency
        };
        Stages {
            fetch: f64::from(c.fetch_latency + icache + c.decode_latency),
            dispatch: f64::from(c.issue_to_unit(cfg.gpu.warps_per_core)),
            writeback: f64::from(c.writeback_latency),
            resume: f64::from(c.resume_latency),
        }
    }
}

/// Vortex's front end keeps one instruction per warp between scheduling and decode: a
/// single warp's independent instructions come one per fetch loop (8 cycles on SimX's
/// machine), a dependent chain one per issue -> writeback (10), and a loop's branch holds
/// the warp's fetch until it leaves the ALU (27 per `addi; bnez`: the add's fetch, its
/// writeback, the branch's dispatch and execution, the resume and the next fetch). Each
/// figure is worked out from the configuration and checked on SimX's numbers and on a
/// second configuration with other stage latencies.
#[test]
fn vortex_front_end_and_stages_match_the_configuration() {
    let other = [
        "core.fetch_latency=3",
        "core.dispatch_latency=2",
        "core.writeback_latency=6",
        "core.resume_latency=4",
        "memory.l1i.hit_latency=2",
    ]
    .map(String::from);
    for overrides in [&[][..], &other[..]] {
        let (cfg, [dependent, independent, loop_turn, _, _], console) =
            pipeline("vortex", overrides);
        let s = Stages::of(&cfg);
        let lat = &cfg.core.latency;
        let (alu, branch) = (f64::from(lat.alu), f64::from(lat.branch));
        let result = s.dispatch + alu + s.writeback;
        eprintln!(
            "{overrides:?}: dependent {dependent}, independent {independent}, loop {loop_turn}"
        );
        assert_near(
            "dependent add",
            dependent,
            result.max(s.fetch),
            0.1,
            &console,
        );
        assert_near("independent add", independent, s.fetch, 0.1, &console);
        // The add issues a fetch loop after it was scheduled; the branch (fetched one
        // loop later) waits for its result, leaves the ALU, resumes the warp, whose next
        // fetch takes a fetch loop.
        let turn = s.fetch.max(result) + s.dispatch + branch + s.resume + s.fetch;
        assert_near("addi; bnez iteration", loop_turn, turn, 0.1, &console);
    }
    let (cfg, [dependent, independent, loop_turn, ..], _) = pipeline("vortex", &[]);
    assert_eq!(
        (dependent, independent, loop_turn),
        (10.0, 8.0, 27.0),
        "SimX's own figures (docs/CORRELATION.md) on its machine, {:?}",
        cfg.core
    );
}

/// With more than four warps per issue slice Vortex has several operand collectors, and an
/// instruction takes two more cycles to its unit (the route to its warp's collector and the
/// arbiter over their outputs); with more than one slice each unit's dispatcher takes the
/// slices in turn, one per cycle, so a warp's dependent chain advances in whole turns. A
/// dependent add then costs `ceil((issue_to_unit + alu + writeback) / turns) x turns`.
/// SimX's own figures on its 1 x 1 x 32 x 32 build are 12 (dependent add), 8 (independent)
/// and 32 (`addi; bnez`), against 10, 8 and 27 with 4 warps (docs/CORRELATION.md).
#[test]
fn operand_collectors_and_slice_dispatch_match_the_configuration() {
    let cases: [&[&str]; 5] = [
        &["gpu.warps_per_core=32", "gpu.threads_per_warp=32"],
        &["gpu.warps_per_core=32", "core.dispatch_latency=4"],
        &["gpu.warps_per_core=8", "core.dispatch_latency=4"],
        &["gpu.warps_per_core=32", "core.operand_collectors=1"],
        &[
            "gpu.warps_per_core=32",
            "core.dispatch_latency=4",
            "core.slice_dispatch=false",
        ],
    ];
    // The first case is SimX's 1 x 1 x 32 x 32 build.
    let mut simx_machine = None;
    for case in cases {
        let overrides: Vec<String> = case.iter().map(|o| o.to_string()).collect();
        let (cfg, [dependent, independent, loop_turn, _, _], console) =
            pipeline("vortex", &overrides);
        simx_machine.get_or_insert((dependent, independent, loop_turn));
        let c = &cfg.core;
        let warps = cfg.gpu.warps_per_core;
        let turns = if c.slice_dispatch { c.slices(warps) } else { 1 };
        let chain = c.issue_to_unit(warps) + c.latency.alu + c.writeback_latency;
        let want = f64::from(chain.div_ceil(turns) * turns);
        eprintln!("{case:?}: dependent {dependent}, independent {independent}, loop {loop_turn}");
        assert_near("dependent add", dependent, want, 0.1, &console);
        assert_near(
            "independent add",
            independent,
            Stages::of(&cfg).fetch,
            0.1,
            &console,
        );
    }
    assert_eq!(
        simx_machine,
        Some((12.0, 8.0, 32.0)),
        "SimX's own figures on its 1 x 1 x 32 x 32 build"
    );
}

/// A unit holds `core.unit_queue` instructions from dispatch to commit (SimX: its output
/// channel's capacity, 2): four warps of independent fmadd.s (latency 10) get 2 per 10
/// cycles, 20 cycles per instruction and warp, where the front end alone would allow 8;
/// without the limit they run at the front end's rate. Integer adds (latency 2) are not
/// limited by it.
#[test]
fn unit_queues_bound_a_long_latency_unit() {
    // Between these, where the queue's rate nears the front end's, the two interfere (the
    // warps blocked at the unit fill their buffers and stop fetching): 3 gives 16.5, 4
    // gives 13.8, not the 13.3 and 10 of either bound alone.
    for queue in [1u32, 2, 0] {
        let (cfg, [_, _, _, fma, add], console) =
            pipeline("vortex", &[format!("core.unit_queue={queue}")]);
        let s = Stages::of(&cfg);
        let warps = f64::from(cfg.gpu.warps_per_core);
        let bound = |latency: u32| {
            if queue == 0 {
                warps
            } else {
                warps * f64::from(latency) / f64::from(queue)
            }
        };
        let lat = &cfg.core.latency;
        eprintln!("unit_queue {queue}: fmadd {fma}, add {add} per warp");
        let want_fma = s.fetch.max(warps).max(bound(lat.fpu_fma));
        assert_near("fmadd per warp", fma, want_fma, want_fma * 0.05, &console);
        let want_add = s.fetch.max(warps).max(bound(lat.alu));
        assert_near("add per warp", add, want_add, want_add * 0.05, &console);
    }
}

/// The LSU keeps at most `core.lsu_pending` loads in flight, each from its request to its
/// answer (an L1 hit: `l1d.hit_latency`), so four warps of independent hitting loads get
/// that many loads per hit latency: 4 x 8 / 2 = 16 cycles per load and warp on SimX's
/// machine (SimX runs ubench_loads in 36,448 cycles, wsim in 36,740 with the limit and
/// 24,119 without), 32 with one entry; the front end's 8 with enough entries or none.
#[test]
fn lsu_pending_loads_bound_the_loads_in_flight() {
    for pending in [1u32, 2, 4, 0] {
        let cfg = config("vortex", &[format!("core.lsu_pending={pending}")]);
        let b = bench("ubench_loads", &cfg, &[]);
        let per_load = b.cycles(0);
        let warps = f64::from(cfg.gpu.warps_per_core);
        let hold = f64::from(cfg.memory.l1d.hit_latency);
        let table = if pending == 0 {
            0.0
        } else {
            warps * hold / f64::from(pending)
        };
        let want = Stages::of(&cfg).fetch.max(table);
        eprintln!("lsu_pending {pending}: {per_load} cycles per load and warp");
        assert_near("load per warp", per_load, want, 0.1, &b.console);
    }
}

/// The front end of `configs/rtx.toml` fetches ahead through a line buffer: one warp's
/// independent instructions issue one per cycle (plus the instruction cache's hit latency
/// once per line), a dependent chain one per ALU latency, and the loop's branch costs its
/// latency and the refetch; with every warp running, the single fetch per cycle is shared.
#[test]
fn fetching_ahead_issues_one_instruction_per_cycle() {
    let (cfg, [dependent, independent, loop_turn, fma, add], console) =
        pipeline("rtx", &["gpu.warps_per_core=8".to_string()]);
    let s = Stages::of(&cfg);
    let lat = &cfg.core.latency;
    let (alu, branch) = (f64::from(lat.alu), f64::from(lat.branch));
    let per_line = f64::from(cfg.memory.l1i.line / 4);
    let line_refill = f64::from(cfg.memory.l1i.hit_latency) / per_line;
    assert_near(
        "dependent add",
        dependent,
        s.dispatch + alu + s.writeback,
        0.1,
        &console,
    );
    assert_near(
        "independent add",
        independent,
        1.0 + line_refill,
        0.05,
        &console,
    );
    let turn = 2.0 * s.dispatch + alu + s.writeback + branch + s.resume + s.fetch;
    assert_near("addi; bnez iteration", loop_turn, turn, 0.1, &console);
    let warps = f64::from(cfg.gpu.warps_per_core);
    for (what, figure) in [("fmadd per warp", fma), ("add per warp", add)] {
        assert_near(what, figure, warps, warps * 0.15, &console);
    }
}
