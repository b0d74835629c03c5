//! The DRAM gives identical deliveries and statistics whether it is ticked every core
//! cycle or only at the cycles its `next_event` (and the caller's own arrivals) name.

use std::collections::BTreeMap;

use proptest::prelude::*;
use wsim_sim::mem::dram::{Dram, DramConfig, DramRequest, DramStats, PagePolicy};

/// Small geometries and timings, so that hits, conflicts, full queues, multi-burst lines
/// and refreshes all happen in short runs.
fn config() -> impl Strategy<Value = DramConfig> {
    let geometry = (0u32..2, 0u32..3, 0u32..3, 0u32..2, 1u32..=4, 1u32..=8);
    let timing = (
        1u32..8,
        1u32..8,
        1u32..8,
        0u32..20,
        1u32..6,
        0u32..5,
        0u32..6,
        0u32..8,
    );
    let refresh = (any::<bool>(), 0u32..40, 1u32..100, any::<bool>());
    (geometry, timing, refresh).prop_map(|(g, t, r)| {
        let mut cfg = DramConfig {
            channels: 1 << g.0,
            banks: 1 << g.1,
            row_bytes: 256 << g.2,
            line_bytes: 64 << g.3,
            clock_ratio: g.4,
            queue_depth: g.5,
            t_rcd: t.0,
            t_cl: t.1,
            t_rp: t.2,
            t_ras: t.3,
            t_ccd: t.4,
            t_rrd: t.5,
            t_rtp: t.6,
            t_wr: t.7,
            refresh: r.0,
            t_rfc: r.1,
            page_policy: if r.3 {
                PagePolicy::Closed
            } else {
                PagePolicy::Open
            },
            ..DramConfig::default()
        };
        // The shortest interval validate() accepts, plus some slack.
        let shortest = (cfg.t_rfc..).find(|&refi| {
            DramConfig {
                t_refi: refi,
                ..cfg.clone()
            }
            .validate()
            .is_ok()
        });
        cfg.t_refi = shortest.unwrap_or(u32::MAX - 100) + r.2;
        cfg
    })
}

/// Requests waiting to be offered, by (core cycle, sequence); a refused one is offered
/// again 3 cycles later.
struct Source {
    due: BTreeMap<(u64, u64), DramRequest>,
    seq: u64,
}

impl Source {
    fn new(arrivals: &[(u64, u32, bool)]) -> Source {
        let mut source = Source {
            due: BTreeMap::new(),
            seq: 0,
        };
        let mut now = 0;
        for (id, &(gap, addr, write)) in arrivals.iter().enumerate() {
            now += gap;
            let id = id as u64;
            // Three phases, so their statistics are compared too.
            let phase = id as u32 % 3;
            source.offer(
                now,
                DramRequest {
                    id,
                    addr,
                    write,
                    phase,
                },
            );
        }
        source
    }

    fn offer(&mut self, at: u64, req: DramRequest) {
        self.due.insert((at, self.seq), req);
        self.seq += 1;
    }

    /// Offers every request due at `now` (the caller visits every due cycle).
    fn feed(&mut self, now: u64, dram: &mut Dram) {
        while let Some(entry) = self.due.first_entry() {
            if entry.key().0 > now {
                break;
            }
            let req = entry.remove();
            if let Err(req) = dram.enqueue(now, req) {
                self.offer(now + 3, req);
            }
        }
    }

    fn next(&self) -> Option<u64> {
        self.due.keys().next().map(|&(at, _)| at)
    }
}

const HORIZON: u64 = 20_000;

/// The whole run's statistics and those of each of the three phases.
type Snapshot = (DramStats, Vec<DramStats>);

fn snapshot(dram: &Dram) -> Snapshot {
    let phases = (0..3).map(|p| dram.phase_stats(p)).collect();
    (dram.stats().clone(), phases)
}

/// Ticks every cycle (tick, then enqueue); deliveries and the statistics after each cycle.
fn every_cycle(
    cfg: &DramConfig,
    arrivals: &[(u64, u32, bool)],
) -> (Vec<(u64, u64)>, Vec<Snapshot>) {
    let mut dram = Dram::new(cfg);
    let mut source = Source::new(arrivals);
    let (mut out, mut done, mut stats) = (Vec::new(), Vec::new(), Vec::new());
    for now in 0..=HORIZON {
        dram.tick(now, &mut done);
        out.extend(done.drain(..).map(|id| (now, id)));
        source.feed(now, &mut dram);
        stats.push(snapshot(&dram));
    }
    assert_eq!(dram.pending(), 0, "not drained by the horizon");
    assert_eq!(source.next(), None);
    (out, stats)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn skipping_idle_cycles_changes_nothing(
        cfg in config(),
        arrivals in prop::collection::vec((0u64..12, 0u32..1 << 14, any::<bool>()), 1..60),
    ) {
        prop_assert_eq!(cfg.validate(), Ok(()));
        let (expected, stats) = every_cycle(&cfg, &arrivals);
        prop_assert_eq!(expected.len(), arrivals.len());

        // Visit only arrivals and next_event, enqueueing before ticking this time.
        let mut dram = Dram::new(&cfg);
        let mut source = Source::new(&arrivals);
        let (mut out, mut done) = (Vec::new(), Vec::new());
        let mut now = 0;
        loop {
            source.feed(now, &mut dram);
            dram.tick(now, &mut done);
            out.extend(done.drain(..).map(|id| (now, id)));
            prop_assert_eq!(&snapshot(&dram), &stats[now as usize], "at cycle {}", now);
            let next = [source.next(), dram.next_event(now)].into_iter().flatten().min();
            match next {
                Some(at) => {
                    prop_assert!(at > now);
                    now = at;
                }
                None => break,
            }
        }
        prop_assert_eq!(&out, &expected);
        dram.tick(HORIZON, &mut done);
        prop_assert!(done.is_empty());
        prop_assert_eq!(&snapshot(&dram), stats.last().unwrap());

        // Deterministic: a second run is identical.
        prop_assert_eq!(every_cycle(&cfg, &arrivals).0, expected);
    }
}
