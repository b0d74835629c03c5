//! Progress (indicatif) is drawn on stderr when it is a terminal and never otherwise: a
//! long `wsim run` shows its simulated cycles and instructions with rates, sweeps and
//! experiments their runs done out of the total. The terminal is a pseudo-terminal made
//! by util-linux's `script` (in every Debian system: bsdutils is essential).

use crate::common;

use std::process::Command;
use std::sync::{Arc, Mutex};

use common::{program, root};
use wsim_harness::run::Observer;

/// `wsim ARGS` with stdout and stderr on a pseudo-terminal: what a person would see.
fn on_terminal(args: &[String]) -> String {
    let wsim = env!("CARGO_BIN_EXE_wsim");
    let command = std::iter::once(wsim.to_string())
        .chain(args.iter().cloned())
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("util-linux's `script` runs (Debian: bsdutils)");
    assert!(
        out.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `wsim ARGS` with stderr a pipe (what a log or CI gets): its stderr.
fn piped_stderr(args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    String::from_utf8_lossy(&common::wsim_ok(&args).stderr).into_owned()
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_long_run_shows_cycles_and_instructions_only_on_a_terminal() {
    // Over a second of simulation (1.7M cycles; VM's PageRank on R-MAT 12): for the
    // first half second a run stays quiet.
    let config = root().join("configs/sparseweaver.toml");
    let elf = common::programs_dir().join("graph/pr_vm_pull.elf");
    let args = strings(&[
        "run",
        "-c",
        config.to_str().unwrap(),
        "--graph",
        "gen:rmat:scale=12,ef=16",
        elf.to_str().unwrap(),
    ]);
    let seen = on_terminal(&args);
    assert!(seen.contains("simulating: "), "{seen}");
    assert!(
        seen.contains(" cycles (") && seen.contains("/s), "),
        "{seen}"
    );
    let piped = piped_stderr(&args);
    assert!(
        piped.is_empty(),
        "stderr of a run that succeeds, piped: {piped:?}"
    );
}

#[test]
fn sweeps_count_runs_only_on_a_terminal() {
    let config = root().join("configs/tiny.toml");
    let args = strings(&[
        "sweep",
        "-c",
        config.to_str().unwrap(),
        "--vary",
        "memory.dram.clock_ratio=1,2,3",
        "--csv",
        program("vecadd").to_str().unwrap(),
    ]);
    let seen = on_terminal(&args);
    assert!(
        seen.contains("sweep [") && seen.contains("/3 runs"),
        "{seen}"
    );
    assert!(piped_stderr(&args).is_empty());
}

#[test]
fn regression_checks_count_runs_only_on_a_terminal() {
    let baseline = root().join("baselines/project.toml");
    let args = strings(&[
        "regress",
        "check",
        baseline.to_str().unwrap(),
        "--only",
        "hello@*",
        "--only",
        "vecadd@*",
    ]);
    let seen = on_terminal(&args);
    // The check's summary says how many runs the patterns selected.
    let runs = seen
        .split("project.toml: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .expect("the check's summary line");
    assert!(
        seen.contains("regress [") && seen.contains(&format!("/{runs} runs")),
        "{seen}"
    );
    assert!(piped_stderr(&args).is_empty());
}

#[test]
fn experiments_count_runs_only_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("e.toml");
    std::fs::write(
        &file,
        format!(
            "config = '{}'\n[[programs]]\nfiles = ['{}']\n[[axes]]\nname = 'ratio'\nkey = 'memory.dram.clock_ratio'\nvalues = [1, 2]\n",
            root().join("configs/tiny.toml").display(),
            program("vecadd").display()
        ),
    )
    .unwrap();
    let args = |out: &str| {
        let out = dir.path().join(out);
        strings(&[
            "experiment",
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let seen = on_terminal(&args("terminal"));
    assert!(
        seen.contains("experiment e [") && seen.contains("/2 runs"),
        "{seen}"
    );
    let piped = piped_stderr(&args("piped"));
    assert!(!piped.contains('['), "{piped}");
    assert!(
        piped.contains("experiment e: 2 runs: 0 cached, 2 run in"),
        "{piped}"
    );
}

#[test]
fn the_engine_reports_progress_every_n_cycles_without_changing_the_run() {
    let config = common::preset("tiny");
    let (_, plain) = common::run("vecadd", &config);
    let plain = plain.unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let mut request = common::request("vecadd", &config);
    let log = Arc::clone(&seen);
    request.options.observer = Some(Observer {
        every: 1000,
        call: Box::new(move |p| log.lock().unwrap().push(p)),
    });
    let (_, observed) = common::execute(request);
    assert_eq!(plain, observed.unwrap(), "observing changes no statistic");
    let seen = seen.lock().unwrap();
    // Skipped idle cycles may jump past a multiple, never past many.
    assert!(
        seen.len() as u64 >= plain.cycles / 2000,
        "{} looks",
        seen.len()
    );
    for pair in seen.windows(2) {
        assert!(pair[1].cycles >= pair[0].cycles + 1000, "{pair:?}");
        assert!(pair[1].instructions >= pair[0].instructions, "{pair:?}");
    }
    let last = seen.last().expect("vecadd runs for thousands of cycles");
    assert!(last.cycles < plain.cycles && last.instructions <= plain.total().instructions);
    assert!(last.instructions > 0);
}
