//! Properties of the memory hierarchy on random request streams: ticking only at the
//! cycles it asks for is exactly the same as ticking every cycle (the statistics of each
//! phase too), every accepted request completes once, the phases' statistics add up to
//! the whole run's, and runs are deterministic.

mod mem_common;

use mem_common::{accept, deliver_hits, req, FixedDram};
use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::Value;
use wsim_sim::mem::cache::{CacheConfig, Replacement, WritePolicy};
use wsim_sim::mem::hierarchy::{
    AccessKind, Completion, DramModel, HierarchyStats, MemAccess, MemConfig, MemoryHierarchy,
    Reject, ROOM,
};

const CLUSTERS: u32 = 2;
const CORES: u32 = 2;

/// Small caches, narrow links and a DRAM queue of 3, so that every stall path is taken.
fn config(l2: bool, l3: bool, write_back: bool, lru: bool) -> MemConfig {
    let d = MemConfig::default();
    let small = |size, hit_latency| CacheConfig {
        size,
        ways: 2,
        banks: 2,
        mshrs: 3,
        mshr_merge: 1,
        hit_latency,
        replacement: if lru {
            Replacement::Lru
        } else {
            Replacement::Fifo
        },
        write_policy: if write_back {
            WritePolicy::WriteBack
        } else {
            WritePolicy::WriteThrough
        },
        ..d.l1d.clone()
    };
    let mut c = MemConfig {
        l1i: small(256, 1),
        l1d: small(256, 2),
        l2: small(512, 5),
        l2_enabled: l2,
        l3: small(1024, 7),
        l3_enabled: l3,
        ..d
    };
    for link in [&mut c.l1_link, &mut c.l2_link, &mut c.l3_link] {
        link.bandwidth = 1;
        link.queue = 2;
    }
    c.validate("memory").unwrap();
    c
}

fn fixed(c: &MemConfig) -> MemoryHierarchy<FixedDram> {
    MemoryHierarchy::with_dram(c, CLUSTERS, CORES, FixedDram::new(9, 3))
}

/// The real DRAM model with a 2-deep queue per channel and a core clock twice DRAM's.
fn real(c: &MemConfig) -> MemoryHierarchy {
    let mut c = c.clone();
    c.dram.queue_depth = 2;
    c.dram.clock_ratio = 2;
    c.validate("memory").unwrap();
    MemoryHierarchy::new(&c, CLUSTERS, CORES)
}

/// Requests issue in order, each no earlier than its cycle; a refused one is retried the
/// next cycle and holds back the rest. `every_cycle` ticks each cycle; otherwise only at
/// the cycles the hierarchy or the stream asks for. Returns the completions with the
/// cycle each was delivered, the statistics (by PC too) and the number of ticks.
fn drive<D: DramModel>(
    mut m: MemoryHierarchy<D>,
    stream: &[(u64, MemAccess)],
    every_cycle: bool,
) -> (Vec<(Completion, u64)>, HierarchyStats, ByPc, u64) {
    let (mut done, mut hits) = (Vec::new(), Vec::new());
    let mut delivered = Vec::new();
    let (mut next, mut now, mut visits) = (0, 0, 0);
    loop {
        visits += 1;
        m.tick(now, &mut done);
        deliver_hits(now, &mut hits, &mut done);
        delivered.extend(done.drain(..).map(|d| (d, now)));
        let mut refused = false;
        while next < stream.len() && stream[next].0 <= now {
            if accept(&mut m, now, stream[next].1, &mut hits).is_err() {
                refused = true;
                break;
            }
            next += 1;
        }
        let wanted = if refused {
            Some(now + 1)
        } else {
            stream.get(next).map(|s| s.0.max(now + 1))
        };
        let hit = hits.iter().map(|&(at, _)| at).min();
        let following = [wanted, hit, m.next_event(now)].into_iter().flatten().min();
        match following {
            Some(_) if every_cycle => now += 1,
            Some(t) => now = t,
            None => break,
        }
        assert!(now < 1_000_000, "no progress");
    }
    assert_eq!(m.pending(), 0);
    (delivered, m.stats(), m.stats_by_pc(), visits)
}

type ByPc = BTreeMap<u32, HierarchyStats>;

fn stream() -> impl Strategy<Value = Vec<(u64, MemAccess)>> {
    let kind = prop_oneof![
        4 => Just(AccessKind::Read),
        3 => Just(AccessKind::Write),
        2 => Just(AccessKind::Fetch),
        1 => Just(AccessKind::Atomic),
    ];
    prop::collection::vec(
        (
            0u64..6,
            0..CLUSTERS * CORES,
            0u32..24,
            0u32..64,
            kind,
            0u32..3,
        ),
        1..120,
    )
    .prop_map(|reqs| {
        let mut t = 0;
        reqs.into_iter()
            .enumerate()
            .map(|(id, (gap, core, line, offset, kind, phase))| {
                // Gaps of 0 put several requests in one cycle.
                t += gap.saturating_sub(2);
                // Phases 0, 7 and 2: numbers, not indices.
                let phase = [0, 7, 2][phase as usize];
                let r = req(id as u64, core, line * 64 + offset, kind);
                (t, MemAccess { phase, ..r })
            })
            .collect()
    })
}

/// Counting by PC (the profile's) changes no completion and no statistic, the phases'
/// included; each PC that made requests has its counters, and they add up to the whole
/// run's as the phases' do.
fn check_by_pc<D: DramModel>(
    make: impl Fn() -> MemoryHierarchy<D>,
    s: &[(u64, MemAccess)],
) -> Result<(), TestCaseError> {
    let (plain, plain_stats, none, _) = drive(make(), s, false);
    prop_assert!(none.is_empty(), "nothing by PC unless asked");
    let mut m = make();
    m.count_by_pc();
    let (done, stats, by_pc, _) = drive(m, s, false);
    prop_assert_eq!(&plain, &done);
    prop_assert_eq!(&plain_stats, &stats);
    let pcs: std::collections::BTreeSet<u32> = s.iter().map(|r| r.1.pc).collect();
    prop_assert!(by_pc.keys().copied().eq(pcs));
    check_sums(&by_pc, &stats)
}

/// Both ways of driving the hierarchy, compared; also every request completes once, on its
/// core, and is delivered without delay.
fn check_skipping<D: DramModel>(
    make: impl Fn() -> MemoryHierarchy<D>,
    s: &[(u64, MemAccess)],
) -> Result<(), TestCaseError> {
    let (every, every_stats, _, cycles) = drive(make(), s, true);
    let (skip, skip_stats, _, visits) = drive(make(), s, false);
    prop_assert_eq!(&every, &skip);
    prop_assert_eq!(&every_stats, &skip_stats);
    let mut phases: Vec<u32> = s.iter().map(|r| r.1.phase).collect();
    phases.sort_unstable();
    phases.dedup();
    prop_assert!(every_stats.phases.keys().copied().eq(phases));
    check_sums(&every_stats.phases, &every_stats)?;
    prop_assert!(visits <= cycles);
    // The requests' completions, without the words that a refused credit has come.
    let requests: Vec<_> = every.iter().filter(|d| d.0.id != ROOM).copied().collect();
    let mut ids: Vec<u64> = requests.iter().map(|d| d.0.id).collect();
    ids.sort_unstable();
    prop_assert_eq!(ids, (0..s.len() as u64).collect::<Vec<_>>());
    for &(d, delivered) in &requests {
        prop_assert!(d.at >= s[d.id as usize].0);
        prop_assert_eq!(d.core, s[d.id as usize].1.core);
        // Delivered at the cycle it completed, or the next one if it completed when
        // accepted (after that cycle's tick).
        prop_assert!(delivered == d.at || delivered == d.at + 1);
    }
    Ok(())
}

/// Adds the counters of `v` into `sum`, field by field (`max_queue`: the largest).
fn add(sum: &mut Value, v: &Value, key: &str) {
    match (sum, v) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, x) in b {
                add(a.get_mut(k).expect("phases have the same fields"), x, k);
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for (a, b) in a.iter_mut().zip(b) {
                add(a, b, key);
            }
        }
        (Value::Number(a), Value::Number(b)) => {
            let (a64, b64) = (a.as_u64().unwrap(), b.as_u64().unwrap());
            let n = if key == "max_queue" {
                a64.max(b64)
            } else {
                a64 + b64
            };
            *a = n.into();
        }
        (Value::Null, Value::Null) => {}
        (a, b) => panic!("{key}: {a} and {b} differ in shape"),
    }
}

/// The phases' (or the PCs') counters add up to the whole run's, except the DRAM's
/// `ticked_cycles` and `refreshes`, which belong to no request, and the backlog's peak and
/// what is left of it (whole run only).
fn check_sums(parts: &ByPc, stats: &HierarchyStats) -> Result<(), TestCaseError> {
    let mut phases = parts.values().map(|p| serde_json::to_value(p).unwrap());
    let mut sum = phases.next().expect("a phase made requests");
    for p in phases {
        add(&mut sum, &p, "");
    }
    let mut total = serde_json::to_value(stats).unwrap();
    for key in ["ticked_cycles", "refreshes"] {
        prop_assert_eq!(&sum["dram"][key], &Value::from(0));
        total["dram"][key] = 0.into();
    }
    for key in ["dram_backlog_peak", "dram_unfinished"] {
        prop_assert_eq!(&sum[key], &Value::from(0));
        total[key] = 0.into();
    }
    prop_assert_eq!(sum, total);
    Ok(())
}

/// Drive the hierarchy as the cores do: each core sends its own requests in order, several
/// a cycle; one refused for want of an MSHR or a credit waits for a completion for it (of
/// its request, or `ROOM`), after any other refusal it tries again the next cycle. Fails if
/// a core is left waiting for a completion that never comes; returns the requests'
/// completions.
fn drive_as_cores<D: DramModel>(
    mut m: MemoryHierarchy<D>,
    stream: &[(u64, MemAccess)],
    cores: u32,
) -> Result<Vec<Completion>, TestCaseError> {
    let mut queues = vec![std::collections::VecDeque::new(); cores as usize];
    for (at, r) in stream {
        queues[r.core as usize].push_back((*at, *r));
    }
    let mut waiting = vec![false; cores as usize];
    let (mut done, mut completed, mut hits) = (Vec::new(), Vec::new(), Vec::new());
    let mut now = 0;
    loop {
        m.tick(now, &mut done);
        deliver_hits(now, &mut hits, &mut done);
        for d in done.drain(..) {
            waiting[d.core as usize] = false;
            completed.extend((d.id != ROOM).then_some(d));
        }
        for (core, queue) in queues.iter_mut().enumerate() {
            while let Some(&(at, r)) = queue.front().filter(|_| !waiting[core]) {
                if at > now {
                    break;
                }
                match accept(&mut m, now, r, &mut hits) {
                    Ok(()) => drop(queue.pop_front()),
                    Err(Reject::MshrFull | Reject::NoCredit) => waiting[core] = true,
                    Err(_) => break,
                }
            }
        }
        let wanted = (queues.iter().zip(&waiting))
            .filter(|(_, &w)| !w)
            .filter_map(|(q, _)| q.front().map(|&(at, _)| at.max(now + 1)))
            .min();
        let hit = hits.iter().map(|&(at, _)| at).min();
        match [wanted, hit, m.next_event(now)].into_iter().flatten().min() {
            Some(t) => now = t,
            None => break,
        }
        prop_assert!(now < 1_000_000, "no progress");
    }
    let stuck: Vec<usize> = (0..queues.len()).filter(|&c| waiting[c]).collect();
    prop_assert!(
        stuck.is_empty(),
        "cores {:?} wait for a completion that never comes",
        stuck
    );
    prop_assert!(queues.iter().all(|q| q.is_empty()));
    Ok(completed)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Cores sharing their L1s (a socket of 1 to 4 cores, one or two sockets) all get
    /// every request through, however their misses fill the shared MSHRs.
    #[test]
    fn every_core_of_a_socket_gets_through(
        s in stream(),
        per_socket in 1u32..=4,
        two_sockets: bool,
        l2: bool,
        write_back: bool,
    ) {
        let cores = per_socket * (1 + u32::from(two_sockets));
        let c = config(l2, false, write_back, false);
        let m = MemoryHierarchy::with_dram(&c, 1, cores, FixedDram::new(9, 3))
            .with_sockets(per_socket);
        let s: Vec<_> = s
            .into_iter()
            .map(|(at, r)| (at, MemAccess { core: r.core % cores, ..r }))
            .collect();
        let done = drive_as_cores(m, &s, cores)?;
        let mut ids: Vec<u64> = done.iter().map(|d| d.id).collect();
        ids.sort_unstable();
        prop_assert_eq!(ids, (0..s.len() as u64).collect::<Vec<_>>());
    }

    #[test]
    fn skipping_cycles_changes_nothing(
        s in stream(),
        l2: bool,
        l3: bool,
        write_back: bool,
        lru: bool,
    ) {
        let c = config(l2, l3, write_back, lru);
        check_skipping(|| fixed(&c), &s)?;
    }

    #[test]
    fn counting_by_pc_changes_nothing_and_adds_up(
        s in stream(),
        l2: bool,
        l3: bool,
        write_back: bool,
        real_dram: bool,
    ) {
        // Five instructions, each with requests in every phase.
        let s: Vec<_> = (s.into_iter().enumerate())
            .map(|(i, (at, r))| (at, MemAccess { pc: 0x8000_0000 + 4 * (i as u32 % 5), ..r }))
            .collect();
        if real_dram {
            check_by_pc(|| real(&config(l2, false, write_back, false)), &s)?;
        } else {
            check_by_pc(|| fixed(&config(l2, l3, write_back, false)), &s)?;
        }
    }

    #[test]
    fn skipping_cycles_changes_nothing_over_real_dram(
        s in stream(),
        l2: bool,
        write_back: bool,
    ) {
        let c = config(l2, false, write_back, false);
        check_skipping(|| real(&c), &s)?;
    }
}

#[test]
fn runs_are_deterministic() {
    let c = config(true, true, true, false);
    let s: Vec<_> = (0..400u32)
        .map(|i| {
            let kind = [AccessKind::Read, AccessKind::Write, AccessKind::Atomic][i as usize % 3];
            (
                u64::from(i / 3),
                req(i.into(), i % 4, (i * 7919) % 4096, kind),
            )
        })
        .collect();
    let first = drive(real(&c), &s, false);
    let second = drive(real(&c), &s, false);
    assert_eq!(first.0, second.0);
    assert_eq!(first.1, second.1);
    let stats = &first.1;
    assert!(stats
        .l1d
        .iter()
        .any(|l| l.mshr_full_stalls > 0 || l.bank_stalls > 0));
    assert!(stats.l1d.iter().any(|l| l.writebacks > 0));
}
