//! The JSON report (`wsim-stats/1`) is a typed document both ways: what `wsim run --json`
//! writes reads back into `Report<GraphRun>` and writes the same bytes again, for a plain
//! kernel, graph and GCN programs, a program with iterations and phases, a failed run, and
//! a profiled run with launch records.

mod common;

use wsim_sim::report::Report;
use wsim_workloads::record::GraphRun;

fn round_trip(name: &str, options: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    std::process::Command::new(env!("CARGO_BIN_EXE_wsim"))
        .args(["run", "--config"])
        .arg(common::root().join("configs/tiny.toml"))
        .arg("--json")
        .arg(&json)
        .args(options)
        .arg(common::program(name))
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&json).unwrap();
    let report: Report<GraphRun> =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(report.to_json(), text, "{name}: the report reads back");
}

#[test]
fn reports_read_back_into_the_same_bytes() {
    round_trip("vecadd", &[]);
    round_trip("iterations", &[]);
    round_trip("mem_phases", &[]);
    round_trip("graph/pr_sparseweaver_pull", &[]);
    round_trip("graph/bfs_eghw_push", &["--graph", "gen:rmat:scale=6,ef=4"]);
    round_trip("gcn/gcn_tlpgnn", &["--features", "16"]);
    round_trip("errors/misaligned", &[]);
    round_trip("launches", &["--profile-pc"]);
}
