//! The committed figures (docs/results) are printable: every text of every SVG, laid out
//! in the host's fonts as a PDF viewer would, stays inside its canvas, and each has its
//! PDF beside it.

mod common;

use std::path::{Path, PathBuf};

fn svgs(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
        let path = entry.path();
        if path.is_dir() {
            svgs(&path, found);
        } else if path.extension().is_some_and(|e| e == "svg") {
            found.push(path);
        }
    }
}

#[test]
fn every_committed_figures_text_stays_inside_its_canvas() {
    let mut found = Vec::new();
    svgs(&common::root().join("docs/results"), &mut found);
    assert!(found.len() > 30, "{} figures", found.len());
    let mut problems = Vec::new();
    for svg in &found {
        match wsim_harness::plot::draw::text_outside(svg) {
            Ok(outside) => problems.extend(
                outside
                    .into_iter()
                    .map(|t| format!("{}: {t}", svg.display())),
            ),
            Err(e) => problems.push(format!("{}: {e:#}", svg.display())),
        }
        if !svg.with_extension("pdf").exists() {
            problems.push(format!("{}: no PDF beside it", svg.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
