//! `wsim plot`: one run's issue slots per core and per phase, from its JSON report.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

#[derive(Args)]
pub struct PlotArgs {
    /// The run's report.
    report: PathBuf,
    /// The SVG to write [default: the report's name with .svg].
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn exec(args: PlotArgs) -> anyhow::Result<ExitCode> {
    let out = args
        .output
        .unwrap_or_else(|| args.report.with_extension("svg"));
    wsim_harness::plot::run(&args.report, &out)?;
    println!("wrote {}", out.display());
    Ok(ExitCode::SUCCESS)
}
