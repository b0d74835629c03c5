//! `wsim graph`: inspect, generate and convert graphs (docs/GRAPHS.md).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use wsim_graph::Graph;

use crate::args::LoadArgs;

#[derive(Subcommand)]
pub enum GraphCommand {
    /// Print vertices, edges and out- and in-degree statistics (with skewness).
    Info {
        /// A SNAP edge list or Matrix Market file (optionally .gz), or `gen:KIND:key=value,...`.
        spec: String,
        #[command(flatten)]
        load: LoadArgs,
    },
    /// Generate a graph and write it (format by the output's extension).
    Gen {
        /// `KIND:key=value,...` or `gen:KIND:key=value,...` (KIND: rmat, powerlaw, uniform,
        /// grid, table43: the dissertation's Table 4.3 stand-ins, docs/GRAPHS.md).
        spec: String,
        /// `.mtx` for Matrix Market, anything else for a SNAP edge list; `.gz` compresses.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        #[command(flatten)]
        load: LoadArgs,
    },
    /// Read a graph, apply the options, and write it (format by the output's extension).
    Convert {
        /// A graph file or a `gen:` spec.
        input: String,
        /// `.mtx` for Matrix Market, anything else for a SNAP edge list; `.gz` compresses.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        #[command(flatten)]
        load: LoadArgs,
    },
}

pub fn exec(command: GraphCommand) -> anyhow::Result<ExitCode> {
    match command {
        GraphCommand::Info { spec, load } => {
            let graph = Graph::from_spec(&spec, &load.options())?;
            let text = info(&spec, &graph);
            std::io::stdout().lock().write_all(text.as_bytes())?;
        }
        GraphCommand::Gen { spec, output, load } => {
            let spec = if spec.starts_with("gen:") {
                spec
            } else {
                format!("gen:{spec}")
            };
            write(&spec, &output, &load)?;
        }
        GraphCommand::Convert {
            input,
            output,
            load,
        } => write(&input, &output, &load)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn write(spec: &str, output: &Path, load: &LoadArgs) -> anyhow::Result<()> {
    // Before the graph is loaded: a convert onto its own input, or into a folder that is
    // not there, is refused at once.
    if !spec.starts_with("gen:") {
        wsim_harness::files::check_not_input(output, &[Path::new(spec)])?;
    }
    wsim_harness::files::check_output(output)?;
    let graph = Graph::from_spec(spec, &load.options())?;
    graph.write(output)?;
    println!(
        "wrote {}: {} vertices, {} edges",
        output.display(),
        graph.num_vertices(),
        graph.num_edges()
    );
    Ok(())
}

/// The `info` report: counts, then one row of degree statistics per direction.
fn info(spec: &str, graph: &Graph) -> String {
    let s = graph.stats();
    let mut out = String::new();
    let counts = [
        ("vertices", s.vertices),
        ("edges", s.edges),
        ("self loops", s.self_loops),
        ("parallel edges", s.duplicate_edges),
    ];
    let _ = writeln!(out, "{:<16}{spec}", "graph");
    for (name, value) in counts {
        let _ = writeln!(out, "{name:<16}{value:>12}");
    }
    let _ = writeln!(
        out,
        "\n{:<12}{:>8}{:>8}{:>11}{:>11}{:>10}{:>10}",
        "degree", "min", "max", "mean", "stddev", "skewness", "zero"
    );
    for (name, d) in [("out", s.out_degree), ("in", s.in_degree)] {
        let _ = writeln!(
            out,
            "{name:<12}{:>8}{:>8}{:>11.3}{:>11.3}{:>10.3}{:>10}",
            d.min, d.max, d.mean, d.stddev, d.skewness, d.zero
        );
    }
    out
}
