//! `wsim graph info|gen|convert` end to end: output, round trips through files, errors.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{email, wsim};

fn ok(args: &[&str]) -> String {
    let out = wsim(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// The one-line error of a failing command (exit status 2).
fn fails(args: &[&str]) -> String {
    let out = wsim(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    err
}

/// The value printed after a label in `info`'s count lines.
fn count(info: &str, label: &str) -> u64 {
    let line = info
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no `{label}` in\n{info}"));
    line[label.len()..].trim().parse().unwrap()
}

/// The fields of a degree row (`out` or `in`).
fn degree_row(info: &str, name: &str) -> Vec<String> {
    let line = info
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no `{name}` row in\n{info}"));
    line.split_whitespace().skip(1).map(String::from).collect()
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn info_prints_counts_and_aligned_degree_statistics() {
    let info = ok(&["graph", "info", &email()]);
    assert_eq!(count(&info, "vertices"), 1005);
    assert_eq!(count(&info, "edges"), 25571);
    assert_eq!(count(&info, "self loops"), 642);
    assert_eq!(count(&info, "parallel edges"), 0);
    // min, max, mean, stddev, skewness, zero
    let out = degree_row(&info, "out");
    assert_eq!(
        (out[0].as_str(), out[1].as_str(), out[2].as_str()),
        ("0", "334", "25.444")
    );
    assert_eq!(degree_row(&info, "in")[1], "212");
    let skew: f64 = out[4].parse().unwrap();
    assert!(skew > 2.0 && skew < 4.0, "{skew}");
    // Numbers are right-aligned: every count line and every table line ends in one column.
    let widths = |lines: Vec<&str>| lines.iter().map(|l| l.len()).collect::<Vec<_>>();
    let counts: Vec<&str> = info.lines().skip(1).take(4).collect();
    assert!(widths(counts).windows(2).all(|w| w[0] == w[1]), "{info}");
    let table: Vec<&str> = info.lines().skip(6).collect();
    assert_eq!(table.len(), 3, "{info}");
    assert!(widths(table).windows(2).all(|w| w[0] == w[1]), "{info}");
}

#[test]
fn info_applies_the_load_options() {
    let info = ok(&[
        "graph",
        "info",
        &email(),
        "--symmetrize",
        "--dedup",
        "--drop-self-loops",
    ]);
    assert_eq!(count(&info, "edges"), 2 * 16_064);
    assert_eq!(count(&info, "self loops"), 0);
    assert_eq!(degree_row(&info, "out"), degree_row(&info, "in"));
}

#[test]
fn gen_writes_what_info_reports_for_the_spec() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["r.mtx", "r.txt.gz"] {
        let file: PathBuf = dir.path().join(name);
        let said = ok(&["graph", "gen", "rmat:scale=8,ef=4", "-o", path_str(&file)]);
        assert!(said.contains("256 vertices, 1024 edges"), "{said}");
        let from_file = ok(&["graph", "info", path_str(&file)]);
        let from_spec = ok(&["graph", "info", "gen:rmat:scale=8,ef=4"]);
        // Identical but for the first line, which names the input.
        assert_eq!(
            from_file.lines().skip(1).collect::<Vec<_>>(),
            from_spec.lines().skip(1).collect::<Vec<_>>()
        );
    }
}

#[test]
fn convert_applies_options_and_changes_format() {
    let dir = tempfile::tempdir().unwrap();
    let mtx = dir.path().join("email.mtx.gz");
    ok(&[
        "graph",
        "convert",
        &email(),
        "-o",
        path_str(&mtx),
        "--symmetrize",
    ]);
    let text = {
        use std::io::Read;
        let mut s = String::new();
        let file = std::fs::File::open(&mtx).unwrap();
        flate2::read::GzDecoder::new(file)
            .read_to_string(&mut s)
            .unwrap();
        s
    };
    assert!(text.starts_with("%%MatrixMarket matrix coordinate integer general\n"));
    let info = ok(&["graph", "info", path_str(&mtx)]);
    // 24,929 non-loop edges both ways, and the 642 self-loops once.
    assert_eq!(count(&info, "edges"), 2 * (25_571 - 642) + 642);
    let back = dir.path().join("email.txt");
    ok(&[
        "graph",
        "convert",
        path_str(&mtx),
        "-o",
        path_str(&back),
        "--dedup",
        "--drop-self-loops",
    ]);
    assert_eq!(
        count(&ok(&["graph", "info", path_str(&back)]), "edges"),
        2 * 16_064
    );
}

#[test]
fn errors_are_one_line_naming_the_cause() {
    let err = fails(&["graph", "info", "gen:rmat:scael=4"]);
    assert!(
        err.contains("unknown key `scael`") && err.contains("did you mean `scale`?"),
        "{err}"
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "0 1\n1 2\n2\n").unwrap();
    let err = fails(&["graph", "info", path_str(&bad)]);
    assert!(
        err.contains(&format!("{}: line 3: truncated line", bad.display())),
        "{err}"
    );
    let err = fails(&[
        "graph",
        "convert",
        path_str(&bad),
        "-o",
        "/nonexistent/dir/g.mtx",
    ]);
    // The output is checked before the input is read (issue 47): a wrong path fails at
    // once, not after a long load.
    assert!(
        err.contains("cannot write /nonexistent/dir/g.mtx") && !err.contains("bad.txt"),
        "the output fails first: {err}"
    );
    let err = fails(&["graph", "gen", "grid:w=3", "-o", "/nonexistent/dir/g.mtx"]);
    assert!(err.contains("/nonexistent/dir/g.mtx"), "{err}");
    let out = wsim(&["graph", "gen", "grid:w=3"]);
    assert_eq!(out.status.code(), Some(2), "-o is required");
}

/// A gzip bomb under a raised ceiling (issue 35): 2 MB expanding to 600 MB of text with
/// `--max-edges` high enough to accept it. The file is parsed as a stream, so the process
/// holds the graph (one edge), not the text: it loads under a 300 MB address-space limit
/// that the whole text alone would exceed.
#[test]
fn a_gzip_bomb_is_read_as_a_stream_in_bounded_memory() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bomb.txt.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&path).unwrap(),
        flate2::Compression::fast(),
    );
    let comment = format!("#{}\n", "x".repeat(1023));
    let block = comment.repeat(1024);
    for _ in 0..600 {
        gz.write_all(block.as_bytes()).unwrap();
    }
    gz.write_all(b"0 1\n").unwrap();
    gz.finish().unwrap();
    let script = format!(
        "ulimit -v 300000 && exec {} graph info --max-edges 20000000 {}",
        env!("CARGO_BIN_EXE_wsim"),
        path.display()
    );
    let out = Command::new("bash").args(["-c", &script]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let info = String::from_utf8(out.stdout).unwrap();
    assert_eq!(count(&info, "edges"), 1, "{info}");
}

#[test]
fn graph_gen_help_lists_every_generator() {
    let out = wsim(&["graph", "gen", "--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    for name in wsim_graph::generators() {
        assert!(help.contains(name), "graph gen --help lacks {name}: {help}");
    }
}

#[test]
fn regress_check_helps_with_a_key_that_exists() {
    let out = wsim(&["regress", "check", "--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    let example = help
        .split("`--set ")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .expect("an example of --set");
    assert!(example.contains('='), "{example}");
    wsim_sim::Config::default()
        .with_overrides(&[example.to_string()])
        .unwrap_or_else(|e| panic!("the example {example} is not a key: {e}"));
}

/// The host memory a run on a graph takes is said before it is paid (`--dry-run`), and a
/// run or a load that would take more than `--max-memory` is refused up front with the
/// bytes it needs, where raised ceilings let it abort ("memory allocation failed").
#[test]
fn a_run_states_and_bounds_its_host_memory_before_it_is_paid() {
    let pagerank = common::program("graph/pr_vm_pull");
    let pagerank = path_str(&pagerank);
    let spec = "gen:rmat:scale=14,ef=16";
    let plan = ok(&["run", "--dry-run", pagerank, "--graph", spec]);
    assert!(
        plan.starts_with("host memory: about ") && plan.contains("the graph "),
        "{plan}"
    );
    let err = fails(&["--max-memory", "4M", "run", pagerank, "--graph", spec]);
    assert!(
        err.contains("of host memory") && err.contains("more than the 4.2 MB wsim may use"),
        "{err}"
    );
    let err = fails(&[
        "--max-memory",
        "1G",
        "graph",
        "info",
        "gen:uniform:v=268435456,e=1",
        "--max-vertices",
        "4294967295",
    ]);
    assert!(err.contains("more than the 1.1 GB wsim may use"), "{err}");
}
