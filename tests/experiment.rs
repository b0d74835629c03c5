//! `wsim experiment`: runs cached under their inputs' key (an interrupted experiment
//! reruns only what is missing; a changed program or configuration exactly its runs),
//! failed runs kept, shards that add up to the local run, the table's columns, plots
//! redrawn from the table, and errors in experiment files.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::{program, root, succeeded, wsim, wsim_command, wsim_in};

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// An experiment file `name.toml` in `dir` with `body` (programs etc.), on `tiny`.
fn experiment(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    let config = root().join("configs/tiny.toml");
    std::fs::write(&path, format!("config = '{}'\n{body}", config.display())).unwrap();
    path
}

/// `wsim experiment run FILE --out DIR/out`: (cached, run) from its summary line, and
/// the output.
fn run(file: &Path, extra: &[&str]) -> ((usize, usize), Output) {
    let out = file.parent().unwrap().join("out");
    let mut args = vec![
        "experiment",
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    let output = wsim(&args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let line = stderr
        .lines()
        .find(|l| l.starts_with("experiment "))
        .unwrap_or_else(|| panic!("no summary line: {stderr}"));
    // experiment NAME: N runs: C cached, R run in S s
    let numbers: Vec<usize> = line
        .split([' ', ',', ':'])
        .filter_map(|w| w.parse().ok())
        .collect();
    ((numbers[1], numbers[2]), output)
}

fn table(path: &Path) -> Vec<BTreeMap<String, String>> {
    common::csv_rows(&text(path))
}

/// The table without the host's time (the only column two executions may differ in).
fn without_host_time(rows: &[BTreeMap<String, String>]) -> Vec<BTreeMap<String, String>> {
    rows.iter()
        .map(|r| {
            let mut r = r.clone();
            assert!(r.remove("host_seconds").is_some(), "a host_seconds column");
            r
        })
        .collect()
}

fn cache_entries(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .map(|p| {
                    (
                        p.file_name().unwrap().to_string_lossy().into_owned(),
                        text(&p),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn an_interrupted_experiment_reruns_only_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let pr = common::programs_dir().join("graph/pr_vm_pull.elf");
    let file = experiment(
        dir.path(),
        "interrupted",
        &format!(
            "[[programs]]\nfiles = ['{}']\niterations = 3\n\
             [[graphs]]\nspec = 'gen:rmat:scale=11,ef=8'\n\
             [[axes]]\nname = 'latency'\nkey = 'memory.l2.hit_latency'\nvalues = [10, 12, 14, 16, 18, 20, 22, 24]\n",
            pr.display()
        ),
    );
    let cache = dir.path().join("out/cache");
    // One run at a time, stopped once two are cached: the third is half done.
    let mut child = Command::new(env!("CARGO_BIN_EXE_wsim"))
        .args(["experiment", "run", file.to_str().unwrap(), "--out"])
        .arg(dir.path().join("out"))
        .env("RAYON_NUM_THREADS", "1")
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while cache_entries(&cache).len() < 2 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the experiment ended before it could be interrupted"
        );
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no run finished"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = cache_entries(&cache);
    assert!((2..8).contains(&before.len()), "{} cached", before.len());
    let leftovers: Vec<_> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| !n.to_string_lossy().ends_with(".json"))
        .collect();
    // A run killed while writing leaves at most its temporary file, never a cached run.
    assert!(leftovers.len() <= 1, "{leftovers:?}");

    let ((cached, ran), out) = run(&file, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!((cached, ran), (before.len(), 8 - before.len()));
    let after = cache_entries(&cache);
    assert_eq!(after.len(), 8);
    for (name, entry) in &before {
        assert_eq!(&after[name], entry, "a cached run is kept as it was");
    }
    let rows = table(&dir.path().join("out/interrupted.csv"));
    assert_eq!(rows.len(), 8);
    assert!(rows
        .iter()
        .all(|r| r["verdict"] == "ok" && r["verified"] == "yes"));
    let latencies: Vec<&str> = rows.iter().map(|r| r["latency"].as_str()).collect();
    assert_eq!(latencies, ["10", "12", "14", "16", "18", "20", "22", "24"]);

    // Everything cached now: nothing runs, and the table is the same.
    let ((cached, ran), _) = run(&file, &[]);
    assert_eq!((cached, ran), (8, 0));
    assert_eq!(table(&dir.path().join("out/interrupted.csv")), rows);
}

#[test]
fn a_changed_program_or_configuration_reruns_exactly_its_runs() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.elf");
    let b = dir.path().join("b.elf");
    std::fs::copy(program("hello"), &a).unwrap();
    std::fs::copy(program("vecadd"), &b).unwrap();
    let body = |values: &str, b_set: &str| {
        format!(
            "[[programs]]\nfiles = ['a.elf']\n\
             [[programs]]\nfiles = ['b.elf']\nset = [{b_set}]\n\
             [[axes]]\nname = 'ratio'\nkey = 'memory.dram.clock_ratio'\nvalues = [{values}]\n"
        )
    };
    let file = experiment(dir.path(), "changes", &body("1, 2", ""));
    let csv = dir.path().join("out/changes.csv");
    let seconds = |rows: &[BTreeMap<String, String>]| -> Vec<String> {
        rows.iter().map(|r| r["host_seconds"].clone()).collect()
    };
    assert_eq!(run(&file, &[]).0, (0, 4));
    let first = table(&csv);
    assert_eq!(run(&file, &[]).0, (4, 0));

    // b's bytes change: b's two runs, and only they, run again.
    std::fs::copy(program("atomics"), &b).unwrap();
    assert_eq!(run(&file, &[]).0, (2, 2));
    let second = table(&csv);
    assert_eq!(
        seconds(&second)[..2],
        seconds(&first)[..2],
        "a's rows come from the cache"
    );
    assert_ne!(
        second[2]["warp_instructions"],
        first[2]["warp_instructions"]
    );

    // An axis value changes: the runs with the new value.
    experiment(dir.path(), "changes", &body("1, 3", ""));
    assert_eq!(run(&file, &[]).0, (2, 2));
    // A configuration key for b's runs only.
    experiment(
        dir.path(),
        "changes",
        &body("1, 3", "'memory.l2.hit_latency=33'"),
    );
    assert_eq!(run(&file, &[]).0, (2, 2));
    // Back to what was run before: all cached.
    experiment(dir.path(), "changes", &body("1, 2", ""));
    assert_eq!(run(&file, &[]).0, (4, 0));
    // The configuration file itself changes: every run.
    let config = dir.path().join("tiny.toml");
    let tiny = text(&root().join("configs/tiny.toml"));
    std::fs::write(&config, format!("{tiny}\n")).unwrap();
    let edited = format!("config = '{}'\n{}", config.display(), body("1, 2", ""));
    std::fs::write(&file, &edited).unwrap();
    assert_eq!(run(&file, &[]).0, (4, 0), "the same resolved configuration");
    assert!(!tiny.contains("[run]"));
    std::fs::write(&config, format!("{tiny}\n[run]\nmax_cycles = 99999999\n")).unwrap();
    assert_eq!(run(&file, &[]).0, (0, 4));
}

#[test]
fn failed_runs_are_kept_with_their_error_and_statistics() {
    let dir = tempfile::tempdir().unwrap();
    let file = experiment(
        dir.path(),
        "failing",
        &format!(
            "set = ['run.max_cycles=20000']\n[[programs]]\nfiles = ['{}', '{}']\n",
            program("hello").display(),
            program("vecadd").display()
        ),
    );
    let ((_, ran), out) = run(&file, &[]);
    assert_eq!(ran, 2);
    assert_eq!(out.status.code(), Some(1), "a failed run fails the command");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1 run did not succeed")
            && err.contains("#1 vecadd: failed (run exceeded run.max_cycles = 20000)"),
        "{err}"
    );
    let rows = table(&dir.path().join("out/failing.csv"));
    assert_eq!(rows[0]["verdict"], "ok");
    let failed = &rows[1];
    assert_eq!(failed["verdict"], "failed");
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["error"], "run exceeded run.max_cycles = 20000");
    assert_eq!(
        failed["cycles"], "20000",
        "the statistics up to the failure"
    );
    assert!(failed["warp_instructions"].parse::<u64>().unwrap() > 0);
    assert_eq!(failed["exit"], "", "the program did not exit");
    // A failure is a result like any other: kept, not run again.
    let ((cached, ran), _) = run(&file, &[]);
    assert_eq!((cached, ran), (2, 0));
}

#[test]
fn shards_add_up_to_the_local_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = experiment(
        dir.path(),
        "sharded",
        &format!(
            "[[programs]]\nfiles = ['{}', '{}']\n\
             [[axes]]\nname = 'ratio'\nkey = 'memory.dram.clock_ratio'\nvalues = [1, 2, 3]\n",
            program("hello").display(),
            program("vecadd").display()
        ),
    );
    let local = dir.path().join("local");
    let out = wsim(&[
        "experiment",
        "run",
        file.to_str().unwrap(),
        "--out",
        local.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let shared = dir.path().join("shared");
    let shared_arg = shared.to_str().unwrap();
    // Before every shard has run, collect names what is missing.
    let first = wsim(&[
        "experiment",
        "run",
        file.to_str().unwrap(),
        "--out",
        shared_arg,
        "--shard",
        "0/4",
    ]);
    let err = String::from_utf8_lossy(&first.stderr);
    assert!(
        err.contains("2 runs (shard 0/4 of 6): 0 cached, 2 run"),
        "{err}"
    );
    assert!(
        !shared.join("sharded.csv").exists(),
        "a shard writes no table"
    );
    let early = wsim(&[
        "experiment",
        "collect",
        file.to_str().unwrap(),
        "--out",
        shared_arg,
    ]);
    assert_eq!(early.status.code(), Some(2));
    let err = String::from_utf8_lossy(&early.stderr);
    assert!(
        err.contains("4 of 6 runs are not in") && err.contains("#1 hello ratio=2"),
        "{err}"
    );
    let file_arg = file.to_str().unwrap();
    for shard in ["1/4", "2/4", "3/4"] {
        common::wsim_ok(&[
            "experiment",
            "run",
            file_arg,
            "--out",
            shared_arg,
            "--shard",
            shard,
        ]);
    }
    common::wsim_ok(&["experiment", "collect", file_arg, "--out", shared_arg]);
    assert_eq!(
        without_host_time(&table(&shared.join("sharded.csv"))),
        without_host_time(&table(&local.join("sharded.csv")))
    );
    assert!(
        wsim(&[
            "experiment",
            "run",
            file.to_str().unwrap(),
            "--shard",
            "4/4"
        ])
        .status
        .code()
            == Some(2)
    );
}

#[test]
fn the_table_identifies_each_run_and_plots_redraw_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let build = common::programs_dir().join("graph");
    let file = experiment(
        dir.path(),
        "plotted",
        &format!(
            "[[programs]]\nfiles = ['{0}/bfs_vm_push.elf', '{0}/bfs_em_push.elf']\nsource = 3\n\
             [[graphs]]\nname = 'small'\nspec = 'gen:rmat:scale=7,ef=4'\nsymmetrize = true\n\
             [[graphs]]\nname = 'grid'\nspec = 'gen:grid:w=8,h=8'\n\
             [[axes]]\nname = 'ratio'\nkey = 'memory.dram.clock_ratio'\nvalues = [1, 2]\nunit = 'core cycles per DRAM cycle'\n\
             [[plots]]\nname = 'speedup'\nkind = 'speedup'\nx = 'graph'\nseries = 'schedule'\nbaseline = 'VM'\nwhere = {{ ratio = 2 }}\n\
             [[plots]]\nname = 'slots'\nkind = 'breakdown'\nparts = 'slots'\nx = 'schedule'\nseries = 'graph'\nwhere = {{ ratio = 1 }}\n\
             [[plots]]\nname = 'lines'\nkind = 'line'\nx = 'ratio'\nseries = 'schedule'\nwhere = {{ graph = 'grid' }}\n",
            build.display()
        ),
    );
    let (_, out) = run(&file, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out_dir = dir.path().join("out");
    let rows = table(&out_dir.join("plotted.csv"));
    assert_eq!(rows.len(), 8);
    let first = &rows[0];
    for (column, value) in [
        ("experiment", "plotted"),
        ("run", "0"),
        ("program", "bfs_em_push"),
        ("algorithm", "BFS"),
        ("schedule", "EM"),
        ("direction", "push"),
        ("graph", "small"),
        ("graph_spec", "gen:rmat:scale=7,ef=4"),
        ("graph_options", "--symmetrize"),
        ("source", "3"),
        ("ratio", "1"),
        ("verdict", "ok"),
        ("verified", "yes"),
    ] {
        assert_eq!(first[column], value, "{column}");
    }
    let version = String::from_utf8(wsim(&["--version"]).stdout).unwrap();
    assert!(version.contains(first["wsim_version"].split(' ').next().unwrap()));
    // The slots add up to cycles x cores x issue slots, so the breakdown is complete.
    let slots: u64 = first
        .iter()
        .filter(|(k, _)| k.starts_with("slots_"))
        .map(|(_, v)| v.parse::<u64>().unwrap())
        .sum();
    let cycles: u64 = first["cycles"].parse().unwrap();
    assert_eq!(slots, 2 * cycles, "tiny: 2 cores, one issue slot each");
    for column in [
        "ipc",
        "l1d_hit_rate",
        "dram_bandwidth",
        "phase_0_cycles",
        "weaver_batches",
    ] {
        assert!(!first[column].is_empty(), "{column}");
    }
    let speedup = text(&out_dir.join("speedup.svg"));
    for label in [
        "speedup over VM",
        "geomean",
        "small",
        "grid",
        "experiment plotted",
        "graph small, grid",
    ] {
        assert!(speedup.contains(label), "speedup.svg lacks {label}");
    }
    let lines = text(&out_dir.join("lines.svg"));
    assert!(lines.contains("ratio (memory.dram.clock_ratio, core cycles per DRAM cycle)"));
    assert!(lines.contains("cycles"));
    assert!(text(&out_dir.join("slots.svg")).contains("scoreboard_memory"));

    // Redrawn from the table alone: the same figures, nothing runs.
    std::fs::remove_dir_all(out_dir.join("cache")).unwrap();
    for plot in ["speedup", "slots", "lines"] {
        std::fs::remove_file(out_dir.join(format!("{plot}.svg"))).unwrap();
    }
    let redraw = wsim(&[
        "experiment",
        "plot",
        file.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(
        redraw.status.success(),
        "{}",
        String::from_utf8_lossy(&redraw.stderr)
    );
    assert_eq!(text(&out_dir.join("speedup.svg")), speedup);
    assert_eq!(text(&out_dir.join("lines.svg")), lines);
}

#[test]
fn experiment_file_errors_name_what_and_where() {
    let dir = tempfile::tempdir().unwrap();
    let hello = program("hello");
    let cases: [(&str, String, &str); 17] = [
        ("source word", format!("[[programs]]\nfiles = ['{}']\nsource = 'hubb'\n", hello.display()), "source must be a vertex index or \"hub\""),
        (
            "hub and a source axis",
            format!("[[programs]]\nfiles = ['{}']\nsource = 'hub'\n[[axes]]\nname = 's'\nargument = 'source'\nvalues = [1]\n", hello.display()),
            "programs[0] sets `source`, which axis `s` sweeps: leave one",
        ),
        ("unknown key", format!("[[programs]]\nfiles = ['{}']\nitterations = 3\n", hello.display()), "unknown field `itterations`"),
        ("no match", "[[programs]]\nfiles = ['missing_*.elf']\n".into(), "programs[0]: `missing_*.elf` matches no program"),
        (
            // Found by the experiment-file fuzz target: a folder was read as a program.
            "a folder",
            format!("[[programs]]\nfiles = ['{}']\n", hello.parent().unwrap().display()),
            "matches no program",
        ),
        (
            "listed twice",
            format!("[[programs]]\nfiles = ['{0}', '{0}']\n", hello.display()),
            "lists only programs an earlier pattern of this entry lists (hello.elf): list each once",
        ),
        ("no programs", "set = []\n".into(), "no [[programs]]: an experiment runs at least one program (or says [external])"),
        (
            "key twice",
            format!("[[programs]]\nfiles = ['{}']\n[[axes]]\nname = 'a'\nkey = 'gpu.warps_per_core'\nvalues = [1]\n[[axes]]\nname = 'b'\nkey = 'gpu.warps_per_core'\nvalues = [2]\n", hello.display()),
            "`gpu.warps_per_core` is varied twice",
        ),
        (
            "bad value",
            format!("[[programs]]\nfiles = ['{}']\n[[axes]]\nname = 'w'\nkey = 'gpu.threads_per_warp'\nvalues = [64]\n", hello.display()),
            "gpu.threads_per_warp = 64",
        ),
        (
            "plot column",
            format!("[[programs]]\nfiles = ['{}']\n[[plots]]\nname = 'p'\nkind = 'line'\nx = 'ratoi'\n", hello.display()),
            "plot `p`: no column ratoi",
        ),
        (
            "graph option",
            format!("[[programs]]\nfiles = ['{}']\n[[graphs]]\nspec = 'gen:rmat:scale=4'\nweights = 'heavy'\n", hello.display()),
            "graph `gen:rmat:scale=4`",
        ),
        (
            "key and argument",
            format!("[[programs]]\nfiles = ['{}']\n[[axes]]\nname = 'f'\nkey = 'gpu.cores'\nargument = 'features'\nvalues = [1]\n", hello.display()),
            "axes[0] `f`: give exactly one of `key` (a configuration key) and `argument`",
        ),
        (
            "neither",
            format!("[[programs]]\nfiles = ['{}']\n[[axes]]\nname = 'f'\nvalues = [1]\n", hello.display()),
            "axes[0] `f`: give exactly one of `key`",
        ),
        (
            "argument value",
            format!("[[programs]]\nfiles = ['{}']\n[[axes]]\nname = 'f'\nargument = 'features'\nvalues = [16, 'wide']\n", hello.display()),
            "axis `f`: a value of the argument features is a whole number",
        ),
        (
            "argument twice",
            format!("[[programs]]\nfiles = ['{}']\niterations = 3\n[[axes]]\nname = 'n'\nargument = 'iterations'\nvalues = [1, 2]\n", hello.display()),
            "programs[0] sets `iterations`, which axis `n` sweeps: leave one",
        ),
        (
            "axis named as a column",
            format!("[[programs]]\nfiles = ['{}']\n[[axes]]\nname = 'cycles'\nkey = 'gpu.warps_per_core'\nvalues = [1]\n", hello.display()),
            "axis `cycles`: the table has a column of that name already",
        ),
        (
            "relative without baseline",
            format!("[[programs]]\nfiles = ['{}']\n[[plots]]\nname = 'p'\nkind = 'breakdown'\nparts = 'phases'\nx = 'schedule'\nscale = 'relative'\n", hello.display()),
            "plot `p`: scale = \"relative\" needs `relative_to",
        ),
    ];
    for (what, body, expected) in cases {
        refused(dir.path(), what, &body, &[], expected);
    }
}

/// `wsim experiment run bad.toml EXTRA` with `body` in `dir` fails before it runs, with
/// an error that names the file and says `expected`.
fn refused(dir: &Path, what: &str, body: &str, extra: &[&str], expected: &str) {
    let file = experiment(dir, "bad", body);
    let mut args = vec!["experiment", "run", file.to_str().unwrap()];
    args.extend(extra);
    let out = wsim_in(dir, &args);
    assert_eq!(out.status.code(), Some(2), "{what}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(expected) && err.contains("bad.toml"),
        "{what}: {err}"
    );
}

#[test]
fn wsim_plot_draws_one_runs_issue_slots_per_core_and_phase() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("pr.json");
    let config = root().join("configs/tiny.toml");
    let pr = common::programs_dir().join("graph/pr_sparseweaver_pull.elf");
    let out = wsim(&[
        "run",
        "-c",
        config.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        pr.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plotted = wsim(&["plot", json.to_str().unwrap()]);
    assert!(
        plotted.status.success(),
        "{}",
        String::from_utf8_lossy(&plotted.stderr)
    );
    let svg = text(&dir.path().join("pr.svg"));
    // The figure's words, with caption lines wrapped to its width joined again.
    let words = (svg.split('<'))
        .filter_map(|tag| tag.split_once('>').map(|(_, text)| text.trim()))
        .filter(|text| !text.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    for label in [
        "issue slots per core",
        "issue slots per phase (all cores)",
        "share of the core&apos;s issue slots (%)",
        "weaver",
        "scoreboard_memory",
        "graph gen:rmat:scale=8,ef=8",
    ] {
        assert!(words.contains(label), "pr.svg lacks {label}: {words}");
    }
    // A bar per core (tiny: 2) and per phase (the graph framework's 7), each a stack.
    let report: serde_json::Value = serde_json::from_str(&text(&json)).unwrap();
    let phases = report["phases"].as_object().unwrap().len();
    assert!(phases > 1);
    let bars = svg.matches("<rect").count();
    assert!(bars > 2 + phases, "{bars} rectangles");

    std::fs::write(
        dir.path().join("other.json"),
        "{\"schema\": \"wsim-regress/1\"}",
    )
    .unwrap();
    let wrong = wsim(&["plot", dir.path().join("other.json").to_str().unwrap()]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("other.json: not a wsim run's report"));
}

#[test]
fn profiles_substitute_typed_and_textual_values_into_their_own_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let pr = common::programs_dir().join("graph/pr_vm_pull.elf");
    let file = experiment(
        dir.path(),
        "profiled",
        &format!(
            "profile = 'quick'\n\
             [profiles.quick]\nscale = 5\niters = 2\n\
             [profiles.full]\nscale = 6\niters = 3\n\
             [profiles.again]\nscale = 5\niters = 2\n\
             [[programs]]\nfiles = ['{}']\niterations = '${{iters}}'\n\
             [[graphs]]\nname = 'rmat-${{scale}}'\nspec = 'gen:rmat:scale=${{scale}},ef=4'\n",
            pr.display()
        ),
    );
    let file = file.to_str().unwrap();
    let cache = dir.path().join("cache");
    let cache = cache.to_str().unwrap();
    // The default profile, then another, into results/NAME/PROFILE/.
    for (profile, scale, iterations) in [(None, "5", "2"), (Some("full"), "6", "3")] {
        let mut args = vec!["experiment", "run", file, "--cache", cache];
        args.extend(profile.iter().flat_map(|p| ["--profile", *p]));
        let out = wsim_in(dir.path(), &args);
        succeeded(&out);
        let name = profile.unwrap_or("quick");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!(
                "experiment profiled (profile {name}): 1 run: 0 cached, 1 run"
            )),
            "{err}"
        );
        let rows = table(
            &dir.path()
                .join(format!("results/profiled/{name}/profiled.csv")),
        );
        let row = &rows[0];
        assert_eq!(row["profile"], name);
        assert_eq!(row["iterations"], iterations, "typed: a number");
        assert_eq!(row["graph_spec"], format!("gen:rmat:scale={scale},ef=4"));
        assert_eq!(row["graph"], format!("rmat-{scale}"));
        assert_eq!(
            row["vertices"],
            (1u32 << scale.parse::<u32>().unwrap()).to_string()
        );
        assert_eq!(row["verified"], "yes");
    }
    // A profile with quick's values is quick's runs: the values, not the name, are keyed.
    let out = wsim_in(
        dir.path(),
        &[
            "experiment",
            "run",
            file,
            "--cache",
            cache,
            "--profile",
            "again",
        ],
    );
    succeeded(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 run: 1 cached, 0 run"));
    // The Slurm script's tasks read the file under the same profile.
    let out = wsim_in(
        dir.path(),
        &["experiment", "slurm", file, "--profile", "full"],
    );
    succeeded(&out);
    let script = text(&dir.path().join("results/profiled/full/profiled.sbatch"));
    assert!(
        script.contains("experiment run") && script.matches("--profile 'full'").count() == 2,
        "{script}"
    );
}

#[test]
fn profile_errors_name_the_variable_the_profile_and_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let hello = program("hello");
    let programs = format!("[[programs]]\nfiles = ['{}']\n", hello.display());
    let cases: [(&str, String, &[&str], &str); 9] = [
        (
            "unknown variable",
            format!("profile = 'a'\n[profiles.a]\nx = 1\n{programs}set = ['memory.dram.clock_ratio=${{y}}']\n"),
            &[],
            "programs[0].set[0]: unknown variable `y` in profile `a` (it defines: x)",
        ),
        (
            "a variable another profile lacks",
            format!("profile = 'a'\n[profiles.a]\ny = 1\n[profiles.b]\nx = 1\n{programs}set = ['memory.dram.clock_ratio=${{y}}']\n"),
            &[],
            "unknown variable `y` in profile `b`",
        ),
        (
            "unknown profile",
            format!("profile = 'a'\n[profiles.a]\nx = 1\n{programs}"),
            &["--profile", "b"],
            "--profile b: no such profile (the file defines a)",
        ),
        (
            "unknown default",
            format!("profile = 'c'\n[profiles.a]\nx = 1\n{programs}"),
            &[],
            "`profile = \"c\"`: no such profile",
        ),
        (
            "no profiles",
            format!("{programs}set = ['memory.dram.clock_ratio=${{x}}']\n"),
            &[],
            "programs[0].set[0]: `${x}`, but the file defines no [profiles.NAME]",
        ),
        (
            "none chosen",
            format!("[profiles.a]\nx = 1\n[profiles.b]\nx = 2\n{programs}"),
            &[],
            "the file has profiles (a, b): choose one with --profile NAME",
        ),
        (
            "a dotted profile name",
            format!("profile = 'a'\n[profiles.a]\nx = 1\n[profiles.b-0.5]\nx = 2\n{programs}set = ['memory.dram.clock_ratio=${{x}}']\n"),
            &[],
            "unknown variable `x` in profile `b-0` (it defines: 5); a `.` in `[profiles.NAME]` \
             nests a table in a profile: quote such a name, `[profiles.\"NAME\"]`",
        ),
        (
            "a dotted profile chosen",
            format!("profile = 'a'\n[profiles.a]\nx = 1\n{programs}"),
            &["--profile", "a.5"],
            "--profile a.5: no such profile (the file defines a); a `.` in `[profiles.NAME]`",
        ),
        (
            "an array in text",
            format!("profile = 'a'\n[profiles.a]\nx = [1, 2]\n{programs}set = ['memory.dram.clock_ratio=${{x}}']\n"),
            &[],
            "variable `x` is an array: only a whole string \"${x}\" can take it",
        ),
    ];
    for (what, body, extra, expected) in cases {
        refused(dir.path(), what, &body, extra, expected);
    }
}

#[test]
fn several_files_run_in_turn_each_into_its_own_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let body = |name: &str| format!("[[programs]]\nfiles = ['{}']\n", program(name).display());
    let a = experiment(dir.path(), "first", &body("hello"));
    let b = experiment(dir.path(), "second", &body("vecadd"));
    let files = [a.to_str().unwrap(), b.to_str().unwrap()];
    let out = wsim_in(dir.path(), &["experiment", "run", files[0], files[1]]);
    succeeded(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("experiment first: 1 run:") && err.contains("experiment second: 1 run:"),
        "{err}"
    );
    for (name, program) in [("first", "hello"), ("second", "vecadd")] {
        let rows = table(&dir.path().join(format!("results/{name}/{name}.csv")));
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0]["program"], program);
        assert_eq!(rows[0]["profile"], "", "no profiles: an empty profile");
    }
    succeeded(&wsim_in(
        dir.path(),
        &["experiment", "collect", files[0], files[1]],
    ));
    // --out names one experiment's outputs.
    let out = wsim_in(
        dir.path(),
        &["experiment", "run", files[0], files[1], "--out", "x"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("--out names one experiment's file: give one experiment file with it, not 2"));
}

/// Every GCN design on a small graph at two layer widths: the arguments and launch groups
/// in the table, and phases relative to SparseWeaver's init as Figure 4.18 draws them.
#[test]
fn gcn_runs_sweep_an_argument_and_report_their_launch_groups() {
    let dir = tempfile::tempdir().unwrap();
    let gcn = common::programs_dir().join("gcn");
    let file = experiment(
        dir.path(),
        "gcn",
        &format!(
            "[[programs]]\nfiles = ['{}/gcn_*.elf']\ninput_features = 48\ninput_nnz = 6\n\
             [[graphs]]\nname = 'small'\nspec = 'gen:rmat:scale=5,ef=4'\nsymmetrize = true\n\
             [[axes]]\nname = 'features'\nargument = 'features'\nvalues = [8, 16]\n\
             [[plots]]\nname = 'phases'\nkind = 'breakdown'\nparts = 'phases'\nx = 'schedule'\n\
             series = 'features'\nscale = 'relative'\nrelative_to = {{ schedule = 'SparseWeaver' }}\n\
             group = 'features'\nrelative_part = 'init'\n\
             [[plots]]\nname = 'groups'\nkind = 'line'\nx = 'features'\nmetric = 'group_graphsum_cycles'\nseries = 'schedule'\n",
            gcn.display()
        ),
    );
    let (_, out) = run(&file, &[]);
    succeeded(&out);
    let out_dir = dir.path().join("out");
    let csv = out_dir.join("gcn.csv");
    let header = text(&csv).lines().next().unwrap().to_string();
    assert_eq!(
        header.split(',').filter(|c| *c == "features").count(),
        1,
        "an argument axis named as its argument shares its column: {header}"
    );
    let rows = table(&csv);
    assert_eq!(rows.len(), 14);
    let mut schedules: Vec<&str> = rows.iter().map(|r| r["schedule"].as_str()).collect();
    schedules.sort_unstable();
    schedules.dedup();
    assert_eq!(
        schedules,
        [
            "Accel-GCN",
            "BiKD",
            "EGHW",
            "GNNAdvisor",
            "SparseWeaver",
            "TLPGNN",
            "VM"
        ]
    );
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(r["verdict"], "ok", "{}: {}", r["program"], r["error"]);
        assert_eq!(r["verified"], "yes", "{}", r["program"]);
        assert_eq!(r["features"], ["8", "16"][k % 2]);
        assert_eq!(r["input_features"], "48");
        assert_eq!(r["input_nnz"], "6");
        assert_eq!(r["algorithm"], "GCN");
        let group = |g: &str| r[&format!("group_{g}_cycles")].parse::<u64>().unwrap();
        let cycles: u64 = r["cycles"].parse().unwrap();
        assert!(
            group("spmm") > 0 && group("graphsum") > 0,
            "{}",
            r["program"]
        );
        // The launches' cycles are part of the run's (which has the start-up besides).
        let launched: u64 = ["init", "spmm", "prepare", "graphsum"]
            .map(group)
            .iter()
            .sum();
        assert!(
            launched <= cycles,
            "{}: {launched} > {cycles}",
            r["program"]
        );
    }
    let twice = |r: &BTreeMap<String, String>| r["group_spmm_cycles"].parse::<u64>().unwrap();
    assert!(
        twice(&rows[1]) > twice(&rows[0]),
        "a wider layer's SpMM takes longer"
    );
    assert!(out_dir.join("phases.svg").is_file() && out_dir.join("groups.svg").is_file());
    assert!(text(&out_dir.join("phases.svg")).contains("phase 1 init"));

    // The relative breakdown's values: each row's phases over its group's SparseWeaver init.
    let table = wsim_harness::table::Table::read(&csv).unwrap();
    let spec = |extra: &str| -> wsim_harness::plot::PlotSpec {
        toml::from_str(&format!(
            "name = 'p'\nkind = 'breakdown'\nparts = 'phases'\nx = 'schedule'\nseries = 'features'\n{extra}"
        ))
        .unwrap()
    };
    let phase = |r: &BTreeMap<String, String>, p: u32| -> f64 {
        r[&format!("phase_{p}_warp_cycles")].parse().unwrap()
    };
    let phases: Vec<u32> = (0..)
        .take_while(|p| rows[0].contains_key(&format!("phase_{p}_warp_cycles")))
        .collect();
    let baseline = |features: &str| {
        rows.iter()
            .find(|r| r["schedule"] == "SparseWeaver" && r["features"] == features)
            .unwrap()
    };
    let relative = spec(
        "scale = 'relative'\nrelative_to = { schedule = 'SparseWeaver' }\ngroup = 'features'\nrelative_part = 'init'\n",
    )
    .breakdown(&table)
    .unwrap();
    let total = spec(
        "scale = 'relative'\nrelative_to = { schedule = 'SparseWeaver' }\ngroup = 'features'\n",
    )
    .breakdown(&table)
    .unwrap();
    let cycles = spec("scale = 'cycles'\n").breakdown(&table).unwrap();
    assert_eq!(relative.parts.len(), phases.len());
    assert!(!relative.percent && !cycles.percent);
    // Bars go by group (x, the schedule), then by series (the features): each row's bar.
    let labels: Vec<String> = (relative.groups.iter())
        .flat_map(|(g, n)| std::iter::repeat_n(g.clone(), *n))
        .zip(&relative.bars)
        .map(|(g, b)| format!("{g} {b}"))
        .collect();
    assert_eq!(labels.len(), rows.len());
    for r in &rows {
        let k = (labels.iter())
            .position(|l| *l == format!("{} {}", r["schedule"], r["features"]))
            .unwrap();
        let base = baseline(&r["features"]);
        let base_total: f64 = phases.iter().map(|&p| phase(base, p)).sum();
        for (i, &p) in phases.iter().enumerate() {
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1.0);
            assert!(close(relative.values[k][i], phase(r, p) / phase(base, 1)));
            assert!(close(total.values[k][i], phase(r, p) / base_total));
            assert_eq!(cycles.values[k][i], phase(r, p));
        }
        if r["schedule"] == "SparseWeaver" {
            assert_eq!(relative.values[k][1], 1.0, "the baseline's init is 1");
            let sum: f64 = total.values[k].iter().sum();
            assert!((sum - 1.0).abs() < 1e-12, "the baseline's total is 1");
        }
    }
    // A group without its baseline row is an error that names it.
    let only_vm = spec(
        "scale = 'relative'\nrelative_to = { schedule = 'SparseWeaver' }\ngroup = 'features'\nwhere = { schedule = 'VM' }\n",
    )
    .breakdown(&table)
    .unwrap_err();
    assert!(
        format!("{only_vm:#}").contains(
            "plot `p`: no baseline row (schedule=SparseWeaver) among the rows with features=8"
        ),
        "{only_vm:#}"
    );
}

#[test]
fn source_hub_starts_bfs_from_each_graphs_highest_degree_vertex() {
    let dir = tempfile::tempdir().unwrap();
    let star = dir.path().join("star.txt");
    // Vertex 5 has the most out-edges: internal index 4 (ids 1..=5 become 0..=4).
    std::fs::write(&star, "1 2\n5 1\n5 2\n5 3\n5 4\n").unwrap();
    let file = experiment(
        dir.path(),
        "hub",
        &format!(
            "[[programs]]\nfiles = ['{}']\nsource = 'hub'\n[[graphs]]\nname = 'star'\nspec = '{}'\n",
            program("graph/bfs_vm_push").display(),
            star.display()
        ),
    );
    let ((cached, ran), out) = run(&file, &[]);
    succeeded(&out);
    assert_eq!((cached, ran), (0, 1));
    let rows = table(&dir.path().join("out/hub.csv"));
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (rows[0]["source"].as_str(), rows[0]["verified"].as_str()),
        ("4", "yes")
    );
}

#[test]
fn graphs_option_runs_part_of_an_experiment() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "[[programs]]\nfiles = ['{}']\niterations = 1\n\
         [[graphs]]\nname = 'small'\nspec = 'gen:rmat:scale=5'\n\
         [[graphs]]\nname = 'large'\nspec = 'gen:rmat:scale=6'\n",
        program("graph/pr_vm_pull").display()
    );
    let file = experiment(dir.path(), "part", &body);
    let ((cached, ran), out) = run(&file, &["--graphs", "large"]);
    succeeded(&out);
    assert_eq!((cached, ran), (0, 1));
    let rows = table(&dir.path().join("out/part.csv"));
    let graphs: Vec<&str> = rows.iter().map(|r| r["graph"].as_str()).collect();
    assert_eq!(graphs, ["large"]);
    // The whole experiment then runs only what is missing.
    let ((cached, ran), out) = run(&file, &[]);
    succeeded(&out);
    assert_eq!((cached, ran), (1, 1));
    refused(
        dir.path(),
        "unknown graph",
        &body,
        &["--graphs", "huge"],
        "no graph `huge` (its graphs: small, large)",
    );
    refused(
        dir.path(),
        "unknown program",
        &body,
        &["--programs", "bfs_*"],
        "no program matches `bfs_*`",
    );
}

#[test]
fn programs_option_runs_part_of_an_experiment() {
    let dir = tempfile::tempdir().unwrap();
    let file = experiment(
        dir.path(),
        "part",
        &format!(
            "[[programs]]\nfiles = ['{}', '{}']\niterations = 1\n\
             [[graphs]]\nname = 'small'\nspec = 'gen:rmat:scale=5'\n\
             [[plots]]\nname = 'vm'\nkind = 'line'\nx = 'graph'\nmetric = 'cycles'\n\
             where = {{ schedule = 'VM' }}\n",
            program("graph/pr_vm_pull").display(),
            program("graph/pr_em_pull").display()
        ),
    );
    let ((cached, ran), out) = run(&file, &["--programs", "*_em_*"]);
    succeeded(&out);
    assert_eq!((cached, ran), (0, 1));
    let rows = table(&dir.path().join("out/part.csv"));
    let programs: Vec<&str> = rows.iter().map(|r| r["program"].as_str()).collect();
    assert_eq!(programs, ["pr_em_pull"]);
    // The part has no VM row: its plot is left out, not an error.
    assert!(!dir.path().join("out/vm.svg").exists());
    // `[...]` is a set of characters, as the glob crate reads it: `pr_[v]*` is VM's alone.
    let ((cached, ran), out) = run(&file, &["--programs", "pr_[v]*"]);
    succeeded(&out);
    assert_eq!((cached, ran), (0, 1));
    let rows = table(&dir.path().join("out/part.csv"));
    let programs: Vec<&str> = rows.iter().map(|r| r["program"].as_str()).collect();
    assert_eq!(
        programs,
        ["pr_em_pull", "pr_vm_pull"],
        "the earlier part's row kept"
    );
    refused(
        dir.path(),
        "a bad pattern",
        &format!(
            "[[programs]]\nfiles = ['{}']\n",
            program("graph/pr_vm_pull").display()
        ),
        &["--programs", "pr_[v"],
        "`pr_[v` is not a pattern",
    );
}

/// Rewrite the cells `column` of the rows of `path` whose program is `program`.
fn edit_table(path: &Path, program: &str, column: &str, value: &str) {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader.headers().unwrap().clone();
    let (p, c) = (
        header.iter().position(|h| h == "program").unwrap(),
        header.iter().position(|h| h == column).unwrap(),
    );
    let mut writer = csv::Writer::from_path(path.with_extension("edited")).unwrap();
    writer.write_record(&header).unwrap();
    for record in reader.records() {
        let mut row: Vec<String> = record.unwrap().iter().map(String::from).collect();
        if row[p] == program {
            row[c] = value.to_string();
        }
        writer.write_record(&row).unwrap();
    }
    writer.flush().unwrap();
    std::fs::rename(path.with_extension("edited"), path).unwrap();
}

#[test]
fn parts_of_an_experiment_add_up_in_its_table() {
    let dir = tempfile::tempdir().unwrap();
    let file = experiment(
        dir.path(),
        "parts",
        &format!(
            "[[programs]]\nfiles = ['{}', '{}']\niterations = 1\n\
             [[graphs]]\nname = 'small'\nspec = 'gen:rmat:scale=5'\n\
             [[graphs]]\nname = 'large'\nspec = 'gen:rmat:scale=6'\n",
            program("graph/pr_vm_pull").display(),
            program("graph/pr_em_pull").display()
        ),
    );
    let path = dir.path().join("out/parts.csv");
    let runs = |path: &Path| -> Vec<(String, String, String)> {
        table(path)
            .into_iter()
            .map(|r| (r["run"].clone(), r["program"].clone(), r["graph"].clone()))
            .collect()
    };
    let row = |run: &str, program: &str, graph: &str| {
        (run.to_string(), program.to_string(), graph.to_string())
    };
    let (_, out) = run(&file, &["--programs", "*_em_*"]);
    succeeded(&out);
    // Another part, measured by "another wsim" (a cache of its own): the table keeps the
    // first part's rows as they were, in the runs' order among its own.
    edit_table(&path, "pr_em_pull", "wsim_version", "0.0.1 (earlier)");
    let other_cache = dir.path().join("other-cache");
    let (_, out) = run(
        &file,
        &[
            "--programs",
            "*_vm_*",
            "--graphs",
            "small",
            "--cache",
            other_cache.to_str().unwrap(),
        ],
    );
    succeeded(&out);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("the table keeps 2 rows of runs this part left out"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        runs(&path),
        [
            row("0", "pr_em_pull", "small"),
            row("1", "pr_em_pull", "large"),
            row("2", "pr_vm_pull", "small")
        ]
    );
    let versions: Vec<String> = table(&path)
        .into_iter()
        .map(|r| r["wsim_version"].clone())
        .collect();
    assert_eq!(versions[0], "0.0.1 (earlier)");
    assert_ne!(versions[2], "0.0.1 (earlier)");
    // A part measured again replaces its earlier rows; a row of a run the experiment does
    // not have (another configuration) is not in the new table, but the earlier table is
    // kept whole beside it, and the part says so.
    edit_table(&path, "pr_vm_pull", "cycles", "1");
    edit_table(&path, "pr_em_pull", "config_hash", "0000000000000000");
    let before = std::fs::read(&path).unwrap();
    let (_, out) = run(
        &file,
        &[
            "--programs",
            "*_vm_*",
            "--cache",
            other_cache.to_str().unwrap(),
        ],
    );
    succeeded(&out);
    assert_eq!(
        runs(&path),
        [
            row("2", "pr_vm_pull", "small"),
            row("3", "pr_vm_pull", "large")
        ]
    );
    assert!(table(&path).iter().all(|r| r["cycles"] != "1"));
    let kept = dir.path().join("out/parts.earlier.csv");
    assert_eq!(std::fs::read(&kept).unwrap(), before);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("2 rows of the earlier") && stderr.contains("parts.earlier.csv"),
        "{stderr}"
    );
    // The whole experiment writes its table from the cache alone.
    let (_, out) = run(&file, &[]);
    succeeded(&out);
    assert_eq!(runs(&path).len(), 4);
    assert!(table(&path)
        .iter()
        .all(|r| r["wsim_version"] == versions[2]));
}

#[test]
fn byte_identical_programs_share_a_run_but_keep_their_names() {
    let dir = tempfile::tempdir().unwrap();
    // The push PageRank of both forms compiles alike: one cache entry, two rows.
    let elf = std::fs::read(program("graph/pr_vm_push")).unwrap();
    for name in ["pr_vm_push.elf", "pr_vm_push_tuned.elf"] {
        std::fs::write(dir.path().join(name), &elf).unwrap();
    }
    let file = experiment(
        dir.path(),
        "twins",
        &format!(
            "[[programs]]\nfiles = ['{}/pr_vm_push*.elf']\niterations = 1\n\
             [[graphs]]\nspec = 'gen:rmat:scale=5'\n",
            dir.path().display()
        ),
    );
    let ((cached, ran), out) = run(&file, &[]);
    succeeded(&out);
    assert_eq!((cached, ran), (1, 1));
    let rows = table(&dir.path().join("out/twins.csv"));
    let named: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["program"].as_str(), r["form"].as_str()))
        .collect();
    assert_eq!(
        named,
        [
            ("pr_vm_push", "dissertation"),
            ("pr_vm_push_tuned", "tuned")
        ]
    );
    assert_eq!(rows[0]["cycles"], rows[1]["cycles"]);
}

#[test]
fn a_plot_that_cannot_be_drawn_keeps_neither_the_other_plots_nor_the_next_file_from_being() {
    let dir = tempfile::tempdir().unwrap();
    let vm = program("graph/pr_vm_pull");
    let body = |baseline: &str| {
        format!(
            "[[programs]]\nfiles = ['{}']\niterations = 1\n\
             [[graphs]]\nname = 'small'\nspec = 'gen:rmat:scale=5'\n\
             [[plots]]\nname = 'speedup'\nkind = 'speedup'\nx = 'graph'\nseries = 'schedule'\nbaseline = '{baseline}'\n\
             [[plots]]\nname = 'cycles'\nkind = 'line'\nx = 'graph'\nmetric = 'cycles'\n",
            vm.display()
        )
    };
    // The first file's speedup plot asks for a baseline its rows do not have.
    let first = experiment(dir.path(), "first", &body("SparseWeaver"));
    let second = experiment(dir.path(), "second", &body("VM"));
    let output = wsim_command(&["experiment", "run"])
        .args([&first, &second])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("first.toml: plot `speedup`: the baseline `SparseWeaver` is not a value"),
        "{stderr}"
    );
    assert!(stderr.contains("1 plot could not be drawn"), "{stderr}");
    let results = dir.path().join("results");
    for file in [
        "first/first.csv",
        "first/cycles.svg",
        "second/second.csv",
        "second/speedup.svg",
        "second/cycles.svg",
    ] {
        assert!(
            results.join(file).exists(),
            "{file} was not written: {stderr}"
        );
    }
    assert!(!results.join("first/speedup.svg").exists());
}

/// `wsim ARGS` stopped after a minute: a plot that never finishes fails the test instead
/// of hanging it.
fn wsim_within_a_minute(args: &[&str]) -> Output {
    let mut child = wsim_command(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("wsim {args:?} did not finish in a minute");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// A plot with nothing to draw is an error naming the plot and the column, never a hang
/// (plotters searched forever for the ticks of an empty or infinite axis): an empty column
/// (`l3_hit_rate` without an L3, the default), runs that all failed, NaN and infinite
/// cells. A single point still draws.
#[test]
fn a_plot_with_nothing_to_draw_is_an_error_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let vm = program("graph/pr_vm_pull");
    let body = |set: &str| {
        format!(
            "{set}[[programs]]\nfiles = ['{}']\niterations = 1\n\
             [[graphs]]\nname = 'small'\nspec = 'gen:rmat:scale=5'\n\
             [[plots]]\nname = 'l3'\nkind = 'line'\nx = 'graph'\nmetric = 'l3_hit_rate'\n\
             [[plots]]\nname = 'one_point'\nkind = 'line'\nx = 'graph'\nmetric = 'ipc'\n\
             [[plots]]\nname = 'speedup'\nkind = 'speedup'\nx = 'graph'\nseries = 'schedule'\nbaseline = 'VM'\n",
            vm.display()
        )
    };
    let file = experiment(dir.path(), "empty", &body(""));
    let out = dir.path().join("out");
    let ran = |file: &Path, out: &Path| {
        let output = wsim_within_a_minute(&[
            "experiment",
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let stderr = ran(&file, &out);
    assert!(
        stderr.contains("plot `l3`: no value of `l3_hit_rate` to draw"),
        "{stderr}"
    );
    assert!(out.join("one_point.svg").exists(), "{stderr}");
    assert!(out.join("speedup.svg").exists(), "{stderr}");

    // Every run failed (stopped at run.max_cycles): no time to compare.
    let failed = experiment(
        dir.path(),
        "failed",
        &body("set = ['run.max_cycles=100']\n"),
    );
    let stderr = ran(&failed, &dir.path().join("failed_out"));
    assert!(
        stderr.contains("plot `speedup`: no value of `cycles` to draw"),
        "{stderr}"
    );

    // NaN and infinite IPC in an edited table: nothing a chart can place.
    let csv = text(&out.join("empty.csv"));
    let ipc = table(&out.join("empty.csv"))[0]["ipc"].clone();
    assert_eq!(csv.matches(&format!(",{ipc},")).count(), 1, "{csv}");
    for bad in ["NaN", "inf", "-inf"] {
        let edited = dir.path().join(format!("edited_{bad}.csv"));
        std::fs::write(
            &edited,
            csv.replace(&format!(",{ipc},"), &format!(",{bad},")),
        )
        .unwrap();
        let output = wsim_within_a_minute(&[
            "experiment",
            "plot",
            file.to_str().unwrap(),
            "--table",
            edited.to_str().unwrap(),
            "--out",
            dir.path().join(format!("plots_{bad}")).to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_ne!(output.status.code(), Some(0), "{bad}: {stderr}");
        assert!(
            stderr.contains("plot `one_point`: no value of `ipc` to draw"),
            "{bad}: {stderr}"
        );
    }
}

/// Names that become files or folders of the outputs (the experiment's, a profile's, a
/// plot's) are plain names: one that would write elsewhere (`../`, an absolute path) is
/// refused with exit 2 and its key, and nothing is written outside the outputs.
#[test]
fn names_that_would_write_outside_the_outputs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let hello = program("hello");
    let programs = format!("[[programs]]\nfiles = ['{}']\n", hello.display());
    let cases = [
        (
            "experiment",
            format!("name = '../../elsewhere/notes'\n{programs}"),
            "name = \"../../elsewhere/notes\" has a path separator",
        ),
        (
            "absolute",
            format!("name = '/tmp/notes'\n{programs}"),
            "name = \"/tmp/notes\" has a path separator",
        ),
        (
            "dot-dot",
            format!("name = '..'\n{programs}"),
            "name = \"..\" is a relative folder",
        ),
        (
            "empty",
            format!("name = ''\n{programs}"),
            "name = \"\" is empty",
        ),
        (
            "plot",
            format!("{programs}[[plots]]\nname = '../p'\nkind = 'line'\nx = 'program'\n"),
            "plots[0].name = \"../p\" has a path separator",
        ),
        (
            "profile",
            format!(
                "profile = '../../../elsewhere/p'\n{programs}[profiles.'../../../elsewhere/p']\n"
            ),
            "profiles.../../../elsewhere/p = \"../../../elsewhere/p\" has a path separator",
        ),
    ];
    for (what, body, expected) in cases {
        refused(dir.path(), what, &body, &[], expected);
    }
    let written: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        written,
        ["bad.toml"],
        "only the experiment file is in the folder"
    );
}

/// A cache entry is checked against its key, the simulator and the digest of its outcome
/// when read: one copied over another key's file, or one whose cycles were edited, is
/// refused naming its path, never served as that run's result.
#[test]
fn a_cache_entry_copied_or_edited_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "[[programs]]\nfiles = ['{}', '{}']\n",
        program("hello").display(),
        program("vecadd").display()
    );
    let file = experiment(dir.path(), "checked", &body);
    let ((_, ran), _) = run(&file, &[]);
    assert_eq!(ran, 2);
    let cache = dir.path().join("out/cache");
    let entries = cache_entries(&cache);
    let names: Vec<&String> = entries.keys().collect();
    assert_eq!(names.len(), 2);
    let refused_with = |expected: &str| {
        let out = wsim(&[
            "experiment",
            "run",
            file.to_str().unwrap(),
            "--out",
            dir.path().join("out").to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(expected) && err.contains(".json"), "{err}");
    };

    // The first run's entry copied over the second's file.
    std::fs::write(cache.join(names[1]), &entries[names[0]]).unwrap();
    refused_with("not of this file's");
    std::fs::write(cache.join(names[1]), &entries[names[1]]).unwrap();
    assert_eq!(run(&file, &[]).0, (2, 0), "restored, both served");

    // Its cycles edited.
    let entry: serde_json::Value = serde_json::from_str(&entries[names[0]]).unwrap();
    let cycles = entry["report"]["cycles"].as_u64().unwrap();
    let edited = entries[names[0]].replace(
        &format!("\"cycles\":{cycles},"),
        &format!("\"cycles\":{},", cycles + 1),
    );
    assert_ne!(edited, entries[names[0]]);
    std::fs::write(cache.join(names[0]), edited).unwrap();
    refused_with("is not what was written");
}

/// An entry edited with its digest recomputed from what it holds (the SHA-256 of its
/// report and error, as wsim computed it before issue 47) is refused too: the digest is
/// keyed by the run's inputs, which the entry does not hold.
#[test]
fn a_cache_entry_edited_with_its_digest_recomputed_is_refused() {
    use wsim_sim::report::Report;
    use wsim_workloads::record::GraphRun;
    let dir = tempfile::tempdir().unwrap();
    let body = format!("[[programs]]\nfiles = ['{}']\n", program("hello").display());
    let file = experiment(dir.path(), "forged", &body);
    let ((_, ran), _) = run(&file, &[]);
    assert_eq!(ran, 1);
    let cache = dir.path().join("out/cache");
    let (name, text) = cache_entries(&cache).into_iter().next().unwrap();
    let mut entry: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut report: Report<GraphRun> = serde_json::from_value(entry["report"].take()).unwrap();
    report.cycles += 1;
    let error: Option<String> = serde_json::from_value(entry["error"].clone()).unwrap();
    let outcome = serde_json::to_string(&(&report, &error)).unwrap();
    entry["digest"] = wsim_harness::sha256(outcome.as_bytes()).into();
    entry["report"] = serde_json::to_value(&report).unwrap();
    std::fs::write(cache.join(&name), entry.to_string()).unwrap();
    let out = wsim(&[
        "experiment",
        "run",
        file.to_str().unwrap(),
        "--out",
        dir.path().join("out").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("is not what was written") && err.contains(&name),
        "{err}"
    );
}

/// A part of an experiment keeps the earlier table's rows of the runs it leaves out; a
/// forged row there used to survive. Now a row whose run the cache holds is the cache's,
/// and one that says this wsim measured it but has no cached run is not taken.
#[test]
fn a_part_takes_left_out_rows_from_the_cache_not_from_an_edited_table() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "[[programs]]\nfiles = ['{}', '{}']\n",
        program("hello").display(),
        program("vecadd").display()
    );
    let file = experiment(dir.path(), "rows", &body);
    let (_, out) = run(&file, &[]);
    succeeded(&out);
    let path = dir.path().join("out/rows.csv");
    let measured = table(&path);
    edit_table(&path, "vecadd", "cycles", "1");
    let (_, out) = run(&file, &["--programs", "hello"]);
    succeeded(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("1 rows of the earlier"), "{stderr}");
    assert_eq!(
        without_host_time(&table(&path)),
        without_host_time(&measured)
    );
    // Its cache entry gone, the forged row has nothing behind it.
    edit_table(&path, "vecadd", "cycles", "1");
    let cache = dir.path().join("out/cache");
    let vecadd = (cache_entries(&cache).into_iter())
        .find(|(_, text)| text.contains("vecadd"))
        .unwrap()
        .0;
    std::fs::remove_file(cache.join(vecadd)).unwrap();
    let (_, out) = run(&file, &["--programs", "hello"]);
    succeeded(&out);
    let rows = table(&path);
    assert_eq!(rows.len(), 1, "the unbacked row is not taken");
    assert_eq!(rows[0]["program"], "hello");
    assert!(dir.path().join("out/rows.earlier.csv").exists());
}

/// An experiment file of 9 axes of 10 values (10^9 runs, 1 KB) aborted expanding them:
/// the runs are counted first and too many refused, naming the factors; so are a
/// sweep's.
#[test]
fn too_many_runs_are_refused_before_they_are_expanded() {
    let dir = tempfile::tempdir().unwrap();
    let values = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]";
    let keys = [
        "alu", "branch", "mul", "div", "fpu_fma", "fpu_div", "fpu_cvt", "fpu_misc", "sfu",
    ];
    let axes: String = (keys.iter())
        .map(|k| format!("[[axes]]\nname = '{k}'\nkey = 'core.latency.{k}'\nvalues = {values}\n"))
        .collect();
    let body = format!(
        "[[programs]]\nfiles = ['{}']\n{axes}",
        program("hello").display()
    );
    let file = experiment(dir.path(), "huge", &body);
    let started = Instant::now();
    let out = wsim(&["experiment", "run", file.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("1000000000 runs (1 programs x 1 graphs x 1000000000 combinations")
            && err.contains("more than the 100000"),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    let mut args = vec!["sweep".to_string()];
    for k in &keys[..6] {
        args.push("--vary".into());
        args.push(format!("core.latency.{k}=1,2,3,4,5,6,7,8,9,10"));
    }
    args.push(program("hello").to_str().unwrap().into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = wsim(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("more than the 100000"), "{err}");
}

/// Parts of one experiment run at once (`--graphs` in three shells) all land in its
/// table: each reads the table again under a lock of its folder and keeps the others'
/// rows. The graphs are alike so the parts finish together; without the lock about one
/// round in four lost rows, so five rounds are run.
#[test]
fn parts_written_at_once_keep_each_others_rows() {
    for round in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let body = format!(
            "[[programs]]\nfiles = ['{}']\niterations = 1\n\
             [[graphs]]\nname = 'a'\nspec = 'gen:rmat:scale=5'\n\
             [[graphs]]\nname = 'b'\nspec = 'gen:rmat:scale=5,seed=2'\n\
             [[graphs]]\nname = 'c'\nspec = 'gen:rmat:scale=5,seed=3'\n",
            program("graph/pr_vm_pull").display()
        );
        let file = experiment(dir.path(), "parts", &body);
        let out = dir.path().join("out");
        let children: Vec<_> = ["a", "b", "c"]
            .iter()
            .map(|graph| {
                Command::new(env!("CARGO_BIN_EXE_wsim"))
                    .args(["experiment", "run", file.to_str().unwrap(), "--out"])
                    .arg(&out)
                    .args(["--graphs", graph])
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let output = child.wait_with_output().unwrap();
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let rows = table(&out.join("parts.csv"));
        let mut graphs: Vec<&str> = rows.iter().map(|r| r["graph"].as_str()).collect();
        graphs.sort();
        assert_eq!(graphs, ["a", "b", "c"], "round {round}");
    }
}

/// A reading added to a profile runs alone (`--readings`): the table keeps the rows the
/// other readings measured, and an unknown name is refused before anything runs.
#[test]
fn readings_option_runs_one_readings_part_of_an_experiment() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(program("vecadd"), dir.path().join("a.elf")).unwrap();
    let slow_dram = "[[readings]]\nname = 'slow-dram'\nlines = '-'\njustification = 'j'\n\
                     set = ['memory.dram.clock_ratio=4']\n";
    std::fs::write(
        dir.path().join("readings.toml"),
        format!("{READINGS}{slow_dram}"),
    )
    .unwrap();
    let programs = "[[programs]]\nfiles = ['a.elf']\n";
    let two = "[readings]\nfile = 'readings.toml'\nrun = ['l2-write-back']\n";
    let file = experiment(dir.path(), "r", &format!("{two}{programs}"));
    assert_eq!(run(&file, &[]).0, (0, 2));
    let csv = dir.path().join("out/r.csv");
    let before = table(&csv);
    // The profile gains a reading: only its run runs, the others' rows stay as they were.
    let three = two.replace("['l2-write-back']", "['l2-write-back', 'slow-dram']");
    let file = experiment(dir.path(), "r", &format!("{three}{programs}"));
    let ((cached, ran), out) = run(&file, &["--readings", "slow-dram"]);
    succeeded(&out);
    assert_eq!((cached, ran), (0, 1));
    let after = table(&csv);
    let readings: Vec<&str> = after.iter().map(|r| r["reading"].as_str()).collect();
    assert_eq!(readings, ["plain", "l2-write-back", "slow-dram"]);
    assert_eq!(&after[..2], &before[..], "the earlier readings' rows kept");
    refused(
        dir.path(),
        "unknown reading",
        &format!("{three}{programs}"),
        &["--readings", "slow-drm"],
        "no reading `slow-drm` in this profile (its readings: plain, l2-write-back, slow-dram)",
    );
}

/// A readings file for [`readings_repeat_the_runs_of_their_scope_after_todays`].
const READINGS: &str = r#"
default = "plain"
[[readings]]
name = "plain"
lines = "1"
justification = "as written"
[[readings]]
name = "em-search"
lines = "2"
justification = "searchVID"
replace = { schedule = { EM = "EM-search" } }
[[readings]]
name = "l2-write-back"
lines = "-"
justification = "not stated"
set = ["memory.l2.write_policy=write-back"]
[[readings]]
name = "eghw-pipelined"
lines = "3"
justification = "adding pipelines"
set = ["weaver.eghw_reads=pipelined"]
programs = ["*_eghw_*"]
[[readings]]
name = "sockets"
lines = "4"
justification = "three cores a socket"
set = ["gpu.cores_per_socket=3"]
"#;

#[test]
fn readings_repeat_the_runs_of_their_scope_after_todays() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(program("vecadd"), dir.path().join("a.elf")).unwrap();
    std::fs::copy(program("hello"), dir.path().join("x_eghw_y.elf")).unwrap();
    std::fs::write(dir.path().join("readings.toml"), READINGS).unwrap();
    let programs = "[[programs]]\nfiles = ['a.elf', 'x_eghw_y.elf']\n";
    let file = experiment(dir.path(), "r", programs);
    let csv = dir.path().join("out/r.csv");
    assert_eq!(run(&file, &[]).0, (0, 2));
    let before = table(&csv);
    assert!(before.iter().all(|r| r["reading"].is_empty()));

    // Under readings: the default's runs are today's (cached, the same numbers), then each
    // reading that sets something runs the programs of its scope.
    let readings = "[readings]\nfile = 'readings.toml'\nrun = ['l2-write-back', 'eghw-pipelined', 'em-search']\n";
    let file = experiment(dir.path(), "r", &format!("{readings}{programs}"));
    assert_eq!(run(&file, &[]).0, (2, 3));
    let after = table(&csv);
    let column = |name: &str| -> Vec<&str> { after.iter().map(|r| r[name].as_str()).collect() };
    assert_eq!(
        column("reading"),
        [
            "plain",
            "plain",
            "l2-write-back",
            "l2-write-back",
            "eghw-pipelined"
        ]
    );
    assert_eq!(column("run"), ["0", "1", "2", "3", "4"]);
    assert_eq!(
        column("program"),
        ["a", "x_eghw_y", "a", "x_eghw_y", "x_eghw_y"]
    );
    for (old, new) in before.iter().zip(&after) {
        let mut new = new.clone();
        new.insert("reading".into(), String::new());
        assert_eq!(old, &new, "the default reading's row is today's");
    }
    assert_ne!(after[0]["config_hash"], after[2]["config_hash"]);

    // A table written before readings were (no reading column) holds the default
    // reading's rows: a plot of them draws from it.
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let k = header.iter().position(|h| h == "reading").unwrap();
    let older = dir.path().join("older.csv");
    let mut writer = csv::Writer::from_path(&older).unwrap();
    let without = |row: Vec<String>| -> Vec<String> {
        (row.into_iter().enumerate())
            .filter(|(i, _)| *i != k)
            .map(|(_, v)| v)
            .collect()
    };
    writer.write_record(without(header.clone())).unwrap();
    for record in reader.records() {
        let row: Vec<String> = record.unwrap().iter().map(String::from).collect();
        if row[k] == "plain" {
            writer.write_record(without(row)).unwrap();
        }
    }
    writer.flush().unwrap();
    let plot =
        "[[plots]]\nname = 'p'\nkind = 'line'\nx = 'program'\nwhere = { reading = 'plain' }\n";
    let plotted = experiment(dir.path(), "r", &format!("{readings}{programs}{plot}"));
    let drawn = dir.path().join("drawn");
    let output = wsim_within_a_minute(&[
        "experiment",
        "plot",
        plotted.to_str().unwrap(),
        "--table",
        older.to_str().unwrap(),
        "--out",
        drawn.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(drawn.join("p.svg").exists(), "{stderr}");

    // Errors name the experiment file, the reading and what is wrong.
    let bad = |body: &str, expected: &str| refused(dir.path(), expected, body, &[], expected);
    bad(
        &format!(
            "{}{programs}",
            readings.replace("'em-search'", "'em-serch'")
        ),
        "readings.run[2]: no reading `em-serch` in",
    );
    bad(
        &format!("{readings}{programs}[[axes]]\nname = 'p'\nkey = 'memory.l2.write_policy'\nvalues = ['write-through']\n"),
        "reading `l2-write-back` (",
    );
    bad(
        &format!("{}{programs}", readings.replace("'em-search'", "'sockets'")),
        "reading `sockets`: set gpu.cores_per_socket=3",
    );
    bad(
        &format!(
            "{}{programs}",
            readings.replace("'readings.toml'", "'nosuch.toml'")
        ),
        "readings.file",
    );
    bad(
        &format!(
            "{}{programs}",
            readings.replace(
                "run = ['l2-write-back', 'eghw-pipelined', 'em-search']",
                "run = 'every'"
            )
        ),
        "readings to run are \"all\" or a list of reading names, not \"every\"",
    );
}

/// A `[[programs]]` entry's `graphs` scopes the file's graphs to its programs (`[]`: they
/// run bare); a program that is not a graph program (or not a GCN program) but would be
/// given a graph or a graph program's arguments is refused as the file is read, before
/// any run: the file's mistake is never cached as every run's error.
#[test]
fn graphs_are_scoped_per_entry_and_a_kernel_given_a_graph_is_refused_before_any_run() {
    let dir = tempfile::tempdir().unwrap();
    let hello = program("hello");
    let pr = common::programs_dir().join("graph/pr_vm_pull.elf");
    let body = |pr_extra: &str, hello_extra: &str| {
        format!(
            "[[programs]]\nfiles = ['{}']\niterations = 1\n{pr_extra}\
             [[programs]]\nfiles = ['{}']\n{hello_extra}\
             [[graphs]]\nname = 'a'\nspec = 'gen:rmat:scale=4,ef=4'\n\
             [[graphs]]\nname = 'b'\nspec = 'gen:rmat:scale=5,ef=4'\n",
            pr.display(),
            hello.display()
        )
    };
    let out_dir = dir.path().join("out");
    let refused = |file: &Path, expected: &str| {
        let out = wsim(&[
            "experiment",
            "run",
            file.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(expected), "{expected}: {err}");
        assert!(
            !out_dir.join("cache").exists(),
            "nothing ran, nothing cached"
        );
    };
    let file = experiment(dir.path(), "scoped", &body("", ""));
    refused(
        &file,
        "programs[1]: hello is not a graph program (it has no `wsim_graph` descriptor), yet \
         its runs would be given the graphs a, b",
    );
    let file = experiment(
        dir.path(),
        "scoped",
        &body("features = 16\n", "graphs = []\n"),
    );
    refused(
        &file,
        "programs[0]: pr_vm_pull is not a GCN program (it has no `wsim_gcn` descriptor), yet \
         its runs would be given features",
    );
    let file = experiment(
        dir.path(),
        "scoped",
        &body("graphs = ['a', 'c']\n", "graphs = []\n"),
    );
    refused(
        &file,
        "programs[0].graphs: no graph `c` (the file's graphs: a, b)",
    );

    let file = experiment(
        dir.path(),
        "scoped",
        &body("graphs = ['b']\n", "graphs = []\n"),
    );
    let ((cached, ran), out) = run(&file, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!((cached, ran), (0, 2));
    let rows = table(&out_dir.join("scoped.csv"));
    let runs: Vec<(&str, &str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["program"].as_str(),
                r["graph"].as_str(),
                r["verdict"].as_str(),
            )
        })
        .collect();
    assert_eq!(runs, [("pr_vm_pull", "b", "ok"), ("hello", "", "ok")]);
}
