//! The Weaver unit end to end: C kernels that sum edge weights per vertex through
//! WEAVER_REG / DEC_ID / DEC_LOC (and in EGHW mode), checked against sums computed here
//! on the host; the unit's statistics; its errors; the table-latency sweep.

mod common;

use common::{error_of, preset};
use wsim_sim::config::StartCores;
use wsim_sim::error::ErrorKind;
use wsim_sim::stats::{FsmState, SlotReason};
use wsim_sim::{Config, Machine, RunSummary};

/// A directed graph in CSR form with weights.
struct Graph {
    offsets: Vec<u32>,
    weights: Vec<u32>,
}

/// A random graph with skewed degrees (many small, a few large, some zero), from a seed.
fn random_graph(vertices: u32, seed: u64) -> Graph {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        // xorshift64*: test data only.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32
    };
    let mut offsets = vec![0];
    let mut weights = Vec::new();
    for _ in 0..vertices {
        let r = next();
        let degree = match r % 100 {
            0..=9 => 0,
            10..=94 => r / 100 % 9,
            _ => 20 + r / 100 % 150,
        };
        for _ in 0..degree {
            weights.push(1 + next() % 1000);
        }
        offsets.push(weights.len() as u32);
    }
    Graph { offsets, weights }
}

fn host_sums(g: &Graph) -> Vec<u32> {
    g.offsets
        .windows(2)
        .map(|w| g.weights[w[0] as usize..w[1] as usize].iter().sum())
        .collect()
}

/// Run `name` with `g` written into its graph arrays; the summary and `vertex_sum`.
fn run_edge_sum(name: &str, config: &Config, g: &Graph) -> (RunSummary, Vec<u32>) {
    let vertices = g.offsets.len() as u32 - 1;
    let (offsets, weights) = (g.offsets.clone(), g.weights.clone());
    let prepare = move |m: &mut Machine| {
        let mut write = |sym: &str, words: &[u32]| {
            let at = m.symbol(sym).unwrap_or_else(|| panic!("{sym}")).addr;
            m.write_words(at, words);
        };
        write("graph_vertices", &[vertices]);
        write("graph_offsets", &offsets);
        write("graph_weights", &weights);
        // EGHW hands out neighbours too: make them recognisable.
        let targets: Vec<u32> = (0..weights.len() as u32).map(|e| e % vertices).collect();
        write("graph_targets", &targets);
    };
    let (m, result) = common::run_prepared(name, config, Box::new(prepare));
    let summary = result.unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(summary.exit_code, 0, "{name} exit status");
    let addr = m.symbol("vertex_sum").unwrap().addr;
    let sums = (0..vertices).map(|v| m.read_u32(addr + 4 * v)).collect();
    (summary, sums)
}

fn config(base: &str, overrides: &[String]) -> Config {
    preset(base).with_overrides(overrides).unwrap()
}

fn check(name: &str, base: &str, warps: u32, extra: &[&str], vertices: u32, seed: u64) {
    let mut overrides = vec![format!("gpu.warps_per_core={warps}")];
    overrides.extend(extra.iter().map(|s| s.to_string()));
    let c = config(base, &overrides);
    let g = random_graph(vertices, seed);
    let (summary, sums) = run_edge_sum(name, &c, &g);
    let expected = host_sums(&g);
    let bad: Vec<_> = (0..expected.len())
        .filter(|&v| sums[v] != expected[v])
        .take(5)
        .map(|v| (v, expected[v], sums[v]))
        .collect();
    assert!(
        bad.is_empty(),
        "{name} on {base}, {warps} warps, {extra:?}: first mismatches (vertex, expected, got) {bad:?}"
    );
    let w = summary.total().weaver;
    assert!(summary.weaver, "the program uses the unit: auto enables it");
    assert_eq!(
        w.lanes_filled,
        g.weights.len() as u64,
        "every edge handed out once"
    );
    let registered = vertices as u64;
    assert_eq!(w.entries_registered, registered);
    assert!(w.rounds >= registered.div_ceil(u64::from(c.weaver.entries) * c.cores() as u64));
    // Every decode is a batch or a -1, and each warp of each core ends each round with -1.
    assert_eq!(w.decode_requests, w.batches + w.empty_answers);
    assert_eq!(w.state_visits.get(FsmState::S5), w.batches);
}

#[test]
fn edge_sums_on_tiny() {
    for warps in [1, 8, 32] {
        check("weaver_edge_sum", "tiny", warps, &[], 700, u64::from(warps));
    }
}

#[test]
fn edge_sums_in_many_rounds() {
    // A small table: each core's range takes several registration rounds.
    check("weaver_edge_sum", "tiny", 4, &["weaver.entries=16"], 300, 7);
}

#[test]
fn edge_sums_on_sparseweaver() {
    for warps in [1, 8, 32] {
        check(
            "weaver_edge_sum",
            "sparseweaver",
            warps,
            &[],
            3000,
            100 + u64::from(warps),
        );
    }
}

/// eghw_edge_sum requires the unit's EGHW mode (WSIM_REQUIRES_EGHW): it runs so without
/// being told.
#[test]
fn eghw_edge_sums_match_the_host_in_the_mode_the_program_requires() {
    for (base, vertices) in [("tiny", 700), ("sparseweaver", 3000)] {
        for warps in [1, 8, 32] {
            check(
                "eghw_edge_sum",
                base,
                warps,
                &[],
                vertices,
                200 + u64::from(warps),
            );
        }
    }
}

/// A program that requires EGHW gets it unless the configuration says otherwise, which is
/// an error naming the setting; one that does not keeps the configured mode.
#[test]
fn the_program_chooses_eghw_unless_the_configuration_states_the_mode() {
    let g = random_graph(200, 9);
    let (s, sums) = run_edge_sum("eghw_edge_sum", &config("tiny", &[]), &g);
    assert!(s.eghw_by_program && s.total().weaver.memory_requests > 0);
    assert_eq!(sums, host_sums(&g));
    let stated = config("tiny", &["weaver.mode=eghw".into()]);
    let (s, _) = run_edge_sum("eghw_edge_sum", &stated, &g);
    assert!(!s.eghw_by_program, "the configuration chose it");
    let (s, _) = run_edge_sum("weaver_edge_sum", &config("tiny", &[]), &g);
    assert!(!s.eghw_by_program && s.total().weaver.memory_requests == 0);
    for (set, says) in [
        ("weaver.mode=weaver", "sets weaver.mode = \"weaver\""),
        ("weaver.enabled=off", "sets weaver.enabled = \"off\""),
    ] {
        let e = common::load_error("eghw_edge_sum", &config("tiny", &[set.into()]));
        assert!(matches!(e.kind, ErrorKind::Setup(_)), "{e}");
        let text = e.to_string();
        assert!(
            text.contains("requires the Weaver unit in its EGHW mode") && text.contains(says),
            "{text}"
        );
    }
    // In a configuration file too, the mode is stated.
    let file = Config::from_toml("[weaver]\nmode = \"weaver\"\n", "mine.toml").unwrap();
    common::load_error("eghw_edge_sum", &file);
}

#[test]
fn the_unit_has_its_statistics_and_stall_reason() {
    let g = random_graph(3000, 5);
    let c = config("sparseweaver", &[]);
    let (s, _) = run_edge_sum("weaver_edge_sum", &c, &g);
    let t = s.total();
    assert!(
        t.slots.get(SlotReason::Weaver) > 0,
        "warps waited on the unit"
    );
    assert_eq!(
        t.slots.total(),
        s.cycles * s.slices as u64 * s.cores.len() as u64
    );
    let w = &t.weaver;
    assert!(w.table_reads > 0 && w.table_writes > 0);
    assert!(w.state_cycles.get(FsmState::S1) > 0 && w.state_cycles.get(FsmState::S4) > 0);
    assert_eq!(w.memory_requests, 0, "only EGHW reads memory itself");
    assert_eq!(
        t.local_accesses, 0,
        "the kernel uses no local memory; the unit's tables are not local accesses"
    );
    assert_eq!(
        s.l1d_size,
        c.memory.l1d.size / 2,
        "the tables take half the L1D"
    );
    let (e, _) = run_edge_sum("eghw_edge_sum", &config("sparseweaver", &[]), &g);
    let t = e.total();
    let w = &t.weaver;
    assert_eq!(
        t.slots.total(),
        e.cycles * e.slices as u64 * e.cores.len() as u64
    );
    assert!(w.memory_requests > 0);
    // The warps store their vertex ids (one access per registration) and read each
    // (neighbour, weight) pair (two loads per batch); the unit reads the ids of the
    // entries it loads and writes each batch into the buffer.
    assert!(
        t.local_accesses > w.registrations + 3 * w.batches,
        "{} local accesses, {} registrations, {} batches",
        t.local_accesses,
        w.registrations,
        w.batches
    );
    assert_eq!(
        w.state_cycles.get(FsmState::S6),
        0,
        "EGHW prepares no batch ahead"
    );
}

/// One EGHW decode (programs/ubench_eghw.c; every line it reads is an L1 hit): a decode
/// that loads an entry reads its id in shared memory, then its offsets, then its edges
/// (dependent reads through the L1D); one that continues the current entry reads only the
/// edges. The unit reads word by word, each read after the last (two offsets, then the
/// neighbour and the weight: 4 reads, or 2), line by line with `weaver.eghw_reads =
/// "line-serial"` (the offsets share a line, the neighbour and the weight do not: 3, or
/// 2), or each stage's reads together with `"pipelined"` (2 round trips, or 1). Checked
/// at two L1 hit latencies, so that a model overlapping the reads, or ignoring one of
/// them, fails.
#[test]
fn eghw_decode_waits_for_offsets_then_edges() {
    for (reads, reads_new, reads_same) in [
        ("word-serial", 4, 2),
        ("line-serial", 3, 2),
        ("pipelined", 2, 1),
    ] {
        // Per hit latency: the cycles beyond the reads and table accesses (the pipeline's
        // own: the decode's dispatch and writeback, the warp's fetches and buffer loads).
        let mut beyond = Vec::new();
        for hit in [4u64, 200] {
            let mut c = config(
                "sparseweaver",
                &[
                    "weaver.mode=eghw".into(),
                    format!("weaver.eghw_reads={reads}"),
                    format!("memory.l1d.hit_latency={hit}"),
                ],
            );
            c.run.start = StartCores::FirstCore;
            let table = u64::from(c.weaver.table_latency);
            let (m, s) = common::run("ubench_eghw", &c);
            let s = s.unwrap();
            let addr = |sym: &str| m.symbol(sym).unwrap().addr;
            let console = String::from_utf8_lossy(m.console()).into_owned();
            assert_eq!(s.exit_code, 0, "{console}");
            let r: Vec<u64> = (0..6)
                .map(|i| u64::from(m.read_u32(addr("ubench_results") + 4 * i)))
                .collect();
            let (load, new_entry, same_entry) = (r[0], r[1], r[2]);
            let what = format!("{reads}, hit {hit}: {r:?}\n{console}");
            // A load: dispatch, the LSU, the L1 hit, writeback (and a cycle or two).
            let core = &c.core;
            let pipe = u64::from(core.dispatch_latency + core.latency.lsu + core.writeback_latency);
            assert!(load >= hit + pipe && load < hit + pipe + 10, "{what}");
            // The answer waits for every read, the buffer write and the warp's buffer read.
            let least = |reads: u64, tables: u64| reads * hit + tables * table;
            assert!(new_entry >= least(reads_new, 2), "{what}");
            assert!(same_entry >= least(reads_same, 1), "{what}");
            beyond.push((
                new_entry - least(reads_new, 2),
                same_entry - least(reads_same, 1),
                what.clone(),
            ));
            // The difference is the id read and the offsets' reads (a cycle or two each to
            // go through the LSU queue).
            let offsets = least(reads_new - reads_same, 1);
            assert!(
                (new_entry - same_entry).abs_diff(offsets) <= 3 * (reads_new - reads_same),
                "{what}"
            );
            // Local accesses, exactly: 2 registrations (ids), 3 buffer writes and 2 id
            // reads by the unit (the round's first decode and the new entry), and the
            // warp's loads of the neighbour and the weight after each of the 3 decodes.
            assert_eq!(s.total().local_accesses, 2 + 3 + 2 + 3 * 2, "{what}");
            assert_eq!(s.total().local_bank_conflict_cycles, 0, "one lane");
        }
        // What is not the reads does not depend on their latency: every read is waited for
        // once, one after the other (a model overlapping them, or ignoring one, moves this
        // by a multiple of the 196-cycle difference). A cycle or two per read through the
        // LSU queue.
        let (low, high) = (&beyond[0], &beyond[1]);
        assert!(
            low.0.abs_diff(high.0) <= 3 * reads_new,
            "{}\n{}",
            low.2,
            high.2
        );
        assert!(
            low.1.abs_diff(high.1) <= 3 * reads_same,
            "{}\n{}",
            low.2,
            high.2
        );
    }
}

/// The dissertation's Figure 4.15 sweep (table access 10 to 160 cycles); prints the cycles.
#[test]
fn the_pipeline_hides_the_table_latency() {
    let g = random_graph(3000, 9);
    let latencies = [10, 20, 40, 80, 160];
    let cycles: Vec<u64> = latencies
        .iter()
        .map(|lat| {
            let c = config("sparseweaver", &[format!("weaver.table_latency={lat}")]);
            let (s, _) = run_edge_sum("weaver_edge_sum", &c, &g);
            assert_eq!(
                s.total().weaver.state_cycles.get(FsmState::S1),
                (lat + 1) * s.total().weaver.rounds,
                "S1 waits one table access per round"
            );
            s.cycles
        })
        .collect();
    println!("table latency {latencies:?}: cycles {cycles:?}");
    // The dissertation's finding: the pipeline hides the table latency.
    let (lo, hi) = (cycles.iter().min().unwrap(), cycles.iter().max().unwrap());
    assert!(hi - lo < lo / 10, "{cycles:?}");
}

#[test]
fn errors_name_core_warp_and_pc() {
    for (name, overrides, text, pc) in [
        (
            "errors/weaver_overflow",
            &["weaver.entries=2"][..],
            "ST overflow",
            0x8000_0014,
        ),
        (
            "errors/weaver_dec_loc",
            &[],
            "without a preceding",
            0x8000_0004,
        ),
        ("errors/weaver_in_flight", &[], "in flight", 0x8000_0014),
    ] {
        let e = error_of(name, overrides);
        assert!(matches!(e.kind, ErrorKind::Program(_)), "{e}");
        assert!(e.to_string().contains(text), "{name}: {e}");
        let site = e.site.as_ref().expect("a site");
        assert_eq!((site.core, site.warp, site.pc), (0, 0, pc), "{name}: {e}");
        assert!(site.instr.starts_with("weaver."), "{}", site.instr);
    }
    let e = error_of("errors/weaver_dec_loc", &["weaver.enabled=off"]);
    assert!(e.to_string().contains("no Weaver unit"), "{e}");
}
