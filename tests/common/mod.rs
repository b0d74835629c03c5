//! Shared helpers of the end-to-end tests: build the programs once, run them on presets.

#![allow(dead_code)] // each test binary uses a different subset

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use wsim_sim::{Config, Machine, RunSummary, SimError};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Build `programs/` (incrementally) once per test binary; panics with the reason if the
/// toolchain is missing, since every test here needs the programs.
pub fn programs_dir() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = root().join("programs");
        let status = std::process::Command::new("make")
            .args(["-s", "-C"])
            .arg(&dir)
            .status()
            .expect("cannot run make");
        assert!(
            status.success(),
            "building programs/ failed: install clang, lld and llvm (see README.md)"
        );
        dir.join("build")
    })
}

/// Every built program, as its path below build/ without `.elf` (`rvtest/add`), sorted.
pub fn built_programs() -> Vec<String> {
    let dir = programs_dir();
    let mut names = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "elf") {
                let rel = path.strip_prefix(dir).unwrap().with_extension("");
                names.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    names.sort();
    names
}

pub fn program(name: &str) -> PathBuf {
    programs_dir().join(format!("{name}.elf"))
}

pub fn preset(name: &str) -> Config {
    let path = root().join("configs").join(format!("{name}.toml"));
    let text = std::fs::read_to_string(&path).expect("preset exists");
    Config::from_toml(&text, &path.display().to_string()).expect("preset is valid")
}

/// Run a built program on a configuration; the machine is returned for inspection.
pub fn run(name: &str, config: &Config) -> (Machine, Result<RunSummary, SimError>) {
    let bytes = std::fs::read(program(name)).unwrap_or_else(|e| panic!("{name}.elf: {e}"));
    let mut machine = Machine::new(config, &bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let result = machine.run();
    (machine, result)
}

/// Run and require a clean exit with status 0.
pub fn run_ok(name: &str, config: &Config) -> (Machine, RunSummary) {
    let (machine, result) = run(name, config);
    let console = String::from_utf8_lossy(&machine.shared.console).into_owned();
    let summary = result.unwrap_or_else(|e| panic!("{name} failed: {e}\nconsole:\n{console}"));
    assert_eq!(
        summary.exit_code, 0,
        "{name} exit status; console:\n{console}"
    );
    (machine, summary)
}

/// The graph programs the Makefile builds: build/graph/<algorithm>_<schedule>_<direction>.
pub const GRAPH_SCHEDULES: &[&str] = &[
    "vm",
    "em",
    "wm",
    "cm",
    "twc",
    "twce",
    "strict",
    "sparseweaver",
    "eghw",
];
pub const GRAPH_PUSH: &[&str] = &["pr", "bfs", "sssp", "cc"];
pub const GRAPH_PULL: &[&str] = &["pr", "bfs", "sssp", "cc"];

/// Every graph program of one schedule, as `graph/<name>`.
pub fn graph_programs(schedule: &str) -> Vec<String> {
    let push = GRAPH_PUSH
        .iter()
        .map(|a| format!("graph/{a}_{schedule}_push"));
    let pull = GRAPH_PULL
        .iter()
        .map(|a| format!("graph/{a}_{schedule}_pull"));
    push.chain(pull).collect()
}

/// Run a built program on the vortex preset with `overrides` and require that the
/// simulation fails; the error.
pub fn error_of(name: &str, overrides: &[&str]) -> wsim_sim::SimError {
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let config = preset("vortex").with_overrides(&overrides).unwrap();
    match run(name, &config).1 {
        Ok(summary) => panic!("{name} ran to exit status {}", summary.exit_code),
        Err(e) => e,
    }
}

/// A CSV table's rows as column -> cell; every row has the header's columns.
pub fn csv_rows(text: &str) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            assert_eq!(r.len(), header.len(), "every row has the header's columns");
            header
                .iter()
                .cloned()
                .zip(r.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// Run the wsim under test with `args` and require that it succeeds.
pub fn wsim_ok(args: &[&str]) -> std::process::Output {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wsim"))
        .args(args)
        .output()
        .expect("wsim runs");
    assert!(
        out.status.success(),
        "wsim {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}
