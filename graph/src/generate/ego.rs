//! A union of dense ego-networks, as COLLAB is: disjoint components, each an ego joined
//! to all of its members plus random member-member edges (a uniform sample of the pairs,
//! without replacement) at one density shared by all components. Component `i` is the
//! id range starting at its ego, so ids keep the components contiguous as the dataset's
//! files list them.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::below;
use super::chung_lu::pack;

/// Components of the given `sizes` (each at least 2) with `edges` undirected edges in
/// all, as sorted packed pairs. The caller checks that `edges` lies between the stars'
/// and the cliques' counts.
pub(crate) fn ego_union(sizes: &[u32], edges: u64, rng: &mut Xoshiro256PlusPlus) -> Vec<u64> {
    let star = |n: u64| n - 1;
    let member_pairs = |n: u64| (n - 1) * (n - 2) / 2;
    let stars: u64 = sizes.iter().map(|&n| star(n.into())).sum();
    let all_pairs: u64 = sizes.iter().map(|&n| member_pairs(n.into())).sum();
    let density = (edges - stars) as f64 / all_pairs.max(1) as f64;
    // Each component's share of the member edges, rounded down, the rest one each to the
    // largest remainders (ties to the earlier component): exactly `edges` in all.
    let shares: Vec<f64> = sizes
        .iter()
        .map(|&n| density * member_pairs(n.into()) as f64)
        .collect();
    let mut counts: Vec<u64> = shares.iter().map(|s| s.floor() as u64).collect();
    let mut leftover = (edges - stars).saturating_sub(counts.iter().sum());
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    let frac = |i: usize| shares[i] - shares[i].floor();
    order.sort_by(|&a, &b| frac(b).total_cmp(&frac(a)).then(a.cmp(&b)));
    for &i in &order {
        if leftover == 0 {
            break;
        }
        if counts[i] < member_pairs(sizes[i].into()) {
            counts[i] += 1;
            leftover -= 1;
        }
    }
    let mut out: Vec<u64> = Vec::with_capacity(edges as usize);
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let mut first = 0u32;
    for (&n, &count) in sizes.iter().zip(&counts) {
        out.extend((1..n).map(|m| pack(first, first + m)));
        pairs.clear();
        pairs.extend((1..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))));
        // A partial Fisher-Yates: the first `count` are a uniform sample.
        for i in 0..count as usize {
            let j = i + below(rng, (pairs.len() - i) as u32) as usize;
            pairs.swap(i, j);
        }
        out.extend(
            pairs[..count as usize]
                .iter()
                .map(|&(a, b)| pack(first + a, first + b)),
        );
        first += n;
    }
    out.sort_unstable();
    out
}
