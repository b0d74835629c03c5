//! `wsim sweep`: programs over every combination of configuration values, a row per run.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use wsim_harness::exit;
use wsim_harness::sweep::{self, Axis, Format};

use crate::args::{GraphArgs, JobsArgs, MachineArgs};

#[derive(Args)]
pub struct SweepArgs {
    #[command(flatten)]
    machine: MachineArgs,
    /// A key and the values it takes, e.g. `--vary weaver.table_latency=10,20,40,80,160`
    /// (repeatable, one key each: every combination runs).
    #[arg(long = "vary", value_name = "KEY=V1,V2,...")]
    vary: Vec<Axis>,
    #[command(flatten)]
    graph: GraphArgs,
    /// Print CSV instead of an aligned table.
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    /// Print JSON lines (one object per run, keyed by column) instead of a table.
    #[arg(long)]
    json: bool,
    /// Print the rows in the runs' order (programs, then combinations) instead of as
    /// they finish.
    #[arg(long)]
    ordered: bool,
    #[command(flatten)]
    jobs: JobsArgs,
    /// The programs (each runs under every combination).
    #[arg(required = true)]
    programs: Vec<PathBuf>,
}

pub fn exec(args: SweepArgs) -> anyhow::Result<ExitCode> {
    args.jobs.apply()?;
    let base = args.machine.config()?;
    let input = wsim_workloads::graph_run::load(&args.graph.options())?;
    let format = match (args.csv, args.json) {
        (true, _) => Format::Csv,
        (_, true) => Format::Json,
        _ => Format::Table,
    };
    let options = sweep::Options {
        format,
        ordered: args.ordered,
    };
    let mut out = std::io::stdout();
    let input = std::sync::Arc::new(input);
    let failures = sweep::sweep(&base, &args.vary, &args.programs, &input, options, &mut out)?;
    if failures.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    stderr_line!("wsim: {} run(s) did not succeed:", failures.len());
    for failure in &failures {
        stderr_line!("  {failure}");
    }
    Ok(ExitCode::from(exit::FAILED))
}
