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
            ..small.clone()
        },
        DramConfig {
            refresh: true,
            t_refi: 300,
            t_rfc: 40,
            ..DramConfig::default()
        },
        DramConfig {
            write_drain: true,
            write_high: 2,
            write_low: 1,
            t_wtr: 5,
            t_rtw: 3,
            t_cwl: 1,
            mapping: AddressMapping::RoBaCoCh,
            read_return: 2,
            first_burst_response: true,
            refresh: true,
            t_refi: 200,
            t_rfc: 20,
            ..small.clone()
        },
    ]
}

proptest! {
    #[test]
    fn jumping_to_next_try_misses_no_command(
        which in 0usize..5,
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

/// One channel of 4 banks like `configs/vortex.toml`'s (a line in two 4-cycle bursts),
/// with the write drain at watermarks 3 and 1 and HBM2's write latency.
fn drained() -> DramConfig {
    DramConfig {
        channels: 1,
        banks: 4,
        row_bytes: 4096,
        bus_bytes: 4,
        burst_length: 8,
        t_rcd: 7,
        t_cl: 7,
        t_rp: 7,
        t_ras: 17,
        t_ccd: 1,
        t_rrd: 2,
        t_rtp: 2,
        t_wr: 8,
        row_hit_cap: 0,
        first_burst_response: true,
        mapping: AddressMapping::RoBaCoCh,
        read_return: 2,
        write_drain: true,
        write_high: 3,
        write_low: 1,
        t_wtr: 9,
        t_rtw: 11,
        t_cwl: 2,
        ..DramConfig::default()
    }
}

/// Enqueues `(address, write)` at cycle 0 in order (ids 0, 1, ...) and returns each id's
/// delivery cycle.
fn deliveries(cfg: &DramConfig, requests: &[(u32, bool)]) -> Vec<u64> {
    let mut dram = Dram::new(cfg);
    for (id, &(addr, write)) in requests.iter().enumerate() {
        let req = DramRequest {
            id: id as u64,
            addr,
            write,
            phase: 0,
        };
        dram.enqueue(0, req).unwrap();
    }
    let mut at = vec![0; requests.len()];
    let mut done = Vec::new();
    for now in 0..1000 {
        dram.tick(now, &mut done);
        for id in done.drain(..) {
            at[id as usize] = now;
        }
    }
    assert_eq!(dram.pending(), 0);
    at
}

#[test]
fn ro_ba_co_ch_keeps_consecutive_lines_in_a_banks_row() {
    let cfg = drained();
    let loc = |line: u32| cfg.locate(line * 64);
    assert_eq!((loc(0).bank, loc(0).row, loc(0).column), (0, 0, 0));
    assert_eq!((loc(63).bank, loc(63).row, loc(63).column), (0, 0, 63));
    assert_eq!((loc(64).bank, loc(64).row, loc(64).column), (1, 0, 0));
    assert_eq!((loc(256).bank, loc(256).row), (0, 1));
}

/// Reads go first while the writes stay at or below the high watermark: the read opens the
/// row and reads (data after tCL and its first burst, plus the return), then the writes
/// follow once no read waits, the first one tRTW after the read's last column command.
/// Without the drain the oldest goes first: the writes, then the read.
#[test]
fn write_drain_serves_reads_first_below_the_high_watermark() {
    let cfg = drained();
    let requests = [(0, true), (64, true), (128, false)];
    // ACT 0; RD 7 (bursts at 7, 11); WR tRTW after 11 = 22 (bursts 22, 26, data tCWL
    // later), WR 30 (its data after the first's).
    assert_eq!(
        deliveries(&cfg, &requests),
        [22 + 4 + 2 + 4, 30 + 4 + 2 + 4, 7 + 7 + 4 + 2]
    );
    let fcfs = DramConfig {
        write_drain: false,
        ..cfg
    };
    // WR 7, WR 15, RD 23: no turnaround without the drain, write data at tCL.
    assert_eq!(
        deliveries(&fcfs, &requests),
        [7 + 4 + 7 + 4, 15 + 4 + 7 + 4, 23 + 7 + 4 + 2]
    );
}

/// More writes than the high watermark drain first, down to the low watermark (here all
/// of them), then the read, tWTR after the last write's last column command.
#[test]
fn write_drain_drains_writes_above_the_high_watermark() {
    let cfg = drained();
    let mut requests: Vec<(u32, bool)> = (0..4).map(|k| (64 * k, true)).collect();
    requests.push((256 * 64 - 64, false));
    let at = deliveries(&cfg, &requests);
    // WR at 7, 15, 23, 31 (each two bursts 4 cycles apart, data tCWL = 2 later); RD at
    // 31 + 4 + tWTR = 44.
    assert_eq!(&at[..4], [17, 25, 33, 41]);
    assert_eq!(at[4], 44 + 7 + 4 + 2);
}

/// Writes to another row of a bank whose open row only reads hit close it (no deadlock: a
/// write mode waiting for the reads' hits would wait forever); the read whose row was
/// opened for it is served before the switch takes effect.
#[test]
fn write_drain_closes_a_row_only_the_other_mode_hits() {
    let mut dram = Dram::new(&drained());
    let other_row = 4096 * 4;
    let mut done = Vec::new();
    let read = |id, addr| DramRequest {
        id,
        addr,
        write: false,
        phase: 0,
    };
    dram.enqueue(0, read(0, 0)).unwrap();
    // The read's row is activated for it at 0; then the writes outnumber the high
    // watermark, and a second read hits the open row.
    dram.tick(1, &mut done);
    for k in 0..4 {
        let req = DramRequest {
            id: 1 + k,
            addr: other_row + 64 * k as u32,
            write: true,
            phase: 0,
        };
        dram.enqueue(1, req).unwrap();
    }
    dram.enqueue(1, read(5, 64)).unwrap();
    let mut order = Vec::new();
    for now in 1..1000 {
        dram.tick(now, &mut done);
        order.append(&mut done);
    }
    assert_eq!(dram.pending(), 0);
    // The first read at tRCD; the writes once its row is closed; the second read last.
    assert_eq!(order, [0, 1, 2, 3, 4, 5]);
}
