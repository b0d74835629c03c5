//! Numbers the documentation quotes, measured: each test runs the command a doc describes
//! and checks the doc's sentence holds what the run gives, so that a change that moves
//! them fails here instead of leaving the doc stale. The expected sentence is printed on
//! failure, to paste.

mod common;

use common::root;

/// A doc's text with its line breaks and runs of spaces as single spaces.
fn doc(path: &str) -> String {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `n` with thousands separators, as the docs write numbers.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn has(path: &str, sentence: &str) {
    assert!(
        doc(path).contains(sentence),
        "{path} should say:\n{sentence}"
    );
}

/// The default job as scripts/setup.sh runs it: its arguments after `wsim`.
fn default_job() -> Vec<String> {
    let setup = std::fs::read_to_string(root().join("scripts/setup.sh")).unwrap();
    let line = setup
        .lines()
        .find(|l| l.contains("/wsim run "))
        .expect("setup.sh runs the default job");
    let args: Vec<String> = line
        .split_whitespace()
        .skip_while(|w| !w.ends_with("/wsim"))
        .skip(1)
        .map(String::from)
        .collect();
    // README's quick start describes the same job.
    let graph = args.iter().position(|a| a == "--graph").unwrap();
    has("README.md", &format!("`--graph {}`", args[graph + 1]));
    args
}

/// The trace of the default job: its size in MB, slices and counter values.
fn trace(extra: &[&str]) -> (String, u64, u64, u64) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.json");
    let mut args = default_job();
    args.extend(["--trace".to_string(), file.display().to_string()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    common::wsim_ok(&args);
    let bytes = std::fs::metadata(&file).unwrap().len();
    let t: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let count = |ph: &str| {
        (t["traceEvents"].as_array().unwrap().iter())
            .filter(|e| e["ph"] == ph)
            .count() as u64
    };
    let cycles = t["otherData"]["cycles"].as_u64().unwrap();
    (
        format!("{:.1}", bytes as f64 / 1e6),
        count("X"),
        count("C"),
        cycles,
    )
}

#[test]
fn the_default_job_fills_the_machine_and_its_trace_is_as_observing_says() {
    common::programs_dir();
    let job = default_job();
    let out = String::from_utf8(common::wsim_ok(&job).stdout).unwrap();
    // 8,192 vertices for the sparseweaver machine's 6,144 threads.
    assert!(out.contains("8192 vertices"), "{out}");
    assert!(out.contains("6 cores x 32 warps x 32 threads"), "{out}");
    let (mb, slices, counters, cycles) = trace(&[]);
    let (mb_warps, slices_warps, _, _) = trace(&["--trace-warps"]);
    has(
        "docs/OBSERVING.md",
        &format!(
            "The default job (PageRank, SparseWeaver, pull, R-MAT scale 13: 8,192 vertices for \
             the 6,144 threads, {} cycles) gives {mb} MB ({} slices, {} counter values), \
             {mb_warps} MB with `--trace-warps` ({} slices)",
            grouped(cycles),
            grouped(slices),
            grouped(counters),
            grouped(slices_warps)
        ),
    );
}

#[test]
fn pageranks_iterations_cost_what_config_says() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let args: Vec<String> = [
        "run",
        "--config",
        "configs/sparseweaver.toml",
        "programs/build/graph/pr_sparseweaver_pull.elf",
        "--json",
        json.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec();
    common::programs_dir();
    common::wsim_ok(&args);
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let cycles: Vec<u64> = (r["iterations"].as_array().unwrap().iter())
        .map(|i| i["cycles"].as_u64().unwrap())
        .collect();
    assert!(cycles[1..=3].iter().all(|&c| c == cycles[1]), "{cycles:?}");
    has(
        "docs/CONFIG.md",
        &format!(
            "({} cycles each for iterations 1 to 3 on R-MAT 8",
            grouped(cycles[1])
        ),
    );
}
