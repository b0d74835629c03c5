//! `wsim sweep`: one row per (program, combination), in order, equal to single runs.

mod common;

use std::process::Command;

use common::{preset, program, run_ok};

fn wsim(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_wsim"))
        .args(args)
        .output()
        .expect("wsim runs")
}

#[test]
fn rows_match_single_runs_in_order() {
    let config = common::root().join("configs/tiny.toml");
    let hello = program("hello");
    let out = wsim(&[
        "sweep",
        "--config",
        config.to_str().unwrap(),
        "--vary",
        "memory.dram.clock_ratio=1,3",
        "--csv",
        hello.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "program,memory.dram.clock_ratio,exit,verified,cycles,warp_instructions,ipc,weaver_stall_pct"
    );
    assert_eq!(lines.len(), 3, "{text}");
    for (line, ratio) in lines[1..].iter().zip([1, 3]) {
        let c = preset("tiny")
            .with_overrides(&[format!("memory.dram.clock_ratio={ratio}")])
            .unwrap();
        let (_, s) = run_ok("hello", &c);
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(
            fields[..5],
            ["hello", &ratio.to_string(), "0", "-", &s.cycles.to_string()]
        );
    }
}

#[test]
fn a_bad_value_is_an_error_before_anything_runs() {
    let out = wsim(&[
        "sweep",
        "--vary",
        "gpu.threads_per_warp=4,64",
        program("hello").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("gpu.threads_per_warp = 64"), "{err}");
}

#[test]
fn a_failed_run_fails_the_sweep_after_the_table() {
    let config = common::root().join("configs/tiny.toml");
    // 20,000 cycles are enough for hello (about 5k on tiny), not for vecadd (about 34k).
    let out = wsim(&[
        "sweep",
        "--config",
        config.to_str().unwrap(),
        "--set",
        "run.max_cycles=20000",
        "--csv",
        program("hello").to_str().unwrap(),
        program("vecadd").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[1].starts_with("hello,0,-,"), "{text}");
    assert_eq!(
        lines[2], "vecadd,error,run exceeded run.max_cycles = 20000",
        "{text}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1 run(s) did not succeed:\n  vecadd: run exceeded run.max_cycles"),
        "{err}"
    );
}
