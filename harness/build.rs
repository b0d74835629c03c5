//! Embeds the git revision wsim is built from (`WSIM_GIT_REVISION`), the provenance that
//! regression baselines record: the commit, with `-modified` when tracked sources differ
//! from it, or `unknown` outside a git checkout (a source tarball); and the git object ids
//! of the simulator's sources at that commit (`WSIM_SOURCE_TREES`), which the experiment
//! cache keys on so that a commit that leaves them alone (docs, experiments, programs)
//! keeps its cached runs. Needs no network. Paths are the workspace's, one level up.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the simulator is built from: `-modified` and the source fingerprint both look here.
/// Every crate of the workspace (tests/structure.rs checks it): a sampled run's result is
/// the sampler's too.
const SOURCES: [&str; 10] = [
    "src",
    "sim",
    "isa",
    "files",
    "graph",
    "workloads",
    "sampler",
    "harness",
    "Cargo.toml",
    "Cargo.lock",
];

fn git<A: AsRef<OsStr>>(root: &Path, args: impl IntoIterator<Item = A>) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest
        .parent()
        .expect("the harness is a workspace member");
    // Re-run when the commit or the index moves, and when any source that goes into the
    // simulator changes (so the `-modified` mark follows edits).
    for path in SOURCES {
        println!("cargo:rerun-if-changed={}", root.join(path).display());
    }
    if let (Some(git_dir), Some(common)) = (
        git(root, ["rev-parse", "--path-format=absolute", "--git-dir"]),
        git(
            root,
            ["rev-parse", "--path-format=absolute", "--git-common-dir"],
        ),
    ) {
        let (git_dir, common) = (PathBuf::from(git_dir), PathBuf::from(common));
        let mut watched = vec![git_dir.join("HEAD"), git_dir.join("index")];
        watched.push(common.join("packed-refs"));
        if let Some(head_ref) = git(root, ["symbolic-ref", "-q", "HEAD"]) {
            watched.push(common.join(head_ref));
        }
        for path in watched.iter().filter(|p| Path::new(p).exists()) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    let revision = match git(root, ["rev-parse", "HEAD"]) {
        Some(commit) => {
            let status = ["status", "--porcelain", "--untracked-files=no", "--"];
            let modified = git(root, status.iter().chain(&SOURCES)).is_some_and(|s| !s.is_empty());
            if modified {
                format!("{commit}-modified")
            } else {
                commit
            }
        }
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=WSIM_GIT_REVISION={revision}");
    let trees = SOURCES.iter().map(|p| format!("HEAD:{p}"));
    let source_trees = git(root, std::iter::once("rev-parse".to_string()).chain(trees))
        .map_or(String::new(), |ids| ids.replace('\n', " "));
    println!("cargo:rustc-env=WSIM_SOURCE_TREES={source_trees}");
}
