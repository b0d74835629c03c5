//! Fuzzing in the repository: proptest-driven harnesses (stable toolchain) that mutate a
//! seed corpus taken from the repository's own files and check that nothing panics, and
//! what must hold of what is accepted. Targets: the instruction decoder, the ELF loader
//! (and a short run of what loads), the configuration as TOML and as `--set` items, the
//! graph readers (SNAP, Matrix Market, gzip), the generator specs, and the harness's
//! experiment and baseline files (errors must name the file).
//!
//! `cargo test` runs a CI-sized number of cases per target; a longer campaign (docs:
//! ARCHITECTURE.md, "Fuzzing"):
//!
//! ```sh
//! WSIM_FUZZ_CASES=20000 [WSIM_FUZZ_SEED=7] cargo test --release --test fuzz -- --nocapture
//! ```
//!
//! Each target prints its cases and time. Runs are deterministic for a seed. A failure
//! shows the smallest input proptest could shrink it to; an abort (an allocation failure
//! under `ulimit -v`) cannot be caught, so `WSIM_FUZZ_SAVE=DIR` keeps each target's
//! latest input in `DIR`. Every crash found becomes a regression test at the end of this
//! file.

mod common;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, RngSeed, TestRunner};
use wsim_graph::{Graph, Limits, LoadOptions, WeightSource};
use wsim_harness::run::{self, Program, RunRequest};
use wsim_sim::{Config, Machine};

/// With `WSIM_FUZZ_SAVE=DIR`, each target writes the input it is about to test to
/// `DIR/<target>`: after an abort (which no harness can catch) the culprit is there.
fn save(target: &str, input: &[u8]) {
    if let Some(dir) = std::env::var_os("WSIM_FUZZ_SAVE") {
        std::fs::write(PathBuf::from(dir).join(target), input).expect("WSIM_FUZZ_SAVE is writable");
    }
}

/// Run `test` on `strategy`'s values: `default_cases` of them, or `WSIM_FUZZ_CASES`.
fn fuzz<S: Strategy>(
    name: &str,
    default_cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    let env = |key: &str| std::env::var(key).ok().and_then(|v| v.parse::<u64>().ok());
    let cases = env("WSIM_FUZZ_CASES").map_or(default_cases, |n| n as u32);
    // Each target its own stream, the same on every run for a seed.
    let seed = name
        .bytes()
        .fold(env("WSIM_FUZZ_SEED").unwrap_or(0), |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    let mut runner = TestRunner::new(RunnerConfig {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed),
        max_shrink_iters: 4096,
        ..RunnerConfig::default()
    });
    let start = Instant::now();
    let result = runner.run(&strategy, test);
    eprintln!(
        "fuzz {name}: {cases} cases in {:.2} s",
        start.elapsed().as_secs_f64()
    );
    if let Err(e) = result {
        panic!("fuzz {name}: {e}");
    }
}

/// An edit of a seed input. Positions are taken modulo the input's length when applied,
/// so one strategy serves inputs of any size.
#[derive(Clone, Debug)]
enum Edit {
    FlipBit {
        at: usize,
        bit: u8,
    },
    SetByte {
        at: usize,
        byte: u8,
    },
    /// A little-endian word, aligned down to 4 (ELF fields, instruction words).
    SetWord {
        at: usize,
        word: u32,
    },
    Insert {
        at: usize,
        bytes: Vec<u8>,
    },
    Remove {
        at: usize,
        len: usize,
    },
    Truncate {
        at: usize,
    },
}

/// Words that sit at the edges of ranges: lengths, offsets and counts that overflow.
const EDGE_WORDS: [u32; 10] = [
    0,
    1,
    4,
    0x7F,
    0xFFFF,
    0x7FFF_FFFF,
    0x8000_0000,
    0xFFFF_FFF0,
    0xFFFF_FFFF,
    0x9000_0000,
];

/// Edits of `tokens` (dictionary entries a text format is made of) and of bytes; with
/// `head`, half of the positions fall in the first `head` bytes (a binary's headers).
fn edits(tokens: &'static [&'static str], head: usize) -> impl Strategy<Value = Vec<Edit>> {
    let at = prop_oneof![0..head.max(1), any::<usize>()];
    let word = prop_oneof![prop::sample::select(&EDGE_WORDS[..]), any::<u32>()];
    let token = prop::sample::select(tokens).prop_map(|t| t.as_bytes().to_vec());
    let edit = prop_oneof![
        (at.clone(), 0..8u8).prop_map(|(at, bit)| Edit::FlipBit { at, bit }),
        (at.clone(), any::<u8>()).prop_map(|(at, byte)| Edit::SetByte { at, byte }),
        (at.clone(), word).prop_map(|(at, word)| Edit::SetWord { at, word }),
        (
            at.clone(),
            prop_oneof![token, prop::collection::vec(any::<u8>(), 1..8)]
        )
            .prop_map(|(at, bytes)| Edit::Insert { at, bytes }),
        (at.clone(), 1..64usize).prop_map(|(at, len)| Edit::Remove { at, len }),
        at.prop_map(|at| Edit::Truncate { at }),
    ];
    prop::collection::vec(edit, 0..8)
}

fn apply(seed: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut data = seed.to_vec();
    for edit in edits {
        let n = data.len().max(1);
        match *edit {
            Edit::FlipBit { at, bit } if !data.is_empty() => data[at % n] ^= 1 << bit,
            Edit::SetByte { at, byte } if !data.is_empty() => data[at % n] = byte,
            Edit::SetWord { at, word } if data.len() >= 4 => {
                let at = (at % (data.len() - 3)) & !3;
                data[at..at + 4].copy_from_slice(&word.to_le_bytes());
            }
            Edit::Insert { at, ref bytes } => {
                let at = at % (data.len() + 1);
                data.splice(at..at, bytes.iter().copied());
            }
            Edit::Remove { at, len } if !data.is_empty() => {
                let at = at % n;
                data.drain(at..(at + len).min(data.len()));
            }
            Edit::Truncate { at } => data.truncate(at % (data.len() + 1)),
            _ => {}
        }
    }
    data
}

fn read(path: PathBuf) -> Vec<u8> {
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The built programs the ELF and decoder targets start from: small ones of every kind
/// (C runtime, riscv-tests environment, error programs, a graph program).
fn elf_seeds() -> Vec<Vec<u8>> {
    [
        "hello",
        "vecadd",
        "isa_a",
        "rvtest/add",
        "rvtest/fadd_fcvt",
        "errors/deadlock",
        "errors/unmapped",
        "weaver_edge_sum",
        "graph/bfs_sparseweaver_push",
    ]
    .iter()
    .map(|p| read(common::program(p)))
    .collect()
}

/// A small machine that runs a fuzzed program a bounded number of cycles.
fn small_machine() -> Config {
    common::preset("tiny")
        .with_overrides(&["run.max_cycles=3000".into()])
        .unwrap()
}

/// Build `config`'s machine for `elf` and run it briefly through the run path (its report
/// made from the statistics, up to a failure too): errors are fine, panics not.
fn build_and_run(config: &Config, elf: &[u8]) {
    let mut config = config.clone();
    config.run.max_cycles = config.run.max_cycles.min(1000);
    let program = Program::Bytes(Arc::new(elf.to_vec()));
    let _ = run::run(RunRequest::new("fuzzed", program, config));
}

#[test]
fn fuzz_decoder() {
    // Code words of the built programs, mutated bit by bit, and arbitrary words.
    let mut words: Vec<u32> = Vec::new();
    for elf in elf_seeds() {
        let image = wsim_sim::loader::load(&elf).unwrap();
        for seg in image.segments.iter().filter(|s| s.execute) {
            words.extend(
                seg.data
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            );
        }
    }
    words.sort_unstable();
    words.dedup();
    let word = prop_oneof![
        (prop::sample::select(words), any::<u32>(), 0..3u32)
            .prop_map(|(w, mask, k)| w ^ (mask >> (8 * k + 8))),
        any::<u32>(),
    ];
    fuzz("decoder", 20_000, word, |word| {
        if let Ok(d) = wsim_isa::decode(word) {
            let text = wsim_isa::disasm_plain(&d.instr, 0x8000_0000);
            prop_assert!(!text.is_empty());
            prop_assert_eq!(wsim_isa::info(&d.instr), d.info);
            // What decodes encodes back to an instruction that decodes the same.
            let again = wsim_isa::decode(wsim_isa::encode(&d.instr));
            prop_assert_eq!(again.map(|a| a.instr), Ok(d.instr), "{:#010x}", word);
        }
        Ok(())
    });
}

#[test]
fn fuzz_elf_loader() {
    let seeds = elf_seeds();
    let config = small_machine();
    let input = (0..seeds.len(), edits(&["\x7fELF", "\x01\x01\x01"], 256));
    fuzz("elf", 1000, input, |(seed, edits)| {
        let bytes = apply(&seeds[seed], &edits);
        save("elf", &bytes);
        if wsim_sim::loader::load(&bytes).is_ok() {
            build_and_run(&config, &bytes);
        }
        Ok(())
    });
}

/// Pieces of TOML and values at the edges of the keys' ranges.
const TOML_TOKENS: &[&str] = &[
    "= 0\n",
    "= 1\n",
    "= -1\n",
    "= 4294967295\n",
    "= 4294967296\n",
    "= 18446744073709551615\n",
    "= 1e300\n",
    "= nan\n",
    "= \"x\"\n",
    "= true\n",
    "= {}\n",
    "= []\n",
    "= [{ base = 0xC0000000, size = 16 }]\n",
    "[gpu]\n",
    "[core]\n",
    "[local_mem]\n",
    "[stack]\n",
    "[weaver]\n",
    "[memory.l2]\n",
    "[memory.dram]\n",
    "[map]\n",
    "clusters = 64\ncores_per_cluster = 4\n",
    "warps_per_core = 32\nthreads_per_warp = 32\n",
    "size = 0\n",
    "entries = 65536\n",
    "top = 0x1000\n",
    "heap = 0xFFFFFFFF\n",
    "0x",
    "\"",
    "[",
    "]",
    "=",
    ".",
    "\n",
];

#[test]
fn fuzz_config_toml() {
    let mut seeds: Vec<Vec<u8>> = ["tiny", "vortex", "sparseweaver", "rtx"]
        .iter()
        .map(|p| read(common::root().join(format!("configs/{p}.toml"))))
        .collect();
    seeds.push(Config::default().to_toml().into_bytes());
    let elf = read(common::program("errors/forever"));
    let input = (0..seeds.len(), edits(TOML_TOKENS, 0));
    fuzz("config-toml", 1000, input, |(seed, edits)| {
        let bytes = apply(&seeds[seed], &edits);
        save("config-toml", &bytes);
        let text = String::from_utf8_lossy(&bytes);
        match Config::from_toml(&text, "fuzz.toml") {
            Ok(config) => {
                // Accepted: valid, and its machine builds and runs without aborting.
                prop_assert_eq!(config.validate(), Ok(()));
                build_and_run(&config, &elf);
            }
            Err(e) => prop_assert!(e.0.starts_with("fuzz.toml: "), "{}", e),
        }
        Ok(())
    });
}

/// Every key of the configuration, from the defaults' TOML.
fn config_keys() -> Vec<String> {
    let mut section = String::new();
    let mut keys = Vec::new();
    for line in Config::default().to_toml().lines() {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = format!("{name}.");
        } else if let Some((key, _)) = line.split_once(" = ") {
            keys.push(format!("{section}{key}"));
        }
    }
    keys
}

#[test]
fn fuzz_config_set() {
    let keys = config_keys();
    assert!(keys.len() > 80, "{keys:?}");
    // The keys' sections as keys too (`--set gpu=4`), and mistyped ones.
    let mut paths = keys.clone();
    paths.extend(["gpu", "memory.l1d", "weaver.entries.x", "gpu.warp", ""].map(String::from));
    let value = prop_oneof![
        prop::sample::select(
            &[
                "0",
                "1",
                "2",
                "32",
                "33",
                "64",
                "4096",
                "65536",
                "1048576",
                "268435456",
                "4",
                "-1",
                "4294967295",
                "4294967296",
                "0xFF000000",
                "0x90000000",
                "true",
                "off",
                "on",
                "eghw",
                "rr",
                "write-back",
                "lru",
                "first-core",
                "\"128\"",
                "[]",
                "{}",
                "[{ base = 0xC0000000, size = 4096 }]",
                "1.5",
                "=",
                "",
            ][..]
        )
        .prop_map(String::from),
        any::<u32>().prop_map(|v| v.to_string()),
    ];
    let items = prop::collection::vec((prop::sample::select(paths), value), 1..5);
    let elf = read(common::program("errors/forever"));
    fuzz(
        "config-set",
        1000,
        (items, any::<bool>()),
        |(items, vary)| {
            let items: Vec<String> = items.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let flag = if vary { "--vary" } else { "--set" };
            save(
                "config-set",
                format!("{flag} {}", items.join(" ")).as_bytes(),
            );
            match Config::default().with_overrides_from(flag, &items) {
                Ok(config) => {
                    prop_assert_eq!(config.validate(), Ok(()));
                    build_and_run(&config, &elf);
                }
                Err(e) => prop_assert!(e.0.starts_with(flag), "{}", e),
            }
            Ok(())
        },
    );
}

/// The graph seeds: tests/fuzz_corpus/graphs, by name.
fn graph_seeds() -> Vec<(String, Vec<u8>)> {
    let dir = common::root().join("tests/fuzz_corpus/graphs");
    let mut seeds: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x != "md"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                read(p),
            )
        })
        .collect();
    seeds.sort();
    seeds
}

const GRAPH_TOKENS: &[&str] = &[
    "%%MatrixMarket matrix coordinate pattern general\n",
    "%%MatrixMarket matrix coordinate real symmetric\n",
    "# wsim-graph vertices=",
    "# wsim-graph vertices=4000000000\n",
    "1000000000 1000000000 3\n",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "0 0\n",
    "-1",
    "1e400",
    "nan",
    "inf",
    "0.0",
    "\r\n",
    "\t",
    ",",
    "%",
    "#",
    "\n",
];

/// Small ceilings keep every case fast; the defaults are the ones tests/limits.rs pins.
fn fuzz_limits() -> Limits {
    Limits {
        max_vertices: 1 << 14,
        max_edges: 1 << 14,
        ..Limits::default()
    }
}

fn load_options() -> impl Strategy<Value = LoadOptions> {
    (any::<[bool; 3]>(), 0..4u32, any::<u64>()).prop_map(|([sym, dedup, drop], w, seed)| {
        LoadOptions {
            symmetrize: sym,
            dedup,
            drop_self_loops: drop,
            weights: match w {
                0 => WeightSource::Unit,
                1 => WeightSource::Generated {
                    max: 1 + seed as u32 % 100,
                },
                2 => WeightSource::FromFileOrGenerated { max: 0 },
                _ => WeightSource::default(),
            },
            seed,
            limits: fuzz_limits(),
        }
    })
}

/// What every loaded graph satisfies (lib.rs, "Graphs" in ARCHITECTURE.md).
fn check_graph(g: &Graph) -> Result<(), TestCaseError> {
    let (csr, csc) = (g.csr(), g.csc());
    prop_assert!(g.num_vertices() >= 1);
    prop_assert_eq!(csr.targets.len(), csc.targets.len());
    prop_assert_eq!(*csr.offsets.last().unwrap() as usize, csr.targets.len());
    prop_assert!(csr.weights.iter().all(|&w| w >= 1));
    prop_assert!(csr.targets.iter().all(|&t| t < g.num_vertices()));
    let stats = g.stats();
    prop_assert_eq!(stats.edges, g.num_edges());
    Ok(())
}

#[test]
fn fuzz_graph_files() {
    let seeds = graph_seeds();
    assert!(seeds.len() >= 6, "{seeds:?}");
    let dir = tempfile::tempdir().unwrap();
    // Which gzip: none, the edited text compressed, or the compressed text edited.
    let input = (
        0..seeds.len(),
        edits(GRAPH_TOKENS, 0),
        0..3u8,
        edits(&["\x1f", "\0\0\0\0"], 32),
        load_options(),
    );
    fuzz(
        "graph-files",
        1000,
        input,
        |(seed, text_edits, gz, gz_edits, opts)| {
            let (name, bytes) = &seeds[seed];
            let text = apply(bytes, &text_edits);
            let (name, data) = match gz {
                0 => (name.clone(), text),
                _ => {
                    use std::io::Write;
                    let mut enc =
                        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                    enc.write_all(&text).unwrap();
                    let packed = enc.finish().unwrap();
                    let packed = if gz == 2 {
                        apply(&packed, &gz_edits)
                    } else {
                        packed
                    };
                    (format!("{name}.gz"), packed)
                }
            };
            save("graph-files", &data);
            let path = dir.path().join(&name);
            std::fs::write(&path, &data).unwrap();
            match Graph::load(&path, &opts) {
                Ok(g) => check_graph(&g)?,
                // Every error names the file.
                Err(e) => prop_assert!(e.to_string().contains(&name), "{}", e),
            }
            Ok(())
        },
    );
}

#[test]
fn fuzz_generator_specs() {
    let kinds = ["rmat", "powerlaw", "uniform", "grid", "rmatt", ""];
    let keys = [
        "scale", "ef", "seed", "a", "b", "c", "permute", "v", "e", "alpha", "w", "h", "x", "",
    ];
    let value = prop_oneof![
        prop::sample::select(
            &[
                "0",
                "1",
                "2",
                "14",
                "31",
                "32",
                "-1",
                "0.5",
                "0.99",
                "1.0",
                "1e400",
                "nan",
                "4294967295",
                "4294967296",
                "1_000",
                "",
                "abc",
            ][..]
        )
        .prop_map(String::from),
        (0..20_000u32).prop_map(|v| v.to_string()),
    ];
    let spec = (
        prop::sample::select(kinds.to_vec()),
        prop::collection::vec((prop::sample::select(keys.to_vec()), value), 0..5),
    )
        .prop_map(|(kind, pairs)| {
            let args: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("gen:{kind}:{}", args.join(","))
        });
    fuzz(
        "generator-specs",
        1000,
        (spec, load_options()),
        |(spec, opts)| {
            save("generator-specs", spec.as_bytes());
            match Graph::from_spec(&spec, &opts) {
                Ok(g) => check_graph(&g)?,
                Err(e) => prop_assert!(e.to_string().starts_with(&spec), "{}", e),
            }
            Ok(())
        },
    );
}

// Regression tests: what the fuzz targets found.

/// `elf` (seed 22, 2026-11-25): a PT_LOAD whose memsz says 1.1 GB aborted under a 2 GiB
/// limit: the loader zero-filled the .bss in host memory. Untouched memory reads as
/// zero, so the .bss now takes nothing until the program writes it, yet stays mapped.
/// Tokens of experiment and baseline files: their tables, keys and the values that once
/// went wrong (names with `..`, NaN counts, empty lists).
const HARNESS_TOKENS: &[&str] = &[
    "[[programs]]\n",
    "[[graphs]]\n",
    "[[axes]]\n",
    "[[plots]]\n",
    "[profiles.p]\n",
    "${scale}",
    "files = ['*.elf']\n",
    "name = '../x'\n",
    "spec = 'gen:rmat:scale=4'\n",
    "values = []\n",
    "kind = 'line'\n",
    "[readings]\n",
    "run = 'all'\n",
    "file = 'readings.toml'\n",
    "'sockets'",
    "[[run]]\n",
    "[run.recorded]\n",
    "[run.recorded.stats]\n",
    "cycles = nan\n",
    "stats = [\"*\"]\n",
    "tolerance = { cycles = \"1%\" }\n",
    "-1",
    "1e309",
    "\"",
    "'",
    "[",
    "]",
    "=",
    "\n",
];

/// Links in `dir` to the repository's programs, configurations and data, so that a case
/// written at `dir/REL/fuzz.toml` finds what its seed at `REL` named relative to itself.
fn link_repository_into(dir: &std::path::Path) {
    std::fs::create_dir_all(dir).unwrap();
    for name in ["programs", "configs", "data"] {
        std::os::unix::fs::symlink(common::root().join(name), dir.join(name)).unwrap();
    }
}

/// Seeds: (folder relative to the repository, bytes) of the files under `folders`.
fn harness_seeds(folders: &[&str]) -> Vec<(String, Vec<u8>)> {
    let mut seeds = Vec::new();
    for folder in folders {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(common::root().join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        paths.sort();
        seeds.extend(paths.into_iter().map(|p| (folder.to_string(), read(p))));
    }
    seeds
}

/// Write a case where its seed lived: `sandbox/REL/fuzz.toml` (`REL` a folder of its own
/// in the sandbox, so that `..` from it reaches the links).
fn harness_case(sandbox: &std::path::Path, rel: &str, bytes: &[u8]) -> PathBuf {
    let dir = sandbox.join("cases").join(rel);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fuzz.toml");
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Fuzz a harness file format: the files under `folders` mutated, written where their
/// seed lived in a sandbox that links the repository, and given to `load`. Errors are
/// answers (each must name the file); a panic is the failure proptest reports.
fn fuzz_harness_file(
    name: &str,
    cases: u32,
    folders: &[&str],
    load: impl Fn(&std::path::Path) -> anyhow::Result<()>,
) {
    let seeds = harness_seeds(folders);
    let sandbox = tempfile::tempdir().unwrap();
    // `cases/REL/fuzz.toml`: `..` from REL reaches `cases/programs` and the rest.
    link_repository_into(&sandbox.path().join("cases"));
    // The readings file experiment files name beside themselves (docs/EXPERIMENTS.md).
    for folder in folders {
        let readings = common::root().join(folder).join("readings.toml");
        if readings.exists() {
            let dir = sandbox.path().join("cases").join(folder);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::copy(&readings, dir.join("readings.toml")).unwrap();
        }
    }
    let input = (0..seeds.len(), edits(HARNESS_TOKENS, 0));
    fuzz(name, cases, input, |(seed, edits)| {
        let (rel, bytes) = &seeds[seed];
        let bytes = apply(bytes, &edits);
        save(name, &bytes);
        let path = harness_case(sandbox.path(), rel, &bytes);
        if let Err(e) = load(&path) {
            let message = format!("{e:#}");
            prop_assert!(
                message.contains("fuzz.toml"),
                "an error names the file: {}",
                message
            );
        }
        Ok(())
    });
}

#[test]
fn fuzz_experiment_files() {
    let folders = ["experiments", "experiments/dissertation"];
    fuzz_harness_file("experiment-file", 300, &folders, |path| {
        wsim_harness::experiment::Experiment::load(path, None).map(drop)
    });
}

#[test]
fn fuzz_baseline_files() {
    fuzz_harness_file("baseline-file", 500, &["baselines"], |path| {
        wsim_harness::regress::Baseline::load(path).map(drop)
    });
}

#[test]
fn regression_a_huge_bss_takes_no_host_memory() {
    let mut elf = read(common::program("errors/forever"));
    let phoff = u32::from_le_bytes(elf[28..32].try_into().unwrap()) as usize;
    let load = (0..usize::from(u16::from_le_bytes([elf[44], elf[45]])))
        .map(|i| phoff + 32 * i)
        .find(|&ph| elf[ph..ph + 4] == 1u32.to_le_bytes())
        .expect("a PT_LOAD");
    elf[load + 20..load + 24].copy_from_slice(&0x4000_0000u32.to_le_bytes());
    let mut request = RunRequest::new("huge bss", Program::Bytes(Arc::new(elf)), small_machine());
    request.options.prepare = Some(Box::new(|machine: &mut Machine| {
        assert!(machine.memory().pages().count() < 8);
        let map = machine.memory_map();
        assert_eq!(map.check(0xBFFF_FFFC, 4, "load"), Ok(()));
    }));
    let (_, result) = common::execute(request);
    assert!(matches!(
        result.unwrap_err().kind,
        wsim_sim::error::ErrorKind::MaxCycles { .. }
    ));
}
