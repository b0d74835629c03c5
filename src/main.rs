//! The `wsim` command line.

mod disasm;
mod graph;
mod graph_run;
mod run;
mod sweep;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "wsim",
    version,
    about = "Cycle-level simulator of a Vortex-like RISC-V SIMT GPU with SparseWeaver"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Options that select the machine, shared by every command that builds one.
#[derive(Args, Clone, Debug)]
pub struct MachineArgs {
    /// Configuration file (TOML). Without it, the built-in default (Vortex SimX) is used.
    #[arg(long, short = 'c', value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Override a configuration key, e.g. `--set gpu.warps_per_core=8` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub overrides: Vec<String>,
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
    /// Run a program and print its console output, exit status and a summary. The
    /// process exits with the program's exit status (2 if the simulation itself fails, 3 if
    /// a graph program's result differs from the host reference).
    Run {
        #[command(flatten)]
        machine: MachineArgs,
        /// Also write every statistic as JSON (schema `wsim-stats/1`) to this file.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Graph programs (those defining `wsim_graph`): the graph and its options.
        #[command(flatten)]
        graph: graph_run::GraphArgs,
        /// The program: a 32-bit RISC-V ELF executable.
        elf: PathBuf,
    },
    /// Configuration commands.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// Run programs over every combination of configuration values (`--vary`) and print
    /// one row per run: cycles, instructions, IPC, Weaver stalls. Runs go in parallel.
    /// Exits with 3 when any run fails, exits non-zero or does not verify.
    Sweep {
        #[command(flatten)]
        machine: MachineArgs,
        /// A key and the values it takes, e.g. `--vary weaver.table_latency=10,20,40,80,160`
        /// (repeatable: every combination runs).
        #[arg(long = "vary", value_name = "KEY=V1,V2,...")]
        vary: Vec<sweep::Axis>,
        #[command(flatten)]
        graph: graph_run::GraphArgs,
        /// Print CSV instead of an aligned table.
        #[arg(long)]
        csv: bool,
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run {
            machine,
            json,
            graph,
            elf,
        } => run::run(&machine, &elf, json.as_ref(), &graph),
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
            programs,
        } => run::resolve_config(&machine)
            .and_then(|base| {
                let input = graph_run::load(&graph)?;
                sweep::sweep(&base, &vary, &programs, &input, csv)
            })
            .and_then(|outcome| {
                std::io::stdout()
                    .lock()
                    .write_all(outcome.table.as_bytes())?;
                if outcome.failures.is_empty() {
                    return Ok(ExitCode::SUCCESS);
                }
                eprintln!("wsim: {} run(s) did not succeed:", outcome.failures.len());
                for failure in &outcome.failures {
                    eprintln!("  {failure}");
                }
                Ok(ExitCode::from(3))
            }),
        Command::Disasm { elf } => disasm::run(&elf),
        Command::Graph { command } => graph::run(command),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("wsim: error: {err:#}");
            ExitCode::from(2)
        }
    }
}
