//! Every program in programs/ runs to completion with its expected exit status, on the
//! tiny configuration and on the dissertation's (one cluster of two sockets of 3 cores,
//! 32 warps x 32 threads). The programs check their own results and name the first
//! failing check in their exit status.

mod common;

use common::{
    graph_manifest, preset, root, run, run_ok, GCN_KERNELS, ISA_TESTS, KERNELS, RV_TESTS,
};
use wsim_sim::config::StartCores;
use wsim_sim::mem::hierarchy::HierarchyStats;
use wsim_sim::report::Report;
use wsim_sim::stats::SlotReason;

/// Timing-model microbenchmarks: tests/microbench.rs runs them (ubench_eghw: tests/weaver.rs).
const MICROBENCHMARKS: &[&str] = &[
    "ubench_chase",
    "ubench_stride",
    "ubench_shared",
    "ubench_stream",
    "ubench_store",
    "ubench_atomic",
    "ubench_atomic_l2",
    "ubench_socket",
    "ubench_eghw",
    "ubench_eghw_batch",
    "ubench_pipeline",
    "ubench_loads",
];

/// Programs that must fail in a particular way: tests/cli/errors.rs runs them.
const ERROR_PROGRAMS: &[&str] = &[
    "errors/illegal",
    "errors/misaligned",
    "errors/null",
    "errors/unmapped",
    "errors/deadlock",
    "errors/forever",
    "errors/ecall",
    "errors/weaver_overflow",
    "errors/weaver_dec_loc",
    "errors/weaver_in_flight",
    "errors/exit_status",
    "errors/iteration_flood",
    "errors/phase_flood",
    "errors/launch_flood",
    "errors/stack_overflow",
    "errors/skip_flood",
    "errors/split_flood",
    "errors/spawn_misaligned",
    "errors/jump_bss",
];

/// Kernels that need a graph written into their memory: tests/weaver.rs runs them.
const GRAPH_INPUT: &[&str] = &["weaver_edge_sum", "eghw_edge_sum"];

fn single_core(name: &str) -> wsim_sim::Config {
    let mut c = preset(name);
    c.run.start = StartCores::FirstCore;
    c
}

#[test]
fn every_kernel_checks_itself_on_tiny() {
    for p in KERNELS {
        run_ok(p, &preset("tiny"));
    }
}

#[test]
fn every_kernel_checks_itself_on_sparseweaver() {
    for p in KERNELS {
        run_ok(p, &preset("sparseweaver"));
    }
}

#[test]
fn the_isa_self_tests_pass_on_one_core() {
    for cfg in ["tiny", "sparseweaver"] {
        for p in ISA_TESTS.iter().chain(RV_TESTS) {
            run_ok(p, &single_core(cfg));
        }
    }
}

#[test]
fn every_built_program_is_tested() {
    // Graph programs: tests/graph_kernels.rs runs every one the manifest lists; GCN
    // programs: tests/gcn.rs.
    let graph: Vec<String> = graph_manifest()
        .into_iter()
        .map(|p| p.name)
        .chain(GCN_KERNELS.iter().map(|k| format!("gcn/gcn_{k}")))
        .collect();
    let listed: Vec<&str> = KERNELS
        .iter()
        .chain(ISA_TESTS)
        .chain(RV_TESTS)
        .chain(ERROR_PROGRAMS)
        .chain(MICROBENCHMARKS)
        .chain(GRAPH_INPUT)
        .copied()
        .chain(graph.iter().map(String::as_str))
        .collect();
    for name in common::built_programs() {
        assert!(
            listed.contains(&name.as_str()),
            "{name}.elf is built but no test runs it: add it to a list above (KERNELS, ...) \
             and to baselines/project.toml (docs/REGRESS.md); a program of your own that the \
             project's tests should not run goes in programs/user/"
        );
    }
}

/// The graph manifest lists every schedule and algorithm header of programs/graph (a new
/// one left out of the Makefile's lists would be neither built nor tested), each in both
/// directions and both forms, VM pull also without atomics, and nothing else.
#[test]
fn the_graph_manifest_covers_every_schedule_and_algorithm() {
    let headers = |dir: &str| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(root().join("programs/graph").join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "h"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let manifest = graph_manifest();
    let listed = |field: fn(&common::GraphProgram) -> &String| -> Vec<String> {
        let mut v: Vec<String> = manifest.iter().map(|p| field(p).clone()).collect();
        v.sort();
        v.dedup();
        v
    };
    assert_eq!(listed(|p| &p.schedule), headers("sched"));
    assert_eq!(listed(|p| &p.algorithm), headers("algo"));
    let mut expected = Vec::new();
    for s in headers("sched") {
        for a in headers("algo") {
            for d in ["push", "pull"] {
                expected.push(format!("graph/{a}_{s}_{d}"));
                expected.push(format!("graph/{a}_{s}_{d}_tuned"));
            }
            if s == "vm" {
                expected.push(format!("graph/{a}_vm_pull_atomicfree"));
            }
        }
    }
    expected.sort();
    let mut names: Vec<String> = manifest.iter().map(|p| p.name.clone()).collect();
    names.sort();
    assert_eq!(names, expected);
    for p in &manifest {
        let suffix = match p.form.as_str() {
            "dissertation" => String::new(),
            form => format!("_{form}"),
        };
        let name = format!(
            "graph/{}_{}_{}{suffix}",
            p.algorithm, p.schedule, p.direction
        );
        assert_eq!(p.name, name, "the manifest's fields name the program");
        assert!(
            common::program(&p.name[..]).exists(),
            "{} is not built",
            p.name
        );
    }
}

#[test]
fn divergence_is_visible_in_the_statistics() {
    let (_, summary) = run_ok("simt_divergence", &preset("tiny"));
    let total = summary.total();
    assert!(total.divergent_branches > 0);
    let depth = summary.max_stack_depth();
    assert!(depth >= 3, "nested divergence: depth {depth}");
    assert!(total.thread_instructions < total.instructions * 4);
}

/// Every issue slot of every core in every cycle has exactly one reason.
fn check_accounting(name: &str, summary: &wsim_sim::RunSummary) {
    for (id, core) in summary.cores.iter().enumerate() {
        let t = core.total();
        assert_eq!(t.cycles, summary.cycles, "{name}: core {id} cycles");
        assert_eq!(
            t.slots.total(),
            summary.cycles * summary.slices as u64,
            "{name}: core {id}: slot reasons must sum to cycles x slots"
        );
        assert_eq!(
            t.slots.get(SlotReason::Issued),
            t.instructions,
            "{name}: core {id}"
        );
    }
}

#[test]
fn every_issue_slot_is_accounted_for() {
    for cfg in ["tiny", "sparseweaver"] {
        for p in KERNELS {
            let (_, summary) = run_ok(p, &preset(cfg));
            check_accounting(p, &summary);
        }
        for p in ISA_TESTS.iter().chain(RV_TESTS) {
            let (_, summary) = run_ok(p, &single_core(cfg));
            check_accounting(p, &summary);
        }
    }
}

/// Warp time by phase is each warp's own: with one warp per core it is exactly the core's
/// time in each phase while the warp lives; spawned warps inherit their spawner's phase, so
/// with several warps phase 1 (the streaming launch) holds more warp time than core time.
#[test]
fn warp_time_by_phase() {
    let one = preset("tiny")
        .with_overrides(&["gpu.warps_per_core=1".into()])
        .unwrap();
    let (_, s) = run_ok("mem_phases", &one);
    let core0 = &s.cores[0].phases;
    assert_eq!(core0.keys().copied().collect::<Vec<_>>(), [0, 1, 2]);
    for (phase, c) in core0 {
        assert_eq!(c.warp_cycles, c.cycles, "phase {phase}");
    }
    let config = preset("tiny");
    let (_, s) = run_ok("mem_phases", &config);
    let warps = u64::from(config.gpu.warps_per_core);
    for core in &s.cores {
        let streaming = &core.phases[&1];
        assert!(streaming.warp_cycles > streaming.cycles, "{streaming:?}");
        let total = core.total();
        assert!(total.warp_cycles <= warps * total.cycles);
    }
}

/// mem_phases streams through a cold array in phase 1 (4096 lines, one load each) and
/// re-reads a table its L1s already hold in phase 2: the cache and DRAM statistics of each
/// phase show it, and the phases add up to the whole run.
#[test]
fn memory_statistics_split_by_phase() {
    let config = preset("tiny");
    let (_, summary) = run_ok("mem_phases", &config);
    let m = &summary.memory;
    assert_eq!(m.phases.keys().copied().collect::<Vec<_>>(), [0, 1, 2]);
    // (accesses, hits, misses) of the L1 data caches.
    let l1d = |s: &HierarchyStats| {
        s.l1d.iter().fold((0, 0, 0), |(a, h, m), c| {
            (a + c.accesses, h + c.hits, m + c.misses)
        })
    };
    let dram = |s: &HierarchyStats| {
        let d = &s.dram;
        [
            d.reads,
            d.writes,
            d.bytes,
            d.row_hits,
            d.completed,
            d.queue_occupancy_sum,
        ]
    };
    let (mut l1d_sum, mut dram_sum) = ((0, 0, 0), [0; 6]);
    for p in m.phases.values() {
        let (a, h, miss) = l1d(p);
        l1d_sum = (l1d_sum.0 + a, l1d_sum.1 + h, l1d_sum.2 + miss);
        for (sum, n) in dram_sum.iter_mut().zip(dram(p)) {
            *sum += n;
        }
    }
    assert_eq!(l1d_sum, l1d(m), "L1D: the phases sum to the totals");
    assert_eq!(dram_sum, dram(m), "DRAM: the phases sum to the totals");

    let (stream, reuse) = (&m.phases[&1], &m.phases[&2]);
    let lines = 4096;
    let (accesses, hits, misses) = l1d(stream);
    assert!(misses >= lines, "phase 1: {misses} L1D misses");
    assert!(
        hits * 10 < accesses,
        "phase 1: {hits} L1D hits of {accesses}"
    );
    // Each line once from DRAM, and little else (the kernel's code).
    let reads = stream.dram.reads;
    assert!(
        (lines..lines + 16).contains(&reads),
        "phase 1: {reads} DRAM reads"
    );
    let (accesses, hits, _) = l1d(reuse);
    assert!(
        hits * 100 > accesses * 95,
        "phase 2: {hits} L1D hits of {accesses}"
    );
    assert!(
        reuse.dram.reads < 16,
        "phase 2: {} DRAM reads",
        reuse.dram.reads
    );
    assert!(reuse.dram.bytes * 20 < stream.dram.bytes);

    let json = Report::new(&config, "mem_phases", &summary, None).to_json();
    assert!(
        json.contains("\"memory_phases\": {\n    \"0\": {"),
        "{json}"
    );
}

#[test]
fn json_statistics_are_byte_identical() {
    let config = preset("tiny");
    let json = || {
        let (_, summary) = run_ok("simt_divergence", &config);
        Report::new(&config, "simt_divergence", &summary, None).to_json()
    };
    let first = json();
    assert_eq!(first, json());
    assert!(first.contains("\"schema\": \"wsim-stats/1\""));
    assert!(
        first.contains("\"scoreboard_memory\""),
        "slot reasons are in the JSON"
    );
}

#[test]
fn runs_are_deterministic() {
    for p in ["simt_divergence", "atomics"] {
        let (m1, r1) = run(p, &preset("tiny"));
        let (m2, r2) = run(p, &preset("tiny"));
        assert_eq!(r1, r2, "{p}: summaries differ");
        let pages1: Vec<_> = m1.memory().pages().collect();
        let pages2: Vec<_> = m2.memory().pages().collect();
        assert!(pages1 == pages2, "{p}: final memory differs");
        for core in 0.. {
            let Some(local) = m1.local_memory(core) else {
                break;
            };
            assert!(
                Some(local) == m2.local_memory(core),
                "{p}: local memory of core {core} differs"
            );
        }
    }
}

/// Back-pressure bounds the way to DRAM (sim/src/mem/hierarchy/credits.rs): nothing waits
/// in front of the DRAM queues, and the contended spin lock of programs/atomics.c, whose
/// atomics write through the L2 to DRAM, completes at every warp count: credits are granted
/// in order, so the cores spinning on the lock cannot starve the one that releases it.
fn atomics_complete_at_every_warp_count(preset_name: &str) {
    for warps in 1..=32 {
        let config = preset(preset_name)
            .with_overrides(&[format!("gpu.warps_per_core={warps}")])
            .unwrap();
        let (_, summary) = run_ok("atomics", &config);
        let m = &summary.memory;
        assert_eq!(m.dram_backlog_peak, 0, "{preset_name}, {warps} warps");
        assert!(m.phases.values().all(|p| p.dram_backlog_peak == 0));
        if warps == 32 {
            let json = Report::new(&config, "atomics", &summary, None).to_json();
            assert!(json.contains("\"dram_backlog_peak\": 0"), "{json}");
        }
    }
}

#[test]
fn atomics_complete_at_every_warp_count_on_tiny() {
    atomics_complete_at_every_warp_count("tiny");
}

/// On the two-cluster layout with private L1s. The socket layout (configs/sparseweaver.toml)
/// is not fair among a socket's cores yet: with 5 warps a core spinning on atomics.c's lock
/// takes every credit of its socket's link freed one at a time, ahead of the lock holder in
/// the same socket (docs/CONFIG.md, "Sockets").
#[test]
fn atomics_complete_at_every_warp_count_on_sparseweaver_clusters() {
    atomics_complete_at_every_warp_count("sparseweaver-clusters");
}

/// A write-back L2 keeps the atomics' writes: none reaches DRAM.
#[test]
fn a_write_back_l2_keeps_the_atomic_writes() {
    let back = preset("sparseweaver")
        .with_overrides(&["memory.l2.write_policy=write-back".to_string()])
        .unwrap();
    let (_, summary) = run_ok("atomics", &back);
    assert_eq!(summary.memory.dram.writes, 0);
    assert_eq!(summary.memory.dram_unfinished, 0);
}
