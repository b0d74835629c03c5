//! The host references against hand-worked examples, independent simple implementations
//! and petgraph's connected components.

use petgraph::unionfind::UnionFind;
use proptest::prelude::*;
use wsim_graph::reference::{self, UNREACHED};
use wsim_graph::{Graph, LoadOptions};

const X: u32 = UNREACHED;

fn graph(n: u32, edges: &[(u32, u32, u32)]) -> Graph {
    Graph::from_edges(n, edges).unwrap()
}

/// 0 -> 1 (4), 0 -> 2 (1), 2 -> 1 (2), 1 -> 3 (5), 3 -> 3 (1); 4 is isolated, 5 -> 0.
fn example() -> Graph {
    graph(
        6,
        &[
            (0, 1, 4),
            (0, 2, 1),
            (2, 1, 2),
            (1, 3, 5),
            (3, 3, 1),
            (5, 0, 9),
        ],
    )
}

#[test]
fn bfs_and_sssp_by_hand() {
    let g = example();
    assert_eq!(reference::bfs_levels(&g, 0), [0, 1, 1, 2, X, X]);
    assert_eq!(reference::sssp(&g, 0), [0, 3, 1, 8, X, X]);
    assert_eq!(reference::bfs_levels(&g, 5), [1, 2, 2, 3, X, 0]);
    assert_eq!(reference::sssp(&g, 5), [9, 12, 10, 17, X, 0]);
}

#[test]
fn sssp_saturates_instead_of_overflowing() {
    let big = u32::MAX - 1;
    let g = graph(3, &[(0, 1, big), (1, 2, big)]);
    assert_eq!(reference::sssp(&g, 0), [0, big, u32::MAX - 1]);
}

#[test]
fn label_propagation_follows_direction() {
    // 5 reaches everything but 4; 3 is reached from 0 (via 1).
    assert_eq!(reference::label_propagation(&example()), [0, 0, 0, 0, 4, 5]);
    let chain = graph(4, &[(3, 2, 1), (2, 1, 1), (1, 0, 1)]);
    assert_eq!(reference::label_propagation(&chain), [0, 1, 2, 3]);
}

#[test]
fn pagerank_by_hand() {
    // A 3-cycle: the uniform vector is the fixed point.
    let cycle = graph(3, &[(0, 1, 1), (1, 2, 1), (2, 0, 1)]);
    for r in reference::pagerank(&cycle, 10, 0.85) {
        assert!((r - 1.0 / 3.0).abs() < 1e-15);
    }
    // 0 -> 1, 0 -> 2, 1 -> 2, 2 has no out-edges (its rank is dropped).
    let g = graph(3, &[(0, 1, 1), (0, 2, 1), (1, 2, 1)]);
    let (d, base) = (0.85, 0.15 / 3.0);
    let r0 = [1.0 / 3.0; 3];
    let r1 = [
        base,
        base + d * r0[0] / 2.0,
        base + d * (r0[0] / 2.0 + r0[1]),
    ];
    let r2 = [
        base,
        base + d * r1[0] / 2.0,
        base + d * (r1[0] / 2.0 + r1[1]),
    ];
    let got = reference::pagerank(&g, 2, d);
    for (a, b) in got.iter().zip(r2) {
        assert!((a - b).abs() < 1e-15, "{got:?} vs {r2:?}");
    }
    assert!(got.iter().sum::<f64>() < 1.0, "dangling mass is dropped");
    assert_eq!(reference::pagerank(&g, 0, d), r0);
}

#[test]
fn references_on_a_real_graph_agree_with_each_other() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data/graphs/email-Eu-core.txt.gz");
    let options = LoadOptions {
        symmetrize: true,
        dedup: true,
        ..LoadOptions::default()
    };
    let g = Graph::load(&path, &options).unwrap();
    let levels = reference::bfs_levels(&g, 0);
    let reached = levels.iter().filter(|&&l| l != UNREACHED).count();
    let labels = reference::label_propagation(&g);
    assert_eq!(reached, labels.iter().filter(|&&l| l == 0).count());
    assert_eq!(count_components(&labels), petgraph_components(&g));
    let ranks = reference::pagerank(&g, 20, 0.85);
    assert!(
        (ranks.iter().sum::<f64>() - 1.0).abs() < 1e-9,
        "no dangling vertex after symmetrising"
    );
}

fn count_components(labels: &[u32]) -> usize {
    labels
        .iter()
        .enumerate()
        .filter(|&(v, &l)| v as u32 == l)
        .count()
}

fn petgraph_components(g: &Graph) -> usize {
    let edges: Vec<(u32, u32)> = g
        .coo_sources()
        .into_iter()
        .zip(g.csr().targets.iter().copied())
        .collect();
    let mut pg = petgraph::graph::UnGraph::<(), ()>::from_edges(&edges);
    // `from_edges` creates only up to the largest id seen.
    while pg.node_count() < g.num_vertices() as usize {
        pg.add_node(());
    }
    petgraph::algo::connected_components(&pg)
}

/// Plain BFS and Bellman-Ford: independent of the references' petgraph code.
fn simple_bfs(g: &Graph, s: u32) -> Vec<u32> {
    let mut level = vec![X; g.num_vertices() as usize];
    level[s as usize] = 0;
    let mut frontier = vec![s];
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for u in frontier {
            for &v in &g.csr().targets[g.csr().range(u)] {
                if level[v as usize] == X {
                    level[v as usize] = depth;
                    next.push(v);
                }
            }
        }
        frontier = next;
    }
    level
}

fn bellman_ford(g: &Graph, s: u32) -> Vec<u32> {
    let mut dist = vec![u64::MAX; g.num_vertices() as usize];
    dist[s as usize] = 0;
    for _ in 0..g.num_vertices() {
        for (i, &u) in g.coo_sources().iter().enumerate() {
            if dist[u as usize] != u64::MAX {
                let d = dist[u as usize] + u64::from(g.csr().weights[i]);
                let v = g.csr().targets[i] as usize;
                dist[v] = dist[v].min(d);
            }
        }
    }
    dist.iter()
        .map(|&d| if d == u64::MAX { X } else { d as u32 })
        .collect()
}

fn edge_list() -> impl Strategy<Value = (u32, Vec<(u32, u32, u32)>)> {
    (1u32..20).prop_flat_map(|n| {
        (
            Just(n),
            prop::collection::vec((0..n, 0..n, 1u32..50), 0..50),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn bfs_and_sssp_match_simple_implementations((n, edges) in edge_list(), s: u32) {
        let g = graph(n, &edges);
        let s = s % n;
        prop_assert_eq!(reference::bfs_levels(&g, s), simple_bfs(&g, s));
        prop_assert_eq!(reference::sssp(&g, s), bellman_ford(&g, s));
    }

    #[test]
    fn label_is_the_least_vertex_reaching((n, edges) in edge_list()) {
        let g = graph(n, &edges);
        let labels = reference::label_propagation(&g);
        for v in 0..n {
            let least = (0..n).find(|&u| simple_bfs(&g, u)[v as usize] != X).unwrap();
            prop_assert_eq!(labels[v as usize], least);
        }
    }

    #[test]
    fn on_symmetric_graphs_labels_are_components((n, edges) in edge_list()) {
        let mut both = edges.clone();
        both.extend(edges.iter().map(|&(u, v, w)| (v, u, w)));
        let g = graph(n, &both);
        let labels = reference::label_propagation(&g);
        let mut uf = UnionFind::<u32>::new(n as usize);
        for &(u, v, _) in &edges {
            uf.union(u, v);
        }
        for v in 0..n {
            let least = (0..n).find(|&u| uf.equiv(u, v)).unwrap();
            prop_assert_eq!(labels[v as usize], least);
        }
        prop_assert_eq!(count_components(&labels), petgraph_components(&g));
    }
}
