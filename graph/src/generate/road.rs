//! A road-network stand-in: a connected, low-degree mesh on a near-square grid with a
//! large diameter. The grid's edges are shuffled and run through Kruskal's algorithm, so
//! the first `V - 1` that join two components are a random spanning tree (every vertex
//! reachable, most of degree 1 to 3, as intersections and road ends are); "highways"
//! then join every `spacing`-th vertex of every `spacing`-th row to its eight neighbours
//! on that coarse lattice (crossing the local roads, as bridges do), which bounds the
//! diameter near `2 sqrt(V) / spacing` and lifts those junctions to degree up to 12;
//! the remaining budget goes to further grid edges in the shuffled order.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::below;
use super::chung_lu::pack;

/// Union-find with path halving and union by size.
struct Components {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl Components {
    fn new(n: u32) -> Components {
        Components {
            parent: (0..n).collect(),
            size: vec![1; n as usize],
        }
    }

    fn root(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grand = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grand;
            x = grand;
        }
        x
    }

    /// Join the components of `a` and `b`; false when they were one already.
    fn union(&mut self, a: u32, b: u32) -> bool {
        let (mut a, mut b) = (self.root(a), self.root(b));
        if a == b {
            return false;
        }
        if self.size[a as usize] < self.size[b as usize] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b as usize] = a;
        self.size[a as usize] += self.size[b as usize];
        true
    }
}

fn shuffle(items: &mut [u64], rng: &mut Xoshiro256PlusPlus) {
    for i in (1..items.len()).rev() {
        items.swap(i, below(rng, i as u32 + 1) as usize);
    }
}

/// `n` vertices in rows of `width` (the last row may be partial) with `edges` undirected
/// edges (at least n - 1), as sorted packed pairs.
pub(crate) fn road(n: u32, edges: u64, spacing: u32, rng: &mut Xoshiro256PlusPlus) -> Vec<u64> {
    let width = (f64::from(n).sqrt().round() as u32).max(1);
    let at = |x: u32, y: u32| -> Option<u32> {
        let id = u64::from(y) * u64::from(width) + u64::from(x);
        (x < width && id < u64::from(n)).then_some(id as u32)
    };
    let rows = n.div_ceil(width);
    let mut grid: Vec<u64> = Vec::with_capacity(2 * n as usize);
    for y in 0..rows {
        for x in 0..width {
            let Some(id) = at(x, y) else { continue };
            grid.extend(at(x + 1, y).map(|r| pack(id, r)));
            grid.extend(at(x, y + 1).map(|d| pack(id, d)));
        }
    }
    shuffle(&mut grid, rng);
    let mut components = Components::new(n);
    let mut chosen: Vec<u64> = Vec::with_capacity(edges as usize);
    let mut spare: Vec<u64> = Vec::with_capacity(grid.len() - (n as usize - 1));
    for &e in &grid {
        if components.union((e >> 32) as u32, e as u32) {
            chosen.push(e);
        } else {
            spare.push(e);
        }
    }
    drop(grid);
    let mut highways: Vec<u64> = Vec::new();
    for y in (0..rows).step_by(spacing as usize) {
        for x in (0..width).step_by(spacing as usize) {
            let Some(id) = at(x, y) else { continue };
            let neighbours = [
                at(x + spacing, y),
                at(x, y + spacing),
                at(x + spacing, y + spacing),
                x.checked_sub(spacing)
                    .and_then(|left| at(left, y + spacing)),
            ];
            highways.extend(neighbours.into_iter().flatten().map(|o| pack(id, o)));
        }
    }
    shuffle(&mut highways, rng);
    let budget = edges.saturating_sub(chosen.len() as u64) as usize;
    chosen.extend(highways.iter().chain(&spare).take(budget));
    chosen.sort_unstable();
    chosen
}
