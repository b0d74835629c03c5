//! An experiment as a real Slurm job array (a single-node Slurm on this machine, started
//! by `scripts/slurm-local.sh`, which CI runs before the tests): the script `wsim
//! experiment slurm` writes, submitted as 3 array tasks, collected into the same table as
//! the experiment run locally (all but the host's time).
//!
//! It needs a Slurm node, so it is ignored by a plain `cargo test`; CI runs it with
//! `cargo test --release --test experiment_slurm -- --include-ignored`, and there it fails
//! when no node is up rather than pass without running.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use common::{csv_rows, root, wsim_ok as wsim};

fn slurm_is_up() -> bool {
    Command::new("sinfo")
        .args(["-h", "-o", "%T"])
        .output()
        .is_ok_and(|o| {
            let states = String::from_utf8_lossy(&o.stdout);
            o.status.success()
                && states
                    .lines()
                    .any(|s| matches!(s.trim(), "idle" | "mixed" | "allocated"))
        })
}

/// The table's rows without the host's time.
fn table(path: &Path) -> Vec<BTreeMap<String, String>> {
    csv_rows(&std::fs::read_to_string(path).unwrap())
        .into_iter()
        .map(|mut row| {
            row.remove("host_seconds").expect("a host_seconds column");
            row
        })
        .collect()
}

#[test]
#[ignore = "needs a Slurm node: scripts/slurm-local.sh, then --include-ignored (CI does)"]
fn a_slurm_job_array_gives_the_table_of_a_local_run() {
    assert!(
        slurm_is_up(),
        "no Slurm node is up (`sinfo`): scripts/slurm-local.sh starts one on this machine \
         (as root), as CI does"
    );
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("array.toml");
    let build = common::programs_dir().join("graph");
    std::fs::write(
        &file,
        format!(
            "config = '{}'\n\
             [[programs]]\nfiles = ['{1}/bfs_vm_push.elf', '{1}/cc_em_pull.elf']\n\
             [[programs]]\nfiles = ['{1}/pr_em_pull.elf']\niterations = 2\n\
             [[graphs]]\nname = 'rmat'\nspec = 'gen:rmat:scale=8,ef=8'\n\
             [[axes]]\nname = 'ratio'\nkey = 'memory.dram.clock_ratio'\nvalues = [1, 2, 3]\n\
             [slurm]\ntime = '00:10:00'\n",
            root().join("configs/tiny.toml").display(),
            build.display()
        ),
    )
    .unwrap();
    let (file, local, shared) = (
        file.to_str().unwrap(),
        dir.path().join("local"),
        dir.path().join("shared"),
    );
    wsim(&["experiment", "run", file, "--out", local.to_str().unwrap()]);

    let script = dir.path().join("array.sbatch");
    let shared_arg = shared.to_str().unwrap();
    wsim(&[
        "experiment",
        "slurm",
        file,
        "--out",
        shared_arg,
        "--tasks",
        "3",
        "-o",
        script.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.contains("#SBATCH --array=0-2") && text.contains("#SBATCH --time=00:10:00"));
    // --wait: sbatch returns when every task has ended, non-zero if any failed.
    let submitted = Command::new("timeout")
        .args(["600", "sbatch", "--wait"])
        .arg(&script)
        .output()
        .expect("sbatch runs");
    let logs = shared.join("slurm");
    let log_text = || {
        std::fs::read_dir(&logs)
            .map(|d| {
                d.map(|e| {
                    let p = e.unwrap().path();
                    format!(
                        "{}:\n{}",
                        p.display(),
                        std::fs::read_to_string(&p).unwrap_or_default()
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
            })
            .unwrap_or_default()
    };
    assert!(
        submitted.status.success(),
        "sbatch: {}{}\n{}",
        String::from_utf8_lossy(&submitted.stdout),
        String::from_utf8_lossy(&submitted.stderr),
        log_text()
    );
    // Each task ran its own shard of the 9 runs.
    let logs_text = log_text();
    for shard in 0..3 {
        assert!(
            logs_text.contains(&format!(
                "experiment array: 3 runs (shard {shard}/3 of 9): 0 cached, 3 run"
            )),
            "{logs_text}"
        );
    }
    wsim(&["experiment", "collect", file, "--out", shared_arg]);
    let from_slurm = table(&shared.join("array.csv"));
    assert_eq!(from_slurm.len(), 9);
    assert_eq!(from_slurm, table(&local.join("array.csv")));
    eprintln!(
        "the Slurm job array and its comparison took {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
