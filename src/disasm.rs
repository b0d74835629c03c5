//! `wsim disasm`: placeholder (being written).
use std::path::Path;
use std::process::ExitCode;

pub fn run(_elf: &Path) -> anyhow::Result<ExitCode> {
    Ok(ExitCode::SUCCESS)
}
