//! Reading SNAP, Matrix Market and binary CSR files (plain and gzip), the real datasets'
//! published counts, every input error, and write-then-read round trips.

use std::io::Write;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use wsim_graph::{ErrorKind, Graph, GraphError, LoadOptions, WeightSource};

fn dataset(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data/graphs")
        .join(name)
}

fn opts(symmetrize: bool, dedup: bool, drop_self_loops: bool) -> LoadOptions {
    LoadOptions {
        symmetrize,
        dedup,
        drop_self_loops,
        ..LoadOptions::default()
    }
}

/// Write `bytes` to `name` in a fresh directory and load it.
fn load_bytes(name: &str, bytes: &[u8], options: &LoadOptions) -> Result<Graph, GraphError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    Graph::load(&path, options)
}

fn load(name: &str, text: &str) -> Result<Graph, GraphError> {
    load_bytes(name, text.as_bytes(), &LoadOptions::default())
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// Out-edges as (source, destination, weight).
fn edges(g: &Graph) -> Vec<(u32, u32, u32)> {
    let csr = g.csr();
    (0..g.num_vertices())
        .flat_map(|u| {
            csr.range(u)
                .map(move |i| (u, csr.targets[i], csr.weights[i]))
        })
        .collect()
}

fn error(result: Result<Graph, GraphError>) -> GraphError {
    match result {
        Ok(g) => panic!(
            "loaded {} vertices, {} edges",
            g.num_vertices(),
            g.num_edges()
        ),
        Err(e) => e,
    }
}

/// The error's kind and line, and that its message names the file and line.
fn error_at(name: &str, text: &str) -> (ErrorKind, Option<u64>) {
    let e = error(load(name, text));
    let msg = e.to_string();
    assert!(msg.contains(name), "names the file: {msg}");
    if let Some(line) = e.line {
        assert!(
            msg.contains(&format!("line {line}:")),
            "names the line: {msg}"
        );
    }
    (e.kind, e.line)
}

#[test]
fn email_eu_core_matches_published_counts() {
    let g = Graph::load(&dataset("email-Eu-core.txt.gz"), &LoadOptions::default()).unwrap();
    let s = g.stats();
    assert_eq!((s.vertices, s.edges, s.self_loops), (1005, 25571, 642));
    assert_eq!((s.out_degree.max, s.in_degree.max), (334, 212));
    assert_eq!(s.duplicate_edges, 0);
    // Ids are 0..1004 already: relabelling keeps them, so the file's first edge `0 1` stays.
    assert!(g.csr().targets[g.csr().range(0)].contains(&1));
    // 16,064 distinct undirected non-loop pairs, at most 345 distinct neighbours.
    let u = Graph::load(&dataset("email-Eu-core.txt.gz"), &opts(true, true, true)).unwrap();
    assert_eq!(u.num_edges(), 2 * 16_064);
    assert_eq!(u.stats().out_degree.max, 345);
    assert_eq!(u.csr(), u.csc());
}

#[test]
fn facebook_matches_published_counts() {
    let path = dataset("facebook_combined.txt.gz");
    let g = Graph::load(&path, &LoadOptions::default()).unwrap();
    assert_eq!((g.num_vertices(), g.num_edges()), (4039, 88_234));
    let u = Graph::load(&path, &opts(true, false, false)).unwrap();
    let s = u.stats();
    assert_eq!(
        (s.edges, s.self_loops, s.duplicate_edges),
        (2 * 88_234, 0, 0)
    );
    assert_eq!(s.out_degree.max, 1045);
    assert_eq!(u.csr(), u.csc());
}

#[test]
fn usroads_matrix_market_matches_published_counts() {
    let g = Graph::load(&dataset("road-usroads-48.mtx.gz"), &LoadOptions::default()).unwrap();
    let s = g.stats();
    // Symmetric pattern: each of the 161,950 entries is both directions.
    assert_eq!(
        (s.vertices, s.edges, s.self_loops),
        (126_146, 2 * 161_950, 0)
    );
    assert_eq!((s.out_degree.max, s.out_degree.zero), (7, 0));
    assert_eq!(g.csr(), g.csc());
}

#[test]
fn snap_whitespace_comments_crlf_and_no_final_newline() {
    let text = "# comment\r\n% other comment\r\n\r\n  0\t1\r\n1 \t  2\r\n\t2    0";
    let g = load("g.txt", text).unwrap();
    let pairs: Vec<(u32, u32)> = edges(&g).iter().map(|&(u, v, _)| (u, v)).collect();
    assert_eq!(pairs, [(0, 1), (1, 2), (2, 0)]);
}

#[test]
fn snap_relabels_sparse_ids_by_sorted_order() {
    let g = load("g.txt", "1000000000000 7\n7 42\n42 1000000000000\n").unwrap();
    // 7 -> 0, 42 -> 1, 10^12 -> 2, whatever the order of first appearance.
    assert_eq!(g.num_vertices(), 3);
    let pairs: Vec<(u32, u32)> = edges(&g).iter().map(|&(u, v, _)| (u, v)).collect();
    assert_eq!(pairs, [(0, 1), (1, 2), (2, 0)]);
}

#[test]
fn snap_third_column_is_the_weight_rounded_to_a_positive_integer() {
    let g = load("g.txt", "0 1 5\n1 2 2.5\n2 0 -3.4\n0 2 0\n").unwrap();
    let weights: Vec<u32> = edges(&g).iter().map(|e| e.2).collect();
    // Sorted by source: (0,1,5), (0,2,0 -> 1), (1,2,2.5 -> 3), (2,0,-3.4 -> 3).
    assert_eq!(weights, [5, 1, 3, 3]);
    let unit = load_bytes(
        "g.txt",
        b"0 1 5\n",
        &LoadOptions {
            weights: WeightSource::Unit,
            ..LoadOptions::default()
        },
    )
    .unwrap();
    assert_eq!(unit.csr().weights, [1]);
}

#[test]
fn gzip_is_detected_by_magic_bytes_not_the_name() {
    let text = b"0 1\n1 2\n";
    let plain = load_bytes("a.txt", text, &LoadOptions::default()).unwrap();
    let hidden = load_bytes("a.txt", &gzip(text), &LoadOptions::default()).unwrap();
    let named = load_bytes("a.txt.gz", &gzip(text), &LoadOptions::default()).unwrap();
    let misnamed = load_bytes("a.txt.gz", text, &LoadOptions::default()).unwrap();
    assert_eq!(plain, hidden);
    assert_eq!(plain, named);
    assert_eq!(plain, misnamed);
    let mtx = "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n";
    let mm = load_bytes("a.mtx.gz", &gzip(mtx.as_bytes()), &LoadOptions::default()).unwrap();
    assert_eq!(edges(&mm).len(), 2);
}

#[test]
fn corrupt_gzip_is_an_error() {
    let mut bytes = gzip(b"0 1\n1 2\n");
    bytes.truncate(bytes.len() / 2);
    let e = error(load_bytes("a.txt.gz", &bytes, &LoadOptions::default()));
    assert!(matches!(e.kind, ErrorKind::Io(_)), "{e}");
    assert!(e.to_string().contains("gzip"), "{e}");
}

#[test]
fn matrix_market_general_integer() {
    let text =
        "%%MatrixMarket matrix coordinate integer general\n% c\n4 3 3\n1 2 7\n3 1 9\n4 3 1\n";
    let g = load("m.mtx", text).unwrap();
    // Vertices: max(rows, cols); entry (i, j) is the edge i-1 -> j-1.
    assert_eq!(g.num_vertices(), 4);
    assert_eq!(edges(&g), [(0, 1, 7), (2, 0, 9), (3, 2, 1)]);
}

#[test]
fn matrix_market_symmetric_expands_off_diagonal_entries_only() {
    let text =
        "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 1.6\n3 3 4.0\n3 2 0.2\n";
    let g = load("m.mtx", text).unwrap();
    assert_eq!(
        edges(&g),
        [(0, 1, 2), (1, 0, 2), (1, 2, 1), (2, 1, 1), (2, 2, 4)]
    );
    assert_eq!(g.csr(), g.csc());
}

#[test]
fn matrix_market_banner_is_case_insensitive_and_found_whatever_the_name() {
    let text = "%%MatrixMarket MATRIX Coordinate Pattern General\n2 2 1\n1 2\n";
    let g = load("m.txt", text).unwrap();
    assert_eq!(
        (g.num_vertices(), g.csr().targets.as_slice()),
        (2, &[1][..])
    );
}

#[test]
fn matrix_market_errors_name_the_line() {
    let head = "%%MatrixMarket matrix coordinate pattern general\n% c\n3 3 2\n";
    let beyond = format!("{head}1 2\n4 1\n");
    assert!(matches!(
        error_at("m.mtx", &beyond),
        (ErrorKind::Range(_), Some(5))
    ));
    let zero = format!("{head}0 2\n");
    assert!(matches!(
        error_at("m.mtx", &zero),
        (ErrorKind::Range(_), Some(4))
    ));
    let fewer = format!("{head}1 2\n");
    let (kind, line) = error_at("m.mtx", &fewer);
    assert!(
        matches!(kind, ErrorKind::Range(ref m) if m.contains("1 of the 2")),
        "{kind}"
    );
    assert_eq!(line, Some(5));
    let more = format!("{head}1 2\n2 3\n3 1\n");
    assert!(matches!(
        error_at("m.mtx", &more),
        (ErrorKind::Range(_), Some(6))
    ));
    let truncated = format!("{head}1 2\n3\n");
    assert!(matches!(
        error_at("m.mtx", &truncated),
        (ErrorKind::Syntax(_), Some(5))
    ));
    let text = format!("{head}1 x\n2 3\n");
    assert!(matches!(
        error_at("m.mtx", &text),
        (ErrorKind::Syntax(_), Some(4))
    ));
    let no_value = "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2\n";
    assert!(matches!(
        error_at("m.mtx", no_value),
        (ErrorKind::Syntax(_), Some(3))
    ));
    let bad_value = "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 nan\n";
    assert!(matches!(
        error_at("m.mtx", bad_value),
        (ErrorKind::Syntax(_), Some(3))
    ));
    let bad_size = "%%MatrixMarket matrix coordinate real general\n3 3\n";
    assert!(matches!(
        error_at("m.mtx", bad_size),
        (ErrorKind::Syntax(_), Some(2))
    ));
    let no_size = "%%MatrixMarket matrix coordinate real general\n% only comments\n";
    assert!(matches!(
        error_at("m.mtx", no_size),
        (ErrorKind::Syntax(_), Some(3))
    ));
    let no_banner = "3 3 1\n1 2\n";
    assert!(matches!(
        error_at("m.mtx", no_banner),
        (ErrorKind::Syntax(_), Some(1))
    ));
    let complex = "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n";
    assert!(matches!(
        error_at("m.mtx", complex),
        (ErrorKind::UnknownFormat(_), Some(1))
    ));
    let array = "%%MatrixMarket matrix array real general\n1 1\n1\n";
    assert!(matches!(
        error_at("m.mtx", array),
        (ErrorKind::UnknownFormat(_), Some(1))
    ));
    let empty = "%%MatrixMarket matrix coordinate pattern general\n3 3 0\n";
    assert!(matches!(error_at("m.mtx", empty), (ErrorKind::Empty, None)));
}

#[test]
fn snap_errors_name_the_line() {
    let truncated = "0 1\n1 2\n3";
    assert!(matches!(
        error_at("g.txt", truncated),
        (ErrorKind::Syntax(_), Some(3))
    ));
    let text = "0 1\n1 two\n";
    assert!(matches!(
        error_at("g.txt", text),
        (ErrorKind::Syntax(_), Some(2))
    ));
    let negative = "0 1\n-1 2\n";
    assert!(matches!(
        error_at("g.txt", negative),
        (ErrorKind::Syntax(_), Some(2))
    ));
    let bad_weight = "0 1 2\n1 2 heavy\n";
    assert!(matches!(
        error_at("g.txt", bad_weight),
        (ErrorKind::Syntax(_), Some(2))
    ));
    let lost_weight = "0 1 2\n1 2\n";
    assert!(matches!(
        error_at("g.txt", lost_weight),
        (ErrorKind::Syntax(_), Some(2))
    ));
    let extra_weight = "0 1\n1 2 3\n";
    assert!(matches!(
        error_at("g.txt", extra_weight),
        (ErrorKind::Syntax(_), Some(2))
    ));
    let huge = "0 99999999999999999999\n";
    let (kind, line) = error_at("g.txt", huge);
    assert!(
        matches!(kind, ErrorKind::Syntax(ref m) if m.contains("too large")),
        "{kind}"
    );
    assert_eq!(line, Some(1));
}

#[test]
fn empty_inputs_are_errors() {
    for text in ["", "\n\n", "# only a comment\n% and another"] {
        assert!(
            matches!(error_at("g.txt", text), (ErrorKind::Empty, None)),
            "{text:?}"
        );
    }
    let only_loops = load_bytes("g.txt", b"1 1\n2 2\n", &opts(false, false, true));
    assert!(matches!(error(only_loops).kind, ErrorKind::Empty));
}

#[test]
fn unknown_formats_are_errors() {
    let binary = [0u8, 159, 146, 150, 1, 2, 3];
    let e = error(load_bytes("g.bin", &binary, &LoadOptions::default()));
    assert!(matches!(e.kind, ErrorKind::UnknownFormat(_)), "{e}");
    let dimacs = "c DIMACS\np sp 3 2\na 1 2 5\n";
    assert!(matches!(
        error_at("g.txt", dimacs),
        (ErrorKind::UnknownFormat(_), Some(1))
    ));
    let metis = "3 2\n2 3\n1\n1\n";
    assert!(matches!(
        error_at("g.graph", metis),
        (ErrorKind::UnknownFormat(_), None)
    ));
}

#[test]
fn missing_file_is_an_io_error_naming_it() {
    let e = error(Graph::load(
        Path::new("/nonexistent/g.txt"),
        &LoadOptions::default(),
    ));
    assert!(matches!(e.kind, ErrorKind::Io(_)));
    assert!(e.to_string().starts_with("/nonexistent/g.txt: "), "{e}");
}

#[test]
fn wsim_header_keeps_ids_and_isolated_vertices() {
    let g = load("g.txt", "# wsim-graph vertices=5 edges=1\n3 1 4\n").unwrap();
    assert_eq!((g.num_vertices(), edges(&g)), (5, vec![(3, 1, 4)]));
    let beyond = "# wsim-graph vertices=3\n0 1\n1 3\n";
    assert!(matches!(
        error_at("g.txt", beyond),
        (ErrorKind::Range(_), Some(3))
    ));
}

/// A binary CSR file (docs/GRAPHS.md): the header, offsets, targets and weights.
fn bcsr(header: [u32; 4], words: &[u32]) -> Vec<u8> {
    let mut bytes = b"WSIMBCSR".to_vec();
    for w in header.iter().chain(words) {
        bytes.extend(w.to_le_bytes());
    }
    bytes
}

#[test]
fn binary_csr_is_read_exactly_with_isolated_vertices_and_file_weights() {
    // 4 vertices, 2 of them without out-edges: 0 -> 1 (w 7), 0 -> 3 (w 2), 3 -> 3 (w 9).
    let file = bcsr([1, 4, 3, 0], &[0, 2, 2, 2, 3, 1, 3, 3, 7, 2, 9]);
    let g = load_bytes("g.bcsr", &file, &LoadOptions::default()).unwrap();
    assert_eq!(g.num_vertices(), 4);
    assert_eq!(edges(&g), vec![(0, 1, 7), (0, 3, 2), (3, 3, 9)]);
    // The magic decides, not the name; gzip is read through.
    let g = load_bytes("g.dat", &gzip(&file), &LoadOptions::default()).unwrap();
    assert_eq!(edges(&g), vec![(0, 1, 7), (0, 3, 2), (3, 3, 9)]);
    // The loading options apply as to any file.
    let g = load_bytes("g.bcsr", &file, &opts(true, false, true)).unwrap();
    assert_eq!(edges(&g), vec![(0, 1, 7), (0, 3, 2), (1, 0, 7), (3, 0, 2)]);
}

#[test]
fn binary_csr_errors_say_what_is_wrong() {
    let load = |bytes: &[u8]| error(load_bytes("g.bcsr", bytes, &LoadOptions::default()));
    let good = [0, 2, 2, 2, 3, 1, 3, 3, 7, 2, 9];
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (bcsr([2, 4, 3, 0], &good), "version 2"),
        (bcsr([1, 4, 3, 5], &good), "reserved word is 5"),
        (bcsr([1, 4, 3, 0], &good[..10]), "needs 68"),
        (
            bcsr([1, 4, 3, 0], &[good.as_slice(), &[0]].concat()),
            "needs 68",
        ),
        (
            bcsr([1, 4, 3, 0], &[0, 2, 1, 2, 3, 1, 3, 3, 7, 2, 9]),
            "offsets decrease at vertex 1",
        ),
        (
            bcsr([1, 4, 3, 0], &[0, 2, 2, 2, 2, 1, 3, 3, 7, 2, 9]),
            "offsets run from 0 to 2",
        ),
        (
            bcsr([1, 4, 3, 0], &[0, 2, 2, 2, 3, 1, 4, 3, 7, 2, 9]),
            "edge 1 targets vertex 4",
        ),
        (
            bcsr([1, 4, 3, 0], &[0, 2, 2, 2, 3, 1, 3, 3, 7, 0, 9]),
            "edge 1 has weight 0",
        ),
        (bcsr([1, 0, 0, 0], &[0]), "at least one vertex"),
        (bcsr([1, 4, 0, 0], &[0, 0, 0, 0, 0]), "no edges"),
        (b"WSIMBCSR\x01\0".to_vec(), "ends before"),
        (b"0 1\n".to_vec(), "must start with the magic"),
    ];
    for (bytes, want) in cases {
        let e = load(&bytes);
        assert!(e.to_string().contains(want), "{e} (wanted {want:?})");
    }
    // A gzip file has no length to check up front: its end is found where it falls.
    let short = gzip(&bcsr([1, 4, 3, 0], &good[..10]));
    assert!(load(&short).to_string().contains("ends before"));
    let long = gzip(&bcsr([1, 4, 3, 0], &[good.as_slice(), &[0]].concat()));
    assert!(load(&long).to_string().contains("bytes follow the weights"));
    // The header is checked against the ceilings before anything is allocated.
    let huge = bcsr([1, 4, 4_000_000_000, 0], &[]);
    assert!(load(&huge).to_string().contains("--max-edges"));
}

/// Up to 12 vertices, up to 40 edges with weights in 1..=1000 (duplicates and self-loops
/// likely).
fn small_graph() -> impl Strategy<Value = Graph> {
    (1u32..12).prop_flat_map(|n| {
        prop::collection::vec((0..n, 0..n, 1u32..=1000), 0..40)
            .prop_map(move |e| Graph::from_edges(n, &e).unwrap())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn write_then_load_round_trips(g in small_graph()) {
        prop_assume!(g.num_edges() > 0);
        let dir = tempfile::tempdir().unwrap();
        for name in ["g.mtx", "g.mtx.gz", "g.txt", "g.el.gz", "g.bcsr", "g.bcsr.gz"] {
            let path = dir.path().join(name);
            g.write(&path).unwrap();
            let back = Graph::load(&path, &LoadOptions::default()).unwrap();
            prop_assert_eq!(&back, &g, "{}", name);
        }
    }

    /// Arbitrary text in either format loads or fails with an error, never a panic.
    #[test]
    fn garbage_never_panics(
        body in "[0-9 \t\r\n#%.,x-]{0,80}",
        mtx in prop::sample::select(vec![
            "",
            "%%MatrixMarket matrix coordinate pattern general\n",
            "%%MatrixMarket matrix coordinate real symmetric\n",
        ]),
        options in (any::<bool>(), any::<bool>(), any::<bool>()),
    ) {
        let (symmetrize, dedup, drop_self_loops) = options;
        let text = format!("{mtx}{body}");
        if let Ok(g) = load_bytes("g.txt", text.as_bytes(), &opts(symmetrize, dedup, drop_self_loops)) {
            prop_assert!(g.num_edges() > 0);
        }
    }
}
