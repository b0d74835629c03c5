//! Tests of the DRAM model: address mapping, command timing, FR-FCFS order, refresh, and
//! that jumping between possible commands gives what visiting every DRAM cycle gives.

use proptest::prelude::*;

use super::*;

/// `Dram::advance` visiting every DRAM cycle of every channel with a queue instead of
/// jumping to `next_try`: equal results prove `next_try` never skips a command.
fn advance_every_cycle(dram: &mut Dram, to: u64) {
    let start = dram.now.div_ceil(dram.ratio);
    for d in start..to.div_ceil(dram.ratio) {
        for i in 0..dram.channels.len() {
            if !dram.channels[i].queue.is_empty() {
                dram.step(i, d);
            }
        }
    }
    dram.advance(to);
}

fn configs() -> Vec<DramConfig> {
    let small = DramConfig {
        channels: 2,
        banks: 4,
        row_bytes: 512,
        t_rcd: 5,
        t_cl: 4,
        t_rp: 3,
        t_ras: 11,
        t_ccd: 2,
        t_rrd: 2,
        t_rtp: 3,
        t_wr: 4,
        queue_depth: 4,
        ..DramConfig::default()
    };
    vec![
        small.clone(),
        DramConfig {
            refresh: true,
            t_refi: 130,
            t_rfc: 20,
            clock_ratio: 3,
            ..small.clone()
        },
        DramConfig {
            page_policy: PagePolicy::Closed,
            line_bytes: 128,
            channels: 1,
            ..small
        },
        DramConfig {
            refresh: true,
            t_refi: 300,
            t_rfc: 40,
            ..DramConfig::default()
        },
    ]
}

proptest! {
    #[test]
    fn jumping_to_next_try_misses_no_command(
        which in 0usize..4,
        arrivals in prop::collection::vec((0u64..10, 0u32..1 << 16, any::<bool>()), 1..50),
    ) {
        let cfg = &configs()[which];
        let (mut jumping, mut stepping) = (Dram::new(cfg), Dram::new(cfg));
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut arrivals = arrivals.into_iter().enumerate().peekable();
        let mut at = 0;
        for now in 0..4000 {
            jumping.tick(now, &mut a);
            advance_every_cycle(&mut stepping, now);
            stepping.tick(now, &mut b);
            while let Some(&(id, (gap, addr, write))) = arrivals.peek() {
                if at + gap > now {
                    break;
                }
                let req = DramRequest { id: id as u64, addr, write, phase: id as u32 % 3 };
                // Both refuse alike; a refused request is dropped.
                prop_assert_eq!(jumping.enqueue(now, req), stepping.enqueue(now, req));
                at += gap;
                arrivals.next();
            }
            prop_assert_eq!(&a, &b);
            prop_assert_eq!(jumping.stats(), stepping.stats());
            for phase in 0..3 {
                prop_assert_eq!(jumping.phase_stats(phase), stepping.phase_stats(phase));
            }
        }
        prop_assert_eq!(jumping.pending(), 0);
    }
}
