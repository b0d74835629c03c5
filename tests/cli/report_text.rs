//! `wsim run`'s terminal report explains itself: peaks beside achieved values, units, which
//! columns follow whose phase, the issue slots of each phase, the Weaver program's L1 beside
//! the configured one.

use crate::common;

fn report(config: &str) -> String {
    let config = common::root().join(config);
    let out = common::wsim_ok(&[
        "run",
        "--config",
        config.to_str().unwrap(),
        common::program("graph/pr_sparseweaver_pull")
            .to_str()
            .unwrap(),
    ]);
    String::from_utf8(out.stdout).unwrap()
}

fn line<'a>(text: &'a str, start: &str) -> &'a str {
    (text.lines())
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line {start}: {text}"))
}

/// The number after `before` in `text`.
fn number_after(text: &str, before: &str) -> f64 {
    let rest = &text[text
        .find(before)
        .unwrap_or_else(|| panic!("{before}: {text}"))
        + before.len()..];
    let n: String = (rest.trim_start())
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    n.parse().unwrap_or_else(|_| panic!("{before}{rest}"))
}

#[test]
fn the_report_states_peaks_units_and_whose_phase() {
    let text = report("configs/sparseweaver.toml");
    let ipc = line(&text, "IPC");
    assert!(
        ipc.contains("warp instructions/cycle (all cores; peak 12 = 6 cores x 2 issue slots)"),
        "{ipc}"
    );
    assert!(number_after(ipc, "IPC") <= 12.0);
    let cycles = number_after(line(&text, "cycles"), "cycles");
    let slots = line(&text, "issue slots (");
    assert_eq!(
        number_after(slots, "issue slots ("),
        12.0 * cycles,
        "{slots}"
    );
    assert!(slots.contains("= 6 cores x 2 per cycle x"), "{slots}");
    // DRAM: achieved below the configured peak (4 channels x 8 bytes x BL 8 every 4 DRAM
    // cycles, as sparseweaver.toml has it; core and DRAM clocks 1:1).
    let dram = line(&text, "dram ");
    let config = common::preset("sparseweaver");
    let d = &config.memory.dram;
    let peak = f64::from(d.channels * d.bus_bytes * d.burst_length)
        / f64::from(d.t_ccd.max(d.burst_length / 2))
        / f64::from(d.clock_ratio);
    assert_eq!(number_after(dram, "bytes/cycle of a peak "), peak, "{dram}");
    assert!(number_after(dram, "bytes, ") <= peak);
    assert!(
        dram.contains("cycles (mean)") && dram.contains("requests (mean)"),
        "{dram}"
    );
    let weaver = line(&text, "weaver ");
    assert!(
        weaver.contains("L1D 32 KiB of 64 KiB configured"),
        "{weaver}"
    );
    assert!(line(&text, "phases (").contains("warp time follows each warp's own phase"));
    assert!(line(&text, "phases (").contains("follow the core's phase"));
    // Each phase's slots by reason add up to its whole.
    let table: Vec<&str> = (text.lines())
        .skip_while(|l| !l.starts_with("issue slots by phase"))
        .skip(2)
        .take_while(|l| l.starts_with("  phase "))
        .collect();
    assert_eq!(table.len(), 7, "{text}");
    for row in table {
        let total: f64 = (row.split_whitespace())
            .filter_map(|w| w.strip_suffix('%'))
            .map(|w| w.parse::<f64>().unwrap())
            .sum();
        assert!((total - 100.0).abs() < 0.6, "{row}: {total}");
    }
}
