//! Tests of the tag-only cache on a small geometry: replacement, MSHR merging and limits,
//! bank and port conflicts, write policies, config validation.

use super::*;

/// 4 sets x 2 ways of 16-byte lines, one bank.
fn small(replacement: Replacement, write_policy: WritePolicy) -> Cache<u32> {
    Cache::new(&CacheConfig {
        size: 128,
        ways: 2,
        line: 16,
        banks: 1,
        mshrs: 2,
        mshr_merge: 1,
        hit_latency: 1,
        replacement,
        write_policy,
        ports: 0,
    })
}

/// Miss, then fill at once: the line is present afterwards.
fn load(c: &mut Cache<u32>, now: u64, line: u32) -> Outcome {
    let out = c.access(now, line, Op::Read, 0, 0).unwrap();
    if out == Outcome::Miss {
        c.fill(line, 0, &mut Vec::new());
    }
    out
}

#[test]
fn lru_and_fifo_pick_different_victims() {
    // Lines 0, 4, 8 share set 0. Touch 0 again before 8 comes in: LRU keeps 0 and
    // evicts 4; FIFO evicts 0, the oldest fill.
    for (policy, kept, evicted) in [(Replacement::Lru, 0, 4), (Replacement::Fifo, 4, 0)] {
        let mut c = small(policy, WritePolicy::WriteThrough);
        load(&mut c, 0, 0);
        load(&mut c, 1, 4);
        assert_eq!(load(&mut c, 2, 0), Outcome::Hit);
        assert_eq!(load(&mut c, 3, 8), Outcome::Miss);
        assert!(c.contains(kept), "{policy:?} keeps {kept}");
        assert!(!c.contains(evicted), "{policy:?} evicts {evicted}");
        assert_eq!(c.stats().evictions, 1);
    }
}

#[test]
fn mshr_merge_limit_and_full() {
    let mut c = small(Replacement::Fifo, WritePolicy::WriteThrough);
    assert_eq!(c.access(0, 1, Op::Read, 0, 10), Ok(Outcome::Miss));
    assert_eq!(c.access(1, 1, Op::Read, 0, 11), Ok(Outcome::Merged));
    // mshr_merge = 1: a third request for the line waits for a free entry.
    assert_eq!(c.access(2, 1, Op::Read, 0, 12), Err(Stall::MshrFull));
    assert_eq!(c.access(3, 2, Op::Read, 0, 13), Ok(Outcome::Miss));
    assert_eq!(c.access(4, 3, Op::Read, 0, 14), Err(Stall::MshrFull));
    // A hit is served while the MSHRs are full.
    let mut waiters = Vec::new();
    c.fill(1, 0, &mut waiters);
    assert_eq!(waiters, [10, 11]);
    assert_eq!(c.access(5, 1, Op::Read, 0, 15), Ok(Outcome::Hit));
    assert_eq!(c.access(6, 3, Op::Read, 0, 16), Ok(Outcome::Miss));
    let s = c.stats();
    assert_eq!((s.accesses, s.hits, s.misses, s.mshr_merges), (5, 1, 4, 1));
    assert_eq!(s.mshr_full_stalls, 2);
}

#[test]
fn one_access_per_bank_per_cycle() {
    let mut c: Cache<u32> = Cache::new(&CacheConfig {
        banks: 2,
        ..CacheConfig::default()
    });
    assert!(c.access(7, 0, Op::Read, 0, 0).is_ok());
    assert_eq!(c.access(7, 2, Op::Read, 0, 1), Err(Stall::Bank));
    assert!(c.access(7, 1, Op::Read, 0, 2).is_ok());
    assert!(c.access(8, 2, Op::Read, 0, 3).is_ok());
    assert_eq!(c.stats().bank_stalls, 1);
}

#[test]
fn ports_limit_accesses_per_cycle() {
    let mut c: Cache<u32> = Cache::new(&CacheConfig {
        banks: 4,
        ports: 1,
        ..CacheConfig::default()
    });
    assert!(c.access(0, 0, Op::Read, 0, 0).is_ok());
    assert_eq!(c.access(0, 1, Op::Read, 0, 1), Err(Stall::Port));
    assert!(c.access(1, 1, Op::Read, 0, 1).is_ok());
    assert_eq!(c.stats().port_stalls, 1);
}

#[test]
fn write_through_never_allocates() {
    let mut c = small(Replacement::Fifo, WritePolicy::WriteThrough);
    assert_eq!(c.access(0, 5, Op::Write, 0, 0), Ok(Outcome::WriteAround));
    assert!(!c.contains(5));
    load(&mut c, 1, 5);
    assert_eq!(c.access(2, 5, Op::Write, 0, 0), Ok(Outcome::WriteAround));
    let s = c.stats();
    assert_eq!((s.writes, s.hits, s.misses), (2, 1, 2));
    assert!(c.needs_below(5, Op::Write));
}

#[test]
fn write_back_allocates_and_writes_back_dirty_victims() {
    let mut c = small(Replacement::Fifo, WritePolicy::WriteBack);
    // A write miss fetches the line; the fill leaves it dirty.
    assert_eq!(c.access(0, 0, Op::Write, 0, 0), Ok(Outcome::Miss));
    assert_eq!(c.fill(0, 0, &mut Vec::new()), None);
    load(&mut c, 1, 4);
    // Set 0 is full: the fill of 8 evicts 0 (dirty, written back), then 12 evicts 4
    // (clean).
    c.access(2, 8, Op::Read, 0, 0).unwrap();
    assert_eq!(c.fill(8, 0, &mut Vec::new()), Some(0));
    c.access(3, 12, Op::Read, 0, 0).unwrap();
    assert_eq!(c.fill(12, 0, &mut Vec::new()), None);
    // A write hit dirties a clean line.
    assert_eq!(c.access(4, 8, Op::Write, 0, 0), Ok(Outcome::Hit));
    c.access(5, 16, Op::Read, 0, 0).unwrap();
    assert_eq!(c.fill(16, 0, &mut Vec::new()), Some(8));
    let s = c.stats();
    assert_eq!((s.evictions, s.writebacks), (3, 2));
}

#[test]
fn validate_names_the_field() {
    let check = |cfg: CacheConfig, field: &str| {
        let err = cfg.validate("l1d").unwrap_err();
        assert!(err.contains(&format!("l1d.{field}")), "{err}");
    };
    let d = CacheConfig::default;
    check(CacheConfig { ways: 3, ..d() }, "ways");
    check(CacheConfig { size: 0, ..d() }, "size");
    check(CacheConfig { line: 2, ..d() }, "line");
    check(CacheConfig { size: 128, ..d() }, "size");
    check(CacheConfig { banks: 128, ..d() }, "banks");
    check(CacheConfig { mshrs: 0, ..d() }, "mshrs");
    check(CacheConfig { ports: 8, ..d() }, "ports");
    assert_eq!(d().validate("l1d"), Ok(()));
    // Invalid configurations still build without panicking.
    let _: Cache<u32> = Cache::new(&CacheConfig {
        size: 0,
        ways: 0,
        line: 0,
        banks: 0,
        mshrs: 0,
        ..d()
    });
}

/// Warming leaves the tags, the replacement order and the dirty bits as accesses and
/// their fills would, and counts nothing.
#[test]
fn warming_changes_the_tags_as_accesses_and_fills_would() {
    for policy in [Replacement::Lru, Replacement::Fifo] {
        let (mut warmed, mut timed) = (
            small(policy, WritePolicy::WriteBack),
            small(policy, WritePolicy::WriteBack),
        );
        // Lines 0, 4, 8 share set 0; a write makes 4 dirty.
        let ops = [(0, Op::Read), (4, Op::Write), (0, Op::Read), (8, Op::Read)];
        let mut victims = Vec::new();
        for (now, &(line, op)) in ops.iter().enumerate() {
            let w = warmed.warm(line, op);
            victims.extend(w.victim);
            let missed = timed.access(now as u64, line, op, 0, 0).unwrap() == Outcome::Miss;
            assert_eq!(w.filled, missed, "a miss installs its line, a hit does not");
            if missed {
                assert!(w.below, "a miss reads its line from below");
                let mut waiters = Vec::new();
                assert_eq!(timed.fill(line, 0, &mut waiters), w.victim);
            }
        }
        for line in [0, 4, 8] {
            assert_eq!(
                warmed.contains(line),
                timed.contains(line),
                "{policy:?} {line}"
            );
        }
        assert_eq!(warmed.stats().accesses, 0, "warming counts nothing");
        // LRU evicts the dirty 4 (written back); FIFO evicts 0, clean.
        let expect: &[u32] = if policy == Replacement::Lru {
            &[4]
        } else {
            &[]
        };
        assert_eq!(victims, expect, "{policy:?}");
    }
    // Write-through: a write passes below and allocates nothing.
    let mut c = small(Replacement::Lru, WritePolicy::WriteThrough);
    let w = c.warm(0, Op::Write);
    assert!(w.below && !w.filled && !c.contains(0));
}
