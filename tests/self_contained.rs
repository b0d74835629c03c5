//! A clone tests itself: nothing the tests, the code, the scripts or the documentation
//! use lies outside the repository (the shared folder beside a work tree is not in a
//! clone), and a user's own program in programs/user/ builds and is left alone by the
//! project's tests.

mod common;

use std::path::{Path, PathBuf};

use common::root;

/// Paths that only exist beside the repository on the machine it was written on (split
/// so that this file does not name them).
const OUTSIDE: [&str; 2] = [concat!("..", "/shared"), concat!("/wo", "rk/")];

fn text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            // Build outputs are not the repository's.
            if !matches!(&*name, "target" | "build" | ".git") {
                text_files(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

#[test]
fn nothing_points_outside_the_repository() {
    let root = root();
    let mut files = Vec::new();
    for dir in [
        ".ci",
        "baselines",
        "configs",
        "data",
        "docs",
        "graph",
        "isa",
        "programs",
        "scripts",
        "sim",
        "src",
        "tests",
    ] {
        text_files(&root.join(dir), &mut files);
    }
    files.extend(["README.md", "Cargo.toml", "build.rs"].map(|f| root.join(f)));
    let mut found = Vec::new();
    for file in &files {
        // Binary files (gzip graphs, ELF corpora) name no path a test follows.
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            if OUTSIDE.iter().any(|p| line.contains(p)) {
                let rel = file.strip_prefix(&root).unwrap();
                found.push(format!("{}:{}: {}", rel.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "paths outside the repository (copy what is needed into it, e.g. data/graphs):\n{}",
        found.join("\n")
    );
    assert!(files.len() > 100, "{} files scanned", files.len());
}

/// Removes the user program it names (source and build outputs) when dropped.
struct UserProgram(&'static str);

impl Drop for UserProgram {
    fn drop(&mut self) {
        let programs = root().join("programs");
        let build = programs.join("build");
        for path in [
            programs.join(format!("user/{}.c", self.0)),
            build.join(format!("user/{}.elf", self.0)),
            build.join(format!("user/{}.dump", self.0)),
            build.join(format!("obj/user/{}.o", self.0)),
            build.join(format!("obj/user/{}.d", self.0)),
        ] {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[test]
fn a_user_program_builds_and_the_project_tests_skip_it() {
    let dir = common::programs_dir();
    let program = UserProgram("self_contained_check");
    let source = root().join(format!("programs/user/{}.c", program.0));
    std::fs::copy(root().join("programs/hello.c"), &source).unwrap();
    let status = std::process::Command::new("make")
        .args(["-s", "-C"])
        .arg(root().join("programs"))
        .status()
        .unwrap();
    assert!(status.success());
    let elf = dir.join(format!("user/{}.elf", program.0));
    assert!(elf.exists(), "{} not built", elf.display());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wsim"))
        .args(["run", elf.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!common::built_programs()
        .iter()
        .any(|p| p.starts_with("user/")));
}
