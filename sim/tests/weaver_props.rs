//! Properties of the Weaver unit: for random tables, lane and warp counts, request orders
//! and skips, every registered edge is handed out exactly once unless its vertex was
//! skipped first, and nothing else is handed out.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use wsim_sim::core::weaver::{StEntry, Weaver};

/// A registration: (warp, lane, vertex, degree). Locations are assigned so that every
/// (vertex, edge id) pair is distinct.
fn registrations(
    warps: usize,
    lanes: usize,
) -> impl Strategy<Value = Vec<(usize, usize, u32, u32)>> {
    prop::collection::vec((0..warps, 0..lanes, 0u32..40, 0u32..70), 0..60)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_edge_once_minus_skips(
        (warps, lanes, regs, requests) in (1usize..=32, 1usize..=32).prop_flat_map(|(w, l)| {
            (Just(w), Just(l), registrations(w, l),
             prop::collection::vec((0..w, any::<u32>(), prop::option::weighted(0.05, 0u32..40)), 1..400))
        })
    ) {
        let mut unit = Weaver::new(64, warps as u32, lanes as u32);
        let mut registered = BTreeMap::new(); // (vid, eid) -> registration order
        let mut loc = 0u32;
        for (k, &(warp, lane, vid, deg)) in regs.iter().enumerate() {
            unit.register(warp, &[(lane, StEntry { vid, loc, deg })]).unwrap();
            for e in loc..loc + deg {
                registered.insert((vid, e), k);
            }
            loc += deg + 3;
        }
        let all_lanes = if lanes == 32 { u32::MAX } else { (1u32 << lanes) - 1 };
        let mut handed = BTreeSet::new();
        let mut skipped = BTreeSet::new();
        for &(warp, mask_bits, skip) in &requests {
            // Any non-empty subset of the warp's lanes may be active.
            let active = (mask_bits & all_lanes).max(1);
            let batch = unit.decode(warp, active, None::<fn(u32) -> (u32, u32)>);
            prop_assert_eq!(batch.work & !active, 0, "work only for active lanes");
            for lane in 0..lanes {
                if batch.work >> lane & 1 == 0 {
                    continue;
                }
                let pair = (batch.vid[lane], batch.eid[lane]);
                prop_assert!(registered.contains_key(&pair), "{:?} was never registered", pair);
                prop_assert!(!skipped.contains(&pair.0), "{:?} handed out after its skip", pair);
                prop_assert!(handed.insert(pair), "{:?} handed out twice", pair);
                prop_assert_eq!(unit.location(warp, lane), Ok(pair.1));
            }
            if let Some(vid) = skip {
                prop_assert!(unit.skip(warp, vid).is_ok());
                skipped.insert(vid);
            }
        }
        // Drain: whatever is left goes out now.
        loop {
            let batch = unit.decode(0, all_lanes, None::<fn(u32) -> (u32, u32)>);
            if batch.work == 0 {
                break;
            }
            for lane in 0..lanes {
                if batch.work >> lane & 1 == 1 {
                    let pair = (batch.vid[lane], batch.eid[lane]);
                    prop_assert!(!skipped.contains(&pair.0));
                    prop_assert!(handed.insert(pair), "{:?} handed out twice", pair);
                }
            }
        }
        // Everything registered went out, except edges of skipped vertices.
        for pair in registered.keys() {
            prop_assert!(
                handed.contains(pair) || skipped.contains(&pair.0),
                "{:?} was never handed out", pair
            );
        }
    }

    /// Batches are dense: a batch leaves lanes idle only when the table runs out.
    #[test]
    fn batches_are_full_until_the_end(
        degrees in prop::collection::vec(0u32..50, 1..64),
        lanes in 1usize..=32,
    ) {
        let mut unit = Weaver::new(64, 1, 32);
        let mut loc = 0;
        for (k, &deg) in degrees.iter().enumerate() {
            unit.register(0, &[(k % 32, StEntry { vid: k as u32, loc, deg })]).unwrap();
            loc += deg;
        }
        let total: u32 = degrees.iter().sum();
        let full = if lanes == 32 { u32::MAX } else { (1u32 << lanes) - 1 };
        let mut handed = 0;
        loop {
            let batch = unit.decode(0, full, None::<fn(u32) -> (u32, u32)>);
            let n = batch.work.count_ones();
            if n == 0 {
                break;
            }
            handed += n;
            prop_assert!(n == lanes as u32 || handed == total, "a partial batch before the end");
        }
        prop_assert_eq!(handed, total);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// One barrier per round (Figure 4.9): each warp registers its share of round r, waits
    /// for every warp to have registered, decodes until -1, and registers round r + 1 at
    /// once, whatever the others are doing. In any interleaving every edge of every round is
    /// handed out once, in its round, and a batch's edge ids stay readable until its warp
    /// asks again. Every round registers something (degree 0 will do): a round without a
    /// registration is invisible to the unit.
    #[test]
    fn rounds_with_one_barrier_each(
        (warps, lanes, rounds, order) in (1usize..=6, 1usize..=8, 1usize..=4).prop_flat_map(|(w, l, r)| {
            (Just(w), Just(l),
             prop::collection::vec(prop::collection::vec((0..w, 0..l, 0u32..12), 1..20), r),
             prop::collection::vec(0..w, 2000))
        })
    ) {
        #[derive(Clone, Copy, PartialEq)]
        enum State { Register(usize), Barrier(usize), Distribute(usize), Done }
        let mut unit = Weaver::new(64, warps as u32, lanes as u32);
        let all = (1u32 << lanes) - 1;
        // Round r's registrations per warp, with distinct edge ids per (round, entry).
        let mut expected = BTreeSet::new();
        let mut shares = vec![vec![Vec::new(); warps]; rounds.len()];
        let mut loc = 0;
        for (r, regs) in rounds.iter().enumerate() {
            let mut lanes_used = vec![BTreeSet::new(); warps];
            for (k, &(warp, lane, deg)) in regs.iter().enumerate() {
                if !lanes_used[warp].insert(lane) {
                    continue; // one entry per lane and round here
                }
                let vid = (r * 100 + k) as u32;
                shares[r][warp].push((lane, StEntry { vid, loc, deg }));
                expected.extend((loc..loc + deg).map(|e| (r, vid, e)));
                loc += deg;
            }
        }
        let mut state = vec![State::Register(0); warps];
        let mut held: Vec<Option<(usize, u32, [u32; 32])>> = vec![None; warps];
        let mut handed = BTreeSet::new();
        let mut steps = order.iter().copied().chain((0..warps).cycle().take(100_000));
        while state.iter().any(|s| *s != State::Done) {
            let w = steps.next().unwrap();
            match state[w] {
                State::Register(r) if r == rounds.len() => state[w] = State::Done,
                State::Register(r) => {
                    if !shares[r][w].is_empty() {
                        unit.register(w, &shares[r][w]).unwrap();
                    }
                    state[w] = State::Barrier(r);
                }
                State::Barrier(r) => {
                    // Everyone has registered round r (or is past it).
                    let passed = state.iter().all(|s| match *s {
                        State::Barrier(q) | State::Distribute(q) => q >= r,
                        State::Register(q) => q > r,
                        State::Done => true,
                    });
                    if passed {
                        state[w] = State::Distribute(r);
                    }
                }
                State::Distribute(r) => {
                    if let Some((_, work, eids)) = held[w] {
                        for lane in 0..lanes {
                            if work >> lane & 1 == 1 {
                                prop_assert_eq!(unit.location(w, lane), Ok(eids[lane]));
                            }
                        }
                    }
                    let batch = unit.decode(w, all, None::<fn(u32) -> (u32, u32)>);
                    if batch.work == 0 {
                        held[w] = None;
                        state[w] = State::Register(r + 1);
                        continue;
                    }
                    for lane in 0..lanes {
                        if batch.work >> lane & 1 == 1 {
                            let item = (r, batch.vid[lane], batch.eid[lane]);
                            prop_assert!(expected.contains(&item), "{:?} not of round {}", item, r);
                            prop_assert!(handed.insert(item), "{:?} handed out twice", item);
                        }
                    }
                    held[w] = Some((r, batch.work, batch.eid));
                }
                State::Done => {}
            }
        }
        prop_assert_eq!(handed, expected);
    }
}
