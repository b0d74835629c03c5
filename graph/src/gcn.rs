//! One GCN layer (Kipf and Welling): its inputs and the host reference its kernels are
//! checked against (docs/GCN.md).
//!
//! The layer is `out = Â (X W)` with `Â = D^-1/2 (A + I) D^-1/2`: SpMM (`H = X W`, X the
//! sparse input features, W the dense weights) and GraphSum (every destination sums the
//! rows of H of its in-neighbours in `A + I`, each scaled by `1 / sqrt(deg(s) deg(d))`,
//! `deg` the in-degree in `A + I`, as PyG's `gcn_norm` does; on a symmetric graph this is
//! Kipf's D̃). The activation is not part of the measured layer.
//!
//! Inputs are generated from a seed: X like Kipf's bag-of-words features (each row a few
//! distinct columns, its values positive and row-normalised), W with Kipf's Glorot
//! initialisation. The reference works in f64 and bounds the f32 rounding error of any
//! order of summation (Higham's gamma_n), so a kernel passes whatever its order of
//! additions and fails on a missing, doubled or misplaced term.

use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::error::{ErrorKind, GraphError};
use crate::generate::{below, splitmix64, unit};
use crate::Graph;

/// Kipf's hidden width and GNNAdvisor's GCN setting.
pub const DEFAULT_FEATURES: u32 = 16;
/// Cora's input features and mean nonzeros per row (1433 words, 18.2 per paper).
pub const DEFAULT_INPUT_FEATURES: u32 = 1433;
pub const DEFAULT_INPUT_NNZ: u32 = 18;
/// The widest layer a kernel is given: 32 columns a lane at 32 lanes.
pub const MAX_FEATURES: u32 = 1024;
/// The most values a V x F matrix may have: 512 MiB of f32, more than the simulated
/// machine can place below its stacks, so larger layers are refused before anything is
/// allocated for them.
pub const MAX_MATRIX_VALUES: u64 = 1 << 27;

/// The shape of a layer's inputs and the seed they come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerSpec {
    /// F: the width of H and of the output.
    pub features: u32,
    /// The columns of X (W has this many rows).
    pub input_features: u32,
    /// Mean nonzeros of a row of X: a row has 1 ..= 2 * nnz - 1 (at most the columns).
    pub input_nnz: u32,
    pub seed: u64,
}

impl Default for LayerSpec {
    fn default() -> Self {
        LayerSpec {
            features: DEFAULT_FEATURES,
            input_features: DEFAULT_INPUT_FEATURES,
            input_nnz: DEFAULT_INPUT_NNZ,
            seed: 1,
        }
    }
}

/// The layer's inputs: X in compressed rows, W row-major (`input_features` x `features`).
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    pub features: u32,
    pub input_features: u32,
    pub x_offsets: Vec<u32>,
    pub x_columns: Vec<u32>,
    pub x_values: Vec<f32>,
    pub weights: Vec<f32>,
}

fn invalid(msg: String) -> GraphError {
    ErrorKind::Invalid(msg).into()
}

impl LayerSpec {
    /// Why this shape cannot be generated for `vertices` rows, if it cannot.
    pub fn check(&self, vertices: u32) -> Result<(), GraphError> {
        if !(1..=MAX_FEATURES).contains(&self.features) {
            return Err(invalid(format!(
                "--features {}: a layer has 1 to {MAX_FEATURES} features",
                self.features
            )));
        }
        if self.input_features == 0 || self.input_nnz == 0 {
            return Err(invalid(
                "--input-features and --input-nnz must be at least 1".into(),
            ));
        }
        if self.input_nnz > self.input_features {
            return Err(invalid(format!(
                "--input-nnz {} exceeds --input-features {}: a row has at most one value per column",
                self.input_nnz, self.input_features
            )));
        }
        let dense = [
            (u64::from(vertices) * u64::from(self.features), "V x F"),
            (
                u64::from(self.input_features) * u64::from(self.features),
                "the weights (input features x F)",
            ),
            (
                u64::from(vertices) * u64::from(2 * self.input_nnz - 1),
                "the input features' nonzeros",
            ),
        ];
        for (values, what) in dense {
            if values > MAX_MATRIX_VALUES {
                return Err(ErrorKind::TooLarge(format!(
                    "{what} is {values} values, more than the {MAX_MATRIX_VALUES} a layer may have"
                ))
                .into());
            }
        }
        Ok(())
    }

    /// The inputs of a layer over `vertices` vertices.
    pub fn generate(&self, vertices: u32) -> Result<Layer, GraphError> {
        self.check(vertices)?;
        let mut rng =
            Xoshiro256PlusPlus::seed_from_u64(splitmix64(self.seed ^ 0x6763_6e5f_6c61_7972));
        let widest = (2 * self.input_nnz - 1).min(self.input_features);
        let mut x_offsets = Vec::with_capacity(vertices as usize + 1);
        let mut x_columns = Vec::new();
        let mut x_values = Vec::new();
        x_offsets.push(0);
        let mut row: Vec<u32> = Vec::with_capacity(widest as usize);
        for _ in 0..vertices {
            let k = 1 + below(&mut rng, widest);
            distinct_columns(&mut rng, k, self.input_features, &mut row);
            let raw: Vec<f64> = row.iter().map(|_| 1.0 - unit(&mut rng)).collect();
            let sum: f64 = raw.iter().sum();
            x_columns.extend_from_slice(&row);
            x_values.extend(raw.iter().map(|r| (r / sum) as f32));
            x_offsets.push(x_columns.len() as u32);
        }
        let limit = (6.0 / f64::from(self.input_features + self.features)).sqrt();
        let weights = (0..u64::from(self.input_features) * u64::from(self.features))
            .map(|_| ((2.0 * unit(&mut rng) - 1.0) * limit) as f32)
            .collect();
        Ok(Layer {
            features: self.features,
            input_features: self.input_features,
            x_offsets,
            x_columns,
            x_values,
            weights,
        })
    }
}

/// `k` distinct columns of `0..n`, sorted (Floyd's sampling).
fn distinct_columns(rng: &mut impl Rng, k: u32, n: u32, out: &mut Vec<u32>) {
    out.clear();
    for j in n - k..n {
        let t = below(rng, j + 1);
        let pick = if out.contains(&t) { j } else { t };
        out.push(pick);
    }
    out.sort_unstable();
}

/// `A + I`: the graph with a self-loop added at every vertex (weight 1), as the model adds
/// them; a vertex that already has one then has two, as `adj + I` gives in Kipf's code.
pub fn with_self_loops(g: &Graph) -> Result<Graph, GraphError> {
    let csr = g.csr();
    let mut edges = Vec::with_capacity(g.num_edges() as usize + g.num_vertices() as usize);
    for u in 0..g.num_vertices() {
        for i in csr.range(u) {
            edges.push((u, csr.targets[i], csr.weights[i]));
        }
        edges.push((u, u, 1));
    }
    Graph::from_edges(g.num_vertices(), &edges)
}

/// The exact layer and, per value, how far an f32 computation may be from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    pub features: u32,
    /// H = X W, row-major V x F.
    pub hidden: Vec<f64>,
    pub hidden_bound: Vec<f64>,
    /// Â H, row-major V x F.
    pub output: Vec<f64>,
    pub output_bound: Vec<f64>,
}

/// The unit roundoff of f32 (round to nearest).
const U: f64 = 1.0 / (1u64 << 24) as f64;
/// Roundings of a coefficient 1/sqrt(deg(s) deg(d)) however it is formed: conversions,
/// a product, a square root and a division (or two square roots, two divisions and a
/// product of per-vertex norms).
const COEFFICIENT_ROUNDINGS: f64 = 6.0;

/// The layer computed in f64 from the definitions (edge by edge, row by row: nothing
/// shared with the kernels). `graph` must be `A + I` ([`with_self_loops`]). The bounds:
/// a sum of n products in f32, in any order, is within `(n + 1) u sum|terms|` (Higham's
/// gamma_n to first order, u = 2^-24); GraphSum adds the error of the H it reads and of
/// its coefficient.
pub fn reference(graph: &Graph, layer: &Layer) -> Reference {
    let f = layer.features as usize;
    let v = graph.num_vertices() as usize;
    let mut hidden = vec![0.0f64; v * f];
    let mut magnitude = vec![0.0f64; v * f];
    let mut hidden_bound = vec![0.0f64; v * f];
    for r in 0..v {
        let (start, end) = (layer.x_offsets[r] as usize, layer.x_offsets[r + 1] as usize);
        let n = (end - start) as f64;
        for i in start..end {
            let x = f64::from(layer.x_values[i]);
            let w = &layer.weights[layer.x_columns[i] as usize * f..][..f];
            for k in 0..f {
                hidden[r * f + k] += x * f64::from(w[k]);
                magnitude[r * f + k] += (x * f64::from(w[k])).abs();
            }
        }
        for k in 0..f {
            hidden_bound[r * f + k] = (n + 1.0) * U * magnitude[r * f + k];
        }
    }
    let csc = graph.csc();
    let degree = |x: u32| f64::from(csc.degree(x));
    let mut output = vec![0.0f64; v * f];
    let mut output_bound = vec![0.0f64; v * f];
    for d in 0..graph.num_vertices() {
        let row = d as usize * f;
        let mut terms = 0.0;
        let mut widest: f64 = 0.0;
        let mut scale = vec![0.0f64; f];
        for i in csc.range(d) {
            let s = csc.targets[i];
            let c = 1.0 / (degree(s) * degree(d)).sqrt();
            let src = s as usize * f;
            for k in 0..f {
                output[row + k] += c * hidden[src + k];
                scale[k] += c * magnitude[src + k];
            }
            terms += 1.0;
            let nnz = layer.x_offsets[s as usize + 1] - layer.x_offsets[s as usize];
            widest = widest.max(f64::from(nnz));
        }
        for k in 0..f {
            output_bound[row + k] = (terms + widest + 2.0 + COEFFICIENT_ROUNDINGS) * U * scale[k];
        }
    }
    Reference {
        features: layer.features,
        hidden,
        hidden_bound,
        output,
        output_bound,
    }
}

/// Which matrix a value belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Matrix {
    /// H = X W (SpMM's result).
    Hidden,
    /// Â H (GraphSum's result).
    Output,
}

/// A value outside its bound.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub matrix: Matrix,
    pub vertex: u32,
    pub column: u32,
    pub expected: f64,
    pub bound: f64,
    pub got: f32,
}

impl Reference {
    /// The values of `hidden` and `output` (f32 bits, row-major) outside their bounds, H
    /// first; NaN and infinity are always outside.
    pub fn mismatches(&self, hidden: &[u32], output: &[u32]) -> Vec<Mismatch> {
        let f = self.features as usize;
        let mut out = Vec::new();
        for (matrix, want, bound, got) in [
            (Matrix::Hidden, &self.hidden, &self.hidden_bound, hidden),
            (Matrix::Output, &self.output, &self.output_bound, output),
        ] {
            for (i, ((&e, &b), &bits)) in want.iter().zip(bound).zip(got).enumerate() {
                let g = f32::from_bits(bits);
                // NaN is within no bound.
                let within = (f64::from(g) - e).abs().partial_cmp(&b);
                if !matches!(
                    within,
                    Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
                ) {
                    out.push(Mismatch {
                        matrix,
                        vertex: (i / f) as u32,
                        column: (i % f) as u32,
                        expected: e,
                        bound: b,
                        got: g,
                    });
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(features: u32) -> LayerSpec {
        LayerSpec {
            features,
            input_features: 40,
            input_nnz: 5,
            seed: 7,
        }
    }

    #[test]
    fn inputs_are_deterministic_and_shaped() {
        let a = spec(16).generate(50).unwrap();
        assert_eq!(a, spec(16).generate(50).unwrap());
        assert_ne!(
            a,
            LayerSpec {
                seed: 8,
                ..spec(16)
            }
            .generate(50)
            .unwrap()
        );
        assert_eq!(a.x_offsets.len(), 51);
        assert_eq!(a.weights.len(), 40 * 16);
        for r in 0..50 {
            let row = &a.x_columns[a.x_offsets[r] as usize..a.x_offsets[r + 1] as usize];
            assert!((1..=9).contains(&row.len()), "{row:?}");
            assert!(row.windows(2).all(|p| p[0] < p[1]) && row.iter().all(|&c| c < 40));
            let sum: f32 = a.x_values[a.x_offsets[r] as usize..a.x_offsets[r + 1] as usize]
                .iter()
                .sum();
            assert!((sum - 1.0).abs() < 1e-5, "row {r} sums to {sum}");
        }
        let limit = (6.0f32 / 56.0).sqrt();
        assert!(a.weights.iter().all(|w| w.abs() <= limit));
        // Every column can be drawn: a row as wide as the matrix takes them all.
        let full = LayerSpec {
            input_features: 3,
            input_nnz: 3,
            ..spec(4)
        }
        .generate(20)
        .unwrap();
        assert!(full.x_offsets.windows(2).any(|p| p[1] - p[0] == 3));
    }

    #[test]
    fn shapes_out_of_range_are_refused() {
        assert!(spec(0).check(10).is_err());
        assert!(spec(MAX_FEATURES + 1).check(10).is_err());
        assert!(LayerSpec {
            input_nnz: 41,
            ..spec(16)
        }
        .check(10)
        .is_err());
        let e = spec(1024).check(1 << 20).unwrap_err().to_string();
        assert!(e.contains("V x F"), "{e}");
        assert!(spec(128).check(1000).is_ok());
    }

    /// 0 -> 1, 2 -> 1, plus the self-loops: in-degrees 1, 3, 1.
    #[test]
    fn the_reference_follows_the_definition() {
        let g = with_self_loops(&Graph::from_edges(3, &[(0, 1, 5), (2, 1, 1)]).unwrap()).unwrap();
        assert_eq!(g.num_edges(), 5);
        let layer = Layer {
            features: 2,
            input_features: 2,
            x_offsets: vec![0, 1, 2, 4],
            x_columns: vec![0, 1, 0, 1],
            x_values: vec![1.0, 0.5, 0.25, 0.75],
            weights: vec![1.0, 2.0, 3.0, 4.0],
        };
        let r = reference(&g, &layer);
        // H: row 0 = [1, 2], row 1 = 0.5 [3, 4], row 2 = 0.25 [1, 2] + 0.75 [3, 4].
        assert_eq!(r.hidden, [1.0, 2.0, 1.5, 2.0, 2.5, 3.5]);
        let c = 1.0 / 3f64.sqrt();
        let want = [
            1.0,
            2.0,
            c * 1.0 + 1.5 / 3.0 + c * 2.5,
            c * 2.0 + 2.0 / 3.0 + c * 3.5,
            2.5,
            3.5,
        ];
        for (got, want) in r.output.iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "{:?}", r.output);
        }
        let bits = |m: &[f64]| m.iter().map(|&x| (x as f32).to_bits()).collect::<Vec<_>>();
        assert!(r.mismatches(&bits(&r.hidden), &bits(&r.output)).is_empty());
        // A missing neighbour, a NaN.
        let mut out = bits(&r.output);
        out[2] = ((c * 1.0 + 1.5 / 3.0) as f32).to_bits();
        out[5] = f32::NAN.to_bits();
        let m = r.mismatches(&bits(&r.hidden), &out);
        assert_eq!(
            m.iter()
                .map(|m| (m.matrix, m.vertex, m.column))
                .collect::<Vec<_>>(),
            [(Matrix::Output, 1, 0), (Matrix::Output, 2, 1)]
        );
    }

    /// f32 sums in different orders all pass; the bound is not loose enough to hide one term.
    #[test]
    fn bounds_admit_any_order_and_catch_a_missing_term() {
        let base =
            Graph::from_edges(200, &(1..200).map(|s| (s, 0, 1)).collect::<Vec<_>>()).unwrap();
        let g = with_self_loops(&base).unwrap();
        let layer = spec(8).generate(200).unwrap();
        let r = reference(&g, &layer);
        let h: Vec<f32> = r.hidden.iter().map(|&x| x as f32).collect();
        let csc = g.csc();
        let deg = |x: u32| csc.degree(x) as f32;
        let sum = |order: &mut dyn Iterator<Item = usize>| -> Vec<f32> {
            let mut acc = [0.0f32; 8];
            for i in order {
                let s = csc.targets[i];
                let c = 1.0 / (deg(s) * deg(0)).sqrt();
                for k in 0..8 {
                    acc[k] += c * h[s as usize * 8 + k];
                }
            }
            acc.to_vec()
        };
        let range = csc.range(0);
        for order in [
            sum(&mut range.clone()),
            sum(&mut range.clone().rev()),
            sum(&mut range
                .clone()
                .step_by(2)
                .chain(range.clone().skip(1).step_by(2))),
        ] {
            let mut out: Vec<u32> = r.output.iter().map(|&x| (x as f32).to_bits()).collect();
            for (o, x) in out.iter_mut().zip(&order) {
                *o = x.to_bits();
            }
            let hidden: Vec<u32> = h.iter().map(|x| x.to_bits()).collect();
            assert!(r.mismatches(&hidden, &out).is_empty());
        }
        let mut short = r.output.clone();
        let s = csc.targets[range.start] as usize;
        let c = f64::from((deg(s as u32) * deg(0)).sqrt());
        for (k, x) in short.iter_mut().take(8).enumerate() {
            *x -= r.hidden[s * 8 + k] / c;
        }
        let out: Vec<u32> = short.iter().map(|&x| (x as f32).to_bits()).collect();
        let hidden: Vec<u32> = h.iter().map(|x| x.to_bits()).collect();
        assert!(!r.mismatches(&hidden, &out).is_empty());
    }
}
