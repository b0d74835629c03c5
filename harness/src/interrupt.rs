//! Stopping on SIGINT or SIGTERM: the flag the `wsim` binary's signal handlers set (with the
//! signal's number), which every machine of the run path watches ([`Machine::stop_when`]):
//! a run stops at its next cycle with its statistics up to then, marked interrupted; a
//! batch ([`crate::run::run_many`]) starts no further run and keeps (hands its caller) only
//! the runs that finished.
//!
//! [`Machine::stop_when`]: wsim_sim::Machine::stop_when

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The flag: set once a stop is asked for.
pub fn flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    Arc::clone(FLAG.get_or_init(Arc::default))
}

/// Where the handler writes the signal's number.
pub fn signal_slot() -> Arc<AtomicUsize> {
    static SIGNAL: OnceLock<Arc<AtomicUsize>> = OnceLock::new();
    Arc::clone(SIGNAL.get_or_init(Arc::default))
}

/// Whether a stop was asked for.
pub fn requested() -> bool {
    flag().load(Ordering::Relaxed)
}

/// The process exit status of a stopped command: 128 + the signal's number (130 for
/// SIGINT, 143 for SIGTERM), as shells report a process a signal ended.
pub fn exit_status() -> u8 {
    match signal_slot().load(Ordering::Relaxed) {
        0 => 130,
        n => (128 + n).min(255) as u8,
    }
}

/// The error of a batch that was stopped: how many of its runs finished (and were handed
/// to the caller: an experiment's cache keeps them).
#[derive(Debug)]
pub struct Interrupted {
    pub finished: usize,
    pub runs: usize,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "interrupted: {} of {} finished (kept); the rest stopped or never started",
            self.finished,
            crate::count(self.runs, "run", "runs")
        )
    }
}

impl std::error::Error for Interrupted {}
