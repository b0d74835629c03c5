//! Sampling in experiments (docs/EXPERIMENTS.md, "Sampling"): a file's or a profile's
//! `sampling` runs its runs through the sampler, under keys of their own (a run in full
//! detail keeps its key), with the estimate's interval in the table; a bad setting is an
//! error naming the key; and `wsim experiment validate-sampling` on the small set CI
//! validates (experiments/sampling-validate.toml), its numbers consistent.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{csv_rows, program, programs_dir, root};

fn wsim(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wsim"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("wsim runs")
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// PageRank under VM, 6 iterations on a small R-MAT graph, on the dissertation's machine,
/// with `top` at the file's top (its sampling) and `profiles` after.
fn experiment(dir: &Path, top: &str, profiles: &str) -> PathBuf {
    let path = dir.join("pr.toml");
    std::fs::write(
        &path,
        format!(
            "name = 'pr'\nconfig = '{}'\n{top}\n\
             [[programs]]\nfiles = ['{}']\niterations = 6\n\
             [[graphs]]\nname = 'rmat8'\nspec = 'gen:rmat:scale=8,ef=8'\nsymmetrize = true\n\
             {profiles}",
            root().join("configs/sparseweaver.toml").display(),
            program("graph/pr_vm_pull").display()
        ),
    )
    .unwrap();
    path
}

/// `wsim experiment run` of `file` under `profile` into `dir/out/PROFILE` with the cache
/// `dir/cache`: the stderr's summary and the table's rows and header.
fn run(dir: &Path, file: &Path, profile: &str) -> (String, Vec<BTreeMap<String, String>>, String) {
    let out = dir.join("out").join(profile);
    let out = wsim(
        dir,
        &[
            "experiment",
            "run",
            file.to_str().unwrap(),
            "--profile",
            profile,
            "--out",
            out.to_str().unwrap(),
            "--cache",
            dir.join("cache").to_str().unwrap(),
        ],
    );
    ok(&out);
    let csv = text(&dir.join("out").join(profile).join("pr.csv"));
    let header = csv.lines().next().unwrap().to_string();
    (
        String::from_utf8_lossy(&out.stderr).into_owned(),
        csv_rows(&csv),
        header,
    )
}

fn cached_entries(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("cache")).unwrap().count()
}

#[test]
fn a_profiles_sampling_runs_through_the_sampler_under_a_key_of_its_own() {
    programs_dir();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = experiment(
        d,
        "sampling = '${sampling}'\nprofile = 'detailed'",
        "[profiles.detailed]\nsampling = false\n\
         [profiles.sampled]\nsampling = { every = 4, warmup = 1, exact_fallback = false }\n\
         [profiles.threads]\n\
         sampling = { every = 4, warmup = 1, exact_fallback = false, threads = 2 }\n\
         [profiles.checked]\n\
         sampling = { every = 4, warmup = 1, exact_fallback = false, check = 2 }\n\
         [profiles.whole]\nsampling = { every = 4, warmup = 1 }\n",
    );
    let (said, detailed, detailed_header) = run(d, &file, "detailed");
    assert!(said.contains("0 cached, 1 run"), "{said}");
    let (said, sampled, sampled_header) = run(d, &file, "sampled");
    assert!(
        said.contains("0 cached, 1 run"),
        "a sampled run has its own key: {said}"
    );
    assert_eq!(cached_entries(d), 2);
    // The threads change no result, so not the key.
    let (said, threads, _) = run(d, &file, "threads");
    assert!(said.contains("1 cached, 0 run"), "{said}");
    assert_eq!(threads[0]["cycles"], sampled[0]["cycles"]);
    // A warm-up check changes the estimate: a key of its own.
    let (said, _, _) = run(d, &file, "checked");
    assert!(said.contains("0 cached, 1 run"), "{said}");
    assert_eq!(cached_entries(d), 3);

    // The detailed table has the columns it always had; the sampled one the estimate's.
    assert!(!detailed_header.contains("sampled"), "{detailed_header}");
    assert!(
        sampled_header
            .contains(",cycles,sampled,cycles_low,cycles_high,interleaving,warp_instructions,"),
        "{sampled_header}"
    );
    assert_eq!(
        detailed_header,
        sampled_header.replace(",sampled,cycles_low,cycles_high,interleaving", "")
    );
    let (d_row, s_row) = (&detailed[0], &sampled[0]);
    assert_eq!(s_row["sampled"], "yes");
    // A PageRank: the same work in the other order (sampler/src/order.rs).
    assert_eq!(s_row["interleaving"], "same");
    assert_eq!(s_row["verdict"], "ok");
    assert_eq!(s_row["verified"], "yes");
    let number = |row: &BTreeMap<String, String>, k: &str| -> f64 {
        row[k]
            .parse()
            .unwrap_or_else(|_| panic!("{k} = {:?}", row[k]))
    };
    let (low, estimate, high) = (
        number(s_row, "cycles_low"),
        number(s_row, "cycles"),
        number(s_row, "cycles_high"),
    );
    assert!(
        low <= estimate && estimate <= high,
        "{low} {estimate} {high}"
    );
    let error = estimate / number(d_row, "cycles") - 1.0;
    assert!(
        error.abs() < 0.05,
        "the estimate is near the detailed cycles: {error}"
    );
    // What only the timing model measures and the estimate does not give is empty.
    assert_eq!(s_row["slots_issued"], "");
    assert_eq!(s_row["dram_bytes"], "");
    // The architectural counts are the functional run's (`wsim_spawn`'s wait loop
    // turns otherwise than in detail: docs/ARCHITECTURE.md, "The functional mode").
    assert!(number(s_row, "warp_instructions") > 0.0);

    // With the exact fallback (the default) this short run is simulated whole: a detailed
    // run's row.
    let (_, whole, whole_header) = run(d, &file, "whole");
    assert_eq!(whole_header, sampled_header);
    let w_row = &whole[0];
    assert_eq!(w_row["sampled"], "whole");
    // The detailed trajectory itself: no interleaving to check.
    assert_eq!(w_row["interleaving"], "");
    for (k, v) in w_row {
        let expected = match k.as_str() {
            "sampled" | "host_seconds" | "profile" | "interleaving" => continue,
            "cycles_low" | "cycles_high" => &d_row["cycles"],
            _ => &d_row[k],
        };
        assert_eq!(v, expected, "{k}: every column the detailed run's");
    }

    // `sampling = false` is a file without the key: the same run, from the cache.
    let plain = experiment(d, "", "");
    let out = wsim(
        d,
        &[
            "experiment",
            "run",
            plain.to_str().unwrap(),
            "--out",
            d.join("out/plain").to_str().unwrap(),
            "--cache",
            d.join("cache").to_str().unwrap(),
        ],
    );
    ok(&out);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("1 cached, 0 run"), "{said}");
}

#[test]
fn a_bad_sampling_setting_is_an_error_that_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (setting, expected) in [
        (
            "[sampling]\nevry = 4",
            "unknown field `evry`, expected one of `every`",
        ),
        ("sampling = 3", "sampling is true, false or a table"),
        ("[sampling]\nevery = 0", "sampling.every is 0"),
        ("[sampling]\nthreads = 0", "sampling.threads is 0"),
        ("[sampling]\ncluster = 4.0", "sampling.cluster is 4"),
        ("[sampling]\nbudget = 0.0", "sampling.budget is 0"),
        ("[sampling]\nbudget = -0.5", "sampling.budget is -0.5"),
    ] {
        let file = experiment(d, setting, "");
        let out = wsim(d, &["experiment", "run", file.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{setting}: {err}");
        assert!(err.contains(expected), "{setting}: {err}");
        assert!(err.contains("pr.toml"), "{setting}: {err}");
    }
    // In a profile's values, the profile is named.
    let file = experiment(
        d,
        "sampling = '${s}'\nprofile = 'p'",
        "[profiles.p]\ns = { evry = 4 }\n",
    );
    let out = wsim(d, &["experiment", "run", file.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("(profile `p`)") && err.contains("unknown field `evry`"),
        "{err}"
    );
}

/// [`PAPER`] written in `dir`, reading the repository's experiments.
fn paper_file(dir: &Path) -> PathBuf {
    let paper = dir.join("paper.toml");
    let experiments = root().join("experiments");
    let header = format!("experiments = '{}'\n", experiments.display());
    std::fs::write(&paper, header + PAPER).unwrap();
    paper
}

/// A paper file with two claims on the small set: SparseWeaver over VM in PageRank (a
/// geomean speed-up) and VM's cycles there (a value).
const PAPER: &str = r#"
title = 'Sampling against detail'
introduction = 'The small set.'

[[sections]]
title = 'PageRank'
experiment = 'sampling-validate'

[[sections.claims]]
id = "sw-over-vm"
text = "SparseWeaver over VM, PageRank"
lines = "1"
paper = 2.0
reason = "as measured"
compute = "geomean_speedup"
baseline = { schedule = "VM" }
subject = { schedule = "SparseWeaver" }
pair_by = ["graph"]
where = { algorithm = "PageRank" }

[[sections.claims]]
id = "vm-cycles"
text = "VM's cycles"
lines = "2"
paper = 1000
reason = "as measured"
compute = "value"
where = { schedule = "VM", algorithm = "PageRank" }

[[closing]]
title = 'How'
text = 'Run it.'
"#;

/// The small set CI validates: each run in detail and sampled, every number of the table
/// consistent with the others, the plot's speed-up and a paper's claims under both, and
/// the summary line.
#[test]
fn validate_sampling_tabulates_each_run_both_ways() {
    programs_dir();
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("validate.csv");
    let file = root().join("experiments/sampling-validate.toml");
    let paper = paper_file(dir.path());
    let out = wsim(
        &root(),
        &[
            "experiment",
            "validate-sampling",
            file.to_str().unwrap(),
            "--paper",
            paper.to_str().unwrap(),
            "-o",
            table.to_str().unwrap(),
        ],
    );
    let stdout = ok(&out);
    let csv = text(&table);
    assert_eq!(
        csv.lines().next().unwrap(),
        "run,program,graph,reading,detailed_cycles,estimated_cycles,cycles_low,cycles_high,\
         error_pct,interval_pct,covered,interleaving,units,measured_units,detail_share_pct,\
         detailed_cpu_s,sampled_cpu_s,cpu_ratio,verdict"
    );
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), 3);
    let n = |row: &BTreeMap<String, String>, k: &str| -> f64 {
        row[k]
            .parse()
            .unwrap_or_else(|_| panic!("{k} = {:?}", row[k]))
    };
    let mut errors = Vec::new();
    let mut widths = Vec::new();
    let (mut covered, mut most) = (0, 0.0f64);
    // Intervals covering, and runs (every interval here is bounded), where the work does
    // not follow the order and where it does.
    let mut sides = [(0, 0); 2];
    for row in &rows {
        assert_eq!(row["verdict"], "ok", "{row:?}");
        let (detailed, estimate) = (n(row, "detailed_cycles"), n(row, "estimated_cycles"));
        let (low, high) = (n(row, "cycles_low"), n(row, "cycles_high"));
        // Rounded to a cycle, and the error to a thousandth of a percent.
        let slack = 100.0 * 1.0 / detailed + 0.001;
        let error = n(row, "error_pct");
        assert!(
            (error - 100.0 * (estimate / detailed - 1.0)).abs() < slack,
            "{row:?}"
        );
        assert!(
            (n(row, "interval_pct") - 100.0 * (high - estimate) / estimate).abs() < slack,
            "{row:?}"
        );
        let covers = low <= detailed && detailed <= high;
        assert_eq!(row["covered"], if covers { "yes" } else { "no" }, "{row:?}");
        covered += usize::from(covers);
        // Each PageRank does the same work in the other order (the BFS's grid, whatever
        // the check found).
        let finding = row["interleaving"].as_str();
        assert!(
            ["same", "places", "work", "elsewhere"].contains(&finding),
            "{row:?}"
        );
        let side = &mut sides[usize::from(finding != "same")];
        side.0 += usize::from(covers);
        side.1 += 1;
        if row["program"].starts_with("pr_") {
            assert_eq!(finding, "same", "{row:?}");
        }
        assert!(n(row, "measured_units") <= n(row, "units"), "{row:?}");
        assert!(
            n(row, "measured_units") < n(row, "units"),
            "sampled, not whole: {row:?}"
        );
        let share = n(row, "detail_share_pct");
        assert!(share > 0.0 && share < 100.0, "{row:?}");
        most = most.max(share);
        let (dcpu, scpu) = (n(row, "detailed_cpu_s"), n(row, "sampled_cpu_s"));
        assert!(dcpu > 0.0 && scpu > 0.0, "{row:?}");
        assert!((n(row, "cpu_ratio") - dcpu / scpu).abs() < 0.01 + 0.002 * dcpu / scpu);
        assert!(error.abs() < 5.0, "{row:?}");
        errors.push(error.abs());
        widths.push(n(row, "interval_pct"));
    }
    // The speed-up the experiment's plot draws, under both.
    let ratios = text(&dir.path().join("validate.ratios.csv"));
    let ratios = csv_rows(&ratios);
    assert_eq!(ratios.len(), 1, "{ratios:?}");
    let r = &ratios[0];
    assert_eq!(
        (
            r["plot"].as_str(),
            r["x"].as_str(),
            r["series"].as_str(),
            r["baseline"].as_str()
        ),
        ("speedup", "rmat9", "SparseWeaver", "VM")
    );
    let cycles = |program: &str| -> (f64, f64) {
        let row = rows.iter().find(|r| r["program"] == program).unwrap();
        (n(row, "detailed_cycles"), n(row, "estimated_cycles"))
    };
    let (vm, sw) = (cycles("pr_vm_pull"), cycles("pr_sparseweaver_pull"));
    assert!((n(r, "detailed_ratio") - vm.0 / sw.0).abs() < 1e-4, "{r:?}");
    assert!((n(r, "sampled_ratio") - vm.1 / sw.1).abs() < 1e-3, "{r:?}");
    assert!(
        (n(r, "error_pct") - 100.0 * (n(r, "sampled_ratio") / n(r, "detailed_ratio") - 1.0)).abs()
            < 0.01,
        "{r:?}"
    );
    // The paper's claims under both: the speed-up is the plot's, VM's cycles its run's.
    let claims = csv_rows(&text(&dir.path().join("validate.claims.csv")));
    let ids: Vec<&str> = claims.iter().map(|c| c["claim"].as_str()).collect();
    assert_eq!(ids, ["sw-over-vm", "vm-cycles"], "{claims:?}");
    let (speedup, vm_cycles) = (&claims[0], &claims[1]);
    for (k, ratio) in [("detailed", "detailed_ratio"), ("sampled", "sampled_ratio")] {
        assert!(
            (n(speedup, k) - n(r, ratio)).abs() < 1e-4,
            "{speedup:?} {r:?}"
        );
    }
    assert_eq!((n(vm_cycles, "detailed"), n(vm_cycles, "sampled")), vm);
    for c in &claims {
        // The values are written to four decimals, the error to three.
        let error = 100.0 * (n(c, "sampled") / n(c, "detailed") - 1.0);
        let slack = 100.0 * 1e-4 / n(c, "detailed") + 0.001;
        assert!((n(c, "error_pct") - error).abs() < slack, "{c:?}");
    }
    let claim_max = (claims.iter()).fold(0.0, |m: f64, c| m.max(n(c, "error_pct").abs()));
    let mean = errors.iter().sum::<f64>() / errors.len() as f64;
    let max = errors.iter().copied().fold(0.0, f64::max);
    let following = match sides[1].1 {
        0 => String::new(),
        n => format!(
            " ({n} whose work follows the order, {} of their {} bounded covering; \
             the others {} of {})",
            sides[1].0, sides[1].1, sides[0].0, sides[0].1
        ),
    };
    widths.sort_by(f64::total_cmp);
    let summary = format!(
        "mean |error| {mean:.2}%, max {max:.2}%, covered {covered} of 3, their median +-{:.1}%\
         {following}; ratios:",
        widths[1]
    );
    assert!(stdout.contains(&summary), "{summary}\n{stdout}");
    let claims_summary =
        format!("; claims: max |error| {claim_max:.2}% over 2 of 2; in detail at most {most:.1}%;");
    assert!(
        stdout.contains(&claims_summary),
        "{claims_summary}\n{stdout}"
    );
}

/// A part of the experiment compares the speed-ups of the plots it has rows for: the
/// PageRank plot has none on the grid, so no table of them, where it had a row saying
/// that its baseline was missing.
#[test]
fn a_parts_validation_compares_only_the_plots_it_has_rows_for() {
    programs_dir();
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("validate.csv");
    let file = root().join("experiments/sampling-validate.toml");
    let out = wsim(
        &root(),
        &[
            "experiment",
            "validate-sampling",
            file.to_str().unwrap(),
            "--graphs",
            "grid",
            "-o",
            table.to_str().unwrap(),
        ],
    );
    ok(&out);
    let rows = csv_rows(&text(&table));
    assert_eq!(rows.len(), 1, "the grid's BFS: {rows:?}");
    assert_eq!(rows[0]["program"], "bfs_vm_push");
    let ratios = dir.path().join("validate.ratios.csv");
    assert!(
        !ratios.exists(),
        "no speed-up to compare: {}",
        text(&ratios)
    );
}

/// A paper without a claim on the experiment is an error naming both, before any run.
#[test]
fn validate_sampling_refuses_a_paper_without_claims_on_the_experiment() {
    programs_dir();
    let dir = tempfile::tempdir().unwrap();
    let paper = paper_file(dir.path());
    let file = experiment(dir.path(), "", "");
    let out = wsim(
        &root(),
        &[
            "experiment",
            "validate-sampling",
            file.to_str().unwrap(),
            "--paper",
            paper.to_str().unwrap(),
        ],
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no claim reads experiment `pr`"),
        "{stderr}"
    );
}

/// A run that does not succeed fails the command, and its row says so.
#[test]
fn validate_sampling_fails_when_a_run_fails() {
    programs_dir();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = experiment(d, "[sampling]\nevery = 4", "");
    std::fs::write(
        &file,
        text(&file).replace(
            "name = 'pr'\n",
            "name = 'pr'\nset = ['run.max_cycles=20000']\n",
        ),
    )
    .unwrap();
    let table = d.join("v.csv");
    let out = wsim(
        d,
        &[
            "experiment",
            "validate-sampling",
            file.to_str().unwrap(),
            "-o",
            table.to_str().unwrap(),
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("1 run of experiment pr did not validate"),
        "{err}"
    );
    assert!(
        err.contains("#0 pr_vm_pull on rmat8: the detailed run: failed"),
        "{err}"
    );
    let rows = csv_rows(&text(&table));
    assert!(
        rows[0]["verdict"].starts_with("detailed failed"),
        "{rows:?}"
    );
}
