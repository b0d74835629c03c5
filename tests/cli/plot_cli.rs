//! `wsim plot` on a table of runs: a sweep's CSV draws as a figure (SVG and PDF) whose
//! axes, legend and caption say what was swept, in what unit, on which rows.

use crate::common;

use common::{succeeded, wsim};

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
        // The table holds each run under two machines (the default and `clusters`).
        "--where",
        "reading=default",
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
        "--where",
        "reading=default",
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

/// A table of runs as a sweep writes it (program, its --vary keys, graph, ...), made up:
/// no simulation needed to draw it.
fn made_up(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `wsim plot` of `csv` with `options`: the SVG's texts and the SVG itself.
fn drawn(csv: &std::path::Path, options: &[&str]) -> (Vec<String>, String) {
    let svg = csv.with_extension("svg");
    let mut args = vec!["plot", csv.to_str().unwrap()];
    args.extend(options);
    succeeded(&wsim(&args));
    let text = std::fs::read_to_string(&svg).unwrap();
    let outside = wsim_harness::plot::draw::text_outside(&svg).unwrap();
    assert!(outside.is_empty(), "{outside:?}");
    (texts(&text), text)
}

const RATIOS: &str = "\
program,memory.dram.clock_ratio,core.fetch_ahead,memory.l2.size,graph,config_hash,wsim_version,cycles,phase_2_cycles,verdict
p,1,false,8192,,h,0.1.0 (aaa),100,300,ok
p,4,false,1048576,,h,0.1.0 (aaa),80,250,ok
p,1,true,8192,,h,0.1.0 (aaa),90,280,ok
p,4,true,1048576,,h,0.1.0 (aaa),,,failed
";

#[test]
fn a_few_values_or_booleans_along_x_are_categories_and_a_failed_run_is_marked() {
    let dir = tempfile::tempdir().unwrap();
    let csv = made_up(dir.path(), "ratios.csv", RATIOS);
    let (shown, svg) = drawn(
        &csv,
        &[
            "--x",
            "memory.dram.clock_ratio",
            "--series",
            "core.fetch_ahead",
        ],
    );
    // A tick at 1 and at 4, and none between.
    for tick in ["1", "4"] {
        assert!(shown.iter().any(|t| t == tick), "{tick}: {shown:?}");
    }
    for between in ["1.5", "2", "2.5", "3", "3.5"] {
        assert!(!shown.iter().any(|t| t == between), "{between}: {shown:?}");
    }
    // The failed run: crossed, and the caption says what the cross is.
    assert!(
        shown
            .iter()
            .any(|t| t.contains("× marks 1 run that did not succeed")),
        "{shown:?}"
    );
    assert!(svg.matches("<line").count() > 0, "{svg}");
    let (shown, _) = drawn(
        &csv,
        &[
            "--x",
            "core.fetch_ahead",
            "--series",
            "memory.dram.clock_ratio",
        ],
    );
    for tick in ["false", "true"] {
        assert!(shown.iter().any(|t| t == tick), "{tick}: {shown:?}");
    }
    for between in ["0.2", "0.5", "0.8"] {
        assert!(!shown.iter().any(|t| t == between), "{between}: {shown:?}");
    }
}

#[test]
fn sizes_read_as_sizes_in_legends_and_core_cycles_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let csv = made_up(
        dir.path(),
        "speedup.csv",
        "program,memory.l2.size,graph,config_hash,wsim_version,cycles,verdict\n\
         p,8192,g,h,0.1.0 (aaa),100,ok\np,1048576,g,h,0.1.0 (aaa),50,ok\n",
    );
    let (shown, _) = drawn(
        &csv,
        &[
            "--kind",
            "speedup",
            "--x",
            "graph",
            "--series",
            "memory.l2.size",
            "--baseline",
            "8192",
        ],
    );
    assert!(shown.iter().any(|t| t == "1 MiB"), "the legend: {shown:?}");
    assert!(
        shown.iter().any(|t| t.starts_with("speedup over 8 KiB")),
        "{shown:?}"
    );
    assert!(!shown.iter().any(|t| t.contains("1048576")), "{shown:?}");
    // A phase's cycles are summed over cores: its axis says core-cycles.
    let csv = made_up(dir.path(), "phase.csv", RATIOS);
    let (shown, _) = drawn(
        &csv,
        &[
            "--x",
            "memory.dram.clock_ratio",
            "--series",
            "core.fetch_ahead",
            "--metric",
            "phase_2_cycles",
        ],
    );
    assert!(
        shown.iter().any(|t| t == "phase_2_cycles (core-cycles)"),
        "{shown:?}"
    );
}

#[test]
fn a_figures_size_type_caption_and_legend_names_are_options() {
    let dir = tempfile::tempdir().unwrap();
    let csv = made_up(dir.path(), "opts.csv", RATIOS);
    let long_title =
        "A title far longer than the figure is wide, which must wrap onto lines of its own";
    let (shown, svg) = drawn(
        &csv,
        &[
            "--x",
            "memory.dram.clock_ratio",
            "--series",
            "core.fetch_ahead",
            "--width",
            "500",
            "--height",
            "400",
            "--font-size",
            "12",
            "--no-caption",
            "--legend",
            "true=ahead",
            "--title",
            long_title,
        ],
    );
    assert!(
        svg.starts_with("<svg width=\"500\" height=\"400\""),
        "{svg}"
    );
    assert!(shown.iter().any(|t| t == "ahead"), "{shown:?}");
    assert!(
        !shown.iter().any(|t| t.contains("wsim 0.1.0")),
        "no caption: {shown:?}"
    );
    // The title wrapped: no line holds it whole.
    assert!(!shown.iter().any(|t| t == long_title), "{shown:?}");
    let pdf = csv.with_extension("pdf");
    assert!(pdf.exists());
    let out = wsim(&["plot", csv.to_str().unwrap(), "--font-size", "200"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("font_size = 200 is out of its range"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn series_measured_by_different_builds_are_named_with_their_build() {
    let dir = tempfile::tempdir().unwrap();
    let csv = made_up(
        dir.path(),
        "builds.csv",
        "program,graph,schedule,config_hash,wsim_version,cycles,verdict\n\
         p,A,VM,h,0.1.0 (aaaaaaaaaaaa),100,ok\np,A,SparseWeaver,h,0.1.0 (bbbbbbbbbbbb),50,ok\n\
         p,B,VM,h,0.1.0 (aaaaaaaaaaaa),90,ok\np,B,SparseWeaver,h,0.1.0 (bbbbbbbbbbbb),30,ok\n",
    );
    let (shown, _) = drawn(
        &csv,
        &[
            "--kind",
            "speedup",
            "--x",
            "graph",
            "--series",
            "schedule",
            "--baseline",
            "VM",
        ],
    );
    assert!(
        shown
            .iter()
            .any(|t| t == "SparseWeaver (wsim bbbbbbbbbbbb)"),
        "{shown:?}"
    );
    // The build most series share names no entry; the caption says it.
    assert!(
        !shown.iter().any(|t| t.starts_with("VM (wsim")),
        "{shown:?}"
    );
    assert!(
        shown
            .iter()
            .any(|t| t
                == "measured by 2 wsim builds: aaaaaaaaaaaa, but SparseWeaver by bbbbbbbbbbbb"),
        "{shown:?}"
    );
}

/// A figure that cannot be written says so in a line naming the file, before drawing; it
/// used to print Rust's debug dump (`BackendError(DrawingError(Os { code: 2, ... }))`).
#[test]
fn an_unwritable_figure_is_one_line_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let csv = made_up(dir.path(), "ratios.csv", RATIOS);
    let out = dir.path().join("no/such/f.svg");
    let o = wsim(&[
        "plot",
        csv.to_str().unwrap(),
        "--x",
        "memory.dram.clock_ratio",
        "-o",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "cannot write {}: No such file or directory",
            out.display()
        )),
        "{err}"
    );
    assert!(!err.contains("Os {") && err.lines().count() == 1, "{err}");
}
