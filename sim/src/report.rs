//! The statistics of a run as a versioned JSON document. Everything but the `host` object
//! is a deterministic function of the program, its inputs and the configuration.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::counts::Architectural;
use crate::machine::{Mode, RunSummary};
use crate::mem::cache::WritePolicy;
use crate::mem::hierarchy::{HierarchyStats, MemConfig};
use crate::profile::Profile;
use crate::stats::{CoreCounters, CountKey, FsmState, Iteration, LaunchRecord, Merge, Sampling};

/// Identifies the layout of the document; bump it when a field changes meaning.
pub const SCHEMA: &str = "wsim-stats/1";

/// Host-side measurements, kept apart because they differ from run to run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

/// Whether a run went to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    /// The run stopped on an error: the statistics are those up to the failure.
    Failed,
    /// The host stopped the run before its end (a SIGINT): the statistics are partial.
    Interrupted,
}

/// One core's statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CoreReport {
    pub id: usize,
    pub max_stack_depth: u64,
    pub total: CoreCounters,
    pub phases: BTreeMap<u32, CoreCounters>,
}

/// The JSON report, typed: written by `to_json`, read back with serde (a field that
/// changes name or meaning fails to read instead of reading as nothing). `W` is what a
/// workload adds (its `graph` object, null without one). The derived figures (IPC, SIMT
/// efficiency, the phases summed over cores) are computed here, once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "W: Deserialize<'de>"))]
pub struct Report<W = ()> {
    pub schema: String,
    pub program: String,
    /// How the run was simulated; a functional run's document leaves out everything only
    /// the timing model measures ([`Report::to_json`]).
    #[serde(default, skip_serializing_if = "Mode::is_detailed")]
    pub mode: Mode,
    pub status: Status,
    pub error: Option<String>,
    pub config_hash: String,
    pub config: Config,
    pub exit_code: u32,
    pub cycles: u64,
    pub issue_slots_per_core: usize,
    /// The cores had the Weaver unit; the L1 data cache they had (bytes).
    pub weaver_unit: bool,
    pub l1d_size: u32,
    /// The unit was in EGHW mode because the program requires it (`wsim_requires_eghw`).
    pub eghw_by_program: bool,
    /// What a write does at each data-cache level the machine has (level -> policy).
    pub write_policy: BTreeMap<String, WritePolicy>,
    /// Thread instructions / (warp instructions x threads per warp).
    pub simt_efficiency: f64,
    /// Warp instructions per cycle, all cores.
    pub ipc: f64,
    pub total: CoreCounters,
    /// Every core's counters of each phase, summed.
    pub phases: BTreeMap<u32, CoreCounters>,
    /// The names the program gives its phases (`wsim_phase_names`): phase -> name, for the
    /// keys of `phases` and `memory_phases`; phases without a name are absent.
    pub phase_names: BTreeMap<u32, String>,
    /// What each Weaver FSM state (the keys of `state_visits` and `state_cycles`) does.
    pub weaver_fsm_states: BTreeMap<String, String>,
    pub cores: Vec<CoreReport>,
    /// The memory system's statistics (its `phases` are in `memory_phases`).
    pub memory: HierarchyStats,
    /// `memory` by phase: the events of the requests each phase made.
    pub memory_phases: BTreeMap<u32, HierarchyStats>,
    /// The iterations the program marked (CSR 0x7C6), in order; empty when it marked none.
    pub iterations: Vec<Iteration>,
    /// The kernel launches (`vx_wspawn`), in order; empty when the program spawned none.
    #[serde(default)]
    pub launches: Vec<LaunchRecord>,
    /// Issue slots and instructions by PC, folded to functions and lines (`wsim run
    /// --profile-pc`); absent from runs without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<Profile>,
    /// How a sampled run's cycles were estimated (its `cycles` is the estimate, rounded),
    /// or that the sampler simulated the run whole (`whole_run`: a detailed run's report);
    /// absent from other runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<Sampling>,
    /// A workload's own record (a graph program's graph, kernel and verification); null
    /// for other programs.
    pub graph: Option<W>,
    pub host: Option<HostTime>,
}

impl Report {
    /// The report of a run without a workload record.
    pub fn new(
        config: &Config,
        program: &str,
        summary: &RunSummary,
        host: Option<HostTime>,
    ) -> Self {
        Report::with_workload(config, program, summary, host, None)
    }
}

impl<W: Serialize> Report<W> {
    /// The report of a run with a workload's record, if it has one (a graph program's
    /// `graph` object).
    pub fn with_workload(
        config: &Config,
        program: &str,
        summary: &RunSummary,
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
        let mut memory = summary.memory.clone();
        let memory_phases = std::mem::take(&mut memory.phases);
        Report {
            schema: SCHEMA.to_string(),
            program: program.to_string(),
            mode: summary.mode,
            status: Status::Ok,
            error: None,
            config_hash: config.hash(),
            config: config.clone(),
            exit_code: summary.exit_code,
            cycles: summary.cycles,
            issue_slots_per_core: summary.slices,
            weaver_unit: summary.weaver,
            l1d_size: summary.l1d_size,
            eghw_by_program: summary.eghw_by_program,
            write_policy: write_policies(&config.memory)
                .into_iter()
                .map(|(level, policy)| (level.to_string(), policy))
                .collect(),
            simt_efficiency: ratio(
                total.thread_instructions,
                total.instructions as f64 * threads,
            ),
            ipc: ratio(total.instructions, summary.cycles as f64),
            phases,
            phase_names: (0..).zip(summary.phase_names.iter().cloned()).collect(),
            weaver_fsm_states: FsmState::ALL
                .iter()
                .map(|&s| (CountKey::name(s).to_string(), s.meaning().to_string()))
                .collect(),
            cores: summary
                .cores
                .iter()
                .enumerate()
                .map(|(id, c)| CoreReport {
                    id,
                    max_stack_depth: c.max_stack_depth,
                    total: c.total(),
                    phases: c.phases.clone(),
                })
                .collect(),
            total,
            memory,
            memory_phases,
            iterations: summary.iterations.clone(),
            launches: summary.launches.clone(),
            profile: summary.profile.clone(),
            sampling: summary.sampling.clone(),
            graph,
            host,
        }
    }

    /// The report of a run that stopped on `error` (its statistics up to the failure).
    pub fn failed(mut self, error: &crate::SimError) -> Self {
        self.status = match error.kind {
            crate::error::ErrorKind::Stopped => Status::Interrupted,
            _ => Status::Failed,
        };
        self.error = Some(error.to_string());
        self
    }

    /// The JSON document; a functional run's without what it did not measure: no cycles,
    /// IPC, issue slots, memory system or interval extents, and of the counters only those
    /// the architecture determines ([`Architectural`]). A sampled run's is a functional
    /// one's with the estimated cycles and how they were estimated.
    pub fn to_json(&self) -> String {
        match self.mode {
            Mode::Detailed => serde_json::to_string_pretty(self),
            Mode::Functional | Mode::Sampled => {
                serde_json::to_string_pretty(&FunctionalReport::of(self))
            }
        }
        .expect("a report always serializes")
    }
}

/// A functional run's [`Report`] as its JSON document has it.
#[derive(Serialize)]
struct FunctionalReport<'a, W> {
    schema: &'a str,
    program: &'a str,
    mode: Mode,
    status: Status,
    error: &'a Option<String>,
    config_hash: &'a str,
    config: &'a Config,
    exit_code: u32,
    /// A sampled run's estimate.
    #[serde(skip_serializing_if = "Option::is_none")]
    cycles: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sampling: Option<&'a Sampling>,
    weaver_unit: bool,
    eghw_by_program: bool,
    simt_efficiency: f64,
    total: Architectural<'a, CoreCounters>,
    phases: BTreeMap<u32, Architectural<'a, CoreCounters>>,
    phase_names: &'a BTreeMap<u32, String>,
    weaver_fsm_states: &'a BTreeMap<String, String>,
    cores: Vec<FunctionalCore<'a>>,
    iterations: Vec<FunctionalInterval<'a>>,
    launches: Vec<FunctionalInterval<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<FunctionalProfile<'a>>,
    graph: &'a Option<W>,
    host: Option<FunctionalHost>,
}

#[derive(Serialize)]
struct FunctionalCore<'a> {
    id: usize,
    max_stack_depth: u64,
    total: Architectural<'a, CoreCounters>,
    phases: BTreeMap<u32, Architectural<'a, CoreCounters>>,
}

/// An iteration or a launch without its extent in cycles or its memory events.
#[derive(Serialize)]
struct FunctionalInterval<'a> {
    index: u32,
    /// A launch's kernel (a sampled run's clusters are named by their first launch).
    #[serde(skip_serializing_if = "Option::is_none")]
    kernel: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    active: Option<u32>,
    counters: Architectural<'a, CoreCounters>,
}

/// The profile's instructions by PC, function and line, without issue slots.
#[derive(Serialize)]
struct FunctionalProfile<'a> {
    functions: Vec<ProfileRow<'a>>,
    lines: Vec<ProfileRow<'a>>,
    instructions: Vec<ProfileRow<'a>>,
}

#[derive(Serialize)]
struct ProfileRow<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pc: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    disasm: Option<&'a str>,
    instructions: u64,
    thread_instructions: u64,
}

#[derive(Serialize)]
struct FunctionalHost {
    seconds: f64,
    warp_instructions_per_second: f64,
}

impl<'a, W> FunctionalReport<'a, W> {
    fn of(r: &'a Report<W>) -> Self {
        let phases = |p: &'a BTreeMap<u32, CoreCounters>| {
            (p.iter()).map(|(&k, c)| (k, Architectural(c))).collect()
        };
        FunctionalReport {
            schema: &r.schema,
            program: &r.program,
            mode: r.mode,
            status: r.status,
            error: &r.error,
            config_hash: &r.config_hash,
            config: &r.config,
            exit_code: r.exit_code,
            cycles: r.sampling.as_ref().map(|_| r.cycles),
            sampling: r.sampling.as_ref(),
            weaver_unit: r.weaver_unit,
            eghw_by_program: r.eghw_by_program,
            simt_efficiency: r.simt_efficiency,
            total: Architectural(&r.total),
            phases: phases(&r.phases),
            phase_names: &r.phase_names,
            weaver_fsm_states: &r.weaver_fsm_states,
            cores: (r.cores.iter())
                .map(|c| FunctionalCore {
                    id: c.id,
                    max_stack_depth: c.max_stack_depth,
                    total: Architectural(&c.total),
                    phases: phases(&c.phases),
                })
                .collect(),
            iterations: (r.iterations.iter())
                .map(|i| FunctionalInterval {
                    index: i.index,
                    kernel: None,
                    active: Some(i.active),
                    counters: Architectural(&i.counters),
                })
                .collect(),
            launches: (r.launches.iter())
                .map(|l| FunctionalInterval {
                    index: l.index,
                    kernel: l.kernel.as_deref(),
                    active: None,
                    counters: Architectural(&l.counters),
                })
                .collect(),
            profile: r.profile.as_ref().map(|p| {
                let folded = |rows: &'a [crate::profile::Folded]| {
                    (rows.iter())
                        .map(|f| ProfileRow {
                            pc: None,
                            name: Some(&f.name),
                            disasm: None,
                            instructions: f.counts.instructions,
                            thread_instructions: f.counts.thread_instructions,
                        })
                        .collect()
                };
                FunctionalProfile {
                    functions: folded(&p.functions),
                    lines: folded(&p.lines),
                    instructions: (p.instructions.iter())
                        .map(|i| ProfileRow {
                            pc: Some(i.pc),
                            name: i.function.as_deref(),
                            disasm: Some(&i.disasm),
                            instructions: i.counts.instructions,
                            thread_instructions: i.counts.thread_instructions,
                        })
                        .collect(),
                }
            }),
            graph: &r.graph,
            host: r.host.as_ref().map(|h| FunctionalHost {
                seconds: h.seconds,
                warp_instructions_per_second: h.warp_instructions_per_second,
            }),
        }
    }
}

impl<W> Report<W> {
    /// Phase `phase` as reports show it: its number, and its name when the program gives
    /// one (`2 edges`).
    pub fn phase_label(&self, phase: u32) -> String {
        match self.phase_names.get(&phase) {
            Some(name) => format!("{phase} {name}"),
            None => phase.to_string(),
        }
    }

    /// The deepest SIMT stack of any warp.
    pub fn max_stack_depth(&self) -> u64 {
        self.cores
            .iter()
            .map(|c| c.max_stack_depth)
            .max()
            .unwrap_or(0)
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
