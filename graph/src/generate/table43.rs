//! `gen:table43:graph=NAME,scale=S[,seed=N]`: stand-ins for the nine graphs of the
//! dissertation's Table 4.3, with the table's vertices and directed edges at `scale=1`
//! and the shape of each real graph's degree distribution (docs/GRAPHS.md, "Table 4.3
//! stand-ins", has the published statistics and the fits). Every stand-in is symmetric
//! (each undirected edge both ways, as the table counts edges), simple, and without
//! isolated vertices.

use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::chung_lu::{chung_lu, pack};
use super::ego::ego_union;
use super::power_law::TruncatedPowerLaw;
use super::road::road;
use super::{nearest, relabel, rmat_edges, spec_error, splitmix64, Generated, Params};

/// How a stand-in is built.
enum Model {
    /// Chung-Lu on a power law truncated to [min_degree, max_degree], fitted to the
    /// average degree (chung_lu.rs).
    HeavyTail { min_degree: f64, max_degree: f64 },
    /// A spanning tree of a grid plus highways every `spacing` vertices (road.rs).
    Road { spacing: u32 },
    /// `graphs` ego-networks whose sizes follow a power law on [min_size, max_size]
    /// fitted to the mean size (ego.rs).
    Ego {
        graphs: u32,
        min_size: u32,
        max_size: u32,
    },
    /// R-MAT with the Graph500 parameters at `scale`, `edge_factor`, symmetrised, simple,
    /// its isolated vertices dropped and the rest permuted, as Graph500 does.
    Kronecker { scale: u32, edge_factor: u64 },
}

struct Preset {
    name: &'static str,
    /// The dataset's own name.
    dataset: &'static str,
    vertices: u64,
    /// Directed edges, as Table 4.3 counts them.
    edges: u64,
    model: Model,
}

/// Table 4.3's rows (vertices and edges as the dissertation gives them, but for the
/// typos RN and RC, taken from the datasets); the model parameters and where each comes
/// from are in docs/GRAPHS.md.
const PRESETS: [Preset; 9] = [
    Preset {
        name: "BH",
        dataset: "bio-human-gene1",
        vertices: 22_284,
        edges: 24_691_926,
        model: Model::HeavyTail {
            min_degree: 1.0,
            max_degree: 7_940.0,
        },
    },
    Preset {
        name: "BM",
        dataset: "bio-mouse-gene",
        vertices: 45_102,
        edges: 29_012_392,
        model: Model::HeavyTail {
            min_degree: 1.0,
            max_degree: 4_610.0,
        },
    },
    Preset {
        name: "RN",
        dataset: "roadNet-CA",
        vertices: 1_971_282,
        edges: 5_533_214,
        model: Model::Road { spacing: 4 },
    },
    Preset {
        name: "RC",
        dataset: "road-central",
        vertices: 14_081_817,
        edges: 33_866_826,
        model: Model::Road { spacing: 5 },
    },
    Preset {
        name: "UK",
        dataset: "web-uk-2005",
        vertices: 129_633,
        edges: 23_488_098,
        model: Model::HeavyTail {
            min_degree: 1.0,
            max_degree: 16_000.0,
        },
    },
    Preset {
        name: "G500",
        dataset: "graph500-scale19",
        vertices: 335_319,
        edges: 15_459_350,
        model: Model::Kronecker {
            scale: 19,
            edge_factor: 16,
        },
    },
    Preset {
        name: "CO",
        dataset: "COLLAB",
        vertices: 372_475,
        edges: 49_144_316,
        model: Model::Ego {
            graphs: 5_000,
            min_size: 32,
            max_size: 2_000,
        },
    },
    Preset {
        name: "HW",
        dataset: "hollywood-2011",
        vertices: 2_180_653,
        edges: 228_985_632,
        model: Model::HeavyTail {
            min_degree: 1.0,
            max_degree: 12_000.0,
        },
    },
    Preset {
        name: "WK",
        dataset: "web-wikipedia",
        vertices: 2_936_414,
        edges: 104_673_033,
        model: Model::HeavyTail {
            min_degree: 1.0,
            max_degree: 840_650.0,
        },
    },
];

/// The densest a scaled heavy-tailed stand-in may be: its average degree is capped at
/// this share of the other vertices (only the dense BH and BM reach it, at small scales).
const MAX_DENSITY: f64 = 1.0 / 8.0;

/// Fewer vertices than this and a stand-in says nothing about its graph.
const MIN_VERTICES: u64 = 64;

pub(super) fn table43(p: &Params) -> Generated {
    let names = || PRESETS.iter().map(|g| g.name);
    let name = p.get("graph").ok_or_else(|| {
        spec_error(format!(
            "key `graph` is required: one of {}",
            names().collect::<Vec<_>>().join(", ")
        ))
    })?;
    let preset = PRESETS.iter().find(|g| g.name == name).ok_or_else(|| {
        spec_error(format!(
            "key `graph`: unknown graph `{name}` (did you mean `{}`?); graphs: {}",
            nearest(name, names()),
            names().collect::<Vec<_>>().join(", ")
        ))
    })?;
    let scale = p.float("scale", 1.0)?;
    if !(scale > 0.0 && scale <= 1.0) {
        return Err(spec_error(format!(
            "key `scale`: {scale} is outside (0, 1]"
        )));
    }
    let seed = p.int("seed", 1, 0..=u64::MAX)?;
    // One stream per graph: the same seed gives unrelated graphs different draws.
    let name_hash = preset
        .name
        .bytes()
        .fold(0u64, |h, b| splitmix64(h ^ u64::from(b)));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(splitmix64(seed ^ name_hash));
    let too_small = |smallest: f64| {
        spec_error(format!(
            "key `scale`: {scale} leaves too little of {} ({}); the smallest scale is {smallest:.2e}",
            preset.name, preset.dataset
        ))
    };
    let average = preset.edges as f64 / preset.vertices as f64;
    let (vertices, pairs, permute) = match preset.model {
        Model::HeavyTail {
            min_degree,
            max_degree,
        } => {
            let n = (scale * preset.vertices as f64).round() as u64;
            if n < MIN_VERTICES {
                return Err(too_small(MIN_VERTICES as f64 / preset.vertices as f64));
            }
            let capped = average.min(MAX_DENSITY * (n - 1) as f64);
            let edges = (capped * n as f64 / 2.0).round() as u64;
            check(p, n, 2 * edges)?;
            // The same law (relative to the average where the density cap lowers it),
            // as far as the vertex count allows.
            let max = (max_degree * capped / average)
                .min((n - 1) as f64)
                .max(2.0 * capped);
            let law = TruncatedPowerLaw::fitted(min_degree.min(capped / 2.0), max, capped);
            let pairs = chung_lu(&law.ranked(n as usize), edges, &mut rng);
            (n as u32, pairs, true)
        }
        Model::Road { spacing } => {
            let n = (scale * preset.vertices as f64).round() as u64;
            if n < MIN_VERTICES {
                return Err(too_small(MIN_VERTICES as f64 / preset.vertices as f64));
            }
            let edges = (average * n as f64 / 2.0).round() as u64;
            check(p, n, 2 * edges)?;
            (n as u32, road(n as u32, edges, spacing, &mut rng), false)
        }
        Model::Ego {
            graphs,
            min_size,
            max_size,
        } => {
            let count = (scale * f64::from(graphs)).round() as usize;
            if count == 0 {
                return Err(too_small(0.5 / f64::from(graphs)));
            }
            let mean_size = preset.vertices as f64 / f64::from(graphs);
            let law = TruncatedPowerLaw::fitted(min_size.into(), max_size.into(), mean_size);
            // Mid-quantiles: the sizes of `count` components drawn evenly from the law.
            let mut sizes: Vec<u32> = (0..count)
                .map(|j| law.quantile(1.0 - (j as f64 + 0.5) / count as f64).round() as u32)
                .collect();
            // Few mid-quantiles miss the tail's mass: the largest components make up the
            // vertices the mean size asks for.
            let mut missing = (mean_size * count as f64).round() as i64
                - sizes.iter().map(|&s| i64::from(s)).sum::<i64>();
            for size in &mut sizes {
                let step = missing.clamp(
                    i64::from(min_size) - i64::from(*size),
                    i64::from(max_size) - i64::from(*size),
                );
                *size = (i64::from(*size) + step) as u32;
                missing -= step;
            }
            let n: u64 = sizes.iter().map(|&s| u64::from(s)).sum();
            let cliques: u64 = sizes
                .iter()
                .map(|&s| u64::from(s) * u64::from(s - 1) / 2)
                .sum();
            let edges = ((average * n as f64 / 2.0).round() as u64).min(cliques);
            check(p, n, 2 * edges)?;
            (n as u32, ego_union(&sizes, edges, &mut rng), false)
        }
        Model::Kronecker {
            scale: full,
            edge_factor,
        } => {
            let levels = (f64::from(full) + scale.log2()).round();
            if levels < 6.0 {
                return Err(too_small((6.0 - f64::from(full) - 0.5).exp2()));
            }
            let levels = levels as u32;
            let raw = edge_factor << levels;
            p.limits
                .size(1 << levels, 2 * raw, "keys `graph`, `scale`")?;
            let (n, pairs) = kronecker(levels, raw, &mut rng);
            (n, pairs, true)
        }
    };
    let mut edges = Vec::with_capacity(2 * pairs.len());
    for &e in &pairs {
        let (u, v) = ((e >> 32) as u32, e as u32);
        edges.extend([(u, v), (v, u)]);
    }
    drop(pairs);
    if permute {
        relabel(vertices, &mut edges, seed ^ name_hash);
    }
    Ok((vertices, edges))
}

/// The ceilings, before anything is generated.
fn check(p: &Params, vertices: u64, directed: u64) -> Result<(), crate::GraphError> {
    p.limits.size(vertices, directed, "keys `graph`, `scale`")
}

/// Graph500's graph: R-MAT edges, self-loops and duplicates dropped, undirected, the
/// vertices without an edge removed (ids renumbered in order).
fn kronecker(levels: u32, raw: u64, rng: &mut Xoshiro256PlusPlus) -> (u32, Vec<u64>) {
    let mut pairs: Vec<u64> = rmat_edges(levels, raw as usize, (0.57, 0.19, 0.19), rng)
        .filter(|&(u, v)| u != v)
        .map(|(u, v)| pack(u, v))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    let mut rank = vec![u32::MAX; 1 << levels];
    for &e in &pairs {
        rank[(e >> 32) as usize] = 0;
        rank[(e & 0xffff_ffff) as usize] = 0;
    }
    let mut next = 0u32;
    for r in rank.iter_mut().filter(|r| **r == 0) {
        *r = next;
        next += 1;
    }
    for e in &mut pairs {
        *e = pack(rank[(*e >> 32) as usize], rank[(*e & 0xffff_ffff) as usize]);
    }
    // Renumbering in order keeps u < v and the sort.
    (next, pairs)
}
