//! Configuration errors name the key, the value and the limit, and where the key was
//! given: the file's line, or the `--set`/`--vary` item. None aborts or allocates first.

use crate::common;

use common::{program, wsim};

/// `wsim ARGS`: the exit status and stderr.
fn status_and_stderr(args: &[&str]) -> (Option<i32>, String) {
    let out = wsim(args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `wsim config show` with these `--set` items must fail with a message containing each of
/// `expected`.
fn rejected(sets: &[&str], expected: &[&str]) {
    let mut args = vec!["config", "show"];
    for s in sets {
        args.extend(["--set", s]);
    }
    let (code, err) = status_and_stderr(&args);
    assert_eq!(code, Some(2), "{sets:?}: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    for e in expected {
        assert!(err.contains(e), "{sets:?}: `{e}` not in {err}");
    }
}

#[test]
fn counts_and_sizes_beyond_their_limits_are_rejected_before_allocation() {
    // Each of these once aborted allocating tens of gigabytes, or was accepted.
    rejected(
        &["gpu.clusters=4096", "gpu.cores_per_cluster=4096"],
        &[
            "--set gpu.clusters=4096: gpu.clusters = 4096 must be 1..=64",
            "gpu.cores_per_cluster = 4096 must be 1..=64",
        ],
    );
    rejected(
        &["gpu.clusters=64", "gpu.cores_per_cluster=64"],
        &["4096 cores exceeds 256"],
    );
    rejected(
        &["core.ibuffer=2147483648"],
        &["--set core.ibuffer=2147483648: core.ibuffer = 2147483648 must be 1..=64"],
    );
    rejected(
        &["weaver.entries=4294967295"],
        &[
            "--set weaver.entries=4294967295: weaver.entries = 4294967295 needs",
            "local_mem.size is 16384",
        ],
    );
    rejected(
        &["local_mem.size=0"],
        &["--set local_mem.size=0: local_mem.size = 0 must be 4..=1048576"],
    );
    rejected(
        &["core.issue_slices=99"],
        &["core.issue_slices = 99 must be 0..=4"],
    );
    rejected(
        &["memory.l1_link.queue=4294967295"],
        &["memory.l1_link.queue = 4294967295 must be 1..=4096"],
    );
}

#[test]
fn stacks_must_fit_the_address_space_and_miss_local_memory() {
    // 64 cores x 32 x 32 threads x 64 KiB wraps below address 0.
    rejected(
        &[
            "gpu.clusters=8",
            "gpu.cores_per_cluster=8",
            "gpu.warps_per_core=32",
            "gpu.threads_per_warp=32",
            "stack.size=65536",
        ],
        &[
            "the stacks of 65536 hardware threads",
            "reach below address 0",
        ],
    );
    rejected(
        &["stack.top=0xFF002000"],
        &[
            "--set stack.top=0xFF002000: stack.top = 0xff002000: the stacks",
            "overlap local memory",
        ],
    );
}

#[test]
fn weaver_tables_must_fit_in_local_memory() {
    rejected(
        &["local_mem.size=4096", "weaver.entries=512"],
        &[
            "weaver.entries = 512 needs 6208 bytes",
            "local_mem.size is 4096",
        ],
    );
    // Without the unit, its tables need no room.
    let (code, err) = status_and_stderr(&[
        "config",
        "show",
        "--set",
        "local_mem.size=4096",
        "--set",
        "weaver.enabled=off",
    ]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn type_errors_name_the_key_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.toml");
    std::fs::write(&file, "[gpu]\nclusters = 2\n\nwarps_per_core = \"128\"\n").unwrap();
    let (code, err) = status_and_stderr(&["config", "show", "--config", file.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains(&format!(
            "{}: line 4: `gpu.warps_per_core` = \"128\": invalid type: string \"128\"",
            file.display()
        )),
        "{err}"
    );
    // A limit in a file names the line too.
    std::fs::write(&file, "# big\n[core]\nibuffer = 100000\n").unwrap();
    let (_, err) = status_and_stderr(&["config", "show", "--config", file.to_str().unwrap()]);
    assert!(
        err.contains("line 3: core.ibuffer = 100000 must be 1..=64"),
        "{err}"
    );
    rejected(
        &["run.scheduler=1"],
        &["--set run.scheduler=1: unknown key `run.scheduler` (did you mean"],
    );
    rejected(
        &["core.scheduler=fifo"],
        &["--set core.scheduler=fifo: `core.scheduler` = \"fifo\": unknown variant `fifo`"],
    );
    rejected(
        &["gpu.warps_per_core=-1"],
        &["`gpu.warps_per_core` = -1: invalid value: integer `-1`, expected an integer in 0..=4294967295"],
    );
}

#[test]
fn a_section_given_a_value_names_its_keys() {
    rejected(
        &["gpu=4"],
        &["--set gpu=4: `gpu` is a section, not a value; set its keys: gpu.arbiter, gpu.clusters,"],
    );
    rejected(
        &["gpu.clusters.x=1"],
        &["--set gpu.clusters.x=1: `clusters` is a value, not a section"],
    );
}

#[test]
fn a_bad_vary_value_is_reported_as_vary() {
    let (code, err) = status_and_stderr(&[
        "sweep",
        "--vary",
        "weaver.table_latency=10,abc",
        program("hello").to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains(
            "--vary weaver.table_latency=abc: `weaver.table_latency` = \"abc\": invalid type"
        ),
        "{err}"
    );
    assert!(!err.contains("--set"), "{err}");
    let (_, err) = status_and_stderr(&[
        "sweep",
        "--vary",
        "gpu.warps_per_core=4,64",
        program("hello").to_str().unwrap(),
    ]);
    assert!(
        err.contains("--vary gpu.warps_per_core=64: gpu.warps_per_core = 64 must be 1..=32"),
        "{err}"
    );
}

/// An override is one line: `--set $'gpu.clusters=2\nfoo=1'` once set the clusters and
/// silently dropped `foo=1` (issue 35).
#[test]
fn an_override_with_a_line_break_is_refused() {
    rejected(
        &["gpu.clusters=2\nfoo=1"],
        &["--set gpu.clusters=2\\nfoo=1: a value is one line: it has a line break"],
    );
}

/// A check across keys names the line of the key the file gives (issue 35: the Weaver's
/// tables against `local_mem.size` named the file without a line), and a heap too large
/// for any image is a configuration error at its line, not an error about the program.
#[test]
fn checks_across_keys_name_the_line_of_the_key_given() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.toml");
    let check = |text: &str, expected: &str| {
        std::fs::write(&file, text).unwrap();
        let (code, err) =
            status_and_stderr(&["config", "show", "--config", file.to_str().unwrap()]);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains(&format!("{}: {expected}", file.display())),
            "{err}"
        );
    };
    check(
        "[weaver]\nenabled = \"on\"\n\n[local_mem]\nsize = 1024\n",
        "line 5: weaver.entries = 512 needs",
    );
    check(
        "# a heap of 4 GiB\n[map]\nheap = 0xffffffff\n",
        "line 3: map.heap = 0xffffffff bytes cannot fit above any program image",
    );
}
