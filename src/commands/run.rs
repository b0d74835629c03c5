//! `wsim run`: one program through the harness's run path, its console, the terminal
//! summary, the JSON report and the trace.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use wsim_harness::run::{self, Program, RunOptions, RunRequest, Verdict};
use wsim_harness::{exit, files, interrupt, terminal, trace};
use wsim_sampler::Plan;
use wsim_sim::profile::Selection;
use wsim_sim::report::Status;
use wsim_workloads::graph_run;

use crate::args::{GraphArgs, MachineArgs, TraceArgs};

/// What the process exit status of `wsim run` tells when the simulation completes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExitStatus {
    /// wsim's verdict: 0, or 1 (the program exited non-zero), or 4 (graph mismatch).
    Wsim,
    /// The program's own exit status (4 on a graph mismatch).
    Program,
}

#[derive(Args)]
pub struct RunArgs {
    #[command(flatten)]
    machine: MachineArgs,
    /// Also write every statistic as JSON (schema `wsim-stats/1`) to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// What the process exit status tells when the simulation completes: `wsim`, the
    /// verdict (0 ok, 1 the program exited non-zero, 4 mismatch); `program`, the
    /// program's own status (its low byte; 1 when that is 0 but the status is not),
    /// for harnesses that decode it: then a program that returns 2, 3 or 4 cannot be
    /// told from wsim's own conditions without the JSON's `exit_code`.
    #[arg(long, value_enum, default_value_t = ExitStatus::Wsim)]
    exit_status: ExitStatus,
    /// Graph programs (those defining `wsim_graph`): the graph and its options.
    #[command(flatten)]
    graph: GraphArgs,
    #[command(flatten)]
    trace: TraceArgs,
    /// Charge every issue slot and instruction to its PC and print the top functions,
    /// source lines and instructions by stall slots; the JSON gets them under `profile`.
    #[arg(long)]
    profile_pc: bool,
    /// Rows of each profile table (implies --profile-pc; default 10).
    #[arg(long, value_name = "N")]
    profile_top: Option<usize>,
    /// Print FUNCTION's disassembly with each instruction's warp instructions, stall slots
    /// and top stall reasons beside it, as `perf annotate` does (implies --profile-pc;
    /// repeatable).
    #[arg(long, value_name = "FUNCTION")]
    annotate: Vec<String>,
    /// Restrict the profile by PC to the launches of kernel NAME (as the launches table
    /// names it): their issue slots, instructions and memory events, each launch's from
    /// its start to its end, in the tables, --annotate and the JSON (implies
    /// --profile-pc; repeatable, with --profile-launch too: every launch any selects).
    #[arg(long, value_name = "NAME")]
    profile_kernel: Vec<String>,
    /// Restrict the profile by PC to launch N (its index in the launches table, from 0;
    /// implies --profile-pc; repeatable).
    #[arg(long, value_name = "N")]
    profile_launch: Vec<u32>,
    /// Execute functionally: every warp to completion with the detailed model's
    /// architectural results (exit status, memory, the graph's verification, instruction
    /// counts, launches), no timing (no cycles, issue slots, caches or DRAM), many times
    /// faster (docs/ARCHITECTURE.md, "The functional mode").
    #[arg(
        long,
        conflicts_with_all = ["trace", "trace_instructions", "profile_pc", "profile_top", "annotate", "profile_kernel", "profile_launch"]
    )]
    functional: bool,
    /// Sampled simulation: execute functionally and simulate some units (a launch and the
    /// code before it) in detail from copies of the machine, estimating the cycles with a
    /// 95% confidence interval; the architectural results are exact (docs/ARCHITECTURE.md,
    /// "Sampled simulation").
    #[arg(
        long,
        conflicts_with_all = ["functional", "trace", "trace_instructions", "profile_pc", "profile_top", "annotate", "profile_kernel", "profile_launch"]
    )]
    sample: bool,
    /// With --sample: of each stratum's units after its first two, simulate one in K in
    /// detail.
    #[arg(long, value_name = "K", default_value_t = Plan::default().every, requires = "sample",
          value_parser = clap::value_parser!(u32).range(1..))]
    sample_every: u32,
    /// With --sample: end a unit inside a launch once it has N warp instructions, so that
    /// long launches are sampled too (0: units end only where launches end). Measured at
    /// the paper's size with --sample-progress (units of a million): a GCN layer's four
    /// runs -2.8% to +2.2% of full detail, Table 4.5's PageRank VM +0.96% on UK and +0.80%
    /// on HW (docs/ARCHITECTURE.md, "Sampled simulation", items 4 and 8).
    #[arg(long, value_name = "N", default_value_t = 0, requires = "sample")]
    sample_period: u64,
    /// With --sample: units simulated in detail, unmeasured, before each measured one (to
    /// warm its caches, DRAM and pipeline).
    #[arg(long, value_name = "U", default_value_t = Plan::default().warmup_units,
          requires = "sample")]
    sample_warmup: u32,
    /// With --sample: detailed samples simulated at once, on threads of their own.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "sample",
          value_parser = clap::value_parser!(u32).range(1..=256))]
    sample_threads: u32,
    /// With --sample: warm the caches' tags functionally between the detailed units, so
    /// that each unit's warm-up starts from the caches the run left (`=false`: cold;
    /// docs/ARCHITECTURE.md, "Sampled simulation").
    #[arg(long, value_name = "BOOL", default_value_t = Plan::default().warm_caches,
          num_args = 0..=1, require_equals = true, default_missing_value = "true",
          action = clap::ArgAction::Set, requires = "sample")]
    sample_warm_caches: bool,
    /// With --sample: stratify each kernel's later launches by clusters of diameter D of
    /// their basic-block vectors and active lanes (0 to 3), or with 0 by octave of warp
    /// instructions (docs/ARCHITECTURE.md, "Sampled simulation").
    #[arg(long, value_name = "D", default_value_t = Plan::default().cluster, requires = "sample",
          value_parser = cluster_diameter)]
    sample_cluster: f64,
    /// With --sample: measure the first two stretches of measured units and one in four
    /// after them again after up to U units of detailed warm-up (fewer once they have
    /// refilled the L2 twice), and correct every measured unit by the ratio (0: no check;
    /// docs/ARCHITECTURE.md, "Sampled simulation").
    #[arg(long, value_name = "U", default_value_t = Plan::default().check_warmup,
          requires = "sample")]
    sample_check: u32,
    /// With --sample: a run whose plan would simulate three quarters of its warp
    /// instructions in detail or more is simulated whole instead, exactly (`=false`: sampled however
    /// short, e.g. to validate the sampler on a short run).
    #[arg(long, value_name = "BOOL", default_value_t = Plan::default().exact_fallback,
          num_args = 0..=1, require_equals = true, default_missing_value = "true",
          action = clap::ArgAction::Set, requires = "sample")]
    sample_exact_fallback: bool,
    /// With --sample and --sample-period: weigh and scale each launch's units by the
    /// cores' progress through it, whose socket's cores finish one after another under
    /// core order and whose heavy warps drain alone, their rates with fewer cores and one
    /// warp at work probed in detail once per kernel (eight warps, whose spread the
    /// interval holds; a kernel short of a probe is not scaled) (`=false`: not;
    /// docs/ARCHITECTURE.md, "Sampled simulation").
    #[arg(long, value_name = "BOOL", default_value_t = Plan::default().progress,
          num_args = 0..=1, require_equals = true, default_missing_value = "true",
          action = clap::ArgAction::Set, requires = "sample")]
    sample_progress: bool,
    /// With --sample: simulate at most the share F of the run's warp instructions in
    /// detail (e.g. 0.1), the plan trimmed at the run's end, each stratum's first measured
    /// unit and the cores' probes kept first (the report says whether it held;
    /// docs/ARCHITECTURE.md, "Sampled simulation").
    #[arg(long, value_name = "F", requires = "sample", value_parser = budget_share)]
    sample_budget: Option<f64>,
    /// Say what the run would take of host memory at its peak (the graph, its arrays in
    /// the machine, the host reference, the machine's structures) and stop: nothing is
    /// placed or run.
    #[arg(long)]
    dry_run: bool,
    /// The program: a 32-bit RISC-V ELF executable.
    elf: PathBuf,
    /// The program's arguments, after `--`: into the `wsim_args` block it declares
    /// (WSIM_ARGS in programs/runtime/wsim_args.h), argv[0] being its file name.
    #[arg(last = true, value_name = "ARG")]
    args: Vec<String>,
}

pub fn exec(args: RunArgs) -> anyhow::Result<ExitCode> {
    let config = args.machine.config()?;
    let elf = &args.elf;
    check_outputs(&args)?;
    let bytes = wsim_harness::read_program(elf)?;
    let input = graph_run::load(&args.graph.options())?;
    if args.dry_run {
        print!("{}", run::plan(&config, &bytes, &input)?);
        return Ok(ExitCode::SUCCESS);
    }
    let name = elf.display().to_string();
    let request = RunRequest {
        name: name.clone(),
        program: Program::Bytes(Arc::new(bytes)),
        config,
        input: Some(Arc::new(input)),
        options: RunOptions {
            timeline: args.trace.options(),
            profile: args.profile_pc || args.profile_top.is_some() || !args.annotate.is_empty(),
            profile_launches: (!args.profile_kernel.is_empty() || !args.profile_launch.is_empty())
                .then(|| Selection {
                    kernels: args.profile_kernel.clone(),
                    launches: args.profile_launch.clone(),
                }),
            progress: true,
            instructions: args.trace.instructions(),
            args: args.args.clone(),
            functional: args.functional,
            sampling: args.sample.then_some(Plan {
                every: args.sample_every,
                period: args.sample_period,
                warmup_units: args.sample_warmup,
                threads: args.sample_threads as usize,
                warm_caches: args.sample_warm_caches,
                cluster: args.sample_cluster,
                check_warmup: args.sample_check,
                exact_fallback: args.sample_exact_fallback,
                progress: args.sample_progress,
                budget: args.sample_budget,
            }),
            ..RunOptions::default()
        },
    };
    let finished = run::execute(request);
    let record = &finished.record;
    let Some(report) = &record.report else {
        let why = record.error.as_ref().map_or("", |e| e.message());
        anyhow::bail!("{name}: {why}");
    };
    let mut out = Stdout::default();
    if let Some(machine) = &finished.machine {
        out.write(machine.console());
    }
    // An output that cannot be written now (a full disk) does not keep the report from
    // the terminal: it is said after it, with exit status 2.
    let mut unwritten = Vec::new();
    if let (Some(path), Some(timeline)) = (&args.trace.trace, &finished.timeline) {
        unwritten.extend(trace::write(path, timeline, report, &name).err());
    }
    if let (Some(path), Some(trace), Some(machine)) = (
        &args.trace.trace_instructions,
        &finished.instructions,
        &finished.machine,
    ) {
        unwritten.extend(trace::write_instructions(path, trace, machine, &name).err());
    }
    if let Some(path) = &args.json {
        let written = files::write_whole(path, report.to_json().as_bytes());
        unwritten.extend(written.err().map(anyhow::Error::from));
    }
    // An unknown function to annotate, or a kernel or launch to profile that the run did
    // not launch, fails the command after the report is out (without the profile tables
    // for a selection that names what the run did not launch).
    let mut profile = String::new();
    let mut annotate_error = (report.profile.as_ref())
        .and_then(|p| p.selection.as_ref())
        .and_then(|s| wsim_harness::profile::check_selection(s, &report.launches).err());
    if let (Some(p), Some(machine), None) = (&report.profile, &finished.machine, &annotate_error) {
        let threads = report.config.gpu.threads_per_warp;
        profile = wsim_harness::profile::top(p, args.profile_top.unwrap_or(10), threads);
        for function in &args.annotate {
            match wsim_harness::profile::annotate(p, machine, function) {
                Ok(text) => profile += &text,
                Err(e) => annotate_error = annotate_error.or(Some(e)),
            }
        }
    }
    out.write(terminal::summary(report).as_bytes());
    if let Some(error) = &record.error {
        out.write(profile.as_bytes());
        out.write(terminal::guide(report).as_bytes());
        out.finish();
        if report.status == Status::Interrupted {
            stderr_line!("wsim: {name}: {error}");
            return Ok(ExitCode::from(interrupt::exit_status()));
        }
        stderr_line!("wsim: error: {name}: {error}");
        return Ok(unwritten_outputs(unwritten).unwrap_or(ExitCode::from(exit::SIMULATION_FAILED)));
    }
    if let (Some(placed), Some(graph)) = (&finished.placed, &report.graph) {
        out.write(graph_run::describe(placed, graph).as_bytes());
    }
    out.write(profile.as_bytes());
    out.write(terminal::guide(report).as_bytes());
    out.finish();
    if let Some(status) = unwritten_outputs(unwritten) {
        return Ok(status);
    }
    if let Some(e) = annotate_error {
        return Err(e);
    }
    Ok(match record.verdict() {
        Verdict::Mismatch => ExitCode::from(exit::MISMATCH),
        _ => exit_code(report.exit_code, args.exit_status),
    })
}

/// The outputs asked for can be written, and none is an input or the other, before the
/// run: a wrong path fails at once, not after the simulation.
fn check_outputs(args: &RunArgs) -> anyhow::Result<()> {
    let graph = args
        .graph
        .graph
        .as_deref()
        .filter(|g| !g.starts_with("gen:"));
    let mut inputs: Vec<&Path> = vec![args.elf.as_path()];
    inputs.extend(args.machine.config.as_deref());
    inputs.extend(graph.map(Path::new));
    let outputs = [
        &args.json,
        &args.trace.trace,
        &args.trace.trace_instructions,
    ];
    for output in outputs.into_iter().flatten() {
        files::check_not_input(output, &inputs)?;
        files::check_output(output)?;
        inputs.push(output.as_path());
    }
    Ok(())
}

/// Each output that could not be written, said on stderr: then exit status 2.
fn unwritten_outputs(errors: Vec<anyhow::Error>) -> Option<ExitCode> {
    for e in &errors {
        stderr_line!("wsim: error: {e:#}");
    }
    (!errors.is_empty()).then(|| ExitCode::from(exit::CANNOT_RUN))
}

/// The run's text on stdout. The exit status is the run's: a stdout that cannot be
/// written (closed, a full device) is said once on stderr, not turned into status 2.
#[derive(Default)]
struct Stdout {
    failed: Option<std::io::Error>,
}

impl Stdout {
    fn write(&mut self, bytes: &[u8]) {
        if self.failed.is_none() {
            self.failed = std::io::stdout().lock().write_all(bytes).err();
        }
    }

    fn finish(mut self) {
        if self.failed.is_none() {
            self.failed = std::io::stdout().lock().flush().err();
        }
        if let Some(e) = self.failed {
            stderr_line!("wsim: warning: the report could not be written to stdout: {e}");
        }
    }
}

/// The process exit status for a program's: 0 for 0; otherwise 1, or with
/// `--exit-status program` its low byte (but never 0 for a failure).
fn exit_code(code: u32, status: ExitStatus) -> ExitCode {
    match (code, status) {
        (0, _) => ExitCode::SUCCESS,
        (_, ExitStatus::Wsim) => ExitCode::from(exit::FAILED),
        (c, ExitStatus::Program) if c & 0xFF == 0 => ExitCode::FAILURE,
        (c, ExitStatus::Program) => ExitCode::from(c as u8),
    }
}

/// `--sample-cluster`'s diameter: 0 to 3, the largest distance between two launches.
fn budget_share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(share) if Plan::is_budget(share) => Ok(share),
        _ => Err(format!(
            "{text} is not a share of the run above 0 (e.g. 0.1)"
        )),
    }
}

fn cluster_diameter(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(d) if (0.0..=3.0).contains(&d) => Ok(d),
        _ => Err(format!("{text} is not a diameter from 0 to 3")),
    }
}
