//! What a run of a graph or GCN program is asked to run on, as plain data: the graph and
//! how it is loaded, the BFS/SSSP source, PageRank's iterations and a GCN layer's shape.
//! The command line, experiment files and regression baselines each build a
//! [`GraphOptions`] from their own syntax; [`crate::graph_run::load`] loads it.
//!
//! Options that differ from the defaults are also written as `wsim run`'s flags
//! ([`LoadSpec::flags`], [`LayerOptions::flags`]): the JSON report's `load_options`, an
//! experiment's `graph_options` column and the cache keys hold them, and a baseline's
//! `load` list is read back with [`GraphOptions::apply_flags`].

use serde::{Deserialize, Serialize};
use wsim_graph::gcn::LayerSpec;
use wsim_graph::{Limits, LoadOptions, WeightSource, DEFAULT_MAX_WEIGHT};

/// Where edge weights come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Weights {
    /// The file's weights if it has them, otherwise generated.
    File,
    /// Generated from the seed and the endpoints, whatever the file has.
    Generated,
    /// Every edge weighs 1.
    Unit,
}

impl Weights {
    pub const ALL: [Weights; 3] = [Weights::File, Weights::Generated, Weights::Unit];

    pub fn name(self) -> &'static str {
        match self {
            Weights::File => "file",
            Weights::Generated => "generated",
            Weights::Unit => "unit",
        }
    }
}

impl std::str::FromStr for Weights {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Weights::ALL
            .into_iter()
            .find(|w| w.name() == s)
            .ok_or_else(|| format!("weights `{s}`: expected file, generated or unit"))
    }
}

/// How a graph is loaded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LoadSpec {
    /// Add the reverse of every edge.
    pub symmetrize: bool,
    /// Remove edges from a vertex to itself.
    pub drop_self_loops: bool,
    /// Keep one edge per (source, destination), the lightest.
    pub dedup: bool,
    pub weights: Weights,
    /// Generated weights are in 1..=max_weight.
    pub max_weight: u32,
    /// Seed of generated weights, of generators whose spec has no `seed`, and of a GCN
    /// layer's inputs.
    pub seed: u64,
    /// Refuse inputs that declare or generate more vertices or edges than these.
    pub max_vertices: u32,
    pub max_edges: u32,
}

impl Default for LoadSpec {
    fn default() -> Self {
        let limits = Limits::default();
        LoadSpec {
            symmetrize: false,
            drop_self_loops: false,
            dedup: false,
            weights: Weights::File,
            max_weight: DEFAULT_MAX_WEIGHT,
            seed: 1,
            max_vertices: limits.max_vertices,
            max_edges: limits.max_edges,
        }
    }
}

/// The loading flags [`LoadSpec::flags`] writes and [`GraphOptions::apply_flags`] reads.
const SWITCHES: [&str; 3] = ["--symmetrize", "--drop-self-loops", "--dedup"];
const LOAD_VALUES: [&str; 5] = [
    "--weights",
    "--max-weight",
    "--seed",
    "--max-vertices",
    "--max-edges",
];
const LAYER_VALUES: [&str; 3] = ["--features", "--input-features", "--input-nnz"];

impl LoadSpec {
    /// The options that differ from the defaults, as `wsim run`'s flags, in one order.
    pub fn flags(&self) -> Vec<String> {
        let d = LoadSpec::default();
        let mut flags: Vec<String> = SWITCHES
            .iter()
            .zip([self.symmetrize, self.drop_self_loops, self.dedup])
            .filter(|(_, on)| *on)
            .map(|(flag, _)| flag.to_string())
            .collect();
        if self.weights != d.weights {
            flags.push(format!("--weights={}", self.weights.name()));
        }
        for (flag, value, default) in [
            (
                "--max-weight",
                u64::from(self.max_weight),
                u64::from(d.max_weight),
            ),
            ("--seed", self.seed, d.seed),
            (
                "--max-vertices",
                u64::from(self.max_vertices),
                u64::from(d.max_vertices),
            ),
            (
                "--max-edges",
                u64::from(self.max_edges),
                u64::from(d.max_edges),
            ),
        ] {
            if value != default {
                flags.push(format!("{flag}={value}"));
            }
        }
        flags
    }

    /// The graph crate's options.
    pub fn options(&self) -> LoadOptions {
        let max = self.max_weight;
        LoadOptions {
            symmetrize: self.symmetrize,
            drop_self_loops: self.drop_self_loops,
            dedup: self.dedup,
            weights: match self.weights {
                Weights::File => WeightSource::FromFileOrGenerated { max },
                Weights::Generated => WeightSource::Generated { max },
                Weights::Unit => WeightSource::Unit,
            },
            seed: self.seed,
            limits: Limits {
                max_vertices: self.max_vertices,
                max_edges: self.max_edges,
                ..Limits::default()
            },
        }
    }
}

/// A GCN layer's shape (the graph crate's defaults where `None`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LayerOptions {
    /// The width F of H = X W and of the output.
    pub features: Option<u32>,
    /// The columns of the sparse input features X.
    pub input_features: Option<u32>,
    /// The mean nonzeros of a row of X.
    pub input_nnz: Option<u32>,
}

impl LayerOptions {
    /// Whether a layer option was given (an error for a program that is not a GCN).
    pub fn any(&self) -> bool {
        self.features.is_some() || self.input_features.is_some() || self.input_nnz.is_some()
    }

    /// The layer's shape, its inputs drawn from `seed`.
    pub fn spec(&self, seed: u64) -> LayerSpec {
        let d = LayerSpec::default();
        LayerSpec {
            features: self.features.unwrap_or(d.features),
            input_features: self.input_features.unwrap_or(d.input_features),
            input_nnz: self.input_nnz.unwrap_or(d.input_nnz),
            seed,
        }
    }

    /// The options given, as flags (recorded with the loading options, so that the JSON
    /// report and a regression baseline's fingerprint repeat the run).
    pub fn flags(&self) -> Vec<String> {
        LAYER_VALUES
            .iter()
            .zip([self.features, self.input_features, self.input_nnz])
            .filter_map(|(flag, v)| v.map(|v| format!("{flag}={v}")))
            .collect()
    }
}

/// The BFS / SSSP source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The graph's first vertex.
    #[default]
    First,
    /// A vertex by the graph file's own id (a Matrix Market file counts from 1).
    Id(u64),
    /// A vertex by the graph's internal index (`0..V`, the file's vertices in id order).
    Index(u32),
    /// The vertex with the most out-edges (the lowest index of a tie).
    Hub,
}

/// Everything a graph or GCN program's run is given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GraphOptions {
    /// A SNAP edge list or Matrix Market file (optionally .gz), or a `gen:` spec; the
    /// default graph ([`crate::graph_run::DEFAULT_GRAPH`]) when `None`.
    pub graph: Option<String>,
    pub source: Source,
    /// PageRank's iterations ([`crate::graph_run::DEFAULT_ITERATIONS`] when `None`).
    pub iterations: Option<u32>,
    pub load: LoadSpec,
    pub layer: LayerOptions,
}

impl GraphOptions {
    /// Whether an option that only a graph program takes was given (loading options alone
    /// are not: they say how a graph would be loaded).
    pub fn any(&self) -> bool {
        self.graph.is_some() || self.source_given() || self.iterations.is_some() || self.layer.any()
    }

    pub fn source_given(&self) -> bool {
        self.source != Source::First
    }

    /// The loading and layer options that differ from the defaults, as flags.
    pub fn flags(&self) -> Vec<String> {
        let mut flags = self.load.flags();
        flags.extend(self.layer.flags());
        flags
    }

    /// Apply loading and layer flags as [`GraphOptions::flags`] writes them
    /// (`--symmetrize`, `--weights=unit` or `--weights unit`, ...).
    pub fn apply_flags(&mut self, flags: &[String]) -> Result<(), String> {
        let mut items = flags.iter();
        while let Some(item) = items.next() {
            let (flag, inline) = match item.split_once('=') {
                Some((flag, value)) => (flag, Some(value.to_string())),
                None => (item.as_str(), None),
            };
            if SWITCHES.contains(&flag) {
                if inline.is_some() {
                    return Err(format!("`{item}`: {flag} takes no value"));
                }
                match flag {
                    "--symmetrize" => self.load.symmetrize = true,
                    "--drop-self-loops" => self.load.drop_self_loops = true,
                    _ => self.load.dedup = true,
                }
                continue;
            }
            if !LOAD_VALUES.contains(&flag) && !LAYER_VALUES.contains(&flag) {
                let known: Vec<&str> = SWITCHES
                    .iter()
                    .chain(&LOAD_VALUES)
                    .chain(&LAYER_VALUES)
                    .copied()
                    .collect();
                return Err(format!(
                    "unknown option `{flag}` (the loading options: {})",
                    known.join(", ")
                ));
            }
            let value = match inline {
                Some(v) => v,
                None => items
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("{flag} needs a value"))?,
            };
            let number = |what: &str| -> Result<u64, String> {
                value
                    .parse()
                    .map_err(|_| format!("{flag} {value}: expected {what}"))
            };
            let small = |what: &str| -> Result<u32, String> {
                u32::try_from(number(what)?).map_err(|_| format!("{flag} {value}: too large"))
            };
            match flag {
                "--weights" => self.load.weights = value.parse()?,
                "--max-weight" => self.load.max_weight = small("a whole number")?,
                "--seed" => self.load.seed = number("a whole number")?,
                "--max-vertices" => self.load.max_vertices = small("a whole number")?,
                "--max-edges" => self.load.max_edges = small("a whole number")?,
                "--features" => self.layer.features = Some(small("a whole number")?),
                "--input-features" => self.layer.input_features = Some(small("a whole number")?),
                _ => self.layer.input_nnz = Some(small("a whole number")?),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_name_what_differs_from_the_defaults_and_read_back() {
        assert!(GraphOptions::default().flags().is_empty());
        let mut options = GraphOptions::default();
        options.load.symmetrize = true;
        options.load.weights = Weights::Unit;
        options.load.seed = 7;
        options.layer.features = Some(64);
        let flags = options.flags();
        assert_eq!(
            flags,
            [
                "--symmetrize",
                "--weights=unit",
                "--seed=7",
                "--features=64"
            ]
        );
        let mut again = GraphOptions::default();
        again.apply_flags(&flags).unwrap();
        assert_eq!(again, options);
        let mut spaced = GraphOptions::default();
        let words = ["--weights", "generated", "--dedup"].map(String::from);
        spaced.apply_flags(&words).unwrap();
        assert_eq!(spaced.load.weights, Weights::Generated);
        assert!(spaced.load.dedup);
    }

    #[test]
    fn bad_flags_say_what_is_wrong() {
        let err = |flags: &[&str]| {
            let flags: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
            GraphOptions::default().apply_flags(&flags).unwrap_err()
        };
        assert!(err(&["--symetrize"]).contains("unknown option `--symetrize`"));
        assert!(err(&["--weights=heavy"]).contains("expected file, generated or unit"));
        assert!(err(&["--seed"]).contains("--seed needs a value"));
        assert!(err(&["--max-weight=x"]).contains("expected a whole number"));
        assert!(err(&["--dedup=1"]).contains("takes no value"));
    }
}
