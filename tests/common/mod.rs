//! Shared helpers of the end-to-end tests: build the programs once, run them on presets.

#![allow(dead_code)] // each test binary uses a different subset

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use wsim_harness::run::{self, Finished, Prepare, Program, RunRequest};
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
        let status = Command::new("make")
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

/// A user's own programs (programs/user/, built to build/user/): no test of the project's
/// runs them, so that adding one does not fail `cargo test`.
pub const USER_PROGRAMS: &str = "user";

/// Every built program of the project, as its path below build/ without `.elf`
/// (`rvtest/add`), sorted; not a user's own (build/user/).
pub fn built_programs() -> Vec<String> {
    let dir = programs_dir();
    let mut names = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path != dir.join(USER_PROGRAMS) {
                    stack.push(path);
                }
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

/// A built program's bare run on a configuration (no workload input), through the
/// harness's run path as every run goes.
pub fn request(name: &str, config: &Config) -> RunRequest {
    RunRequest::new(name, Program::Path(program(name)), config.clone())
}

/// Run a request; a run that could not be set up panics with its error.
pub fn execute(request: RunRequest) -> (Machine, Result<RunSummary, SimError>) {
    let name = request.name.clone();
    let Finished {
        record,
        machine,
        result,
        ..
    } = run::execute(request);
    match (machine, result) {
        (Some(machine), Some(result)) => (machine, result),
        _ => panic!(
            "{name}: {}",
            record.error.expect("a run not set up says why")
        ),
    }
}

/// Run a built program on a configuration; the machine is returned for inspection.
pub fn run(name: &str, config: &Config) -> (Machine, Result<RunSummary, SimError>) {
    execute(request(name, config))
}

/// Run a built program after `prepare` has written its inputs into the machine.
pub fn run_prepared(
    name: &str,
    config: &Config,
    prepare: Prepare,
) -> (Machine, Result<RunSummary, SimError>) {
    let mut request = request(name, config);
    request.options.prepare = Some(prepare);
    execute(request)
}

/// The error that keeps a built program from loading on a configuration (it must).
pub fn load_error(name: &str, config: &Config) -> SimError {
    let finished = run::execute(request(name, config));
    match (finished.machine, finished.result) {
        (None, Some(Err(e))) => e,
        _ => panic!(
            "{name}: loaded, expected an error: {:?}",
            finished.record.error
        ),
    }
}

/// Run and require a clean exit with status 0.
pub fn run_ok(name: &str, config: &Config) -> (Machine, RunSummary) {
    let (machine, result) = run(name, config);
    let console = String::from_utf8_lossy(machine.console()).into_owned();
    let summary = result.unwrap_or_else(|e| panic!("{name} failed: {e}\nconsole:\n{console}"));
    assert_eq!(
        summary.exit_code, 0,
        "{name} exit status; console:\n{console}"
    );
    (machine, summary)
}

/// A graph program as `programs/build/graph/manifest.tsv` lists it (the Makefile's lists
/// are the only ones: a new schedule, algorithm or form reaches the tests through it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphProgram {
    /// `graph/<name>`, as [`program`] takes it.
    pub name: String,
    pub algorithm: String,
    pub schedule: String,
    pub direction: String,
    /// `dissertation`, `tuned` or `atomicfree`.
    pub form: String,
}

/// Programs that run on every core and check themselves.
pub const KERNELS: &[&str] = &[
    "hello",
    "vecadd",
    "simt_divergence",
    "simt_explicit",
    "atomics",
    "barriers",
    "launches",
    "fp_conformance",
    "mem_phases",
    "iterations",
    "float_atomics",
    "phase_names",
    "store_stream",
    "store_fill",
    "store_triad",
    "store_mix",
    "store_scatter",
    "args",
];

/// ISA self-tests: single-threaded, started on core 0 only.
pub const ISA_TESTS: &[&str] = &["isa_rv32i", "isa_m", "isa_a", "isa_f", "isa_zicsr"];

/// Conformance-style (riscv-tests `-p` environment) tests, reporting through `tohost`.
pub const RV_TESTS: &[&str] = &[
    "rvtest/add",
    "rvtest/lw_sw",
    "rvtest/mul_div",
    "rvtest/amoadd",
    "rvtest/fadd_fcvt",
    "rvtest/ecall",
    "rvtest/illegal",
    "rvtest/ma_data",
    "rvtest/fence_i",
];

/// The GCN designs the Makefile builds: build/gcn/gcn_<design>.elf (tests/gcn.rs).
pub const GCN_KERNELS: &[&str] = &[
    "vm",
    "sparseweaver",
    "eghw",
    "gnnadvisor",
    "accel_gcn",
    "tlpgnn",
    "bikd",
];

/// Every graph program the Makefile builds, in the manifest's order.
pub fn graph_manifest() -> Vec<GraphProgram> {
    let path = programs_dir().join("graph/manifest.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("program\talgorithm\tschedule\tdirection\tform"),
        "{}: header",
        path.display()
    );
    lines
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 5, "{}: {line:?}", path.display());
            GraphProgram {
                name: format!("graph/{}", f[0]),
                algorithm: f[1].into(),
                schedule: f[2].into(),
                direction: f[3].into(),
                form: f[4].into(),
            }
        })
        .collect()
}

/// The verdict of `wsim run` on a graph program: its report when it exited 0 and says the
/// result verified, otherwise why not (the status, the result and mismatch lines, stderr).
pub fn verdict(name: &str, extra: &[&str], out: &Output) -> Result<String, String> {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let verified = stdout
        .lines()
        .any(|l| l.starts_with("result") && l.contains("verified against the host reference"));
    if out.status.success() && verified {
        return Ok(stdout);
    }
    Err(format!(
        "{name} {extra:?}: status {:?}\n{}\n{}",
        out.status.code(),
        stdout
            .lines()
            .filter(|l| l.starts_with("result") || l.starts_with("  vertex"))
            .collect::<Vec<_>>()
            .join("\n"),
        String::from_utf8_lossy(&out.stderr)
    ))
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

/// `wsim run --config configs/tiny.toml --json FILE OPTIONS` of a built program: the
/// process output and the JSON statistics (`None` when the run wrote none).
pub fn run_cli(name: &str, options: &[&str]) -> (Output, Option<serde_json::Value>) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let out = wsim_command(&["run", "--config"])
        .arg(root().join("configs/tiny.toml"))
        .arg("--json")
        .arg(&json)
        .args(options)
        .arg(program(name))
        .output()
        .expect("cannot run wsim");
    let stats = std::fs::read_to_string(&json)
        .ok()
        .map(|text| serde_json::from_str(&text).expect("the JSON statistics parse"));
    (out, stats)
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

/// The wsim under test with `args`, not yet run: for a directory, an environment or pipes
/// of its own.
pub fn wsim_command<S: AsRef<OsStr>>(args: &[S]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_wsim"));
    command.args(args);
    command
}

/// Run the wsim under test with `args`: its output, whatever its exit status.
pub fn wsim<S: AsRef<OsStr>>(args: &[S]) -> Output {
    wsim_command(args).output().expect("wsim runs")
}

/// Run the wsim under test with `args` in `dir` (so that default outputs go below it).
pub fn wsim_in<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Output {
    wsim_command(args)
        .current_dir(dir)
        .output()
        .expect("wsim runs")
}

/// Run the wsim under test with `args` and require that it succeeds.
pub fn wsim_ok<S: AsRef<OsStr> + std::fmt::Debug>(args: &[S]) -> Output {
    let out = wsim(args);
    assert!(
        out.status.success(),
        "wsim {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Require that a run of wsim succeeded (its stderr says why not); its stdout.
pub fn succeeded(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The path of email-Eu-core (data/graphs/), the real graph the tests run on, as an
/// argument.
pub fn email() -> String {
    root()
        .join("data/graphs/email-Eu-core.txt.gz")
        .display()
        .to_string()
}
