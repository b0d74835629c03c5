//! Every graph program (algorithm x schedule x direction) on the tiny configuration, run
//! through `wsim run --graph` as a user would: the command checks the result against the
//! host reference (wsim-graph) and says "verified", or lists the mismatches and exits 3.
//! Graphs: SNAP's email-Eu-core and an R-MAT graph of scale 10; PageRank runs its default
//! 5 iterations.

mod common;

use std::process::{Command, Output};

use common::{graph_programs, program, root, GRAPH_SCHEDULES};

fn email() -> String {
    root()
        .join("data/graphs/email-Eu-core.txt.gz")
        .display()
        .to_string()
}

const RMAT: &str = "gen:rmat:scale=10,ef=16";

fn wsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wsim"))
        .args(args)
        .output()
        .expect("cannot run wsim")
}

/// Run a graph program on tiny; the report's lines, or why it failed.
fn run_graph(name: &str, extra: &[&str]) -> Result<String, String> {
    let elf = program(name);
    let config = root().join("configs/tiny.toml");
    let mut args = vec!["run", "-c", config.to_str().unwrap()];
    args.extend(extra);
    args.push(elf.to_str().unwrap());
    common::verdict(name, extra, &wsim(&args))
}

/// Every program of `schedule` verifies on `graph`.
fn schedule_verifies(schedule: &str, graph: &str) {
    // EGHW programs need the unit in its EGHW mode.
    let mode: &[&str] = if schedule == "eghw" {
        &["--set", "weaver.mode=eghw"]
    } else {
        &[]
    };
    let failures: Vec<String> = graph_programs(schedule)
        .iter()
        .filter_map(|p| run_graph(p, &[&["--graph", graph], mode].concat()).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

macro_rules! schedule_tests {
    ($($schedule:ident),*) => {
        mod email_eu_core {
            $(#[test] fn $schedule() { super::schedule_verifies(stringify!($schedule), &super::email()); })*
        }
        mod rmat_scale_10 {
            $(#[test] fn $schedule() { super::schedule_verifies(stringify!($schedule), super::RMAT); })*
        }
        #[test]
        fn the_tests_cover_every_schedule() {
            assert_eq!([$(stringify!($schedule)),*], GRAPH_SCHEDULES);
        }
    };
}

schedule_tests!(vm, em, wm, cm, twc, twce, strict, sparseweaver, eghw);

#[test]
fn the_report_names_the_run_and_the_built_in_graph() {
    let out = run_graph("graph/bfs_wm_pull", &["--source", "3"]).unwrap();
    assert!(out.contains("gen:rmat:scale=8,ef=8: 256 vertices"), "{out}");
    assert!(out.contains("BFS (source 3), schedule WM, pull"), "{out}");
    let pr = run_graph("graph/pr_cm_push", &["--iterations", "2"]).unwrap();
    assert!(
        pr.contains("PageRank (2 iterations), schedule CM, push, 2 super-steps"),
        "{pr}"
    );
    assert!(
        pr.contains("phase 3"),
        "work-id phase in the breakdown: {pr}"
    );
}

/// `wsim run OPTIONS program` fails with status 2 and a message containing `message`.
fn run_fails(name: &str, options: &[&str], message: &str) {
    let elf = program(name);
    let mut args = vec!["run"];
    args.extend(options);
    args.push(elf.to_str().unwrap());
    let out = wsim(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{name} {options:?}: {err}");
    assert!(err.contains(message), "{name} {options:?}: {err}");
}

#[test]
fn source_out_of_range_is_an_error() {
    run_fails(
        "graph/sssp_vm_push",
        &["--graph", RMAT, "--source", "1024"],
        "--source 1024 is out of range: graph gen:rmat:scale=10,ef=16 has 1024 vertices (0..=1023)",
    );
}

#[test]
fn distances_beyond_32_bits_are_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("far.txt");
    std::fs::write(&path, "0 1 4000000000\n1 2 4000000000\n").unwrap();
    let graph = path.to_str().unwrap();
    run_fails(
        "graph/sssp_em_pull",
        &["--graph", graph],
        &format!(
            "SSSP from 0 on {graph}: vertex 2 is 4294967294 or more away, beyond the kernels' \
             32-bit distances"
        ),
    );
    // The same graph is fine for BFS, and for SSSP from a source it keeps close.
    run_graph("graph/bfs_em_pull", &["--graph", graph]).unwrap();
    run_graph("graph/sssp_em_pull", &["--graph", graph, "--source", "1"]).unwrap();
}

#[test]
fn graph_options_need_a_graph_program() {
    for options in [&["--graph", RMAT][..], &["--source", "1"]] {
        run_fails(
            "vecadd",
            options,
            "has no `wsim_graph` descriptor: it is not a graph program",
        );
    }
}

#[test]
fn a_bad_graph_file_is_an_error() {
    run_fails(
        "graph/cc_em_push",
        &["--graph", "/nonexistent/graph.txt"],
        "cannot load graph /nonexistent/graph.txt",
    );
}

#[test]
fn a_graph_program_without_a_graph_says_so() {
    let (machine, result) = common::run("graph/pr_vm_push", &common::preset("tiny"));
    assert_eq!(result.unwrap().exit_code, 100);
    let console = String::from_utf8_lossy(&machine.shared.console);
    assert!(
        console.contains("no graph: run this program with wsim run"),
        "{console}"
    );
}

#[test]
fn the_json_report_records_the_graph_kernel_and_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    run_graph(
        "graph/sssp_twce_pull",
        &[
            "--graph",
            "gen:rmat:scale=6",
            "--symmetrize",
            "--weights",
            "unit",
            "--seed",
            "3",
            "--source",
            "2",
            "--json",
            json.to_str().unwrap(),
        ],
    )
    .unwrap();
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let graph = &report["graph"];
    let expected = serde_json::json!({
        "spec": "gen:rmat:scale=6",
        "load_options": ["--symmetrize", "--weights=unit", "--seed=3"],
        "vertices": 64,
        "algorithm": "SSSP",
        "schedule": "TWCE",
        "direction": "pull",
        "source": 2,
        "iterations": null,
        "result": "verified",
        "mismatches": 0,
        "first_mismatches": [],
    });
    for (key, value) in expected.as_object().unwrap() {
        assert_eq!(&graph[key], value, "graph.{key} in {graph}");
    }
    assert!(graph["supersteps"].as_u64().unwrap() >= 2, "{graph}");
    assert!(graph["edges"].as_u64().unwrap() > 64, "{graph}");
}
