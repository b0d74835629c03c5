//! Generators behind `gen:KIND:key=value,...`, deterministic from their seed: the same
//! spec gives the same edges on every machine (xoshiro256++ seeded by SplitMix64).

use std::ops::RangeInclusive;

use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::error::{ErrorKind, GraphError};
use crate::{Limits, RawGraph, VertexIds};

mod chung_lu;
mod ego;
mod power_law;
mod road;
mod table43;

/// SplitMix64's output function: a strong 64-bit mix, also used for generated weights.
pub(crate) fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A generator's vertex count and edges.
type Generated = Result<(u32, Vec<(u32, u32)>), GraphError>;

struct Kind {
    name: &'static str,
    keys: &'static [&'static str],
    run: fn(&Params) -> Generated,
    /// The seed when the spec has none; `None`: the load's seed (`--seed`).
    fixed_seed: Option<u64>,
}

const KINDS: [Kind; 5] = [
    Kind {
        name: "rmat",
        keys: &["scale", "ef", "seed", "a", "b", "c", "permute"],
        run: rmat,
        fixed_seed: None,
    },
    Kind {
        name: "powerlaw",
        keys: &["v", "e", "alpha", "seed", "permute"],
        run: powerlaw,
        fixed_seed: None,
    },
    Kind {
        name: "uniform",
        keys: &["v", "e", "seed", "permute"],
        run: uniform,
        fixed_seed: None,
    },
    Kind {
        name: "grid",
        keys: &["w", "h", "seed", "permute"],
        run: grid,
        fixed_seed: None,
    },
    Kind {
        name: "table43",
        keys: &["graph", "scale", "seed"],
        run: table43::table43,
        // Interface: each stand-in is one fixed graph unless the spec names a seed.
        fixed_seed: Some(1),
    },
];

fn spec_error(msg: String) -> GraphError {
    GraphError::new(ErrorKind::Spec(msg))
}

fn nearest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> &'a str {
    candidates
        .min_by_key(|c| strsim::levenshtein(c, word))
        .expect("non-empty candidate list")
}

/// Parsed `key=value` pairs of one spec, with typed lookups that apply the defaults.
struct Params<'a> {
    pairs: Vec<(&'a str, &'a str)>,
    default_seed: u64,
    /// Checked before a generator allocates anything.
    limits: &'a Limits,
}

impl Params<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.pairs.iter().find(|(k, _)| *k == key).map(|&(_, v)| v)
    }

    fn int(&self, key: &str, default: u64, valid: RangeInclusive<u64>) -> Result<u64, GraphError> {
        let Some(text) = self.get(key) else {
            return Ok(default);
        };
        let value: u64 = text.replace('_', "").parse().map_err(|_| {
            spec_error(format!(
                "key `{key}`: `{text}` is not a non-negative integer"
            ))
        })?;
        if !valid.contains(&value) {
            return Err(spec_error(format!(
                "key `{key}`: {value} is outside {}..={}",
                valid.start(),
                valid.end()
            )));
        }
        Ok(value)
    }

    /// A vertex or edge count: 1..=u32::MAX.
    fn count(&self, key: &str, default: u64) -> Result<u32, GraphError> {
        Ok(self.int(key, default, 1..=u64::from(u32::MAX))? as u32)
    }

    fn float(&self, key: &str, default: f64) -> Result<f64, GraphError> {
        let Some(text) = self.get(key) else {
            return Ok(default);
        };
        text.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| spec_error(format!("key `{key}`: `{text}` is not a finite number")))
    }

    fn rng(&self) -> Result<Xoshiro256PlusPlus, GraphError> {
        let seed = self.int("seed", self.default_seed, 0..=u64::MAX)?;
        Ok(Xoshiro256PlusPlus::seed_from_u64(seed))
    }
}

/// `spec` is what follows `gen:`; `default_seed` is used when it has no `seed` key.
/// The generators' names (`gen:NAME:...`), in the documentation's order.
pub fn generators() -> impl Iterator<Item = &'static str> {
    KINDS.iter().map(|k| k.name)
}

pub(crate) fn generate(
    spec: &str,
    default_seed: u64,
    limits: &Limits,
) -> Result<RawGraph, GraphError> {
    let (name, args) = spec.split_once(':').unwrap_or((spec, ""));
    let name = name.trim();
    let kind = KINDS.iter().find(|k| k.name == name).ok_or_else(|| {
        spec_error(format!(
            "unknown generator `{name}` (did you mean `{}`?); generators: {}",
            nearest(name, KINDS.iter().map(|k| k.name)),
            generators().collect::<Vec<_>>().join(", ")
        ))
    })?;
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for item in args.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, value) = item
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| spec_error(format!("`{item}` is not key=value")))?;
        if !kind.keys.contains(&key) {
            return Err(spec_error(format!(
                "unknown key `{key}` for gen:{name} (did you mean `{}`?); keys: {}",
                nearest(key, kind.keys.iter().copied()),
                kind.keys.join(", ")
            )));
        }
        if pairs.iter().any(|(k, _)| *k == key) {
            return Err(spec_error(format!("key `{key}` is given twice")));
        }
        pairs.push((key, value));
    }
    let params = Params {
        pairs,
        default_seed: kind.fixed_seed.unwrap_or(default_seed),
        limits,
    };
    let (num_vertices, mut edges) = (kind.run)(&params)?;
    let seed = params.int("seed", params.default_seed, 0..=u64::MAX)?;
    if params.int("permute", 0, 0..=1)? == 1 {
        relabel(num_vertices, &mut edges, seed);
    }
    Ok(RawGraph {
        num_vertices,
        edges,
        weights: None,
        weight_seed: seed,
        ids: VertexIds::Indices,
    })
}

/// `permute=1`: rename the vertices by a random permutation (Fisher-Yates on its own
/// stream of the seed), as Graph500 does after R-MAT. The generators put their hubs at
/// low ids (R-MAT's degree follows the bits of the id), which any partition of the ids
/// by ranges or strides would otherwise meet.
fn relabel(num_vertices: u32, edges: &mut [(u32, u32)], seed: u64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(splitmix64(seed ^ 0x7065_726d_7574_6521));
    let mut name: Vec<u32> = (0..num_vertices).collect();
    for i in (1..num_vertices).rev() {
        name.swap(i as usize, below(&mut rng, i + 1) as usize);
    }
    for (u, v) in edges {
        (*u, *v) = (name[*u as usize], name[*v as usize]);
    }
}

/// A uniform f64 in [0, 1) from the top 53 bits.
pub(crate) fn unit(rng: &mut impl Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// A uniform integer in `0..n` (multiply-shift; bias below 2^-32).
pub(crate) fn below(rng: &mut impl Rng, n: u32) -> u32 {
    ((u128::from(rng.next_u64()) * u128::from(n)) >> 64) as u32
}

/// R-MAT: each edge descends `scale` levels of the adjacency matrix, choosing a quadrant
/// with probabilities a, b, c, d = 1 - a - b - c (no noise; relabelling with `permute=1`).
fn rmat(p: &Params) -> Generated {
    let scale = p.int("scale", 10, 1..=31)? as u32;
    let ef = p.int("ef", 16, 1..=u64::from(u32::MAX))?;
    let (a, b, c) = (
        p.float("a", 0.57)?,
        p.float("b", 0.19)?,
        p.float("c", 0.19)?,
    );
    if [a, b, c].iter().any(|x| !(0.0..=1.0).contains(x)) || a + b + c > 1.0 {
        return Err(spec_error(format!(
            "keys `a`, `b`, `c`: each must be in [0, 1] and their sum at most 1 (got {a}, {b}, {c})"
        )));
    }
    // The ceilings (at most u32::MAX) also keep ids and edge offsets within 32 bits.
    p.limits.vertices(1 << scale, "key `scale`")?;
    p.limits.edges(ef << scale, "keys `ef` x 2^`scale`")?;
    p.limits
        .load(1 << scale, ef << scale, 0, "keys `scale`, `ef`")?;
    let mut rng = p.rng()?;
    let edges = rmat_edges(scale, (ef << scale) as usize, (a, b, c), &mut rng).collect();
    Ok((1 << scale, edges))
}

/// `count` R-MAT edges on 2^`scale` vertices with quadrant probabilities (a, b, c).
fn rmat_edges<'a>(
    scale: u32,
    count: usize,
    (a, b, c): (f64, f64, f64),
    rng: &'a mut Xoshiro256PlusPlus,
) -> impl Iterator<Item = (u32, u32)> + 'a {
    let (ab, abc) = (a + b, a + b + c);
    (0..count).map(move |_| {
        let (mut u, mut v) = (0u32, 0u32);
        for _ in 0..scale {
            // The quadrant: [0, a) (0, 0), [a, a + b) (0, 1), [a + b, a + b + c) (1, 0),
            // the rest (1, 1); without branches, which a random draw would mispredict.
            let r = unit(rng);
            let du = u32::from(r >= ab);
            let dv = u32::from((r >= a) & (r < ab) | (r >= abc));
            u = u << 1 | du;
            v = v << 1 | dv;
        }
        (u, v)
    })
}

/// A simple power-law graph (no self-loops, no parallel edges) with exactly `e` edges on
/// `v` vertices. Vertex `i` has the weight `(i + 1)^(-1 / (alpha - 1))`, a Zipf rank law,
/// so that degrees follow P(k) ~ k^-alpha. Its out-degree is its share of `e` by weight,
/// at most `v - 1` (the excess of capped vertices is shared among the others by weight),
/// rounded down, with the edges left over going one each to the largest remainders (ties
/// to the lower id): the degree sequence involves no randomness. Each vertex's
/// destinations are then drawn by weight without replacement, itself excluded
/// (Chung-Lu-like), so in-degrees follow the same law.
fn powerlaw(p: &Params) -> Generated {
    let v = p.count("v", 10_000)?;
    let e = p.count("e", 1_900_000)?;
    let alpha = p.float("alpha", 2.0)?;
    if alpha <= 1.0 {
        return Err(spec_error(format!("key `alpha`: {alpha} must be above 1")));
    }
    // Its own: a weight, its cumulative sum, a share and a degree per vertex (24 bytes),
    // and per vertex drawn from, a key per vertex (16).
    let own = 40 * u64::from(v);
    p.limits.vertices(v.into(), "key `v`")?;
    p.limits.edges(e.into(), "key `e`")?;
    p.limits.load(v.into(), e.into(), own, "keys `v`, `e`")?;
    let cap = u64::from(v) - 1;
    if u64::from(e) > u64::from(v) * cap {
        return Err(spec_error(format!(
            "keys `v`, `e`: {e} edges do not fit a simple graph on {v} vertices (at most v (v - 1))"
        )));
    }
    let weights: Vec<f64> = (1..=v)
        .map(|i| f64::from(i).powf(-1.0 / (alpha - 1.0)))
        .collect();
    let mut cumulative: Vec<f64> = Vec::with_capacity(v as usize);
    let mut sum = 0.0;
    for w in &weights {
        sum += w;
        cumulative.push(sum);
    }
    let total = sum;
    // Weights decrease with the id, so the capped vertices are a prefix `0..capped`.
    let rest_weight = |k: usize| total - if k == 0 { 0.0 } else { cumulative[k - 1] };
    let rest_edges = |k: usize| u64::from(e) as f64 - (k as u64 * cap) as f64;
    let mut capped = 0usize;
    while capped < v as usize
        && rest_edges(capped) * weights[capped] / rest_weight(capped) > cap as f64
    {
        capped += 1;
    }
    let scale = rest_edges(capped) / rest_weight(capped);
    let shares: Vec<f64> = (0..v as usize)
        .map(|i| {
            if i < capped {
                cap as f64
            } else {
                weights[i] * scale
            }
        })
        .collect();
    let mut degrees: Vec<u32> = shares.iter().map(|s| s.floor() as u32).collect();
    let assigned: u64 = degrees.iter().map(|&d| u64::from(d)).sum();
    // Only uncapped vertices can take a leftover edge, whatever the rounding of the sums.
    let mut by_remainder: Vec<u32> = (0..v)
        .filter(|&i| u64::from(degrees[i as usize]) < cap)
        .collect();
    let frac = |i: u32| shares[i as usize] - shares[i as usize].floor();
    by_remainder.sort_by(|&x, &y| frac(y).total_cmp(&frac(x)).then(x.cmp(&y)));
    for &i in by_remainder
        .iter()
        .take(u64::from(e).saturating_sub(assigned) as usize)
    {
        degrees[i as usize] += 1;
    }

    let mut rng = p.rng()?;
    let mut edges = Vec::with_capacity(e as usize);
    // `chosen[x] == u`: x is already a destination of u (or u itself).
    let mut chosen = vec![u32::MAX; v as usize];
    let mut keyed: Vec<(f64, u32)> = Vec::new();
    for (u, &d) in (0..v).zip(&degrees) {
        if d == 0 {
            continue;
        }
        chosen[u as usize] = u;
        // Rejection draws until `d` distinct: each draw succeeds with probability at least
        // 1 - (mass of the d + 1 heaviest vertices). When that bounds the expected draws
        // above `v`, weighted sampling by keys (Efraimidis-Spirakis) costs less.
        let heavy = cumulative[d as usize] / total;
        if heavy < 1.0 && f64::from(d) / (1.0 - heavy) <= f64::from(v) {
            let mut found = 0;
            while found < d {
                let x = unit(&mut rng) * total;
                let dst = cumulative.partition_point(|&c| c <= x).min(v as usize - 1);
                if chosen[dst] != u {
                    chosen[dst] = u;
                    edges.push((u, dst as u32));
                    found += 1;
                }
            }
        } else {
            // The `d` largest keys ln(r) / weight are a weighted sample without replacement.
            keyed.clear();
            keyed.extend(
                (0..v)
                    .filter(|&x| x != u)
                    .map(|x| (unit(&mut rng).ln() / weights[x as usize], x)),
            );
            keyed.select_nth_unstable_by(d as usize - 1, |a, b| {
                b.0.total_cmp(&a.0).then(a.1.cmp(&b.1))
            });
            edges.extend(keyed[..d as usize].iter().map(|&(_, x)| (u, x)));
        }
    }
    Ok((v, edges))
}

/// Erdős–Rényi style: `e` edges with both endpoints uniform over `0..v`.
fn uniform(p: &Params) -> Generated {
    let v = p.count("v", 1024)?;
    let e = p.count("e", 16 * 1024)?;
    p.limits.vertices(v.into(), "key `v`")?;
    p.limits.edges(e.into(), "key `e`")?;
    p.limits.load(v.into(), e.into(), 0, "keys `v`, `e`")?;
    let mut rng = p.rng()?;
    let edges = (0..e)
        .map(|_| (below(&mut rng, v), below(&mut rng, v)))
        .collect();
    Ok((v, edges))
}

/// A `w` x `h` grid, vertex `y * w + x`, each joined to its 4 neighbours both ways.
fn grid(p: &Params) -> Generated {
    let (w, h) = (p.count("w", 64)?, p.count("h", 64)?);
    let vertices = u64::from(w) * u64::from(h);
    let undirected = u64::from(h) * u64::from(w - 1) + u64::from(w) * u64::from(h - 1);
    // The ceilings (at most u32::MAX) also keep ids and edge offsets within 32 bits.
    p.limits.vertices(vertices, "keys `w` x `h`")?;
    p.limits.edges(2 * undirected, "keys `w`, `h`")?;
    p.limits
        .load(vertices, 2 * undirected, 0, "keys `w`, `h`")?;
    let mut edges = Vec::with_capacity(2 * undirected as usize);
    for y in 0..h {
        for x in 0..w {
            let id = y * w + x;
            if x + 1 < w {
                edges.extend([(id, id + 1), (id + 1, id)]);
            }
            if y + 1 < h {
                edges.extend([(id, id + w), (id + w, id)]);
            }
        }
    }
    Ok((vertices as u32, edges))
}
