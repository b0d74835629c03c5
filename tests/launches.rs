//! Launch records: each kernel launch (`vx_wspawn` on the cores, overlapping launches of
//! one `wsim_spawn` making one record) is a row of the report with its counters.
//! programs/launches.c launches 40 kernels over every hardware thread.

mod common;

use common::{preset, run_cli, run_ok};

/// launches.c's `LAUNCHES`.
const LAUNCHES: usize = 40;

#[test]
fn each_wsim_spawn_is_one_launch_record_with_its_counters() {
    for config in [
        preset("tiny"),
        preset("sparseweaver"),
        preset("tiny")
            .with_overrides(&["gpu.warps_per_core=8".into(), "core.issue_slices=2".into()])
            .unwrap(),
    ] {
        let (_, s) = run_ok("launches", &config);
        let g = &config.gpu;
        let cores = u64::from(g.clusters * g.cores_per_cluster);
        let l = &s.launches;
        assert_eq!(l.len(), LAUNCHES, "{}", config.hash());
        for (k, r) in l.iter().enumerate() {
            assert_eq!(r.index as usize, k);
            // Every core runs (and counts) every cycle of the launch.
            assert_eq!(r.counters.cycles, cores * r.cycles, "launch {k}");
            assert_eq!(
                r.counters.slots.total(),
                r.counters.cycles * s.slices as u64
            );
            assert!(r.counters.instructions > 0 && r.memory.l1d.accesses > 0);
        }
        // In order and apart: main's code between launches is in none.
        for pair in l.windows(2) {
            assert!(pair[0].start_cycle + pair[0].cycles < pair[1].start_cycle);
        }
        // wsim_spawn starts warps 1.. on every core: one vx_wspawn each, which the
        // record follows (it opens at the end of the spawn's cycle).
        let spawned = cores * u64::from(g.warps_per_core - 1) * LAUNCHES as u64;
        assert_eq!(s.total().warps_spawned, spawned);
        let inside: u64 = l.iter().map(|r| r.counters.instructions).sum();
        let total = s.total().instructions;
        assert!(inside < total && inside * 2 > total, "{inside} of {total}");
        let last = l.last().unwrap();
        assert!(last.start_cycle + last.cycles < s.cycles);
    }
}

#[test]
fn one_warp_per_core_spawns_nothing_and_records_no_launch() {
    let config = preset("tiny")
        .with_overrides(&["gpu.warps_per_core=1".into()])
        .unwrap();
    let (_, s) = run_ok("launches", &config);
    assert!(s.launches.is_empty());
}

#[test]
fn the_report_folds_many_launches_and_the_json_has_each() {
    let (out, stats) = run_cli("launches", &[]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("launches ({LAUNCHES}, ")), "{text}");
    assert!(
        text.contains(&format!(
            "  ... {} more (the JSON's `launches` has each)",
            LAUNCHES - 11
        )),
        "{text}"
    );
    let stats = stats.unwrap();
    let rows = stats["launches"].as_array().unwrap();
    assert_eq!(rows.len(), LAUNCHES);
    assert!(rows[3]["counters"]["slots"]["issued"].as_u64().unwrap() > 0);
}
