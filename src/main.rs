//! The `wsim` command line.

mod disasm;
mod experiment_cmd;
mod logging;
mod regress_cmd;
mod run;
mod trace;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use wsim::{exit, graph, graph_run, sweep, MachineArgs};

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
     configuration, graph or baseline
  3  run: the simulation failed (illegal instruction, bad access, deadlock, run.max_cycles)
  4  run: a graph program's result differs from the host reference
  5  regress check: a stale baseline (its program, configuration or graph changed
     since it was recorded) and nothing worse"
)]
struct Cli {
    /// Log more on stderr: -v what each stage did and how long it took, -vv the engine's
    /// events (launches, iterations), -vvv everything. `RUST_LOG` overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    /// Log only errors (no warnings).
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum ConfigCommand {
    /// Print the resolved configuration (TOML) and its hash.
    Show {
        #[command(flatten)]
        machine: MachineArgs,
    },
}

#[derive(Subcommand)]
enum Command {
    /// Run a program and print its console output, exit status and a summary. Exit
    /// status: 0 when the program exits 0 (and a graph program's result verifies), 1 when
    /// it exits non-zero, 2 when wsim cannot run it, 3 when the simulation fails, 4 when a
    /// graph program's result differs from the host reference.
    Run {
        #[command(flatten)]
        machine: MachineArgs,
        /// Also write every statistic as JSON (schema `wsim-stats/1`) to this file.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// What the process exit status tells when the simulation completes: `wsim`, the
        /// verdict (0 ok, 1 the program exited non-zero, 4 mismatch); `program`, the
        /// program's own status (its low byte; 1 when that is 0 but the status is not),
        /// for harnesses that decode it: then a program that returns 2, 3 or 4 cannot be
        /// told from wsim's own conditions without the JSON's `exit_code`.
        #[arg(long, value_enum, default_value_t = run::ExitStatus::Wsim)]
        exit_status: run::ExitStatus,
        /// Graph programs (those defining `wsim_graph`): the graph and its options.
        #[command(flatten)]
        graph: graph_run::GraphArgs,
        #[command(flatten)]
        trace: trace::TraceArgs,
        /// The program: a 32-bit RISC-V ELF executable.
        elf: PathBuf,
    },
    /// Configuration commands.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// Run programs over every combination of configuration values (`--vary`) and print
    /// one row per run as it finishes: cycles, instructions, IPC, cache hit rates, DRAM,
    /// Weaver statistics, the verdict. Runs go in parallel. Exits with 1 when any run
    /// fails, exits non-zero or does not verify.
    Sweep {
        #[command(flatten)]
        machine: MachineArgs,
        /// A key and the values it takes, e.g. `--vary weaver.table_latency=10,20,40,80,160`
        /// (repeatable, one key each: every combination runs).
        #[arg(long = "vary", value_name = "KEY=V1,V2,...")]
        vary: Vec<sweep::Axis>,
        #[command(flatten)]
        graph: graph_run::GraphArgs,
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
        /// The programs (each runs under every combination).
        #[arg(required = true)]
        programs: Vec<PathBuf>,
    },
    /// Print the disassembly of a program's code sections, with symbols as labels.
    Disasm {
        /// A 32-bit little-endian RISC-V ELF file.
        elf: PathBuf,
    },
    /// Graph inputs: statistics, generation, conversion.
    Graph {
        #[command(subcommand)]
        command: graph::GraphCommand,
    },
    /// Regression baselines of cycle counts: record them, check them (docs/REGRESS.md).
    Regress {
        #[command(subcommand)]
        command: regress_cmd::RegressCommand,
    },
    /// Experiments as data: an experiment file's runs, cached, into one table and plots,
    /// on this machine or as a Slurm job array (docs/EXPERIMENTS.md).
    Experiment {
        #[command(subcommand)]
        command: experiment_cmd::ExperimentCommand,
    },
    /// Draw one run's issue slots by reason per core and per phase (stacked bars, SVG)
    /// from its JSON report (`wsim run --json`).
    Plot {
        /// The run's report.
        report: PathBuf,
        /// The SVG to write [default: the report's name with .svg].
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    logging::init(cli.verbose, cli.quiet);
    let result = match cli.command {
        Command::Run {
            machine,
            json,
            exit_status,
            graph,
            trace,
            elf,
        } => run::run(&machine, &elf, json.as_ref(), &graph, &trace, exit_status),
        Command::Config {
            command: ConfigCommand::Show { machine },
        } => run::resolve_config(&machine).and_then(|config| {
            let text = format!("# config hash {}\n{}", config.hash(), config.to_toml());
            std::io::stdout().lock().write_all(text.as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }),
        Command::Sweep {
            machine,
            vary,
            graph,
            csv,
            json,
            ordered,
            programs,
        } => run::resolve_config(&machine)
            .and_then(|base| {
                let input = wsim_workloads::graph_run::load(&graph.options())?;
                let format = match (csv, json) {
                    (true, _) => sweep::Format::Csv,
                    (_, true) => sweep::Format::Json,
                    _ => sweep::Format::Table,
                };
                let options = sweep::Options { format, ordered };
                let mut out = std::io::stdout();
                sweep::sweep(&base, &vary, &programs, &input, options, &mut out)
            })
            .map(|failures| {
                if failures.is_empty() {
                    return ExitCode::SUCCESS;
                }
                eprintln!("wsim: {} run(s) did not succeed:", failures.len());
                for failure in &failures {
                    eprintln!("  {failure}");
                }
                ExitCode::from(exit::FAILED)
            }),
        Command::Disasm { elf } => disasm::run(&elf),
        Command::Graph { command } => graph::run(command),
        Command::Regress { command } => regress_cmd::run(command),
        Command::Experiment { command } => experiment_cmd::run(command),
        Command::Plot { report, output } => experiment_cmd::plot(&report, output),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("wsim: error: {err:#}");
            ExitCode::from(exit::CANNOT_RUN)
        }
    }
}
