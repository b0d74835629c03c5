//! The walked layout (`graph_image::Layout::Walked`): only the arrays a graph program
//! reads are laid out, the others at address 0, as the largest graphs are (HW's 229M
//! edges fit the 32-bit machine only so). Every graph and GCN program verifies with it
//! on an R-MAT graph (tiny): `graph_image::reads` names every array a program walks, or
//! the program touches address 0 and fails. The walked layout is also smaller than the
//! full one, so the test exercises what it claims.

mod common;

use clap::Parser;
use common::{graph_manifest, preset, program, GCN_KERNELS};
use wsim::graph_run::{self, GraphArgs, GraphInput};
use wsim_workloads::graph_image::{self, Layout};

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    graph: GraphArgs,
}

fn input(args: &[&str]) -> GraphInput {
    let cli = Cli::parse_from(std::iter::once("test").chain(args.iter().copied()));
    graph_run::load(&cli.graph).unwrap()
}

/// Where the layout of `layout` ends for `name` on `graph`.
fn layout_end(name: &str, graph: &GraphInput, layout: Layout) -> u32 {
    let elf = std::fs::read(program(name)).unwrap();
    let mut machine = wsim::load_program(&preset("tiny"), &elf).unwrap();
    let placed = graph_run::place_with(&mut machine, graph, layout)
        .unwrap()
        .unwrap();
    placed.layout.end
}

/// `name` on `graph` with the walked layout: why it did not verify, if it did not.
fn walked_verifies(name: &str, graph: &GraphInput) -> Result<(), String> {
    let elf = std::fs::read(program(name)).unwrap();
    let mut machine = wsim::load_program(&preset("tiny"), &elf).unwrap();
    let placed = graph_run::place_with(&mut machine, graph, Layout::Walked)
        .map_err(|e| format!("{name}: {e:#}"))?
        .ok_or(format!("{name}: not a graph program"))?;
    let summary = wsim::run_program(&mut machine, false).map_err(|e| format!("{name}: {e}"))?;
    match graph_run::check(&machine, &placed, summary.exit_code) {
        Some(m) if m.is_empty() => {}
        Some(m) => return Err(format!("{name}: {} mismatches", m.len())),
        None => return Err(format!("{name}: exit status {}", summary.exit_code)),
    }
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
        input(&["--graph", "gen:rmat:scale=7,ef=8", "--features", "16"])
    } else {
        input(&["--graph", "gen:rmat:scale=8,ef=8"])
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
        let elf = std::fs::read(program(name)).unwrap();
        let machine = wsim::load_program(&preset("tiny"), &elf).unwrap();
        let p = graph_image::program(&machine).unwrap().unwrap();
        assert_eq!(graph_image::reads(&p), expected, "{name}");
    }
}
