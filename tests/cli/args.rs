//! A program's own arguments (`wsim run prog.elf -- ARG...`) reach the `wsim_args` block it
//! declares; the instruction trace (`--trace-instructions`) lists every instruction issued
//! that its filters keep, bounded.

use crate::common;

use std::process::Output;

use common::{program, root, wsim};

/// `wsim run --config configs/tiny.toml OPTIONS PROGRAM -- ARGS`.
fn run(name: &str, options: &[&str], args: &[&str]) -> Output {
    let config = root().join("configs/tiny.toml");
    let elf = program(name);
    let mut all = vec!["run", "--config", config.to_str().unwrap()];
    all.extend(options);
    all.push(elf.to_str().unwrap());
    if !args.is_empty() {
        all.push("--");
        all.extend(args);
    }
    wsim(&all)
}

#[test]
fn a_programs_arguments_reach_its_wsim_args_block() {
    let out = run("args", &[], &["100", "5"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let elf = program("args");
    for line in [
        format!("args: argv[0] = {}", elf.display()),
        "args: argv[1] = 100".into(),
        "args: argv[2] = 5".into(),
        "args: OK (100 elements, step 5)".into(),
    ] {
        assert!(stdout.contains(&line), "{line}: {stdout}");
    }
    // Without arguments, its defaults; a bad one is the program's own error.
    let out = run("args", &[], &[]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("args: OK (256 elements, step 3)"));
    let out = run("args", &[], &["many"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("args: usage"));
    // wsim's own errors: a program without the block, too many or too long arguments.
    for (name, args, expected) in [
        (
            "vecadd",
            vec!["1".to_string()],
            "the program takes no arguments: it declares no `wsim_args` block",
        ),
        (
            "args",
            vec!["1".to_string(); 32],
            "32 arguments: a program takes at most 31",
        ),
        (
            "args",
            vec!["x".repeat(1100)],
            "the block holds 1024 (WSIM_ARGS_BYTES)",
        ),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(name, &[], &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(expected), "{expected}: {stderr}");
    }
}

/// The trace's instruction lines: (cycle, core, warp, pc, lanes, the rest).
fn lines(text: &str) -> Vec<(u64, u32, u32, u32, u32, String)> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let hex = |s: &str| u32::from_str_radix(s.trim_start_matches("0x"), 16).unwrap();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                hex(f[3]),
                hex(f[4]),
                f[5..].join(" "),
            )
        })
        .collect()
}

#[test]
fn the_instruction_trace_lists_each_instruction_issued_as_filtered() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("itrace.txt");
    let json = dir.path().join("stats.json");
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let (trace_arg, json_arg) = (path(&trace), path(&json));
    let out = run(
        "vecadd",
        &["--trace-instructions", &trace_arg, "--json", &json_arg],
        &[],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let text = std::fs::read_to_string(&trace).unwrap();
    let all = lines(&text);
    // Every warp instruction, in issue order, with its instruction and source line.
    assert_eq!(
        all.len() as u64,
        doc["total"]["instructions"].as_u64().unwrap()
    );
    assert!(all.windows(2).all(|w| (w[0].0, w[0].1) <= (w[1].0, w[1].1)));
    assert!(
        text.starts_with("# wsim instruction trace of "),
        "{text:.300}"
    );
    assert!(
        all.iter()
            .any(|l| l.5.contains("(vecadd_kernel+0x") && l.5.contains("vecadd.c:")),
        "{text:.2000}"
    );
    assert!(
        all.iter().any(|l| l.4 == 0xf),
        "full warps of tiny's 4 lanes"
    );

    // Filtered by core, warp, cycles and PCs; bounded.
    let kernel = all
        .iter()
        .find(|l| l.5.contains("(vecadd_kernel"))
        .unwrap()
        .3;
    let pcs = format!("{:#x}-{:#x}", kernel, kernel + 0x40);
    let out = run(
        "vecadd",
        &[
            "--trace-instructions",
            &trace_arg,
            "--trace-cores",
            "1",
            "--trace-warps-of",
            "1-2",
            "--trace-cycles",
            "100-100000",
            "--trace-pcs",
            &pcs,
        ],
        &[],
    );
    assert!(out.status.success());
    let kept = lines(&std::fs::read_to_string(&trace).unwrap());
    assert!(!kept.is_empty());
    assert!(kept.iter().all(|l| l.1 == 1
        && (1..=2).contains(&l.2)
        && (100..=100000).contains(&l.0)
        && (kernel..=kernel + 0x40).contains(&l.3)));
    let out = run(
        "vecadd",
        &["--trace-instructions", &trace_arg, "--trace-limit", "10"],
        &[],
    );
    let text = std::fs::read_to_string(&trace).unwrap();
    assert_eq!(lines(&text).len(), 10);
    let more = all.len() - 10;
    assert!(
        text.lines().next().unwrap().contains(&format!(
            "10 instructions, {more} more left out past the limit of 10"
        )),
        "{text}"
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("the instruction trace keeps its first 10")
    );

    // A failed run's trace, up to the instruction that failed.
    let out = run("errors/illegal", &["--trace-instructions", &trace_arg], &[]);
    assert_eq!(out.status.code(), Some(3));
    let last = lines(&std::fs::read_to_string(&trace).unwrap())
        .pop()
        .unwrap();
    assert_eq!(last.3, 0x8000_0004);
    assert!(last.5.starts_with(".word 0x00000000"), "{last:?}");
    // Its options need the trace.
    let out = run("vecadd", &["--trace-cores", "0"], &[]);
    assert_eq!(out.status.code(), Some(2));
}
