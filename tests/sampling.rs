//! Sampled simulation (`wsim run --sample`, docs/ARCHITECTURE.md "Sampled simulation"):
//! the architectural results are the functional run's, the statistics the same at every
//! thread count, an estimate that measured every unit is exact in its own terms (an
//! interval of zero width), and the estimate lies near the detailed cycles.

mod common;

use common::{program, root, wsim_ok};
use serde_json::Value;

/// PageRank pull under VM, 8 iterations (two kernels a iteration), on a small R-MAT graph
/// on the dissertation's machine, with `options`: the JSON report.
fn pagerank(options: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let config = root().join("configs/sparseweaver.toml");
    let elf = program("graph/pr_vm_pull");
    let mut args = vec![
        "run",
        "--config",
        config.to_str().unwrap(),
        "--graph",
        "gen:rmat:scale=9,ef=8",
        "--symmetrize",
        "--iterations",
        "8",
        "--json",
        json.to_str().unwrap(),
    ];
    args.extend_from_slice(options);
    args.push(elf.to_str().unwrap());
    wsim_ok(&args);
    let mut report: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    report.as_object_mut().unwrap().remove("host");
    report
}

fn verified(r: &Value) -> bool {
    r["graph"]["result"] == "verified"
}

#[test]
fn a_sampled_run_ends_as_the_functional_one_and_says_how_it_was_sampled() {
    let functional = pagerank(&["--functional"]);
    let sampled = pagerank(&["--sample", "--sample-every", "3"]);
    assert!(verified(&functional) && verified(&sampled));
    for key in [
        "exit_code",
        "total",
        "phases",
        "launches",
        "iterations",
        "cores",
    ] {
        assert_eq!(functional[key], sampled[key], "{key}");
    }
    assert_eq!(sampled["mode"], "sampled");
    let s = &sampled["sampling"];
    let launches = sampled["launches"].as_array().unwrap().len() as u64;
    // A unit ends with each launch; the last runs from the last launch to the exit.
    assert_eq!(s["units"].as_u64().unwrap(), launches + 1);
    let (units, measured) = (
        s["units"].as_u64().unwrap(),
        s["sampled_units"].as_u64().unwrap(),
    );
    assert!(measured < units, "{measured} of {units} units measured");
    assert_eq!(s["every"], 3);
    let cycles = s["cycles"].as_f64().unwrap();
    assert_eq!(sampled["cycles"].as_f64().unwrap(), cycles.round());
    let (low, high) = (
        s["cycles_low"].as_f64().unwrap(),
        s["cycles_high"].as_f64().unwrap(),
    );
    assert!(low < cycles && cycles < high, "{low} < {cycles} < {high}");
    let strata = s["strata"].as_array().unwrap();
    let sum: f64 = strata.iter().map(|h| h["cycles"].as_f64().unwrap()).sum();
    assert!(
        (sum - cycles).abs() < 1e-6 * cycles,
        "the strata add up to the estimate"
    );
    assert_eq!(
        s["instructions"], sampled["total"]["instructions"],
        "the units hold every warp instruction"
    );
}

#[test]
fn sampled_statistics_are_the_same_at_every_thread_count() {
    let one = pagerank(&["--sample", "--sample-every", "3"]);
    let three = pagerank(&["--sample", "--sample-every", "3", "--sample-threads", "3"]);
    assert_eq!(one, three);
}

#[test]
fn measuring_every_unit_leaves_no_interval() {
    let all = pagerank(&["--sample", "--sample-every", "1"]);
    let s = &all["sampling"];
    assert_eq!(s["units"], s["sampled_units"]);
    assert_eq!(s["degrees_of_freedom"], 0);
    assert_eq!(s["cycles_low"], s["cycles_high"]);
}

/// Measured (scripts/validate-sampling.py, docs/ARCHITECTURE.md): estimates 0.8%-3.4%
/// above the detailed cycles, from each sample's warm-up starting cold; 5% is the bound
/// until the caches are warmed functionally.
#[test]
fn the_estimate_lies_near_the_detailed_cycles() {
    let detailed = pagerank(&[]);
    let sampled = pagerank(&["--sample", "--sample-every", "3"]);
    let (d, s) = (
        detailed["cycles"].as_f64().unwrap(),
        sampled["sampling"]["cycles"].as_f64().unwrap(),
    );
    assert!((s - d).abs() / d < 0.05, "estimate {s}, detailed {d}");
}

#[test]
fn caches_warmed_functionally_leave_the_architectural_results_alone() {
    let functional = pagerank(&["--functional"]);
    let warmed = pagerank(&["--sample", "--sample-every", "3", "--sample-warm-caches"]);
    assert!(verified(&warmed));
    for key in ["exit_code", "total", "launches"] {
        assert_eq!(functional[key], warmed[key], "{key}");
    }
    assert_eq!(warmed["sampling"]["warm_caches"], true);
    let plain = pagerank(&["--sample", "--sample-every", "3"]);
    assert_eq!(plain["sampling"]["warm_caches"], false);
}
