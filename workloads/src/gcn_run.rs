//! The GCN side of a run (docs/GCN.md): the layer's inputs generated once per graph,
//! laid out before the graph, and H and the output checked after the run against
//! `wsim_graph::gcn`'s f64 reference within its f32 error bounds.

use std::sync::{Arc, OnceLock};

use anyhow::Context;
use wsim_graph::gcn::{self, Layer, LayerSpec, Matrix, Reference};
use wsim_graph::Graph;
use wsim_sim::Machine;

use crate::gcn_image::{self, GcnLayout, GcnProgram, LayerArrays};
use crate::record::{GcnLayerRun, GraphMismatch};

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
pub fn record(placed: &PlacedLayer) -> GcnLayerRun {
    let l = &placed.input.layer;
    GcnLayerRun {
        features: l.features,
        input_features: l.input_features,
        input_nonzeros: l.x_columns.len() as u32,
    }
}
