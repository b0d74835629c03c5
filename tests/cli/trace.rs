//! `wsim run --trace`: the timeline as a Chrome trace (JSON trace event format) that
//! parses, with a track per core (and per warp when asked), slices in time order within
//! the run, phases that tile each core's time, and a bounded number of samples.

use crate::common;

use std::collections::BTreeMap;
use std::process::Command;

use common::program;
use serde_json::Value;

/// Run `name` on tiny with the options, returning the trace and the JSON statistics.
fn traced(name: &str, options: &[&str]) -> (Value, Value) {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace.json");
    let options = [&["--trace", trace.to_str().unwrap()], options].concat();
    let (out, stats) = common::run_cli(name, &options);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&trace).unwrap();
    (serde_json::from_str(&text).unwrap(), stats.unwrap())
}

fn events<'a>(trace: &'a Value, ph: &str) -> Vec<&'a Value> {
    (trace["traceEvents"].as_array().unwrap().iter())
        .filter(|e| e["ph"] == ph)
        .collect()
}

/// (pid, tid) -> the track's name.
fn tracks(trace: &Value) -> BTreeMap<(u64, u64), String> {
    events(trace, "M")
        .into_iter()
        .filter(|e| e["name"] == "thread_name")
        .map(|e| {
            let key = (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap());
            (key, e["args"]["name"].as_str().unwrap().to_string())
        })
        .collect()
}

/// Every slice lies within the run and follows the one before on its track.
fn check_slices(trace: &Value, cycles: u64) {
    let mut last: BTreeMap<(u64, u64), u64> = BTreeMap::new();
    for e in events(trace, "X") {
        let (ts, dur) = (e["ts"].as_u64().unwrap(), e["dur"].as_u64().unwrap());
        assert!(dur > 0 && ts + dur <= cycles, "{e} in {cycles} cycles");
        let key = (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap());
        let before = last.insert(key, ts).unwrap_or(0);
        assert!(ts >= before, "{e} starts before the slice before it");
    }
}

#[test]
fn a_graph_run_has_core_and_warp_tracks_in_time_order() {
    let (trace, stats) = traced(
        "graph/bfs_sparseweaver_pull",
        &[
            "--graph",
            "gen:rmat:scale=7",
            "--trace-warps",
            "--trace-interval",
            "500",
        ],
    );
    let cycles = stats["cycles"].as_u64().unwrap();
    assert_eq!(trace["otherData"]["cycles"], cycles);
    check_slices(&trace, cycles);
    // The machine, then a process per core with its phases and a track per warp.
    let processes: Vec<&str> = (events(&trace, "M").into_iter())
        .filter(|e| e["name"] == "process_name")
        .map(|e| e["args"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        processes,
        [
            "machine (time in cycles: 1 us = 1 cycle)",
            "core 0",
            "core 1"
        ]
    );
    // Time is in cycles, said so; no displayTimeUnit (ms or ns would scale cycles by 1000).
    assert!(trace.get("displayTimeUnit").is_none());
    assert!(trace["otherData"]["time_unit"]
        .as_str()
        .unwrap()
        .starts_with("cycles"));
    let tracks = tracks(&trace);
    assert_eq!(tracks[&(0, 0)], "iterations");
    for core in 1..=2 {
        assert_eq!(tracks[&(core, 0)], "phases");
        for warp in 0..4 {
            assert_eq!(tracks[&(core, warp + 1)], format!("warp {warp}"));
        }
    }
    // One slice per iteration of the statistics, where they say.
    let iterations: Vec<(u64, u64)> = (events(&trace, "X").into_iter())
        .filter(|e| e["pid"] == 0)
        .map(|e| (e["ts"].as_u64().unwrap(), e["dur"].as_u64().unwrap()))
        .collect();
    let recorded: Vec<(u64, u64)> = (stats["iterations"].as_array().unwrap().iter())
        .map(|i| {
            (
                i["start_cycle"].as_u64().unwrap(),
                i["cycles"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(iterations, recorded);
    // Each core's phases tile the run.
    for core in 1..=2u64 {
        let mut at = 0;
        for e in events(&trace, "X") {
            if e["pid"] == core && e["tid"] == 0 {
                assert_eq!(e["ts"], at, "{e}");
                at += e["dur"].as_u64().unwrap();
            }
        }
        assert_eq!(at, cycles, "core {core}'s phases");
    }
    let names: Vec<&str> = (events(&trace, "X").into_iter())
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    for kind in ["live", "barrier 0x0", "barrier 0x80000001", "Weaver decode"] {
        assert!(names.contains(&kind), "no {kind} slice");
    }
    // Counters: strictly later samples on each counter track, rates within bounds.
    let mut counters: BTreeMap<(u64, String), Vec<f64>> = BTreeMap::new();
    let mut last: BTreeMap<(u64, String), u64> = BTreeMap::new();
    for e in events(&trace, "C") {
        let key = (
            e["pid"].as_u64().unwrap(),
            e["name"].as_str().unwrap().to_string(),
        );
        let ts = e["ts"].as_u64().unwrap();
        if let Some(before) = last.insert(key.clone(), ts) {
            assert!(ts > before, "{e}");
        }
        counters
            .entry(key)
            .or_default()
            .push(e["args"]["value"].as_f64().unwrap());
    }
    let ipc = &counters[&(0, "IPC".to_string())];
    // A sample per 500 cycles, or per longer stretch where the machine skipped idle cycles.
    let samples = ipc.len() as u64;
    assert!(
        (cycles / 1000..=cycles.div_ceil(500)).contains(&samples),
        "{samples}"
    );
    assert!(
        ipc.iter().all(|&v| (0.0..=2.0).contains(&v)),
        "two cores issue one each"
    );
    assert!(counters[&(0, "DRAM bytes/cycle".to_string())]
        .iter()
        .any(|&v| v > 0.0));
    for name in ["IPC", "barrier wait % of slots", "Weaver wait % of slots"] {
        let values = &counters[&(1, name.to_string())];
        assert_eq!(values.len(), ipc.len(), "{name}");
        assert!(values.iter().all(|&v| (0.0..=100.0).contains(&v)), "{name}");
    }
    assert!(counters[&(1, "Weaver wait % of slots".to_string())]
        .iter()
        .any(|&v| v > 0.0));
}

#[test]
fn without_warps_only_cores_and_samples_stay_bounded() {
    // A sample every cycle would be ~30,000: the interval doubles to keep at most 2048.
    let (trace, stats) = traced("vecadd", &["--trace-interval", "1"]);
    let cycles = stats["cycles"].as_u64().unwrap();
    check_slices(&trace, cycles);
    assert!(tracks(&trace).values().all(|t| !t.starts_with("warp")));
    let interval = trace["otherData"]["sample_interval_cycles"]
        .as_u64()
        .unwrap();
    assert!(interval.is_power_of_two() && interval >= 16, "{interval}");
    let samples = events(&trace, "C")
        .iter()
        .filter(|e| e["pid"] == 0 && e["name"] == "IPC")
        .count();
    assert!((1024..=2048).contains(&samples), "{samples} samples");
    // vecadd's phases 0 and 1, by number: it names none.
    let phases: Vec<&str> = (events(&trace, "X").into_iter())
        .filter(|e| e["pid"] == 1)
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(phases, ["phase 0", "phase 1", "phase 0"]);
    // vecadd marks no iterations and its machine has no Weaver unit: no track and no
    // counter of either.
    assert!(!tracks(&trace).contains_key(&(0, 0)), "no iterations track");
    assert!(events(&trace, "C")
        .iter()
        .all(|e| e["name"] != "Weaver wait % of slots"));
    assert!(events(&trace, "C")
        .iter()
        .any(|e| e["name"] == "barrier wait % of slots"));
}

#[test]
fn trace_options_need_a_trace() {
    let out = Command::new(env!("CARGO_BIN_EXE_wsim"))
        .args(["run", "--trace-warps", program("vecadd").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--trace <FILE>"));
}
