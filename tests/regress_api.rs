//! The regression check as a library, the way a user keeps cycle-count baselines in
//! their own `cargo test` suite: load the baseline file, check it (the runs go in
//! parallel), fail with the table of what moved. Here on the project's runs on the
//! dissertation's machine.

mod common;

use wsim_harness::regress::{Baseline, Options, Verdict};

#[test]
fn the_sparseweaver_runs_match_their_baseline() {
    common::programs_dir();
    let baseline = Baseline::load(common::root().join("baselines/project.toml")).unwrap();
    let only = Options {
        only: vec!["*@sparseweaver*".into()],
        ..Options::default()
    };
    let check = baseline.check(&only).unwrap();
    let selected = baseline
        .runs()
        .iter()
        .filter(|r| r.name.contains("@sparseweaver"));
    assert_eq!(check.runs.len(), selected.count());
    assert!(check.runs.len() >= 5, "{}", check.table());
    assert!(check.passed(), "{}", check.table());

    // A slower Weaver table moves the runs whose schedule uses the unit (SparseWeaver, and
    // EGHW: the unit in its EGHW mode), and only those.
    let slower = Options {
        overrides: vec!["weaver.table_latency=200".into()],
        ..only
    };
    let check = baseline.check(&slower).unwrap();
    assert_eq!(check.verdict(), Verdict::Failed);
    for run in &check.runs {
        let uses_the_unit = run.name.contains("sparseweaver_") || run.name.contains("eghw_");
        assert_eq!(
            run.verdict == Verdict::Failed,
            uses_the_unit,
            "{}",
            check.table()
        );
    }
}
