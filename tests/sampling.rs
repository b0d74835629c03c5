//! Sampled simulation (`wsim run --sample`, docs/ARCHITECTURE.md "Sampled simulation"):
//! the architectural results are the functional run's, the statistics the same at every
//! thread count, an estimate that measured every unit is exact in its own terms (an
//! interval of zero width), and the estimate lies near the detailed cycles.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{program, root, wsim, wsim_ok};
use serde_json::Value;

/// PageRank pull under VM, 8 iterations (two kernels a iteration), on a small R-MAT graph
/// on the dissertation's machine, with `options`: the JSON report. Sampled, it is sampled
/// however short (`--sample-exact-fallback=false`): the tests here are of the estimator,
/// and so short a run would otherwise be simulated whole (the fallback's own test).
fn pagerank(options: &[&str]) -> Value {
    let graph = ["gen:rmat:scale=9,ef=8", "--symmetrize", "--iterations", "8"];
    let mut options = options.to_vec();
    if options.contains(&"--sample") {
        options.push("--sample-exact-fallback=false");
    }
    report("graph/pr_vm_pull", &graph, &options)
}

/// `elf` on the dissertation's machine with `graph` (the `--graph` option's value and the
/// graph options after it) and `options`: the JSON report.
fn report(elf: &str, graph: &[&str], options: &[&str]) -> Value {
    report_and_terminal(elf, graph, options).0
}

/// The same run's JSON report and its terminal report.
fn report_and_terminal(elf: &str, graph: &[&str], options: &[&str]) -> (Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let config = root().join("configs/sparseweaver.toml");
    let elf = program(elf);
    let mut args = vec!["run", "--config", config.to_str().unwrap(), "--graph"];
    args.extend_from_slice(graph);
    args.extend_from_slice(&["--json", json.to_str().unwrap()]);
    args.extend_from_slice(options);
    args.push(elf.to_str().unwrap());
    let out = wsim_ok(&args);
    let mut report: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    report.as_object_mut().unwrap().remove("host");
    (report, String::from_utf8_lossy(&out.stdout).into_owned())
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

/// The cycles each unit took in a detailed run, from its launch records: a unit runs from
/// the end of the launch before it to the end of its last launch (the last unit to the
/// run's end).
fn unit_cycles(detailed: &Value, unit: &Value) -> u64 {
    let launches = detailed["launches"].as_array().unwrap();
    let end = |n: u64| match n {
        0 => 0,
        n => {
            let l = &launches[n as usize - 1];
            l["start_cycle"].as_u64().unwrap() + l["cycles"].as_u64().unwrap()
        }
    };
    let (from, to) = (
        unit["launches_from"].as_u64().unwrap(),
        unit["launches_to"].as_u64().unwrap(),
    );
    let to = if to > from {
        end(to)
    } else {
        detailed["cycles"].as_u64().unwrap()
    };
    to - end(from)
}

/// Measured units in a row are one detailed simulation: when every unit is measured, that
/// is the detailed run itself, unit by unit.
#[test]
fn measuring_every_unit_is_the_detailed_run() {
    let detailed = pagerank(&[]);
    let all = pagerank(&["--sample", "--sample-every", "1"]);
    let s = &all["sampling"];
    assert_eq!(s["units"], s["sampled_units"]);
    assert_eq!(s["degrees_of_freedom"], 0);
    assert_eq!(s["cycles_low"], s["cycles_high"]);
    assert_eq!(all["cycles"], detailed["cycles"]);
    assert_eq!(
        s["detailed_instructions"],
        detailed["total"]["instructions"]
    );
    for unit in s["measured"].as_array().unwrap() {
        assert!(unit["whole_launches"].as_bool().unwrap());
        assert_eq!(
            unit["cycles"].as_u64().unwrap(),
            unit_cycles(&detailed, unit),
            "{unit}"
        );
    }
}

/// A kernel's first launch is a stratum of its own, measured: PageRank's first gather ran
/// 12% slower than its others, and a stratum of them all came out 4% high.
#[test]
fn a_kernels_first_launch_is_measured_apart() {
    let sampled = pagerank(&["--sample", "--sample-every", "3"]);
    let strata = sampled["sampling"]["strata"].as_array().unwrap();
    for kernel in ["vm_kernel", "vertex_kernel"] {
        let first = (strata.iter())
            .find(|h| h["name"] == format!("{kernel} (first launch)"))
            .unwrap_or_else(|| panic!("no first-launch stratum for {kernel}: {strata:?}"));
        assert_eq!(first["units"], 1);
        assert_eq!(first["sampled_units"], 1);
    }
}

/// A launch of a head and a tail alone (PageRank's vertex update, 17k warp instructions, at
/// units of 10k) is measured whole or not at all, and its two units are one of its
/// stratum's: the kernel's first launch `vertex_kernel (first launch)`, the others
/// `vertex_kernel (short launch)`, never a head or a tail stratum of their own (a tail's
/// drain took most of its time, and a stratum of tails of every size was up to 105% high:
/// docs/ARCHITECTURE.md, "Sampled simulation", item 22). Within a budget a launch is kept
/// whole too, and measured every unit the estimate is the detailed run.
#[test]
fn a_launch_of_a_head_and_a_tail_is_measured_whole() {
    let period = ["--sample", "--sample-period", "10000"];
    let detailed = pagerank(&[]);
    let every = pagerank(&[&period[..], &["--sample-every", "1"]].concat());
    assert_eq!(every["cycles"], detailed["cycles"]);
    let launches = detailed["launches"].as_array().unwrap();
    let updates = (launches.iter())
        .filter(|l| l["kernel"] == "vertex_kernel")
        .count();
    for budget in [None, Some("0.2")] {
        let mut options = period.to_vec();
        options.extend(budget.map(|b| ["--sample-budget", b]).iter().flatten());
        let r = pagerank(&options);
        assert!(verified(&r));
        let s = &r["sampling"];
        let strata = s["strata"].as_array().unwrap();
        let stratum = |name: &str| strata.iter().find(|h| h["name"] == name);
        let first = stratum("vertex_kernel (first launch)").expect("the first launch");
        assert_eq!(
            (&first["units"], &first["sampled_units"]),
            (&1.into(), &1.into())
        );
        let short = stratum("vertex_kernel (short launch)").expect("the later launches");
        assert_eq!(
            short["units"],
            updates as u64 - 1,
            "one unit a launch: {short}"
        );
        assert!(short["sampled_units"].as_u64() >= Some(1), "{short}");
        for h in strata {
            let name = h["name"].as_str().unwrap();
            assert!(!name.starts_with("vertex_kernel (launch"), "{name}");
        }
        // Each measured short launch's head and tail, one after the other.
        let measured: Vec<(u64, u64)> = (s["measured"].as_array().unwrap().iter())
            .filter(|m| {
                m["stratum"]
                    .as_str()
                    .unwrap()
                    .starts_with("vertex_kernel (")
            })
            .map(|m| {
                (
                    m["unit"].as_u64().unwrap(),
                    m["launches_from"].as_u64().unwrap(),
                )
            })
            .collect();
        assert!(
            measured.len() >= 4 && measured.len() % 2 == 0,
            "{budget:?}: {measured:?}"
        );
        for pair in measured.chunks(2) {
            assert_eq!(
                (pair[0].0 + 1, pair[0].1),
                (pair[1].0, pair[1].1),
                "{budget:?}: {pair:?}"
            );
        }
        // The vector kernel's longer launches keep their parts.
        assert!(
            stratum("vm_kernel (first launch head)").is_some(),
            "{strata:?}"
        );
        assert!(stratum("vm_kernel (launch head)").is_some(), "{strata:?}");
    }
}

/// With a period, units end inside launches too; measured all, they are again the
/// detailed run, and the architectural results stay the functional run's.
#[test]
fn units_inside_launches_end_at_their_instruction_counts() {
    let detailed = pagerank(&[]);
    let functional = pagerank(&["--functional"]);
    let all = pagerank(&["--sample", "--sample-every", "1", "--sample-period", "3000"]);
    assert!(verified(&all));
    for key in ["exit_code", "total", "launches"] {
        assert_eq!(functional[key], all[key], "{key}");
    }
    let s = &all["sampling"];
    assert_eq!(s["period"], 3000);
    let launches = all["launches"].as_array().unwrap().len() as u64;
    assert!(s["units"].as_u64().unwrap() > launches + 1, "{s}");
    let strata = s["strata"].as_array().unwrap();
    // A body the model does not time (every unit measured, the run is exact) is estimated
    // by post-strata, `vm_kernel (launch body, 2^K warps)`; its first `RAMP` units after
    // the head are its ramp.
    for part in ["launch head)", "launch ramp", "launch body", "launch tail"] {
        let name = format!("vm_kernel ({part}");
        assert!(
            (strata.iter()).any(|h| h["name"].as_str().unwrap().starts_with(&name)),
            "{name}: {strata:?}"
        );
    }
    assert_eq!(all["cycles"], detailed["cycles"]);
    // A mark inside a launch counts from the launch's start: detail turns `wsim_spawn`'s
    // wait loop more often than the functional rounds, and counted from the run's start
    // each later head ended that much earlier (the road BFS's last heads took no cycles).
    // Each iteration's launches do the same work, so their heads take the same time.
    for kernel in ["vm_kernel", "vertex_kernel"] {
        let heads: Vec<u64> = (s["measured"].as_array().unwrap().iter())
            .filter(|m| m["stratum"] == format!("{kernel} (launch head)"))
            .map(|m| m["cycles"].as_u64().unwrap())
            .collect();
        let (least, most) = (heads.iter().min().unwrap(), heads.iter().max().unwrap());
        assert!(
            heads.len() >= 6 && *least > 0 && most - least <= most / 20,
            "{kernel}: {heads:?}"
        );
    }
    let sampled = pagerank(&["--sample", "--sample-every", "4", "--sample-period", "3000"]);
    assert!(sampled["sampling"]["sampled_units"].as_u64() < sampled["sampling"]["units"].as_u64());
}

/// A launch body the cores' progress model does not time is estimated by the octaves of
/// the warps its units' work is spread over (`post_strata`), and the plan's one unit in
/// `every` can leave a drain's octave the only one measured: so the first unit of each
/// octave is measured too (`octave_first`; PageRank's first gather drains from 128 warps
/// through several octaves). Untimed, each such unit is the first measured of its
/// post-stratum (its own octave), which it names. Where the model times the launch, such
/// a unit calibrates nothing, though one of them ran with every core at work (a full unit).
#[test]
fn each_octave_of_a_body_has_its_first_unit_measured() {
    let period = ["--sample", "--sample-period", "2000"];
    for progress in ["--sample-progress=false", "--sample-progress=true"] {
        let r = pagerank(&[&period[..], &[progress]].concat());
        assert!(verified(&r));
        let measured = r["sampling"]["measured"].as_array().unwrap();
        let octave_firsts: Vec<&Value> = (measured.iter())
            .filter(|m| m["octave_first"] == true)
            .collect();
        assert!(octave_firsts.len() >= 2, "{progress}: {measured:?}");
        for m in &octave_firsts {
            assert!(m.get("calibrates").is_none(), "{m}");
        }
        if progress.ends_with("false") {
            let mut seen = BTreeSet::new();
            for m in measured {
                let stratum = m["stratum"].as_str().unwrap();
                let first = seen.insert(stratum);
                if m["octave_first"] == true {
                    let body = ["(launch ramp, 2^", "(launch body, 2^", "(launch tail, 2^"];
                    assert!(first && body.iter().any(|b| stratum.contains(b)), "{m}");
                }
            }
        } else {
            // A full unit's weight is its instructions (to rounding).
            let full = (octave_firsts.iter()).any(|m| {
                let (weight, instructions) = (m["weight"].as_f64(), m["instructions"].as_f64());
                (weight.unwrap() - instructions.unwrap()).abs() <= 1e-9 * instructions.unwrap()
            });
            assert!(full, "a full unit among them: {octave_firsts:?}");
        }
    }
}

/// A kernel whose launches differ: BFS push under EM on the HW stand-in, from the hub. Its
/// second level (launch 3) updates most vertices, at 1.85 cycles a warp instruction in
/// full detail against 0.57 for the first and the third; pooled by kernel, the units
/// inside launches measured were the first level's and the estimate was 47% low. The
/// first body unit of each launch joins its kernel's clusters by its features, and a
/// launch outside its kernel's first cluster has its body and tail as strata of their own,
/// measured from it and timed apart by the cores' progress model.
#[test]
fn a_kernels_launches_unlike_its_first_are_strata_of_their_own() {
    let graph = ["gen:table43:graph=HW,scale=0.001", "--source-hub"];
    let period = ["--sample", "--sample-period", "20000"];
    let sampled = report(
        "graph/bfs_em_push",
        &graph,
        &[&period[..], &["--sample-exact-fallback=false"]].concat(),
    );
    assert!(verified(&sampled));
    let measured = sampled["sampling"]["measured"].as_array().unwrap();
    let apart: Vec<&Value> = (measured.iter())
        .filter(|m| {
            let stratum = m["stratum"].as_str().unwrap();
            stratum.starts_with("em_kernel (launch ") && stratum.ends_with(", cluster of launch 3)")
        })
        .collect();
    assert!(!apart.is_empty(), "{measured:?}");
    assert!(apart.iter().all(|m| m["launches_from"] == 3), "{apart:?}");
    let detailed = report("graph/bfs_em_push", &graph, &[]);
    let (estimate, cycles) = (
        sampled["cycles"].as_f64().unwrap(),
        detailed["cycles"].as_f64().unwrap(),
    );
    assert!(
        (estimate / cycles - 1.0).abs() < 0.15,
        "{estimate} against {cycles}"
    );
    // A search on the RN stand-in: its levels' bodies drift with the frontier, about 0.04
    // a level, and a launch within the diameter of its kernel's last one stays in its
    // cluster, so the drift (0.25 every ten levels or so) starts none.
    let road = ["gen:table43:graph=RN,scale=0.01", "--source-hub"];
    let budget = ["--sample-budget", "0.1", "--sample-exact-fallback=false"];
    let r = report(
        "graph/bfs_em_pull",
        &road,
        &[&period[..], &budget[..]].concat(),
    );
    let names: Vec<&str> = (r["sampling"]["strata"].as_array().unwrap().iter())
        .map(|s| s["name"].as_str().unwrap())
        .filter(|name| {
            name.starts_with("em_kernel (launch body") || name.starts_with("em_kernel (launch ramp")
        })
        .collect();
    assert!(!names.is_empty(), "{names:?}");
    assert!(
        names.iter().all(|n| !n.contains("cluster of launch")),
        "{names:?}"
    );
}

/// Units inside launches on the dissertation's machine (sockets of three cores served in
/// core order): each launch's units are timed by the cores' progress through it
/// (sampler/src/progress.rs). A stratum's timed units are their kernel's calibration (its
/// measured full units' cycles over their weights) times their weight and the progress
/// ratio it reports, and its others (the detailed stretch from the run's start) their
/// cycles; an untimed stratum is its measured units' cycles (the warm-up check's
/// correction on them) over their instructions times its instructions. With
/// `--sample-progress=false`, or round robin (the cores share a socket alike, as the
/// copies have them), nothing is weighed or scaled.
#[test]
fn launch_bodies_are_scaled_by_the_cores_progress_under_core_order() {
    let period = ["--sample", "--sample-every", "4", "--sample-period", "3000"];
    let scaled = pagerank(&period);
    let s = &scaled["sampling"];
    assert_eq!(s["progress"], true);
    let launches = s["launch_progress"].as_array().unwrap();
    assert!(!launches.is_empty(), "{s}");
    for l in launches {
        let r = l["ratio"].as_f64().unwrap();
        assert!(r.is_finite() && r > 0.5 && r < 3.0, "{l}");
    }
    let timed: Vec<u64> = launches
        .iter()
        .map(|l| l["launch"].as_u64().unwrap())
        .collect();
    let unscaled = pagerank(&[&period[..], &["--sample-progress=false"]].concat());
    assert!(unscaled["sampling"].get("launch_progress").is_none());
    let (a, b) = (
        s["strata"].as_array().unwrap(),
        &unscaled["sampling"]["strata"],
    );
    // The stretch from the run's start (the detailed run itself) is not corrected, and
    // not timed but in a launch the model times.
    let exact_of = |measured: &[Value]| {
        (measured.iter().enumerate())
            .take_while(|(k, m)| m["unit"].as_u64() == Some(*k as u64))
            .count() as u64
    };
    let measured = s["measured"].as_array().unwrap();
    let exact = exact_of(measured);
    let unscaled_measured = unscaled["sampling"]["measured"].as_array().unwrap();
    let unscaled_exact = exact_of(unscaled_measured);
    let kernel = |stratum: &Value| {
        stratum
            .as_str()
            .unwrap()
            .split(" (")
            .next()
            .unwrap()
            .to_string()
    };
    // Unscaled, the strata are the same but for the launch bodies and tails, which the
    // model does not time now: those are estimated by post-strata, the octaves of the warps
    // their units' work is spread over (`post_strata`), each with its own measured units.
    let names: Vec<&Value> = a.iter().map(|a| &a["name"]).collect();
    let mut split = 0;
    for b in b.as_array().unwrap() {
        for key in ["progress_ratio", "weight", "calibration"] {
            assert!(b.get(key).is_none(), "{b}");
        }
        let name = b["name"].as_str().unwrap();
        // A body the model does not time scaled is split unscaled too.
        let whole = match name.split_once(", 2^") {
            Some((body, warps)) => {
                split += 1;
                assert!(
                    ["(launch body", "(launch ramp", "(launch tail"]
                        .iter()
                        .any(|part| body.ends_with(part))
                        && warps.ends_with(" warps)"),
                    "{b}"
                );
                format!("{body})")
            }
            None => name.to_string(),
        };
        assert!(
            names.contains(&&Value::from(whole)) || names.contains(&&b["name"]),
            "{b}: {names:?}"
        );
        let check = b["check_ratio"].as_f64().unwrap_or(1.0);
        let (mut cycles, mut instructions) = (0.0, 0.0);
        for m in unscaled_measured
            .iter()
            .filter(|m| m["stratum"] == b["name"])
        {
            let unit = m["unit"].as_u64().unwrap();
            let exact = unit < unscaled_exact;
            cycles += m["cycles"].as_f64().unwrap() * if exact { 1.0 } else { check };
            instructions += m["instructions"].as_f64().unwrap();
        }
        let expected = match b["units"] == b["sampled_units"] {
            true => cycles,
            false => cycles / instructions * b["instructions"].as_f64().unwrap(),
        };
        let cb = b["cycles"].as_f64().unwrap();
        assert!((cb - expected).abs() <= 1e-9 * cb, "{b}: {expected}");
    }
    assert!(split > 0, "{}", unscaled["sampling"]);
    let (mut bodies, mut own_ramps) = (0, 0);
    for a in a {
        let of_it = || measured.iter().filter(|m| m["stratum"] == a["name"]);
        let expected = match a["progress_ratio"].as_f64() {
            Some(r) => {
                bodies += 1;
                let name = a["name"].as_str().unwrap();
                assert!(
                    ["(launch ramp)", "(launch body)", "(launch tail)"]
                        .iter()
                        .any(|part| name.ends_with(part)),
                    "{a}"
                );
                // The calibration: the kernel's measured full units' cycles over weights, a
                // ramp's its own ramp units' where it has some.
                let ramp = |stratum: &Value| stratum.as_str().unwrap().contains("(launch ramp");
                let calibration_of = |ramps: bool| {
                    let (mut cycles, mut weights) = (0.0, 0.0);
                    for m in measured.iter().filter(|m| m["calibrates"] == true) {
                        if kernel(&m["stratum"]) == kernel(&a["name"])
                            && ramp(&m["stratum"]) == ramps
                        {
                            cycles += m["cycles"].as_f64().unwrap();
                            weights += m["weight"].as_f64().unwrap();
                        }
                    }
                    (weights > 0.0).then(|| cycles / weights)
                };
                let expected = match ramp(&a["name"]) {
                    true => {
                        own_ramps += usize::from(calibration_of(true).is_some());
                        calibration_of(true).or(calibration_of(false))
                    }
                    false => calibration_of(false),
                };
                let calibration = a["calibration"].as_f64().unwrap();
                assert!(
                    (calibration - expected.unwrap()).abs() <= 1e-9 * calibration,
                    "{a}"
                );
                let exact_part: f64 = (of_it())
                    .filter(|m| m["unit"].as_u64().unwrap() < exact)
                    .filter(|m| !timed.contains(&m["launches_from"].as_u64().unwrap()))
                    .map(|m| m["cycles"].as_f64().unwrap())
                    .sum();
                exact_part + calibration * a["weight"].as_f64().unwrap() * r
            }
            None => {
                // The model weighs and scales only the strata of the launches it times.
                assert!(
                    a.get("weight").is_none() && a.get("calibration").is_none(),
                    "{a}"
                );
                let check = a["check_ratio"].as_f64().unwrap_or(1.0);
                let (mut cycles, mut instructions) = (0.0, 0.0);
                for m in of_it() {
                    let unit = m["unit"].as_u64().unwrap();
                    cycles +=
                        m["cycles"].as_f64().unwrap() * if unit < exact { 1.0 } else { check };
                    instructions += m["instructions"].as_f64().unwrap();
                }
                match a["units"] == a["sampled_units"] {
                    true => cycles,
                    false => cycles / instructions * a["instructions"].as_f64().unwrap(),
                }
            }
        };
        let ca = a["cycles"].as_f64().unwrap();
        assert!((ca - expected).abs() <= 1e-9 * ca, "{a}: {expected}");
    }
    assert!(bodies > 0);
    assert!(own_ramps > 0, "a ramp calibrated by its own units: {s}");
    assert_ne!(scaled["cycles"], unscaled["cycles"]);
    // The warm-up check does not correct the units the model times, so it does not
    // simulate them again; without the model it checks launch bodies too.
    let checked_bodies = |r: &Value, timed_only: bool| {
        let strata = r["sampling"]["strata"].as_array().unwrap();
        let timed_stratum = |name: &Value| {
            strata
                .iter()
                .any(|a| a["name"] == *name && a.get("progress_ratio").is_some())
        };
        (r["sampling"]["measured"].as_array().unwrap().iter())
            .filter(|m| m.get("check_cycles").is_some())
            .filter(|m| !timed_only || timed_stratum(&m["stratum"]))
            .filter(|m| {
                let stratum = m["stratum"].as_str().unwrap();
                stratum.contains("(launch body") || stratum.contains("(launch ramp")
            })
            .count()
    };
    assert_eq!(checked_bodies(&scaled, true), 0, "{s}");
    assert!(
        checked_bodies(&unscaled, false) > 0,
        "{}",
        unscaled["sampling"]
    );
    // A launch's head measured in one stretch with the tail before it, which the model
    // times, is the stretch's first unit to check: it takes the stretch's turn.
    let after_a_timed_tail = |k: usize| {
        k > 0
            && measured[k - 1]["unit"].as_u64().unwrap() + 1
                == measured[k]["unit"].as_u64().unwrap()
            && measured[k - 1]["stratum"]
                .as_str()
                .unwrap()
                .contains("(launch tail")
            && measured[k - 1]["weight"].is_number()
    };
    assert!(
        (0..measured.len())
            .filter(|&k| measured[k]["stratum"]
                .as_str()
                .unwrap()
                .ends_with("launch head)"))
            .any(|k| after_a_timed_tail(k) && measured[k].get("check_cycles").is_some()),
        "{s}"
    );
    // Each scaled kernel's sockets probed at its first measured body unit with 1 to all but
    // one of their cores at work, each socket with 1 to all of its cores at work and the
    // other sockets parked, then lone warps; at its first measured launch tails lone
    // warps alone. Those parked issued nothing, and the last `active` of each socket (of
    // one socket, alone) something; a lone warp is one core's of one socket.
    let socket = scaled["config"]["gpu"]["cores_per_socket"]
        .as_u64()
        .unwrap() as usize;
    let probes = s["probes"].as_array().unwrap();
    let cores_in_all = probes[0]["rates"].as_array().unwrap().len();
    let sockets = cores_in_all / socket;
    assert!(sockets > 1, "{cores_in_all} cores, {socket} a socket");
    // (active, alone, lone warp)
    let mut by_unit: BTreeMap<(&str, u64), Vec<(usize, bool, bool)>> = BTreeMap::new();
    for p in probes {
        let unit = (p["kernel"].as_str().unwrap(), p["unit"].as_u64().unwrap());
        let flag = |key: &str| p[key].as_bool().unwrap();
        let active = p["active"].as_u64().unwrap() as usize;
        (by_unit.entry(unit).or_default()).push((active, flag("alone"), flag("lone_warp")));
    }
    assert!(!by_unit.is_empty());
    // Up to eight lone warps a socket: one that runs out of work first (this small graph's)
    // leaves no probe.
    let mut cores: Vec<(usize, bool, bool)> = (1..socket).map(|a| (a, false, false)).collect();
    for _ in 0..sockets {
        cores.extend((1..=socket).map(|a| (a, true, false)));
    }
    let mut heads = BTreeSet::new();
    for (&(kernel, unit), actives) in &by_unit {
        let head = actives.first() != Some(&(1, true, true));
        assert!(!head || heads.insert(kernel), "{kernel}: two heads");
        // A probe whose cores ran out of work is left out: a head has at most these.
        let fewer = actives.iter().take_while(|p| !p.2).count();
        let (fewer, lone) = actives.split_at(fewer);
        let expected = if head { &cores[..] } else { &[] };
        assert!(
            fewer.iter().all(|p| expected.contains(p))
                && fewer.len() <= expected.len()
                && fewer.iter().filter(|p| !p.1).count()
                    == expected.iter().filter(|p| !p.1).count()
                && lone.iter().all(|&p| p == (1, true, true)),
            "{kernel} at {unit}: {actives:?}"
        );
    }
    assert!((by_unit.values()).all(|a| a.iter().filter(|p| p.2).count() <= 8 * sockets));
    let rates = |p: &serde_json::Value| -> Vec<f64> {
        (p["rates"].as_array().unwrap().iter())
            .map(|r| r.as_f64().unwrap())
            .collect()
    };
    for p in probes {
        let active = p["active"].as_u64().unwrap() as usize;
        let rates = rates(p);
        let at_work: Vec<usize> = (0..rates.len()).filter(|&c| rates[c] > 0.0).collect();
        match (
            p["lone_warp"].as_bool().unwrap(),
            p["alone"].as_bool().unwrap(),
        ) {
            (true, alone) => assert!(alone && at_work.len() == 1, "{p}"),
            (false, alone) => {
                for (c, r) in rates.iter().enumerate() {
                    let parked = c % socket < socket - active;
                    assert!(if parked { *r == 0.0 } else { *r >= 0.0 }, "{p}");
                }
                // Alone: every core at work is of one socket.
                let of_sockets: BTreeSet<usize> = at_work.iter().map(|c| c / socket).collect();
                assert!(!alone || of_sockets.len() == 1, "{p}");
            }
        }
        assert!(!at_work.is_empty(), "{p}");
    }
    // The terminal report has a line for each probe.
    let (config, elf) = (
        root().join("configs/sparseweaver.toml"),
        program("graph/pr_vm_pull"),
    );
    let mut args = vec!["run", "--config", config.to_str().unwrap()];
    args.extend_from_slice(&["--graph", "gen:rmat:scale=9,ef=8", "--symmetrize"]);
    args.extend_from_slice(&["--iterations", "8", "--sample-exact-fallback=false"]);
    args.extend_from_slice(&period);
    args.push(elf.to_str().unwrap());
    let text = String::from_utf8(wsim_ok(&args).stdout).unwrap();
    let lines = (text.lines()).filter(|l| l.trim_start().starts_with("probe "));
    assert_eq!(lines.count(), probes.len(), "{text}");
    let round_robin = pagerank(&[&period[..], &["--set", "gpu.arbiter=round-robin"]].concat());
    let s = &round_robin["sampling"];
    assert!(s.get("launch_progress").is_none(), "{s}");
    assert!(s.get("probes").is_none(), "{s}");
    let strata = s["strata"].as_array().unwrap();
    assert!(strata.iter().all(|h| h.get("progress_ratio").is_none()));
}

/// The terminal report says which part of the estimate the cores' progress model timed
/// (its strata's calibration times weight times ratio, over the estimate), since the
/// interval holds only that calibration's spread and the lone warps'.
#[test]
fn the_report_says_how_much_of_the_estimate_the_model_timed() {
    let graph = ["gen:rmat:scale=9,ef=8", "--symmetrize", "--iterations", "8"];
    let options = [
        "--sample",
        "--sample-exact-fallback=false",
        "--sample-every",
        "4",
        "--sample-period",
        "3000",
    ];
    let (report, stdout) = report_and_terminal("graph/pr_vm_pull", &graph, &options);
    let s = &report["sampling"];
    let timed: f64 = (s["strata"].as_array().unwrap().iter())
        .filter_map(|h| {
            let part = |key: &str| h[key].as_f64();
            Some(part("calibration")? * part("weight")? * part("progress_ratio")?)
        })
        .sum();
    assert!(timed > 0.0, "{s}");
    let launches = s["launch_progress"].as_array().unwrap().len();
    let line = format!(
        "{:.1}% of the estimate is {launches} launch(es) the cores' progress model timed",
        100.0 * timed / s["cycles"].as_f64().unwrap()
    );
    assert!(stdout.contains(&line), "{line}\n{stdout}");
}

/// Warps with work enough left get lone warps' probes (one warp of one socket at work,
/// the others parked, one copy per warp probed), which issue less than their core alone;
/// each launch timed with them carries each socket's mean rate (its launch tails' probes,
/// else its head's) and its ratio with each probe's in turn, whose spread the interval
/// holds, and its tail is weighed and scaled as well as its body (sampler/src/progress.rs).
#[test]
fn lone_warps_are_probed_and_time_the_launch_to_its_end() {
    let graph = [
        "gen:rmat:scale=14,ef=16,permute=1",
        "--symmetrize",
        "--iterations",
        "1",
    ];
    let options = [
        "--sample",
        "--sample-period",
        "20000",
        "--sample-exact-fallback=false",
    ];
    let r = report("graph/pr_vm_pull", &graph, &options);
    let s = &r["sampling"];
    let probes: Vec<&Value> = (s["probes"].as_array().unwrap().iter())
        .filter(|p| p["kernel"] == "vm_kernel")
        .collect();
    let rates = |p: &Value| -> Vec<f64> {
        (p["rates"].as_array().unwrap().iter())
            .map(|r| r.as_f64().unwrap())
            .collect()
    };
    let socket = r["config"]["gpu"]["cores_per_socket"].as_u64().unwrap() as usize;
    let core = (probes.iter())
        .find(|p| p["active"] == 1 && p["lone_warp"] == false)
        .map(|p| rates(p))
        .unwrap_or_else(|| panic!("{s}"));
    let head = probes.iter().find(|p| p["lone_warp"] == false).unwrap()["unit"].clone();
    // Each socket's lone warps: (at the head, at tails).
    let sockets = core.len() / socket;
    let mut lone = vec![(0, 0); sockets];
    for p in probes.iter().filter(|p| p["lone_warp"] == true) {
        let warp = rates(p);
        let [(c, w)] = (warp.iter().enumerate())
            .filter(|(_, &w)| w > 0.0)
            .collect::<Vec<_>>()[..]
        else {
            panic!("{p}")
        };
        // A warp alone issues less than its socket's last core alone at the head.
        assert!(*w < core[(c / socket + 1) * socket - 1], "{p}: {core:?}");
        match p["unit"] == head {
            true => lone[c / socket].0 += 1,
            false => lone[c / socket].1 += 1,
        }
    }
    assert!(lone.iter().any(|&(_, tail)| tail > 0), "{s}");
    let launches = s["launch_progress"].as_array().unwrap();
    let means: Vec<&Value> = (launches.iter())
        .filter_map(|l| l["lone_warp"].as_array())
        .flatten()
        .collect();
    assert_eq!(means.len(), sockets, "{s}");
    // Each set of lone warps taken in turn gives the launch a ratio, and the interval holds
    // their spread: the timed strata's calibration times weight times each ratio, a
    // prediction's variance s^2 (1 + 1/n) at t with n - 1 degrees of freedom.
    let probed = (lone.iter())
        .map(|&(head, tail)| if tail > 0 { tail } else { head })
        .max()
        .unwrap();
    let [launch] = &launches[..] else {
        panic!("{s}")
    };
    let ratios: Vec<f64> = (launch["lone_warp_ratios"].as_array().unwrap().iter())
        .map(|r| r.as_f64().unwrap())
        .collect();
    assert!(probed >= 2 && ratios.len() == probed, "{lone:?}: {s}");
    let part = |h: &Value| Some(h["calibration"].as_f64()? * h["weight"].as_f64()?);
    let timed: f64 = s["strata"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(part)
        .sum();
    let parts: Vec<f64> = ratios.iter().map(|r| timed * r).collect();
    let n = parts.len() as f64;
    let mean = parts.iter().sum::<f64>() / n;
    let s2 = parts.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / (n - 1.0);
    const T975: [f64; 15] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131,
    ];
    let expected = T975[parts.len() - 2] * (s2 * (1.0 + 1.0 / n)).sqrt();
    let lone_half_width = s["lone_warp_half_width"].as_f64().unwrap();
    // Within a millionth of it, or of a cycle where the lone warps barely move the launch
    // (their ratios then differ by rounding alone).
    assert!(
        expected > 0.0 && (lone_half_width - expected).abs() <= 1e-6 * expected.max(1.0),
        "{lone_half_width} against {expected}: {s}"
    );
    let half_width = (s["cycles_high"].as_f64().unwrap() - s["cycles_low"].as_f64().unwrap()) / 2.0;
    assert!(half_width >= lone_half_width, "{s}");
    let strata = s["strata"].as_array().unwrap();
    let tail = strata
        .iter()
        .find(|h| h["name"] == "vm_kernel (launch tail)")
        .unwrap();
    assert!(
        tail["progress_ratio"].as_f64().is_some() && tail["weight"].as_f64().is_some(),
        "{tail}"
    );
}

/// A run whose plan would simulate three quarters of its warp instructions in detail or
/// more (the short PageRank, 89%: each warm-up check re-simulates eight units) is simulated
/// whole from its start, once: its report is the detailed run's and says so. Without the fallback the
/// same run is sampled, and a run of more units than the sampler holds back for the
/// decision (the grid BFS's 95) is sampled as it comes.
#[test]
fn a_run_whose_plan_costs_most_of_it_is_simulated_whole() {
    let graph = ["gen:rmat:scale=9,ef=8", "--symmetrize", "--iterations", "8"];
    let detailed = report("graph/pr_vm_pull", &graph, &[]);
    let mut whole = report("graph/pr_vm_pull", &graph, &["--sample"]);
    assert!(verified(&whole));
    let s = whole.as_object_mut().unwrap().remove("sampling").unwrap();
    assert_eq!(
        whole, detailed,
        "a run simulated whole reports the detailed run: every statistic"
    );
    assert_eq!(s["whole_run"], true);
    assert_eq!(s["units"], s["sampled_units"]);
    assert_eq!(s["cycles_low"], s["cycles_high"]);
    assert!(
        s.get("check").is_none(),
        "a run from its start has no warm-up to check"
    );
    assert_eq!(s["cycles"].as_f64(), detailed["cycles"].as_f64());
    assert_eq!(
        s["detailed_instructions"], detailed["total"]["instructions"],
        "simulated once"
    );
    let sampled = pagerank(&["--sample"]);
    let s = &sampled["sampling"];
    assert_eq!(s["whole_run"], false);
    let share = s["detailed_instructions"].as_f64().unwrap() / s["instructions"].as_f64().unwrap();
    assert!(
        share >= wsim_sampler::WHOLE_AT,
        "the plan would have cost most of the run: {s}"
    );
    let grid = ["gen:grid:w=24,h=24"];
    let long = report("graph/bfs_vm_push", &grid, &["--sample"]);
    let s = &long["sampling"];
    assert!(s["units"].as_u64().unwrap() > wsim_sampler::HOLD as u64);
    assert_eq!(s["whole_run"], false);
    assert!(s["sampled_units"].as_u64() < s["units"].as_u64());
}

/// Measured (scripts/validate-sampling.py, docs/ARCHITECTURE.md): +0.23% here, and within
/// 0.3% on every job of the validation table but the road graph's BFS (+3.6%, its cold
/// caches); 1% is the bound on the mean error.
#[test]
fn the_estimate_lies_near_the_detailed_cycles() {
    let detailed = pagerank(&[]);
    let sampled = pagerank(&["--sample", "--sample-every", "3"]);
    let (d, s) = (
        detailed["cycles"].as_f64().unwrap(),
        sampled["sampling"]["cycles"].as_f64().unwrap(),
    );
    assert!((s - d).abs() / d < 0.01, "estimate {s}, detailed {d}");
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
    // On by default; `=false` turns it off.
    assert_eq!(pagerank(&["--sample"])["sampling"]["warm_caches"], true);
    let plain = pagerank(&[
        "--sample",
        "--sample-every",
        "3",
        "--sample-warm-caches=false",
    ]);
    assert_eq!(plain["sampling"]["warm_caches"], false);
}

/// The warm-up check (`--sample-check`) measures stretches again after a longer warm-up,
/// leaves the units measured after the run's warm-up as they were, and scales every
/// measured unit's cycles but those simulated from the run's start on by the ratio of the
/// checked units' two measurements: each stratum's estimate is the ratio estimator's from
/// the corrected cycles, within an interval.
#[test]
fn a_warmup_check_corrects_the_measured_units_by_its_ratio() {
    let options = ["--sample", "--sample-every", "3", "--sample-warm-caches"];
    let options = [&options[..], &["--sample-warmup", "0"]].concat();
    let plain = pagerank(&[&options[..], &["--sample-check", "0"]].concat());
    let checked = pagerank(&[&options[..], &["--sample-check", "4"]].concat());
    assert!(verified(&checked));
    let (p, c) = (&plain["sampling"], &checked["sampling"]);
    let cycles = |m: &Value| m["cycles"].as_u64().unwrap();
    let measured = |s: &Value| s["measured"].as_array().unwrap().clone();
    assert_eq!(
        measured(p).iter().map(cycles).collect::<Vec<_>>(),
        measured(c).iter().map(cycles).collect::<Vec<_>>(),
        "the checks leave the run's measurements alone"
    );
    let pairs: Vec<(u64, u64)> = (measured(c).iter())
        .filter_map(|m| Some((cycles(m), m.get("check_cycles")?.as_u64()?)))
        .collect();
    assert!(
        pairs.len() >= 2,
        "stretches after the first are checked: {pairs:?}"
    );
    assert_eq!(c["check"]["units"].as_u64().unwrap(), pairs.len() as u64);
    assert_eq!(c["check_warmup"], 4);
    let ratio = pairs.iter().map(|p| p.1).sum::<u64>() as f64
        / pairs.iter().map(|p| p.0).sum::<u64>() as f64;
    assert!((c["check"]["ratio"].as_f64().unwrap() - ratio).abs() < 1e-12);
    assert_eq!(c["check"]["applied"], true);
    // The stretch from the run's start is the detailed run itself: not corrected.
    let exact: u64 = (measured(p).iter().enumerate())
        .take_while(|(k, m)| m["unit"] == *k as u64)
        .map(|(_, m)| cycles(m))
        .sum();
    let estimate = |s: &Value| s["cycles"].as_f64().unwrap();
    // Each stratum's ratio estimate again, from the corrected units.
    let exact_units = (measured(p).iter().enumerate())
        .take_while(|(k, m)| m["unit"] == *k as u64)
        .count();
    let expected: f64 = (c["strata"].as_array().unwrap().iter())
        .map(|h| {
            let (mut x, mut y) = (0.0, 0.0);
            for m in measured(c).iter().filter(|m| m["stratum"] == h["name"]) {
                let exact = (m["unit"].as_u64().unwrap() as usize) < exact_units;
                x += m["instructions"].as_f64().unwrap();
                y += cycles(m) as f64 * if exact { 1.0 } else { ratio };
            }
            if h["units"] == h["sampled_units"] {
                y
            } else {
                y / x * h["instructions"].as_f64().unwrap()
            }
        })
        .sum();
    assert!(exact > 0 && expected != estimate(p));
    assert!(
        (estimate(c) - expected).abs() < 1e-6 * expected,
        "{} against {expected}",
        estimate(c)
    );
    let (low, high) = (c["cycles_low"].as_f64(), c["cycles_high"].as_f64());
    assert!(
        low < Some(estimate(c)) && Some(estimate(c)) < high,
        "a bounded interval about the estimate: {low:?} {high:?}"
    );
    assert!(
        c["detailed_instructions"].as_u64() > p["detailed_instructions"].as_u64(),
        "the checks are simulated in detail too"
    );
    assert!(p.get("check").is_none() && p["check_warmup"] == 0);
}

/// The clusters of `r`'s strata: per stratum of clustered launches, its kernel, its first
/// launch (as its name says) and its units.
fn clusters(r: &Value) -> Vec<(String, usize, u64)> {
    let strata = r["sampling"]["strata"].as_array().unwrap();
    (strata.iter())
        .filter_map(|h| {
            let name = h["name"].as_str().unwrap();
            let (_, first) = name.split_once("cluster of launch ")?;
            let first = first.trim_end_matches(')').parse().unwrap();
            let kernel = name.split(" (").next().unwrap().to_string();
            Some((kernel, first, h["units"].as_u64().unwrap()))
        })
        .collect()
}

/// BFS on a grid: each level launches its frontier's kernel and the vertex update, whose
/// basic-block vectors vary by under 0.02 from level to level (measured). A diameter above
/// that puts each kernel's later levels in one cluster named by its second launch; one
/// below it splits them; a cluster's first launch is of its own kernel; the clusters and
/// the estimate are the same at any number of threads.
#[test]
fn launches_cluster_by_their_features() {
    let grid = ["gen:grid:w=24,h=24"];
    let bfs = |options: &[&str]| report("graph/bfs_vm_push", &grid, options);
    let wide = bfs(&["--sample", "--sample-cluster", "0.1"]);
    assert!(verified(&wide));
    assert_eq!(wide["sampling"]["cluster"], 0.1);
    let launches = wide["launches"].as_array().unwrap();
    let kernel_of = |l: usize| launches[l]["kernel"].as_str().unwrap().to_string();
    let of = |kernel: &str| {
        (0..launches.len())
            .filter(|&l| kernel_of(l) == kernel)
            .collect::<Vec<_>>()
    };
    let found = clusters(&wide);
    for kernel in ["vm_kernel", "vertex_kernel"] {
        let ours: Vec<_> = found.iter().filter(|c| c.0 == kernel).collect();
        let all = of(kernel);
        assert!(all.len() > 10, "{kernel}: {} launches", all.len());
        assert_eq!(ours.len(), 1, "{kernel}: {found:?}");
        assert_eq!(ours[0].1, all[1], "{kernel}: named by its second launch");
        assert_eq!(
            ours[0].2,
            all.len() as u64 - 1,
            "{kernel}: every later launch"
        );
    }
    let narrow = bfs(&["--sample", "--sample-cluster", "0.0005"]);
    let split = clusters(&narrow);
    assert!(split.len() > found.len() + 2, "{split:?}");
    for (kernel, first, _) in &split {
        assert_eq!(
            &kernel_of(*first),
            kernel,
            "a cluster of {kernel} named by another's launch"
        );
    }
    let two = bfs(&[
        "--sample",
        "--sample-cluster",
        "0.0005",
        "--sample-threads",
        "2",
    ]);
    assert_eq!(narrow, two);
}

/// PageRank's iterations after the first are alike: by default one cluster per kernel;
/// with `--sample-cluster 0`, strata by octave of warp instructions, as before clusters.
#[test]
fn pagerank_iterations_are_one_cluster_per_kernel() {
    let sampled = pagerank(&["--sample", "--sample-every", "3"]);
    assert_eq!(sampled["sampling"]["cluster"], 0.25);
    let found = clusters(&sampled);
    let kernels: Vec<_> = found.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(kernels, ["vertex_kernel", "vm_kernel"], "{found:?}");
    assert!(found.iter().all(|c| c.2 == 7), "{found:?}");
    let octaves = pagerank(&["--sample", "--sample-every", "3", "--sample-cluster", "0"]);
    assert!(clusters(&octaves).is_empty());
    let strata = octaves["sampling"]["strata"].as_array().unwrap();
    assert!(strata.iter().any(|h| {
        let name = h["name"].as_str().unwrap();
        name.starts_with("vm_kernel (2^") && name.ends_with(" instructions)")
    }));
}

/// A diameter beyond the largest distance (3) or not a number is refused, naming it.
#[test]
fn a_bad_cluster_diameter_is_refused() {
    let elf = program("graph/pr_vm_pull");
    for bad in ["3.5", "wide"] {
        let out = wsim(&[
            "run",
            "--sample",
            "--sample-cluster",
            bad,
            elf.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("not a diameter from 0 to 3"), "{bad}: {err}");
    }
}

/// A budget of detail trims the plan at the run's end: to its share where each stratum's
/// first measured unit fits (the warm-up check first, then the strata's later units), and
/// to those first units where they do not, saying so. The run's architectural results are
/// the plan's own. Measured here: the plan 88% of the warp instructions, 40% kept at a
/// half (the check dropped, the estimate unchanged, 0.17% from the detailed cycles), 28%
/// at a tenth (not held).
#[test]
fn a_budget_trims_the_plan_to_its_share() {
    let detailed = pagerank(&[]);
    let plan = pagerank(&["--sample"]);
    assert!(plan["sampling"].get("budget").is_none());
    let share = |s: &Value| {
        s["detailed_instructions"].as_f64().unwrap() / s["instructions"].as_f64().unwrap()
    };
    let (half, terminal) = report_and_terminal(
        "graph/pr_vm_pull",
        &["gen:rmat:scale=9,ef=8", "--symmetrize", "--iterations", "8"],
        &[
            "--sample",
            "--sample-exact-fallback=false",
            "--sample-budget",
            "0.5",
        ],
    );
    assert!(verified(&half));
    assert_eq!(half["total"], plan["total"], "the same run, functionally");
    let (s, b) = (&half["sampling"], &half["sampling"]["budget"]);
    assert_eq!(b["share"], 0.5);
    assert_eq!(b["held"], true, "{b}");
    assert!(share(s) <= 0.5 && share(&plan["sampling"]) > 0.5, "{s}");
    let (planned, kept) = (b["planned"].as_f64().unwrap(), b["kept"].as_f64().unwrap());
    assert!(kept <= 0.5 * s["instructions"].as_f64().unwrap() && kept < planned);
    // The plan counts the functional run's warp instructions; detail spins `wsim_spawn`'s
    // wait loop otherwise (here 1% more).
    assert!(
        s["detailed_instructions"].as_f64().unwrap() <= 1.05 * kept,
        "{s}"
    );
    assert!(b["dropped_checks"].as_u64().unwrap() >= 1, "{b}");
    assert!(
        b.get("probe_length").is_none(),
        "no probes shortened: units end only at launches here"
    );
    assert!(
        terminal.contains("budget") && terminal.contains("held"),
        "{terminal}"
    );
    let d = detailed["cycles"].as_f64().unwrap();
    let e = s["cycles"].as_f64().unwrap();
    assert!((e - d).abs() / d < 0.01, "estimate {e}, detailed {d}");
    let tight = pagerank(&["--sample", "--sample-budget", "0.1"]);
    let (s, b) = (&tight["sampling"], &tight["sampling"]["budget"]);
    assert_eq!(b["held"], false, "{b}");
    assert!(share(s) > 0.1);
    let strata = s["strata"].as_array().unwrap();
    assert_eq!(
        s["sampled_units"].as_u64().unwrap(),
        strata.len() as u64,
        "each stratum's first unit, no more: {s}"
    );
    assert!(strata.iter().all(|h| h["sampled_units"] == 1), "{s}");
    assert_eq!(
        s["measured"].as_array().unwrap().len(),
        strata.len(),
        "the dropped units unmeasured"
    );
}

#[test]
fn a_bad_budget_is_refused() {
    let elf = program("graph/pr_vm_pull");
    for bad in ["0", "-1", "half", "inf"] {
        let out = wsim(&[
            "run",
            "--sample",
            &format!("--sample-budget={bad}"),
            elf.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(
            err.contains("not a share of the run above 0"),
            "{bad}: {err}"
        );
    }
}

/// The interleaving check's JSON, and its line of the terminal report.
fn interleaving(report: &Value, terminal: &str) -> (Value, String) {
    let line = (terminal.lines())
        .find(|l| l.trim_start().starts_with("interleaving"))
        .unwrap_or_else(|| panic!("no interleaving line in\n{terminal}"));
    (report["sampling"]["interleaving"].clone(), line.to_string())
}

#[test]
fn pagerank_does_the_same_work_in_the_other_order() {
    let graph = ["gen:rmat:scale=9,ef=8", "--symmetrize", "--iterations", "8"];
    let options = ["--sample", "--sample-exact-fallback=false"];
    let (r, terminal) = report_and_terminal("graph/pr_vm_pull", &graph, &options);
    let (check, line) = interleaving(&r, &terminal);
    // So short a run is checked to its end (sampler/src/order.rs, `FLOOR`).
    assert_eq!(check["reached"], true, "{check}");
    assert_eq!(check["launches"], r["launches"].as_array().unwrap().len());
    assert_eq!(check["instructions"], r["sampling"]["instructions"]);
    // In the launched kernels' code (not `main`'s or the runtime's), none of it moved.
    let kernels = check["warp_instructions"].as_u64().unwrap();
    assert!(0 < kernels && kernels < check["instructions"].as_u64().unwrap());
    assert_eq!(check["moved_warp_instructions"], 0, "{check}");
    assert_eq!(check["moved_thread_instructions"], 0, "{check}");
    assert!(line.contains("the same work PC by PC"), "{line}");
}

/// A search on a small R-MAT graph, sampled however short: its interleaving check.
fn search_check(elf: &str) -> (Value, String) {
    let graph = ["gen:rmat:scale=10,ef=8", "--symmetrize"];
    let options = ["--sample", "--sample-exact-fallback=false"];
    let (r, terminal) = report_and_terminal(elf, &graph, &options);
    assert!(verified(&r));
    interleaving(&r, &terminal)
}

#[test]
fn labels_lowered_by_atomics_make_the_work_follow_the_order() {
    // SSSP push under VM: which relaxation of a vertex wins decides the work after it.
    let (check, line) = search_check("graph/sssp_vm_push");
    assert!(
        check["moved_thread_instructions"].as_u64().unwrap() > 0,
        "{check}"
    );
    assert!(line.contains("the work follows the order"), "{line}");
    assert!(line.contains("a detailed run follows its own"), "{line}");
}

#[test]
fn a_frontier_filled_by_atomics_puts_the_work_in_other_warps() {
    // BFS push under VM: the same vertices each level, appended by atomics in the order
    // the warps run, so in other warps (their divergence differs, their lanes' work not).
    let (check, line) = search_check("graph/bfs_vm_push");
    assert_eq!(check["reached"], true, "{check}");
    assert!(
        check["moved_warp_instructions"].as_u64().unwrap() > 0,
        "{check}"
    );
    assert_eq!(check["moved_thread_instructions"], 0, "{check}");
    assert!(
        line.contains("places in the warps follow the order"),
        "{line}"
    );
}

#[test]
fn a_run_simulated_whole_has_no_interleaving_check() {
    let r = report(
        "graph/pr_vm_pull",
        &["gen:rmat:scale=7,ef=4"],
        &["--sample"],
    );
    assert_eq!(r["sampling"]["whole_run"], true);
    assert!(
        r["sampling"].get("interleaving").is_none(),
        "{}",
        r["sampling"]
    );
}
