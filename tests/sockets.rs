//! Sockets (`gpu.cores_per_socket`): cores sharing one L1I and one L1D run programs to the
//! end, with the results of private L1s. A core refused by its socket's L1 for want of an
//! MSHR, while the MSHRs held only the other cores' misses, used to wait for a completion
//! of its own that never came (the machines below deadlocked with 3 cores per socket);
//! the fill that frees an MSHR now tells it. The dissertation's machine as its text reads
//! (configs/sparseweaver.toml: one cluster, two sockets of three cores) and its two-cluster
//! reading with private L1s (configs/sparseweaver-clusters.toml) run every graph program
//! verified.

mod common;

use common::{graph_manifest, preset, program, root, run_ok};

/// `wsim run` of graph program `name` with `options`: its report when the result verified
/// against the host reference, or why not.
fn graph_verifies(name: &str, options: &[String]) -> Result<String, String> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wsim"))
        .arg("run")
        .args(options)
        .arg(program(name))
        .output()
        .expect("cannot run wsim");
    let refs: Vec<&str> = options.iter().map(String::as_str).collect();
    common::verdict(name, &refs, &out)
}

/// The tiny machine as one cluster of `cores` cores, `per_socket` to a socket, with
/// `warps` x `threads`: its `--set` items.
fn tiny(cores: u32, per_socket: u32, warps: u32, threads: u32) -> Vec<String> {
    vec![
        "gpu.clusters=1".into(),
        format!("gpu.cores_per_cluster={cores}"),
        format!("gpu.cores_per_socket={per_socket}"),
        format!("gpu.warps_per_core={warps}"),
        format!("gpu.threads_per_warp={threads}"),
    ]
}

/// `wsim run` options: `preset` with `sets`, on an R-MAT graph of scale 6.
fn graph_options(preset: &str, sets: &[String], extra: &[&str]) -> Vec<String> {
    let mut options = vec![
        "-c".to_string(),
        root()
            .join(format!("configs/{preset}.toml"))
            .display()
            .to_string(),
    ];
    for s in sets {
        options.extend(["--set".to_string(), s.clone()]);
    }
    options.extend(["--graph", "gen:rmat:scale=6"].map(String::from));
    options.extend(extra.iter().map(|s| s.to_string()));
    options
}

/// barriers.elf checks its own results (exit status 0); a failure names the machine.
fn barriers_finish(sets: &[String]) {
    let config = preset("tiny").with_overrides(sets).unwrap();
    let (_, summary) = run_ok("barriers", &config);
    assert!(summary.cycles > 0, "{sets:?}");
}

/// The machines that deadlocked: barriers.elf and graph programs with 3 cores per socket.
#[test]
fn three_cores_per_socket_no_longer_deadlock() {
    barriers_finish(&tiny(3, 3, 8, 4));
    barriers_finish(&tiny(3, 3, 4, 32));
    for name in ["graph/bfs_vm_push", "graph/cc_twc_push"] {
        let options = graph_options("tiny", &tiny(3, 3, 8, 4), &[]);
        graph_verifies(name, &options).unwrap();
    }
    // Two clusters, each one socket of three cores.
    let sets = ["gpu.cores_per_socket=3".to_string()];
    let options = graph_options("sparseweaver-clusters", &sets, &["--iterations", "1"]);
    graph_verifies("graph/pr_vm_pull", &options).unwrap();
    // Two sockets on one link: a core of socket 1 slept refused for want of a credit while
    // another core of the socket took one, which dropped the socket from the queue of
    // waiting senders; nothing woke the sleeper again (credits.rs, "Sockets").
    let options = graph_options("sparseweaver", &[], &[]);
    graph_verifies("graph/bfs_twce_push_tuned", &options).unwrap();
}

/// A socket's L1 that takes a credit while another of its cores sleeps refused goes to the
/// back of the queue of waiting senders, not its front (credits.rs, "Sockets"). At the
/// front, two cores of socket 0 spinning on atomics.c's lock always left one asleep, so
/// their L1D took every credit of the link freed one at a time; the other senders queued
/// behind it (core 0's L1I, socket 1's L1s), the lock's holder among their cores, never
/// got one: the run spun until `run.max_cycles` (16 warps: past 40M cycles; it now
/// finishes in 18.6M).
#[test]
fn a_spinning_socket_does_not_starve_the_senders_behind_it() {
    let config = preset("sparseweaver")
        .with_overrides(&[
            "gpu.warps_per_core=16".to_string(),
            "run.max_cycles=40000000".to_string(),
        ])
        .unwrap();
    let (_, summary) = run_ok("atomics", &config);
    assert_eq!(summary.cores.len(), 6);
}

/// Every socket size a cluster of up to 4 cores allows, with several warp shapes: barriers
/// and graph programs of three schedules finish and verify.
#[test]
fn every_socket_size_and_warp_shape_finishes_and_verifies() {
    let sizes = [(3, 1), (2, 2), (4, 2), (3, 3), (4, 4)];
    let shapes = [(4, 4), (8, 4), (16, 8), (4, 32)];
    let graphs = ["graph/bfs_vm_push", "graph/cc_twc_push", "graph/pr_wm_pull"];
    let mut failures = Vec::new();
    for (cores, per_socket) in sizes {
        for (warps, threads) in shapes {
            let sets = tiny(cores, per_socket, warps, threads);
            barriers_finish(&sets);
            for name in graphs {
                let options = graph_options("tiny", &sets, &["--iterations", "2"]);
                failures.extend(graph_verifies(name, &options).err());
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// configs/sparseweaver.toml is the layout of "two sockets, three cores per socket" with
/// one 1 MiB L2: six cores, two shared L1Ds, one L2; configs/sparseweaver-clusters.toml
/// the two-cluster reading: six private L1Ds, two L2s. Every graph program (the
/// manifest's) runs on each, through `wsim sweep`, and verifies (R-MAT of scale 6,
/// PageRank 2 iterations).
#[test]
fn both_layouts_of_the_dissertation_machine_run_every_graph_program_verified() {
    for (preset_name, l1ds, l2s) in [("sparseweaver", 2, 1), ("sparseweaver-clusters", 6, 2)] {
        let (_, summary) = run_ok("vecadd", &preset(preset_name));
        let memory = &summary.memory;
        assert_eq!(
            (summary.cores.len(), memory.l1d.len(), memory.l2.len()),
            (6, l1ds, l2s),
            "{preset_name}"
        );
        let programs: Vec<String> = graph_manifest()
            .iter()
            .map(|p| program(&p.name).display().to_string())
            .collect();
        let mut options = graph_options(preset_name, &[], &["--iterations", "2"]);
        options.insert(0, "--csv".into());
        options.insert(0, "sweep".into());
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_wsim"))
            .args(&options)
            .args(&programs)
            .output()
            .expect("cannot run wsim");
        let table = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{preset_name}: {table}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let rows: Vec<&str> = table.lines().skip(1).collect();
        assert!(rows.iter().all(|r| r.contains(",0,yes,")), "{preset_name}: {table}");
        assert_eq!(rows.len(), programs.len(), "one row per program\n{table}");
    }
}
