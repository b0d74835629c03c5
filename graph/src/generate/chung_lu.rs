//! Chung-Lu graphs on a given expected-degree sequence: each undirected edge joins two
//! endpoints drawn independently in proportion to their weights, so a vertex's expected
//! degree is proportional to its weight. Simple: self-loops are redrawn and duplicates
//! merged, and rounds of further draws make up what merging lost, until the exact edge
//! count is reached (or the graph saturates). Hubs, whose expected degree exceeds the
//! square root of the degree sum, would lose most of theirs to merging (they meet the
//! other heavy vertices many times over), so they first draw their partners by weight
//! without replacement. Vertices left without an edge are joined to one partner drawn by
//! weight, so no vertex is isolated.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::{below, unit};

/// Vose's alias table: a draw by weight in O(1).
struct Alias {
    /// Per column: the probability of keeping its own index, and its alias. Side by side,
    /// so that a draw on a large graph misses the host's caches once, not twice.
    columns: Vec<(f64, u32)>,
}

impl Alias {
    fn new(weights: &[f64]) -> Alias {
        let n = weights.len();
        let total: f64 = weights.iter().sum();
        let mut prob: Vec<f64> = weights.iter().map(|w| w * n as f64 / total).collect();
        let mut alias: Vec<u32> = (0..n as u32).collect();
        let (mut small, mut large): (Vec<u32>, Vec<u32>) =
            (0..n as u32).partition(|&i| prob[i as usize] < 1.0);
        while let (Some(&s), Some(&l)) = (small.last(), large.last()) {
            small.pop();
            alias[s as usize] = l;
            prob[l as usize] -= 1.0 - prob[s as usize];
            if prob[l as usize] < 1.0 {
                large.pop();
                small.push(l);
            }
        }
        // Left over by rounding: each keeps itself.
        for i in small.into_iter().chain(large) {
            prob[i as usize] = 1.0;
        }
        Alias {
            columns: prob.into_iter().zip(alias).collect(),
        }
    }

    fn draw(&self, rng: &mut Xoshiro256PlusPlus) -> u32 {
        let i = below(rng, self.columns.len() as u32);
        let (keep, alias) = self.columns[i as usize];
        // A select, not a branch: a random draw would mispredict it.
        [alias, i][usize::from(unit(rng) < keep)]
    }
}

/// An undirected edge `u < v` packed as `u << 32 | v`: sorting orders by (u, v).
pub(crate) fn pack(u: u32, v: u32) -> u64 {
    (u64::from(u.min(v)) << 32) | u64::from(u.max(v))
}

/// Merge two sorted, duplicate-free lists into one.
fn merge(a: Vec<u64>, b: &[u64]) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// The edges of the hubs: each vertex whose expected degree `w * per_weight` exceeds the
/// square root of the degree sum gets that many distinct partners, drawn by weight
/// (rejection while most draws are new; keys `ln(r) / w`, Efraimidis-Spirakis, when
/// the hub needs more than a quarter of all vertices).
fn hub_edges(
    weights: &[f64],
    table: &Alias,
    per_weight: f64,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<u64> {
    let n = weights.len();
    let threshold = (per_weight * weights.iter().sum::<f64>()).sqrt();
    let mut out = Vec::new();
    let mut chosen = vec![u32::MAX; n];
    let mut keyed: Vec<(f64, u32)> = Vec::new();
    for (u, &w) in (0..n as u32).zip(weights) {
        let degree = ((w * per_weight).round() as usize).min(n - 1);
        if (degree as f64) <= threshold {
            continue;
        }
        if degree <= n / 4 {
            chosen[u as usize] = u;
            let mut found = 0;
            while found < degree {
                let v = table.draw(rng);
                if chosen[v as usize] != u {
                    chosen[v as usize] = u;
                    out.push(pack(u, v));
                    found += 1;
                }
            }
        } else {
            keyed.clear();
            keyed.extend(
                (0..n as u32)
                    .filter(|&v| v != u)
                    .map(|v| (unit(rng).ln() / weights[v as usize], v)),
            );
            keyed
                .select_nth_unstable_by(degree - 1, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            out.extend(keyed[..degree].iter().map(|&(_, v)| pack(u, v)));
        }
    }
    out
}

/// A round that adds fewer than this share of what it drew means the heavy pairs are
/// saturated: stop rather than loop.
const MIN_YIELD: f64 = 1e-3;

/// A simple graph on `weights.len()` vertices with `edges` undirected edges (fewer only
/// when the weights saturate), as sorted packed pairs. Weights must be positive.
pub(crate) fn chung_lu(weights: &[f64], edges: u64, rng: &mut Xoshiro256PlusPlus) -> Vec<u64> {
    let n = weights.len();
    let table = Alias::new(weights);
    let total: f64 = weights.iter().sum();
    // Vertices that draw no edge are joined afterwards; leave room for them.
    let expected_isolated: f64 = weights
        .iter()
        .map(|w| (-2.0 * edges as f64 * w / total).exp())
        .sum();
    let target = edges.saturating_sub(expected_isolated.round() as u64);
    let mut batch = hub_edges(weights, &table, 2.0 * edges as f64 / total, rng);
    batch.sort_unstable();
    batch.dedup();
    batch.truncate(target as usize);
    let mut pairs: Vec<u64> = std::mem::take(&mut batch);
    while (pairs.len() as u64) < target {
        let want = target - pairs.len() as u64;
        batch.clear();
        while (batch.len() as u64) < want {
            let (u, v) = (table.draw(rng), table.draw(rng));
            if u != v {
                batch.push(pack(u, v));
            }
        }
        batch.sort_unstable();
        batch.dedup();
        let before = pairs.len();
        pairs = merge(pairs, &batch);
        if ((pairs.len() - before) as f64) < MIN_YIELD * want as f64 {
            break;
        }
    }
    // Join each vertex without an edge to a partner by weight (ascending ids, so the
    // draws are in a fixed order).
    let mut has_edge = vec![false; n];
    for &p in &pairs {
        has_edge[(p >> 32) as usize] = true;
        has_edge[(p & 0xffff_ffff) as usize] = true;
    }
    batch.clear();
    for u in (0..n as u32).filter(|&u| !has_edge[u as usize]) {
        if n < 2 {
            break;
        }
        let v = loop {
            let v = table.draw(rng);
            if v != u {
                break v;
            }
        };
        batch.push(pack(u, v));
    }
    batch.sort_unstable();
    batch.dedup();
    merge(pairs, &batch)
}
