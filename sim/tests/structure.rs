//! The engine's layout stays a map (docs/ARCHITECTURE.md): modules stand on each other
//! without import circles. Every `crate::` or `super::` path in a file is an edge from its
//! module to the module the path names (a module may use its ancestors, which declare it);
//! the test fails on a cycle and names it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `core/pipeline/mod.rs` -> ["core", "pipeline"]; `lib.rs` -> [].
fn module_of(root: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The code of a file without comments and without its `#[cfg(test)] mod tests`.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module paths named by `crate::a::b` and `super::super::a` in `code` (a file's
/// `super` is its module's parent, for a `mod.rs` as for any other file).
fn referenced(module: &[String], code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    for (start, _) in code.match_indices("crate::") {
        let path: String = code[start + 7..]
            .chars()
            .take_while(|&c| ident(c))
            .collect();
        out.push(
            path.split("::")
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect(),
        );
    }
    for (start, _) in code.match_indices("super::") {
        if code[..start].ends_with("super::") {
            continue; // the rest of a `super::super::` chain
        }
        let path: String = code[start..].chars().take_while(|&c| ident(c)).collect();
        let parts: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        let ups = parts.iter().take_while(|&&p| p == "super").count();
        let Some(keep) = module.len().checked_sub(ups) else {
            continue;
        };
        let mut target = module[..keep].to_vec();
        target.extend(parts[ups..].iter().map(|s| s.to_string()));
        out.push(target);
    }
    out
}

#[test]
fn no_import_circles_in_the_engine() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(&root, f)).collect();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for file in &files {
        let module = module_of(&root, file);
        let text = std::fs::read_to_string(file).unwrap();
        for path in referenced(&module, &code(&text)) {
            // The longest prefix of the path that is a module.
            let Some(target) = (1..=path.len())
                .rev()
                .map(|k| path[..k].to_vec())
                .find(|p| modules.contains(p))
            else {
                continue;
            };
            let ancestor = module.len() >= target.len() && module[..target.len()] == target[..];
            if !ancestor {
                edges.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    // Depth-first search for a back edge.
    fn visit(
        m: &Vec<String>,
        edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<Vec<String>, u8>,
        stack: &mut Vec<Vec<String>>,
    ) -> Option<Vec<String>> {
        state.insert(m.clone(), 1);
        stack.push(m.clone());
        for next in edges.get(m).into_iter().flatten() {
            match state.get(next) {
                Some(1) => {
                    let at = stack.iter().position(|s| s == next).unwrap();
                    let mut cycle: Vec<String> = stack[at..].iter().map(|s| s.join("::")).collect();
                    cycle.push(next.join("::"));
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(next, edges, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(m.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    assert!(
        edges.len() > 20,
        "only {} modules import others",
        edges.len()
    );
    for m in &modules {
        if !state.contains_key(m) {
            let cycle = visit(m, &edges, &mut state, &mut Vec::new());
            assert!(
                cycle.is_none(),
                "import circle: {}",
                cycle.unwrap().join(" -> ")
            );
        }
    }
}

/// The engine knows no workload: it depends on no workload crate, and no file of it names
/// a graph program's or a GCN layer's descriptor. Workloads reach a machine through its
/// host API (`Machine::symbol`, `read_words`, `write_words`, `reserve_region`).
#[test]
fn the_engine_knows_no_workload() {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let cargo = std::fs::read_to_string(manifest.join("Cargo.toml")).unwrap();
    for crate_name in ["wsim-graph", "wsim-workloads"] {
        assert!(
            !cargo.contains(crate_name),
            "wsim-sim depends on {crate_name}"
        );
    }
    let mut files = Vec::new();
    rust_files(&manifest.join("src"), &mut files);
    assert!(files.len() > 50, "only {} engine files found", files.len());
    for file in &files {
        let text = code(&std::fs::read_to_string(file).unwrap());
        for word in [
            "wsim_graph",
            "wsim_gcn",
            "wsim_workloads",
            "GraphRun",
            "Schedule::",
        ] {
            assert!(
                !text.contains(word),
                "{} names `{word}`: workloads belong in workloads/",
                file.display()
            );
        }
    }
}
