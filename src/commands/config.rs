//! `wsim config show`: the resolved configuration and its hash.

use std::io::Write as _;
use std::process::ExitCode;

use clap::Subcommand;

use crate::args::MachineArgs;

#[derive(Subcommand)]
pub enum ConfigCommand {
    /// Print the resolved configuration (TOML) and its hash.
    Show {
        #[command(flatten)]
        machine: MachineArgs,
    },
}

pub fn exec(command: ConfigCommand) -> anyhow::Result<ExitCode> {
    let ConfigCommand::Show { machine } = command;
    let config = machine.config()?;
    let text = format!("# config hash {}\n{}", config.hash(), config.to_toml());
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
