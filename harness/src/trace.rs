//! A run's timeline (`wsim_sim::timeline`, recorded by `wsim run --trace FILE`) as a Chrome trace
//! (JSON trace event format), which ui.perfetto.dev and chrome://tracing load. One process
//! per core (its phases, counters, and with `--trace-warps` a track per warp) and one for
//! the machine (iterations, when the program marks them; machine-wide counters; the Weaver
//! unit's wait only for a machine with it). Time is in cycles: the viewer's microsecond is
//! one cycle (the format has no other unit; its `displayTimeUnit` is left out). And the
//! instruction trace (`--trace-instructions FILE`) as text, a line per instruction issued.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use serde::Serialize;
use serde_json::{json, Value};
use wsim_sim::instruction_trace::InstructionTrace;
use wsim_sim::report::Report;
use wsim_sim::stats::SlotReason;
use wsim_sim::timeline::{Sample, SliceKind, Timeline, TimelineOptions};
use wsim_sim::Machine;

/// Samples kept at most (the interval doubles beyond) and slices kept at most: with
/// 6 cores, about 4 MB of counters and 10 MB of slices at worst.
pub const MAX_SAMPLES: usize = 2048;
pub const MAX_SLICES: usize = 100_000;

/// What the machine records for a trace: counter samples every `interval` cycles (the
/// interval doubles as often as needed to keep [`MAX_SAMPLES`]) and, with `warps`, a track
/// per warp.
pub fn options(interval: u64, warps: bool) -> TimelineOptions {
    TimelineOptions {
        interval,
        max_samples: MAX_SAMPLES,
        warps,
        max_slices: MAX_SLICES,
    }
}

/// One trace event: `ph` X (a slice), C (a counter), M (a name).
#[derive(Serialize)]
struct Event<'a> {
    name: Cow<'a, str>,
    ph: &'static str,
    ts: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    dur: Option<u64>,
    pid: usize,
    tid: usize,
    args: Value,
}

/// The process of the machine-wide tracks; core `c`'s is `c + 1`.
const MACHINE: usize = 0;

/// Write the timeline of `program`'s run to `path`.
pub fn write<W>(
    path: &Path,
    timeline: &Timeline,
    report: &Report<W>,
    program: &str,
) -> anyhow::Result<()> {
    crate::files::write_with(path, |out| {
        write_events(&mut &mut *out, timeline, report, program)
    })?;
    if timeline.dropped > 0 {
        tracing::warn!(
            "the trace keeps its first {MAX_SLICES} slices: {} more were left out",
            timeline.dropped
        );
    }
    Ok(())
}

fn write_events<W>(
    out: &mut impl Write,
    t: &Timeline,
    report: &Report<W>,
    program: &str,
) -> std::io::Result<()> {
    // The trace format counts time in microseconds and has no unit of its own: one
    // microsecond is one cycle, so durations read as cycles (`µs` in the viewer). No
    // `displayTimeUnit`: its only values, ms and ns, would scale the cycles by 1000.
    let meta = json!({
        "program": program,
        "time_unit": "cycles (the viewer's 1 us = 1 cycle)",
        "cycles": t.end,
        "sample_interval_cycles": t.interval,
        "slices_left_out": t.dropped,
    });
    write!(out, "{{\"otherData\":{meta},\"traceEvents\":[")?;
    let mut first = true;
    let mut emit = |e: Event| -> std::io::Result<()> {
        if !std::mem::take(&mut first) {
            out.write_all(b",\n")?;
        }
        serde_json::to_writer(&mut *out, &e).map_err(std::io::Error::from)
    };
    let name = |pid, tid, what: &'static str, value: String| Event {
        name: what.into(),
        ph: "M",
        ts: 0,
        dur: None,
        pid,
        tid,
        args: json!({ "name": value }),
    };
    let slice = |pid, tid, name: String, start: u64, end: u64, args: Value| Event {
        name: name.into(),
        ph: "X",
        ts: start,
        dur: Some(end - start),
        pid,
        tid,
        args,
    };
    emit(name(
        MACHINE,
        0,
        "process_name",
        "machine (time in cycles: 1 us = 1 cycle)".into(),
    ))?;
    // A program that marks no iterations (CSR 0x7C6) has no iterations track.
    if !report.iterations.is_empty() {
        emit(name(MACHINE, 0, "thread_name", "iterations".into()))?;
    }
    for i in &report.iterations {
        emit(slice(
            MACHINE,
            0,
            format!("iteration {}", i.index),
            i.start_cycle,
            i.start_cycle + i.cycles,
            json!({ "active": i.active, "warp_instructions": i.counters.instructions }),
        ))?;
    }
    for (c, core) in t.cores.iter().enumerate() {
        let pid = c + 1;
        emit(name(pid, 0, "process_name", format!("core {c}")))?;
        emit(name(pid, 0, "thread_name", "phases".into()))?;
        for s in &core.phases {
            let SliceKind::Phase(p) = s.kind else {
                continue;
            };
            let label = report.phase_label(p);
            emit(slice(
                pid,
                0,
                format!("phase {label}"),
                s.start,
                s.end,
                json!({ "phase": p }),
            ))?;
        }
        for (w, slices) in core.warps.iter().enumerate() {
            emit(name(pid, w + 1, "thread_name", format!("warp {w}")))?;
            for s in slices {
                let (what, args) = match s.kind {
                    SliceKind::Live => ("live".to_string(), json!({})),
                    SliceKind::Barrier(id) => (format!("barrier {id:#x}"), json!({ "id": id })),
                    SliceKind::Weaver => ("Weaver decode".to_string(), json!({})),
                    SliceKind::Phase(_) => continue,
                };
                emit(slice(pid, w + 1, what, s.start, s.end, args))?;
            }
        }
    }
    let counter = |pid, name: &'static str, s: &Sample, value: f64| Event {
        name: name.into(),
        ph: "C",
        ts: s.start,
        dur: None,
        pid,
        tid: 0,
        args: json!({ "value": value }),
    };
    for s in &t.samples {
        let cycles = (s.end - s.start) as f64;
        let instructions: u64 = s.cores.iter().map(|c| c.instructions).sum();
        emit(counter(MACHINE, "IPC", s, instructions as f64 / cycles))?;
        emit(counter(
            MACHINE,
            "DRAM bytes/cycle",
            s,
            s.dram_bytes as f64 / cycles,
        ))?;
        for (c, core) in s.cores.iter().enumerate() {
            let share = |r| {
                let all = core.slots.total();
                if all == 0 {
                    0.0
                } else {
                    100.0 * core.slots.get(r) as f64 / all as f64
                }
            };
            emit(counter(c + 1, "IPC", s, core.instructions as f64 / cycles))?;
            emit(counter(
                c + 1,
                "barrier wait % of slots",
                s,
                share(SlotReason::Barrier),
            ))?;
            if report.weaver_unit {
                emit(counter(
                    c + 1,
                    "Weaver wait % of slots",
                    s,
                    share(SlotReason::Weaver),
                ))?;
            }
        }
    }
    out.write_all(b"]}\n")
}

/// The instruction trace (`--trace-instructions`) as text: a header saying what it holds,
/// then a line per warp instruction issued: cycle, core, warp, PC, active lanes, the
/// instruction and its function and source line (as the machine's image has them after
/// the run).
pub fn write_instructions(
    path: &Path,
    trace: &InstructionTrace,
    machine: &Machine,
    program: &str,
) -> anyhow::Result<()> {
    crate::files::write_with(path, |out| {
        write_instruction_lines(&mut &mut *out, trace, machine, program)
    })?;
    if trace.left_out > 0 {
        tracing::warn!(
            "the instruction trace keeps its first {} instructions: {} more were left out \
             (--trace-limit, or narrow it with --trace-cores, --trace-warps-of, --trace-pcs, \
             --trace-cycles)",
            trace.filter.limit,
            trace.left_out
        );
    }
    Ok(())
}

fn write_instruction_lines(
    out: &mut impl Write,
    trace: &InstructionTrace,
    machine: &Machine,
    program: &str,
) -> std::io::Result<()> {
    let f = &trace.filter;
    let range = |r: Option<(u32, u32)>, hex: bool| match r {
        None => "all".to_string(),
        Some((a, b)) if hex => format!("{a:#x}-{b:#x}"),
        Some((a, b)) => format!("{a}-{b}"),
    };
    let cycles = f.cycles.map_or("all".into(), |(a, b)| format!("{a}-{b}"));
    writeln!(
        out,
        "# wsim instruction trace of {program}: cores {}, warps {}, pcs {}, cycles {cycles}; \
         {} instructions{}",
        range(f.cores, false),
        range(f.warps, false),
        range(f.pcs, true),
        trace.records.len(),
        if trace.left_out > 0 {
            format!(
                ", {} more left out past the limit of {}",
                trace.left_out, f.limit
            )
        } else {
            String::new()
        }
    )?;
    writeln!(
        out,
        "# {:>10} {:>4} {:>4} {:>8} {:>10}  instruction  (function+offset, source line)",
        "cycle", "core", "warp", "pc", "lanes"
    )?;
    let mut texts: BTreeMap<u32, String> = BTreeMap::new();
    for r in &trace.records {
        let text = texts.entry(r.pc).or_insert_with(|| {
            let (instruction, _) = machine.instruction_at(r.pc);
            match machine.place_of(r.pc) {
                Some(place) => format!("{instruction}  ({place})"),
                None => instruction,
            }
        });
        writeln!(
            out,
            "  {:>10} {:>4} {:>4} {:08x} {:#010x}  {text}",
            r.cycle, r.core, r.warp, r.pc, r.lanes
        )?;
    }
    Ok(())
}
