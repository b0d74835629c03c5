//! SIGINT and SIGTERM stop a run at its next cycle with its statistics up to then written
//! (the report, `--json`) and marked interrupted, exit status 128 + the signal; an
//! experiment stops starting runs and keeps the ones that finished in its cache.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{program, root};

/// `wsim -v ARGS` started, once it has loaded its (first) program: its signal handlers
/// are in place by then. Its stderr is read to the end on a thread, and handed back.
fn started(args: &[&str]) -> (Child, std::thread::JoinHandle<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wsim"))
        .arg("-v")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("wsim runs");
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.contains("program loaded") {
                let _ = tx.send(());
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    rx.recv_timeout(Duration::from_secs(120))
        .expect("the program is loaded");
    (child, reader)
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn a_signal_stops_a_run_with_its_partial_statistics_written() {
    for (name, code) in [("INT", 130), ("TERM", 143)] {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("stats.json");
        let config = root().join("configs/tiny.toml");
        let forever = program("errors/forever");
        let (child, stderr) = started(&[
            "run",
            "--config",
            config.to_str().unwrap(),
            "--set",
            "run.max_cycles=100000000000",
            "--json",
            json.to_str().unwrap(),
            forever.to_str().unwrap(),
        ]);
        std::thread::sleep(Duration::from_millis(300));
        signal(&child, name);
        let out = child.wait_with_output().unwrap();
        let stderr = stderr.join().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(code),
            "SIG{name}: {stdout}\n{stderr}"
        );
        assert!(
            stdout.contains("INTERRUPTED at cycle ")
                && stdout.contains("the statistics below are partial"),
            "{stdout}"
        );
        assert!(
            stderr.contains("interrupted: stopped before its end"),
            "{stderr}"
        );
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(doc["status"], "interrupted");
        assert!(doc["cycles"].as_u64().unwrap() > 0, "{doc}");
        assert!(doc["total"]["instructions"].as_u64().unwrap() > 0);
    }
}

fn cache_entries(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| {
        d.filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            let name = name.to_string_lossy();
            name.ends_with(".json") && !name.starts_with('.')
        })
        .count()
    })
}

#[test]
fn a_signal_stops_an_experiment_keeping_the_runs_that_finished() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("stopped.toml");
    std::fs::write(
        &file,
        format!(
            "config = '{}'\nset = ['run.max_cycles=100000000000']\n\
             [[programs]]\nfiles = ['{}', '{}']\n",
            root().join("configs/tiny.toml").display(),
            program("hello").display(),
            program("errors/forever").display()
        ),
    )
    .unwrap();
    let out_dir = dir.path().join("out");
    let (child, stderr) = started(&[
        "experiment",
        "run",
        file.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
        "--jobs",
        "2",
    ]);
    // hello finishes and is cached; forever runs on.
    let cache = out_dir.join("cache");
    let since = Instant::now();
    while cache_entries(&cache) < 1 {
        assert!(
            since.elapsed() < Duration::from_secs(120),
            "hello never finished"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    signal(&child, "INT");
    let out = child.wait_with_output().unwrap();
    let stderr = stderr.join().unwrap();
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("wsim: interrupted: 1 of 2 runs finished (kept)"),
        "{stderr}"
    );
    // The stopped run is not cached: a rerun runs it, and only it.
    assert_eq!(cache_entries(&cache), 1);
    assert!(!out_dir.join("stopped.csv").exists());
}
