//! amoadd.f (`atomic_add_f32`) against a host model: every thread of the machine adds
//! inexact values to a few counters (programs/float_atomics.c); each counter's recorded
//! old values must form one chain of IEEE single-precision round-to-nearest-even sums in
//! which every addition appears exactly once, ending at the counter's final value.

mod common;

use common::{preset, run_ok};
use wsim_sim::Machine;

const N: usize = 2048;
const SLOTS: usize = 5;

/// The program's addend of work item `i`, computed as the program does (in f32).
fn addend(i: usize) -> f32 {
    (i % 16 + 1) as f32 * 0.1f32
}

fn floats(machine: &Machine, symbol: &str, n: usize) -> Vec<f32> {
    let at = machine
        .symbol(symbol)
        .unwrap_or_else(|| panic!("no symbol {symbol}"))
        .addr;
    (0..n as u32)
        .map(|k| f32::from_bits(machine.read_u32(at + 4 * k)))
        .collect()
}

fn check_chains(preset_name: &str) {
    let (machine, _) = run_ok("float_atomics", &preset(preset_name));
    let olds = floats(&machine, "olds", N);
    let finals = floats(&machine, "slots", SLOTS);
    for (slot, last) in finals.iter().enumerate() {
        // The additions to this counter, in the order the counter saw them: the sums only
        // grow (every addend is at least 0.1, far above an ulp here), so by old value.
        let mut ops: Vec<(f32, f32)> = (slot..N)
            .step_by(SLOTS)
            .map(|i| (olds[i], addend(i)))
            .collect();
        ops.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut value = 0.0f32;
        for (k, &(old, add)) in ops.iter().enumerate() {
            assert_eq!(
                old.to_bits(),
                value.to_bits(),
                "{preset_name}: counter {slot}, addition {k}: replaced {old}, expected {value}"
            );
            value += add;
        }
        assert_eq!(
            last.to_bits(),
            value.to_bits(),
            "{preset_name}: counter {slot} ends at {last}, the chain at {value}"
        );
    }
}

#[test]
fn float_atomic_add_is_exact_and_atomic_on_tiny() {
    check_chains("tiny");
}

#[test]
fn float_atomic_add_is_exact_and_atomic_on_sparseweaver() {
    check_chains("sparseweaver");
}

/// Lanes of one warp apply in lane order: with one core, one warp and one addition per
/// lane to the same counter, the old values are the running sums in lane order.
#[test]
fn lanes_apply_in_lane_order() {
    let config = preset("tiny")
        .with_overrides(&[
            "gpu.cores_per_cluster=1".into(),
            "gpu.warps_per_core=1".into(),
        ])
        .expect("valid overrides");
    let (machine, _) = run_ok("float_atomics", &config);
    let olds = floats(&machine, "olds", N);
    // Work item i runs on lane i % threads in round i / threads; within a round the lanes
    // of the only warp add in lane order.
    let threads = config.gpu.threads_per_warp as usize;
    let mut sums = [0.0f32; SLOTS];
    for (i, old) in olds.iter().enumerate() {
        let slot = i % SLOTS;
        assert_eq!(
            old.to_bits(),
            sums[slot].to_bits(),
            "work item {i} (lane {})",
            i % threads
        );
        sums[slot] += addend(i);
    }
}
