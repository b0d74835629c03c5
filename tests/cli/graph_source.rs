//! `--source` in the graph file's own vertex ids (a SNAP file's ids as written, Matrix
//! Market's from 1), `--source-index` in the graph's internal index; the report and the
//! JSON show both.

use crate::common;

use std::process::Output;

use serde_json::Value;

struct Graphs {
    _dir: tempfile::TempDir,
    /// A chain 3 -> 13 -> ... -> 603: 61 vertices with sparse ids.
    chain: String,
    /// The same chain in Matrix Market, ids 1..=61.
    mtx: String,
}

fn graphs() -> Graphs {
    let dir = tempfile::tempdir().unwrap();
    let (chain, mtx) = (dir.path().join("chain.txt"), dir.path().join("chain.mtx"));
    let edges: Vec<(u32, u32)> = (0..60).map(|i| (i * 10 + 3, i * 10 + 13)).collect();
    let snap: String = edges.iter().map(|(u, v)| format!("{u} {v}\n")).collect();
    std::fs::write(&chain, snap).unwrap();
    let mut text = "%%MatrixMarket matrix coordinate pattern general\n61 61 60\n".to_string();
    text.extend((1..=60).map(|i| format!("{i} {}\n", i + 1)));
    std::fs::write(&mtx, text).unwrap();
    let path = |p: std::path::PathBuf| p.to_str().unwrap().to_string();
    Graphs {
        chain: path(chain),
        mtx: path(mtx),
        _dir: dir,
    }
}

/// BFS (VM, push) on tiny over `graph` with `options`: the output and the JSON's graph.
fn bfs(graph: &str, options: &[&str]) -> (Output, Option<Value>) {
    let options = [&["--graph", graph], options].concat();
    let (out, stats) = common::run_cli("graph/bfs_vm_push", &options);
    (out, stats.map(|s| s["graph"].clone()))
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn fails_with(graph: &str, options: &[&str], message: &str) {
    let (out, _) = bfs(graph, options);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(message), "{err}");
}

#[test]
fn sparse_snap_ids_name_the_source() {
    let g = graphs();
    let (out, graph) = bfs(&g.chain, &["--source", "13"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = stdout(&out);
    assert!(
        report.contains("BFS (source id 13 = index 1), schedule VM, push"),
        "{report}"
    );
    let graph = graph.unwrap();
    assert_eq!(
        (graph["source"].as_u64(), graph["source_id"].as_u64()),
        (Some(1), Some(13))
    );
    assert_eq!(graph["result"], "verified");
    // Index 1 is the same run; id 1 names no vertex.
    let (by_index, same) = bfs(&g.chain, &["--source-index", "1"]);
    assert!(by_index.status.success());
    assert_eq!(same.unwrap()["supersteps"], graph["supersteps"]);
    fails_with(
        &g.chain,
        &["--source", "1"],
        "--source 1 is not a vertex of graph",
    );
    fails_with(
        &g.chain,
        &["--source", "4"],
        "its ids are 61 ids from 3 to 603 (--source-index takes the internal index 0..61)",
    );
}

#[test]
fn matrix_market_ids_count_from_one() {
    let g = graphs();
    let (out, graph) = bfs(&g.mtx, &["--source", "61"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout(&out).contains("BFS (source id 61 = index 60)"),
        "{}",
        stdout(&out)
    );
    let graph = graph.unwrap();
    // The chain's last vertex reaches nothing: one super-step.
    assert_eq!(
        (graph["source"].as_u64(), graph["supersteps"].as_u64()),
        (Some(60), Some(1))
    );
    fails_with(&g.mtx, &["--source", "0"], "its ids are 1..=61");
    fails_with(
        &g.mtx,
        &["--source-index", "61"],
        "--source-index 61 is out of range: graph",
    );
}

#[test]
fn without_relabelling_the_id_is_the_index() {
    let (out, graph) = bfs("gen:rmat:scale=6", &["--source", "5"]);
    assert!(
        stdout(&out).contains("BFS (source 5), schedule VM"),
        "{}",
        stdout(&out)
    );
    let graph = graph.unwrap();
    assert_eq!(
        (graph["source"].as_u64(), graph["source_id"].as_u64()),
        (Some(5), Some(5))
    );
    fails_with(
        "gen:rmat:scale=6",
        &["--source", "3", "--source-index", "3"],
        "cannot be used with",
    );
}

#[test]
fn source_hub_is_the_vertex_with_the_most_out_edges() {
    let dir = tempfile::tempdir().unwrap();
    let star = dir.path().join("star.txt");
    // Vertex 7 has four out-edges, vertex 2 two (and the lowest index on no tie).
    std::fs::write(&star, "2 3\n2 4\n7 1\n7 3\n7 5\n7 6\n").unwrap();
    let star = star.to_str().unwrap();
    let (out, graph) = bfs(star, &["--source-hub"]);
    assert!(out.status.success(), "{}", stdout(&out));
    let graph = graph.unwrap();
    assert_eq!(graph["source_id"].as_u64(), Some(7), "{graph}");
    fails_with(
        star,
        &["--source-hub", "--source", "7"],
        "cannot be used with",
    );
    fails_with(
        star,
        &["--source-hub", "--source-index", "0"],
        "cannot be used with",
    );
}
