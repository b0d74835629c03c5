//! The functional mode (`wsim run --functional`, docs/ARCHITECTURE.md "The functional
//! mode") against the detailed model on what the tests run in detail: tests/programs.rs's
//! kernels on tiny and sparseweaver and its ISA tests, every graph program of the manifest
//! and every GCN design (F = 16) on an R-MAT graph (tiny). Each pair must end alike (no
//! error, the exit status, the console, the graph's verification) and, where the program's
//! work does not follow the interleaving ([`expect`]), count alike: every architectural
//! counter in total, the warp and thread instructions of every PC, the iterations and
//! launches, each one's kernel instructions PC by PC; and, where no float atomic sums in
//! arrival order, leave the same memory, global and local.
//!
//! Where the program waits on the interleaving, only the waiting differs: `wsim_spawn`'s
//! loop that waits for the launch's warps to retire turns as often as the timing lets it
//! ([`WAIT_LOOPS`]), and the counters differ by whole turns of it; another core's `main`
//! runs on while an interval opens or closes, so its instructions may fall on either side
//! of the edge.
//!
//! A functional run is fast; the detailed runs repeat those of the other tests, on a
//! smaller graph.

mod common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use common::{email, graph_manifest, preset, program, GCN_KERNELS, ISA_TESTS, KERNELS, RV_TESTS};
use libtest_mimic::{Arguments, Trial};
use serde_json::Value;
use wsim_harness::run::{self, Program, RunRequest};
use wsim_sim::config::StartCores;
use wsim_sim::counts::Architectural;
use wsim_sim::mem::hierarchy::CacheLevel;
use wsim_sim::report::Report;
use wsim_sim::stats::CoreCounters;
use wsim_sim::{Config, Cuts, Machine, Mode};
use wsim_workloads::graph_run::{self, GraphInput};
use wsim_workloads::options::{GraphOptions, LayerOptions};
use wsim_workloads::record::{Checked, GraphRun};

/// A loop that waits on the interleaving: the function it is in, and what one turn of it
/// counts (its instructions, each turn the same).
struct WaitLoop {
    function: &'static str,
    /// One turn's counters as the JSON names them (`Architectural` counters).
    turn: &'static [(&'static str, i64)],
}

/// `while (vx_active_warps() != 1) {}` in `wsim_spawn` (programs/runtime/wsim_rt.c):
/// `csrr` (SFU) and `bne` (ALU, a branch), on warp 0's one lane.
const WAIT_LOOPS: &[WaitLoop] = &[WaitLoop {
    function: "wsim_spawn",
    turn: &[
        ("instructions", 2),
        ("thread_instructions", 2),
        ("alu", 1),
        ("sfu", 1),
        ("branches", 1),
    ],
}];

/// Warp and thread instructions by PC.
type Pcs = BTreeMap<u32, (u64, u64)>;

/// What a run leaves that the architecture determines.
struct Outcome {
    error: Option<String>,
    exit: u32,
    /// Core-cycles simulated in detail (none in a functional run).
    core_cycles: u64,
    console: String,
    /// Global memory (its non-zero pages) and every core's local memory.
    memory: BTreeMap<u64, Vec<u8>>,
    verdict: Option<String>,
    total: Value,
    iterations: Vec<(u32, Value)>,
    launches: Vec<Value>,
    /// Warp and thread instructions by PC.
    pcs: Pcs,
    /// The run between two cuts of an interval: the cuts it starts at, its instructions
    /// by PC.
    segments: Vec<(Cuts, Pcs)>,
    /// The PC ranges of each wait loop's function.
    waits: Vec<Vec<(u32, u32)>>,
}

/// Global memory (its non-zero pages) and every core's local memory (at its core's
/// number), page by page.
fn memory(machine: &Machine) -> BTreeMap<u64, Vec<u8>> {
    let mut pages = BTreeMap::new();
    for (base, page) in machine.memory().pages() {
        if page.iter().any(|&b| b != 0) {
            pages.insert(u64::from(base), page.to_vec());
        }
    }
    for core in 0.. {
        let Some(local) = machine.local_memory(core) else {
            break;
        };
        pages.insert(1 << 32 | core as u64, local.to_vec());
    }
    pages
}

/// Where two memories differ: the first word and how many differ.
fn memory_difference(a: &BTreeMap<u64, Vec<u8>>, b: &BTreeMap<u64, Vec<u8>>) -> String {
    let empty = Vec::new();
    let mut first = None;
    let mut words = 0;
    for base in a
        .keys()
        .chain(b.keys())
        .collect::<std::collections::BTreeSet<_>>()
    {
        let (x, y) = (a.get(base).unwrap_or(&empty), b.get(base).unwrap_or(&empty));
        for k in (0..x.len().max(y.len())).step_by(4) {
            let word = |p: &Vec<u8>| {
                p.get(k..k + 4)
                    .map_or(0, |w| u32::from_le_bytes(w.try_into().unwrap()))
            };
            if word(x) != word(y) {
                words += 1;
                first.get_or_insert((base + k as u64, word(x), word(y)));
            }
        }
    }
    format!("{words} words differ, the first at {first:x?} (address, detailed, functional)")
}

fn counters(c: &CoreCounters) -> Value {
    serde_json::to_value(Architectural(c)).unwrap()
}

/// Run `name` in `mode`, boundary by boundary: the instructions by PC of each stretch
/// between two cuts of an interval, with the cuts it starts at.
fn run(name: &str, config: &Config, input: Option<&Arc<GraphInput>>, mode: Mode) -> Outcome {
    let mut request = RunRequest::new(name, Program::Path(program(name)), config.clone());
    request.input = input.cloned();
    request.options.functional = mode == Mode::Functional;
    let snapshots = Arc::new(Mutex::new(Vec::new()));
    let taken = Arc::clone(&snapshots);
    // The harness's run finds the machine at its end.
    request.options.prepare = Some(Box::new(move |m: &mut Machine| {
        m.profile_pcs();
        let mut taken = taken.lock().unwrap();
        taken.push((m.cuts(), m.instructions_by_pc().unwrap()));
        loop {
            let at = m.cuts();
            let moved = |m: &Machine| m.cuts() != at;
            let over = match mode {
                Mode::Functional => m.run_functional_until(moved),
                Mode::Detailed => m.run_until(moved),
                Mode::Sampled => unreachable!("the test compares the functional and detailed runs"),
            };
            let over = over.unwrap_or_else(|e| panic!("{e}"));
            taken.push((m.cuts(), m.instructions_by_pc().unwrap()));
            if over {
                break;
            }
        }
    }));
    let finished = run::execute(request);
    let (Some(machine), Some(report)) = (&finished.machine, &finished.record.report) else {
        panic!("{name}: not set up: {:?}", finished.record.error);
    };
    assert_eq!(report.mode, mode, "{name}: the report's mode");
    let profile = report.profile.as_ref().expect("a profiled run");
    let snapshots = snapshots.lock().unwrap();
    let segments = (snapshots.windows(2))
        .map(|w| {
            let mut pcs = w[1].1.clone();
            for (pc, (n, t)) in &w[0].1 {
                let c = pcs.get_mut(pc).expect("counts only grow");
                *c = (c.0 - n, c.1 - t);
            }
            pcs.retain(|_, c| *c != (0, 0));
            (w[0].0, pcs)
        })
        .collect();
    Outcome {
        error: finished
            .record
            .error
            .as_ref()
            .map(|e| e.message().to_string()),
        exit: report.exit_code,
        core_cycles: report.total.cycles,
        console: String::from_utf8_lossy(machine.console()).into_owned(),
        memory: memory(machine),
        verdict: report.graph.as_ref().map(|g| format!("{:?}", g.result)),
        total: counters(&report.total),
        iterations: (report.iterations.iter())
            .map(|i| (i.active, counters(&i.counters)))
            .collect(),
        launches: (report.launches.iter())
            .map(|l| counters(&l.counters))
            .collect(),
        pcs: (profile.instructions.iter())
            .map(|i| (i.pc, (i.counts.instructions, i.counts.thread_instructions)))
            .collect(),
        segments,
        waits: (WAIT_LOOPS.iter())
            .map(|l| machine.functions_named(l.function))
            .collect(),
    }
}

/// Counters `a - b`, field by field (the Weaver's nested), zero fields left out.
fn difference(a: &Value, b: &Value, prefix: &str, out: &mut BTreeMap<String, i64>) {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            assert_eq!(
                a.keys().collect::<Vec<_>>(),
                b.keys().collect::<Vec<_>>(),
                "the same counters"
            );
            for (k, v) in a {
                difference(v, &b[k], &format!("{prefix}{k}."), out);
            }
        }
        _ => {
            let d = a.as_i64().unwrap() - b.as_i64().unwrap();
            if d != 0 {
                out.insert(prefix.trim_end_matches('.').to_string(), d);
            }
        }
    }
}

/// Counters that differ by exactly `turns` turns of `wait`, or why not.
fn by_turns(detailed: &Value, functional: &Value, wait: &WaitLoop) -> Result<i64, String> {
    let mut d = BTreeMap::new();
    difference(detailed, functional, "", &mut d);
    let per_turn = wait.turn[0].1;
    let turns = d.get(wait.turn[0].0).copied().unwrap_or(0) / per_turn;
    let expected: BTreeMap<String, i64> = (wait.turn.iter())
        .map(|&(k, n)| (k.to_string(), n * turns))
        .filter(|&(_, n)| n != 0)
        .collect();
    if d == expected {
        Ok(turns)
    } else {
        Err(format!(
            "detailed - functional = {d:?}, not whole turns of {}'s wait loop",
            wait.function
        ))
    }
}

fn launch_of(c: &Cuts) -> Option<usize> {
    c.launch_open.then(|| c.launches - 1)
}

fn iteration_of(c: &Cuts) -> Option<usize> {
    c.iteration_open.then(|| c.iterations - 1)
}

/// The instructions by PC of each interval `of` names, `n` of them.
fn by_interval(o: &Outcome, of: fn(&Cuts) -> Option<usize>, n: usize) -> Vec<Pcs> {
    let mut intervals = vec![Pcs::new(); n];
    for (cuts, pcs) in &o.segments {
        if let Some(k) = of(cuts) {
            for (&pc, &(a, b)) in pcs {
                let c = intervals[k].entry(pc).or_default();
                *c = (c.0 + a, c.1 + b);
            }
        }
    }
    intervals
}

/// Launch by launch and iteration by iteration, every PC of the kernels (a PC that runs
/// only while a launch is open) counts alike; `main`'s code (the PCs that also run between
/// launches) may fall on either side of an interval's edge, as another core's `main` runs
/// on while an interval opens or closes, and the interval's instructions differ by just
/// what moved.
fn intervals_agree(name: &str, d: &Outcome, f: &Outcome) -> Result<(), String> {
    let main: std::collections::BTreeSet<u32> = (d.segments.iter().chain(&f.segments))
        .filter(|(cuts, _)| !cuts.launch_open)
        .flat_map(|(_, pcs)| pcs.keys().copied())
        .collect();
    let launches = |o: &Outcome| o.launches.clone();
    let iterations =
        |o: &Outcome| -> Vec<Value> { o.iterations.iter().map(|i| i.1.clone()).collect() };
    for (kind, of, dc, fc) in [
        (
            "launch",
            launch_of as fn(&Cuts) -> Option<usize>,
            launches(d),
            launches(f),
        ),
        ("iteration", iteration_of, iterations(d), iterations(f)),
    ] {
        let (dp, fp) = (by_interval(d, of, dc.len()), by_interval(f, of, fc.len()));
        for (k, (a, b)) in dp.iter().zip(&fp).enumerate() {
            let (mut moved, mut moved_threads) = (0, 0);
            let pcs: std::collections::BTreeSet<&u32> = a.keys().chain(b.keys()).collect();
            for pc in pcs {
                let x = a.get(pc).copied().unwrap_or_default();
                let y = b.get(pc).copied().unwrap_or_default();
                if x == y {
                    continue;
                }
                if !main.contains(pc) {
                    return Err(format!(
                        "{name}: {kind} {k}: the kernel's pc {pc:#x} counts {x:?} in detail, \
                         {y:?} functionally"
                    ));
                }
                moved += x.0 as i64 - y.0 as i64;
                moved_threads += x.1 as i64 - y.1 as i64;
            }
            let delta = |key: &str| dc[k][key].as_i64().unwrap() - fc[k][key].as_i64().unwrap();
            if (delta("instructions"), delta("thread_instructions")) != (moved, moved_threads) {
                return Err(format!(
                    "{name}: {kind} {k}: its counters differ by {:?} instructions, its PCs by {:?}",
                    (delta("instructions"), delta("thread_instructions")),
                    (moved, moved_threads)
                ));
            }
        }
    }
    Ok(())
}

/// What of a program's two runs must agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Everything: memory and every count, but the wait loop's turns and `main`'s
    /// instructions at an interval's edge.
    All,
    /// Every count, but not memory: float atomics add in the order the warps arrive, so the
    /// sums differ in their last bits (the program's own check or the host reference's,
    /// within its bound, accepts both).
    Counted,
    /// How the run ends: its exit status, console and verification. The work itself
    /// follows the interleaving: which warp wins a race to claim a vertex or to append it
    /// to a frontier, so how many edges are looked at again, and for label propagation
    /// and some relaxations even the number of super-steps; the atomics kernels spin
    /// while contended.
    Ending,
}

/// What must agree for each program, as measured (docs/ARCHITECTURE.md, "The functional
/// mode", has the differences).
fn expect(name: &str) -> Expect {
    let stem = name.rsplit('/').next().unwrap_or(name);
    match stem {
        "atomics" => Expect::Ending,
        "float_atomics" => Expect::Counted,
        _ if name.starts_with("gcn/") => Expect::Counted,
        _ if !name.starts_with("graph/") => Expect::All,
        // TWC's queues fill by atomics, so the warps' shares follow the interleaving.
        _ if stem.starts_with("pr_twc_") => Expect::Ending,
        _ if stem.starts_with("pr_") => Expect::Counted,
        // The rest race: a vertex's label or distance is lowered by atomics from several
        // warps (the Weaver hands one vertex's edges to lanes of several), so which update
        // wins, and how much work follows it, depends on their order; even where the
        // instructions come out alike, the Weaver's batches (its S2 visits) follow the
        // order in which the warps' decode requests arrive.
        _ => Expect::Ending,
    }
}

/// Both modes agree on `name` as [`expect`] says; why not, if they do not.
fn agree(name: &str, config: &Config, input: Option<&Arc<GraphInput>>) -> Result<(), String> {
    let expected = expect(name);
    let d = run(name, config, input, Mode::Detailed);
    let f = run(name, config, input, Mode::Functional);
    let fail = |what: &str, a: &dyn std::fmt::Debug, b: &dyn std::fmt::Debug| {
        Err(format!(
            "{name} ({expected:?}): {what}: detailed {a:?}, functional {b:?}"
        ))
    };
    if d.error.is_some() || f.error.is_some() {
        return fail("error", &d.error, &f.error);
    }
    if d.exit != f.exit {
        return fail("exit status", &d.exit, &f.exit);
    }
    if d.console != f.console {
        return fail("console", &d.console, &f.console);
    }
    if d.verdict != f.verdict {
        return fail("verification", &d.verdict, &f.verdict);
    }
    if expected == Expect::Ending {
        return Ok(());
    }
    if expected == Expect::All && d.memory != f.memory {
        return Err(format!(
            "{name}: memory: {}",
            memory_difference(&d.memory, &f.memory)
        ));
    }
    // Per PC: equal, or in a wait loop, whose instructions turned alike.
    let mut turns: Vec<Option<i64>> = vec![None; WAIT_LOOPS.len()];
    let pcs: std::collections::BTreeSet<u32> = d.pcs.keys().chain(f.pcs.keys()).copied().collect();
    for pc in pcs {
        let (a, b) = (d.pcs.get(&pc), f.pcs.get(&pc));
        let (a, b) = (
            a.copied().unwrap_or_default(),
            b.copied().unwrap_or_default(),
        );
        if a == b {
            continue;
        }
        let wait =
            (d.waits.iter()).position(|ranges| ranges.iter().any(|&(s, e)| (s..e).contains(&pc)));
        let Some(k) = wait else {
            return fail(&format!("instructions at pc {pc:#x}"), &a, &b);
        };
        let turned = a.0 as i64 - b.0 as i64;
        // The loop runs on one lane (warp 0's in `main`).
        if a.1 as i64 - b.1 as i64 != turned || *turns[k].get_or_insert(turned) != turned {
            return fail(
                &format!("pc {pc:#x} in {}'s wait loop", WAIT_LOOPS[k].function),
                &a,
                &b,
            );
        }
    }
    // Counters: equal, or whole turns of the one wait loop that turned.
    let loops: Vec<usize> = (0..WAIT_LOOPS.len())
        .filter(|&k| turns[k].is_some())
        .collect();
    assert!(
        loops.len() <= 1,
        "{name}: several wait loops turned differently"
    );
    let check = |what: &str, a: &Value, b: &Value| -> Result<i64, String> {
        match loops.first() {
            None if a == b => Ok(0),
            None => Err(format!("{name}: {what}: detailed {a}, functional {b}")),
            Some(&k) => by_turns(a, b, &WAIT_LOOPS[k]).map_err(|e| format!("{name}: {what}: {e}")),
        }
    };
    let total = check("total", &d.total, &f.total)?;
    if let Some(&k) = loops.first() {
        assert_eq!(
            Some(total),
            turns[k],
            "{name}: the loop's PCs and the total agree"
        );
    }
    if d.iterations.len() != f.iterations.len() || d.launches.len() != f.launches.len() {
        return fail(
            "iterations and launches",
            &(d.iterations.len(), d.launches.len()),
            &(f.iterations.len(), f.launches.len()),
        );
    }
    for (i, ((ad, _), (af, _))) in d.iterations.iter().zip(&f.iterations).enumerate() {
        if ad != af {
            return fail(&format!("iteration {i}'s mark"), ad, af);
        }
    }
    intervals_agree(name, &d, &f)
}

fn single_core(name: &str) -> Config {
    let mut c = preset(name);
    c.run.start = StartCores::FirstCore;
    c
}

/// The graph and GCN programs' input: R-MAT of scale 9 (512 vertices, 4,096 edges, a
/// sixth of email-Eu-core's), cheap for the detailed run each comparison repeats.
const RMAT: &str = "gen:rmat:scale=9,ef=8";

fn graph_input(options: GraphOptions) -> Arc<GraphInput> {
    Arc::new(graph_run::load(&options).expect("the graph loads"))
}

/// A functional report's JSON has no key for what the run did not measure: the detailed
/// report's keys but the timing model's, and `mode`.
fn the_functional_report_leaves_out_what_it_did_not_measure() -> Result<(), String> {
    let json = |functional: bool| -> Value {
        let mut request = common::request("launches", &preset("tiny"));
        request.options.functional = functional;
        let report = run::run(request).report.expect("a report");
        serde_json::from_str(&report.to_json()).unwrap()
    };
    let (d, f) = (json(false), json(true));
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    let timing = [
        "cycles",
        "ipc",
        "issue_slots_per_core",
        "l1d_size",
        "write_policy",
        "memory",
        "memory_phases",
    ];
    let mut expected: Vec<String> = keys(&d)
        .into_iter()
        .filter(|k| !timing.contains(&k.as_str()))
        .collect();
    expected.push("mode".into());
    expected.sort();
    assert_eq!(keys(&f), expected);
    assert_eq!(f["mode"], "functional");
    let counted = keys(&f["total"]);
    for k in [
        "cycles",
        "warp_cycles",
        "slots",
        "dcache_requests",
        "local_accesses",
    ] {
        assert!(!counted.contains(&k.to_string()), "total has {k}");
    }
    assert!(counted.contains(&"instructions".to_string()));
    assert!(!keys(&f["total"]["weaver"]).contains(&"state_cycles".to_string()));
    // A launch names its kernel, which the architecture decides, as the detailed one does.
    let launch = &f["launches"][0];
    assert_eq!(keys(launch), ["counters", "index", "kernel"]);
    assert_eq!(launch["kernel"], d["launches"][0]["kernel"]);
    assert_eq!(f["total"]["instructions"], d["total"]["instructions"]);
    Ok(())
}

/// The detailed model takes over from a functional run at a launch boundary: the run ends
/// as a detailed one does (exit status, console, memory, the verification), and counts
/// alike but for the wait loop's turns.
fn a_detailed_run_takes_over_from_a_functional_one() -> Result<(), String> {
    let name = "graph/pr_vm_pull";
    let config = preset("tiny");
    let input = graph_input(GraphOptions {
        graph: Some(email()),
        ..GraphOptions::default()
    });
    let whole = run(name, &config, Some(&input), Mode::Detailed);
    let mut request = RunRequest::new(name, Program::Path(program(name)), config);
    request.input = Some(input);
    request.options.profile = true;
    request.options.prepare = Some(Box::new(|m| {
        let over = m.run_functional_until(|m| m.cuts().launches == 3).unwrap();
        assert!(!over, "the program makes more than three launches");
    }));
    let finished = run::execute(request);
    let report = finished.record.report.as_ref().unwrap();
    let machine = finished.machine.as_ref().unwrap();
    assert_eq!(finished.record.error, None);
    assert_eq!(report.mode, Mode::Detailed);
    assert_eq!(report.exit_code, whole.exit);
    assert_eq!(String::from_utf8_lossy(machine.console()), whole.console);
    assert_eq!(
        report.graph.as_ref().map(|g| format!("{:?}", g.result)),
        whole.verdict
    );
    assert_eq!(report.launches.len(), whole.launches.len());
    by_turns(&whole.total, &counters(&report.total), &WAIT_LOOPS[0])?;
    assert!(
        memory(machine) == whole.memory,
        "memory: {}",
        memory_difference(&memory(machine), &whole.memory)
    );
    assert!(
        0 < report.total.cycles && report.total.cycles < whole.core_cycles,
        "the detailed part is the run's last launches"
    );
    Ok(())
}

/// PageRank pull under VM on email-Eu-core on the dissertation's machine, `prepare`d (the
/// functional fast-forward before the detailed run takes over): its report.
fn pagerank_taking_over(prepare: impl FnOnce(&mut Machine) + 'static) -> Report<GraphRun> {
    let name = "graph/pr_vm_pull";
    let mut request = RunRequest::new(name, Program::Path(program(name)), preset("sparseweaver"));
    request.input = Some(graph_input(GraphOptions {
        graph: Some(email()),
        ..GraphOptions::default()
    }));
    request.options.prepare = Some(Box::new(prepare));
    let finished = run::execute(request);
    assert_eq!(finished.record.error, None);
    finished.record.report.expect("a report")
}

/// Warming while fast-forwarding (the sampler's `--sample-warm-caches`) fills the
/// instruction caches too: the detailed run that takes over after three launches misses
/// fewer instruction lines than one taking over from a cold machine (the code the
/// launches ran is the code the next ones run), and its results are the same. The lines
/// the L2 installed while warming are counted (the sampler's warm-up checks end by them),
/// against the lines it holds.
fn a_detailed_run_takes_over_with_warmed_instruction_caches() -> Result<(), String> {
    let take_over = |warm: bool| {
        let fills = std::sync::Arc::new(std::sync::Mutex::new((0, 0)));
        let seen = fills.clone();
        let report = pagerank_taking_over(move |m| {
            if warm {
                m.warm_caches();
            }
            let over = m.run_functional_until(|m| m.cuts().launches == 3).unwrap();
            assert!(!over, "the program makes more than three launches");
            *seen.lock().unwrap() = (m.llc_warm_fills(), m.llc_lines());
        });
        let fills = *fills.lock().unwrap();
        (report, fills)
    };
    let ((cold, cold_fills), (warmed, warm_fills)) = (take_over(false), take_over(true));
    let l2 = preset("sparseweaver").memory.l2;
    let lines = u64::from(l2.size / l2.line);
    if cold_fills != (0, lines) || warm_fills.1 != lines || warm_fills.0 == 0 {
        return Err(format!(
            "L2 fills and lines: cold {cold_fills:?}, warmed {warm_fills:?}, the L2 {lines} lines"
        ));
    }
    assert_eq!(warmed.exit_code, cold.exit_code);
    assert_eq!(
        format!("{:?}", warmed.graph.as_ref().map(|g| &g.result)),
        format!("{:?}", cold.graph.as_ref().map(|g| &g.result))
    );
    let (warmed, cold) = (
        warmed.memory.level(CacheLevel::L1i).misses,
        cold.memory.level(CacheLevel::L1i).misses,
    );
    if warmed >= cold {
        return Err(format!("L1I misses after warming {warmed}, cold {cold}"));
    }
    Ok(())
}

/// The sampler keeps a copy of the machine every few units and fast-forwards a copy
/// functionally to a measured unit's start (sampler/src/starts.rs): the machine a copy
/// taken after one launch reaches after three, warming and counting by PC as the run does,
/// is the one the run had, so the detailed run taking over from it reports the same.
fn a_copy_fast_forwarded_is_the_machine_the_run_had() -> Result<(), String> {
    let take_over = |from_copy: bool| {
        let report = pagerank_taking_over(move |m| {
            m.warm_caches();
            m.count_pcs();
            let over = m.run_functional_until(|m| m.cuts().launches == 1).unwrap();
            assert!(!over, "the program makes more than one launch");
            let copy = m.clone();
            let over = m.run_functional_until(|m| m.cuts().launches == 3).unwrap();
            assert!(!over, "the program makes more than three launches");
            if from_copy {
                *m = copy;
                let over = m.run_functional_until(|m| m.cuts().launches == 3).unwrap();
                assert!(!over, "the copy reaches the third launch");
            }
        });
        let mut json: Value = serde_json::from_str(&report.to_json()).unwrap();
        json.as_object_mut().unwrap().remove("host");
        json
    };
    let (direct, forwarded) = (take_over(false), take_over(true));
    assert!(direct["cycles"].as_u64().unwrap() > 0);
    let differ: Vec<_> = (direct.as_object().unwrap().iter())
        .filter(|(k, v)| forwarded.get(k) != Some(v))
        .map(|(k, _)| k)
        .collect();
    if !differ.is_empty() || direct != forwarded {
        return Err(format!("the reports differ in {differ:?}"));
    }
    Ok(())
}

/// Run `m` functionally to its second launch's start, then `instructions` warp
/// instructions into it in detail.
fn into_the_second_launch(m: &mut Machine, instructions: u64) {
    let over = m
        .run_functional_until(|m| m.cuts().launches == 2 && m.cuts().launch_open)
        .unwrap();
    assert!(!over, "the program makes a second launch");
    let start = m.progress().instructions;
    m.run_until(|m| m.progress().instructions >= start + instructions)
        .unwrap();
}

/// A copy with parked cores or warps cannot end its launch: its run ends in a deadlock.
fn held_open(copy: &mut Machine) {
    let end = copy
        .run_until(|_| false)
        .expect_err("what is parked holds its launch open");
    assert!(
        matches!(end.kind, wsim_sim::error::ErrorKind::Deadlock { .. }),
        "{end}"
    );
}

/// The sampler's probes park cores in a copy (`Machine::park`, sampler/src/detail.rs): a
/// parked core issues nothing while the others go on, and its warps hold their launch
/// open, so the copy's run ends in a deadlock naming them; the machine it was copied
/// from runs to its end as before.
fn a_parked_core_issues_nothing_and_holds_its_launch_open() -> Result<(), String> {
    let report = pagerank_taking_over(|m| {
        into_the_second_launch(m, 1);
        let mut copy = m.clone();
        copy.park(0);
        let before: Vec<u64> = copy.instructions_by_core().collect();
        let base = copy.progress().instructions;
        let over = copy
            .run_until(|c| c.progress().instructions >= base + 5000)
            .unwrap();
        assert!(!over, "the other cores issue while core 0 is parked");
        let after: Vec<u64> = copy.instructions_by_core().collect();
        assert_eq!(after[0], before[0], "core 0 parked issued");
        assert!(after[1..].iter().zip(&before[1..]).any(|(a, b)| a > b));
        held_open(&mut copy);
    });
    match report.graph.map(|g| g.result) {
        Some(Checked::Verified) => Ok(()),
        other => Err(format!(
            "the machine a parked copy was taken from: {other:?}"
        )),
    }
}

/// The lone warp's probe parks warps in a copy (`Machine::park_warp`): every ready warp
/// of the machine but one is parked, that one alone issues (its instructions retired
/// are the machine's new instructions), and the parked ones hold the launch open. Each
/// warp's instructions retired add up to its core's instructions.
fn a_parked_warp_issues_nothing_and_one_warp_runs_alone() -> Result<(), String> {
    let report = pagerank_taking_over(|m| {
        // Into the launch's body, past its warps' start at the spawn's barrier.
        into_the_second_launch(m, 10_000);
        let warps = m.config().gpu.warps_per_core as usize;
        let cores = m.instructions_by_core().count();
        let by_warp: Vec<u64> = m.instructions_by_warp().collect();
        let by_core: Vec<u64> = m.instructions_by_core().collect();
        assert_eq!(by_warp.len(), cores * warps);
        for (core, warps) in by_core.iter().zip(by_warp.chunks(warps)) {
            assert_eq!(*core, warps.iter().sum::<u64>());
        }
        let mut copy = m.clone();
        // Core 0 is the furthest on: core order serves it first.
        let (keep_core, keep) = (0, copy.ready_warps(0).next().unwrap());
        for c in 0..cores {
            for w in copy.ready_warps(c).collect::<Vec<_>>() {
                if (c, w) != (keep_core, keep) {
                    copy.park_warp(c, w);
                }
            }
        }
        let base = copy.progress().instructions;
        let before: Vec<u64> = copy.instructions_by_warp().collect();
        let over = copy
            .run_until(|c| c.progress().instructions >= base + 200)
            .unwrap();
        assert!(!over, "the warp left at work issues");
        let after: Vec<u64> = copy.instructions_by_warp().collect();
        let moved: Vec<usize> = (0..after.len())
            .filter(|&k| after[k] != before[k])
            .collect();
        assert_eq!(
            moved,
            vec![keep_core * warps + keep],
            "only the warp left issued"
        );
        held_open(&mut copy);
    });
    match report.graph.map(|g| g.result) {
        Some(Checked::Verified) => Ok(()),
        other => Err(format!(
            "the machine a copy with parked warps was taken from: {other:?}"
        )),
    }
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = vec![
        Trial::test(
            "the_functional_report_leaves_out_what_it_did_not_measure",
            || Ok(the_functional_report_leaves_out_what_it_did_not_measure()?),
        ),
        Trial::test(
            "a_parked_warp_issues_nothing_and_one_warp_runs_alone",
            || Ok(a_parked_warp_issues_nothing_and_one_warp_runs_alone()?),
        ),
        Trial::test("a_detailed_run_takes_over_from_a_functional_one", || {
            Ok(a_detailed_run_takes_over_from_a_functional_one()?)
        }),
        Trial::test(
            "a_detailed_run_takes_over_with_warmed_instruction_caches",
            || Ok(a_detailed_run_takes_over_with_warmed_instruction_caches()?),
        ),
        Trial::test("a_copy_fast_forwarded_is_the_machine_the_run_had", || {
            Ok(a_copy_fast_forwarded_is_the_machine_the_run_had()?)
        }),
        Trial::test(
            "a_parked_core_issues_nothing_and_holds_its_launch_open",
            || Ok(a_parked_core_issues_nothing_and_holds_its_launch_open()?),
        ),
    ];
    for preset_name in ["tiny", "sparseweaver"] {
        trials.push(Trial::test(
            format!("kernels_on_{preset_name}"),
            move || {
                let config = preset(preset_name);
                for p in KERNELS {
                    agree(p, &config, None)?;
                }
                let config = single_core(preset_name);
                for p in ISA_TESTS.iter().chain(RV_TESTS) {
                    agree(p, &config, None)?;
                }
                Ok(())
            },
        ));
    }
    let rmat_input = graph_input(GraphOptions {
        graph: Some(RMAT.into()),
        ..GraphOptions::default()
    });
    for p in graph_manifest() {
        let input = Arc::clone(&rmat_input);
        trials.push(Trial::test(format!("{}_on_rmat", p.name), move || {
            Ok(agree(&p.name, &preset("tiny"), Some(&input))?)
        }));
    }
    let layer_input = graph_input(GraphOptions {
        graph: Some(RMAT.into()),
        layer: LayerOptions {
            features: Some(16),
            ..LayerOptions::default()
        },
        ..GraphOptions::default()
    });
    for kernel in GCN_KERNELS {
        let input = Arc::clone(&layer_input);
        let name = format!("gcn/gcn_{kernel}");
        trials.push(Trial::test(format!("{name}_on_rmat_f16"), move || {
            Ok(agree(&name, &preset("tiny"), Some(&input))?)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
