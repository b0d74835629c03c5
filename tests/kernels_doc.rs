//! docs/KERNELS.md's measured tables are what `wsim tables schedules` prints from the
//! committed CSVs (docs/results/kernels*.csv): a new measurement or a hand edit that the
//! other does not follow fails here, and `wsim tables doc docs/KERNELS.md` rewrites the
//! tables.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::root;

fn check(doc: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wsim"))
        .args(["tables", "doc", "--check"])
        .arg(doc)
        .current_dir(root())
        .output()
        .expect("cannot run wsim")
}

#[test]
fn the_kernel_tables_are_the_committed_measurements() {
    let out = check(&root().join("docs/KERNELS.md"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_table_that_disagrees_with_its_csv_is_named_and_rewritten() {
    let text = std::fs::read_to_string(root().join("docs/KERNELS.md")).unwrap();
    // SparseWeaver's R-MAT 14 PageRank pull, dissertation form, as measured.
    let measured = "| 1,021,067 |";
    assert!(
        text.contains(measured),
        "the R-MAT 14 table lost its SparseWeaver cell"
    );
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("KERNELS.md");
    std::fs::write(&doc, text.replacen(measured, "| 1,021,068 |", 1)).unwrap();
    let out = check(&doc);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "the table of `wsim tables schedules docs/results/kernels.csv --form dissertation`"
        ),
        "{stderr}"
    );
    // --check rewrites nothing; without it the table is the CSV's again.
    assert!(std::fs::read_to_string(&doc)
        .unwrap()
        .contains("| 1,021,068 |"));
    let out = Command::new(env!("CARGO_BIN_EXE_wsim"))
        .args(["tables", "doc"])
        .arg(&doc)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&doc).unwrap(), text);
}

/// A table of runs that did not all verify is refused, naming the run.
#[test]
fn a_run_that_did_not_verify_is_refused() {
    let csv = std::fs::read_to_string(root().join("docs/results/kernels.csv")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.csv");
    let mut lines: Vec<String> = csv.lines().map(String::from).collect();
    lines[1] = lines[1].replacen(",ok,0,yes,", ",ok,0,NO,", 1);
    assert!(lines[1].contains(",NO,"), "{}", lines[1]);
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_wsim"))
        .args(["tables", "schedules"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("run 0 (bfs_cm_pull) did not verify: NO"),
        "{stderr}"
    );
}
