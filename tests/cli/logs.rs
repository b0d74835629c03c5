//! Logs (`tracing`, docs/ARCHITECTURE.md): nothing on stderr by default, each stage with
//! `-v`, the engine's events with `-vv` or `RUST_LOG`, warnings unless `-q`.

use crate::common;

use std::process::Output;

use common::{program, wsim_command};

/// `wsim ARGS` with `RUST_LOG` set to `rust_log`, or unset.
fn logged(args: &[&str], rust_log: Option<&str>) -> Output {
    let mut cmd = wsim_command(args);
    cmd.env_remove("RUST_LOG");
    if let Some(filter) = rust_log {
        cmd.env("RUST_LOG", filter);
    }
    cmd.output().expect("wsim runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every command that runs programs runs them through the one run path, whose stages
/// (`load`, `layout` for a graph program, `simulation`, `verification`) log with `-v`.
#[test]
fn every_command_that_runs_programs_logs_its_stages() {
    let dir = tempfile::tempdir().unwrap();
    let pr = program("graph/pr_vm_pull");
    let pr = pr.to_str().unwrap();
    let experiment = dir.path().join("e.toml");
    std::fs::write(&experiment, format!("[[programs]]\nfiles = ['{pr}']\n")).unwrap();
    let baseline = dir.path().join("b.toml");
    std::fs::write(&baseline, format!("[[run]]\nprogram = '{pr}'\n")).unwrap();
    let out = dir.path().join("out");
    let (experiment, out) = (experiment.to_str().unwrap(), out.to_str().unwrap());
    let tiny = "configs/tiny.toml";
    let commands: [&[&str]; 4] = [
        &["-v", "run", "--config", tiny, pr],
        &["-v", "sweep", "--config", tiny, pr],
        &["-v", "experiment", "run", experiment, "--out", out],
        &["-v", "regress", "check", baseline.to_str().unwrap()],
    ];
    for args in commands {
        let log = stderr(&logged(args, None));
        for stage in ["load", "layout", "simulation", "verification"] {
            assert!(
                log.contains(&format!(" INFO {stage}")) && log.contains("close time.busy="),
                "{args:?}: no {stage} stage in:\n{log}"
            );
        }
    }
}

#[test]
fn stages_are_logged_with_v_and_not_otherwise() {
    let elf = program("vecadd");
    let elf = elf.to_str().unwrap();
    let quiet = logged(&["run", "--config", "configs/tiny.toml", elf], None);
    assert!(quiet.status.success());
    assert_eq!(stderr(&quiet), "", "no log without -v");
    let loud = logged(&["-v", "run", "--config", "configs/tiny.toml", elf], None);
    assert!(loud.status.success());
    let report = |out: &Output| {
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines()
            .filter(|l| !l.starts_with("host "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(report(&loud), report(&quiet), "logs go to stderr only");
    let log = stderr(&loud);
    for stage in ["configuration", "load", "simulation"] {
        assert!(
            log.contains(&format!(" INFO {stage}")) && log.contains("close time.busy="),
            "{stage} in:\n{log}"
        );
    }
    assert!(log.contains("file=configs/tiny.toml"), "{log}");
    assert!(log.contains("finished cycles="), "{log}");
    // The engine's events are debug: not at -v.
    assert!(!log.contains("launch:"), "{log}");
    // The flag goes anywhere on the line, for every command.
    let after = logged(&["config", "show", "-v"], None);
    assert!(
        stderr(&after).contains("INFO configuration"),
        "{}",
        stderr(&after)
    );
}

#[test]
fn engine_events_with_vv_or_rust_log() {
    let elf = program("graph/bfs_vm_push");
    let elf = elf.to_str().unwrap();
    let args = ["run", "--config", "configs/tiny.toml", elf];
    let vv = stderr(&logged(&[&["-vv"][..], &args].concat(), None));
    for stage in ["graph", "layout", "verification"] {
        assert!(vv.contains(&format!(" INFO {stage}")), "{stage} in:\n{vv}");
    }
    assert!(
        vv.contains("DEBUG simulation: launch: every spawned warp exited core=0"),
        "{vv}"
    );
    assert!(vv.contains("iteration ended iteration=0"), "{vv}");
    // RUST_LOG chooses instead of the flags: here only the engine's events.
    let filtered = stderr(&logged(&args, Some("wsim_sim=debug")));
    assert!(filtered.contains("iteration ended"), "{filtered}");
    assert!(!filtered.contains("INFO"), "{filtered}");
    let bad = stderr(&logged(&args, Some("wsim_sim=loud")));
    assert!(
        bad.contains("RUST_LOG=wsim_sim=loud is not a filter"),
        "{bad}"
    );
}

#[test]
fn a_deadlock_logs_each_barrier() {
    let out = logged(
        &["-v", "run", program("errors/deadlock").to_str().unwrap()],
        None,
    );
    assert_eq!(out.status.code(), Some(3));
    let log = stderr(&out);
    assert!(
        log.contains(
            "deadlock: local barrier short of warps core=0 barrier=1 count=3 arrived=[0, 1] \
             elsewhere=[] not_running=[2, 3]"
        ),
        "{log}"
    );
}

#[test]
fn ignored_graph_options_warn_unless_quiet() {
    let tiny = [
        "--config",
        "configs/tiny.toml",
        "--graph",
        "gen:rmat:scale=6",
    ];
    let run = |flags: &[&str], name: &str, option: &[&str]| {
        let elf = program(name);
        let args = [flags, &["run"], &tiny, option, &[elf.to_str().unwrap()]].concat();
        let out = logged(&args, None);
        assert!(out.status.success(), "{}", stderr(&out));
        stderr(&out)
    };
    let pr = run(&[], "graph/pr_vm_pull", &["--source", "3"]);
    assert!(
        pr.contains("WARN --source is ignored: PageRank starts from every vertex"),
        "{pr}"
    );
    let bfs = run(&[], "graph/bfs_vm_pull", &["--iterations", "3"]);
    assert!(
        bfs.contains("--iterations is ignored: BFS runs until it converges"),
        "{bfs}"
    );
    assert_eq!(run(&["-q"], "graph/cc_vm_pull", &["--iterations", "3"]), "");
    assert_eq!(run(&[], "graph/bfs_vm_pull", &["--source", "3"]), "");
}
