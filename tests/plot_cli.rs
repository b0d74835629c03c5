//! `wsim plot` on a table of runs: a sweep's CSV draws as a figure (SVG and PDF) whose
//! axes, legend and caption say what was swept, in what unit, on which rows.

mod common;

use std::process::{Command, Output};

fn wsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wsim"))
        .args(args)
        .output()
        .expect("wsim runs")
}

/// The texts an SVG shows, each whole.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| t.split_once('>'))
        .map(|(_, rest)| {
            rest.split("</text>")
                .next()
                .unwrap_or("")
                .trim()
                .to_string()
        })
        .collect()
}

fn succeeded(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_sweeps_table_draws_with_sizes_on_a_log2_axis() {
    let dir = tempfile::tempdir().unwrap();
    let config = common::root().join("configs/sparseweaver.toml");
    let graph = |name: &str| common::programs_dir().join(format!("graph/{name}.elf"));
    let out = wsim(&[
        "sweep",
        "-c",
        config.to_str().unwrap(),
        "--graph",
        "gen:rmat:scale=6,ef=4",
        "--vary",
        "memory.l1d.size=16384,65536",
        "--csv",
        "--ordered",
        graph("pr_vm_pull").to_str().unwrap(),
        graph("pr_sparseweaver_pull").to_str().unwrap(),
    ]);
    let csv = dir.path().join("l1.csv");
    std::fs::write(&csv, succeeded(&out)).unwrap();

    let said = succeeded(&wsim(&["plot", csv.to_str().unwrap()]));
    assert!(said.contains("l1.svg") && said.contains("l1.pdf"), "{said}");
    let svg = std::fs::read_to_string(dir.path().join("l1.svg")).unwrap();
    for text in [
        "16 KiB",
        "64 KiB",
        "memory.l1d.size (bytes), log2 scale",
        "pr_sparseweaver_pull",
        "program pr_vm_pull, pr_sparseweaver_pull",
        "graph gen:rmat:scale=6,ef=4",
        "a program with the Weaver unit gets half of memory.l1d.size as its data L1",
    ] {
        assert!(svg.contains(text), "l1.svg lacks {text}");
    }
    let shown = texts(&svg);
    assert!(
        shown.iter().any(|t| t == "program"),
        "the legend's title: {shown:?}"
    );
    // The PDF carries its text in an embedded font.
    let pdf = std::fs::read(dir.path().join("l1.pdf")).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    assert!(
        pdf.windows(9).any(|w| w == b"/FontFile"),
        "no embedded font"
    );

    // A `where` is in the caption; without Weaver runs, no word of their L1.
    let vm = dir.path().join("vm.svg");
    succeeded(&wsim(&[
        "plot",
        csv.to_str().unwrap(),
        "--where",
        "program=pr_vm_pull",
        "--metric",
        "dram_bytes",
        "-o",
        vm.to_str().unwrap(),
    ]));
    let svg = std::fs::read_to_string(&vm).unwrap();
    assert!(svg.contains("where program=pr_vm_pull"));
    assert!(svg.contains("dram_bytes (bytes)"));
    assert!(!svg.contains("Weaver unit gets"));

    // A column the table lacks is named with the table's.
    let bad = wsim(&["plot", csv.to_str().unwrap(), "--metric", "cycels"]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("l1.csv") && err.contains("no column cycels"),
        "{err}"
    );
}

#[test]
fn an_experiments_table_draws_as_speedups_and_grouped_breakdowns() {
    let dir = tempfile::tempdir().unwrap();
    let table = common::root().join("docs/results/dissertation/fig4_10/quick.csv");
    let speedup = dir.path().join("speedup.svg");
    succeeded(&wsim(&[
        "plot",
        table.to_str().unwrap(),
        "--kind",
        "speedup",
        "--x",
        "graph",
        "--series",
        "schedule",
        "--baseline",
        "VM",
        "--where",
        "algorithm=PageRank",
        "--where",
        "direction=pull",
        "-o",
        speedup.to_str().unwrap(),
    ]));
    let svg = std::fs::read_to_string(&speedup).unwrap();
    assert!(svg.contains("where algorithm=PageRank, direction=pull"));
    let shown = texts(&svg);
    for text in ["schedule", "SparseWeaver", "EM", "geomean"] {
        assert!(
            shown.iter().any(|t| t == text),
            "speedup.svg lacks {text}: {shown:?}"
        );
    }
    assert!(
        !shown.iter().any(|t| t == "VM"),
        "no legend entry for the baseline"
    );
    let breakdown = dir.path().join("slots.svg");
    succeeded(&wsim(&[
        "plot",
        table.to_str().unwrap(),
        "--kind",
        "breakdown",
        "--parts",
        "slots",
        "--x",
        "graph",
        "--series",
        "schedule",
        "--where",
        "algorithm=BFS",
        "--where",
        "direction=push",
        "-o",
        breakdown.to_str().unwrap(),
    ]));
    let svg = std::fs::read_to_string(&breakdown).unwrap();
    let shown = texts(&svg);
    for text in ["slot reason", "scoreboard_memory", "SparseWeaver", "VM"] {
        assert!(
            shown.iter().any(|t| t == text),
            "slots.svg lacks {text}: {shown:?}"
        );
    }
}
