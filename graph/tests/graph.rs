//! The in-memory graph: CSR/CSC/COO layout, the loading options, weights, statistics.

use proptest::prelude::*;
use wsim_graph::{Csr, ErrorKind, Graph, LoadOptions, WeightSource};

/// A file of these edges (no weights), loaded with `options`.
fn load_edges(edges: &[(u32, u32)], options: &LoadOptions) -> Graph {
    let text: String = edges.iter().map(|(u, v)| format!("{u} {v}\n")).collect();
    // The header keeps ids as given, so the expected edges below need no relabelling.
    let n = edges.iter().map(|&(u, v)| u.max(v) + 1).max().unwrap_or(1);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.txt");
    std::fs::write(&path, format!("# wsim-graph vertices={n}\n{text}")).unwrap();
    Graph::load(&path, options).unwrap()
}

fn triples(csr: &Csr) -> Vec<(u32, u32, u32)> {
    (0..csr.offsets.len() as u32 - 1)
        .flat_map(|r| {
            csr.range(r)
                .map(move |i| (r, csr.targets[i], csr.weights[i]))
        })
        .collect()
}

#[test]
fn csr_csc_and_coo_of_a_small_graph() {
    let g = Graph::from_edges(4, &[(2, 0, 5), (0, 3, 1), (0, 1, 2), (2, 0, 3), (3, 3, 4)]).unwrap();
    assert_eq!((g.num_vertices(), g.num_edges()), (4, 5));
    let csr = g.csr();
    assert_eq!(csr.offsets, [0, 2, 2, 4, 5]);
    assert_eq!(csr.targets, [1, 3, 0, 0, 3]);
    // Parallel edges are ordered by weight.
    assert_eq!(csr.weights, [2, 1, 3, 5, 4]);
    let csc = g.csc();
    assert_eq!(csc.offsets, [0, 2, 3, 3, 5]);
    assert_eq!(csc.targets, [2, 2, 0, 0, 3]);
    assert_eq!(csc.weights, [3, 5, 2, 1, 4]);
    assert_eq!(g.coo_sources(), [0, 0, 2, 2, 3]);
    assert_eq!(g.coo_destinations(), [0, 0, 1, 3, 3]);
}

#[test]
fn from_edges_rejects_what_a_graph_cannot_hold() {
    let kind = |n, e: &[(u32, u32, u32)]| Graph::from_edges(n, e).unwrap_err().kind;
    assert!(matches!(kind(0, &[]), ErrorKind::Invalid(_)));
    assert!(matches!(kind(3, &[(0, 3, 1)]), ErrorKind::Invalid(_)));
    assert!(matches!(kind(3, &[(0, 1, 0)]), ErrorKind::Invalid(_)));
    // Isolated vertices and no edges at all are fine here (not for files).
    assert_eq!(
        Graph::from_edges(3, &[]).unwrap().csr().offsets,
        [0, 0, 0, 0]
    );
}

#[test]
fn options_apply_in_order_weights_loops_symmetrize_dedup() {
    let input = [(0, 1), (1, 0), (0, 1), (2, 2), (1, 2)];
    let plain = load_edges(&input, &LoadOptions::default());
    assert_eq!(plain.num_edges(), 5);
    let all = LoadOptions {
        symmetrize: true,
        drop_self_loops: true,
        dedup: true,
        weights: WeightSource::Unit,
        seed: 1,
        ..LoadOptions::default()
    };
    let g = load_edges(&input, &all);
    assert_eq!(
        triples(g.csr()),
        [(0, 1, 1), (1, 0, 1), (1, 2, 1), (2, 1, 1)]
    );
    let sym = load_edges(
        &[(0, 1), (1, 1)],
        &LoadOptions {
            symmetrize: true,
            ..LoadOptions::default()
        },
    );
    // The self-loop is not doubled.
    assert_eq!(sym.num_edges(), 3);
}

#[test]
fn dedup_keeps_the_lightest_parallel_edge() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.txt");
    std::fs::write(&path, "0 1 9\n0 1 4\n1 0 7\n0 1 6\n").unwrap();
    let options = LoadOptions {
        dedup: true,
        ..LoadOptions::default()
    };
    let g = Graph::load(&path, &options).unwrap();
    assert_eq!(triples(g.csr()), [(0, 1, 4), (1, 0, 7)]);
    assert_eq!(triples(g.csc()), [(0, 1, 7), (1, 0, 4)]);
}

#[test]
fn generated_weights_are_in_range_symmetric_and_seeded() {
    let input: Vec<(u32, u32)> = (0..50)
        .flat_map(|u| [(u, (u * 7 + 1) % 50), ((u * 7 + 1) % 50, u)])
        .collect();
    let with = |seed, max| {
        let options = LoadOptions {
            weights: WeightSource::Generated { max },
            seed,
            ..LoadOptions::default()
        };
        load_edges(&input, &options)
    };
    let g = with(1, 5);
    assert!(g.csr().weights.iter().all(|&w| (1..=5).contains(&w)));
    assert!(
        (1..=5).all(|w| g.csr().weights.contains(&w)),
        "all of 1..=5 appear"
    );
    // Every edge has its reverse, of the same weight: CSR and CSC coincide.
    assert_eq!(g.csr(), g.csc());
    assert_eq!(with(1, 5), g);
    assert_ne!(with(2, 5).csr().weights, g.csr().weights);
    let options = LoadOptions {
        weights: WeightSource::Generated { max: 0 },
        ..LoadOptions::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.txt");
    std::fs::write(&path, "0 1\n").unwrap();
    assert!(matches!(
        Graph::load(&path, &options).unwrap_err().kind,
        ErrorKind::Invalid(_)
    ));
}

#[test]
fn file_weights_are_used_unless_generated_is_asked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.txt");
    std::fs::write(&path, "0 1 1000\n").unwrap();
    let g = Graph::load(&path, &LoadOptions::default()).unwrap();
    assert_eq!(g.csr().weights, [1000]);
    let options = LoadOptions {
        weights: WeightSource::Generated { max: 64 },
        ..LoadOptions::default()
    };
    let w = Graph::load(&path, &options).unwrap().csr().weights[0];
    assert!((1..=64).contains(&w));
}

#[test]
fn statistics_of_a_star() {
    // A star: 0 -> 1..=4, plus a self-loop on 4 and a parallel 0 -> 1.
    let g = Graph::from_edges(
        6,
        &[
            (0, 1, 1),
            (0, 2, 1),
            (0, 3, 1),
            (0, 4, 1),
            (4, 4, 1),
            (0, 1, 2),
        ],
    )
    .unwrap();
    let s = g.stats();
    assert_eq!(
        (s.vertices, s.edges, s.self_loops, s.duplicate_edges),
        (6, 6, 1, 1)
    );
    let out = s.out_degree;
    // Out-degrees 5, 0, 0, 0, 1, 0: mean 1, variance 16/6 + 0... computed by hand below.
    assert_eq!((out.min, out.max, out.zero), (0, 5, 4));
    let d = [5.0f64, 0.0, 0.0, 0.0, 1.0, 0.0];
    let m2 = d.iter().map(|x| (x - 1.0).powi(2)).sum::<f64>() / 6.0;
    let m3 = d.iter().map(|x| (x - 1.0).powi(3)).sum::<f64>() / 6.0;
    assert!((out.mean - 1.0).abs() < 1e-12);
    assert!((out.stddev - m2.sqrt()).abs() < 1e-12);
    assert!((out.skewness - m3 / m2.powf(1.5)).abs() < 1e-12);
    assert!(
        out.skewness > 1.5,
        "a star is right-skewed: {}",
        out.skewness
    );
    let regular = Graph::from_edges(3, &[(0, 1, 1), (1, 2, 1), (2, 0, 1)])
        .unwrap()
        .stats();
    assert_eq!(
        (regular.in_degree.stddev, regular.in_degree.skewness),
        (0.0, 0.0)
    );
}

/// Up to 16 vertices and 60 weighted edges, parallel edges and self-loops included.
fn edge_list() -> impl Strategy<Value = (u32, Vec<(u32, u32, u32)>)> {
    (1u32..16).prop_flat_map(|n| {
        (
            Just(n),
            prop::collection::vec((0..n, 0..n, 1u32..100), 0..60),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn csr_and_csc_are_transposes((n, edges) in edge_list()) {
        let g = Graph::from_edges(n, &edges).unwrap();
        let mut want = edges.clone();
        want.sort_unstable();
        prop_assert_eq!(triples(g.csr()), want.clone());
        let mut transposed: Vec<_> = triples(g.csc()).into_iter().map(|(d, s, w)| (s, d, w)).collect();
        transposed.sort_unstable();
        prop_assert_eq!(transposed, want);
        prop_assert_eq!(g.csc().targets.len(), g.coo_destinations().len());
        let s = g.stats();
        prop_assert_eq!(s.out_degree.mean, s.in_degree.mean);
    }

    #[test]
    fn symmetrize_makes_csr_equal_csc((n, edges) in edge_list(), dedup: bool, drop: bool) {
        let pairs: Vec<(u32, u32)> = edges.iter().map(|&(u, v, _)| (u, v)).collect();
        prop_assume!(pairs.iter().any(|&(u, v)| u != v));
        let options = LoadOptions { symmetrize: true, dedup, drop_self_loops: drop, ..LoadOptions::default() };
        let g = load_edges(&pairs, &options);
        prop_assert!(g.num_vertices() <= n);
        prop_assert_eq!(g.csr(), g.csc());
        let s = g.stats();
        prop_assert!(!dedup || s.duplicate_edges == 0);
        prop_assert!(!drop || s.self_loops == 0);
    }
}
