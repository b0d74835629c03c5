//! `wsim sweep`: one row per (program, combination), equal to single runs, printed as each
//! run finishes (or in order with `--ordered`), as a table, CSV or JSON lines; error rows
//! keep the header's columns.

use crate::common;

use std::process::Command;

use common::{csv_rows as rows, preset, program, run_ok, wsim};

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
        "--ordered",
        hello.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(
            "program,memory.dram.clock_ratio,graph,config_hash,wsim_version,algorithm,schedule,"
        ),
        "{text}"
    );
    let rows = rows(&text);
    assert_eq!(rows.len(), 2, "{text}");
    for (row, ratio) in rows.iter().zip([1, 3]) {
        let c = preset("tiny")
            .with_overrides(&[format!("memory.dram.clock_ratio={ratio}")])
            .unwrap();
        let (_, s) = run_ok("hello", &c);
        assert_eq!(row["program"], "hello");
        assert_eq!(row["memory.dram.clock_ratio"], ratio.to_string());
        assert_eq!(row["config_hash"], c.hash());
        assert_eq!((row["exit"].as_str(), row["verified"].as_str()), ("0", "-"));
        assert_eq!(row["cycles"], s.cycles.to_string());
        assert_eq!(row["dram_bytes"], s.memory.dram.bytes.to_string());
        assert_eq!((row["verdict"].as_str(), row["error"].as_str()), ("ok", ""));
    }
}

#[test]
fn rows_stream_as_runs_finish() {
    // One run at a time, in order: BFS's row must be out while the long PageRank runs.
    let config = common::root().join("configs/sparseweaver.toml");
    let pagerank = common::programs_dir().join("graph/pr_vm_pull.elf");
    let mut child = Command::new(env!("CARGO_BIN_EXE_wsim"))
        .args([
            "sweep",
            "--csv",
            "--ordered",
            "-c",
            config.to_str().unwrap(),
        ])
        .args(["--graph", "gen:rmat:scale=11,ef=16"])
        .arg(common::programs_dir().join("graph/bfs_vm_push.elf"))
        .arg(&pagerank)
        .env("RAYON_NUM_THREADS", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().unwrap()));
    let header = lines.next().unwrap().unwrap();
    assert!(header.starts_with("program,graph,"), "{header}");
    let first = lines.next().unwrap().unwrap();
    assert!(first.starts_with("bfs_vm_push,"), "{first}");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the sweep is still running PageRank when BFS's row is out"
    );
    let second = lines.next().unwrap().unwrap();
    assert!(
        second.starts_with("pr_vm_pull,\"gen:rmat:scale=11,ef=16\","),
        "{second}"
    );
    assert!(second.contains(",0,yes,"), "{second}");
    assert!(child.wait().unwrap().success());
}

#[test]
fn json_lines_have_the_csv_columns_typed() {
    let config = common::root().join("configs/tiny.toml");
    let args = |format: &str| {
        wsim(&[
            "sweep",
            "-c",
            config.to_str().unwrap(),
            "--ordered",
            format,
            "--vary",
            "gpu.warps_per_core=2,4",
            program("vecadd").to_str().unwrap(),
        ])
    };
    let json = String::from_utf8(args("--json").stdout).unwrap();
    let csv = String::from_utf8(args("--csv").stdout).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let objects: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 2);
    for (object, row) in objects.iter().zip(rows(&csv)) {
        let keys: Vec<&str> = object
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut sorted = header.clone();
        sorted.sort_unstable();
        assert_eq!(keys, sorted, "the CSV's columns");
        assert_eq!(
            object["cycles"].as_u64().unwrap().to_string(),
            row["cycles"]
        );
        assert_eq!(object["program"], "vecadd");
        assert!(object["graph"].is_null() && object["ipc"].is_f64());
    }
    // Keys come in column order on the line itself.
    let first = json.lines().next().unwrap();
    assert!(
        first.starts_with("{\"program\":\"vecadd\",\"gpu.warps_per_core\":2,\"graph\":null,"),
        "{first}"
    );
}

#[test]
fn a_key_varied_twice_is_an_error() {
    let out = wsim(&[
        "sweep",
        "--vary",
        "memory.dram.clock_ratio=1,2",
        "--vary",
        "memory.dram.clock_ratio=3",
        program("hello").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`memory.dram.clock_ratio` is varied twice"),
        "{err}"
    );
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
    let mut rows = rows(&text);
    assert_eq!(rows.len(), 2, "{text}");
    rows.sort_by(|a, b| a["program"].cmp(&b["program"]));
    assert_eq!(rows[0]["verdict"], "ok");
    let failed = &rows[1];
    assert_eq!(failed["program"], "vecadd");
    assert_eq!(failed["verdict"], "failed");
    assert_eq!(failed["error"], "run exceeded run.max_cycles = 20000");
    assert_eq!(
        failed["cycles"], "20000",
        "the statistics up to the failure"
    );
    assert_eq!(failed["exit"], "", "the program did not exit");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1 run(s) did not succeed:\n  vecadd: run exceeded run.max_cycles"),
        "{err}"
    );
}

#[test]
fn a_sweep_has_an_experiment_tables_columns() {
    // A graph program names phases 0-6, as the committed experiment table's runs do.
    let config = common::root().join("configs/sparseweaver.toml");
    let out = wsim(&[
        "sweep",
        "-c",
        config.to_str().unwrap(),
        "--graph",
        "gen:rmat:scale=5,ef=4",
        "--vary",
        "weaver.table_latency=10",
        "--csv",
        common::programs_dir()
            .join("graph/pr_sparseweaver_pull.elf")
            .to_str()
            .unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let registry = |header: &str| -> Vec<String> {
        header
            .split(',')
            .filter(|c| wsim_harness::stats::Stat::parse(c).is_some())
            .map(String::from)
            .collect()
    };
    let experiment =
        std::fs::read_to_string(common::root().join("docs/results/dissertation/fig4_11/quick.csv"))
            .unwrap();
    let sweep = registry(text.lines().next().unwrap());
    assert_eq!(sweep, registry(experiment.lines().next().unwrap()));
    assert!(sweep.len() > 60, "{sweep:?}");
    let row = &rows(&text)[0];
    assert_eq!(row["schedule"], "SparseWeaver");
    assert_eq!(
        row["phase_names"],
        "0=runtime 1=init 2=registration 3=work_id 4=edge_access 5=gather_sum 6=apply"
    );
    assert_ne!(row["phase_3_warp_cycles"], "0", "{row:?}");
    assert_ne!(row["slots_weaver"], "", "{row:?}");
}

#[test]
fn jobs_sets_how_many_runs_go_at_once() {
    // One at a time, rows come in the runs' order without --ordered: the long PageRank's
    // before the short BFS's (two at once, BFS finishes first).
    let config = common::root().join("configs/sparseweaver.toml");
    let order = |jobs: &str| -> Vec<String> {
        let out = wsim(&[
            "sweep",
            "--csv",
            "--jobs",
            jobs,
            "-c",
            config.to_str().unwrap(),
            "--graph",
            "gen:rmat:scale=10,ef=16",
            common::programs_dir()
                .join("graph/pr_vm_pull.elf")
                .to_str()
                .unwrap(),
            common::programs_dir()
                .join("graph/bfs_vm_push.elf")
                .to_str()
                .unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        rows(&String::from_utf8(out.stdout).unwrap())
            .into_iter()
            .map(|r| r["program"].clone())
            .collect()
    };
    assert_eq!(order("1"), ["pr_vm_pull", "bfs_vm_push"]);
    assert_eq!(order("2"), ["bfs_vm_push", "pr_vm_pull"]);
    let zero = wsim(&["sweep", "--jobs", "0", program("hello").to_str().unwrap()]);
    assert_eq!(zero.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&zero.stderr).contains("--jobs 0: give at least 1"));
}
