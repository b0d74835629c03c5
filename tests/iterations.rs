//! Iteration records (CSR 0x7C6): programs cut the run into iterations, and the report
//! gives each one's counters. programs/iterations.c marks four iterations of known work;
//! the graph programs mark their super-steps, checked against the host reference.

mod common;

use std::process::Command;

use common::{preset, program, root, run_ok};
use wsim_graph::{reference, Graph, LoadOptions};

const LOADS_PER_ROUND: u64 = 8;

#[test]
fn iteration_records_cut_the_run() {
    for config in [
        preset("tiny"),
        preset("tiny")
            .with_overrides(&["core.issue_slices=2".into(), "gpu.warps_per_core=8".into()])
            .unwrap(),
    ] {
        let (_, s) = run_ok("iterations", &config);
        let g = &config.gpu;
        let cores = u64::from(g.clusters * g.cores_per_cluster);
        let warps = cores * u64::from(g.warps_per_core);
        let threads = warps * u64::from(g.threads_per_warp);
        let it = &s.iterations;
        assert_eq!(
            it.iter().map(|i| (i.index, i.active)).collect::<Vec<_>>(),
            [(0, 1), (1, 11), (2, 21), (3, 31)]
        );
        for (k, i) in it.iter().enumerate() {
            // Every core is live throughout: core-cycles are cores x machine cycles.
            assert_eq!(i.counters.cycles, cores * i.cycles, "iteration {k}");
            assert_eq!(
                i.counters.slots.total(),
                i.counters.cycles * s.slices as u64
            );
            // (k + 1) rounds of loads of words no earlier iteration read: one line per
            // 16 threads per load at least misses and reaches DRAM.
            let lines = (k as u64 + 1) * LOADS_PER_ROUND * threads.div_ceil(16);
            assert!(
                i.memory.l1d.misses >= lines,
                "iteration {k}: {:?}",
                i.memory
            );
            assert!(
                i.memory.dram_reads >= lines,
                "iteration {k}: {:?}",
                i.memory
            );
        }
        // The records are back to back; the launch after wsim_iteration_end is in none.
        for pair in it.windows(2) {
            assert_eq!(pair[0].start_cycle + pair[0].cycles, pair[1].start_cycle);
            // One more round per warp; the launch's own work is the same each time.
            assert_eq!(
                pair[1].counters.loads - pair[0].counters.loads,
                LOADS_PER_ROUND * warps
            );
        }
        let last = it.last().unwrap();
        let total = s.total();
        assert!(it[0].start_cycle > 0 && last.start_cycle + last.cycles < s.cycles);
        let inside: u64 = it.iter().map(|i| i.counters.instructions).sum();
        assert!(inside < total.instructions);
        let dram: u64 = it.iter().map(|i| i.memory.dram_bytes).sum();
        assert!(dram < s.memory.dram.bytes);
    }
}

/// `wsim run --json` on a graph program; the JSON's iteration records as (active, cycles).
fn graph_iterations(name: &str, graph: &str, extra: &[&str]) -> Vec<(u64, u64)> {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let out = Command::new(env!("CARGO_BIN_EXE_wsim"))
        .args(["run", "-c"])
        .arg(root().join("configs/tiny.toml"))
        .args(["--graph", graph, "--json"])
        .arg(&json)
        .args(extra)
        .arg(program(name))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let records = report["iterations"].as_array().unwrap();
    for (k, r) in records.iter().enumerate() {
        assert_eq!(r["index"].as_u64(), Some(k as u64));
    }
    (records.iter())
        .map(|r| (r["active"].as_u64().unwrap(), r["cycles"].as_u64().unwrap()))
        .collect()
}

/// BFS's super-steps are its iterations: one per level, each reporting its frontier, so the
/// frontiers add up to the vertices the host reference reaches.
#[test]
fn graph_supersteps_are_iterations() {
    const GRAPH: &str = "gen:rmat:scale=8,ef=8";
    let g = Graph::from_spec(GRAPH, &LoadOptions::default()).unwrap();
    let levels = reference::bfs_levels(&g, 0);
    let reached: Vec<u32> = levels.iter().copied().filter(|&l| l != u32::MAX).collect();
    let depth = reached.iter().max().unwrap() + 1;
    for name in ["graph/bfs_vm_push", "graph/bfs_sparseweaver_pull"] {
        let it = graph_iterations(name, GRAPH, &[]);
        assert_eq!(it.len() as u32, depth, "{name}");
        for (level, &(active, cycles)) in it.iter().enumerate() {
            let frontier = reached.iter().filter(|&&l| l == level as u32).count();
            assert_eq!(active, frontier as u64, "{name}: level {level}");
            assert!(cycles > 0);
        }
    }
    let it = graph_iterations("graph/pr_vm_pull", GRAPH, &["--iterations", "3"]);
    assert_eq!(it.len(), 3);
    assert!(it
        .iter()
        .all(|&(active, _)| active == u64::from(g.num_vertices())));
}
