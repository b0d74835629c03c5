//! A run's summary for the terminal (`wsim run`): the machine, time and instructions,
//! issue slots, units, memory, the Weaver unit, phases and iterations, read from the
//! run's typed report (the JSON has everything; this is what a person reads first).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use wsim_sim::mem::cache::WritePolicy;
use wsim_sim::mem::dram::DramConfig;
use wsim_sim::mem::hierarchy::{CacheLevel, HierarchyStats};
use wsim_sim::report::{Report, Status};
use wsim_sim::stats::{
    CoreCounters, FsmState, Iteration, LaunchRecord, Merge, SlotReason, Slots, Stratum,
};
use wsim_sim::Mode;

/// The summary of a run: its exit status, or how it failed (the first line of the error)
/// or that it was interrupted, then its statistics (up to the failure or interruption).
pub fn summary<W>(r: &Report<W>) -> String {
    if r.mode != Mode::Detailed {
        return functional(r);
    }
    let t = &r.total;
    let g = &r.config.gpu;
    let mut s = String::new();
    let _ = writeln!(s, "--- wsim: {} ---", r.program);
    status(&mut s, r);
    let _ = writeln!(
        s,
        "{:<22}{} clusters x {} cores x {} warps x {} threads, {} issue slot(s)/core, config {}",
        "machine",
        g.clusters,
        g.cores_per_cluster,
        g.warps_per_core,
        g.threads_per_warp,
        r.issue_slots_per_core,
        r.config_hash
    );
    if r.sampling.as_ref().is_some_and(|p| p.whole_run) {
        let _ = writeln!(
            s,
            "{:<22}sampled, simulated whole: the plan would have simulated three quarters of \
             the warp instructions in detail or more, so the run was simulated in detail from \
             its start; every number below is the detailed run's",
            "mode"
        );
    }
    let _ = writeln!(s, "{:<22}{}", "cycles", r.cycles);
    let _ = writeln!(
        s,
        "{:<22}{} warp, {} thread",
        "instructions", t.instructions, t.thread_instructions
    );
    let cores = r.cores.len() as u64;
    let _ = writeln!(
        s,
        "{:<22}{:.3} warp instructions/cycle (all cores; peak {} = {cores} cores x {} issue \
         slots), SIMT efficiency {:.1}%",
        "IPC",
        r.ipc,
        cores * r.issue_slots_per_core as u64,
        r.issue_slots_per_core,
        100.0 * r.simt_efficiency
    );
    branches(&mut s, r);
    let slots = t.slots.total();
    let _ = writeln!(
        s,
        "issue slots ({slots} slots = {cores} cores x {} per cycle x {} cycles; % of all):",
        r.issue_slots_per_core, r.cycles
    );
    for reason in SlotReason::ALL {
        let n = t.slots.get(reason);
        if n > 0 {
            let _ = writeln!(
                s,
                "  {:<20}{:>14} {:>6.1}%",
                reason.name(),
                n,
                percent(n, slots)
            );
        }
    }
    let _ = writeln!(
        s,
        "{:<22}alu {} mul {} div {} fpu {} lsu {} sfu {}",
        "units", t.alu, t.mul, t.div, t.fpu, t.lsu, t.sfu
    );
    let _ = writeln!(
        s,
        "{:<22}{} loads, {} stores, {} atomics, {} line requests, {} local ({} conflict cycles)",
        "memory",
        t.loads,
        t.stores,
        t.atomics,
        t.dcache_requests,
        t.local_accesses,
        t.local_bank_conflict_cycles
    );
    memory(&mut s, r);
    if r.weaver_unit {
        weaver(&mut s, r);
    }
    phases(&mut s, r);
    iterations(&mut s, &r.iterations, g.threads_per_warp);
    launches(&mut s, &r.launches, g.threads_per_warp);
    if let Some(host) = &r.host {
        let _ = writeln!(
            s,
            "{:<22}{:.3} s, {:.0} cycles/s, {:.0} warp instr/s",
            "host", host.seconds, host.cycles_per_second, host.warp_instructions_per_second
        );
    }
    s
}

/// The phases: warp time (each warp's own phase), then what the core's phase splits
/// (docs/KERNELS.md, "Two splits"), and the issue slots of each phase by reason.
fn phases<W>(s: &mut String, r: &Report<W>) {
    if r.phases.len() > 1 {
        let warp_cycles: u64 = r.phases.values().map(|c| c.warp_cycles).sum();
        let _ = writeln!(
            s,
            "phases (warp time follows each warp's own phase, exact; the other columns and \
             the slots below follow the core's phase, the last any of its warps wrote; \
             core-cycles are summed over the {} cores, so they add up to {} x the run's cycles):",
            r.cores.len(),
            r.cores.len()
        );
        let labels: Vec<String> = r.phases.keys().map(|&p| r.phase_label(p)).collect();
        let width = labels.iter().map(String::len).max().unwrap_or(0).max(4);
        for ((p, c), label) in r.phases.iter().zip(&labels) {
            let (l1d, dram) = r.memory_phases.get(p).map_or((0.0, 0), |m| {
                (100.0 * m.level(CacheLevel::L1d).hit_rate(), m.dram.bytes)
            });
            let _ = writeln!(
                s,
                "  phase {label:<width$} {:>5.1}% warp time {:>12} core-cycles {:>12} warp instr {:>6.1}% issued, l1d {l1d:>5.1}% hits, dram {dram} bytes",
                percent(c.warp_cycles, warp_cycles),
                c.cycles,
                c.instructions,
                percent(c.slots.get(SlotReason::Issued), c.slots.total())
            );
        }
        // The stalls of each phase: the reasons any phase has, as % of its slots.
        let reasons: Vec<SlotReason> = (SlotReason::ALL.into_iter())
            .filter(|&reason| r.phases.values().any(|c| c.slots.get(reason) > 0))
            .collect();
        let mut header = format!("  {:<width$}      ", "");
        for reason in &reasons {
            let _ = write!(
                header,
                " {:>w$}",
                reason.name(),
                w = reason.name().len().max(6)
            );
        }
        let _ = writeln!(s, "issue slots by phase (% of the phase's slots):");
        let _ = writeln!(s, "{}", header.trim_end());
        for ((_, c), label) in r.phases.iter().zip(&labels) {
            let mut line = format!("  phase {label:<width$}");
            for &reason in &reasons {
                let share = percent(c.slots.get(reason), c.slots.total());
                let w = reason.name().len().max(6) - 1;
                let _ = write!(line, " {share:>w$.1}%");
            }
            let _ = writeln!(s, "{line}");
        }
    }
}

/// The report's last line: where its terms are explained, and what to run next.
pub fn guide<W>(r: &Report<W>) -> String {
    let next = if r.profile.is_some() {
        "--annotate FUNCTION for a function's instructions"
    } else {
        "--profile-pc for where the stalls are (functions, source lines, instructions)"
    };
    format!(
        "reading this report: docs/OBSERVING.md, \"Reading the report\"; next: wsim run {next}\n"
    )
}

/// A functional run's summary: what the architecture determines, and a line saying that
/// nothing was timed (no cycles, issue slots, caches or DRAM).
fn functional<W>(r: &Report<W>) -> String {
    let t = &r.total;
    let g = &r.config.gpu;
    let threads = g.threads_per_warp;
    let mut s = String::new();
    let sampled = r.sampling.as_ref();
    let mode = if sampled.is_some() {
        "sampled"
    } else {
        "functional"
    };
    let _ = writeln!(s, "--- wsim: {} ({mode}) ---", r.program);
    status(&mut s, r);
    let _ = writeln!(
        s,
        "{:<22}{} clusters x {} cores x {} warps x {} threads, config {}",
        "machine", g.clusters, g.cores_per_cluster, g.warps_per_core, threads, r.config_hash
    );
    match sampled {
        None => {
            let _ = writeln!(
                s,
                "{:<22}functional: instructions executed, nothing timed (no cycles, issue \
                 slots, caches or DRAM)",
                "mode"
            );
        }
        Some(p) => sampling(&mut s, p),
    }
    let _ = writeln!(
        s,
        "{:<22}{} warp, {} thread, SIMT efficiency {:.1}%",
        "instructions",
        t.instructions,
        t.thread_instructions,
        100.0 * r.simt_efficiency
    );
    branches(&mut s, r);
    let _ = writeln!(
        s,
        "{:<22}alu {} mul {} div {} fpu {} lsu {} sfu {}",
        "units", t.alu, t.mul, t.div, t.fpu, t.lsu, t.sfu
    );
    let _ = writeln!(
        s,
        "{:<22}{} loads, {} stores, {} atomics, {} barriers, {} warps spawned",
        "memory, control", t.loads, t.stores, t.atomics, t.barriers, t.warps_spawned
    );
    if r.weaver_unit {
        let w = &t.weaver;
        let _ = writeln!(
            s,
            "{:<22}{} registrations ({} entries, {} rounds), {} decodes ({} batches, {} lanes \
             filled, {} empty), {} locates, {} skips",
            "weaver",
            w.registrations,
            w.entries_registered,
            w.rounds,
            w.decode_requests,
            w.batches,
            w.lanes_filled,
            w.empty_answers,
            w.location_requests,
            w.skips
        );
    }
    if r.phases.len() > 1 {
        let _ = writeln!(
            s,
            "phases (the core's phase, the last any of its warps wrote):"
        );
        for (&p, c) in &r.phases {
            let _ = writeln!(
                s,
                "  phase {:<12} {:>14} warp instr {:>16} thread instr",
                r.phase_label(p),
                c.instructions,
                c.thread_instructions
            );
        }
    }
    let intervals = |s: &mut String, what: &str, rows: Vec<(u32, Option<u32>, &CoreCounters)>| {
        if rows.is_empty() {
            return;
        }
        let _ = writeln!(
            s,
            "{what} ({}):\n  {:>5} {:>10} {:>14} {:>16} {:>9}",
            rows.len(),
            "#",
            "active",
            "warp instr",
            "thread instr",
            "SIMT eff"
        );
        for (index, active, c) in rows {
            let active = active.map_or(String::from("-"), |a| a.to_string());
            let eff = percent(c.thread_instructions, c.instructions * u64::from(threads));
            let _ = writeln!(
                s,
                "  {index:>5} {active:>10} {:>14} {:>16} {eff:>8.1}%",
                c.instructions, c.thread_instructions
            );
        }
    };
    let iterations = (r.iterations.iter())
        .map(|i| (i.index, Some(i.active), &i.counters))
        .collect();
    intervals(&mut s, "iterations", iterations);
    let launches = (r.launches.iter())
        .map(|l| (l.index, None, &l.counters))
        .collect();
    intervals(&mut s, "launches", launches);
    if let Some(host) = &r.host {
        let _ = writeln!(
            s,
            "{:<22}{:.3} s, {:.0} warp instr/s",
            "host", host.seconds, host.warp_instructions_per_second
        );
    }
    s
}

/// A sampled run's interleaving check: whether its work followed the order the warps ran
/// in, which its estimate and interval then hold only for the order the functional run took.
/// A sampled run's budget of detail: whether the plan was trimmed to it, and how.
fn budget(s: &mut String, b: &wsim_sim::stats::Budget, instructions: u64) {
    let share = |n: u64| 100.0 * n as f64 / instructions.max(1) as f64;
    let trimmed = match b.probe_length {
        Some(n) => format!(", the cores' probes at most {n} warp instructions"),
        None => String::new(),
    };
    let _ = writeln!(
        s,
        "{:<22}{}% of the warp instructions in detail: {}; the plan {:.1}% at most, {:.1}% \
         kept ({} measured unit(s) and {} warm-up check(s) dropped{trimmed})",
        "  budget",
        100.0 * b.share,
        if b.held {
            "held"
        } else {
            "not held (each stratum's first measured unit alone is beyond it)"
        },
        share(b.planned),
        share(b.kept),
        b.dropped_units,
        b.dropped_checks,
    );
}

fn interleaving(s: &mut String, i: &wsim_sim::stats::Interleaving, run_instructions: u64) {
    let (warp, thread) = i.moved_shares();
    let what = match i.finding() {
        "elsewhere" => "the other order did not stand at the same launch there".to_string(),
        "work" => format!(
            "the other order moved {:.4}% of the kernels' thread instructions and {:.4}% of \
             their warp instructions: the work follows the order",
            100.0 * thread,
            100.0 * warp
        ),
        "places" => format!(
            "the other order moved {:.4}% of the kernels' warp instructions, none of their \
             thread instructions: the work's places in the warps follow the order",
            100.0 * warp
        ),
        _ => "the other order did the same work PC by PC".to_string(),
    };
    let so = match i.follows_order() {
        true => {
            "; the estimate and its interval are of this run's order, and a detailed run \
             follows its own, which can do more or less work by more than the interval \
             (SSSP on a road graph: 6.66% more warp instructions functionally; \
             docs/ARCHITECTURE.md, \"Sampled simulation\", item 12)"
        }
        false => ", which does not show that later launches would",
    };
    let _ = writeln!(
        s,
        "{:<22}the run's first {} launch(es) ({:.1}% of its warp instructions) again with \
         the cores and warps in the other order: {what}{so}",
        "  interleaving",
        i.launches,
        100.0 * i.instructions as f64 / run_instructions.max(1) as f64,
    );
}

/// The branches, how many diverged, and the deepest SIMT stack.
fn branches<W>(s: &mut String, r: &Report<W>) {
    let t = &r.total;
    let _ = writeln!(
        s,
        "{:<22}{} ({} divergent), max SIMT stack depth {}",
        "branches",
        t.branches,
        t.divergent_branches,
        r.max_stack_depth()
    );
}

/// A sampled run's estimate of its cycles, how it was made, and each stratum's part.
fn sampling(s: &mut String, p: &wsim_sim::stats::Sampling) {
    let _ = writeln!(
        s,
        "{:<22}sampled: instructions executed, {} of {} units simulated in detail (units end \
         with launches{}{}; one in {} of a stratum's, {} warm-up unit(s) before each stretch, \
         caches {} functionally), {:.1}% of the warp instructions",
        "mode",
        p.sampled_units,
        p.units,
        match p.period {
            0 => String::new(),
            n => format!(" and inside them every {n} warp instructions"),
        },
        if p.cluster > 0.0 {
            format!(", later launches in clusters of diameter {}", p.cluster)
        } else {
            String::new()
        },
        p.every,
        p.warmup_units,
        if p.warm_caches {
            "warmed"
        } else {
            "not warmed"
        },
        100.0 * p.detailed_instructions as f64 / p.instructions.max(1) as f64
    );
    let how = if p.cycles_high.is_infinite() {
        "estimated (no interval: a stratum of several units measured once, and no other to \
         collapse it with)"
            .to_string()
    } else if p.degrees_of_freedom == 0 {
        "estimated (every unit measured)".to_string()
    } else {
        let collapsed = (p.strata.iter()).filter_map(|h| h.collapsed).max();
        format!(
            "estimated (95% interval {:.0} to {:.0}, +-{:.2}%{})",
            p.cycles_low,
            p.cycles_high,
            100.0 * (p.cycles_high - p.cycles) / p.cycles.max(1.0),
            collapsed.map_or(String::new(), |l| format!(
                "; {l} strata measured once collapsed: their spread between them stands for \
                 each one's own, an overstatement"
            ))
        )
    };
    let _ = writeln!(s, "{:<22}{:.0} {how}", "cycles", p.cycles);
    if let Some(b) = &p.budget {
        budget(s, b, p.instructions);
    }
    let timed: f64 = p.strata.iter().filter_map(Stratum::timed_cycles).sum();
    if timed > 0.0 {
        let _ = writeln!(
            s,
            "{:<22}{:.1}% of the estimate is {} launch(es) the cores' progress model timed: the \
             interval holds its calibration's spread and its lone warps' (+-{:.2}%), not the \
             rest of the model's error (measured against full detail in \
             docs/ARCHITECTURE.md, \"Sampled simulation\", item 8)",
            "  timed by the model",
            100.0 * timed / p.cycles.max(1.0),
            p.launch_progress.len(),
            100.0 * p.lone_warp_half_width / p.cycles.max(1.0)
        );
    }
    if let Some(i) = &p.interleaving {
        interleaving(s, i, p.instructions);
    }
    if let Some(c) = &p.check {
        let _ = writeln!(
            s,
            "{:<22}{} unit(s) measured again after up to {} units of warm-up: {:.4}x (+-{:.4}), {}",
            "  warm-up check",
            c.units,
            p.check_warmup,
            c.ratio,
            c.ratio_half_width,
            if c.applied {
                "the measured units after a warm-up corrected by it, or by their stratum's own \
                 when four or more of its units were checked"
            } else {
                "not applied (one unit: its spread unknown)"
            }
        );
    }
    for h in &p.strata {
        let _ = writeln!(
            s,
            "{:<22}{}: {} of {} units, {} warp instructions, {:.0} cycles +-{:.0}{}{}{}",
            "  stratum",
            h.name,
            h.sampled_units,
            h.units,
            h.instructions,
            h.cycles,
            h.half_width,
            h.check_ratio
                .map_or(String::new(), |r| format!(", corrected by {r:.4}x")),
            h.progress_ratio.map_or(String::new(), |r| format!(
                ", scaled by {r:.4}x for the cores' progress"
            )),
            if h.collapsed.is_some() {
                ", interval collapsed"
            } else {
                ""
            }
        );
    }
    for probe in &p.probes {
        let rates: Vec<String> = probe.rates.iter().map(|r| format!("{r:.3}")).collect();
        let at_work = match (probe.lone_warp, probe.alone) {
            (true, _) => "one warp of one socket".to_string(),
            (false, true) => format!("the last {} core(s) of one socket", probe.active),
            (false, false) => format!("the last {} core(s) of each socket", probe.active),
        };
        let _ = writeln!(
            s,
            "{:<22}{} (unit {}): {at_work} at work, the others parked: {} warp \
             instructions a cycle by core in {} cycles",
            "  probe",
            probe.kernel,
            probe.unit,
            rates.join(" "),
            probe.cycles
        );
    }
}

/// The exit status, or how the run failed (the first line of the error) or that it was
/// interrupted, and where: at which cycle of a detailed run.
fn status<W>(s: &mut String, r: &Report<W>) {
    let first = (r.error.as_deref().unwrap_or_default().lines().next()).unwrap_or_default();
    let (at, upto) = match r.mode {
        Mode::Detailed => (format!(" at cycle {}", r.cycles), "up to that cycle"),
        Mode::Functional | Mode::Sampled => (String::new(), "up to there"),
    };
    let _ = match r.status {
        Status::Ok => writeln!(s, "{:<22}{}", "exit status", r.exit_code),
        Status::Failed => writeln!(s, "{:<22}FAILED{at}: {first}", "status"),
        Status::Interrupted => writeln!(
            s,
            "{:<22}INTERRUPTED{at} (SIGINT or SIGTERM): the statistics below are partial, \
             {upto}",
            "status"
        ),
    };
}

/// The iterations the program marked: all of them when few, else the first and last few
/// (the JSON has every one).
fn iterations(s: &mut String, iterations: &[Iteration], threads: u32) {
    const HEAD: usize = 8;
    const TAIL: usize = 3;
    if iterations.is_empty() {
        return;
    }
    let cycles: u64 = iterations.iter().map(|i| i.cycles).sum();
    let _ = writeln!(
        s,
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
    let row = |s: &mut String, i: &Iteration| {
        let c = &i.counters;
        let eff = percent(c.thread_instructions, c.instructions * u64::from(threads));
        let hits = percent(i.memory.l1d.hits, i.memory.l1d.accesses);
        let _ = writeln!(
            s,
            "  {:>5} {:>10} {:>12} {:>12} {:>8.1}% {:>8.1}% {:>12}",
            i.index, i.active, i.cycles, c.instructions, eff, hits, i.memory.dram_bytes
        );
    };
    let shown_all = iterations.len() <= HEAD + TAIL + 1;
    for i in iterations
        .iter()
        .take(if shown_all { usize::MAX } else { HEAD })
    {
        row(s, i);
    }
    if !shown_all {
        let hidden = iterations.len() - HEAD - TAIL;
        let _ = writeln!(s, "  ... {hidden} more (the JSON's `iterations` has each)");
        for i in &iterations[iterations.len() - TAIL..] {
            row(s, i);
        }
    }
}

/// The kernel launches: all of them when few, else the first and last few (the JSON has
/// every one), each with its kernel and its issue slots' main reasons; then the launches
/// summed per kernel.
fn launches(s: &mut String, launches: &[LaunchRecord], threads: u32) {
    const HEAD: usize = 8;
    const TAIL: usize = 3;
    if launches.is_empty() {
        return;
    }
    // A profiled run's records have their launch wait: a column of its own.
    let waits = launches.iter().all(|l| l.launch_wait.is_some());
    let wait_head = if waits {
        format!(" {:>7}", "wait")
    } else {
        String::new()
    };
    let wait_said = if waits {
        "; wait: warp 0's launch wait in `wsim_spawn`"
    } else {
        ""
    };
    let cycles: u64 = launches.iter().map(|l| l.cycles).sum();
    let _ = writeln!(
        s,
        "launches ({}, {cycles} cycles; slots as % of the launch's core issue slots{wait_said}):\n  {:>5} {:<24} {:>12} {:>10} {:>12} {:>14} {:>9} {:>7}{wait_head}  top stall reasons",
        launches.len(),
        "#",
        "kernel",
        "start cycle",
        "cycles",
        "warp instr",
        "thread instr",
        "SIMT eff",
        "issued"
    );
    let row = |s: &mut String, l: &LaunchRecord| {
        let kernel = l.kernel.as_deref().unwrap_or("?");
        let _ = write!(s, "  {:>5} {kernel:<24} {:>12} ", l.index, l.start_cycle);
        counters_row(s, l.cycles, &l.counters, l.launch_wait.as_ref(), threads);
    };
    let shown_all = launches.len() <= HEAD + TAIL + 1;
    for l in launches
        .iter()
        .take(if shown_all { usize::MAX } else { HEAD })
    {
        row(s, l);
    }
    if !shown_all {
        let hidden = launches.len() - HEAD - TAIL;
        let _ = writeln!(s, "  ... {hidden} more (the JSON's `launches` has each)");
        for l in &launches[launches.len() - TAIL..] {
            row(s, l);
        }
    }
    // Per kernel, most cycles first.
    let mut kernels: BTreeMap<&str, (u64, u64, CoreCounters, Slots)> = BTreeMap::new();
    for l in launches {
        let k = kernels
            .entry(l.kernel.as_deref().unwrap_or("?"))
            .or_default();
        k.0 += 1;
        k.1 += l.cycles;
        k.2.merge(&l.counters);
        k.3.merge(&l.launch_wait.unwrap_or_default());
    }
    let mut kernels: Vec<_> = kernels.into_iter().collect();
    kernels.sort_by_key(|(name, (_, cycles, _, _))| (std::cmp::Reverse(*cycles), *name));
    let _ = writeln!(
        s,
        "kernels ({}; the launches of each summed):\n  {:<24} {:>8} {:>10} {:>12} {:>14} {:>9} {:>7}{wait_head}  top stall reasons",
        kernels.len(),
        "kernel",
        "launches",
        "cycles",
        "warp instr",
        "thread instr",
        "SIMT eff",
        "issued"
    );
    for (name, (n, cycles, c, wait)) in &kernels {
        let _ = write!(s, "  {name:<24} {n:>8} ");
        counters_row(s, *cycles, c, waits.then_some(wait), threads);
    }
}

/// An interval's columns from its cycles on: instructions, SIMT efficiency, the slots
/// issued, the launch wait's stall slots (when given) and the top three stall reasons, as
/// % of the interval's core issue slots.
fn counters_row(s: &mut String, cycles: u64, c: &CoreCounters, wait: Option<&Slots>, threads: u32) {
    let slots = c.slots.total();
    let mut stalls: Vec<(u64, SlotReason)> = (SlotReason::ALL.into_iter())
        .filter(|&r| r != SlotReason::Issued && c.slots.get(r) > 0)
        .map(|r| (c.slots.get(r), r))
        .collect();
    stalls.sort_by_key(|&(n, r)| (std::cmp::Reverse(n), r));
    let top: Vec<String> = (stalls.iter().take(3))
        .map(|&(n, r)| format!("{} {:.1}%", r.name(), percent(n, slots)))
        .collect();
    let wait = wait.map_or(String::new(), |w| {
        let stalled = w.total() - w.get(SlotReason::Issued);
        format!(" {:>6.1}%", percent(stalled, slots))
    });
    let _ = writeln!(
        s,
        "{cycles:>10} {:>12} {:>14} {:>8.1}% {:>6.1}%{wait}  {}",
        c.instructions,
        c.thread_instructions,
        percent(c.thread_instructions, c.instructions * u64::from(threads)),
        percent(c.slots.get(SlotReason::Issued), slots),
        top.join(", ")
    );
}

/// `100 a / b`, 0 when `b` is 0.
fn percent(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// What the Weaver units did.
fn weaver<W>(s: &mut String, r: &Report<W>) {
    let c = &r.config.weaver;
    let w = &r.total.weaver;
    let _ = writeln!(
        s,
        "{:<22}{:?} mode{}, {} ST entries, table latency {} cycles, L1D {} KiB of {} KiB \
         configured (the tables take weaver.l1d_reduction_percent = {}%)",
        "weaver",
        c.mode,
        if r.eghw_by_program {
            " (the program requires it)"
        } else {
            ""
        },
        c.entries,
        c.table_latency,
        r.l1d_size / 1024,
        r.config.memory.l1d.size / 1024,
        c.l1d_reduction_percent
    );
    let per_batch = if w.batches == 0 {
        0.0
    } else {
        w.lanes_filled as f64 / w.batches as f64
    };
    let _ = writeln!(
        s,
        "  {:<20}{} ({} entries, {} rounds)",
        "registrations", w.registrations, w.entries_registered, w.rounds
    );
    let _ = writeln!(
        s,
        "  {:<20}{} ({} batches, {per_batch:.1} lanes/batch, {} answered -1)",
        "decode requests", w.decode_requests, w.batches, w.empty_answers
    );
    let _ = writeln!(
        s,
        "  {:<20}dec_loc {}, skip {} ({} edges dropped)",
        "other requests", w.location_requests, w.skips, w.edges_skipped
    );
    let _ = writeln!(
        s,
        "  {:<20}{} reads, {} writes, {} memory line requests (EGHW)",
        "table accesses", w.table_reads, w.table_writes, w.memory_requests
    );
    let _ = writeln!(
        s,
        "  FSM cycles by state, summed over the {} units (one per core, so a state can exceed \
         the run's cycles) (visits):",
        r.cores.len()
    );
    for state in FsmState::ALL {
        let _ = writeln!(
            s,
            "    {:<24}{:>12} ({})",
            format!("{state:?} {}", state.meaning()),
            w.state_cycles.get(state),
            w.state_visits.get(state)
        );
    }
}

/// Cache hit rates and stalls, DRAM traffic, what writes do.
fn memory<W>(s: &mut String, r: &Report<W>) {
    let m: &HierarchyStats = &r.memory;
    let policies: Vec<String> = r
        .write_policy
        .iter()
        .map(|(level, policy)| format!("{level} {}", policy_name(*policy)))
        .collect();
    let _ = writeln!(s, "{:<22}{}", "write policy", policies.join(", "));
    for level in CacheLevel::ALL {
        let c = m.level(level);
        if c.accesses == 0 {
            continue;
        }
        let _ = writeln!(
            s,
            "{:<22}{:>6.1}% hits of {} accesses, {} mshr merges, refused attempts (each retry counts): {} mshr full, {} bank, {} port, {} queue",
            level.name(),
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
            s,
            "{:<22}{} reads, {} writes, {} bytes, {:.2} bytes/cycle of a peak {:.2}, row hits {:.1}%, latency {:.1} cycles (mean), queue {:.2} requests (mean)",
            "dram",
            d.reads,
            d.writes,
            d.bytes,
            d.bandwidth_bytes_per_cycle(r.cycles),
            dram_peak(&r.config.memory.dram),
            100.0 * d.row_hit_rate(),
            d.avg_latency(),
            d.avg_queue_occupancy()
        );
    }
    // Every store that reaches a write-through last level goes on to DRAM.
    if let Some((level, WritePolicy::WriteThrough)) = r.write_policy.iter().last() {
        if d.writes > 0 {
            let _ = writeln!(
                s,
                "{:<22}the {level} writes through: each store reaching it is a DRAM write, so \
                 writes can outnumber reads",
                ""
            );
        }
    }
    // Traffic still queued at exit is not in the cycle count: say so when there is some.
    if m.dram_unfinished > 0 {
        let _ = writeln!(
            s,
            "{:<22}{} requests still queued at exit (not in the cycles)",
            "dram unfinished", m.dram_unfinished
        );
    }
}

/// DRAM's peak bytes per core cycle: every channel moving a burst of `bus_bytes x
/// burst_length` every max(tCCD, BL/2) DRAM cycles (sim/src/mem/dram/mod.rs), DRAM cycles
/// `clock_ratio` core cycles long.
fn dram_peak(d: &DramConfig) -> f64 {
    let burst = f64::from(d.bus_bytes * d.burst_length);
    let every = f64::from(d.t_ccd.max(d.burst_length / 2).max(1));
    f64::from(d.channels) * burst / every / f64::from(d.clock_ratio.max(1))
}

fn policy_name(p: WritePolicy) -> &'static str {
    match p {
        WritePolicy::WriteThrough => "write-through (no allocate on a write miss)",
        WritePolicy::WriteBack => "write-back (write-allocate)",
    }
}
