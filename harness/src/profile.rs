//! The profile by PC for the terminal (`wsim run --profile-pc`): the top functions, source
//! lines and instructions by stall slots and by DRAM bytes, and a function's disassembly
//! with the counts beside each instruction (`--annotate`, as `perf annotate` shows it).
//! The numbers come from the report's `profile` (docs/OBSERVING.md says how slots and
//! memory events are charged).

use std::fmt::Write as _;

use wsim_sim::mem::cache::CacheStats;
use wsim_sim::profile::{PcCounts, PcMemory, Profile, Selection};
use wsim_sim::stats::{LaunchRecord, SlotReason};
use wsim_sim::Machine;

/// The top `n` functions, source lines and instructions by stall slots (SIMT efficiency
/// with `threads` lanes per warp).
pub fn top(p: &Profile, n: usize, threads: u32) -> String {
    let all = p.total();
    let stalls = all.stall_slots() - p.no_warp.total();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "profile by PC{}: {} issue slots, {} issued, {stalls} stalled at an instruction, {} with no live warp",
        scope(p),
        all.slots.total(),
        all.slots.get(SlotReason::Issued),
        p.no_warp.total(),
    );
    let wait = p.launch_wait.total() - p.launch_wait.get(SlotReason::Issued);
    if wait > 0 {
        let _ = writeln!(
            s,
            "  of the stalled, launch wait (warp 0 in `{}` while its launch runs): {wait} ({:.1}%); the rest, {}: {}",
            wsim_sim::profile::LAUNCH_WAIT,
            percent(wait, stalls),
            match p.selection {
                Some(_) => "the kernels' own",
                None => "the kernels' and main's",
            },
            stalls - wait
        );
    }
    let header = |s: &mut String, what: &str, shown: usize, of: usize, first: &str| {
        let _ = writeln!(
            s,
            "{what} by stall slots ({shown} of {of}):\n  {first:<32} {:>12} {:>6} {:>12} {:>6}  top stall reasons",
            "stall slots", "%", "warp instr", "SIMT"
        );
    };
    let row = |s: &mut String, name: &str, c: &PcCounts| {
        let _ = write!(
            s,
            "  {name:<32} {:>12} {:>5.1}% {:>12} {:>5.1}%  {}",
            c.stall_slots(),
            percent(c.stall_slots(), stalls),
            c.instructions,
            simt(c, threads),
            reasons(c)
        );
    };
    for (what, folded) in [("functions", &p.functions), ("source lines", &p.lines)] {
        let shown = folded.len().min(n);
        header(&mut s, what, shown, folded.len(), &what[..what.len() - 1]);
        for f in &folded[..shown] {
            row(&mut s, &f.name, &f.counts);
            s.push('\n');
        }
    }
    let mut instructions: Vec<_> = p.instructions.iter().collect();
    instructions.sort_by_key(|i| (std::cmp::Reverse(i.counts.stall_slots()), i.pc));
    let shown = instructions.len().min(n);
    header(
        &mut s,
        "instructions",
        shown,
        instructions.len(),
        "pc  function+offset",
    );
    for i in &instructions[..shown] {
        let place = format!("{:08x}  {}", i.pc, i.function.as_deref().unwrap_or("?"));
        row(&mut s, &place, &i.counts);
        let _ = writeln!(s, "\n      {}{}", i.disasm, line(i.line.as_deref()));
    }
    memory(&mut s, p, n);
    s
}

/// What a restricted profile covers (`--profile-kernel`, `--profile-launch`), as the
/// header says it: ` of kernel K's 4 launches (1, 3, 5, 7)`; nothing for the whole run's.
fn scope(p: &Profile) -> String {
    let Some(selection) = &p.selection else {
        return String::new();
    };
    const SHOWN: usize = 8;
    let mut indices: Vec<String> = (p.launches.iter().take(SHOWN))
        .map(u32::to_string)
        .collect();
    if p.launches.len() > SHOWN {
        indices.push(format!("... {} more", p.launches.len() - SHOWN));
    }
    let kernels = match selection.kernels.as_slice() {
        [] => String::new(),
        [k] => format!("kernel {k}'s "),
        ks => format!("kernels {}' ", ks.join(", ")),
    };
    let n = p.launches.len();
    let plural = if n == 1 { "" } else { "es" };
    format!(" of {kernels}{n} launch{plural} ({})", indices.join(", "))
}

/// The selection of launches a profile was restricted to names only what the run
/// launched: an error naming the kernels it did launch (with their launches) or how many
/// launches there were.
pub fn check_selection(selection: &Selection, launches: &[LaunchRecord]) -> anyhow::Result<()> {
    let mut kernels: Vec<(&str, usize)> = Vec::new();
    for l in launches {
        let name = l.kernel.as_deref().unwrap_or("?");
        match kernels.iter_mut().find(|(k, _)| *k == name) {
            Some((_, n)) => *n += 1,
            None => kernels.push((name, 1)),
        }
    }
    for kernel in &selection.kernels {
        if !kernels.iter().any(|(k, _)| k == kernel) {
            let launched: Vec<String> = (kernels.iter())
                .map(|(k, n)| format!("{k} ({n} launch{})", if *n == 1 { "" } else { "es" }))
                .collect();
            let launched = match launched.is_empty() {
                true => "none: the program launched no kernel".to_string(),
                false => launched.join(", "),
            };
            anyhow::bail!(
                "--profile-kernel {kernel}: the run launched no kernel `{kernel}` (the kernels it launched: {launched})"
            );
        }
    }
    for &index in &selection.launches {
        if index as usize >= launches.len() {
            let made = match launches.len() {
                0 => "none".to_string(),
                1 => "1, launch 0".to_string(),
                n => format!("{n}, launches 0 to {}", n - 1),
            };
            anyhow::bail!(
                "--profile-launch {index}: the run has no launch {index} (the launches it made: {made})"
            );
        }
    }
    Ok(())
}

/// The top `n` functions, source lines and instructions by DRAM bytes, with their line
/// requests and the L1D's and L2's hits, misses and refusals (nothing without memory
/// requests).
fn memory(s: &mut String, p: &Profile, n: usize) {
    let all = p.total().memory;
    if all.is_empty() {
        return;
    }
    let (l1d, l2) = (&all.l1d, &all.l2);
    let _ = writeln!(
        s,
        "memory by PC: {} line requests; L1D {} hits, {} misses, {} refused attempts ({} bank conflicts); L2 {} hits, {} misses; DRAM {} bytes",
        all.line_requests,
        l1d.hits,
        l1d.misses,
        refused(l1d),
        l1d.bank_stalls,
        l2.hits,
        l2.misses,
        all.dram.bytes
    );
    if all.local_bank_conflict_cycles > 0 {
        let _ = writeln!(
            s,
            "  local memory: {} cycles of bank conflicts",
            all.local_bank_conflict_cycles
        );
    }
    let header = |s: &mut String, what: &str, shown: usize, of: usize, first: &str| {
        let _ = writeln!(
            s,
            "{what} by DRAM bytes ({shown} of {of} with memory requests):\n  {first:<32} {:>10} {:>9} {:>9} {:>8} {:>8} {:>9} {:>9} {:>12} {:>6}",
            "line reqs", "L1D hit", "L1D miss", "refused", "bank", "L2 hit", "L2 miss", "DRAM bytes", "%"
        );
    };
    let row = |s: &mut String, name: &str, m: &PcMemory| {
        let _ = write!(
            s,
            "  {name:<32} {:>10} {:>9} {:>9} {:>8} {:>8} {:>9} {:>9} {:>12} {:>5.1}%",
            m.line_requests,
            m.l1d.hits,
            m.l1d.misses,
            refused(&m.l1d),
            m.l1d.bank_stalls,
            m.l2.hits,
            m.l2.misses,
            m.dram.bytes,
            percent(m.dram.bytes, all.dram.bytes)
        );
    };
    let order = |m: &PcMemory| {
        std::cmp::Reverse((m.dram.bytes, m.l2.misses, m.l1d.misses, m.line_requests))
    };
    for (what, folded) in [("functions", &p.functions), ("source lines", &p.lines)] {
        let mut rows: Vec<_> = (folded.iter())
            .filter(|f| shown_memory(&f.counts.memory))
            .collect();
        rows.sort_by_key(|f| order(&f.counts.memory));
        let shown = rows.len().min(n);
        header(s, what, shown, rows.len(), &what[..what.len() - 1]);
        for f in &rows[..shown] {
            row(s, &f.name, &f.counts.memory);
            s.push('\n');
        }
    }
    let mut rows: Vec<_> = (p.instructions.iter())
        .filter(|i| shown_memory(&i.counts.memory))
        .collect();
    rows.sort_by_key(|i| (order(&i.counts.memory), i.pc));
    let shown = rows.len().min(n);
    header(s, "instructions", shown, rows.len(), "pc  function+offset");
    for i in &rows[..shown] {
        let place = format!("{:08x}  {}", i.pc, i.function.as_deref().unwrap_or("?"));
        row(s, &place, &i.counts.memory);
        let _ = writeln!(s, "\n      {}{}", i.disasm, line(i.line.as_deref()));
    }
}

/// Whether the memory tables' columns have anything of `m` (an instruction fetch's L1I
/// hits alone are not shown).
fn shown_memory(m: &PcMemory) -> bool {
    m.line_requests + m.l1d.accesses + refused(&m.l1d) + m.l2.accesses + m.dram.bytes > 0
}

/// Accesses a cache refused, every attempt counted: no free MSHR, a bank or the ports
/// taken, no room below.
fn refused(c: &CacheStats) -> u64 {
    c.mshr_full_stalls + c.bank_stalls + c.port_stalls + c.queue_full_stalls
}

/// `function`'s disassembly with each instruction's counts beside it; an error naming the
/// function when the program has none of that name.
pub fn annotate(p: &Profile, machine: &Machine, function: &str) -> anyhow::Result<String> {
    let ranges = machine.functions_named(function);
    if ranges.is_empty() {
        let known: Vec<&str> = (p.functions.iter())
            .map(|f| f.name.as_str())
            .filter(|n| *n != "?")
            .take(8)
            .collect();
        anyhow::bail!(
            "--annotate {function}: the program has no function `{function}` (the profile's top functions: {})",
            known.join(", ")
        );
    }
    let stalls = p.total().stall_slots() - p.no_warp.total();
    let mut s = String::new();
    for (start, end) in ranges {
        let counts = |pc: u32| {
            let k = p.instructions.partition_point(|i| i.pc < pc);
            (p.instructions.get(k))
                .filter(|i| i.pc == pc)
                .map(|i| &i.counts)
        };
        let mut total = PcCounts::default();
        for pc in (start..end).step_by(4) {
            if let Some(c) = counts(pc) {
                wsim_sim::counts::Merge::merge(&mut total, c);
            }
        }
        let _ = writeln!(
            s,
            "annotate {function} ({start:#010x}..{end:#010x}){}: {} stall slots ({:.1}% of the {}), {} warp instructions, {} line requests, {} L1D misses, {} L2 misses, {} DRAM bytes\n  {:>10} {:>10} {:>9} {:>9} {:>10}  {:<40} {:>8}  instruction",
            scope(p),
            total.stall_slots(),
            percent(total.stall_slots(), stalls),
            if p.selection.is_some() { "profile's" } else { "run's" },
            total.instructions,
            total.memory.line_requests,
            total.memory.l1d.misses,
            total.memory.l2.misses,
            total.memory.dram.bytes,
            "warp instr",
            "stalls",
            "L1D miss",
            "L2 miss",
            "DRAM bytes",
            "top stall reasons",
            "pc"
        );
        let mut last_line = None;
        for pc in (start..end).step_by(4) {
            let (text, line) = machine.instruction_at(pc);
            if line.is_some() && line != last_line {
                let _ = writeln!(s, "  {:>52}  ; {}", "", line.as_deref().unwrap_or(""));
                last_line = line;
            }
            let c = counts(pc).cloned().unwrap_or_default();
            let dash = |n: u64| {
                if n == 0 {
                    "-".to_string()
                } else {
                    n.to_string()
                }
            };
            let m = &c.memory;
            let _ = writeln!(
                s,
                "  {:>10} {:>10} {:>9} {:>9} {:>10}  {:<40} {pc:>8x}: {text}",
                dash(c.instructions),
                dash(c.stall_slots()),
                dash(m.l1d.misses),
                dash(m.l2.misses),
                dash(m.dram.bytes),
                reasons(&c),
            );
        }
    }
    Ok(s)
}

/// The two largest stall reasons of `c` with their shares of its stall slots.
fn reasons(c: &PcCounts) -> String {
    let mut by: Vec<(SlotReason, u64)> = (SlotReason::ALL.into_iter())
        .filter(|&r| r != SlotReason::Issued)
        .map(|r| (r, c.slots.get(r)))
        .filter(|&(_, n)| n > 0)
        .collect();
    by.sort_by_key(|&(r, n)| (std::cmp::Reverse(n), r));
    (by.iter().take(2))
        .map(|&(r, n)| format!("{} {:.0}%", r.name(), percent(n, c.stall_slots())))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Thread instructions as a share of the lanes of the warp instructions (%).
fn simt(c: &PcCounts, threads: u32) -> f64 {
    percent(c.thread_instructions, c.instructions * u64::from(threads))
}

fn line(line: Option<&str>) -> String {
    line.map(|l| format!("  ({l})")).unwrap_or_default()
}

/// `100 a / b`, 0 when `b` is 0.
fn percent(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}
