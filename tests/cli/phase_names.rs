//! Names, not numbers: a program's `wsim_phase_names` in the report and the JSON (phases
//! it does not name by number), and the Weaver FSM's states with what each does.

use crate::common;

use serde_json::{json, Value};

/// `wsim run` on tiny: the terminal report and the JSON statistics.
fn run(name: &str, options: &[&str]) -> (String, Value) {
    let (out, stats) = common::run_cli(name, options);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stats.unwrap(),
    )
}

#[test]
fn named_phases_in_the_report_and_the_json() {
    let (report, stats) = run("phase_names", &[]);
    assert_eq!(
        stats["phase_names"],
        json!({"0": "setup", "1": "count", "2": "prefix"})
    );
    let phases: Vec<&String> = stats["phases"].as_object().unwrap().keys().collect();
    assert_eq!(phases, ["0", "1", "2", "5"]);
    let lines: Vec<&str> = (report.lines())
        .filter(|l| l.starts_with("  phase "))
        .map(|l| l.split("  ").nth(1).unwrap().trim())
        .collect();
    // Phase 5 has no name: its number alone; the phases' section and the issue slots by
    // phase name them alike.
    let named = [
        "phase 0 setup",
        "phase 1 count",
        "phase 2 prefix",
        "phase 5",
    ];
    assert_eq!(lines, [named, named].concat(), "{report}");
}

#[test]
fn a_program_without_names_keeps_numbers() {
    let (report, stats) = run("vecadd", &[]);
    assert_eq!(stats["phase_names"], json!({}));
    assert!(report.contains("  phase 1  "), "{report}");
}

#[test]
fn weaver_fsm_states_say_what_they_do() {
    let (report, stats) = run(
        "graph/bfs_sparseweaver_push",
        &["--graph", "gen:rmat:scale=6"],
    );
    let legend = &stats["weaver_fsm_states"];
    assert_eq!(legend["S0"], "registering");
    assert_eq!(legend["S6"], "wait for request");
    let cycles = stats["total"]["weaver"]["state_cycles"]
        .as_object()
        .unwrap();
    assert_eq!(
        cycles.keys().collect::<Vec<_>>(),
        legend.as_object().unwrap().keys().collect::<Vec<_>>()
    );
    let s8 = report
        .lines()
        .find(|l| l.trim_start().starts_with("S8 finished"))
        .unwrap();
    let count: u64 = s8.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert_eq!(count, cycles["S8"].as_u64().unwrap(), "{s8}");
}
