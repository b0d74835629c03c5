//! Embeds the git revision wsim is built from (`WSIM_GIT_REVISION`), the provenance that
//! regression baselines record: the commit, with `-modified` when tracked sources differ
//! from it, or `unknown` outside a git checkout (a source tarball). Needs no network.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    // Re-run when the commit or the index moves, and when any source that goes into the
    // simulator changes (so the `-modified` mark follows edits).
    for dir in [
        "src",
        "sim/src",
        "isa/src",
        "graph/src",
        "Cargo.toml",
        "Cargo.lock",
    ] {
        println!("cargo:rerun-if-changed={dir}");
    }
    if let (Some(git_dir), Some(common)) = (
        git(&["rev-parse", "--git-dir"]),
        git(&["rev-parse", "--git-common-dir"]),
    ) {
        let (git_dir, common) = (PathBuf::from(git_dir), PathBuf::from(common));
        let mut watched = vec![git_dir.join("HEAD"), git_dir.join("index")];
        watched.push(common.join("packed-refs"));
        if let Some(head_ref) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watched.push(common.join(head_ref));
        }
        for path in watched.iter().filter(|p| Path::new(p).exists()) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    let revision = match git(&["rev-parse", "HEAD"]) {
        Some(commit) => {
            let modified = git(&[
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                "src",
                "sim",
                "isa",
                "graph",
                "Cargo.toml",
                "Cargo.lock",
            ])
            .is_some_and(|s| !s.is_empty());
            if modified {
                format!("{commit}-modified")
            } else {
                commit
            }
        }
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=WSIM_GIT_REVISION={revision}");
}
