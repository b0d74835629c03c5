//! Timing of the memory hierarchy over a fixed 36-cycle DRAM: latencies of each level,
//! MSHRs, banks, write policies, atomics, links and capacity.

mod mem_common;

use mem_common::{fixed, latency, req, run, DRAM_LATENCY as D};
use wsim_sim::mem::cache::{CacheConfig, WritePolicy};
use wsim_sim::mem::hierarchy::{AccessKind::*, MemConfig, Reject, ROOM};

/// Hit latencies and link latencies of a configuration, in cycles.
struct Lat {
    i1: u64,
    h1: u64,
    h2: u64,
    h3: u64,
    k1: u64,
    k2: u64,
    k3: u64,
}

fn lat(c: &MemConfig) -> Lat {
    Lat {
        i1: c.l1i.hit_latency.into(),
        h1: c.l1d.hit_latency.into(),
        h2: c.l2.hit_latency.into(),
        h3: c.l3.hit_latency.into(),
        k1: c.l1_link.latency.into(),
        k2: c.l2_link.latency.into(),
        k3: c.l3_link.latency.into(),
    }
}

#[test]
fn load_and_fetch_latency_of_l1_l2_dram() {
    let c = MemConfig::default();
    let l = lat(&c);
    let mut m = fixed(&c, 1, 2);
    // Cold: L1 tags, link, L2 tags, link, DRAM, and back up the links.
    let cold = latency(&mut m, 0, req(1, 0, 0x1000, Read));
    assert_eq!(cold, l.h1 + l.k1 + l.h2 + l.k2 + D + l.k2 + l.k1);
    assert_eq!(latency(&mut m, 200, req(2, 0, 0x1004, Read)), l.h1);
    // Core 1 shares the cluster's L2, which now holds the line.
    assert_eq!(
        latency(&mut m, 300, req(3, 1, 0x1008, Read)),
        l.h1 + l.k1 + l.h2 + l.k1
    );
    let cold = latency(&mut m, 400, req(4, 0, 0x2000, Fetch));
    assert_eq!(cold, l.i1 + l.k1 + l.h2 + l.k2 + D + l.k2 + l.k1);
    assert_eq!(latency(&mut m, 500, req(5, 0, 0x2010, Fetch)), l.i1);
    let s = m.stats();
    assert_eq!((s.l1d[0].hits, s.l1d[0].misses), (1, 1));
    assert_eq!((s.l1i[0].hits, s.l1i[0].misses), (1, 1));
    assert_eq!((s.l2[0].hits, s.l2[0].misses), (1, 2));
    assert_eq!(s.dram.reads, 2);
    // Nothing in flight: no more work, ever.
    assert_eq!(m.next_event(600), None);
}

#[test]
fn l3_hit_and_miss_latency() {
    let c = MemConfig {
        l3_enabled: true,
        ..MemConfig::default()
    };
    let l = lat(&c);
    let mut m = fixed(&c, 2, 1);
    let cold = latency(&mut m, 0, req(1, 0, 0x40, Read));
    let down = l.h1 + l.k1 + l.h2 + l.k2 + l.h3 + l.k3;
    assert_eq!(cold, down + D + l.k3 + l.k2 + l.k1);
    // Core 1 is in the other cluster: its L2 misses, the shared L3 hits.
    let l3_hit = latency(&mut m, 500, req(2, 1, 0x40, Read));
    assert_eq!(l3_hit, l.h1 + l.k1 + l.h2 + l.k2 + l.h3 + l.k2 + l.k1);
    let s = m.stats();
    assert_eq!(s.l2.len(), 2);
    assert_eq!(s.l3.as_ref().map(|l3| (l3.hits, l3.misses)), Some((1, 1)));
    assert_eq!(s.l3_link.map(|k| k.down.transfers), Some(1));
}

#[test]
fn without_l2_the_l1s_talk_to_dram() {
    let c = MemConfig {
        l2_enabled: false,
        ..MemConfig::default()
    };
    let l = lat(&c);
    let mut m = fixed(&c, 1, 1);
    assert_eq!(
        latency(&mut m, 0, req(1, 0, 0, Read)),
        l.h1 + l.k1 + D + l.k1
    );
    let s = m.stats();
    assert!(s.l2.is_empty() && s.l2_links.is_empty() && s.l3.is_none());
}

#[test]
fn mshr_merges_two_reads_of_one_line() {
    let c = MemConfig::default();
    let mut m = fixed(&c, 1, 1);
    let done = run(
        &mut m,
        0,
        &[(0, req(1, 0, 0x40, Read)), (1, req(2, 0, 0x48, Read))],
    );
    assert_eq!(done.len(), 2);
    // Both complete when the single fill arrives.
    assert_eq!(done[0].at, done[1].at);
    let s = m.stats();
    assert_eq!((s.l1d[0].misses, s.l1d[0].mshr_merges), (2, 1));
    assert_eq!(s.l2[0].accesses, 1, "one request below");
    assert_eq!(s.dram.reads, 1);
}

#[test]
fn mshr_full_and_merge_limit_reject() {
    let c = MemConfig {
        l1d: CacheConfig {
            mshrs: 2,
            mshr_merge: 1,
            ..MemConfig::default().l1d
        },
        ..MemConfig::default()
    };
    let mut m = fixed(&c, 1, 1);
    assert_eq!(m.access(0, req(1, 0, 0x000, Read)), Ok(None));
    assert_eq!(m.access(1, req(2, 0, 0x040, Read)), Ok(None));
    assert_eq!(m.access(2, req(3, 0, 0x080, Read)), Err(Reject::MshrFull));
    assert_eq!(m.access(3, req(4, 0, 0x000, Read)), Ok(None), "merges");
    assert_eq!(
        m.access(4, req(5, 0, 0x000, Read)),
        Err(Reject::MshrFull),
        "merge limit"
    );
    assert_eq!(m.stats().l1d[0].mshr_full_stalls, 2);
    // Retried every cycle, the refused miss is accepted once a fill frees an MSHR.
    let done = run(&mut m, 5, &[(5, req(6, 0, 0x080, Read))]);
    assert_eq!(done.len(), 4);
    let first_fill = done[0].at;
    assert_eq!(m.stats().l1d[0].mshr_full_stalls, 2 + (first_fill - 5));
}

/// A socket's cores share their L1's MSHRs: a core refused because the others' misses hold
/// them all has no request of its own whose completion would tell it one is free, so the
/// fill that frees one says so (a completion with the id `ROOM`), and only to it.
#[test]
fn a_shared_l1_tells_a_core_it_refused_when_an_mshr_frees() {
    for fetch in [false, true] {
        let one_mshr = |c: CacheConfig| CacheConfig {
            mshrs: 1,
            mshr_merge: 0,
            ..c
        };
        let d = MemConfig::default();
        let c = MemConfig {
            l1d: one_mshr(d.l1d.clone()),
            l1i: one_mshr(d.l1i.clone()),
            ..d
        };
        let kind = if fetch { Fetch } else { Read };
        let mut m = fixed(&c, 1, 3).with_sockets(3);
        assert_eq!(m.access(0, req(1, 0, 0x000, kind)), Ok(None));
        assert_eq!(m.access(1, req(2, 2, 0x040, kind)), Err(Reject::MshrFull));
        let mut done = Vec::new();
        let mut now = 1;
        while m.pending() > 0 {
            now += 1;
            m.tick(now, &mut done);
        }
        let told: Vec<_> = done.iter().map(|d| (d.core, d.id)).collect();
        assert_eq!(told, [(2, ROOM), (0, 1)], "fetch {fetch}");
        assert_eq!(done[0].at, done[1].at, "told when the fill frees the MSHR");
        // Told once: the next fill has no one to tell.
        assert_eq!(m.access(now, req(3, 2, 0x040, kind)), Ok(None));
        let rest = mem_common::run(&mut m, now, &[]);
        assert_eq!(
            rest.iter().map(|d| (d.core, d.id)).collect::<Vec<_>>(),
            [(2, 3)]
        );
    }
}

#[test]
fn second_access_to_a_busy_bank_is_rejected() {
    let c = MemConfig::default();
    assert_eq!(c.l1d.banks, 4);
    let mut m = fixed(&c, 1, 1);
    assert_eq!(m.access(0, req(1, 0, 0, Read)), Ok(None));
    assert_eq!(
        m.access(0, req(2, 0, 4 * 64, Read)),
        Err(Reject::BankConflict)
    );
    assert_eq!(m.access(0, req(3, 0, 64, Read)), Ok(None), "another bank");
    assert_eq!(m.access(1, req(2, 0, 4 * 64, Read)), Ok(None), "next cycle");
    assert_eq!(m.stats().l1d[0].bank_stalls, 1);
}

#[test]
fn write_through_stores_complete_on_acceptance_and_go_to_dram() {
    let c = MemConfig::default();
    let mut m = fixed(&c, 1, 1);
    let done = run(&mut m, 0, &[(3, req(1, 0, 0x100, Write))]);
    assert_eq!((done[0].id, done[0].at), (1, 3));
    // No write-allocate: the line is not in L1 afterwards.
    let l = lat(&c);
    let read = latency(&mut m, 100, req(2, 0, 0x100, Read));
    assert!(read > l.h1);
    // A store hit counts as a hit and still writes through.
    let done = run(&mut m, 300, &[(300, req(3, 0, 0x104, Write))]);
    assert_eq!(done[0].at, 300);
    let s = m.stats();
    assert_eq!((s.l1d[0].writes, s.l1d[0].hits, s.l1d[0].misses), (2, 1, 2));
    assert_eq!(s.l2[0].writes, 2);
    assert_eq!((s.dram.writes, s.dram.reads), (2, 1));
}

#[test]
fn write_back_evicts_dirty_lines_with_a_writeback() {
    // Two 2-way sets of 64-byte lines: 0x000, 0x080, 0x100 share set 0.
    let c = MemConfig {
        l1d: CacheConfig {
            size: 256,
            ways: 2,
            banks: 1,
            write_policy: WritePolicy::WriteBack,
            ..MemConfig::default().l1d
        },
        ..MemConfig::default()
    };
    let l = lat(&c);
    let mut m = fixed(&c, 1, 1);
    // Write-allocate: the store completes when its line arrives.
    let store = latency(&mut m, 0, req(1, 0, 0x000, Write));
    assert_eq!(store, l.h1 + l.k1 + l.h2 + l.k2 + D + l.k2 + l.k1);
    assert_eq!(
        latency(&mut m, 200, req(2, 0, 0x004, Write)),
        l.h1,
        "write hit"
    );
    latency(&mut m, 300, req(3, 0, 0x080, Read));
    assert_eq!(m.stats().l2[0].writes, 0, "nothing written back yet");
    latency(&mut m, 400, req(4, 0, 0x100, Read));
    let s = m.stats();
    assert_eq!((s.l1d[0].evictions, s.l1d[0].writebacks), (1, 1));
    assert_eq!(s.l2[0].writes, 1, "the dirty victim went below");
    latency(&mut m, 500, req(5, 0, 0x180, Read));
    assert_eq!(m.stats().l1d[0].writebacks, 1, "clean victims are dropped");
}

/// Two atomics at cycle 0 from two cores; returns their completion cycles.
fn two_atomics(c: &MemConfig, a: u32, b: u32) -> (u64, u64) {
    let mut m = fixed(c, 1, 2);
    let done = run(
        &mut m,
        0,
        &[(0, req(1, 0, a, Atomic)), (0, req(2, 1, b, Atomic))],
    );
    let at = |id| done.iter().find(|d| d.id == id).unwrap().at;
    (at(1), at(2))
}

#[test]
fn atomics_serialise_on_their_line_at_the_llc() {
    // LLC = L2: the second waits for the first's fill and its operation in the atomic
    // unit (`a` cycles), then hits and takes its own.
    let c = MemConfig::default();
    let l = lat(&c);
    let a = u64::from(c.atomics.alu_cycles);
    let (first, second) = two_atomics(&c, 0x40, 0x44);
    assert_eq!(first, l.k1 + l.h2 + l.k2 + D + l.k2 + a + l.k1);
    assert_eq!(second, first + l.h2 + a);
    // Different lines (different banks) do not wait for each other.
    let (first, second) = two_atomics(&c, 0x40, 0x80);
    assert_eq!(first, second);
    // LLC = L3: the L2 is bypassed.
    let c3 = MemConfig {
        l3_enabled: true,
        ..MemConfig::default()
    };
    let (first, second) = two_atomics(&c3, 0x40, 0x40);
    assert_eq!(
        first,
        l.k1 + l.k2 + l.h3 + l.k3 + D + l.k3 + a + l.k2 + l.k1
    );
    assert_eq!(second, first + l.h3 + a);
    // LLC = DRAM: each atomic reads and then writes DRAM; the second reads after the first.
    let c0 = MemConfig {
        l2_enabled: false,
        ..MemConfig::default()
    };
    let mut m = fixed(&c0, 1, 2);
    let done = run(
        &mut m,
        0,
        &[(0, req(1, 0, 8, Atomic)), (0, req(2, 1, 8, Atomic))],
    );
    assert_eq!(done[0].at, l.k1 + D + a + l.k1);
    assert_eq!(done[1].at, done[0].at + D + a);
    let s = m.stats();
    assert_eq!((s.dram.reads, s.dram.writes), (2, 2));
    assert_eq!(s.l1d[0].accesses, 0, "atomics bypass the L1");
}

#[test]
fn a_one_request_per_cycle_link_spreads_a_burst_over_n_cycles() {
    let mut c = MemConfig {
        l2_enabled: false,
        ..MemConfig::default()
    };
    c.l1_link.bandwidth = 1;
    let l = lat(&c);
    let n = 4;
    let mut m = fixed(&c, 1, n);
    let reqs: Vec<_> = (0..n)
        .map(|core| (0, req(core.into(), core, core * 0x40, Read)))
        .collect();
    let done = run(&mut m, 0, &reqs);
    let times: Vec<u64> = done.iter().map(|d| d.at).collect();
    let first = l.h1 + l.k1 + D + l.k1;
    assert_eq!(
        times,
        (0..u64::from(n)).map(|i| first + i).collect::<Vec<_>>()
    );
    let link = &m.stats().l1_links[0];
    assert_eq!(
        (
            link.down.transfers,
            link.down.queue_cycles,
            link.down.max_queue
        ),
        (4, 6, 3)
    );
    assert_eq!(link.up.queue_cycles, 0, "replies arrive already spread out");
}

#[test]
fn a_full_link_queue_rejects_requests_that_need_it() {
    let mut c = MemConfig {
        l2_enabled: false,
        ..MemConfig::default()
    };
    c.l1_link.bandwidth = 1;
    c.l1_link.queue = 1;
    let h1 = u64::from(c.l1d.hit_latency);
    let mut m = fixed(&c, 1, 4);
    for core in 0..3 {
        assert_eq!(
            m.access(0, req(core.into(), core, 0x40 * core, Write)),
            Ok(None)
        );
    }
    // The three stores leave the L1s at h1, h1 + 1 and h1 + 2: two wait at h1.
    assert_eq!(
        m.access(h1, req(9, 3, 0x400, Write)),
        Err(Reject::QueueFull)
    );
    assert_eq!(
        m.access(h1 + 1, req(9, 3, 0x400, Write)),
        Err(Reject::QueueFull)
    );
    assert_eq!(m.access(h1 + 2, req(9, 3, 0x400, Write)), Ok(None));
    assert_eq!(m.stats().l1d[3].queue_full_stalls, 2);
}

/// L1D misses of a first and a second sweep over `footprint` bytes, `stride` apart, and
/// the requests the L1D sent below.
fn sweep(footprint: u32, stride: u32) -> (u64, u64, u64) {
    let c = MemConfig::default();
    let mut m = fixed(&c, 1, 1);
    let pass: Vec<_> = (0..footprint / stride)
        .map(|i| (0, req(i.into(), 0, i * stride, Read)))
        .collect();
    let done = run(&mut m, 0, &pass);
    assert_eq!(done.len(), pass.len());
    let first = m.stats().l1d[0].clone();
    let start = done.iter().map(|d| d.at).max().unwrap() + 1;
    let pass: Vec<_> = pass.iter().map(|&(_, r)| (start, r)).collect();
    run(&mut m, start, &pass);
    let second = &m.stats().l1d[0];
    (
        first.misses,
        second.misses - first.misses,
        second.misses - second.mshr_merges,
    )
}

#[test]
fn capacity_and_line_size_show_in_the_miss_rate() {
    let size = MemConfig::default().l1d.size;
    for footprint in [size / 4, size / 2, size] {
        let (first, second, _) = sweep(footprint, 64);
        assert_eq!(first, u64::from(footprint / 64), "one miss per line");
        assert_eq!(second, 0, "{footprint} bytes fit");
    }
    // Past the capacity, FIFO replacement of a sequential sweep misses everywhere.
    let (_, second, _) = sweep(2 * size, 64);
    assert_eq!(second, u64::from(2 * size / 64));
    // Smaller strides share lines: only one request per line goes below.
    let (first, _, below) = sweep(size / 2, 16);
    assert!(first <= u64::from(size / 2 / 16));
    assert_eq!(
        below,
        2 * u64::from(size / 2 / 64) - u64::from(size / 2 / 64)
    );
}

#[test]
fn a_write_back_counts_in_the_phase_of_the_miss_that_evicts() {
    // One set of two write-back ways: the third line evicts the first, dirty.
    let c = MemConfig {
        l1d: CacheConfig {
            size: 128,
            ways: 2,
            banks: 1,
            write_policy: WritePolicy::WriteBack,
            ..MemConfig::default().l1d
        },
        ..MemConfig::default()
    };
    let mut m = fixed(&c, 1, 1);
    let in_phase = |phase, r| wsim_sim::mem::hierarchy::MemAccess { phase, ..r };
    run(
        &mut m,
        0,
        &[
            (0, in_phase(3, req(1, 0, 0x000, Write))),
            (0, in_phase(3, req(2, 0, 0x040, Write))),
        ],
    );
    run(&mut m, 500, &[(500, in_phase(9, req(3, 0, 0x080, Read)))]);
    let s = m.stats();
    assert_eq!(s.phases.keys().copied().collect::<Vec<_>>(), [3, 9]);
    let (writes, read) = (&s.phases[&3], &s.phases[&9]);
    let l1d = |p: &wsim_sim::mem::hierarchy::HierarchyStats| {
        let c = &p.l1d[0];
        (c.accesses, c.misses, c.evictions, c.writebacks)
    };
    assert_eq!(l1d(writes), (2, 2, 0, 0));
    assert_eq!(l1d(read), (1, 1, 1, 1));
    // Below: the writes' two fetches; the read's fetch and the write-back.
    assert_eq!(writes.l1_links[0].down.transfers, 2);
    assert_eq!(read.l1_links[0].down.transfers, 2);
    assert_eq!((writes.dram.reads, writes.dram.writes), (2, 0));
    assert_eq!((read.dram.reads, read.dram.writes), (1, 1));
    assert_eq!(s.dram.writes, 1);
}

/// An instruction fetch that hits is handed back with its cycle and makes no completion
/// (the core applies it); a load that hits completes through the hierarchy as before.
#[test]
fn a_fetch_hit_is_handed_back_a_load_hit_completes() {
    let c = MemConfig::default();
    let (i1, h1) = (u64::from(c.l1i.hit_latency), u64::from(c.l1d.hit_latency));
    let mut m = fixed(&c, 1, 1);
    run(
        &mut m,
        0,
        &[(0, req(1, 0, 0x2000, Fetch)), (0, req(2, 0, 0x1000, Read))],
    );
    assert_eq!(
        m.access(1000, req(3, 0, 0x2004, Fetch)),
        Ok(Some(1000 + i1))
    );
    assert_eq!(m.access(1001, req(4, 0, 0x1004, Read)), Ok(None));
    let mut done = Vec::new();
    for now in 1001..1001 + h1 + i1 + 2 {
        m.tick(now, &mut done);
    }
    assert_eq!(
        done.iter().map(|d| (d.id, d.at)).collect::<Vec<_>>(),
        [(4, 1001 + h1)]
    );
    assert_eq!(m.stats().l1i[0].hits, 1, "the hit still counts");
}
