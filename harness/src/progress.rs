//! Progress on stderr with `indicatif`, drawn only when stderr is a terminal: never into
//! a pipe, a log file or CI's output (a hidden bar costs nothing but its counters).
//! Two kinds: a long simulation's cycles and instructions with their rates, and a batch of
//! runs (sweep, experiment, regression check) done out of the total with an ETA.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};
use wsim_sim::{Machine, RunSummary, SimResult};

/// Simulated cycles between two looks at a running simulation (a fraction of a second at
/// any speed wsim reaches, so the rates stay current).
const OBSERVE_EVERY: u64 = 1 << 16;
/// A simulation shorter than this shows no progress at all (no flicker for quick runs).
const QUIET_FOR: Duration = Duration::from_millis(500);

/// Whether progress is drawn: stderr is a terminal.
pub fn visible() -> bool {
    std::io::stderr().is_terminal()
}

/// A bar of `total` runs of `what` (`sweep`, `experiment NAME` ...): done/total, elapsed,
/// ETA, and a message (failures so far). Hidden unless stderr is a terminal.
pub fn runs(total: u64, what: &str) -> ProgressBar {
    if !visible() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} runs, {elapsed} elapsed, ETA {eta} {msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.set_prefix(what.to_string());
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// Run `machine` to its end, showing simulated cycles and warp instructions with their
/// rates on stderr while it runs (once it has run for [`QUIET_FOR`]).
pub fn simulate(machine: &mut Machine) -> SimResult<RunSummary> {
    if !visible() {
        return machine.run();
    }
    let started = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    let result = machine.run_observed(OBSERVE_EVERY, |p| {
        let elapsed = started.elapsed();
        if elapsed < QUIET_FOR {
            return;
        }
        let seconds = elapsed.as_secs_f64();
        let message = format!(
            "{} cycles ({}/s), {} warp instr ({}/s)",
            HumanCount(p.cycles),
            HumanCount((p.cycles as f64 / seconds) as u64),
            HumanCount(p.instructions),
            HumanCount((p.instructions as f64 / seconds) as u64)
        );
        match &bar {
            Some(bar) => bar.set_message(message),
            None => {
                let new = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                new.set_style(
                    ProgressStyle::with_template("{spinner} simulating: {msg}, {elapsed}")
                        .expect("a valid template"),
                );
                new.set_message(message);
                new.enable_steady_tick(Duration::from_millis(200));
                bar = Some(new);
            }
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    result
}
