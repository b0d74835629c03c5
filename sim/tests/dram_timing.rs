//! DRAM timing: latencies, FR-FCFS order, bandwidth, clock ratio, refresh, queueing and
//! configuration checks. Defaults: tRCD = tCL = tRP = 16, tRAS = 39, tCCD = 4, tRTP = 9,
//! BL8 (4 cycles of data per 64-byte line), so a closed-bank read takes 16 + 16 + 4 = 36.

use wsim_sim::mem::dram::{Dram, DramConfig, DramLocation, DramRequest, PagePolicy};

/// The address of `column` in `row` of `bank` in `channel`: `| row | column | bank | channel | offset |`.
fn addr(cfg: &DramConfig, channel: u32, bank: u32, row: u32, column: u32) -> u32 {
    let columns = cfg.row_bytes / cfg.line_bytes;
    (((row * columns + column) * cfg.banks + bank) * cfg.channels + channel) * cfg.line_bytes
}

fn read(id: u64, addr: u32) -> DramRequest {
    DramRequest {
        id,
        addr,
        write: false,
        phase: 0,
    }
}

/// Ticks every core cycle from `from` to `to` inclusive; (cycle, id) of each delivery.
fn run(dram: &mut Dram, from: u64, to: u64) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let mut done = Vec::new();
    for now in from..=to {
        dram.tick(now, &mut done);
        out.extend(done.drain(..).map(|id| (now, id)));
    }
    out
}

#[test]
fn default_configuration_is_valid_and_ddr4_like() {
    let cfg = DramConfig::default();
    assert_eq!(cfg.validate(), Ok(()));
    assert_eq!(
        (cfg.channels, cfg.banks, cfg.row_bytes, cfg.line_bytes),
        (2, 16, 8192, 64)
    );
    assert_eq!(
        (cfg.t_rcd, cfg.t_cl, cfg.t_rp, cfg.t_ras, cfg.t_ccd),
        (16, 16, 16, 39, 4)
    );
    assert!(!cfg.refresh);
    assert_eq!((cfg.clock_ratio, cfg.queue_depth), (1, 32));
}

#[test]
fn address_mapping_interleaves_lines_over_channels_then_banks_then_columns() {
    let cfg = DramConfig::default();
    let at = |line: u32| cfg.locate(line * 64 + 5);
    let loc = |channel, bank, row, column| DramLocation {
        channel,
        bank,
        row,
        column,
    };
    assert_eq!(at(0), loc(0, 0, 0, 0));
    assert_eq!(at(1), loc(1, 0, 0, 0));
    assert_eq!(at(2), loc(0, 1, 0, 0));
    assert_eq!(at(32), loc(0, 0, 0, 1));
    assert_eq!(at(32 * 128), loc(0, 0, 1, 0));
    assert_eq!(cfg.locate(addr(&cfg, 1, 7, 3, 100)), loc(1, 7, 3, 100));
    assert_eq!(cfg.locate(u32::MAX), loc(1, 15, (1 << 14) - 1, 127));
}

#[test]
fn unloaded_latencies_miss_hit_and_conflict() {
    let cfg = DramConfig::default();
    let mut dram = Dram::new(&cfg);
    // Closed bank: ACT at 0, RD at tRCD = 16, data 32..36.
    dram.enqueue(0, read(1, addr(&cfg, 0, 0, 0, 0))).unwrap();
    assert_eq!(run(&mut dram, 0, 99), [(36, 1)]);
    // Same row: RD at 100, data 116..120 (tCL + BL/2).
    dram.enqueue(100, read(2, addr(&cfg, 0, 0, 0, 1))).unwrap();
    assert_eq!(run(&mut dram, 100, 199), [(120, 2)]);
    // Other row, tRAS long past: PRE 200, ACT 216, RD 232, data to 252 (tRP + 36).
    dram.enqueue(200, read(3, addr(&cfg, 0, 0, 1, 0))).unwrap();
    assert_eq!(run(&mut dram, 200, 299), [(252, 3)]);
    let s = dram.stats();
    assert_eq!((s.row_misses, s.row_hits, s.row_conflicts), (1, 1, 1));
    assert_eq!((s.completed, s.reads, s.writes, s.bytes), (3, 3, 0, 192));
    assert_eq!(s.total_latency, 36 + 20 + 52);
    assert_eq!(s.avg_latency(), 36.0);
    assert!((s.row_hit_rate() - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!(dram.pending(), 0);
    assert_eq!(dram.next_event(299), None);
}

#[test]
fn a_conflict_waits_for_tras() {
    let cfg = DramConfig::default();
    let mut dram = Dram::new(&cfg);
    dram.enqueue(0, read(1, addr(&cfg, 0, 0, 0, 0))).unwrap();
    dram.enqueue(1, read(2, addr(&cfg, 0, 0, 1, 0))).unwrap();
    // Meanwhile another bank goes ahead: ACT at 0 + tRRD = 4, RD 20, data after 1's, to 40.
    dram.enqueue(2, read(3, addr(&cfg, 0, 1, 0, 0))).unwrap();
    // PRE at tRAS = 39 (the RD at 16 + tRTP = 25 is earlier), ACT 55, RD 71, data to 91.
    assert_eq!(run(&mut dram, 0, 200), [(36, 1), (40, 3), (91, 2)]);
}

#[test]
fn a_channel_issues_one_command_per_cycle() {
    // One-cycle bursts and no tRRD/tCCD limits: only the command bus spaces commands.
    let cfg = DramConfig {
        channels: 1,
        line_bytes: 16,
        burst_length: 2,
        t_rrd: 0,
        t_ccd: 1,
        ..DramConfig::default()
    };
    let mut dram = Dram::new(&cfg);
    dram.enqueue(0, read(1, addr(&cfg, 0, 0, 0, 0))).unwrap();
    dram.enqueue(0, read(2, addr(&cfg, 0, 1, 0, 0))).unwrap();
    // ACT 0 and 1, RD 16 and 17, each with 16 + 1 cycles to the end of its data.
    assert_eq!(run(&mut dram, 0, 99), [(33, 1), (34, 2)]);
}

#[test]
fn fr_fcfs_serves_a_younger_row_hit_before_an_older_conflict() {
    let cfg = DramConfig::default();
    let mut dram = Dram::new(&cfg);
    dram.enqueue(0, read(1, addr(&cfg, 0, 0, 0, 0))).unwrap();
    assert_eq!(run(&mut dram, 0, 99), [(36, 1)]);
    dram.enqueue(100, read(2, addr(&cfg, 0, 0, 1, 0))).unwrap(); // older, other row
    dram.enqueue(100, read(3, addr(&cfg, 0, 0, 0, 1))).unwrap(); // younger, open row
                                                                 // Hit: RD 100, data to 120. Conflict: PRE at 100 + tRTP = 109, ACT 125, RD 141, to 161.
    assert_eq!(run(&mut dram, 100, 300), [(120, 3), (161, 2)]);
    let s = dram.stats();
    assert_eq!((s.row_misses, s.row_hits, s.row_conflicts), (1, 1, 1));
}

/// Delivery cycles of `n` reads enqueued at cycle 0, striped over every channel, all in row
/// 0 of bank 0 of their channel.
fn stream(cfg: &DramConfig, n: u32) -> Vec<u64> {
    let mut dram = Dram::new(cfg);
    for i in 0..n {
        let a = addr(cfg, i % cfg.channels, 0, 0, i / cfg.channels);
        dram.enqueue(0, read(i.into(), a)).unwrap();
    }
    let out = run(&mut dram, 0, 2000);
    assert_eq!(out.len(), n as usize);
    assert_eq!(dram.stats().row_hits, u64::from(n - cfg.channels));
    out.into_iter().map(|(cycle, _)| cycle).collect()
}

#[test]
fn row_hits_stream_at_the_bus_rate_and_channels_add_up() {
    let one = DramConfig {
        channels: 1,
        ..DramConfig::default()
    };
    // One burst per max(tCCD, BL/2) = 4 cycles: 64 bytes / 4 = 16 bytes per cycle.
    let expected: Vec<u64> = (0..32).map(|i| 36 + 4 * i).collect();
    assert_eq!(stream(&one, 32), expected);

    let two = DramConfig {
        channels: 2,
        ..one.clone()
    };
    let both: Vec<u64> = (0..32).flat_map(|i| [36 + 4 * i; 2]).collect();
    assert_eq!(stream(&two, 64), both);

    let slow_ccd = DramConfig {
        t_ccd: 6,
        ..one.clone()
    };
    let expected: Vec<u64> = (0..32).map(|i| 36 + 6 * i).collect();
    assert_eq!(stream(&slow_ccd, 32), expected);

    // 128-byte lines are two bursts: RD at 16 and 20, data to 40, then one line per 8.
    let long = DramConfig {
        line_bytes: 128,
        ..one
    };
    let expected: Vec<u64> = (0..32).map(|i| 40 + 8 * i).collect();
    assert_eq!(stream(&long, 32), expected);
}

#[test]
fn latency_in_core_cycles_scales_with_the_clock_ratio() {
    let scenario = |ratio: u32| {
        let cfg = DramConfig {
            clock_ratio: ratio,
            ..DramConfig::default()
        };
        let r = u64::from(ratio);
        let mut dram = Dram::new(&cfg);
        dram.enqueue(0, read(1, addr(&cfg, 0, 0, 0, 0))).unwrap();
        dram.enqueue(r, read(2, addr(&cfg, 0, 0, 1, 0))).unwrap();
        dram.enqueue(r, read(3, addr(&cfg, 1, 3, 0, 0))).unwrap();
        let mut out = run(&mut dram, 0, 150 * r);
        dram.enqueue(150 * r, read(4, addr(&cfg, 0, 0, 1, 9)))
            .unwrap();
        out.extend(run(&mut dram, 150 * r + 1, 300 * r));
        out
    };
    let base = scenario(1);
    assert_eq!(base, [(36, 1), (37, 3), (91, 2), (170, 4)]);
    let scaled: Vec<(u64, u64)> = base.iter().map(|&(c, id)| (4 * c, id)).collect();
    assert_eq!(scenario(4), scaled);

    // Between DRAM edges, a request waits for the next one: enqueued at 1, ACT at core 4.
    let cfg = DramConfig {
        clock_ratio: 4,
        ..DramConfig::default()
    };
    let mut dram = Dram::new(&cfg);
    dram.enqueue(1, read(1, 0)).unwrap();
    assert_eq!(run(&mut dram, 1, 400), [(4 + 36 * 4, 1)]);
    assert_eq!(dram.stats().total_latency, 3 + 36 * 4);
}

#[test]
fn refresh_blocks_every_bank_for_trfc_every_trefi() {
    let cfg = DramConfig {
        channels: 1,
        refresh: true,
        t_refi: 200,
        t_rfc: 30,
        ..DramConfig::default()
    };
    // Banks closed at 200: refresh 200..230, then ACT 230.
    let mut dram = Dram::new(&cfg);
    dram.enqueue(200, read(1, addr(&cfg, 0, 0, 0, 0))).unwrap();
    assert_eq!(run(&mut dram, 200, 999), [(266, 1)]);
    assert_eq!(dram.stats().refreshes, 4); // at 200, 400, 600, 800

    // Bank 0, opened at 199, may close only at tRAS = 238: no command from the refresh due
    // at 200 until it has run 254..284 (a due refresh preempts, as in Ramulator). Then both
    // banks open again (ACT 284, and 288 after tRRD) and read (RD 300 and 304).
    let mut dram = Dram::new(&cfg);
    dram.enqueue(199, read(1, addr(&cfg, 0, 0, 0, 0))).unwrap();
    dram.enqueue(220, read(2, addr(&cfg, 0, 1, 0, 0))).unwrap();
    assert_eq!(run(&mut dram, 199, 399), [(320, 1), (324, 2)]);
    assert_eq!(dram.stats().row_misses, 2);
}

#[test]
fn idle_refreshes_are_the_same_whether_ticked_or_skipped() {
    let cfg = DramConfig {
        refresh: true,
        ..DramConfig::default()
    };
    let mut ticked = Dram::new(&cfg);
    let mut skipped = Dram::new(&cfg);
    ticked.enqueue(0, read(1, 0)).unwrap();
    skipped.enqueue(0, read(1, 0)).unwrap();
    run(&mut ticked, 0, 1_000_000);
    skipped.tick(1_000_000, &mut Vec::new());
    // Refreshes at 9360 * k < 1_000_000 in each of the two channels.
    assert_eq!(ticked.stats().refreshes, 2 * 106);
    assert_eq!(ticked.stats(), skipped.stats());
}

#[test]
fn a_full_queue_rejects_and_counts() {
    let cfg = DramConfig {
        queue_depth: 2,
        ..DramConfig::default()
    };
    let mut dram = Dram::new(&cfg);
    dram.enqueue(0, read(1, addr(&cfg, 0, 0, 0, 0))).unwrap();
    dram.enqueue(0, read(2, addr(&cfg, 0, 1, 0, 0))).unwrap();
    let third = read(3, addr(&cfg, 0, 2, 0, 0));
    assert_eq!(dram.enqueue(0, third), Err(third));
    // The other channel has its own queue.
    dram.enqueue(0, read(4, addr(&cfg, 1, 0, 0, 0))).unwrap();
    assert_eq!(dram.stats().rejected, 1);
    assert_eq!(dram.pending(), 3);
    // Request 1 leaves the queue with its RD at 16, decided once cycle 16 is over.
    assert_eq!(dram.enqueue(16, third), Err(third));
    assert_eq!(dram.enqueue(17, third), Ok(()));
    assert_eq!(dram.stats().rejected, 2);
    assert_eq!(dram.pending(), 4);
}

#[test]
fn queue_occupancy_counts_cycles_until_the_column_command() {
    let cfg = DramConfig::default();
    let mut dram = Dram::new(&cfg);
    assert_eq!(dram.next_event(0), None);
    dram.enqueue(10, read(1, 0)).unwrap();
    // The ACT of DRAM cycle 10 is decided by the tick of cycle 11.
    assert_eq!(dram.next_event(10), Some(11));
    dram.tick(100, &mut Vec::new());
    let s = dram.stats();
    assert_eq!((s.queue_occupancy_sum, s.ticked_cycles), (16, 100)); // queued 10..26
    assert_eq!(s.avg_queue_occupancy(), 0.16);
    assert_eq!(s.bandwidth_bytes_per_cycle(100), 0.64);
}

#[test]
fn writes_hold_the_bank_for_write_recovery() {
    let cfg = DramConfig::default();
    let mut dram = Dram::new(&cfg);
    let write = DramRequest {
        id: 1,
        addr: 0,
        write: true,
        phase: 0,
    };
    dram.enqueue(0, write).unwrap();
    dram.enqueue(0, read(2, addr(&cfg, 0, 0, 1, 0))).unwrap();
    // WR at 16, data to 36; PRE at 36 + tWR = 54, ACT 70, RD 86, data to 106.
    assert_eq!(run(&mut dram, 0, 200), [(36, 1), (106, 2)]);
    assert_eq!((dram.stats().writes, dram.stats().reads), (1, 1));
}

#[test]
fn closed_page_precharges_after_the_last_queued_hit() {
    let cfg = DramConfig {
        page_policy: PagePolicy::Closed,
        ..DramConfig::default()
    };
    let mut dram = Dram::new(&cfg);
    dram.enqueue(0, read(1, addr(&cfg, 0, 0, 0, 0))).unwrap();
    dram.enqueue(0, read(2, addr(&cfg, 0, 0, 0, 1))).unwrap(); // queued: still a hit
    assert_eq!(run(&mut dram, 0, 99), [(36, 1), (40, 2)]);
    dram.enqueue(100, read(3, addr(&cfg, 0, 0, 0, 2))).unwrap(); // closed again: a miss
    assert_eq!(run(&mut dram, 100, 199), [(136, 3)]);
    let s = dram.stats();
    assert_eq!((s.row_misses, s.row_hits, s.row_conflicts), (2, 1, 0));
}

#[test]
fn validate_names_the_offending_keys() {
    let bad = |edit: fn(&mut DramConfig), keys: &[&str]| {
        let mut cfg = DramConfig::default();
        edit(&mut cfg);
        let err = cfg.validate().unwrap_err();
        for key in keys {
            assert!(err.contains(key), "{err:?} lacks {key}");
        }
    };
    bad(|c| c.channels = 0, &["dram.channels"]);
    bad(|c| c.banks = 12, &["dram.banks"]);
    bad(|c| c.channels = 512, &["dram.channels"]);
    bad(|c| c.row_bytes = 3000, &["dram.row_bytes"]);
    bad(|c| c.line_bytes = 48, &["dram.line_bytes"]);
    bad(
        |c| c.line_bytes = 16384,
        &["dram.line_bytes", "dram.row_bytes"],
    );
    bad(
        |c| c.line_bytes = 32,
        &["dram.line_bytes", "dram.bus_bytes * dram.burst_length"],
    );
    bad(|c| c.bus_bytes = 0, &["dram.bus_bytes"]);
    bad(|c| c.burst_length = 7, &["dram.burst_length"]);
    bad(|c| c.clock_ratio = 0, &["dram.clock_ratio"]);
    bad(|c| c.clock_ratio = 65, &["dram.clock_ratio"]);
    bad(|c| c.t_ras = 2_000_000, &["dram.t_ras"]);
    bad(
        |c| (c.line_bytes, c.bus_bytes, c.burst_length) = (8192, 1, 2),
        &["dram.line_bytes"],
    );
    bad(|c| c.queue_depth = 0, &["dram.queue_depth"]);
    bad(
        |c| {
            c.refresh = true;
            c.t_rfc = c.t_refi;
        },
        &["dram.t_rfc", "dram.t_refi"],
    );
    bad(
        |c| {
            c.refresh = true;
            (c.t_refi, c.t_rfc) = (500, 400); // no room for ACT, RD and a PRE in between
        },
        &["dram.t_rfc", "dram.t_refi"],
    );
    bad(
        |c| {
            c.channels = 3;
            c.clock_ratio = 0;
        },
        &["dram.channels", "dram.clock_ratio"],
    );
    let ok = DramConfig {
        line_bytes: 32,
        burst_length: 4,
        clock_ratio: 6,
        ..DramConfig::default()
    };
    assert_eq!(ok.validate(), Ok(()));
}

#[test]
fn toml_section_parses_and_rejects_unknown_keys() {
    let cfg: DramConfig =
        toml::from_str("channels = 4\nclock_ratio = 3\npage_policy = \"closed\"\n").unwrap();
    assert_eq!(cfg.channels, 4);
    assert_eq!(cfg.clock_ratio, 3);
    assert_eq!(cfg.page_policy, PagePolicy::Closed);
    assert_eq!(cfg.t_rcd, DramConfig::default().t_rcd);
    let err = toml::from_str::<DramConfig>("chanels = 4\n").unwrap_err();
    assert!(err.to_string().contains("chanels"), "{err}");
}
