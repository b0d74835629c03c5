//! The walked layout (`graph_image::Layout::Walked`): only the arrays a graph program
//! reads are laid out, the others at address 0, as the largest graphs are (HW's 229M
//! edges fit the 32-bit machine only so). Every graph and GCN program verifies with it
//! on an R-MAT graph (tiny): `graph_image::reads` names every array a program walks, or
//! the program touches address 0 and fails. The walked layout is also smaller than the
//! full one, so the test exercises what it claims.

mod common;

use std::sync::Arc;

use common::{graph_manifest, preset, request, GCN_KERNELS};
use wsim_harness::run::{self, Finished};
use wsim_sim::Config;
use wsim_workloads::graph_image::{self, Layout};
use wsim_workloads::graph_run::{self, GraphInput};
use wsim_workloads::options::{GraphOptions, LayerOptions};

fn input(graph: &str, features: Option<u32>) -> Arc<GraphInput> {
    let options = GraphOptions {
        graph: Some(graph.into()),
        layer: LayerOptions {
            features,
            ..LayerOptions::default()
        },
        ..GraphOptions::default()
    };
    Arc::new(graph_run::load(&options).unwrap())
}

/// `tiny` stopped after one cycle: enough to load a program and lay its graph out.
fn one_cycle() -> Config {
    preset("tiny")
        .with_overrides(&["run.max_cycles=1".to_string()])
        .unwrap()
}

/// `name` on `graph` with its arrays laid out as `layout`.
fn run_laid_out(name: &str, graph: &Arc<GraphInput>, layout: Layout, config: &Config) -> Finished {
    let mut request = request(name, config).with_input(Arc::clone(graph));
    request.options.layout = layout;
    run::execute(request)
}

/// Where the layout of `layout` ends for `name` on `graph`.
fn layout_end(name: &str, graph: &Arc<GraphInput>, layout: Layout) -> u32 {
    let finished = run_laid_out(name, graph, layout, &one_cycle());
    finished.placed.expect("a graph program").layout.end
}

/// `name` on `graph` with the walked layout: why it did not verify, if it did not.
fn walked_verifies(name: &str, graph: &Arc<GraphInput>) -> Result<(), String> {
    let finished = run_laid_out(name, graph, Layout::Walked, &preset("tiny"));
    if let Some(why) = finished.record.why_not() {
        return Err(format!("{name}: {why}"));
    }
    let placed = finished
        .placed
        .ok_or(format!("{name}: not a graph program"))?;
    let full = layout_end(name, graph, Layout::Fitting);
    if placed.layout.end >= full {
        return Err(format!(
            "{name}: the walked layout ends at {:#x}, the full one at {full:#x}",
            placed.layout.end
        ));
    }
    Ok(())
}

/// Every program of `algorithm` (a manifest name, or "gcn") verifies walked.
fn algorithm_verifies(algorithm: &str) {
    let graph = if algorithm == "gcn" {
        input("gen:rmat:scale=7,ef=8", Some(16))
    } else {
        input("gen:rmat:scale=8,ef=8", None)
    };
    let names: Vec<String> = if algorithm == "gcn" {
        GCN_KERNELS.iter().map(|k| format!("gcn/gcn_{k}")).collect()
    } else {
        let manifest = graph_manifest().into_iter();
        manifest
            .filter(|p| p.algorithm == algorithm)
            .map(|p| p.name)
            .collect()
    };
    assert!(!names.is_empty(), "no {algorithm} programs");
    let failures: Vec<String> = names
        .iter()
        .filter_map(|name| walked_verifies(name, &graph).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn pagerank_programs_verify_walked() {
    algorithm_verifies("pr");
}

#[test]
fn bfs_programs_verify_walked() {
    algorithm_verifies("bfs");
}

#[test]
fn sssp_programs_verify_walked() {
    algorithm_verifies("sssp");
}

#[test]
fn cc_programs_verify_walked() {
    algorithm_verifies("cc");
}

#[test]
fn gcn_programs_verify_walked() {
    algorithm_verifies("gcn");
}

/// What each program reads: one direction's offsets and neighbours, weights only for
/// SSSP, the COO only for EM and GCN.
#[test]
fn reads_follow_direction_algorithm_and_schedule() {
    for (name, expected) in [
        (
            "graph/pr_vm_push",
            [true, true, false, false, false, false, false, false],
        ),
        (
            "graph/sssp_vm_pull",
            [false, false, false, false, true, true, true, false],
        ),
        (
            "graph/bfs_em_push",
            [true, true, false, true, false, false, false, false],
        ),
        (
            "graph/sssp_em_pull",
            [false, false, false, false, true, true, true, true],
        ),
    ] {
        let machine = run::execute(request(name, &one_cycle()))
            .machine
            .expect("the program loads");
        let p = graph_image::program(&machine).unwrap().unwrap();
        assert_eq!(graph_image::reads(&p), expected, "{name}");
    }
}
