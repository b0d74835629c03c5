//! The cores' progress through a launch cut into units (`Plan::period`), under the machine's
//! default arbiter.
//!
//! A unit inside a launch is measured from a copy the functional run made, whose rounds
//! advance every core alike (lock step), so every copy has all the cores at work and the
//! units measure the launch as if they stayed so to its end. In detail a socket's cores do
//! not: `gpu.arbiter = "core-order"` serves the lowest-numbered core first at the shared L1,
//! so under contention a socket's first core runs at its own pace, the next takes what is
//! left, and the last can starve until the ones before it finish; then it runs alone, at
//! what one core can do. Measured on the GCN layer's VM on the UK stand-in at the paper's
//! size (`wsim run --trace`, 1.7k samples; docs/ARCHITECTURE.md, "Sampled simulation"):
//! through GraphSum each socket's cores issued 0.55, 0.45 and 0.00 warp instructions a
//! cycle, the first finished at 170M cycles, the second at 207M, and the third ran alone
//! at 0.55 to 315M: the machine at 1.1 instructions a cycle for a third of the launch
//! where the units measured 2.0, and the estimate was 21.9% low.
//!
//! So a launch's body is scaled by how much longer its sockets take served by place than
//! shared alike, a fluid model of each socket: each core's work to the launch's end (its
//! body and tail units' warp instructions, the functional run's: exact) and each core's
//! rate measured with all at work (the kernel's measured body units, core by core). By
//! place, a socket's k-th active core in core order runs at its k-th core's rate, so a core
//! that finishes hands its place to those after it; alike, its k active cores split its
//! first k cores' rates evenly, as lock step has them. With fewer cores at work than the
//! socket has, the rates are measured too: the kernel's first measured body unit probes
//! each socket with only its last k cores at work, the others parked (`detail.rs`,
//! `Machine::park`), for each k short of the socket's cores, and by place the k-th of those
//! cores at work runs at the probe's rate for it. The probes tell a core at its own limit
//! from one a shared resource held: on the GCN layer's SparseWeaver at the paper's size
//! SpMM's first core ran at 0.34 of its socket's 0.39 with all at work, and the last core
//! alone at 0.43 (the L1 and its MSHRs its own), where by place without the probes gave it
//! the first's 0.34 and made SparseWeaver on RN 8.1% high (-0.5% with them); VM by weight's
//! GraphSum first core ran at 0.55 with all at work and its last core alone at 0.55, its
//! own limit. The sockets' imbalance is in both times, and the launch ends with its slowest
//! socket in each. The ratio scales the body units the functional run made before its first
//! core's last instruction in the launch (those whose copies had every core at work; after
//! it the units measure the functional run's own end) and not those of the stretch from the
//! run's start (the detailed run itself). An assumption, from the arbiter's fixed priority
//! and the trace above: a core's rate depends only on its place among its socket's active
//! cores and how many they are (the sockets are independent, the L2 and DRAM they share not
//! modelled; one probe, early in the kernel's first launch, stands for all its launches)
//! and not on how many of its warps are left (a core's own drain, its last warps alone, is
//! not modelled: where lock step drains every core's last warps together in the launch's
//! tail, detail drains the last core's alone). With round robin the cores share a socket
//! alike, as lock step has them, and nothing is scaled.

use std::collections::BTreeMap;

use wsim_sim::config::Arbiter;
use wsim_sim::stats::{CoreProbe, LaunchProgress};
use wsim_sim::Machine;

use crate::detail::Measured;

/// The launches cut into units: per launch its kernel and each of its body units' and its
/// tail's warp instructions core by core, as the functional run counted them.
pub(crate) struct Bodies {
    /// Cores per socket: those that share an L1 and its arbiter.
    socket: usize,
    launches: BTreeMap<usize, Body>,
}

#[derive(Default)]
struct Body {
    kernel: String,
    /// (unit, each core's instructions) of its body units, in order.
    units: Vec<(usize, Vec<u64>)>,
    /// Each core's instructions in its tail.
    tail: Vec<u64>,
}

impl Body {
    /// Its body units before the first core's last instruction in the launch: those whose
    /// copies had every core at work to their end, the model's premise (after it the
    /// functional run's own cores finish, and the units measure that).
    fn full_units(&self) -> impl Iterator<Item = &(usize, Vec<u64>)> {
        // Per core, the last of the launch's units (the tail = units.len()) it issued in.
        let cores = self.units.first().map_or(0, |(_, n)| n.len());
        let last = (0..cores).map(|c| {
            (self.units.iter().map(|(_, n)| n[c]))
                .chain([self.tail.get(c).copied().unwrap_or(0)])
                .enumerate()
                .filter(|&(_, n)| n > 0)
                .last()
                .map_or(0, |(k, _)| k)
        });
        let first_done = last.min().unwrap_or(0);
        self.units.iter().take(first_done)
    }
}

/// What the model scales: each launch's ratio (with the model's inputs), and the launch
/// of each full body unit.
#[derive(Default)]
pub(crate) struct Scaling {
    pub launches: BTreeMap<usize, LaunchProgress>,
    pub units: BTreeMap<usize, usize>,
    /// The probes, each with its kernel and rates.
    pub probes: Vec<CoreProbe>,
}

impl Scaling {
    /// Unit `unit`'s ratio, if it is scaled.
    pub fn ratio(&self, unit: usize) -> Option<f64> {
        self.units.get(&unit).map(|l| self.launches[l].ratio)
    }
}

impl Bodies {
    /// The bodies of `machine`'s launches, when its sockets' cores are served in core order
    /// (the model's premise; otherwise nothing is scaled).
    pub fn new(machine: &Machine) -> Option<Bodies> {
        let gpu = &machine.config().gpu;
        (gpu.arbiter == Arbiter::CoreOrder && gpu.cores_per_socket > 1).then(|| Bodies {
            socket: gpu.cores_per_socket as usize,
            launches: BTreeMap::new(),
        })
    }

    /// Unit `unit` inside launch `launch` of `kernel`, whose cores issued `by_core`: a body
    /// unit, or with `tail` the launch's last.
    pub fn add(&mut self, unit: usize, launch: usize, kernel: &str, by_core: Vec<u64>, tail: bool) {
        let body = self.launches.entry(launch).or_default();
        body.kernel = kernel.to_string();
        if tail {
            body.tail = by_core;
        } else {
            body.units.push((unit, by_core));
        }
    }

    /// Each launch's ratio, by place over alike, and the units it scales, from `measured`
    /// (the measured units, a warm-up check's left out). A launch of a kernel none of
    /// whose full units was measured, or with a socket whose first core was measured idle,
    /// is not scaled.
    pub fn scaling<'a>(&self, measured: impl IntoIterator<Item = &'a Measured>) -> Scaling {
        // The launch of each full unit, and the kernel of each body unit.
        let full: BTreeMap<usize, usize> = (self.launches.iter())
            .flat_map(|(&l, body)| body.full_units().map(move |(u, _)| (*u, l)))
            .collect();
        let kernel_of: BTreeMap<usize, &str> = (self.launches.values())
            .flat_map(|body| body.units.iter().map(|(u, _)| (*u, body.kernel.as_str())))
            .collect();
        // Each kernel's measured full units pooled: cycles, and each core's instructions;
        // and its probes' rates by how many of each socket's cores were at work.
        let mut by_kernel: BTreeMap<&str, (u64, Vec<u64>)> = BTreeMap::new();
        let mut fewer: BTreeMap<&str, BTreeMap<usize, Vec<f64>>> = BTreeMap::new();
        let mut probes = Vec::new();
        for m in measured {
            if let Some(&kernel) = kernel_of.get(&m.unit).filter(|_| !m.probes.is_empty()) {
                let rates = fewer.entry(kernel).or_default();
                for p in &m.probes {
                    let at: Vec<f64> = (p.by_core.iter())
                        .map(|&n| n as f64 / p.cycles as f64)
                        .collect();
                    rates.insert(p.active, at.clone());
                    probes.push(CoreProbe {
                        kernel: kernel.to_string(),
                        unit: m.unit as u32,
                        active: p.active as u32,
                        cycles: p.cycles,
                        rates: at,
                    });
                }
            }
            let Some(launch) = full.get(&m.unit) else {
                continue;
            };
            let kernel = self.launches[launch].kernel.as_str();
            let pooled = (by_kernel.entry(kernel)).or_insert((0, vec![0; m.by_core.len()]));
            pooled.0 += m.cycles;
            for (p, n) in pooled.1.iter_mut().zip(&m.by_core) {
                *p += n;
            }
        }
        let mut scaling = Scaling {
            probes,
            ..Scaling::default()
        };
        let none = BTreeMap::new();
        for (&launch, body) in &self.launches {
            let Some((cycles, issued)) = by_kernel.get(body.kernel.as_str()) else {
                continue;
            };
            let rates: Vec<f64> = (issued.iter())
                .map(|&n| n as f64 / *cycles as f64)
                .collect();
            let fewer = fewer.get(body.kernel.as_str()).unwrap_or(&none);
            // Each core's work to the launch's end: what decides which core ends it.
            let mut work = body.tail.clone();
            work.resize(rates.len(), 0);
            for (_, by_core) in &body.units {
                for (w, n) in work.iter_mut().zip(by_core) {
                    *w += n;
                }
            }
            let Some(ratio) = stretch(&work, &rates, fewer, self.socket) else {
                continue;
            };
            let record = LaunchProgress {
                launch: launch as u32,
                rates,
                work,
                ratio,
            };
            scaling.launches.insert(launch, record);
        }
        // The full units of the launches scaled.
        scaling.units = (full.into_iter())
            .filter(|(_, l)| scaling.launches.contains_key(l))
            .collect();
        scaling
    }
}

/// How a socket's active cores share it: by place (the k-th active core in core order at
/// the k-th core's rate, as core order serves them; with fewer at work, at the rate a
/// probe measured for the k-th of that many) or alike (the first k cores' rates together
/// split evenly, as lock step's copies have them).
#[derive(Clone, Copy, PartialEq)]
enum Share {
    ByPlace,
    Alike,
}

/// The time the sockets take for `work` (each core's instructions) served by place, over
/// the time they take shared alike, each core's rate (`rates`, measured with all at work)
/// being its place's, and with fewer at work the probes' (`fewer`: by how many of each
/// socket's cores were at work, every core's rate, the parked ones' 0). None when the
/// model cannot tell (no rate, or a socket left with work and no rate for it).
fn stretch(
    work: &[u64],
    rates: &[f64],
    fewer: &BTreeMap<usize, Vec<f64>>,
    socket: usize,
) -> Option<f64> {
    if work.len() != rates.len() || work.iter().all(|&w| w == 0) {
        return None;
    }
    let longest = |share| {
        (work.chunks(socket).zip(rates.chunks(socket)).enumerate())
            .map(|(s, (work, rates))| {
                // This socket's probed cores' rates: the last `active` of it.
                let fewer: BTreeMap<usize, &[f64]> = (fewer.iter())
                    .filter_map(|(&a, r)| {
                        let mine = r.chunks(socket).nth(s)?;
                        Some((a, mine.get(socket.checked_sub(a)?..)?))
                    })
                    .collect();
                socket_time(work, rates, &fewer, share)
            })
            .try_fold(0.0f64, |a, t| Some(a.max(t?)))
    };
    let alike = longest(Share::Alike)?;
    (alike > 0.0).then_some(longest(Share::ByPlace)? / alike)
}

/// The time one socket's cores take for `work` when its k-th core's rate is `rates[k]`
/// with all at work, and the k-th of `a` at work `fewer[a][k]` where probed, its active
/// cores sharing it by `share`.
fn socket_time(
    work: &[u64],
    rates: &[f64],
    fewer: &BTreeMap<usize, &[f64]>,
    share: Share,
) -> Option<f64> {
    let mut left: Vec<f64> = work.iter().map(|&w| w as f64).collect();
    let mut time = 0.0;
    loop {
        let active: Vec<usize> = (0..left.len()).filter(|&c| left[c] > 0.0).collect();
        if active.is_empty() {
            return Some(time);
        }
        let at: Vec<f64> = match share {
            Share::ByPlace => match fewer.get(&active.len()) {
                Some(probed) if active.len() < rates.len() => probed.to_vec(),
                _ => rates[..active.len()].to_vec(),
            },
            Share::Alike => {
                let together: f64 = rates[..active.len()].iter().sum();
                vec![together / active.len() as f64; active.len()]
            }
        };
        // The first active core to finish at its rate.
        let step = (active.iter().zip(&at))
            .filter(|(_, &r)| r > 0.0)
            .map(|(&c, &r)| left[c] / r)
            .fold(f64::INFINITY, f64::min);
        if !step.is_finite() {
            return None;
        }
        time += step;
        for (&c, &r) in active.iter().zip(&at) {
            left[c] -= r * step;
            // What rounding leaves of a core that finished in this step.
            if left[c] <= 1e-9 * work[c] as f64 {
                left[c] = 0.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The trace's GraphSum on one socket: 0.55, 0.45 and 0.00 with all three at work,
    /// 82.4M instructions each. By place the first finishes at 150M cycles, the second (then
    /// at 0.55) at 177M, the third (at 0.45, then alone at 0.55) at 305M; shared alike all
    /// three end together at 247M.
    #[test]
    fn a_socket_served_in_core_order_ends_with_its_last_core_alone() {
        let work = [82_400_000u64; 3];
        let rates = [0.55, 0.45, 0.0];
        let t = socket_time(&work, &rates, &BTreeMap::new(), Share::ByPlace).unwrap();
        let first = 82.4e6 / 0.55;
        let second = first + (82.4e6 - 0.45 * first) / 0.55;
        let third = second + (82.4e6 - 0.45 * (second - first)) / 0.55;
        assert!((t - third).abs() < 1.0, "{t} against {third}");
        let alike = socket_time(&work, &rates, &BTreeMap::new(), Share::Alike).unwrap();
        assert!((alike - 3.0 * 82.4e6).abs() < 1.0, "{alike}");
        let r = stretch(&work, &rates, &BTreeMap::new(), 3).unwrap();
        assert!((r - third / alike).abs() < 1e-9);
        assert!(r > 1.2 && r < 1.3, "{r}");
    }

    /// A first core that alone takes what the socket gives (a small PageRank: 0.90, 0.06,
    /// 0.03) loses nothing by place: the socket runs at nearly its rate either way.
    #[test]
    fn a_first_core_that_fills_its_socket_alone_costs_little_by_place() {
        let r = stretch(&[500, 500, 500], &[0.9, 0.06, 0.03], &BTreeMap::new(), 3).unwrap();
        assert!(r > 1.0 && r < 1.06, "{r}");
    }

    /// Cores that share a socket alike and have the same work finish together either way;
    /// the sockets' imbalance is in both times and not in their ratio.
    #[test]
    fn even_rates_and_the_sockets_imbalance_are_not_scaled() {
        let r = stretch(&[1000; 6], &[0.3; 6], &BTreeMap::new(), 3).unwrap();
        assert!((r - 1.0).abs() < 1e-12, "{r}");
        let r = stretch(&[2000, 2000, 1000, 1000], &[0.5; 4], &BTreeMap::new(), 2).unwrap();
        assert!((r - 1.0).abs() < 1e-12, "{r}");
    }

    /// A socket with work and no rate for any of it cannot be timed.
    #[test]
    fn a_socket_with_no_rate_cannot_be_timed() {
        assert_eq!(stretch(&[10, 10], &[0.0, 0.0], &BTreeMap::new(), 2), None);
        assert_eq!(
            socket_time(&[10, 10], &[0.0, 0.5], &BTreeMap::new(), Share::ByPlace),
            None
        );
    }

    /// A socket whose first core takes most of it because a resource the cores share
    /// limits them (SparseWeaver's GCN layer: 0.34, 0.03, 0.01 with all three at work): a
    /// probe finds the last core alone, or the last two, running at the socket's rate, so
    /// the cores finishing one after another cost nothing. Without the probes by place
    /// gives the last core alone the first's 0.34 and the socket 5% longer.
    #[test]
    fn probed_cores_at_the_sockets_rate_are_not_scaled() {
        let (work, rates) = ([1000u64; 3], [0.34, 0.03, 0.01]);
        let r = stretch(&work, &rates, &BTreeMap::new(), 3).unwrap();
        assert!(r > 1.02, "{r}");
        let fewer = BTreeMap::from([(1, vec![0.0, 0.0, 0.38]), (2, vec![0.0, 0.35, 0.03])]);
        let r = stretch(&work, &rates, &fewer, 3).unwrap();
        assert!((r - 1.0).abs() < 0.01, "{r}");
    }

    /// Each socket takes its own cores' probed rates: a second socket whose lone core
    /// runs slower ends later, and the launch with it.
    #[test]
    fn each_socket_takes_its_own_probed_rates() {
        let (work, rates) = ([1000u64; 4], [0.5, 0.0, 0.5, 0.0]);
        let even = BTreeMap::from([(1, vec![0.0, 0.5, 0.0, 0.5])]);
        let slow = BTreeMap::from([(1, vec![0.0, 0.5, 0.0, 0.25])]);
        let t = stretch(&work, &rates, &even, 2).unwrap();
        let s = stretch(&work, &rates, &slow, 2).unwrap();
        // By place 4,000 cycles (each core 2,000 alone); alike 4,000: the cores share 0.5.
        assert!((t - 1.0).abs() < 1e-9, "{t}");
        // The second socket's last core at 0.25: 2,000 + 4,000 cycles.
        assert!((s - 1.5).abs() < 1e-9, "{s}");
    }
}
