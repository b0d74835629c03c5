//! `wsim regress record|check`: the project's own baseline holds; a configuration key
//! moves exactly the runs that depend on it; an edited program or configuration makes
//! its record stale, not a regression; records change only when measurements do; bad
//! baselines are errors naming the file and the key.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{program, root, wsim};
use serde_json::Value;

fn text(out: &Output) -> String {
    format!(
        "status {:?}\n{}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `wsim regress check FILE ARGS --json`: the process output and the JSON.
fn check(file: &Path, args: &[&str]) -> (Output, Value) {
    let json = file.with_extension("json");
    let mut all = vec!["regress", "check", file.to_str().unwrap()];
    all.extend(args);
    all.extend(["--json", json.to_str().unwrap()]);
    let out = wsim(&all);
    let doc =
        std::fs::read_to_string(&json).unwrap_or_else(|e| panic!("no JSON ({e}): {}", text(&out)));
    (out, serde_json::from_str(&doc).unwrap())
}

fn record(file: &Path, args: &[&str]) -> Output {
    let mut all = vec!["regress", "record", file.to_str().unwrap()];
    all.extend(args);
    let out = wsim(&all);
    assert!(out.status.success(), "{}", text(&out));
    out
}

/// A baseline in a temporary directory whose paths are relative to the repository.
fn baseline(dir: &Path, runs: &str) -> PathBuf {
    let path = dir.join("baseline.toml");
    let body = format!("root = {:?}\n\n{runs}", root().display().to_string());
    std::fs::write(&path, body).unwrap();
    path
}

/// The runs of a check's JSON by name.
fn run<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no run {name} in {doc:#}"))
}

/// The verdicts of a run's statistics in a check's JSON.
fn stat_verdicts(run: &Value) -> Vec<&str> {
    let stats = run["stats"].as_array().unwrap();
    stats
        .iter()
        .map(|s| s["verdict"].as_str().unwrap())
        .collect()
}

/// The cells after the run and the statistic (or note) of the table row for `what`.
fn row<'t>(table: &'t str, run: &str, what: &str) -> Option<Vec<&'t str>> {
    table.lines().find_map(|l| {
        let rest = l.strip_prefix(run)?.trim_start().strip_prefix(what)?;
        rest.starts_with(' ')
            .then(|| rest.split_whitespace().collect())
    })
}

fn verdicts(doc: &Value) -> Vec<(String, String)> {
    doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                r["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The baseline the project checks in, every run as recorded. It must cover every
/// program `wsim run` can run by itself.
#[test]
fn the_project_baseline_holds() {
    common::programs_dir();
    let file = root().join("baselines/project.toml");
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("check.json");
    let out = wsim(&[
        "regress",
        "check",
        file.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["verdict"], "ok");
    let baseline = std::fs::read_to_string(&file).unwrap();
    let runs = baseline.matches("[[run]]").count();
    assert_eq!(doc["counts"]["ok"], runs, "{doc:#}");
    assert!(runs >= 100, "{runs} runs");
    // Programs that cannot run alone: they fail by design (tests/cli/errors.rs), or need
    // values written into their memory by their test (microbench.rs, weaver.rs).
    let alone = |name: &str| {
        !(name.starts_with("errors/") || name.starts_with("ubench_") || name.ends_with("_edge_sum"))
    };
    for name in common::built_programs().iter().filter(|n| alone(n)) {
        let entry = format!("program = \"programs/build/{name}.elf\"");
        assert!(
            baseline.contains(&entry),
            "{name}.elf is not in baselines/project.toml: add a [[run]] for it and record it \
             (`wsim regress record baselines/project.toml --only '{name}@tiny'`, \
             docs/REGRESS.md); a program of your own goes in programs/user/, which the \
             project's tests skip"
        );
    }
}

const THREE_RUNS: &str = r#"
[[run]]
program = "programs/build/vecadd.elf"
config = "configs/tiny.toml"

[[run]]
# A graph program without the Weaver.
program = "programs/build/graph/bfs_vm_pull.elf"
config = "configs/tiny.toml"
graph = "gen:rmat:scale=7,ef=8"

[[run]]
program = "programs/build/graph/bfs_sparseweaver_pull.elf"
config = "configs/tiny.toml"
graph = "gen:rmat:scale=7,ef=8"
source = 1
stats = ["cycles", "warp_instructions", "weaver_batches", "phase_*_cycles"]
tolerance = { "phase_*_cycles" = "1%" }
"#;

/// Changing the Weaver's table latency moves the one run that uses the unit, by what
/// the table and the JSON say; the others stay as recorded. The override does not make
/// the records stale: it is a question asked of the baseline, not a change to it.
#[test]
fn a_latency_moves_exactly_the_runs_that_use_it() {
    common::programs_dir();
    let dir = tempfile::tempdir().unwrap();
    let file = baseline(dir.path(), THREE_RUNS);
    record(&file, &[]);
    let (out, doc) = check(&file, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    let (out, doc2) = check(&file, &["--set", "weaver.table_latency=80"]);
    let table = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(
        doc2["overrides"],
        serde_json::json!(["weaver.table_latency=80"])
    );
    let weaver = "bfs_sparseweaver_pull@tiny";
    assert_eq!(
        verdicts(&doc2),
        [
            ("vecadd@tiny".to_string(), "ok".to_string()),
            ("bfs_vm_pull@tiny".into(), "ok".into()),
            (weaver.into(), "failed".into()),
        ]
    );
    for name in ["vecadd@tiny", "bfs_vm_pull@tiny"] {
        let r = run(&doc2, name);
        assert!(stat_verdicts(r).iter().all(|v| *v == "same"), "{r:#}");
        assert!(!table.contains(name), "{table}");
    }
    let r = run(&doc2, weaver);
    assert_eq!(r["notes"], serde_json::json!([]), "moved, not stale: {r:#}");
    let stats = r["stats"].as_array().unwrap();
    let cycles = stats.iter().find(|s| s["name"] == "cycles").unwrap();
    let (before, now) = (
        cycles["baseline"].as_f64().unwrap(),
        cycles["now"].as_f64().unwrap(),
    );
    assert!(now > before, "a slower table: {cycles}");
    assert_eq!(cycles["verdict"], "moved");
    let pct = 100.0 * (now - before) / before;
    assert!((cycles["change_pct"].as_f64().unwrap() - pct).abs() < 1e-9);
    // The baseline is the recorded value; the table shows the row with its change.
    let recorded = run(&doc, weaver)["stats"].as_array().unwrap()[0]["now"].clone();
    assert_eq!(cycles["baseline"], recorded);
    let (before_cell, now_cell, pct_cell) =
        (before.to_string(), now.to_string(), format!("{pct:+.2}%"));
    assert_eq!(
        row(&table, weaver, "cycles"),
        Some(vec![&*before_cell, &now_cell, &pct_cell, "exact", "MOVED"]),
        "{table}"
    );
    // Every moved statistic is judged by its own tolerance; only moved ones are listed.
    for s in stats {
        let name = s["name"].as_str().unwrap();
        let expected = if name.starts_with("phase_") {
            "±1%"
        } else {
            "exact"
        };
        assert_eq!(s["tolerance"], expected, "{s}");
        assert_eq!(
            row(&table, weaver, name).is_some(),
            s["verdict"] != "same",
            "{name}: {table}"
        );
    }
    assert!(
        table.contains("with --set weaver.table_latency=80: 3 runs: 2 ok, 1 failed"),
        "{table}"
    );
}

/// A different program (another ELF under the same name, or the same one with a byte of
/// its non-loaded `.comment` section changed) or a different configuration makes a
/// record stale (exit status 5), whatever its statistics did.
#[test]
fn an_edited_program_or_configuration_makes_its_record_stale() {
    let dir = tempfile::tempdir().unwrap();
    let elf = dir.path().join("prog.elf");
    std::fs::copy(program("vecadd"), &elf).unwrap();
    let runs = format!(
        "[[run]]\nname = \"prog\"\nprogram = {:?}\nconfig = \"configs/tiny.toml\"\n\n\
         [[run]]\nprogram = \"programs/build/hello.elf\"\nconfig = \"configs/tiny.toml\"\n",
        elf.display().to_string()
    );
    let file = baseline(dir.path(), &runs);
    record(&file, &[]);

    // A byte that is never loaded: the cycles cannot move, the record is stale all the same.
    let mut bytes = std::fs::read(&elf).unwrap();
    let at = bytes
        .windows(13)
        .position(|w| w == b"clang version")
        .expect("clang's .comment");
    bytes[at] = b'C';
    std::fs::write(&elf, &bytes).unwrap();
    let (out, doc) = check(&file, &[]);
    assert_eq!(out.status.code(), Some(5), "{}", text(&out));
    let prog = run(&doc, "prog");
    assert_eq!(prog["verdict"], "stale");
    assert_eq!(prog["notes"][0]["what"], "program");
    assert!(stat_verdicts(prog).iter().all(|v| *v == "same"), "{prog:#}");
    assert_eq!(run(&doc, "hello@tiny")["verdict"], "ok");
    let table = String::from_utf8_lossy(&out.stdout);
    let cells = row(&table, "prog", "program").unwrap_or_else(|| panic!("{table}"));
    assert_eq!(cells.last(), Some(&"STALE"), "{table}");

    // Another program: its statistics move, shown as stale, not as a regression.
    std::fs::copy(program("hello"), &elf).unwrap();
    let (out, doc) = check(&file, &[]);
    assert_eq!(out.status.code(), Some(5), "{}", text(&out));
    let prog = run(&doc, "prog");
    assert_eq!(prog["verdict"], "stale");
    assert!(stat_verdicts(prog).contains(&"moved"), "{prog:#}");
    let table = String::from_utf8_lossy(&out.stdout);
    let cells = row(&table, "prog", "cycles").unwrap_or_else(|| panic!("{table}"));
    assert_eq!(cells.last(), Some(&"stale"), "{table}");
    assert!(!table.contains("MOVED"), "{table}");

    // Recording again brings it up to date; then an edited `set` makes it stale.
    record(&file, &["--only", "prog"]);
    let (out, _) = check(&file, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let edited = std::fs::read_to_string(&file).unwrap().replacen(
        "config = \"configs/tiny.toml\"\n",
        "config = \"configs/tiny.toml\"\nset = [\"memory.dram.clock_ratio=3\"]\n",
        1,
    );
    std::fs::write(&file, edited).unwrap();
    let (out, doc) = check(&file, &[]);
    assert_eq!(out.status.code(), Some(5), "{}", text(&out));
    assert_eq!(run(&doc, "prog")["notes"][0]["what"], "config");
}

/// `record` writes only records whose measurements changed, keeps the file's comments,
/// and with `--only` touches only the runs selected; a second record changes nothing.
#[test]
fn records_change_only_when_measurements_do() {
    common::programs_dir();
    let dir = tempfile::tempdir().unwrap();
    let file = baseline(dir.path(), THREE_RUNS);
    let out = record(
        &file,
        &["--only", "vecadd*", "--only", "*_vm_*", "--jobs", "1"],
    );
    // A first record says what it recorded, not that everything is as recorded.
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("recorded 2 runs in "), "{}", text(&out));
    assert!(said.contains(": 2 changed (vecadd"), "{}", text(&out));
    assert!(
        !said.contains("STALE") && !said.contains("record it") && !said.contains("as recorded\n"),
        "{said}"
    );
    let first = std::fs::read_to_string(&file).unwrap();
    assert_eq!(first.matches("[run.recorded]").count(), 2, "{first}");
    assert!(
        first.contains("# A graph program without the Weaver.\n"),
        "{first}"
    );
    let (out, doc) = check(&file, &[]);
    assert_eq!(out.status.code(), Some(5), "never recorded: {}", text(&out));
    assert_eq!(
        run(&doc, "bfs_sparseweaver_pull@tiny")["notes"][0]["what"],
        "recorded"
    );

    record(&file, &[]);
    let second = std::fs::read_to_string(&file).unwrap();
    assert!(second.starts_with(&first[..first.find("[[run]]\n# A graph").unwrap()]));
    let out = record(&file, &[]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("recorded 3 runs in"),
        "{}",
        text(&out)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(": 0 changed, 3 as recorded before"),
        "{}",
        text(&out)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), second);
    // Recorded: provenance, fingerprints, the statistics the run chose.
    for key in [
        "wsim = \"",
        "revision = \"",
        "program_sha256 = \"",
        "config_hash = \"",
        "graph_sha256 = \"",
        "exit_status = 0",
        "[run.recorded.stats]\ncycles = ",
        "weaver_batches = ",
        "phase_1_cycles = ",
    ] {
        assert!(second.contains(key), "{key}: {second}");
    }
}

/// A run whose simulation fails or whose program's exit status changes is a regression
/// (1); one that cannot start is an error (2), and `record` writes nothing while any run
/// fails.
#[test]
fn failures_and_runs_that_cannot_start() {
    let dir = tempfile::tempdir().unwrap();
    let file = baseline(
        dir.path(),
        "[[run]]\nprogram = \"programs/build/hello.elf\"\nconfig = \"configs/tiny.toml\"\n\n\
         [[run]]\nprogram = \"programs/build/simt_explicit.elf\"\nconfig = \"configs/tiny.toml\"\n",
    );
    record(&file, &[]);
    let (out, doc) = check(&file, &["--set", "run.max_cycles=1000"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let hello = run(&doc, "hello@tiny");
    assert_eq!(hello["notes"][0]["what"], "simulation");
    assert!(hello["exit_status"].is_null());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("hello@tiny (simulation): run exceeded run.max_cycles = 1000"),
        "{stdout}"
    );

    // One thread per warp: simt_explicit's own checks fail (its status names the check).
    let (out, doc) = check(&file, &["--set", "gpu.threads_per_warp=1"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let simt = run(&doc, "simt_explicit@tiny");
    assert_eq!(simt["verdict"], "failed");
    assert_eq!(simt["exit_status"], 4, "the program's status in the JSON");
    assert_eq!(
        simt["notes"][0],
        serde_json::json!({"what": "exit_status", "baseline": "0", "now": "4"})
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        row(&table, "simt_explicit@tiny", "exit status"),
        Some(vec!["0", "4", "FAILED"]),
        "{table}"
    );

    let missing = baseline(
        dir.path(),
        "[[run]]\nprogram = \"programs/build/nothing.elf\"\n",
    );
    let (out, doc) = check(&missing, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert_eq!(run(&doc, "nothing@default")["verdict"], "error");
    let out = wsim(&["regress", "record", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("nothing recorded: 1 run could not run"),
        "{}",
        text(&out)
    );
    assert!(!std::fs::read_to_string(&missing)
        .unwrap()
        .contains("recorded"));
}

/// A malformed baseline is an error naming the file and the key, exit status 2.
#[test]
fn malformed_baselines_name_the_file_and_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let vecadd = "[[run]]\nprogram = \"programs/build/vecadd.elf\"\n";
    let recorded = |stat: &str| {
        format!(
            "{vecadd}[run.recorded]\nwsim = \"0\"\nrevision = \"r\"\nprogram_sha256 = \"p\"\n\
             config_hash = \"c\"\nexit_status = 0\n[run.recorded.stats]\n{stat}\n"
        )
    };
    for (body, message) in [
        ("", "no runs: add [[run]] tables"),
        (
            "[[run]]\nconfig = \"x\"\n",
            "run 1 (unnamed): `program`: missing",
        ),
        (
            &format!("{vecadd}progam = 1\n"),
            "run 1 (vecadd@default): `progam`: unknown key (keys here: name, program,",
        ),
        (
            &format!("{vecadd}source = \"x\"\n"),
            "`source`: expected a non-negative integer, found string \"x\"",
        ),
        (
            &format!("{vecadd}load = [\"--symetrize\"]\n"),
            "`load`: unknown option `--symetrize`",
        ),
        (
            &format!("{vecadd}stats = [\"cycle\"]\n"),
            "`stats`: unknown statistic `cycle`",
        ),
        (
            &format!("{vecadd}stats = [\"phase.*.cycles\"]\n"),
            "`stats`: statistic `phase.*.cycles` has a new name: `phase.*.cycles` is now `phase_*_cycles`",
        ),
        (
            &format!("{vecadd}tolerance = {{ cycles = \"2 percent\" }}\n"),
            "`tolerance.cycles`: expected \"exact\", a percentage such as \"2%\"",
        ),
        (
            &format!("{vecadd}{vecadd}"),
            "runs 1 and 2 are both named `vecadd@default`",
        ),
        (
            &format!("{vecadd}[run.recorded]\nwsim = \"0.1.0\"\n"),
            "`recorded.revision`: missing",
        ),
        (
            &format!(
                "{vecadd}[run.recorded]\nwsim = \"0\"\nrevision = \"r\"\nprogram_sha256 = \"p\"\n\
                 config_hash = \"c\"\nexit_status = 0\n[run.recorded.stats]\ncycles = \"many\"\n"
            ),
            "`recorded.stats.cycles`: expected a non-negative integer, found string \"many\"",
        ),
        (&recorded("cycles = nan"), "`recorded.stats.cycles`: expected a count (a whole number), found NaN"),
        (&recorded("cycles = inf"), "`recorded.stats.cycles`: expected a count (a whole number), found inf"),
        (&recorded("cycles = 17086.9"), "`recorded.stats.cycles`: expected a count (a whole number), found 17086.9"),
        (&recorded("l2_hit_rate = nan"), "`recorded.stats.l2_hit_rate`: expected a hit rate from 0 to 1, found NaN"),
        (&recorded("l2_hit_rate = 1.5"), "`recorded.stats.l2_hit_rate`: expected a hit rate from 0 to 1, found 1.5"),
        ("[[run]\n", "not valid TOML"),
    ] {
        let file = baseline(dir.path(), body);
        let out = wsim(&["regress", "check", file.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{body}: {}", text(&out));
        assert!(err.contains(&file.display().to_string()), "{body}: {err}");
        assert!(
            err.contains(message),
            "{body}\nwanted: {message}\ngot: {err}"
        );
    }
    let file = baseline(dir.path(), vecadd);
    for (option, message) in [
        (["--only", "hello*"], "no run is named like `hello*`"),
        (
            ["--set", "gpu.warps=3"],
            "--set gpu.warps=3: unknown key `gpu.warps`",
        ),
    ] {
        let out = wsim(&[&["regress", "check", file.to_str().unwrap()][..], &option].concat());
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(text(&out).contains(message), "{}", text(&out));
    }
}

/// Records of one baseline made at once all land: each process writes under a lock of
/// the baseline's directory, reading the file again and replacing only its own runs'
/// records (two at once used to keep only the last writer's).
#[test]
fn concurrent_records_of_one_baseline_all_land() {
    let dir = tempfile::tempdir().unwrap();
    let file = baseline(dir.path(), THREE_RUNS);
    let names = [
        "vecadd@tiny",
        "bfs_vm_pull@tiny",
        "bfs_sparseweaver_pull@tiny",
    ];
    // All three started before any waits.
    let children: Vec<_> = names
        .iter()
        .map(|name| {
            Command::new(env!("CARGO_BIN_EXE_wsim"))
                .args(["regress", "record", file.to_str().unwrap(), "--only", name])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", text(&out));
    }
    let (out, doc) = check(&file, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    for name in names {
        assert!(!run(&doc, name).is_null(), "{name}");
    }
}

/// `regress check` is linear in the baseline's runs: reading one looked each run's name
/// up among all before it (8,000 runs took 0.44 s, 100,000 took 24 s; 2.2 s now). Timed
/// as a ratio, so a loaded machine does not fail it: 12 times the runs took 68 times
/// as long (0.12 s, 8.2 s), and take some 14 times now (0.10 s, 1.4 s).
#[test]
fn checking_a_baseline_is_linear_in_its_runs() {
    let dir = tempfile::tempdir().unwrap();
    let took = |n: usize| {
        let runs: String = (0..n)
            .map(|i| format!("[[run]]\nname = \"r{i}\"\nprogram = \"missing.elf\"\n\n"))
            .collect();
        let file = baseline(dir.path(), &runs);
        let started = std::time::Instant::now();
        let out = wsim(&["regress", "check", file.to_str().unwrap()]);
        let took = started.elapsed().as_secs_f64();
        let summary = format!("{n} runs: 0 ok, 0 failed, 0 stale, {n} could not run");
        assert!(
            text(&out).contains(&summary),
            "{}",
            text(&out).lines().last().unwrap_or("")
        );
        took
    };
    let (small, large) = (took(5_000), took(60_000));
    assert!(
        large < 30.0 * small,
        "5,000 runs {small:.2} s, 60,000 {large:.2} s"
    );
}
