//! The statistics of a run as a versioned JSON document. Everything but the `host` object
//! is a deterministic function of the program, its inputs and the configuration.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::config::Config;
use crate::machine::RunSummary;
use crate::mem::cache::WritePolicy;
use crate::mem::hierarchy::{HierarchyStats, MemConfig};
use crate::stats::{CoreCounters, CountKey, FsmState, Iteration, Merge};

/// Identifies the layout of the document; bump it when a field changes meaning.
pub const SCHEMA: &str = "wsim-stats/1";

/// Host-side measurements, kept apart because they differ from run to run.
#[derive(Clone, Debug, Serialize)]
pub struct HostTime {
    pub seconds: f64,
    pub cycles_per_second: f64,
    pub warp_instructions_per_second: f64,
}

impl HostTime {
    pub fn new(seconds: f64, summary: &RunSummary) -> Self {
        let per_second = |n: u64| {
            if seconds > 0.0 {
                n as f64 / seconds
            } else {
                0.0
            }
        };
        HostTime {
            seconds,
            cycles_per_second: per_second(summary.cycles),
            warp_instructions_per_second: per_second(summary.total().instructions),
        }
    }
}

#[derive(Serialize)]
struct CoreReport<'a> {
    id: usize,
    max_stack_depth: u64,
    total: CoreCounters,
    phases: &'a BTreeMap<u32, CoreCounters>,
}

/// The JSON report; `W` is what a workload adds (its `graph` object, null without one).
#[derive(Serialize)]
pub struct Report<'a, W: Serialize = ()> {
    schema: &'static str,
    program: &'a str,
    /// `ok`, or `failed` when the run stopped on an error: the statistics are then those up
    /// to the failure.
    status: &'static str,
    error: Option<String>,
    config_hash: String,
    config: &'a Config,
    exit_code: u32,
    cycles: u64,
    issue_slots_per_core: usize,
    /// The cores had the Weaver unit; the L1 data cache they had (bytes).
    weaver_unit: bool,
    l1d_size: u32,
    /// The unit was in EGHW mode because the program requires it (`wsim_requires_eghw`).
    eghw_by_program: bool,
    /// What a write does at each data-cache level the machine has (level -> policy).
    write_policy: BTreeMap<&'static str, WritePolicy>,
    /// Thread instructions / (warp instructions x threads per warp).
    simt_efficiency: f64,
    ipc: f64,
    total: CoreCounters,
    phases: BTreeMap<u32, CoreCounters>,
    /// The names the program gives its phases (`wsim_phase_names`): phase -> name, for the
    /// keys of `phases` and `memory_phases`; phases without a name are absent.
    phase_names: BTreeMap<u32, &'a str>,
    /// What each Weaver FSM state (the keys of `state_visits` and `state_cycles`) does.
    weaver_fsm_states: BTreeMap<&'static str, &'static str>,
    cores: Vec<CoreReport<'a>>,
    memory: &'a HierarchyStats,
    /// `memory` by phase: the events of the requests each phase made.
    memory_phases: &'a BTreeMap<u32, HierarchyStats>,
    /// The iterations the program marked (CSR 0x7C6), in order; empty when it marked none.
    iterations: &'a [Iteration],
    /// A workload's own record (a graph program's graph, kernel and verification); null
    /// for other programs.
    graph: Option<W>,
    host: Option<HostTime>,
}

impl<'a> Report<'a> {
    /// The report of a run without a workload record.
    pub fn new(
        config: &'a Config,
        program: &'a str,
        summary: &'a RunSummary,
        host: Option<HostTime>,
    ) -> Self {
        Report::build(config, program, summary, host, None)
    }
}

impl<'a, W: Serialize> Report<'a, W> {
    /// The report of a run with a workload's record, if it has one (a graph program's
    /// `graph` object).
    pub fn with_workload(
        config: &'a Config,
        program: &'a str,
        summary: &'a RunSummary,
        host: Option<HostTime>,
        record: Option<W>,
    ) -> Self {
        Report::build(config, program, summary, host, record)
    }

    fn build(
        config: &'a Config,
        program: &'a str,
        summary: &'a RunSummary,
        host: Option<HostTime>,
        graph: Option<W>,
    ) -> Self {
        let total = summary.total();
        let mut phases: BTreeMap<u32, CoreCounters> = BTreeMap::new();
        for core in &summary.cores {
            for (phase, c) in &core.phases {
                phases.entry(*phase).or_default().merge(c);
            }
        }
        let threads = f64::from(config.gpu.threads_per_warp);
        let ratio = |a: u64, b: f64| if b > 0.0 { a as f64 / b } else { 0.0 };
        Report {
            schema: SCHEMA,
            program,
            status: "ok",
            error: None,
            config_hash: config.hash(),
            config,
            exit_code: summary.exit_code,
            cycles: summary.cycles,
            issue_slots_per_core: summary.slices,
            weaver_unit: summary.weaver,
            l1d_size: summary.l1d_size,
            eghw_by_program: summary.eghw_by_program,
            write_policy: write_policies(&config.memory).into_iter().collect(),
            simt_efficiency: ratio(
                total.thread_instructions,
                total.instructions as f64 * threads,
            ),
            ipc: ratio(total.instructions, summary.cycles as f64),
            phases,
            phase_names: (0..)
                .zip(&summary.phase_names)
                .map(|(p, n)| (p, n.as_str()))
                .collect(),
            weaver_fsm_states: FsmState::ALL
                .iter()
                .map(|&s| (CountKey::name(s), s.meaning()))
                .collect(),
            cores: summary
                .cores
                .iter()
                .enumerate()
                .map(|(id, c)| CoreReport {
                    id,
                    max_stack_depth: c.max_stack_depth,
                    total: c.total(),
                    phases: &c.phases,
                })
                .collect(),
            total,
            memory: &summary.memory,
            memory_phases: &summary.memory.phases,
            iterations: &summary.iterations,
            graph,
            host,
        }
    }

    /// The report of a run that stopped on `error` (its statistics up to the failure).
    pub fn failed(mut self, error: &crate::SimError) -> Self {
        self.status = "failed";
        self.error = Some(error.to_string());
        self
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serializes")
    }
}

/// The write policy of each data-cache level the machine has, from the L1 down.
pub fn write_policies(m: &MemConfig) -> Vec<(&'static str, WritePolicy)> {
    let mut levels = vec![("l1d", m.l1d.write_policy)];
    if m.l2_enabled {
        levels.push(("l2", m.l2.write_policy));
    }
    if m.l3_enabled {
        levels.push(("l3", m.l3.write_policy));
    }
    levels
}
