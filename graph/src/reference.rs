//! Host references the kernels' results are checked against: petgraph's traversals for
//! BFS and SSSP, plain Rust for label propagation and PageRank (whose exact definitions,
//! the ones the kernels implement, petgraph does not have).

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::Bfs;

use crate::Graph;

/// The value of a vertex no path reaches (BFS level, SSSP distance).
pub const UNREACHED: u32 = u32::MAX;

/// The graph as a petgraph graph with the same vertex ids, edge order and weights.
fn to_petgraph(g: &Graph) -> DiGraph<(), u32, u32> {
    let csr = g.csr();
    let mut pg = DiGraph::with_capacity(g.num_vertices() as usize, g.num_edges() as usize);
    for _ in 0..g.num_vertices() {
        pg.add_node(());
    }
    for u in 0..g.num_vertices() {
        for i in csr.range(u) {
            pg.add_edge(
                NodeIndex::new(u as usize),
                NodeIndex::new(csr.targets[i] as usize),
                csr.weights[i],
            );
        }
    }
    pg
}

/// Hops from `source` along directed edges; `UNREACHED` where there is no path.
/// Panics if `source` is not a vertex (check it before, as the command line does).
pub fn bfs_levels(g: &Graph, source: u32) -> Vec<u32> {
    let pg = to_petgraph(g);
    let mut levels = vec![UNREACHED; g.num_vertices() as usize];
    levels[source as usize] = 0;
    let mut bfs = Bfs::new(&pg, NodeIndex::new(source as usize));
    // Nodes come out in BFS order, so a neighbour first seen from `u` is one level below.
    while let Some(u) = bfs.next(&pg) {
        let next = levels[u.index()] + 1;
        for v in pg.neighbors(u) {
            if levels[v.index()] == UNREACHED {
                levels[v.index()] = next;
            }
        }
    }
    levels
}

/// Shortest distances from `source` by edge weight (Dijkstra); `UNREACHED` where there is
/// no path. A distance that does not fit saturates at `u32::MAX - 1`.
/// Panics if `source` is not a vertex.
pub fn sssp(g: &Graph, source: u32) -> Vec<u32> {
    let pg = to_petgraph(g);
    let scores = petgraph::algo::dijkstra(&pg, NodeIndex::new(source as usize), None, |e| {
        u64::from(*e.weight())
    });
    let mut dist = vec![UNREACHED; g.num_vertices() as usize];
    for (node, d) in scores {
        dist[node.index()] = d.min(u64::from(UNREACHED - 1)) as u32;
    }
    dist
}

/// `label[v]`: the least id of a vertex that reaches `v` along directed edges (`v`
/// included). On a symmetric graph, the least id of `v`'s connected component.
pub fn label_propagation(g: &Graph) -> Vec<u32> {
    let csr = g.csr();
    let mut label = vec![UNREACHED; g.num_vertices() as usize];
    let mut stack = Vec::new();
    // Sources in increasing order: the first to reach a vertex has the least id. A search
    // stops at labelled vertices, whose descendants already have a smaller label.
    for s in 0..g.num_vertices() {
        if label[s as usize] != UNREACHED {
            continue;
        }
        label[s as usize] = s;
        stack.push(s);
        while let Some(u) = stack.pop() {
            for &v in &csr.targets[csr.range(u)] {
                if label[v as usize] == UNREACHED {
                    label[v as usize] = s;
                    stack.push(v);
                }
            }
        }
    }
    label
}

/// `iterations` rounds of PageRank from `1/V`: `rank[v] = (1 - damping)/V + damping *
/// sum over in-edges (s, v) of rank[s] / outdeg(s)`, summed in CSC order. Out-degrees
/// count parallel edges and self-loops; the rank of vertices without out-edges is
/// dropped, not redistributed.
pub fn pagerank(g: &Graph, iterations: u32, damping: f64) -> Vec<f64> {
    let (csr, csc) = (g.csr(), g.csc());
    let n = g.num_vertices();
    let base = (1.0 - damping) / f64::from(n);
    let mut rank = vec![1.0 / f64::from(n); n as usize];
    let mut contribution = vec![0.0; n as usize];
    for _ in 0..iterations {
        for (u, c) in contribution.iter_mut().enumerate() {
            let degree = csr.degree(u as u32);
            *c = if degree == 0 {
                0.0
            } else {
                rank[u] / f64::from(degree)
            };
        }
        for (v, r) in rank.iter_mut().enumerate() {
            let acc: f64 = csc.targets[csc.range(v as u32)]
                .iter()
                .map(|&s| contribution[s as usize])
                .sum();
            *r = base + damping * acc;
        }
    }
    rank
}
