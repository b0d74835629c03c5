//! The profile by PC (`wsim run --profile-pc`): every issue slot, instruction and memory
//! event is charged to a PC, so the per-PC counts add up to the report's totals reason by
//! reason and counter by counter (the slots the idle skip accounts in bulk included); the
//! functions and lines fold them; profiling changes no statistic; the command line prints
//! the tables and annotates a function.

mod common;

use std::sync::Arc;

use common::*;
use wsim_harness::run::{self, RunRequest};
use wsim_sim::counts::Merge;
use wsim_sim::mem::dram::DramStats;
use wsim_sim::mem::hierarchy::CacheLevel;
use wsim_sim::profile::{PcCounts, Profile, Selection};
use wsim_sim::report::Report;
use wsim_sim::stats::{CoreCounters, SlotReason, Slots};
use wsim_sim::Machine;
use wsim_workloads::graph_run;
use wsim_workloads::options::GraphOptions;
use wsim_workloads::record::GraphRun;

/// The report of `request`, with the profile when `profile`.
fn report(mut request: RunRequest, profile: bool) -> Report<GraphRun> {
    request.options.profile = profile;
    let finished = run::execute(request);
    assert_eq!(finished.record.why_not(), None, "{}", finished.record.name);
    finished.record.report.expect("a run that went to its end")
}

/// The profile of `request` adds up to its report's totals, and its functions and lines
/// to the same; profiling changed no statistic. Cores sleep through most cycles of these
/// runs (their slots are counted in bulk when they wake), so the sums hold only if the
/// bulk path charges its PCs too.
fn check_exact(request: impl Fn() -> RunRequest) -> Profile {
    let mut profiled = report(request(), true);
    let p = profiled.profile.take().expect("asked for a profile");
    let mut plain = report(request(), false);
    (profiled.host, plain.host) = (None, None);
    // What profiling adds to the launch records: their launch waits, summing to the
    // profile's.
    let mut waits = Slots::default();
    for l in &mut profiled.launches {
        waits.merge(&l.launch_wait.take().expect("a profiled launch's wait"));
    }
    assert_eq!(
        waits, p.launch_wait,
        "the launches' waits are the profile's"
    );
    assert!(plain == profiled, "profiling changed a statistic");

    let sum = p.total();
    same_as_counters(&p, &plain.total);
    // Every memory counter, level by level: what each instruction's requests did.
    let m = &sum.memory;
    for (level, by_pc) in [
        (CacheLevel::L1i, &m.l1i),
        (CacheLevel::L1d, &m.l1d),
        (CacheLevel::L2, &m.l2),
        (CacheLevel::L3, &m.l3),
    ] {
        assert_eq!(*by_pc, plain.memory.level(level), "{} by PC", level.name());
    }
    let dram = DramStats {
        ticked_cycles: 0,
        refreshes: 0,
        ..plain.memory.dram.clone()
    };
    assert_eq!(m.dram, dram, "DRAM by PC");
    assert!(m.dram.bytes > 0 && m.l1d.misses > 0, "the run misses");
    for (what, folded) in [("functions", &p.functions), ("lines", &p.lines)] {
        let mut sum = PcCounts {
            slots: p.no_warp,
            ..PcCounts::default()
        };
        for f in folded {
            sum.merge(&f.counts);
        }
        assert_eq!(sum, p.total(), "{what} fold every PC");
        let stalls: Vec<u64> = folded.iter().map(|f| f.counts.stall_slots()).collect();
        assert!(
            stalls.windows(2).all(|w| w[0] >= w[1]),
            "{what} by stall slots"
        );
    }
    for i in &p.instructions {
        assert_eq!(
            i.counts.instructions,
            i.counts.slots.get(SlotReason::Issued)
        );
        // A stall waits at an instruction its warp goes on to issue: not the one after an
        // instruction being fetched, nor where a spawned warp's previous launch ended.
        assert!(
            i.counts.instructions > 0,
            "{} slots charged to {:#x} {:?} ({}), which never issued",
            i.counts.stall_slots(),
            i.pc,
            i.function,
            i.disasm
        );
    }
    p
}

/// The profile's instructions, slots (reason by reason, those with no live warp apart),
/// line requests and local-memory conflicts are the counters `t`'s.
fn same_as_counters(p: &Profile, t: &CoreCounters) {
    let sum = p.total();
    assert_eq!(sum.instructions, t.instructions, "warp instructions");
    assert_eq!(
        sum.thread_instructions, t.thread_instructions,
        "thread instructions"
    );
    for reason in SlotReason::ALL {
        assert_eq!(
            sum.slots.get(reason),
            t.slots.get(reason),
            "{} slots",
            reason.name()
        );
    }
    assert_eq!(p.no_warp.total(), t.slots.get(SlotReason::NoActiveWarp));
    let m = &sum.memory;
    assert_eq!(m.line_requests, t.dcache_requests, "line requests");
    assert_eq!(
        m.local_bank_conflict_cycles, t.local_bank_conflict_cycles,
        "local-memory bank conflicts"
    );
}

#[test]
fn an_own_kernels_profile_adds_up_to_the_totals_and_names_its_functions_and_lines() {
    // The two-cluster machine: on the socket layout warp 0's wait for each launch to end
    // (in wsim_spawn) outweighs the kernel's own stalls (the profile's `launch_wait` says
    // how much, but the functions table ranks wsim_spawn by all its slots).
    let config = preset("sparseweaver-clusters");
    let p = check_exact(|| request("launches", &config));
    let top = &p.functions[0];
    assert_eq!(top.name, "tree_kernel", "the kernel stalls most");
    assert!(
        p.lines.iter().any(|l| l.name.starts_with("launches.c:")),
        "lines from the DWARF tables"
    );
    let bar = (p.instructions.iter())
        .filter(|i| i.disasm.starts_with("vx_bar"))
        .map(|i| i.counts.slots.get(SlotReason::Barrier))
        .sum::<u64>();
    let all = p.total().slots.get(SlotReason::Barrier);
    assert!(
        bar * 10 >= all * 9,
        "barrier slots charged to the barrier instructions: {bar} of {all}"
    );
    let divu = (p.instructions.iter())
        .find(|i| i.disasm.starts_with("divu"))
        .expect("the kernel divides");
    assert!(divu
        .function
        .as_deref()
        .unwrap()
        .starts_with("tree_kernel+0x"));
    assert!(divu.line.as_deref().unwrap().starts_with("launches.c:"));
}

#[test]
fn a_sparseweaver_graph_programs_profile_adds_up_and_charges_decode_waits_to_the_decode() {
    let config = preset("sparseweaver");
    let options = GraphOptions {
        graph: Some("gen:rmat:scale=8,ef=8".into()),
        ..GraphOptions::default()
    };
    let input = Arc::new(graph_run::load(&options).unwrap());
    let name = "graph/pr_sparseweaver_pull";
    let p = check_exact(|| request(name, &config).with_input(Arc::clone(&input)));
    // A decode's wait is charged to the decode (its warp fetches nothing until the
    // answer); a wait on a register the unit writes, to the instruction that reads it.
    let decode = (p.instructions.iter())
        .find(|i| i.disasm.starts_with("weaver.dec_id"))
        .expect("the schedule decodes");
    let waits = decode.counts.slots.get(SlotReason::Weaver);
    assert!(
        waits * 2 > decode.counts.stall_slots(),
        "the decode waits on the unit: {waits} of {} stall slots",
        decode.counts.stall_slots()
    );
}

/// BFS push under the vertex-mapped schedule on the default machine (issue 46): its
/// misses and DRAM bytes by source line add up to the report's totals (`check_exact`),
/// its graph code's lines miss and move DRAM bytes, and with write-through caches every
/// DRAM write is charged to the store or atomic that made it.
#[test]
fn bfs_push_vms_memory_by_source_line_adds_up_and_writes_land_on_stores() {
    let config = preset("sparseweaver");
    let options = GraphOptions {
        graph: Some("gen:rmat:scale=8,ef=8".into()),
        ..GraphOptions::default()
    };
    let input = Arc::new(graph_run::load(&options).unwrap());
    let name = "graph/bfs_vm_push";
    let p = check_exact(|| request(name, &config).with_input(Arc::clone(&input)));
    let total = p.total().memory;
    let kernel = (p.lines.iter())
        .filter(|l| l.name.starts_with("graph/"))
        .map(|l| &l.counts.memory);
    let (misses, bytes) = kernel.fold((0, 0), |(m, b), c| (m + c.l1d.misses, b + c.dram.bytes));
    assert!(
        misses > 0 && bytes > 0,
        "the graph code's lines miss and move DRAM bytes: {misses} L1D misses, {bytes} bytes"
    );
    let writes: u64 = (p.instructions.iter())
        .filter(|i| {
            let op = i.disasm.split_whitespace().next().unwrap_or("");
            matches!(op, "sb" | "sh" | "sw" | "fsw") || op.starts_with("amo")
        })
        .map(|i| i.counts.memory.dram.writes)
        .sum();
    assert!(total.dram.writes > 0);
    assert_eq!(
        writes, total.dram.writes,
        "DRAM writes at stores and atomics"
    );
}

/// The stdout of a `wsim run` that succeeded, which says each of `said`.
fn says(out: &std::process::Output, said: &[&str]) -> String {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    for said in said {
        assert!(text.contains(said), "`{said}` in:\n{text}");
    }
    text
}

#[test]
fn the_command_line_prints_the_tables_annotates_and_keeps_the_json_of_a_plain_run() {
    let (out, stats) = run_cli(
        "launches",
        &["--profile-top", "3", "--annotate", "tree_kernel"],
    );
    says(
        &out,
        &[
            "profile by PC:",
            "functions by stall slots (3 of",
            "source lines by stall slots (3 of",
            "instructions by stall slots (3 of",
            "memory by PC: ",
            "source lines by DRAM bytes (3 of",
            "instructions by DRAM bytes (3 of",
            "DRAM bytes\n",
            "annotate tree_kernel (0x",
            "; launches.c:",
        ],
    );
    let stats = stats.unwrap();
    let profile = &stats["profile"];
    assert!(profile["instructions"].as_array().unwrap().len() > 10);
    assert_eq!(profile["functions"][0]["name"], "tree_kernel");
    // The line requests are the loads', stores' and atomics' (the JSON's `memory`).
    let requests: Vec<&str> = (profile["instructions"].as_array().unwrap().iter())
        .filter(|i| i["memory"]["line_requests"].as_u64() > Some(0))
        .map(|i| i["disasm"].as_str().unwrap())
        .collect();
    assert!(requests.iter().any(|d| d.starts_with("lw")), "{requests:?}");
    assert!(
        (requests.iter()).all(|d| d.starts_with(['l', 's']) || d.starts_with("amo")),
        "{requests:?}"
    );

    let (out, stats) = run_cli("launches", &[]);
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("profile by PC"));
    assert!(
        stats.unwrap().get("profile").is_none(),
        "no profile key without the option"
    );
}

#[test]
fn annotating_a_function_the_program_lacks_names_it_after_the_report() {
    let (out, _) = run_cli("launches", &["--annotate", "no_such_kernel"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--annotate no_such_kernel") && err.contains("tree_kernel"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("profile by PC"));
}

/// A slot's reason and PC do not depend on when a sleeping core is looked at again (issue
/// 46 item 8): `Machine::check_slots` compares every slot that does not issue, and both
/// ends of every sleep, with a fresh look at every warp (nothing cached), so a cached
/// answer the warp's state has moved past fails the run. The stale answers it found: a
/// fetch sent while the warp's `ibuffer_empty` was cached (a completion waking the core a
/// cycle earlier or later moved such slots between `fetch` and `ibuffer_empty`), and a
/// slice's answer cached across a warp-control instruction that started or retired warps
/// (its slots charged to a PC from the warps' previous launch).
#[test]
fn every_slot_is_what_a_fresh_look_at_the_warps_gives() {
    let programs = [
        "vecadd",
        "simt_divergence",
        "atomics",
        "barriers",
        "mem_phases",
        "ubench_chase",
        "ubench_stride",
        "ubench_shared",
        "ubench_stream",
        "weaver_edge_sum",
        "eghw_edge_sum",
        "launches",
    ];
    // Both presets; the round-robin scheduler and fetching ahead on two programs.
    let mut runs: Vec<(&str, &str, Vec<String>)> = Vec::new();
    for preset_name in ["tiny", "sparseweaver"] {
        for name in programs {
            let eghw = name
                .starts_with("eghw")
                .then(|| "weaver.mode=eghw".to_string());
            runs.push((preset_name, name, eghw.into_iter().collect()));
        }
    }
    for name in ["vecadd", "launches"] {
        for set in ["core.scheduler=rr", "core.fetch_ahead=true"] {
            runs.push(("sparseweaver", name, vec![set.to_string()]));
        }
    }
    for (preset_name, name, set) in runs {
        let config = preset(preset_name).with_overrides(&set).unwrap();
        let mut request = request(name, &config);
        request.options.prepare = Some(Box::new(|m: &mut Machine| m.check_slots()));
        let (_, result) = execute(request);
        let summary = result.unwrap_or_else(|e| panic!("{name} on {preset_name} {set:?}: {e}"));
        assert!(summary.profile.is_some(), "the check profiles the run");
    }
}

/// Kernels by name (issue 46 item 2): BFS push VM's launches name the kernel `wsim_spawn`
/// was given, the terminal sums them per kernel, and the profile reports warp 0's wait in
/// `wsim_spawn` for the launch to end apart from the kernels' stalls.
#[test]
fn a_bfs_push_vm_profile_names_its_kernels_and_separates_the_launch_wait() {
    let (out, stats) = run_cli(
        "graph/bfs_vm_push",
        &["--graph", "gen:rmat:scale=8,ef=8", "--profile-pc"],
    );
    assert!(out.status.success());
    let stats = stats.unwrap();
    let kernels: Vec<&str> = (stats["launches"].as_array().unwrap().iter())
        .map(|l| l["kernel"].as_str().expect("every launch names its kernel"))
        .collect();
    assert_eq!(kernels[0], "init_kernel");
    assert!(kernels.contains(&"vm_kernel") && kernels.contains(&"vertex_kernel"));
    let text = String::from_utf8_lossy(&out.stdout);
    for expected in [
        "kernels (3; ",
        "  vm_kernel ",
        "launch wait (warp 0 in `wsim_spawn`",
    ] {
        assert!(text.contains(expected), "no {expected:?} in:\n{text}");
    }
    let profile = &stats["profile"];
    let spawn = (profile["functions"].as_array().unwrap().iter())
        .find(|f| f["name"] == "wsim_spawn")
        .unwrap();
    // The launch wait is wsim_spawn's slots while a launch runs, each launch's in its
    // record: less than all of wsim_spawn's (setting a launch up, the barrier after it).
    let wait = &profile["launch_wait"];
    assert!(wait["barrier"].as_u64() > Some(0));
    for (reason, n) in wait.as_object().unwrap() {
        assert!(n.as_u64() <= spawn["slots"][reason].as_u64(), "{reason}");
    }
    assert!(
        text.contains("wait  top stall reasons"),
        "a wait column:\n{text}"
    );
}

/// BFS push VM on R-MAT scale 8 (tiny), profiled with `selection` (`None`: the whole
/// run's profile), its report.
fn bfs_profiled(selection: Option<Selection>) -> Report<GraphRun> {
    let options = GraphOptions {
        graph: Some("gen:rmat:scale=8,ef=8".into()),
        ..GraphOptions::default()
    };
    let input = Arc::new(graph_run::load(&options).unwrap());
    let mut request = request("graph/bfs_vm_push", &preset("tiny")).with_input(input);
    request.options.profile_launches = selection;
    report(request, true)
}

/// The launch wait per launch (issue 46 item 2): in a profiled run every launch record
/// has the slots warp 0 spent in `wsim_spawn` while the launch ran, within the record's
/// slots, and they sum to the profile's launch wait; a run not profiled has none.
#[test]
fn each_launch_record_has_its_launch_wait_and_they_sum_to_the_profiles() {
    let r = bfs_profiled(None);
    let p = r.profile.as_ref().unwrap();
    let mut sum = Slots::default();
    for l in &r.launches {
        let wait = l
            .launch_wait
            .expect("a profiled run's records have their wait");
        for reason in SlotReason::ALL {
            assert!(
                wait.get(reason) <= l.counters.slots.get(reason),
                "{reason:?}"
            );
        }
        sum.merge(&wait);
    }
    assert_eq!(sum, p.launch_wait, "the launches' waits are the profile's");
    assert!(p.launch_wait.get(SlotReason::Barrier) > 0);
    // vm_kernel's first launch (one frontier vertex) waits most of its slots.
    let first_vm = &r.launches[1];
    assert_eq!(first_vm.kernel.as_deref(), Some("vm_kernel"));
    let waited = first_vm.launch_wait.unwrap();
    assert!(
        (waited.total() - waited.get(SlotReason::Issued)) * 3 > first_vm.counters.slots.total(),
        "{waited:?} of {:?}",
        first_vm.counters.slots
    );

    let mut request = request("launches", &preset("tiny"));
    request.options.profile = false;
    let plain = run::execute(request).record.report.unwrap();
    assert!(!plain.launches.is_empty());
    assert!(plain.launches.iter().all(|l| l.launch_wait.is_none()));
    assert!(!plain.to_json().contains("launch_wait"));
}

/// A profile restricted to some launches (`--profile-kernel`, `--profile-launch`) adds
/// up to those launches' own records, exactly: slots reason by reason, instructions, line
/// requests, every cache level's and DRAM's counters, the launch wait; profiling them
/// changed no statistic.
fn check_restricted(selection: Selection, expected: &[u32]) -> Profile {
    let mut r = bfs_profiled(Some(selection.clone()));
    let p = r.profile.take().unwrap();
    assert_eq!(p.selection.as_ref(), Some(&selection));
    assert_eq!(p.launches, expected, "the launches covered");
    // The whole run's profiled report: the same but for its profile and its records'
    // waits, their sums the restricted profile's.
    let mut whole = bfs_profiled(None);
    let (mut counters, mut memory, mut wait) =
        (CoreCounters::default(), Vec::new(), Slots::default());
    for &i in expected {
        let l = &whole.launches[i as usize];
        counters.merge(&l.counters);
        memory.push(l.memory);
        wait.merge(&l.launch_wait.unwrap());
    }
    for l in whole.launches.iter_mut().chain(&mut r.launches) {
        l.launch_wait = None;
    }
    (whole.profile, whole.host, r.host) = (None, None, None);
    assert!(whole == r, "restricting the profile changed a statistic");

    same_as_counters(&p, &counters);
    let m = &p.total().memory;
    let level =
        |c: &wsim_sim::mem::cache::CacheStats| (c.accesses, c.hits, c.misses, c.mshr_full_stalls);
    let tally =
        |t: &wsim_sim::stats::LevelTally| (t.accesses, t.hits, t.misses, t.mshr_full_stalls);
    let add = |a: (u64, u64, u64, u64), b: (u64, u64, u64, u64)| {
        (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3)
    };
    let sum_of = |f: &dyn Fn(&wsim_sim::stats::MemoryTally) -> (u64, u64, u64, u64)| {
        memory.iter().map(f).fold((0, 0, 0, 0), add)
    };
    assert_eq!(level(&m.l1d), sum_of(&|t| tally(&t.l1d)), "L1D");
    assert_eq!(level(&m.l2), sum_of(&|t| tally(&t.l2)), "L2");
    assert_eq!(level(&m.l3), sum_of(&|t| tally(&t.l3)), "L3");
    assert_eq!(
        (m.dram.reads, m.dram.writes, m.dram.bytes, 0),
        sum_of(&|t| (t.dram_reads, t.dram_writes, t.dram_bytes, 0)),
        "DRAM"
    );
    assert!(m.l1d.misses > 0 && m.dram.bytes > 0, "the launches miss");
    // The launch wait: the launches' own, and all of wsim_spawn's slots in them.
    assert_eq!(p.launch_wait, wait);
    let spawn = (p.functions.iter())
        .find(|f| f.name == "wsim_spawn")
        .unwrap();
    assert_eq!(spawn.counts.slots, wait);
    p
}

#[test]
fn a_kernels_profile_adds_up_to_its_launches_records() {
    let p = check_restricted(
        Selection {
            kernels: vec!["vm_kernel".into()],
            launches: vec![],
        },
        &[1, 3, 5, 7],
    );
    let names: Vec<&str> = p.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names[0], "vm_kernel", "{names:?}");
    assert!(
        !names
            .iter()
            .any(|n| *n == "vertex_kernel" || *n == "init_kernel" || *n == "main"),
        "only what ran in vm_kernel's launches: {names:?}"
    );
}

#[test]
fn a_launchs_profile_and_a_union_add_up_to_their_records() {
    let p = check_restricted(
        Selection {
            kernels: vec![],
            launches: vec![3],
        },
        &[3],
    );
    assert!(p.functions.iter().any(|f| f.name == "vm_kernel"));
    check_restricted(
        Selection {
            kernels: vec!["init_kernel".into()],
            launches: vec![4, 3],
        },
        &[0, 3, 4],
    );
}

/// `--profile-kernel` and `--profile-launch` on the command line: the header says what
/// the profile covers, `--annotate` and the JSON are restricted alike, and a kernel or a
/// launch the run did not make is an error (status 2) naming what it did launch.
#[test]
fn the_command_line_restricts_the_profile_to_a_kernel_and_names_what_it_launched() {
    let graph = ["--graph", "gen:rmat:scale=8,ef=8"];
    let args = |extra: &[&'static str]| [&graph[..], extra].concat();
    let (out, stats) = run_cli(
        "graph/bfs_vm_push",
        &args(&["--profile-kernel", "vm_kernel", "--annotate", "vm_kernel"]),
    );
    says(
        &out,
        &[
            "profile by PC of kernel vm_kernel's 4 launches (1, 3, 5, 7): ",
            "annotate vm_kernel (0x",
            "% of the profile's)",
        ],
    );
    let stats = stats.unwrap();
    let profile = &stats["profile"];
    assert_eq!(profile["selection"]["kernels"][0], "vm_kernel");
    assert_eq!(profile["launches"], serde_json::json!([1, 3, 5, 7]));
    let issued: u64 = (stats["launches"].as_array().unwrap().iter())
        .filter(|l| l["kernel"] == "vm_kernel")
        .map(|l| l["counters"]["instructions"].as_u64().unwrap())
        .sum();
    let charged: u64 = (profile["instructions"].as_array().unwrap().iter())
        .map(|i| i["instructions"].as_u64().unwrap())
        .sum();
    assert_eq!(charged, issued, "the JSON's profile is the kernel's");

    let (out, _) = run_cli("graph/bfs_vm_push", &args(&["--profile-launch", "8"]));
    says(&out, &["profile by PC of 1 launch (8): "]);

    for (wrong, said) in [
        (
            &["--profile-kernel", "bfs_kernel"][..],
            "--profile-kernel bfs_kernel: the run launched no kernel `bfs_kernel` (the kernels it launched: init_kernel (1 launch), vm_kernel (4 launches), vertex_kernel (4 launches))",
        ),
        (
            &["--profile-launch", "9"][..],
            "--profile-launch 9: the run has no launch 9 (the launches it made: 9, launches 0 to 8)",
        ),
    ] {
        let (out, stats) = run_cli("graph/bfs_vm_push", &args(wrong));
        assert_eq!(out.status.code(), Some(2), "{wrong:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{err}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("launches (9, "), "the report is out:\n{text}");
        assert!(!text.contains("profile by PC"), "no tables of a wrong selection");
        assert!(stats.is_some(), "the JSON is written");
    }
}
