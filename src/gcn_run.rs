//! `wsim run` of a GCN program (docs/GCN.md): the layer's options, its inputs generated
//! once per graph, laid out before the graph, and H and the output checked after the run
//! against `wsim_graph::gcn`'s f64 reference within its f32 error bounds.

use std::sync::{Arc, OnceLock};

use anyhow::Context;
use clap::Args;
use wsim_graph::gcn::{self, Layer, LayerSpec, Matrix, Reference};
use wsim_graph::Graph;
use wsim_sim::Machine;
use wsim_workloads::gcn_image::{self, GcnLayout, GcnProgram, LayerArrays};
use wsim_workloads::record::{GcnLayerRun, GraphMismatch};

/// The layer of a GCN program's run.
#[derive(Args, Clone, Debug, Default)]
pub struct LayerArgs {
    /// GCN programs: the layer's width F (H = X W and the output are V x F) [default: 16].
    #[arg(long, value_name = "F")]
    pub features: Option<u32>,
    /// GCN programs: the columns of the sparse input features X [default: 1433].
    #[arg(long, value_name = "N")]
    pub input_features: Option<u32>,
    /// GCN programs: the mean nonzeros of a row of X [default: 18].
    #[arg(long, value_name = "K")]
    pub input_nnz: Option<u32>,
}

impl LayerArgs {
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
        [
            ("--features", self.features),
            ("--input-features", self.input_features),
            ("--input-nnz", self.input_nnz),
        ]
        .into_iter()
        .filter_map(|(flag, v)| v.map(|v| format!("{flag}={v}")))
        .collect()
    }
}

/// A layer's inputs for one graph: `A + I`, X and W, and (on first use) the reference.
pub struct LayerInput {
    pub graph: Arc<Graph>,
    pub layer: Layer,
    reference: OnceLock<Reference>,
}

impl LayerInput {
    pub fn new(graph: &Graph, spec: &LayerSpec) -> anyhow::Result<Self> {
        let layer = spec
            .generate(graph.num_vertices())
            .context("cannot generate the GCN layer's inputs")?;
        let graph = gcn::with_self_loops(graph).context("cannot add the self-loops")?;
        Ok(LayerInput {
            graph: Arc::new(graph),
            layer,
            reference: OnceLock::new(),
        })
    }

    fn reference(&self) -> &Reference {
        self.reference
            .get_or_init(|| gcn::reference(&self.graph, &self.layer))
    }
}

/// A layer laid out for a program.
pub struct PlacedLayer {
    pub input: Arc<LayerInput>,
    pub layout: GcnLayout,
}

/// Lay the layer out at the graph base (the graph, `A + I`, follows it).
pub fn place(
    machine: &mut Machine,
    program: &GcnProgram,
    input: Arc<LayerInput>,
) -> anyhow::Result<PlacedLayer> {
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    let l = &input.layer;
    let (x_values, weights) = (bits(&l.x_values), bits(&l.weights));
    let arrays = LayerArrays {
        features: l.features,
        input_features: l.input_features,
        x_offsets: &l.x_offsets,
        x_columns: &l.x_columns,
        x_values: &x_values,
        weights: &weights,
    };
    let layout = gcn_image::place(machine, program, input.graph.num_vertices(), &arrays)?;
    Ok(PlacedLayer { input, layout })
}

/// H and the output after the run against the reference: every value outside its bound.
pub fn verify(machine: &Machine, placed: &PlacedLayer) -> Vec<GraphMismatch> {
    let hidden = gcn_image::hidden(machine, &placed.layout);
    let output = gcn_image::output(machine, &placed.layout);
    placed
        .input
        .reference()
        .mismatches(&hidden, &output)
        .into_iter()
        .map(|m| {
            let name = match m.matrix {
                Matrix::Hidden => "XW",
                Matrix::Output => "out",
            };
            GraphMismatch {
                vertex: m.vertex,
                expected: format!("{name}[{}] {:.7e} ±{:.1e}", m.column, m.expected, m.bound),
                got: format!("{:.7e}", m.got),
            }
        })
        .collect()
}

/// The values checked: H and the output.
pub fn values(placed: &PlacedLayer) -> u64 {
    2 * u64::from(placed.layout.vertices) * u64::from(placed.layout.features)
}

/// The report's description of the layer.
pub fn describe(placed: &PlacedLayer) -> String {
    let l = &placed.input.layer;
    format!(
        "F {}, X {} x {} with {} nonzeros",
        l.features,
        placed.layout.vertices,
        l.input_features,
        l.x_columns.len()
    )
}

/// The JSON report's layer.
pub fn json(placed: &PlacedLayer) -> GcnLayerRun {
    let l = &placed.input.layer;
    GcnLayerRun {
        features: l.features,
        input_features: l.input_features,
        input_nonzeros: l.x_columns.len() as u32,
    }
}
