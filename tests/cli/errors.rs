//! Programs that go wrong get a clear error naming what and where, and the process exits
//! non-zero without panicking.

use crate::common;

use std::process::Command;

use common::{error_of, preset, program, wsim};
use wsim_sim::error::ErrorKind;

#[test]
fn illegal_instruction_names_the_site() {
    let e = error_of("errors/illegal", &[]);
    assert!(
        matches!(e.kind, ErrorKind::IllegalInstruction { word: 0, .. }),
        "{e}"
    );
    let site = e.site.as_ref().expect("a site");
    assert_eq!(
        (site.core, site.warp, site.lanes, site.pc),
        (0, 0, 1, 0x8000_0004)
    );
    assert_eq!(site.instr, ".word 0x00000000");
}

#[test]
fn misaligned_access_names_address_and_instruction() {
    let e = error_of("errors/misaligned", &[]);
    assert!(
        matches!(e.kind, ErrorKind::Misaligned { what: "load", width: 4, addr } if addr % 4 == 2),
        "{e}"
    );
    assert_eq!(e.site.unwrap().instr, "lw\ta1, 2(a0)");
}

/// An error names the function and, from the ELF's DWARF line table, the source line of
/// its instruction (the programs are built with -g; `la` is two instructions).
#[test]
fn an_error_names_the_function_and_source_line() {
    let e = error_of("errors/misaligned", &[]);
    assert_eq!(
        e.place.as_deref(),
        Some("_start+0x8 (errors/misaligned.S:6)")
    );
    assert!(
        e.to_string()
            .ends_with("\n  in _start+0x8 (errors/misaligned.S:6)"),
        "{e}"
    );
    // Each warp of a deadlock or a run stopped at run.max_cycles, in assembly and in C; a
    // warp at a barrier at the barrier's own PC (0x18; the assembler gives `.insn` lines
    // the line before), not the next instruction's (0x1c).
    let e = error_of("errors/deadlock", &[]);
    let ErrorKind::Deadlock { warps } = &e.kind else {
        panic!("{e}")
    };
    assert!(
        warps[0].contains("(pc 0x80000018 in _start+0x18 (errors/deadlock.S:10)"),
        "{e}"
    );
    let e = error_of("vecadd", &["run.max_cycles=20000"]);
    let ErrorKind::MaxCycles { warps, .. } = &e.kind else {
        panic!("{e}")
    };
    assert!(
        warps
            .iter()
            .any(|w| w.contains("in vecadd_kernel+0x") && w.contains(" (vecadd.c:")),
        "{e}"
    );
}

#[test]
fn null_pointer_is_unmapped() {
    let e = error_of("errors/null", &[]);
    assert!(
        matches!(
            e.kind,
            ErrorKind::Unmapped {
                what: "store",
                addr: 8,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("null"), "{e}");
}

/// A guard below every thread's stack: hart 0 storing past its 4 KiB stack lands in hart
/// 1's, which the memory map allows (stacks above one's own are reachable), or below every
/// stack; either is reported as an overflow, not a silent write or a wild pointer.
#[test]
fn a_store_below_a_threads_own_stack_is_a_stack_overflow() {
    let e = error_of("errors/stack_overflow", &[]);
    assert!(
        matches!(
            e.kind,
            ErrorKind::StackOverflow {
                what: "store",
                addr: 0xFDFF_EFFC,
                hart: 0,
                stack: (0xFDFF_F000, 0xFE00_0000),
                owner: Some(1),
            }
        ),
        "{e}"
    );
    let text = e.to_string();
    assert!(
        text.contains("in hart 1's stack: a stack overflow?")
            && text.contains("in _start+0x10 (errors/stack_overflow.S:11)"),
        "{text}"
    );
    let alone = [
        "gpu.clusters=1",
        "gpu.cores_per_cluster=1",
        "gpu.warps_per_core=1",
        "gpu.threads_per_warp=1",
    ];
    let e = error_of("errors/stack_overflow", &alone);
    assert!(
        matches!(e.kind, ErrorKind::StackOverflow { owner: None, .. }),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("below every stack: a stack overflow?"),
        "{e}"
    );
}

#[test]
fn barrier_deadlock_reports_every_warp() {
    let e = error_of("errors/deadlock", &[]);
    let ErrorKind::Deadlock { warps } = &e.kind else {
        panic!("{e}")
    };
    assert_eq!(warps.len(), 2, "{e}");
    for w in warps {
        assert!(
            w.contains("in _start") && w.contains("local barrier 1: 2 of 3 warps arrived"),
            "{w}"
        );
    }
}

#[test]
fn runaway_program_stops_at_max_cycles() {
    let e = error_of("errors/forever", &["run.max_cycles=5000"]);
    let ErrorKind::MaxCycles { cycles, warps } = &e.kind else {
        panic!("{e}")
    };
    assert_eq!(*cycles, 5000);
    // Each live warp with its PC: forever.S spins in its first function.
    assert_eq!(warps.len(), 1, "{e}");
    assert!(
        warps[0].starts_with("core 0 warp 0 (pc 0x8000") && warps[0].contains("in _start"),
        "{e}"
    );
}

#[test]
fn unhandled_system_call_is_an_error() {
    let e = error_of("errors/ecall", &[]);
    assert!(e.to_string().contains("ecall with a7 = 64"), "{e}");
}

#[test]
fn segments_must_not_overlap_local_memory() {
    let config = preset("vortex")
        .with_overrides(&["local_mem.base=0x80000000".into()])
        .unwrap();
    let e = common::load_error("vecadd", &config);
    assert!(e.to_string().contains("overlaps local memory"), "{e}");
}

#[test]
fn cli_cannot_run_a_non_elf_status_2() {
    let text = common::root().join("README.md");
    for cmd in ["run", "disasm"] {
        let out = wsim(&[cmd, text.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not an ELF file"), "{cmd}: {err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
    }
}

/// `wsim run` of `elf` edited by `edit`: exit status 2 and a one-line error.
fn refused_edit(edit: impl Fn(&mut Vec<u8>)) -> String {
    let mut elf = std::fs::read(program("hello")).unwrap();
    edit(&mut elf);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edited.elf");
    std::fs::write(&path, &elf).unwrap();
    let out = wsim(&["run", path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    err
}

/// Header tables whose entries are not a 32-bit ELF file's size are refused (issue 35:
/// `e_phentsize` 0 or 16 ran, goblin reading the headers at the wrong stride).
#[test]
fn header_tables_of_the_wrong_entry_size_are_refused() {
    for (field, size, what) in [
        (42, 0u16, "program"),
        (42, 16, "program"),
        (46, 20, "section"),
    ] {
        let err = refused_edit(|elf| elf[field..field + 2].copy_from_slice(&size.to_le_bytes()));
        assert!(
            err.contains(&format!(
                "the {what} header table has entries of {size} bytes; a 32-bit ELF file's are"
            )),
            "{err}"
        );
    }
}

/// A string table that is not UTF-8 names the byte's own file offset (issue 35: goblin's
/// message gave an offset that was not the byte's).
#[test]
fn a_string_table_that_is_not_utf8_names_the_byte() {
    let elf = std::fs::read(program("hello")).unwrap();
    let image = wsim_sim::loader::parse(&elf).unwrap();
    let strtab = (image.sections.iter())
        .find(|s| s.name == ".strtab")
        .expect(".strtab");
    let shoff = u32::from_le_bytes(elf[32..36].try_into().unwrap()) as usize;
    let at = shoff + strtab.index * 40;
    let offset = u32::from_le_bytes(elf[at + 16..at + 20].try_into().unwrap()) as usize + 5;
    let err = refused_edit(|elf| elf[offset] = 0xff);
    assert!(
        err.contains(&format!(
            "string table section {} is not UTF-8: byte 0xff at file offset {offset:#x}",
            strtab.index
        )),
        "{err}"
    );
}

/// A failed simulation exits with 3, whichever `--exit-status`, and names the site.
#[test]
fn cli_reports_a_failed_simulation_with_status_3() {
    let elf = program("errors/misaligned");
    for mode in ["wsim", "program"] {
        let out = wsim(&["run", "--exit-status", mode, elf.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(3), "{mode}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("at core 0 warp 0 lanes 0x00000001 pc 0x80000008: lw"),
            "{err}"
        );
    }
}

/// By default the process exit status is wsim's verdict: 0, or 1 for a program that
/// exits non-zero, so a program returning 3 is not taken for a failed simulation; its own
/// status is on the report's `exit status` line and in the JSON. `--exit-status program`
/// exits with the program's status.
#[test]
fn cli_exit_status_tells_the_program_from_wsim() {
    let tiny = common::root().join("configs/tiny.toml");
    let tiny = tiny.to_str().unwrap();
    let out = wsim(&["run", "--config", tiny, program("vecadd").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("vecadd: OK") && stdout.contains("issue slots"),
        "{stdout}"
    );

    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let elf = program("errors/exit_status");
    let out = wsim(&[
        "run",
        "--json",
        json.to_str().unwrap(),
        elf.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["exit", "status", "3"]),
        "{stdout}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["exit_code"], 3);

    let out = wsim(&["run", "--exit-status", "program", elf.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3));
    let out = wsim(&[
        "run",
        "--exit-status",
        "wsim",
        program("hello").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn help_lists_the_exit_statuses() {
    let out = wsim(&["--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    for line in [
        "  0  success",
        "  1  run: the program exited non-zero",
        "  2  could not run",
        "  3  run: the simulation failed",
        "  4  run: a graph program's result differs",
        "  5  regress check: a stale baseline",
    ] {
        assert!(help.contains(line), "`{line}` in\n{help}");
    }
}

#[test]
fn store_outside_the_memory_map_is_unmapped_unless_mapped() {
    let e = error_of("errors/unmapped", &[]);
    assert!(
        matches!(
            e.kind,
            ErrorKind::Unmapped {
                what: "store",
                addr: 0xC000_0000,
                ..
            }
        ),
        "{e}"
    );
    let site = e.site.as_ref().expect("a site");
    assert_eq!((site.core, site.warp, site.lanes), (0, 0, 1), "{e}");
    assert!(site.instr.starts_with("sw\t"), "{e}");
    assert!(e.to_string().contains("outside every mapped region"), "{e}");
    let config = preset("vortex")
        .with_overrides(&["map.regions=[{ base = 0xC0000000, size = 4096 }]".into()])
        .unwrap();
    let (_, result) = common::run("errors/unmapped", &config);
    assert_eq!(result.expect("mapped: runs").exit_code, 7);
}

#[test]
fn stacks_must_not_overlap_the_image() {
    let config = preset("vortex")
        .with_overrides(&["stack.top=0x80001000".into(), "stack.size=256".into()])
        .unwrap();
    let e = common::load_error("vecadd", &config);
    assert!(e.to_string().contains("overlaps the stacks"), "{e}");
}

/// `wsim run --json` on a program that fails: exit status 3, the report and the JSON with
/// the statistics up to the failure, marked failed with the reason.
fn failed_run(name: &str, overrides: &[&str]) -> (serde_json::Value, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wsim"));
    cmd.arg("run").arg("--json").arg(&json);
    for o in overrides {
        cmd.args(["--set", o]);
    }
    let out = cmd.arg(program(name)).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{name}");
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("the JSON is written"))
            .unwrap();
    (
        stats,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn max_cycles_keeps_the_statistics_and_names_each_warp() {
    let (stats, stdout, stderr) = failed_run("errors/forever", &["run.max_cycles=5000"]);
    assert_eq!(stats["status"], "failed");
    let error = stats["error"].as_str().unwrap();
    assert!(error.contains("run.max_cycles = 5000"), "{error}");
    assert!(
        error.contains("core 0 warp 0 (pc 0x80000000 in _start"),
        "{error}"
    );
    assert_eq!(stats["cycles"], 5000);
    // One `j` per 17 cycles on the default (SimX's) pipeline: the fetch loop (8), dispatch
    // (5), the ALU (2) and the resume (2); the first fetches miss in the L1I.
    let instructions = stats["total"]["instructions"].as_u64().unwrap();
    assert!(
        (5000 / 17 - 10..=5000 / 17).contains(&instructions),
        "{instructions}"
    );
    assert!(
        stdout.contains("FAILED at cycle 5000: run exceeded run.max_cycles")
            && stdout.contains("issue slots"),
        "{stdout}"
    );
    assert!(stderr.contains("pc 0x80000000 in _start"), "{stderr}");
}

#[test]
fn deadlock_keeps_the_statistics_and_names_each_warp() {
    let (stats, stdout, _) = failed_run("errors/deadlock", &[]);
    assert_eq!(stats["status"], "failed");
    let error = stats["error"].as_str().unwrap();
    assert!(error.starts_with("deadlock"), "{error}");
    for w in [0, 1] {
        assert!(
            error.contains(&format!("core 0 warp {w} (pc 0x8000")),
            "{error}"
        );
    }
    // The statistics up to the deadlock: the spawn and both barrier arrivals issued, and
    // the waiting warps' slots count as barrier waits.
    assert!(stats["cycles"].as_u64().unwrap() > 0);
    assert!(stats["total"]["instructions"].as_u64().unwrap() >= 6);
    assert!(
        stats["total"]["slots"]["barrier"].as_u64().unwrap() > 0,
        "{stats}"
    );
    assert!(stdout.contains("FAILED at cycle"), "{stdout}");
}

#[test]
fn a_successful_run_has_status_ok() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let out = Command::new(env!("CARGO_BIN_EXE_wsim"))
        .arg("run")
        .arg("--json")
        .arg(&json)
        .arg(program("hello"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(stats["status"], "ok");
    assert!(stats["error"].is_null());
}

/// What a run of `name` (CLI, default preset) printed on stderr and wrote as JSON; it
/// must fail with status 3.
fn failed_run_json(name: &str) -> (String, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let elf = program(name);
    let out = wsim(&[
        "run",
        "--json",
        json.to_str().unwrap(),
        elf.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(3), "{name}");
    let stats = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (String::from_utf8_lossy(&out.stderr).into_owned(), stats)
}

/// A program cannot grow the statistics without bound: a loop marking a new iteration
/// every few cycles (it used to abort wsim allocating 5.5 GB) stops at the limit, names
/// it, and its JSON holds the iterations kept.
#[test]
fn iteration_marks_stop_at_their_limit_with_the_report_written() {
    let limit = wsim_sim::limits::ITERATIONS;
    let (err, stats) = failed_run_json("errors/iteration_flood");
    assert!(
        err.contains(&format!("marked iteration {}", limit + 1))
            && err.contains("limits::ITERATIONS"),
        "{err}"
    );
    assert_eq!(stats["status"], "failed");
    assert_eq!(stats["iterations"].as_array().unwrap().len(), limit);
}

/// The same for a loop launching a kernel again and again: the launch that would be one
/// record too many stops the run, naming the limit.
#[test]
fn launches_stop_at_their_limit_with_the_report_written() {
    let limit = wsim_sim::limits::LAUNCHES;
    let (err, stats) = failed_run_json("errors/launch_flood");
    assert!(
        err.contains(&format!("started launch {}", limit + 1)) && err.contains("limits::LAUNCHES"),
        "{err}"
    );
    assert_eq!(stats["status"], "failed");
    assert_eq!(stats["launches"].as_array().unwrap().len(), limit);
}

/// The same for a loop writing a new phase number each time (it used to take hundreds of
/// MB and slow down superlinearly): the phase that would be one too many is refused at
/// its instruction.
#[test]
fn phase_numbers_stop_at_their_limit_naming_the_instruction() {
    let limit = wsim_sim::limits::PHASES;
    let (err, stats) = failed_run_json("errors/phase_flood");
    assert!(
        err.contains(&format!("phase {limit:#x} would be"))
            && err.contains("limits::PHASES")
            && err.contains("csrw"),
        "{err}"
    );
    assert_eq!(stats["phases"].as_object().unwrap().len(), limit);
}

/// A program cannot grow the host's memory through the Weaver unit: a loop skipping a new
/// vertex id every few cycles (it grew the skip set 27 MB per million cycles until wsim
/// aborted) stops at the limit, names it and the instruction, and writes its JSON.
#[test]
fn weaver_skips_stop_at_their_limit_with_the_report_written() {
    let limit = wsim_sim::limits::WEAVER_SKIPS;
    let (err, stats) = failed_run_json("errors/skip_flood");
    assert!(
        err.contains(&format!("skipped vertex {}", limit + 1))
            && err.contains("limits::WEAVER_SKIPS")
            && err.contains("weaver.skip\tt0"),
        "{err}"
    );
    assert_eq!(stats["status"], "failed");
    assert_eq!(stats["total"]["weaver"]["skips"], limit as u64);
}

/// The same for `vx_split` without `vx_join` (5.8 MiB per million cycles with 32 warps):
/// the split that would pass the split stack's limit fails at its instruction.
#[test]
fn split_stacks_stop_at_their_limit_with_the_report_written() {
    let limit = wsim_sim::limits::SPLIT_STACK;
    let (err, stats) = failed_run_json("errors/split_flood");
    assert!(
        err.contains(&format!("vx_split with {limit} entries"))
            && err.contains("limits::SPLIT_STACK")
            && err.contains("vx_split\tt0, t1"),
        "{err}"
    );
    assert_eq!(stats["status"], "failed");
}

/// Output that cannot be written (a full device, `2>/dev/full`) never changes the exit
/// status: it used to panic with 101 on stderr (an error or a warning) and turn a full
/// stdout into 2. A failed simulation stays 3 and a run that warns stays 0.
#[test]
fn unwritable_stdout_or_stderr_keeps_the_exit_status() {
    let tiny = common::root().join("configs/tiny.toml");
    let misaligned = program("errors/misaligned");
    let pagerank = program("graph/pr_vm_pull");
    let warns = [
        "run",
        "--config",
        tiny.to_str().unwrap(),
        "--graph",
        "gen:rmat:scale=6,ef=4",
        "--source",
        "3",
        pagerank.to_str().unwrap(),
    ];
    let cases: [(&[&str], i32); 2] = [(&["run", misaligned.to_str().unwrap()], 3), (&warns, 0)];
    let full = || {
        std::process::Stdio::from(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
    };
    for (args, code) in cases {
        for (stdout_full, stderr_full) in [(true, false), (false, true), (true, true)] {
            let mut command = Command::new(env!("CARGO_BIN_EXE_wsim"));
            command.args(args);
            command.stdout(if stdout_full {
                full()
            } else {
                std::process::Stdio::null()
            });
            command.stderr(if stderr_full {
                full()
            } else {
                std::process::Stdio::null()
            });
            let status = command.status().unwrap();
            assert_eq!(
                status.code(),
                Some(code),
                "{args:?} with stdout full: {stdout_full}, stderr full: {stderr_full}"
            );
        }
    }
}

/// A fetch inside mapped code but off an instruction (a `vx_wspawn` or an entry at
/// 0x80000002) is misaligned, as a `jalr` there is; it used to say "unmapped".
#[test]
fn a_fetch_off_an_instruction_in_mapped_code_is_misaligned() {
    let e = error_of("errors/spawn_misaligned", &[]);
    assert!(
        matches!(
            e.kind,
            ErrorKind::Misaligned {
                what: "instruction fetch",
                addr: 0x8000_0002,
                ..
            }
        ),
        "{e}"
    );
}

/// A jump into `.bss` fetches mapped memory nothing wrote: zero, an illegal instruction,
/// not an unmapped fetch.
#[test]
fn a_fetch_from_unwritten_mapped_memory_is_an_illegal_instruction() {
    let e = error_of("errors/jump_bss", &[]);
    assert!(
        matches!(e.kind, ErrorKind::IllegalInstruction { word: 0, .. }),
        "{e}"
    );
}

/// A local memory placed just below the I/O words used to hide them: every console and
/// exit store failed as "past the end of local memory". A mapped word there is just
/// written.
#[test]
fn a_local_memory_below_the_io_words_leaves_them_mapped() {
    let (_, result) = common::run(
        "hello",
        &preset("vortex")
            .with_overrides(&["local_mem.base=0x4000".into()])
            .unwrap(),
    );
    assert_eq!(result.expect("runs").exit_code, 0);
}
