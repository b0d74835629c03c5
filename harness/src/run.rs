//! The one run path: a [`RunRequest`] (a program, a configuration, a workload's input,
//! options) becomes a [`RunRecord`] (the statistics as the JSON report types them, the
//! workload's record and verdict, the host's time, the error). `wsim run`, sweeps,
//! experiments, regression baselines and the tests all run programs through [`execute`]
//! (one run, with the machine kept for inspection) or [`run_many`] (many in parallel,
//! records in order, progress on a terminal). The log's stages (`load`, `layout`,
//! `simulation`, `verification`) come from here, for every command.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use wsim_sim::instruction_trace::{InstructionTrace, TraceFilter};
use wsim_sim::profile::Selection;
use wsim_sim::report::{HostTime, Report, Status};
use wsim_sim::timeline::{Timeline, TimelineOptions};
use wsim_sim::{Config, Machine, Mode, Progress, RunSummary, SimError};
use wsim_workloads::graph_image::Layout;
use wsim_workloads::graph_run::{self, GraphInput, Placed};
use wsim_workloads::record::{Checked, GraphRun};

/// The program of a run.
#[derive(Clone, Debug)]
pub enum Program {
    /// An ELF file, read when the run starts (an unreadable one is a set-up error).
    Path(PathBuf),
    /// An ELF image already read (shared by the runs of a batch).
    Bytes(Arc<Vec<u8>>),
}

/// Something to call every `every` simulated cycles while the run goes on.
pub struct Observer {
    pub every: u64,
    pub call: Box<dyn FnMut(Progress)>,
}

/// Before the run, after the workload's layout: a host writing a program's inputs into
/// memory itself (the tests of kernels that take their data this way).
pub type Prepare = Box<dyn FnOnce(&mut Machine)>;

/// How a run is done and what it keeps besides its record.
#[derive(Default)]
pub struct RunOptions {
    /// Record the timeline (`wsim run --trace`).
    pub timeline: Option<TimelineOptions>,
    /// Charge issue slots and instructions to PCs (`wsim run --profile-pc`): the report's
    /// `profile`.
    pub profile: bool,
    /// Restrict the profile to these launches (`wsim run --profile-kernel`,
    /// `--profile-launch`; implies `profile`).
    pub profile_launches: Option<Selection>,
    /// Show the running simulation's progress on a terminal (a single run's; the runs of
    /// a batch show the batch's).
    pub progress: bool,
    pub observer: Option<Observer>,
    pub prepare: Option<Prepare>,
    /// Which of a graph's arrays are laid out: every run but a test of the walked
    /// layout takes the default, `Fitting`.
    pub layout: Layout,
    /// Trace the instructions issued that the filter keeps (`--trace-instructions`).
    pub instructions: Option<TraceFilter>,
    /// The program's arguments (`wsim run prog.elf -- ARG...`), after its name: into the
    /// `wsim_args` block it declares (`wsim_workloads::args_image`).
    pub args: Vec<String>,
    /// Execute functionally, with no timing (`wsim run --functional`): no timeline, no
    /// progress or observer (docs/ARCHITECTURE.md, "The functional mode").
    pub functional: bool,
    /// Execute functionally and estimate the cycles from units simulated in detail
    /// (`wsim run --sample`; docs/ARCHITECTURE.md, "Sampled simulation").
    pub sampling: Option<wsim_sampler::Plan>,
}

/// One run asked for.
pub struct RunRequest {
    /// The program's name in the record and its report.
    pub name: String,
    pub program: Program,
    pub config: Config,
    /// A graph or GCN program's input (a program that declares no workload ignores it,
    /// unless it names options only a graph program takes); `None`: the program runs
    /// bare, as the engine loads it.
    pub input: Option<Arc<GraphInput>>,
    pub options: RunOptions,
}

impl RunRequest {
    /// A bare run of `program` on `config` with default options.
    pub fn new(name: impl Into<String>, program: Program, config: Config) -> RunRequest {
        RunRequest {
            name: name.into(),
            program,
            config,
            input: None,
            options: RunOptions::default(),
        }
    }

    pub fn with_input(mut self, input: Arc<GraphInput>) -> RunRequest {
        self.input = Some(input);
        self
    }
}

/// Why a run did not go to its end.
#[derive(Clone, Debug, PartialEq)]
pub enum RunError {
    /// It could not start: an unreadable or invalid program, a configuration or input that
    /// does not fit it.
    Setup(String),
    /// The simulation stopped on an error (an illegal instruction, a deadlock,
    /// `run.max_cycles` ...); the record keeps the statistics up to it.
    Simulation(String),
}

impl RunError {
    pub fn message(&self) -> &str {
        match self {
            RunError::Setup(m) | RunError::Simulation(m) => m,
        }
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

/// How a run ended, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Ok,
    /// The program's exit status was not 0.
    ExitNonzero,
    /// A graph program's result differs from the host reference.
    Mismatch,
    /// The simulation stopped on an error.
    Failed,
    /// The run could not be set up.
    Error,
}

impl Verdict {
    /// As tables write it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::ExitNonzero => "exit_nonzero",
            Verdict::Mismatch => "mismatch",
            Verdict::Failed => "failed",
            Verdict::Error => "error",
        }
    }
}

/// What a run left: everything the harness reads of it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRecord {
    pub name: String,
    /// The statistics as the JSON report types them (a failed simulation's up to the
    /// failure), with the host's time and the workload's record; `None` when the run could
    /// not be set up.
    pub report: Option<Report<GraphRun>>,
    pub error: Option<RunError>,
}

impl RunRecord {
    /// The record of a run read back from its report (`wsim run --json`'s).
    pub fn of_report(report: Report<GraphRun>) -> RunRecord {
        RunRecord {
            name: report.program.clone(),
            error: report.error.clone().map(RunError::Simulation),
            report: Some(report),
        }
    }

    /// A run that could not be set up.
    pub fn not_set_up(name: impl Into<String>, error: impl Into<String>) -> RunRecord {
        RunRecord {
            name: name.into(),
            report: None,
            error: Some(RunError::Setup(error.into())),
        }
    }

    pub fn verdict(&self) -> Verdict {
        match (&self.report, &self.error) {
            (None, _) => Verdict::Error,
            (Some(_), Some(_)) => Verdict::Failed,
            (Some(r), None) if r.exit_code != 0 => Verdict::ExitNonzero,
            (Some(r), None)
                if r.graph
                    .as_ref()
                    .is_some_and(|g| g.result == Checked::Mismatch) =>
            {
                Verdict::Mismatch
            }
            _ => Verdict::Ok,
        }
    }

    /// A graph or GCN program's record (none for other programs and runs not set up).
    pub fn workload(&self) -> Option<&GraphRun> {
        self.report.as_ref()?.graph.as_ref()
    }

    /// The program's exit status, when it ran to its end.
    pub fn exit_code(&self) -> Option<u32> {
        let report = self.report.as_ref()?;
        (report.status == Status::Ok).then_some(report.exit_code)
    }

    /// The first line of the error (a deadlock's goes on to list every warp), empty
    /// without one.
    pub fn error_line(&self) -> &str {
        self.error
            .as_ref()
            .and_then(|e| e.message().lines().next())
            .unwrap_or_default()
    }

    /// Why the run did not succeed, in a few words (none when it did).
    pub fn why_not(&self) -> Option<String> {
        match self.verdict() {
            Verdict::Ok => None,
            Verdict::ExitNonzero => Some(format!("exit status {}", self.exit_code()?)),
            Verdict::Mismatch => Some("result does not match the host reference".into()),
            Verdict::Failed | Verdict::Error => {
                Some(self.error.as_ref().map(|e| e.message().to_string())?)
            }
        }
    }
}

/// A run as it ended, with what a single run's caller may inspect.
pub struct Finished {
    pub record: RunRecord,
    /// The machine after the run (none when it could not be built).
    pub machine: Option<Machine>,
    /// What the engine returned: the run's statistics or error, or the error that kept the
    /// machine from being built; none when the run could not start for another reason (an
    /// unreadable program, a workload input that does not fit it).
    pub result: Option<Result<RunSummary, SimError>>,
    /// The workload's input as laid out (a graph or GCN program's).
    pub placed: Option<Placed>,
    /// The timeline, when [`RunOptions::timeline`] asked for one.
    pub timeline: Option<Timeline>,
    /// The instructions traced, when [`RunOptions::instructions`] asked for them.
    pub instructions: Option<InstructionTrace>,
}

impl Finished {
    fn not_set_up(name: &str, error: String) -> Finished {
        Finished {
            record: RunRecord::not_set_up(name, error),
            machine: None,
            result: None,
            placed: None,
            timeline: None,
            instructions: None,
        }
    }
}

/// A machine for `config` with the program `elf` loaded (the log's `load` stage).
fn load(config: &Config, elf: &[u8]) -> Result<Machine, SimError> {
    let _stage = tracing::info_span!("load", bytes = elf.len()).entered();
    let machine = Machine::new(config, elf)?;
    tracing::info!(
        weaver_unit = machine.has_weaver(),
        phase_names = ?machine.phase_names(),
        "program loaded"
    );
    Ok(machine)
}

/// What a run would take of host memory, said before it is paid (`wsim run --dry-run`):
/// the program loaded into a machine, nothing placed or run.
pub fn plan(config: &Config, elf: &[u8], input: &GraphInput) -> anyhow::Result<String> {
    let machine = load(config, elf)?;
    let human = wsim_graph::memory::human;
    let budget = human(wsim_graph::memory::budget());
    Ok(match graph_run::footprint(&machine, input)? {
        Some(f) => format!(
            "host memory: about {} at its peak ({}); wsim may use {budget}\n",
            human(f.total()),
            f.parts()
        ),
        None => format!(
            "host memory: about {} (the machine's structures); wsim may use {budget}\n",
            human(config.host_bytes())
        ),
    })
}

/// Run the machine to its end (the log's `simulation` stage).
fn simulate(machine: &mut Machine, options: &mut RunOptions) -> Result<RunSummary, SimError> {
    let _stage = tracing::info_span!("simulation").entered();
    let result = match options.observer.take() {
        _ if options.functional => machine.run_functional(),
        _ if options.sampling.is_some() => {
            wsim_sampler::run(machine, options.sampling.as_ref().expect("matched"))
        }
        Some(mut o) => machine.run_observed(o.every, |p| (o.call)(p)),
        None if options.progress => crate::progress::simulate(machine),
        None => machine.run(),
    };
    match &result {
        Ok(s) if s.mode == Mode::Sampled => tracing::info!(
            estimated_cycles = s.cycles,
            warp_instructions = s.total().instructions,
            exit_code = s.exit_code,
            "finished, sampled"
        ),
        Ok(s) if s.mode == Mode::Functional => tracing::info!(
            warp_instructions = s.total().instructions,
            exit_code = s.exit_code,
            "finished functionally"
        ),
        Ok(s) => tracing::info!(
            cycles = s.cycles,
            warp_instructions = s.total().instructions,
            exit_code = s.exit_code,
            "finished"
        ),
        Err(e) => {
            let reason = e.to_string();
            let first = reason.lines().next().unwrap_or_default();
            tracing::info!(cycle = machine.cycle(), "failed: {first}");
        }
    }
    result
}

/// Run one program to its end and keep the machine.
pub fn execute(request: RunRequest) -> Finished {
    let RunRequest {
        name,
        program,
        config,
        input,
        mut options,
    } = request;
    let elf = match program {
        Program::Bytes(bytes) => bytes,
        Program::Path(path) => match crate::read_program(&path) {
            Ok(bytes) => Arc::new(bytes),
            Err(e) => return Finished::not_set_up(&name, format!("{e:#}")),
        },
    };
    let mut machine = match load(&config, &elf) {
        Ok(machine) => machine,
        Err(e) => {
            let mut finished = Finished::not_set_up(&name, e.to_string());
            finished.result = Some(Err(e));
            return finished;
        }
    };
    let placed = match &input {
        Some(input) => match graph_run::place(&mut machine, input, options.layout) {
            Ok(placed) => placed,
            Err(e) => return Finished::not_set_up(&name, format!("{e:#}")),
        },
        None => None,
    };
    if let Err(e) = wsim_workloads::args_image::place(&mut machine, &name, &options.args) {
        return Finished::not_set_up(&name, format!("{e:#}"));
    }
    if let Some(prepare) = options.prepare.take() {
        prepare(&mut machine);
    }
    if let Some(timeline) = options.timeline {
        if options.functional || options.sampling.is_some() {
            let why = "a functional or sampled run has no timeline";
            return Finished::not_set_up(&name, why.into());
        }
        machine.record_timeline(timeline);
    }
    if let Some(filter) = options.instructions.take() {
        if options.functional || options.sampling.is_some() {
            let why = "a functional or sampled run has no instruction trace";
            return Finished::not_set_up(&name, why.into());
        }
        machine.trace_instructions(filter);
    }
    if let Some(selection) = options.profile_launches.take() {
        machine.profile_launches(selection);
    } else if options.profile {
        machine.profile_pcs();
    }
    machine.stop_when(crate::interrupt::flag());
    let started = Instant::now();
    let result = simulate(&mut machine, &mut options);
    let seconds = started.elapsed().as_secs_f64();
    let up_to_failure;
    let summary = match &result {
        Ok(summary) => summary,
        Err(_) => {
            up_to_failure = machine.summary();
            &up_to_failure
        }
    };
    let host = HostTime::new(seconds, summary);
    let exit_code = result.as_ref().ok().map(|s| s.exit_code);
    let graph = placed
        .as_ref()
        .map(|placed| graph_run::finish(&machine, placed, exit_code));
    // The machine as built: a program may have set the Weaver unit's mode.
    let mut report = Report::with_workload(machine.config(), &name, summary, Some(host), graph);
    let error = match &result {
        Ok(_) => None,
        Err(e) => {
            report = report.failed(e);
            Some(RunError::Simulation(e.to_string()))
        }
    };
    let timeline = machine.timeline();
    let instructions = machine.instruction_trace();
    Finished {
        record: RunRecord {
            name,
            report: Some(report),
            error,
        },
        machine: Some(machine),
        result: Some(result),
        placed,
        timeline,
        instructions,
    }
}

/// Run one program to its end: its record.
pub fn run(request: RunRequest) -> RunRecord {
    execute(request).record
}

/// Run `items` in parallel (each made into a request by `request`, or into the record of
/// a run that could not be set up), calling `finished` with each record's index as it
/// finishes; the records in the items' order. `what` names the batch on its progress bar
/// (`progress`: drawn when stderr is a terminal), which counts the runs that did not
/// succeed. Once a stop is asked for ([`crate::interrupt`]), no further run starts and the
/// batch is an [`crate::interrupt::Interrupted`] error, `finished` having had each run that
/// went to its end (never one that was stopped).
pub fn run_many<T: Sync>(
    items: &[T],
    what: &str,
    progress: bool,
    request: impl Fn(&T) -> Result<RunRequest, Box<RunRecord>> + Sync,
    finished: impl Fn(usize, &RunRecord) -> anyhow::Result<()> + Sync,
) -> anyhow::Result<Vec<RunRecord>> {
    let bar = if progress {
        crate::progress::runs(items.len() as u64, what)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let failed = AtomicUsize::new(0);
    let records = items
        .par_iter()
        .enumerate()
        .map(|(k, item)| {
            // Once stopped (SIGINT), no run starts and a stopped one is not handed on.
            if crate::interrupt::requested() {
                return Ok(None);
            }
            let record = match request(item) {
                Ok(request) => run(request),
                Err(record) => *record,
            };
            if record
                .report
                .as_ref()
                .is_some_and(|r| r.status == Status::Interrupted)
            {
                return Ok(None);
            }
            if record.verdict() != Verdict::Ok {
                let n = failed.fetch_add(1, Ordering::Relaxed) + 1;
                bar.set_message(format!("({n} failed)"));
            }
            bar.suspend(|| finished(k, &record))?;
            bar.inc(1);
            Ok(Some(record))
        })
        .collect::<anyhow::Result<Vec<Option<RunRecord>>>>();
    bar.finish_and_clear();
    let records = records?;
    if records.iter().any(Option::is_none) {
        return Err(crate::interrupt::Interrupted {
            finished: records.iter().flatten().count(),
            runs: records.len(),
        }
        .into());
    }
    Ok(records.into_iter().flatten().collect())
}
