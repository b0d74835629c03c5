//! The `wsim` command line.

mod disasm;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "wsim", version, about = "Cycle-level simulator of a Vortex-like RISC-V SIMT GPU with SparseWeaver")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the disassembly of a program's code sections, with symbols as labels.
    Disasm {
        /// A 32-bit little-endian RISC-V ELF file.
        elf: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Disasm { elf } => disasm::run(&elf),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("wsim: {err:#}");
            ExitCode::FAILURE
        }
    }
}
