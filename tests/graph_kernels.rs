//! Every graph program the Makefile builds (programs/build/graph/manifest.tsv: algorithm x
//! schedule x direction x form) on the tiny configuration, run through `wsim run --graph`
//! as a user would: the command checks the result against the host reference (wsim-graph)
//! and says "verified", or lists the mismatches and exits 4. Graphs: SNAP's email-Eu-core
//! and an R-MAT graph of scale 10; PageRank runs its default 5 iterations, BFS and SSSP
//! from vertex 0 and from the graph's highest-degree vertex. EGHW programs run without a
//! flag: they require the unit's mode themselves.
//!
//! The tests are made from the manifest (libtest-mimic), one per graph, schedule and form,
//! so a new schedule or form is tested without a line here.

mod common;

use common::{email, graph_manifest, program, root, wsim, GraphProgram};
use libtest_mimic::{Arguments, Trial};
use wsim_graph::{Graph, LoadOptions};

const RMAT: &str = "gen:rmat:scale=10,ef=16";

/// Run a graph program on tiny; the report's lines, or why it failed.
fn run_graph(name: &str, extra: &[&str]) -> Result<String, String> {
    let elf = program(name);
    let config = root().join("configs/tiny.toml");
    let mut args = vec!["run", "-c", config.to_str().unwrap()];
    args.extend(extra);
    args.push(elf.to_str().unwrap());
    common::verdict(name, extra, &wsim(&args))
}

/// The vertex with the most out-edges (the lowest id of a tie): BFS and SSSP from it start
/// with a hub's whole list in one super-step.
fn hub(graph: &str) -> u32 {
    let g = Graph::from_spec(graph, &LoadOptions::default()).unwrap();
    (0..g.num_vertices())
        .max_by_key(|&v| (g.csr().degree(v), std::cmp::Reverse(v)))
        .unwrap()
}

/// Every program of `group` verifies on `graph`; BFS and SSSP also from `hub`.
fn group_verifies(group: &[GraphProgram], graph: &str, hub: u32) -> Result<(), String> {
    let hub = hub.to_string();
    let mut failures = Vec::new();
    for p in group {
        let mut sources = vec![vec!["--graph", graph]];
        if matches!(p.algorithm.as_str(), "bfs" | "sssp") && hub != "0" {
            sources.push(vec!["--graph", graph, "--source", &hub]);
        }
        for args in sources {
            failures.extend(run_graph(&p.name, &args).err());
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n\n"))
    }
}

/// One test per graph, schedule and form.
fn kernel_trials() -> Vec<Trial> {
    let manifest = graph_manifest();
    let mut groups: Vec<((String, String), Vec<GraphProgram>)> = Vec::new();
    for p in manifest {
        let key = (p.schedule.clone(), p.form.clone());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(p),
            None => groups.push((key, vec![p])),
        }
    }
    let mut trials = Vec::new();
    for (label, graph) in [
        ("email_eu_core", email()),
        ("rmat_scale_10", RMAT.to_string()),
    ] {
        let hub = hub(&graph);
        for ((schedule, form), group) in &groups {
            let (graph, group) = (graph.clone(), group.clone());
            trials.push(Trial::test(
                format!("{label}::{schedule}_{form}"),
                move || group_verifies(&group, &graph, hub).map_err(Into::into),
            ));
        }
    }
    trials
}

fn main() {
    let args = Arguments::from_args();
    let checks: [(&str, fn()); 9] = [
        (
            "the_report_names_the_run_and_the_built_in_graph",
            the_report_names_the_run_and_the_built_in_graph,
        ),
        (
            "source_out_of_range_is_an_error",
            source_out_of_range_is_an_error,
        ),
        (
            "distances_beyond_32_bits_are_an_error",
            distances_beyond_32_bits_are_an_error,
        ),
        (
            "graph_options_need_a_graph_program",
            graph_options_need_a_graph_program,
        ),
        ("a_bad_graph_file_is_an_error", a_bad_graph_file_is_an_error),
        (
            "a_graph_program_without_a_graph_says_so",
            a_graph_program_without_a_graph_says_so,
        ),
        (
            "the_json_report_records_the_graph_kernel_and_verdict",
            the_json_report_records_the_graph_kernel_and_verdict,
        ),
        (
            "an_eghw_program_says_it_chose_the_mode",
            an_eghw_program_says_it_chose_the_mode,
        ),
        (
            "a_stated_mode_that_contradicts_the_program_is_an_error",
            a_stated_mode_that_contradicts_the_program_is_an_error,
        ),
    ];
    let mut trials: Vec<Trial> = checks
        .into_iter()
        .map(|(name, check)| {
            Trial::test(name, move || {
                check();
                Ok(())
            })
        })
        .collect();
    trials.extend(kernel_trials());
    libtest_mimic::run(&args, trials).exit();
}

fn the_report_names_the_run_and_the_built_in_graph() {
    let out = run_graph("graph/bfs_wm_pull", &["--source", "3"]).unwrap();
    assert!(out.contains("gen:rmat:scale=8,ef=8: 256 vertices"), "{out}");
    assert!(out.contains("BFS (source 3), schedule WM, pull"), "{out}");
    let pr = run_graph("graph/pr_cm_push_tuned", &["--iterations", "2"]).unwrap();
    assert!(
        pr.contains("PageRank (2 iterations), schedule CM, push, 2 super-steps"),
        "{pr}"
    );
    assert!(
        pr.contains("phase 3"),
        "work-id phase in the breakdown: {pr}"
    );
}

fn an_eghw_program_says_it_chose_the_mode() {
    let out = run_graph("graph/cc_eghw_pull", &[]).unwrap();
    assert!(out.contains("Eghw mode (the program requires it)"), "{out}");
    let stated = run_graph("graph/cc_eghw_pull", &["--set", "weaver.mode=eghw"]).unwrap();
    assert!(
        stated.contains("Eghw mode,"),
        "the configuration chose it: {stated}"
    );
}

fn a_stated_mode_that_contradicts_the_program_is_an_error() {
    run_fails(
        "graph/bfs_eghw_push",
        &["--set", "weaver.mode=weaver"],
        "requires the Weaver unit in its EGHW mode (it defines `wsim_requires_eghw`), but the \
         configuration sets weaver.mode = \"weaver\"",
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

fn source_out_of_range_is_an_error() {
    run_fails(
        "graph/sssp_vm_push",
        &["--graph", RMAT, "--source", "1024"],
        "--source 1024 is out of range: graph gen:rmat:scale=10,ef=16 has 1024 vertices (0..=1023)",
    );
}

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

fn graph_options_need_a_graph_program() {
    for options in [&["--graph", RMAT][..], &["--source", "1"]] {
        run_fails(
            "vecadd",
            options,
            "has no `wsim_graph` descriptor: it is not a graph program",
        );
    }
}

fn a_bad_graph_file_is_an_error() {
    run_fails(
        "graph/cc_em_push",
        &["--graph", "/nonexistent/graph.txt"],
        "cannot load graph /nonexistent/graph.txt",
    );
}

fn a_graph_program_without_a_graph_says_so() {
    let (machine, result) = common::run("graph/pr_vm_push", &common::preset("tiny"));
    assert_eq!(result.unwrap().exit_code, 100);
    let console = String::from_utf8_lossy(machine.console());
    assert!(
        console.contains("no graph: run this program with wsim run"),
        "{console}"
    );
}

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
