//! The workspace keeps its shape (docs/ARCHITECTURE.md): crates stand in layers, each
//! crate's modules stand on each other without import circles, the engine knows no
//! workload, and one place builds a machine for a run.
//!
//! A module's edges are the `crate::` and `super::` paths in its files (a module may use
//! its ancestors, which declare it); the tests fail on a cycle and name it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The workspace's crates, lowest layer first: a crate may depend only on crates of
/// lower layers.
const LAYERS: [(&str, &str, u32); 8] = [
    // (folder, package, layer)
    ("isa", "wsim-isa", 0),
    ("files", "wsim-files", 0),
    ("graph", "wsim-graph", 1),
    ("sim", "wsim-sim", 1),
    ("workloads", "wsim-workloads", 2),
    ("sampler", "wsim-sampler", 2),
    ("harness", "wsim-harness", 3),
    (".", "wsim", 4),
];

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

/// `core/pipeline/mod.rs` -> ["core", "pipeline"]; `lib.rs` or `main.rs` -> [].
fn module_of(root: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let root_file = parts.len() == 1 && matches!(parts[0].as_str(), "lib" | "main");
    if root_file || parts.last().map(String::as_str) == Some("mod") {
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

type Edges = BTreeMap<Vec<String>, BTreeSet<Vec<String>>>;

/// The import edges between the modules of the crate whose sources are in `src`.
fn module_edges(src: &Path) -> (BTreeSet<Vec<String>>, Edges) {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(src, f)).collect();
    let mut edges = Edges::new();
    for file in &files {
        let module = module_of(src, file);
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
    (modules, edges)
}

/// A cycle among `edges`, if there is one (depth-first search for a back edge).
fn cycle(modules: &BTreeSet<Vec<String>>, edges: &Edges) -> Option<Vec<String>> {
    fn visit(
        m: &Vec<String>,
        edges: &Edges,
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
    for m in modules {
        if !state.contains_key(m) {
            if let Some(cycle) = visit(m, edges, &mut state, &mut Vec::new()) {
                return Some(cycle);
            }
        }
    }
    None
}

#[test]
fn no_crate_has_an_import_circle() {
    for (folder, package, _) in LAYERS {
        let src = root().join(folder).join("src");
        let (modules, edges) = module_edges(&src);
        // wsim-files is one module (lib.rs): nothing to circle.
        if package == "wsim-files" {
            assert_eq!(modules.len(), 1, "{package}: one module");
            continue;
        }
        assert!(
            modules.len() > 4 && !edges.is_empty(),
            "{package}: only {} modules found",
            modules.len()
        );
        if let Some(cycle) = cycle(&modules, &edges) {
            panic!("{package}: import circle: {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn a_circle_is_found_and_named() {
    let module = |m: &str| m.split("::").map(String::from).collect::<Vec<String>>();
    let modules: BTreeSet<Vec<String>> = ["a", "b", "c"].map(module).into();
    let mut edges = Edges::new();
    edges.entry(module("a")).or_default().insert(module("b"));
    assert_eq!(cycle(&modules, &edges), None);
    edges.entry(module("b")).or_default().insert(module("c"));
    edges.entry(module("c")).or_default().insert(module("a"));
    assert_eq!(cycle(&modules, &edges).unwrap(), ["a", "b", "c", "a"]);
    // `super::` from a file names its parent module's sibling.
    let refs = referenced(&module("x::y"), "use super::z::T; use crate::a::b;");
    assert_eq!(refs, [module("a::b"), module("x::z::T")]);
}

/// Each crate depends only on crates of lower layers: the engine on the ISA, the
/// workloads and the sampler on the engine (the workloads on the graphs too), the harness
/// on those, the command line on all.
#[test]
fn crates_depend_only_on_lower_layers() {
    let layer: BTreeMap<&str, u32> = LAYERS.iter().map(|(_, p, l)| (*p, *l)).collect();
    for (folder, package, own) in LAYERS {
        let manifest = std::fs::read_to_string(root().join(folder).join("Cargo.toml")).unwrap();
        let manifest: toml::Table = manifest.parse().unwrap();
        let deps = manifest
            .get("dependencies")
            .and_then(|d| d.as_table())
            .expect("a [dependencies] table");
        for dep in deps.keys().filter(|d| d.starts_with("wsim")) {
            let theirs = *layer
                .get(dep.as_str())
                .unwrap_or_else(|| panic!("{package} depends on {dep}, which no layer holds"));
            assert!(
                theirs < own,
                "{package} (layer {own}) depends on {dep} (layer {theirs}): a layer \
                 depends only on those below it"
            );
        }
    }
}

/// The experiment cache keys on the sources the simulator is built from
/// (`WSIM_SOURCE_TREES`, harness/build.rs), and a build of edited sources is `-modified`:
/// every crate's folder is among them, or a commit (or an edit) of that crate alone would
/// keep the cached runs it changes.
#[test]
fn the_cache_keys_on_every_crate() {
    let build = std::fs::read_to_string(root().join("harness/build.rs")).unwrap();
    let start = build
        .find("const SOURCES")
        .expect("harness/build.rs's SOURCES");
    let sources = &build[start..start + build[start..].find("];").unwrap()];
    for (folder, package, _) in LAYERS {
        let folder = if folder == "." { "src" } else { folder };
        assert!(
            sources.contains(&format!("\"{folder}\"")),
            "harness/build.rs's SOURCES lacks {folder}, {package}'s sources"
        );
    }
}

/// The engine knows no workload: no file of it names a graph program's or a GCN layer's
/// descriptor. Workloads reach a machine through its host API (`Machine::symbol`,
/// `read_words`, `write_words`, `reserve_region`).
#[test]
fn the_engine_knows_no_workload() {
    let mut files = Vec::new();
    rust_files(&root().join("sim/src"), &mut files);
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

/// One run path: outside the engine's own code, benchmarks and tests, the harness's
/// `run.rs` is the one place that builds a machine (every command and test runs programs
/// through it).
#[test]
fn one_place_builds_a_machine_for_a_run() {
    let mut files = Vec::new();
    for dir in [
        "src",
        "isa/src",
        "graph/src",
        "workloads/src",
        "harness/src",
        "tests",
    ] {
        rust_files(&root().join(dir), &mut files);
    }
    let builders: Vec<String> = files
        .iter()
        .filter(|f| code(&std::fs::read_to_string(f).unwrap()).contains("Machine::new("))
        .map(|f| f.strip_prefix(root()).unwrap().display().to_string())
        .filter(|f| f != "tests/structure.rs")
        .collect();
    assert_eq!(builders, ["harness/src/run.rs"]);
}

/// The fields of `pub struct NAME {` in `code` that other modules could write: those
/// declared `pub` or `pub(crate)`.
fn public_fields(code: &str, name: &str) -> Vec<String> {
    let start = format!("pub struct {name} {{");
    let body = code.split(&start).nth(1).expect("the struct is declared");
    let body = body.split("\n}").next().unwrap();
    body.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("pub ") || l.starts_with("pub(crate)"))
        .map(String::from)
        .collect()
}

/// The code of the machine's files (sim/src/machine/), each with its path.
fn machine_files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    rust_files(&root().join("sim/src/machine"), &mut files);
    assert!(!files.is_empty(), "no file in sim/src/machine");
    files
        .iter()
        .map(|f| {
            let name = f.strip_prefix(root()).unwrap().display().to_string();
            (name, code(&std::fs::read_to_string(f).unwrap()))
        })
        .collect()
}

/// The core owns its state: `Core` has no public field, so the machine drives it through
/// its methods (a cycle, a completion, a global barrier's release) and never writes a
/// warp, the pipeline or the core's sleep itself; nor does the machine name them.
#[test]
fn the_machine_writes_no_field_of_a_core() {
    let core = code(&std::fs::read_to_string(root().join("sim/src/core/mod.rs")).unwrap());
    assert_eq!(public_fields(&core, "Core"), Vec::<String>::new());
    for (name, machine) in machine_files() {
        for word in [
            ".warps[",
            ".pipe",
            "sleep_until",
            ".wait =",
            ".trace",
            ".effects",
        ] {
            assert!(!machine.contains(word), "{name} names `{word}`");
        }
    }
}

/// The machine names none of a warp's or the pipeline's internals: of the core it uses
/// `Core` and `Effect`, and of the pipeline only the memory port it implements onto the
/// hierarchy (`MemoryPort` and the vocabulary of its requests); what a warp waits on
/// reaches the deadlock report as the core's own description (`Core::describe_waits`).
#[test]
fn the_machine_names_no_warp_or_pipeline_internals() {
    const PORT: [&str; 5] = ["MemoryPort", "PortKind", "PortRequest", "Refusal", "Retry"];
    for (name, machine) in machine_files() {
        for (start, _) in machine.match_indices("crate::core") {
            let path: String = machine[start..]
                .chars()
                .take_while(|&c| c != ';')
                .filter(|c| !c.is_whitespace())
                .collect();
            // `crate::core::{A, B}` or `crate::core::A`.
            let (module, names): (&str, Vec<&str>) = match path.split_once("::{") {
                Some((module, names)) => (module, names.trim_end_matches('}').split(',').collect()),
                None => {
                    let (module, name) = path.rsplit_once("::").unwrap();
                    (module, vec![name])
                }
            };
            let allowed: &[&str] = match module {
                "crate::core" => &["Core", "Effect"],
                "crate::core::pipeline" => &PORT,
                _ => &[],
            };
            for n in names.iter().filter(|n| !n.is_empty()) {
                assert!(
                    allowed.contains(n),
                    "{name} uses `{module}::{n}`: the machine names no warp or pipeline \
                     internals (ask the core through a method)"
                );
            }
        }
        for word in ["warp.", "WarpWait", "stack.", ".barriers()", ".warps()"] {
            assert!(!machine.contains(word), "{name} names `{word}`");
        }
    }
}

/// Execution states what an instruction did in its `Executed` record and counts nothing:
/// the statistics and the timeline are fed from the record (`core/account.rs`) and the
/// pipeline's events.
#[test]
fn execution_counts_nothing() {
    let mut files = Vec::new();
    rust_files(&root().join("sim/src/core/exec"), &mut files);
    files.push(root().join("sim/src/core/weaver/exec.rs"));
    assert!(
        files.len() >= 7,
        "only {} execution files found",
        files.len()
    );
    for file in &files {
        let text = code(&std::fs::read_to_string(file).unwrap());
        for word in [
            "counters",
            "self.stats",
            "self.trace",
            "CoreEvent",
            "self.profile",
        ] {
            assert!(
                !text.contains(word),
                "{} names `{word}`: execution hands facts to `Core::account` in its record",
                file.display()
            );
        }
    }
}
