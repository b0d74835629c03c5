//! Every GCN program (docs/GCN.md) through `wsim run --graph` on the tiny configuration, as
//! a user runs it: the command checks H = X W and the layer's output against the host
//! reference (wsim-graph's gcn, f64, within the f32 error bound of any summation order)
//! and says "verified", or lists the values outside their bounds and exits 4. Graphs:
//! SNAP's email-Eu-core and R-MAT scale 10, with F = 16 and F = 64. Then the designs'
//! own regimes (BiKD's subgraphs and slabs, TLPGNN's software mode), the records and
//! phases Figure 4.19 is drawn from, the JSON, and the layer options' errors.

mod common;

use std::process::Output;

use common::{email, program, root, wsim, GCN_KERNELS as KERNELS};
use serde_json::Value;

const RMAT: &str = "gen:rmat:scale=10,ef=16";

/// `wsim run` of GCN program `kernel` on tiny with `extra` options (EGHW's unit mode
/// added); the output.
fn run(kernel: &str, extra: &[&str]) -> Output {
    let elf = program(&format!("gcn/gcn_{kernel}"));
    let config = root().join("configs/tiny.toml");
    let mut args = vec!["run", "-c", config.to_str().unwrap()];
    if kernel == "eghw" {
        args.extend(["--set", "weaver.mode=eghw"]);
    }
    args.extend(extra);
    args.push(elf.to_str().unwrap());
    wsim(&args)
}

/// The run verified (status 0 and the report's verdict), or why not.
fn verified(kernel: &str, extra: &[&str]) -> Result<String, String> {
    common::verdict(&format!("gcn_{kernel}"), extra, &run(kernel, extra))
}

fn verifies(kernel: &str, graph: &str, features: &str) {
    if let Err(e) = verified(kernel, &["--graph", graph, "--features", features]) {
        panic!("{e}");
    }
}

macro_rules! kernel_tests {
    ($($kernel:ident),*) => {
        $(mod $kernel {
            #[test] fn email_eu_core_f16() { super::verifies(stringify!($kernel), &super::email(), "16"); }
            #[test] fn email_eu_core_f64() { super::verifies(stringify!($kernel), &super::email(), "64"); }
            #[test] fn rmat_scale_10_f16() { super::verifies(stringify!($kernel), super::RMAT, "16"); }
            #[test] fn rmat_scale_10_f64() { super::verifies(stringify!($kernel), super::RMAT, "64"); }
        })*
        #[test]
        fn every_kernel_is_tested() {
            let tested = [$(stringify!($kernel)),*];
            assert_eq!(tested, KERNELS);
            let built: Vec<String> = common::built_programs()
                .into_iter()
                .filter_map(|p| p.strip_prefix("gcn/gcn_").map(String::from))
                .collect();
            assert_eq!(built, { let mut k = KERNELS.to_vec(); k.sort(); k });
        }
    };
}

kernel_tests!(vm, sparseweaver, eghw, gnnadvisor, accel_gcn, tlpgnn, bikd);

/// The JSON report of a run that must verify.
fn json(kernel: &str, extra: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.json");
    let mut args = extra.to_vec();
    args.extend(["--json", path.to_str().unwrap()]);
    verified(kernel, &args).unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// With an L2 of 16 KiB and F = 64 on tiny (4 lanes, 16-thread CTAs), BiKD cuts R-MAT 10's
/// sources into 4 subgraphs of 256 vertices (a slab's rows of H: 16 KiB) and F into 4
/// slabs: 16 launches, each preloading the partial outputs of the ones before.
#[test]
fn bikd_partitions_the_graph_by_the_l2_and_the_features_by_slabs() {
    let small = json(
        "bikd",
        &[
            "--graph",
            RMAT,
            "--features",
            "64",
            "--set",
            "memory.l2.size=16384",
        ],
    );
    let whole = json("bikd", &["--graph", RMAT, "--features", "64"]);
    let barriers = |doc: &Value| doc["total"]["barriers"].as_u64().unwrap();
    // Every launch ends with a global barrier on every warp: 15 more launches.
    assert!(
        barriers(&small) > barriers(&whole),
        "{} vs {}",
        barriers(&small),
        barriers(&whole)
    );
}

/// TLPGNN takes its software mode (persistent warps and a task counter) on a graph whose
/// mean degree is above 50, its hardware mode (blocks of 4 warps) below.
#[test]
fn tlpgnn_verifies_in_both_modes() {
    let dense = "gen:uniform:v=200,e=12000";
    verifies("tlpgnn", dense, "16");
    verifies("tlpgnn", dense, "40");
}

/// The records Figure 4.19's split is read from: one per launch group, valued by the
/// kernel (gcn.h: 0 init, 1 SpMM, 2 preprocessing, 3 GraphSum), covering the run.
#[test]
fn records_give_spmm_and_graphsum_apart() {
    for (kernel, expected) in [("vm", vec![0, 1, 3]), ("gnnadvisor", vec![0, 1, 2, 3])] {
        let doc = json(kernel, &["--graph", "gen:rmat:scale=7,ef=8"]);
        let records = doc["iterations"].as_array().unwrap();
        let kinds: Vec<u64> = records
            .iter()
            .map(|r| r["active"].as_u64().unwrap())
            .collect();
        assert_eq!(kinds, expected, "{kernel}");
        let cycles: u64 = records.iter().map(|r| r["cycles"].as_u64().unwrap()).sum();
        assert!(records.iter().all(|r| r["cycles"].as_u64().unwrap() > 0));
        assert!(cycles <= doc["cycles"].as_u64().unwrap(), "{kernel}");
    }
}

/// VM by weight and TLPGNN never add atomically to features (TLPGNN's only atomics are
/// its dispatch), SparseWeaver adds every product atomically.
#[test]
fn atomics_follow_the_designs() {
    let atomics = |kernel: &str| {
        json(
            kernel,
            &["--graph", "gen:rmat:scale=7,ef=8", "--features", "8"],
        )["total"]["atomics"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(atomics("vm"), 0);
    // At least one warp instruction per nonzero's column (batches of 4 lanes on tiny).
    let doc = json(
        "sparseweaver",
        &["--graph", "gen:rmat:scale=7,ef=8", "--features", "8"],
    );
    let nonzeros = doc["graph"]["gcn"]["input_nonzeros"].as_u64().unwrap();
    assert!(doc["total"]["atomics"].as_u64().unwrap() >= nonzeros * 8 / 4);
    assert!(
        atomics("tlpgnn") <= 128 + 8,
        "one dispatch per block of 4 warps (128 vertices)"
    );
}

#[test]
fn the_json_records_the_layer() {
    let doc = json(
        "gnnadvisor",
        &[
            "--graph",
            "gen:rmat:scale=6",
            "--features",
            "24",
            "--input-nnz",
            "5",
        ],
    );
    let g = &doc["graph"];
    assert_eq!(g["algorithm"], "GCN");
    assert_eq!(g["schedule"], "GNNAdvisor");
    assert_eq!(g["result"], "verified");
    assert_eq!(
        g["load_options"],
        serde_json::json!(["--features=24", "--input-nnz=5"])
    );
    assert_eq!(g["gcn"]["features"], 24);
    assert_eq!(g["gcn"]["input_features"], 1433);
    // A + I: the self-loops are part of the graph the program ran on.
    assert_eq!(g["vertices"], 64);
}

/// Each program names its phases (the coordinated `wsim_phase_names` array).
#[test]
fn phase_names_are_defined() {
    let expected = [
        "other",
        "init",
        "spmm",
        "registration",
        "work_id",
        "edge_access",
        "gather_sum",
    ];
    for kernel in KERNELS {
        let elf = std::fs::read(program(&format!("gcn/gcn_{kernel}"))).unwrap();
        let image = wsim_sim::loader::load(&elf).unwrap();
        // The image's bytes as loaded (zero beyond a segment's file data).
        let byte = |a: u32| -> u8 {
            let s = (image.segments.iter())
                .find(|s| s.vaddr <= a && a - s.vaddr < s.memsz)
                .expect("an address in the image");
            s.data.get((a - s.vaddr) as usize).copied().unwrap_or(0)
        };
        let word = |a: u32| u32::from_le_bytes([byte(a), byte(a + 1), byte(a + 2), byte(a + 3)]);
        let at = image.symbol("wsim_phase_names").expect("the array").addr;
        let mut names = Vec::new();
        for i in 0.. {
            let p = word(at + 4 * i);
            if p == 0 {
                break;
            }
            let bytes: Vec<u8> = (p..).map(byte).take_while(|&b| b != 0).collect();
            names.push(String::from_utf8(bytes).unwrap());
        }
        assert_eq!(names, expected, "{kernel}");
    }
}

#[test]
fn layer_options_are_checked() {
    let cases: &[(&[&str], &str)] = &[
        (&["--features", "0"], "1 to 1024 features"),
        (&["--features", "1025"], "1 to 1024 features"),
        (
            &["--input-features", "4", "--input-nnz", "5"],
            "exceeds --input-features",
        ),
        (
            &["--graph", "gen:rmat:scale=20,ef=1", "--features", "1024"],
            "V x F",
        ),
    ];
    for (extra, message) in cases {
        let out = run("vm", extra);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(message), "{extra:?}: {stderr}");
    }
    // Layer options on a graph program that is not a GCN, and on a program with no graph.
    for name in ["graph/pr_vm_pull", "vecadd"] {
        let elf = program(name);
        let out = wsim(&["run", "--features", "16", elf.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
    }
    // A layer whose CTA outgrows a core's local memory (16 KiB on tiny) stops with the
    // program's status and says why.
    let out = run(
        "gnnadvisor",
        &[
            "--graph",
            "gen:rmat:scale=5,ef=4",
            "--features",
            "1024",
            "--input-features",
            "8",
            "--input-nnz",
            "2",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("does not fit a core: GNNAdvisor's CTA needs more local memory"),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("exit status") && l.ends_with("102")),
        "{stdout}"
    );
    // EGHW needs the unit in its EGHW mode.
    let elf = program("gcn/gcn_eghw");
    let out = wsim(&[
        "run",
        "-c",
        root().join("configs/tiny.toml").to_str().unwrap(),
        "--set",
        "weaver.mode=weaver",
        elf.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
