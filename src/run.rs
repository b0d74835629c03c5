//! `wsim run`: load, run, report.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use wsim_sim::{Config, Machine};

use crate::MachineArgs;

/// The configuration the machine options select.
pub fn resolve_config(args: &MachineArgs) -> anyhow::Result<Config> {
    let base = match &args.config {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read configuration {}", path.display()))?;
            Config::from_toml(&text, &path.display().to_string())?
        }
        None => Config::default(),
    };
    Ok(base.with_overrides(&args.overrides)?)
}

pub fn run(args: &MachineArgs, elf: &Path) -> anyhow::Result<ExitCode> {
    let config = resolve_config(args)?;
    let bytes = std::fs::read(elf).with_context(|| format!("cannot read {}", elf.display()))?;
    let mut machine =
        Machine::new(&config, &bytes).map_err(|e| anyhow::anyhow!("{}: {e}", elf.display()))?;
    let started = std::time::Instant::now();
    let result = machine.run();
    let seconds = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    out.write_all(&machine.shared.console)?;
    let summary = result.map_err(|e| anyhow::anyhow!("{}: {e}", elf.display()))?;
    let total = summary.total();
    let g = &machine.shared.geometry;
    writeln!(out, "--- wsim: {} ---", elf.display())?;
    writeln!(out, "exit status         {}", summary.exit_code)?;
    writeln!(
        out,
        "machine             {} cores x {} warps x {} threads (config {})",
        g.cores,
        g.warps,
        g.threads,
        config.hash()
    )?;
    writeln!(out, "cycles              {}", summary.cycles)?;
    writeln!(out, "warp instructions   {}", total.instructions)?;
    writeln!(out, "thread instructions {}", total.thread_instructions)?;
    if total.instructions > 0 {
        let efficiency =
            total.thread_instructions as f64 / (total.instructions as f64 * f64::from(g.threads));
        writeln!(out, "SIMT efficiency     {:.1}%", 100.0 * efficiency)?;
    }
    writeln!(
        out,
        "branches            {} ({} divergent, max SIMT stack depth {})",
        total.branches, total.divergent_branches, total.max_stack_depth
    )?;
    for (id, c) in summary.per_core.iter().enumerate() {
        writeln!(
            out,
            "core {id:<3}            {} warp instr, {} thread instr, {} loads, {} stores, {} atomics, {} barriers",
            c.instructions, c.thread_instructions, c.loads, c.stores, c.atomics, c.barriers
        )?;
    }
    if seconds > 0.0 {
        writeln!(
            out,
            "host                {:.3} s, {:.0} warp instr/s",
            seconds,
            total.instructions as f64 / seconds
        )?;
    }
    Ok(exit_code(summary.exit_code))
}

/// The process exit status for a program's: its low byte, but never 0 for a failure.
fn exit_code(code: u32) -> ExitCode {
    match code {
        0 => ExitCode::SUCCESS,
        c if c & 0xFF == 0 => ExitCode::FAILURE,
        c => ExitCode::from(c as u8),
    }
}
