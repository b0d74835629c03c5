//! What wsim reads and writes (issue 47 items 2, 4, 5 and 6): special files are refused
//! as inputs at once, outputs are checked before the work, written whole and never
//! through a symlink, and an output that is one of the inputs is refused.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::{program, root, wsim};

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A FIFO (no writer) in `dir`.
fn fifo(dir: &Path) -> PathBuf {
    let path = dir.join("fifo");
    let status = Command::new("mkfifo").arg(&path).status().unwrap();
    assert!(status.success());
    path
}

/// `wsim args` fails with status 2 within seconds, saying `why` on stderr.
fn refused(args: &[&str], why: &str) {
    let started = Instant::now();
    let out = wsim(args);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{args:?} took long"
    );
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    assert!(stderr(&out).contains(why), "{args:?}: {}", stderr(&out));
}

/// A FIFO as a configuration, program or graph blocked forever, and /dev/zero was read
/// to 2 GB before "out of memory": each is now refused at once, naming what it is.
#[test]
fn special_files_are_refused_as_inputs_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = fifo(dir.path());
    let hello = program("hello");
    let pagerank = program("graph/pr_vm_pull");
    let (hello, pagerank) = (hello.to_str().unwrap(), pagerank.to_str().unwrap());
    for special in [fifo.to_str().unwrap(), "/dev/zero"] {
        let what = if special == "/dev/zero" {
            "it is a character device, not a regular file"
        } else {
            "it is a FIFO, not a regular file"
        };
        refused(&["run", "--config", special, hello], what);
        refused(&["run", special], what);
        refused(&["disasm", special], what);
        refused(&["run", "--graph", special, pagerank], what);
        refused(&["graph", "info", special], what);
        refused(&["regress", "check", special], what);
        refused(&["experiment", "run", special], what);
        refused(&["plot", special, "-o", "x.svg"], what);
    }
    // An experiment's configuration and program, a baseline's program: the same.
    let experiment = dir.path().join("e.toml");
    std::fs::write(
        &experiment,
        format!(
            "config = '{}'\n[[programs]]\nfiles = ['{hello}']\n",
            fifo.display()
        ),
    )
    .unwrap();
    refused(
        &["experiment", "run", experiment.to_str().unwrap()],
        "it is a FIFO",
    );
    std::fs::write(&experiment, "[[programs]]\nfiles = ['/dev/zero']\n").unwrap();
    refused(
        &["experiment", "run", experiment.to_str().unwrap()],
        "a character device",
    );
}

/// An input larger than its kind may be is refused before it is parsed: a 2 MB
/// configuration (a 35 MB one took 2 GB before saying "at most 64" regions).
#[test]
fn an_oversized_configuration_is_refused_before_it_is_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("big.toml");
    let region = "{ base = 0x10000000, size = 4096 },\n";
    let text = format!("[map]\nregions = [\n{}]\n", region.repeat(60_000));
    std::fs::write(&config, text).unwrap();
    let hello = program("hello");
    refused(
        &[
            "run",
            "--config",
            config.to_str().unwrap(),
            hello.to_str().unwrap(),
        ],
        &format!(
            "bytes, more than the {} a configuration may have",
            wsim_sim::limits::CONFIG_BYTES
        ),
    );
}

/// An unwritable --json or --trace was found only after the simulation, and then nothing
/// was printed (exit 2, empty stdout): now it fails before the run.
#[test]
fn unwritable_outputs_fail_before_the_run() {
    let hello = program("hello");
    let dir = tempfile::tempdir().unwrap();
    let not_a_folder = dir.path().join("file");
    std::fs::write(&not_a_folder, "").unwrap();
    let missing = dir.path().join("no/such/o.json");
    for option in ["--json", "--trace"] {
        for path in [&missing, dir.path(), &not_a_folder.join("o.json")] {
            let out = wsim(&[
                "run",
                option,
                path.to_str().unwrap(),
                hello.to_str().unwrap(),
            ]);
            assert_eq!(out.status.code(), Some(2), "{option} {}", path.display());
            assert!(
                out.stdout.is_empty(),
                "no run: {}",
                String::from_utf8_lossy(&out.stdout)
            );
            assert!(
                stderr(&out).contains(&format!("cannot write {}", path.display())),
                "{}",
                stderr(&out)
            );
        }
    }
    // An experiment's read-only --out: before any run.
    let experiment = dir.path().join("e.toml");
    std::fs::write(
        &experiment,
        format!("[[programs]]\nfiles = ['{}']\n", hello.display()),
    )
    .unwrap();
    let out = wsim(&[
        "experiment",
        "run",
        experiment.to_str().unwrap(),
        "--out",
        not_a_folder.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot create"), "{}", stderr(&out));
    assert!(
        !stderr(&out).contains("runs:"),
        "nothing ran: {}",
        stderr(&out)
    );
}

/// An output that fails at the end (a full device) does not lose the report: it is
/// printed, then the error, exit status 2.
#[test]
fn a_report_is_printed_when_its_json_cannot_be_written() {
    let hello = program("hello");
    let out = wsim(&["run", "--json", "/dev/full", hello.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("cycles"), "the report: {stdout}");
    assert!(
        stderr(&out).contains("cannot write /dev/full"),
        "{}",
        stderr(&out)
    );
}

/// `run --json P.elf P.elf`, `--trace P.elf`, `--config C --json C`, `graph convert G
/// -o G` and `plot X -o X` overwrote their input without a word: each is refused, the
/// input left as it was.
#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let elf = dir.path().join("hello.elf");
    std::fs::copy(program("hello"), &elf).unwrap();
    let config = dir.path().join("c.toml");
    std::fs::copy(root().join("configs/tiny.toml"), &config).unwrap();
    let graph = dir.path().join("g.txt");
    std::fs::write(&graph, "0 1\n1 2\n").unwrap();
    let figure = dir.path().join("f.svg");
    std::fs::write(&figure, "<svg/>").unwrap();
    let inputs = [&elf, &config, &graph, &figure].map(|p| std::fs::read(p).unwrap());
    let (e, c, g, f) = (
        elf.to_str().unwrap(),
        config.to_str().unwrap(),
        graph.to_str().unwrap(),
        figure.to_str().unwrap(),
    );
    // The same file by another name, too.
    let alias = dir.path().join("alias.elf");
    std::fs::hard_link(&elf, &alias).unwrap();
    let cases: [&[&str]; 6] = [
        &["run", "--json", e, e],
        &["run", "--trace", alias.to_str().unwrap(), e],
        &["run", "--config", c, "--json", c, e],
        &["graph", "convert", g, "-o", g],
        &["plot", f, "-o", f],
        &["tables", "gcn", f, "--csv", f],
    ];
    for args in cases {
        refused(args, "it is the input");
    }
    let now = [&elf, &config, &graph, &figure].map(|p| std::fs::read(p).unwrap());
    assert!(inputs == now, "an input changed");
}

/// A symlink at an output is replaced by the output, never written through: a link at
/// an experiment's plot used to get the SVG written to the file outside.
#[test]
fn outputs_replace_symlinks_and_leave_no_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside.txt");
    std::fs::write(&outside, "keep").unwrap();
    let hello = program("hello");
    let experiment = dir.path().join("e.toml");
    std::fs::write(
        &experiment,
        format!(
            "config = '{}'\n[[programs]]\nfiles = ['{}']\n\
             [[plots]]\nname = 'speed'\nkind = 'line'\nx = 'program'\nmetric = 'cycles'\n",
            root().join("configs/tiny.toml").display(),
            hello.display()
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    for name in ["speed.svg", "speed.pdf", "e.csv"] {
        std::os::unix::fs::symlink(&outside, out.join(name)).unwrap();
    }
    let json = dir.path().join("r.json");
    std::os::unix::fs::symlink(&outside, &json).unwrap();
    let o = wsim(&[
        "experiment",
        "run",
        experiment.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = wsim(&[
        "run",
        "--json",
        json.to_str().unwrap(),
        hello.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep");
    for file in [out.join("speed.svg"), out.join("e.csv"), json] {
        let meta = std::fs::symlink_metadata(&file).unwrap();
        assert!(meta.is_file(), "{} is a file now", file.display());
    }
    let litter: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(litter.is_empty(), "{litter:?}");
}
