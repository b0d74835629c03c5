//! Every graph program (algorithm x schedule x direction) on awkward graphs, the kinds a
//! user's own files bring: a hub far wider than a block, a long chain of super-steps,
//! sinks, self-loops and parallel edges, isolated vertices and an isolated source, sparse
//! ids, CRLF and no final newline, real and negative file weights, and weights whose
//! relaxations overflow 32 bits. Each graph is written to a file and run through `wsim sweep` on
//! the tiny configuration, which exits non-zero unless every run verifies against the
//! host reference.

mod common;

use std::fmt::Write as _;
use std::process::Command;

use common::{graph_manifest, root};

/// A deterministic stream of numbers (SplitMix64) so the graphs need no crate.
struct Stream(u64);

impl Stream {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

/// Run every graph program (the manifest's) on `text` (written as `file`) with the load
/// options `options`; fails with the sweep's table and stderr unless every run verified.
/// EGHW programs need no flag: they require the unit's mode themselves.
fn every_program_verifies(file: &str, text: &str, options: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(file);
    std::fs::write(&path, text).unwrap();
    let programs: Vec<String> = graph_manifest()
        .iter()
        .map(|p| common::program(&p.name).display().to_string())
        .collect();
    let config = root().join("configs/tiny.toml");
    let mut args = vec![
        "sweep",
        "--csv",
        "-c",
        config.to_str().unwrap(),
        "--graph",
        path.to_str().unwrap(),
    ];
    args.extend(options);
    args.extend(programs.iter().map(String::as_str));
    let out = Command::new(env!("CARGO_BIN_EXE_wsim"))
        .args(&args)
        .output()
        .expect("cannot run wsim");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{file} {options:?}:\n{table}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = common::csv_rows(&table);
    for row in &rows {
        assert_eq!(
            (row["exit"].as_str(), row["verified"].as_str()),
            ("0", "yes"),
            "{file}: {}\n{table}",
            row["program"]
        );
    }
    assert_eq!(rows.len(), programs.len(), "{file}: one row per program");
}

#[test]
fn a_hub_wider_than_a_block() {
    // One vertex with 1,500 neighbours (a block on tiny is 16 threads): TWC's and TWCE's
    // large tier, one huge ST entry, a long walk for VM.
    let mut text = String::new();
    for leaf in 1..=1500 {
        writeln!(text, "0 {leaf}").unwrap();
    }
    every_program_verifies("star.txt", &text, &["--symmetrize", "--source", "7"]);
}

#[test]
fn a_chain_with_sparse_ids_crlf_and_file_weights() {
    // 61 vertices named 3, 13, 23, ...: 60 BFS levels, one vertex per frontier.
    let mut rng = Stream(1);
    let lines: Vec<String> = (0..60)
        .map(|i| format!("{}\t{}\t{}", i * 10 + 3, i * 10 + 13, 1 + rng.below(9)))
        .collect();
    let text = format!("# a chain\r\n{}", lines.join("\r\n"));
    every_program_verifies("chain.txt", &text, &[]);
}

#[test]
fn sinks_self_loops_parallel_edges_and_a_sink_source() {
    // Vertex 0 is only ever a destination, so BFS and SSSP from it stop at once while the
    // pull kernels still walk everything.
    let mut rng = Stream(2);
    let mut text = String::new();
    for _ in 0..2500 {
        writeln!(text, "{} {}", 1 + rng.below(499), rng.below(500)).unwrap();
    }
    text.push_str("5 5\n5 5\n7 9\n7 9\n");
    every_program_verifies("sinks.txt", &text, &[]);
    every_program_verifies("sinks.txt", &text, &["--source", "7"]);
}

#[test]
fn isolated_vertices_and_an_isolated_source() {
    // Matrix Market declares 1,500 vertices; only the first 200 have edges. Real weights,
    // some negative (their magnitude is used).
    let mut rng = Stream(3);
    let mut text = String::from("%%MatrixMarket matrix coordinate real general\n% comment\n\n");
    writeln!(text, "1500 1500 900").unwrap();
    for _ in 0..900 {
        let w = rng.below(10_000) as f64 / 100.0 - 20.0;
        writeln!(text, "{} {} {w:.2}", 1 + rng.below(200), 1 + rng.below(200)).unwrap();
    }
    every_program_verifies("isolated.mtx", &text, &["--source", "1499"]);
    every_program_verifies("isolated.mtx", &text, &["--source", "3"]);
}

#[test]
fn relaxations_whose_sum_wraps_are_discarded() {
    // A chain of weight-1 edges gives every vertex a short distance; heavy edges near
    // u32::MAX from the same vertices make sums that wrap past 2^32 into small numbers,
    // which a kernel without the wrap check would take as shorter paths.
    let mut text = String::new();
    for v in 0..100u64 {
        writeln!(text, "{v} {} 1", v + 1).unwrap();
        let heavy = u64::from(u32::MAX) - 60 + v % 40;
        writeln!(text, "{v} {} {heavy}", (v * 7 + 3) % 101).unwrap();
    }
    every_program_verifies("heavy.txt", &text, &[]);
}
