//! `wsim run`: load, run, report.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use wsim_sim::mem::cache::{CacheStats, WritePolicy};
use wsim_sim::mem::hierarchy::{HierarchyStats, MemConfig};
use wsim_sim::report::{self, HostTime, Report};
use wsim_sim::stats::{FsmState, Iteration, Merge, SlotReason, WeaverCounters};
use wsim_sim::{Config, Machine, RunSummary};
use wsim_workloads::graph_image;

use wsim_workloads::graph_run;

use wsim_harness::exit;

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
    /// The program: a 32-bit RISC-V ELF executable.
    elf: PathBuf,
}

pub fn exec(args: RunArgs) -> anyhow::Result<ExitCode> {
    let RunArgs {
        machine: args,
        json,
        exit_status: status,
        graph,
        trace,
        elf,
    } = &args;
    let status = *status;
    let config = args.config()?;
    let bytes = std::fs::read(elf).with_context(|| format!("cannot read {}", elf.display()))?;
    let mut machine = wsim_harness::load_program(&config, &bytes)
        .map_err(|e| anyhow::anyhow!("{}: {e}", elf.display()))?;
    // The machine as built: a program may have set the Weaver unit's mode.
    let config = machine.config().clone();
    let input = graph_run::load(&graph.options())?;
    let placed = graph_run::place(&mut machine, &input)
        .map_err(|e| anyhow::anyhow!("{}: {e:#}", elf.display()))?;
    if let Some(options) = trace.options() {
        machine.record_timeline(options);
    }
    let started = std::time::Instant::now();
    let result = wsim_harness::run_program(&mut machine, true);
    let seconds = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    out.write_all(machine.console())?;
    let name = elf.display().to_string();
    let write_trace = |machine: &mut Machine, summary: &RunSummary| -> anyhow::Result<()> {
        match (&trace.trace, machine.timeline()) {
            (Some(path), Some(timeline)) => {
                wsim_harness::trace::write(path, &timeline, summary, &name)
            }
            _ => Ok(()),
        }
    };
    let summary = match result {
        Ok(summary) => summary,
        Err(e) => {
            // What the run did up to the failure: the report, and the JSON marked failed.
            let summary = machine.summary(None);
            write_trace(&mut machine, &summary)?;
            let host = HostTime::new(seconds, &summary);
            if let Some(path) = json {
                let report = Report::new(&config, &name, &summary, Some(host.clone())).failed(&e);
                std::fs::write(path, report.to_json())
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            // The status goes first, below the title; the whole error follows on stderr.
            let report = terminal_report(&config, &name, &summary, &host);
            let (title, rest) = report.split_once('\n').unwrap_or((&report, ""));
            let reason = e.to_string();
            let first = reason.lines().next().unwrap_or_default();
            write!(
                out,
                "{title}\n{:<22}FAILED at cycle {}: {first}\n{rest}",
                "status", summary.cycles
            )?;
            out.flush()?;
            eprintln!("wsim: error: {name}: {e}");
            return Ok(ExitCode::from(exit::SIMULATION_FAILED));
        }
    };
    write_trace(&mut machine, &summary)?;
    let host = HostTime::new(seconds, &summary);
    let checked = placed.as_ref().map(|placed| {
        let mismatches = graph_run::check(&machine, placed, summary.exit_code);
        let supersteps = graph_image::supersteps(&machine, &placed.layout);
        (placed, supersteps, mismatches)
    });
    if let Some(path) = json {
        let record = (checked.as_ref()).map(|(placed, supersteps, mismatches)| {
            graph_run::record(placed, *supersteps, mismatches.as_deref())
        });
        let report = Report::with_workload(&config, &name, &summary, Some(host.clone()), record);
        std::fs::write(path, report.to_json())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    out.write_all(terminal_report(&config, &name, &summary, &host).as_bytes())?;
    let Some((placed, supersteps, mismatches)) = checked else {
        return Ok(exit_code(summary.exit_code, status));
    };
    out.write_all(graph_run::describe(placed, supersteps, mismatches.as_deref()).as_bytes())?;
    Ok(match mismatches {
        Some(m) if !m.is_empty() => ExitCode::from(exit::MISMATCH),
        _ => exit_code(summary.exit_code, status),
    })
}

/// The compact terminal report.
fn terminal_report(config: &Config, name: &str, s: &RunSummary, host: &HostTime) -> String {
    let t = s.total();
    let g = &config.gpu;
    let mut r = String::new();
    let _ = writeln!(r, "--- wsim: {name} ---");
    let _ = writeln!(r, "{:<22}{}", "exit status", s.exit_code);
    let _ = writeln!(
        r,
        "{:<22}{} clusters x {} cores x {} warps x {} threads, {} issue slot(s)/core, config {}",
        "machine",
        g.clusters,
        g.cores_per_cluster,
        g.warps_per_core,
        g.threads_per_warp,
        s.slices,
        config.hash()
    );
    let _ = writeln!(r, "{:<22}{}", "cycles", s.cycles);
    let _ = writeln!(
        r,
        "{:<22}{} warp, {} thread",
        "instructions", t.instructions, t.thread_instructions
    );
    let ipc = if s.cycles == 0 {
        0.0
    } else {
        t.instructions as f64 / s.cycles as f64
    };
    let eff = ratio(
        t.thread_instructions,
        t.instructions * u64::from(g.threads_per_warp),
    );
    let _ = writeln!(
        r,
        "{:<22}{ipc:.3} (all cores), SIMT efficiency {eff:.1}%",
        "IPC"
    );
    let _ = writeln!(
        r,
        "{:<22}{} ({} divergent), max SIMT stack depth {}",
        "branches",
        t.branches,
        t.divergent_branches,
        s.max_stack_depth()
    );
    let slots = t.slots.total();
    let _ = writeln!(r, "issue slots ({slots}):");
    for reason in SlotReason::ALL {
        let n = t.slots.get(reason);
        if n > 0 {
            let _ = writeln!(
                r,
                "  {:<20}{:>14} {:>6.1}%",
                reason.name(),
                n,
                ratio(n, slots)
            );
        }
    }
    let _ = writeln!(
        r,
        "{:<22}alu {} mul {} div {} fpu {} lsu {} sfu {}",
        "units", t.alu, t.mul, t.div, t.fpu, t.lsu, t.sfu
    );
    let _ = writeln!(
        r,
        "{:<22}{} loads, {} stores, {} atomics, {} line requests, {} local ({} conflict cycles)",
        "memory",
        t.loads,
        t.stores,
        t.atomics,
        t.dcache_requests,
        t.local_accesses,
        t.local_bank_conflict_cycles
    );
    memory_report(&mut r, &s.memory, &config.memory, s.cycles);
    if s.weaver {
        weaver_report(&mut r, config, &t.weaver, s);
    }
    let mut phases: std::collections::BTreeMap<u32, wsim_sim::stats::CoreCounters> =
        Default::default();
    for core in &s.cores {
        for (p, c) in &core.phases {
            phases.entry(*p).or_default().merge(c);
        }
    }
    if phases.len() > 1 {
        let warp_cycles: u64 = phases.values().map(|c| c.warp_cycles).sum();
        let _ = writeln!(r, "phases (warp time: each warp's own phase, exact):");
        let labels: Vec<String> = phases.keys().map(|&p| s.phase_label(p)).collect();
        let width = labels.iter().map(String::len).max().unwrap_or(0).max(4);
        for ((p, c), label) in phases.iter().zip(&labels) {
            let (l1d, dram) = s.memory.phases.get(p).map_or((0.0, 0), |m| {
                (100.0 * merged(&m.l1d).hit_rate(), m.dram.bytes)
            });
            let _ = writeln!(
                r,
                "  phase {label:<width$} {:>5.1}% warp time {:>12} core-cycles {:>12} warp instr {:>6.1}% issued, l1d {l1d:>5.1}% hits, dram {dram} bytes",
                ratio(c.warp_cycles, warp_cycles),
                c.cycles,
                c.instructions,
                ratio(c.slots.get(SlotReason::Issued), c.slots.total())
            );
        }
    }
    iterations_report(&mut r, &s.iterations, g.threads_per_warp);
    let _ = writeln!(
        r,
        "{:<22}{:.3} s, {:.0} cycles/s, {:.0} warp instr/s",
        "host", host.seconds, host.cycles_per_second, host.warp_instructions_per_second
    );
    r
}

/// The iterations the program marked: all of them when few, else the first and last few
/// (the JSON has every one).
fn iterations_report(r: &mut String, iterations: &[Iteration], threads: u32) {
    const HEAD: usize = 8;
    const TAIL: usize = 3;
    if iterations.is_empty() {
        return;
    }
    let cycles: u64 = iterations.iter().map(|i| i.cycles).sum();
    let _ = writeln!(
        r,
        "iterations ({}, {cycles} cycles):\n  {:>5} {:>10} {:>12} {:>12} {:>9} {:>9} {:>12}",
        iterations.len(),
        "#",
        "active",
        "cycles",
        "warp instr",
        "SIMT eff",
        "l1d hits",
        "dram bytes"
    );
    let row = |r: &mut String, i: &Iteration| {
        let c = &i.counters;
        let eff = ratio(c.thread_instructions, c.instructions * u64::from(threads));
        let hits = ratio(i.memory.l1d.hits, i.memory.l1d.accesses);
        let _ = writeln!(
            r,
            "  {:>5} {:>10} {:>12} {:>12} {:>8.1}% {:>8.1}% {:>12}",
            i.index, i.active, i.cycles, c.instructions, eff, hits, i.memory.dram_bytes
        );
    };
    let shown_all = iterations.len() <= HEAD + TAIL + 1;
    for i in iterations
        .iter()
        .take(if shown_all { usize::MAX } else { HEAD })
    {
        row(r, i);
    }
    if !shown_all {
        let hidden = iterations.len() - HEAD - TAIL;
        let _ = writeln!(r, "  ... {hidden} more (the JSON's `iterations` has each)");
        for i in &iterations[iterations.len() - TAIL..] {
            row(r, i);
        }
    }
}

/// `100 a / b`, 0 when `b` is 0.
fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// What the Weaver units did.
fn weaver_report(r: &mut String, config: &Config, w: &WeaverCounters, s: &RunSummary) {
    let c = &config.weaver;
    let _ = writeln!(
        r,
        "{:<22}{:?} mode{}, {} ST entries, table latency {}, L1D {} KiB",
        "weaver",
        c.mode,
        if s.eghw_by_program {
            " (the program requires it)"
        } else {
            ""
        },
        c.entries,
        c.table_latency,
        s.l1d_size / 1024
    );
    let per_batch = if w.batches == 0 {
        0.0
    } else {
        w.lanes_filled as f64 / w.batches as f64
    };
    let _ = writeln!(
        r,
        "  {:<20}{} ({} entries, {} rounds)",
        "registrations", w.registrations, w.entries_registered, w.rounds
    );
    let _ = writeln!(
        r,
        "  {:<20}{} ({} batches, {per_batch:.1} lanes/batch, {} answered -1)",
        "decode requests", w.decode_requests, w.batches, w.empty_answers
    );
    let _ = writeln!(
        r,
        "  {:<20}dec_loc {}, skip {} ({} edges dropped)",
        "other requests", w.location_requests, w.skips, w.edges_skipped
    );
    let _ = writeln!(
        r,
        "  {:<20}{} reads, {} writes, {} memory line requests (EGHW)",
        "table accesses", w.table_reads, w.table_writes, w.memory_requests
    );
    let _ = writeln!(r, "  FSM cycles by state (visits):");
    for s in FsmState::ALL {
        let _ = writeln!(
            r,
            "    {:<24}{:>12} ({})",
            format!("{s:?} {}", s.meaning()),
            w.state_cycles.get(s),
            w.state_visits.get(s)
        );
    }
}

/// The counters the report shows, summed over caches.
fn merged(caches: &[CacheStats]) -> CacheStats {
    let mut t = CacheStats::default();
    for c in caches {
        t.accesses += c.accesses;
        t.hits += c.hits;
        t.misses += c.misses;
        t.mshr_merges += c.mshr_merges;
        t.mshr_full_stalls += c.mshr_full_stalls;
        t.bank_stalls += c.bank_stalls;
        t.port_stalls += c.port_stalls;
        t.queue_full_stalls += c.queue_full_stalls;
        t.writebacks += c.writebacks;
    }
    t
}

/// Cache hit rates and stalls, DRAM traffic, what writes do.
fn memory_report(r: &mut String, m: &HierarchyStats, levels: &MemConfig, cycles: u64) {
    let policies: Vec<String> = report::write_policies(levels)
        .iter()
        .map(|(level, policy)| format!("{level} {}", policy_name(*policy)))
        .collect();
    let _ = writeln!(r, "{:<22}{}", "write policy", policies.join(", "));
    let l3 = m.l3.iter().cloned().collect::<Vec<_>>();
    for (name, c) in [
        ("l1i", merged(&m.l1i)),
        ("l1d", merged(&m.l1d)),
        ("l2", merged(&m.l2)),
        ("l3", merged(&l3)),
    ] {
        if c.accesses == 0 {
            continue;
        }
        let _ = writeln!(
            r,
            "{name:<22}{:>6.1}% hits of {}, {} mshr merges, stalls: {} mshr full, {} bank, {} port, {} queue",
            100.0 * c.hit_rate(),
            c.accesses,
            c.mshr_merges,
            c.mshr_full_stalls,
            c.bank_stalls,
            c.port_stalls,
            c.queue_full_stalls
        );
    }
    let d = &m.dram;
    if d.completed > 0 {
        let _ = writeln!(
            r,
            "{:<22}{} reads, {} writes, {} bytes, {:.2} B/cycle, row hits {:.1}%, latency {:.1}, queue {:.2}",
            "dram",
            d.reads,
            d.writes,
            d.bytes,
            d.bandwidth_bytes_per_cycle(cycles),
            100.0 * d.row_hit_rate(),
            d.avg_latency(),
            d.avg_queue_occupancy()
        );
    }
    // Traffic still queued at exit is not in the cycle count: say so when there is some.
    if m.dram_unfinished > 0 {
        let _ = writeln!(
            r,
            "{:<22}{} requests still queued at exit (not in the cycles)",
            "dram unfinished", m.dram_unfinished
        );
    }
}

fn policy_name(p: WritePolicy) -> &'static str {
    match p {
        WritePolicy::WriteThrough => "write-through (no allocate on a write miss)",
        WritePolicy::WriteBack => "write-back (write-allocate)",
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
