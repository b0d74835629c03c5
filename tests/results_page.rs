//! docs/RESULTS.md is what the committed tables give: the report, run on the tables and
//! plots committed under docs/results/dissertation (laid out as `wsim experiment run`
//! writes them) with the project's paper file, writes the committed page byte for byte.
//! With the report's own check that every number in a text is computed from the tables
//! (or is a citation, a paper's value or a listed literal), no number in the page's
//! reasons comes from anywhere but the tables.

mod common;

use std::path::Path;
use std::process::Command;

use common::root;

/// `docs/results/dissertation/EXPERIMENT/PROFILE.csv` and `.../PROFILE/*.svg` into
/// `results/EXPERIMENT/PROFILE/EXPERIMENT.csv` and `.../PROFILE/*.svg` under `to`.
fn lay_out(committed: &Path, to: &Path) {
    for experiment in std::fs::read_dir(committed).unwrap() {
        let experiment = experiment.unwrap().path();
        let name = experiment
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for entry in std::fs::read_dir(&experiment).unwrap() {
            let entry = entry.unwrap().path();
            let place = |profile: &str| {
                let dir = to.join("results").join(&name).join(profile);
                std::fs::create_dir_all(&dir).unwrap();
                dir
            };
            if entry.extension().is_some_and(|e| e == "csv") {
                let profile = entry.file_stem().unwrap().to_string_lossy().into_owned();
                std::fs::copy(&entry, place(&profile).join(format!("{name}.csv"))).unwrap();
            } else if entry.is_dir() {
                let profile = entry.file_name().unwrap().to_string_lossy().into_owned();
                for plot in std::fs::read_dir(&entry).unwrap() {
                    let plot = plot.unwrap().path();
                    std::fs::copy(&plot, place(&profile).join(plot.file_name().unwrap())).unwrap();
                }
            }
        }
    }
}

#[test]
fn the_results_page_is_what_the_committed_tables_give() {
    let dir = tempfile::tempdir().unwrap();
    lay_out(&root().join("docs/results/dissertation"), dir.path());
    // The paper file and experiments as committed, at the same relative paths.
    std::os::unix::fs::symlink(root().join("experiments"), dir.path().join("experiments")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_wsim"))
        .current_dir(dir.path())
        .args([
            "experiment",
            "report",
            "experiments/dissertation-paper.toml",
            "--results",
            "results",
            "-o",
            "docs/RESULTS.md",
            "--figures",
            "docs/results/dissertation",
        ])
        .output()
        .expect("wsim runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(dir.path().join("docs/RESULTS.md")).unwrap();
    let committed = std::fs::read_to_string(root().join("docs/RESULTS.md")).unwrap();
    if page != committed {
        let first = (page.lines().zip(committed.lines()))
            .position(|(a, b)| a != b)
            .unwrap_or(page.lines().count().min(committed.lines().count()));
        panic!(
            "docs/RESULTS.md is not what the committed tables give: regenerate it (docs/\
             EXPERIMENTS.md, \"Reports\"). First difference at line {}:\n  committed: {}\n  \
             generated: {}",
            first + 1,
            committed.lines().nth(first).unwrap_or("(end)"),
            page.lines().nth(first).unwrap_or("(end)")
        );
    }
}

/// Every experiment of the dissertation's directory has its section on the page (the
/// readings file apart): a section dropped from the paper file would otherwise leave the
/// page regenerating byte for byte without it, as Figures 4.2-4.4 once were.
#[test]
fn every_dissertation_experiment_has_a_section() {
    let paper: toml::Table =
        std::fs::read_to_string(root().join("experiments/dissertation-paper.toml"))
            .unwrap()
            .parse()
            .unwrap();
    let readings = paper["readings"].as_str().unwrap();
    let sections: Vec<&str> = paper["sections"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s.get("experiment").and_then(|e| e.as_str()))
        .collect();
    let dir = root().join("experiments/dissertation");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") || path.ends_with(readings) {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if !sections.contains(&name.as_str()) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "experiments without a section in the paper file: {missing:?}"
    );
}
