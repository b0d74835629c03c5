//! The hierarchy over the real DRAM model: the caches add exactly their own latencies to
//! whatever DRAM takes, and DRAM traffic matches the caches' misses and writes.

use wsim_sim::mem::hierarchy::{AccessKind, MemAccess, MemConfig, MemoryHierarchy};

fn load_latency(m: &mut MemoryHierarchy, start: u64, addr: u32) -> u64 {
    let r = MemAccess {
        id: 1,
        core: 0,
        addr,
        kind: AccessKind::Read,
        phase: 0,
        ops: 0,
        pc: 0,
    };
    m.access(start, r).unwrap();
    let mut done = Vec::new();
    let mut now = start;
    while done.is_empty() {
        now = m.next_event(now).expect("a request in flight");
        m.tick(now, &mut done);
    }
    assert_eq!(m.pending(), 0);
    done[0].at - start
}

#[test]
fn cache_latencies_add_to_dram_latency() {
    let c = MemConfig::default();
    c.validate("memory").unwrap();
    let no_l2 = MemConfig {
        l2_enabled: false,
        ..c.clone()
    };
    let (h1, k1, h2, k2) = (
        u64::from(c.l1d.hit_latency),
        u64::from(c.l1_link.latency),
        u64::from(c.l2.hit_latency),
        u64::from(c.l2_link.latency),
    );
    // A cold line to an idle DRAM: the same DRAM latency with or without the L2.
    let mut m = MemoryHierarchy::new(&no_l2, 1, 1);
    let dram = load_latency(&mut m, 0, 0x8000) - h1 - 2 * k1;
    assert!((20..=80).contains(&dram), "DRAM read latency {dram}");
    let mut m = MemoryHierarchy::new(&c, 1, 1);
    assert_eq!(
        load_latency(&mut m, 0, 0x8000),
        h1 + k1 + h2 + 2 * k2 + dram + k1
    );
    assert_eq!(load_latency(&mut m, 1000, 0x8010), h1);
    let s = m.stats();
    assert_eq!((s.dram.reads, s.dram.writes, s.dram.completed), (1, 0, 1));
    // A slower DRAM clock only lengthens the DRAM part.
    let slow = MemConfig {
        dram: wsim_sim::mem::dram::DramConfig {
            clock_ratio: 3,
            ..c.dram.clone()
        },
        ..no_l2
    };
    slow.validate("memory").unwrap();
    let mut m = MemoryHierarchy::new(&slow, 1, 1);
    assert!(load_latency(&mut m, 0, 0x8000) - h1 - 2 * k1 > dram);
}
