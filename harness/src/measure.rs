//! One run to its report, without printing: the JSON `wsim run --json` writes (schema
//! `wsim-stats/1`), also for a simulation that failed (its statistics up to the failure),
//! which sweeps and experiments turn into rows and keep.

use std::time::Instant;

use serde_json::Value;
use wsim_sim::report::{HostTime, Report};
use wsim_sim::{Config, Machine, RunSummary};
use wsim_workloads::graph_image;

use wsim_workloads::graph_run::{self, GraphInput};

/// What one run left.
#[derive(Clone, Debug)]
pub struct Measured {
    /// The run's report; `None` when it could not be set up (an invalid program, graph
    /// options that do not fit it).
    pub report: Option<Value>,
    /// Why the run did not complete (set-up or simulation error); `None` when it ran to its
    /// end (whatever its exit status or verdict).
    pub error: Option<String>,
}

/// Run `elf` (called `name` in the report) on `config` as `wsim run` does: a graph
/// program on `graph`, verified after the run.
pub fn measure(config: &Config, name: &str, elf: &[u8], graph: &GraphInput) -> Measured {
    let setup_error = |error: String| Measured {
        report: None,
        error: Some(error),
    };
    let mut machine = match Machine::new(config, elf) {
        Ok(machine) => machine,
        Err(e) => return setup_error(e.to_string()),
    };
    let placed = match graph_run::place(&mut machine, graph) {
        Ok(placed) => placed,
        Err(e) => return setup_error(format!("{e:#}")),
    };
    let started = Instant::now();
    let result = machine.run();
    let seconds = started.elapsed().as_secs_f64();
    let (summary, error) = match result {
        Ok(summary) => (summary, None),
        Err(e) => (machine.summary(None), Some(e)),
    };
    let host = HostTime::new(seconds, &summary);
    let record = placed.as_ref().map(|placed| {
        let mismatches = match &error {
            None => graph_run::check(&machine, placed, summary.exit_code),
            Some(_) => None,
        };
        let supersteps = graph_image::supersteps(&machine, &placed.layout);
        graph_run::record(placed, supersteps, mismatches.as_deref())
    });
    let mut report = Report::with_workload(config, name, &summary, Some(host), record);
    if let Some(e) = &error {
        report = report.failed(e);
    }
    let json = serde_json::from_str(&report.to_json()).expect("a report is JSON");
    Measured {
        report: Some(json),
        error: error.map(|e| e.to_string()),
    }
}

/// Why a run has no statistics.
#[derive(Clone, Debug, PartialEq)]
pub enum RunError {
    /// The run could not start: the program is not a valid ELF for the machine, or its
    /// graph options do not fit it.
    Setup(String),
    /// The simulation failed (an illegal instruction, a deadlock, `run.max_cycles` ...);
    /// `graph`: the program is a graph program, whose graph was laid out.
    Simulation { message: String, graph: bool },
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Setup(message) | RunError::Simulation { message, .. } => f.write_str(message),
        }
    }
}

/// A run to its end: the statistics and, for a graph program, whether its result matched
/// the host reference (`None`: not a graph program).
pub struct Finished {
    pub summary: RunSummary,
    pub verified: Option<bool>,
}

/// Run a program as `wsim run` does, without printing: a graph program on `graph`,
/// verified after the run.
pub fn simulate(config: &Config, elf: &[u8], graph: &GraphInput) -> Result<Finished, RunError> {
    let mut machine =
        crate::load_program(config, elf).map_err(|e| RunError::Setup(e.to_string()))?;
    let placed =
        graph_run::place(&mut machine, graph).map_err(|e| RunError::Setup(format!("{e:#}")))?;
    let summary = crate::run_program(&mut machine, false).map_err(|e| RunError::Simulation {
        message: e.to_string(),
        graph: placed.is_some(),
    })?;
    let verified = placed
        .map(|p| graph_run::check(&machine, &p, summary.exit_code).is_some_and(|m| m.is_empty()));
    Ok(Finished { summary, verified })
}
