//! The `wsim` command line: each command (`commands/<command>.rs`) turns its arguments
//! into the harness's requests and prints what comes back; `args.rs` holds the options
//! several commands share.

/// A line on stderr, like `eprintln!` but ignoring a stderr that cannot be written (closed,
/// a full device): a message must never turn into a panic or change the exit status.
macro_rules! stderr_line {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod args;
mod commands;
mod logging;

use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use wsim_harness::exit;

use commands::{config, disasm, experiment, graph, plot, regress, run, sweep, tables};

#[derive(Parser)]
#[command(
    name = "wsim",
    version,
    about = "Cycle-level simulator of a Vortex-like RISC-V SIMT GPU with SparseWeaver",
    after_help = "Exit status (wsim's own, one meaning each):
  0  success
  1  run: the program exited non-zero (its status is on the report's `exit status`
     line and in the JSON's `exit_code`; `--exit-status program` exits with it);
     sweep: a run failed, exited non-zero or did not verify; regress check: a regression
  2  could not run: bad arguments, or an unreadable or invalid program,
     configuration, graph or baseline, too little memory for it, or an output that
     cannot be written
  3  run: the simulation failed (illegal instruction, bad access, deadlock, run.max_cycles,
     or another limit of what a program may make wsim hold)
  4  run: a graph program's result differs from the host reference
  5  regress check: a stale baseline (its program, configuration or graph changed
     since it was recorded) and nothing worse
  130, 143  stopped by SIGINT (Ctrl-C) or SIGTERM (128 + the signal): run writes its
     report and --json up to the cycle it stopped at, status `interrupted`; sweep,
     experiment and regress keep the runs that finished (an experiment's cache has
     them) and start no other; a second signal ends wsim at once"
)]
struct Cli {
    /// Log more on stderr: -v what each stage did and how long it took, -vv the engine's
    /// events (launches, iterations), -vvv everything. `RUST_LOG` overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    /// Log only errors (no warnings).
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Host memory wsim may plan to use, e.g. 8G: a graph, or a run's graph and arrays,
    /// that would take more is refused before it is allocated, naming the bytes
    /// [default: what the host has available: MemAvailable, ulimit -v, the cgroup's limit].
    #[arg(long, global = true, value_name = "SIZE", value_parser = wsim_graph::memory::parse_size)]
    max_memory: Option<u64>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a program and print its console output, exit status and a summary. Exit
    /// status: 0 when the program exits 0 (and a graph program's result verifies), 1 when
    /// it exits non-zero, 2 when wsim cannot run it, 3 when the simulation fails, 4 when a
    /// graph program's result differs from the host reference.
    Run(run::RunArgs),
    /// Configuration commands.
    Config {
        #[command(subcommand)]
        command: config::ConfigCommand,
    },
    /// Run programs over every combination of configuration values (`--vary`) and print
    /// one row per run as it finishes: cycles, instructions, IPC, cache hit rates, DRAM,
    /// Weaver statistics, the verdict. Runs go in parallel. Exits with 1 when any run
    /// fails, exits non-zero or does not verify.
    Sweep(sweep::SweepArgs),
    /// Print the disassembly of a program's code sections, with symbols as labels.
    Disasm(disasm::DisasmArgs),
    /// Graph inputs: statistics, generation, conversion.
    Graph {
        #[command(subcommand)]
        command: graph::GraphCommand,
    },
    /// Regression baselines of cycle counts: record them, check them (docs/REGRESS.md).
    Regress {
        #[command(subcommand)]
        command: regress::RegressCommand,
    },
    /// Experiments as data: an experiment file's runs, cached, into one table and plots,
    /// on this machine or as a Slurm job array (docs/EXPERIMENTS.md).
    Experiment {
        #[command(subcommand)]
        command: experiment::ExperimentCommand,
    },
    /// Draw a figure (SVG, and a PDF beside it) of a table of runs (a sweep's `--csv`, an
    /// experiment's table: lines, speedups or breakdowns), or of one run's issue slots by
    /// reason per core and per phase from its JSON report (`wsim run --json`).
    Plot(plot::PlotArgs),
    /// The documentation's measured tables (Markdown) from experiment tables and run
    /// reports: KERNELS.md's schedule tables, GCN.md's designs (docs/KERNELS.md).
    Tables {
        #[command(subcommand)]
        command: tables::TablesCommand,
    },
}

/// SIGINT and SIGTERM stop the runs at their next cycle (`wsim_harness::interrupt`); a
/// second one ends the process at once.
fn stop_on_signals() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::flag;
    let stop = wsim_harness::interrupt::flag();
    for signal in [SIGINT, SIGTERM] {
        let code = 128 + signal;
        let registered = flag::register_conditional_shutdown(signal, code, Arc::clone(&stop))
            .and_then(|_| flag::register(signal, Arc::clone(&stop)))
            .and_then(|_| {
                let slot = wsim_harness::interrupt::signal_slot();
                flag::register_usize(signal, slot, signal as usize)
            });
        if let Err(e) = registered {
            tracing::warn!("signal {signal} will end wsim without its statistics: {e}");
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    logging::init(cli.verbose, cli.quiet);
    stop_on_signals();
    if let Some(bytes) = cli.max_memory {
        wsim_graph::memory::set_budget(bytes);
    }
    let result = match cli.command {
        Command::Run(args) => run::exec(args),
        Command::Config { command } => config::exec(command),
        Command::Sweep(args) => sweep::exec(args),
        Command::Disasm(args) => disasm::exec(args),
        Command::Graph { command } => graph::exec(command),
        Command::Regress { command } => regress::exec(command),
        Command::Experiment { command } => experiment::exec(command),
        Command::Plot(args) => plot::exec(args),
        Command::Tables { command } => tables::exec(command),
    };
    match result {
        Ok(code) => code,
        Err(err) if err.is::<wsim_harness::interrupt::Interrupted>() => {
            stderr_line!("wsim: {err:#}");
            ExitCode::from(wsim_harness::interrupt::exit_status())
        }
        Err(err) => {
            stderr_line!("wsim: error: {err:#}");
            ExitCode::from(exit::CANNOT_RUN)
        }
    }
}
