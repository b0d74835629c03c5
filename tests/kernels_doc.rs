//! docs/KERNELS.md's measured tables are what `scripts/kernels_table.py` prints from the
//! committed CSVs (docs/results/kernels*.csv): a new measurement or a hand edit that the
//! other does not follow fails here, and `scripts/kernels_table.py --doc docs/KERNELS.md`
//! rewrites the tables.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::root;

fn check(doc: &Path) -> Output {
    Command::new("python3")
        .arg(root().join("scripts/kernels_table.py"))
        .arg("--doc")
        .arg(doc)
        .arg("--check")
        .output()
        .expect("cannot run python3")
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
fn a_table_that_disagrees_with_its_csv_is_named() {
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
        stderr.contains("kernels_table.py docs/results/kernels.csv --form dissertation`"),
        "{stderr}"
    );
    // --check rewrites nothing.
    assert!(std::fs::read_to_string(&doc)
        .unwrap()
        .contains("| 1,021,068 |"));
}
