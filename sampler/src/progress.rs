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
//! And a core's own warps do not either: greedy-then-oldest issues its oldest ready warp,
//! so a heavy warp that is old runs at its own pace from the start, and one that is young
//! is left with its work when the others end; a warp alone issues about one instruction in
//! ten cycles (its loads' latency), so a core with a few heavy warps left drains slowly
//! while what it cannot take passes to the socket's next core. The functional run's rounds
//! advance every warp alike, so which warps a copy has left at work follows lock step.
//! Measured on PageRank VM on R-MAT 14 (`--trace-instructions`, one iteration, 1.97M
//! cycles): each socket took about 1.0 a cycle, its first core's last warp ran alone at 0.1
//! from 0.6M to 1.35M while the next core took the other 0.9, and the socket ended at
//! 1.99M; and on the GCN layer's VM on UK at scale 0.01 the cores' last three warps ran at
//! 0.07-0.09 each.
//!
//! So a launch is timed by a fluid model of each socket, warp by warp: each warp's work
//! from the launch's head to its end (its body and tail units' warp instructions, the
//! functional run's: exact where the work is the warps' own, as a vertex's is in a
//! grid-stride loop), each core's rate measured with all at work (the kernel's measured
//! body units before the functional run's first core finished, core by core), with fewer of
//! the socket's cores at work the probes' (the kernel's first measured body unit runs a
//! copy of the detailed machine per k short of the socket's cores with only each socket's
//! last k at work, the others parked, `detail.rs`, `Machine::park`, past the unit's length
//! towards 1M warp instructions while the cores keep their warps: a launch's head is not
//! its body), a lone core's rate (the probe with one at work) and a lone warp's (per socket
//! up to eight copies, each with one of its warps at work, the others parked,
//! `Machine::park_warp`, at the kernel's first two measured launch tails, where the warps
//! left are the heaviest as a core's draining warps are in detail, or at its head where no
//! tail gave one: their mean, and the estimate with each in turn gives the interval their
//! spread, `estimate.rs`), and each socket's cores' rates with the other sockets parked
//! (the socket that ends a launch runs its last part alone, with the L2 and its link to
//! itself: on PageRank VM on the CO stand-in at scale 0.1 a socket's last core ran at 0.44
//! a cycle with the other socket at work and 0.63 alone, and the model without them was
//! 21% high). A kernel not probed at every count of cores short of a socket's is not
//! timed. By place, a socket's k-th active core in core order is offered its k-th
//! core's rate (with fewer at work, the probe's for the k-th of that many; once the other
//! sockets have ended, the probe's with them parked) and what the cores before it left,
//! and takes at most a lone core's rate and a lone warp's per live warp; within a core
//! each live warp takes its place's share of the core's rate as the kernel's measured
//! full units' warps shared theirs, the oldest the largest (greedy-then-oldest), and what
//! the ended warps' shares leave goes to the oldest first, each warp at most a lone warp's
//! rate. The same rates time each unit as a copy runs it: its instructions at
//! the rate by place with the warps that issued in it at work (a unit with a few heavy
//! warps left takes many times its instructions' share). The launch's units (body and tail)
//! are weighed by those times and scaled by the time by place over the units' times
//! together, so that together they are the time by place; the kernel's measured full units'
//! cycles over their weights turn that into cycles (`estimate.rs`, `Scaling::full`: a later
//! unit's copy drains as lock step does, not as detail does, so it does not calibrate; a
//! launch's ramp, `RAMP`, runs at another ratio and is calibrated by its own full units
//! where measured, `lib.rs`).
//! Without a lone warp's rate (every probed warp ran out of work first) a warp takes what
//! its core is given, the cores' model of before. The probes tell a core at its own limit
//! from one a shared resource held: on the GCN layer's SparseWeaver at the paper's size
//! SpMM's first core ran at 0.34 of its socket's 0.39 with all at work, and the last core
//! alone at 0.43 (the L1 and its MSHRs its own); VM by weight's GraphSum first core ran at
//! 0.55 with all at work and its last core alone at 0.55, its own limit. The sockets'
//! imbalance is in both times, and the launch ends with its slowest socket. Assumptions: a
//! core's rate depends only on its place among its socket's active cores, how many they are,
//! its live warps and whether the other sockets are at work (the L2 and DRAM they share
//! modelled only so: with more than two sockets, one whose others have partly ended takes
//! its rates with them all at work; one probe of the cores, early in the kernel's first
//! launch, stands for all its launches, a few lone warps' mean for every draining warp,
//! the shares of a core with all its warps at work for one with fewer, and a warp's age
//! its place in its core), and a warp's work is the functional run's (where warps take
//! work from a shared counter, detail gives the faster cores more of it). With round robin
//! the cores share a socket alike, as lock step has them, and nothing is scaled (the warps'
//! own drain under round robin is not modelled).

use std::collections::{BTreeMap, BTreeSet};

use wsim_sim::config::Arbiter;
use wsim_sim::stats::{CoreProbe, LaunchProgress};
use wsim_sim::Machine;

use crate::detail::Measured;

/// The launches cut into units: per launch its kernel and each of its body units' and its
/// tail's warp instructions warp by warp (core by core, each core's by warp), as the
/// functional run counted them.
pub(crate) struct Bodies {
    /// Cores per socket: those that share an L1 and its arbiter.
    socket: usize,
    warps: usize,
    launches: BTreeMap<usize, Body>,
}

#[derive(Default)]
struct Body {
    kernel: String,
    /// (unit, each warp's instructions) of its body units, in order.
    units: Vec<(usize, Vec<u64>)>,
    /// Its tail: (unit, each warp's instructions).
    tail: Option<(usize, Vec<u64>)>,
}

/// Each core's instructions from each warp's (`warps` a core).
fn by_core(by_warp: &[u64], warps: usize) -> Vec<u64> {
    by_warp
        .chunks(warps.max(1))
        .map(|c| c.iter().sum())
        .collect()
}

impl Body {
    /// Its body units before the first core's last instruction in the launch: those whose
    /// copies had every core at work to their end, so that their measured rates are each
    /// core's with all at work (after it the functional run's own cores finish, and the
    /// units measure that).
    fn full_units(&self, warps: usize) -> impl Iterator<Item = &(usize, Vec<u64>)> {
        let units: Vec<Vec<u64>> = (self.units.iter().map(|(_, n)| n))
            .chain(self.tail.iter().map(|(_, n)| n))
            .map(|n| by_core(n, warps))
            .collect();
        // Per core, the last of the launch's units (the tail = units.len()) it issued in.
        let cores = units.first().map_or(0, Vec::len);
        let last = (0..cores).map(|c| {
            (units.iter().map(|n| n[c]).enumerate())
                .rfind(|&(_, n)| n > 0)
                .map_or(0, |(k, _)| k)
        });
        let first_done = last.min().unwrap_or(0);
        self.units.iter().take(first_done)
    }

    /// Each warp's instructions in its body and tail.
    fn work(&self) -> Vec<u64> {
        let mut work: Vec<u64> = Vec::new();
        for (_, by_warp) in self.units.iter().chain(&self.tail) {
            work.resize(work.len().max(by_warp.len()), 0);
            for (w, n) in work.iter_mut().zip(by_warp) {
                *w += n;
            }
        }
        work
    }
}

/// What the model scales: each launch's ratio (with the model's inputs) and kernel, the
/// launch of each unit it scales, each such unit's weight, and the units that calibrate
/// it.
#[derive(Default)]
pub(crate) struct Scaling {
    pub launches: BTreeMap<usize, LaunchProgress>,
    /// Each scaled launch's kernel.
    pub kernels: BTreeMap<usize, String>,
    pub units: BTreeMap<usize, usize>,
    /// Each scaled unit's warp instructions weighted by how much slower than the launch
    /// with every core at work the model has a copy of the functional run run it (a unit
    /// with all the warps it had at work weighs its instructions; one with a few heavy
    /// warps left, many times them): with the launch's ratio, its share of the launch's
    /// time by place in cycles at every core's rate with all at work.
    pub weights: BTreeMap<usize, f64>,
    /// The units whose copies had every core at work to their end (`full_units`), each
    /// with its kernel: the model's rates are theirs, and their measured cycles over their
    /// weights turn the model's time into cycles. A later unit's copy drains in the
    /// functional run's lock step, which detail does not: measured on PageRank VM on UK at the paper's
    /// size (one iteration), the launch's last body unit's copy ran at 0.95 instructions
    /// a cycle where the model had it at 1.68 and the tail's at 0.39 where it had 2.0,
    /// while the time by place ended its 256 warps 0.54M cycles from an instruction
    /// trace's ends for them on average (at most 3.4M) and the launch at 89.12M cycles
    /// against 89.11M.
    pub full: BTreeMap<usize, String>,
    /// The probes, each with its kernel and rates.
    pub probes: Vec<CoreProbe>,
}

impl Scaling {
    /// Unit `unit`'s ratio, if it is scaled.
    pub fn ratio(&self, unit: usize) -> Option<f64> {
        self.units.get(&unit).map(|l| self.launches[l].ratio)
    }

    /// The kernel of scaled unit `unit`'s launch: its full units calibrate it.
    pub fn kernel(&self, unit: usize) -> Option<&str> {
        self.units.get(&unit).map(|l| self.kernels[l].as_str())
    }

    /// Scaled unit `unit`'s launch's ratio with each probed lone warp's rates in turn
    /// (`LaunchProgress::lone_warp_ratios`; empty when not scaled or fewer than two were
    /// probed).
    pub fn lone_warp_ratios(&self, unit: usize) -> &[f64] {
        (self.units.get(&unit)).map_or(&[], |l| &self.launches[l].lone_warp_ratios)
    }
}

/// A kernel's probes: every core's rate by how many of each socket's cores were at work,
/// with the other sockets at work (`fewer`) and parked (`alone`: each socket's probes
/// together, by how many of its cores were at work), and each socket's lone warps' rates,
/// those probed at its first body unit and those at its launch tails.
#[derive(Default)]
struct Probed {
    fewer: BTreeMap<usize, Vec<f64>>,
    alone: BTreeMap<usize, Vec<f64>>,
    head_warps: Vec<Vec<f64>>,
    tail_warps: Vec<Vec<f64>>,
}

impl Probed {
    /// A probe of one socket's cores with the other sockets parked (`rates`: every core's,
    /// the other sockets' 0) into the rates with `active` of each socket at work alone.
    fn add_alone(&mut self, active: usize, rates: &[f64]) {
        let all = self
            .alone
            .entry(active)
            .or_insert_with(|| vec![0.0; rates.len()]);
        for (a, r) in all.iter_mut().zip(rates) {
            *a += r;
        }
    }

    /// A lone warp probe's rates (every core's, one socket's one core at work) into its
    /// socket's.
    fn add_lone_warp(&mut self, rates: &[f64], socket: usize, tail: bool) {
        let Some((s, rate)) = (rates.chunks(socket.max(1)))
            .map(|r| r.iter().sum::<f64>())
            .enumerate()
            .find(|&(_, r)| r > 0.0)
        else {
            return;
        };
        let warps = match tail {
            true => &mut self.tail_warps,
            false => &mut self.head_warps,
        };
        warps.resize(warps.len().max(s + 1), Vec::new());
        warps[s].push(rate);
    }

    /// Each socket's lone warps' rates: its tails', or where they gave none its head's.
    /// The warps that drain a core in detail are those left with the most work, at the end
    /// of it, and so are the warps at work where the functional run's launch ends: measured
    /// (stop 67's traces, docs/ARCHITECTURE.md item 10), a lone warp from a tail ran at 0.104
    /// a cycle on PageRank VM on UK at scale 0.1 and 0.103-0.104 on HW at 0.01 where their
    /// drains' warps ran at 0.10, and at 0.078-0.093 on UK at the paper's size where the
    /// drain's ran at 0.083-0.093; the head's lone warps at 0.07 and 0.074.
    fn lone_warps(&self, sockets: usize) -> Vec<Vec<f64>> {
        (0..sockets)
            .map(|s| {
                (self.tail_warps.get(s).filter(|r| !r.is_empty()))
                    .or_else(|| self.head_warps.get(s))
                    .cloned()
                    .unwrap_or_default()
            })
            .collect()
    }
}

/// Each socket's mean over its lone warps' rates (0 where none were probed).
fn mean_by_socket(by_socket: &[Vec<f64>]) -> Vec<f64> {
    (by_socket.iter())
        .map(|r| r.iter().sum::<f64>() / r.len().max(1) as f64)
        .collect()
}

/// The lone warps' rates taken in turn: the i-th set has each socket's i-th (its rates
/// again from its first where it has fewer), as many sets as the most a socket has.
fn in_turn(by_socket: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let most = by_socket.iter().map(Vec::len).max().unwrap_or(0);
    (0..most)
        .map(|i| {
            (by_socket.iter())
                .map(|r| r.get(i % r.len().max(1)).copied().unwrap_or(0.0))
                .collect()
        })
        .collect()
}

/// A kernel's measured full units pooled: their cycles, each core's instructions, and per
/// socket each warp's instructions by its place in its core (those of cores whose warps
/// all issued in the unit).
#[derive(Default)]
struct Pooled {
    cycles: u64,
    by_core: Vec<u64>,
    by_place: Vec<Vec<u64>>,
}

impl Pooled {
    fn add(&mut self, m: &Measured, warps: usize, socket: usize) {
        let by_core = by_core(&m.by_warp, warps);
        self.by_core.resize(by_core.len(), 0);
        for (p, n) in self.by_core.iter_mut().zip(by_core) {
            *p += n;
        }
        let sockets = m.by_warp.chunks(warps * socket).count();
        self.by_place.resize(sockets, vec![0; warps]);
        for (s, cores) in m.by_warp.chunks(warps * socket).enumerate() {
            for core in cores.chunks(warps).filter(|c| c.iter().all(|&n| n > 0)) {
                for (p, n) in self.by_place[s].iter_mut().zip(core) {
                    *p += n;
                }
            }
        }
        self.cycles += m.cycles;
    }

    /// Each socket's shares of a core's rate, the largest first: its cores' warps'
    /// instructions pooled by place over their total, sorted (empty where no core had
    /// every warp at work). Sorted, since greedy-then-oldest gives the older warps more
    /// and a warp's own work varies: on PageRank VM on HW at the paper's size a loaded
    /// core's oldest nineteen warps ran at 0.030-0.045 a cycle and its youngest thirteen
    /// at 0.009-0.030, each ordered by age about so.
    fn warp_shares(&self) -> Vec<Vec<f64>> {
        (self.by_place.iter())
            .map(|by_place| {
                let total: u64 = by_place.iter().sum();
                let mut shares: Vec<f64> = match total {
                    0 => Vec::new(),
                    _ => by_place.iter().map(|&n| n as f64 / total as f64).collect(),
                };
                shares.sort_by(|a, b| b.total_cmp(a));
                shares
            })
            .collect()
    }
}

impl Bodies {
    /// The bodies of `machine`'s launches, when its sockets' cores are served in core order
    /// (the model's premise; otherwise nothing is scaled).
    pub fn new(machine: &Machine) -> Option<Bodies> {
        let gpu = &machine.config().gpu;
        (gpu.arbiter == Arbiter::CoreOrder && gpu.cores_per_socket > 1).then(|| Bodies {
            socket: gpu.cores_per_socket as usize,
            warps: gpu.warps_per_core as usize,
            launches: BTreeMap::new(),
        })
    }

    /// Unit `unit` inside launch `launch` of `kernel`, whose warps issued `by_warp`: a body
    /// unit, or with `tail` the launch's last.
    pub fn add(&mut self, unit: usize, launch: usize, kernel: &str, by_warp: Vec<u64>, tail: bool) {
        let body = self.launches.entry(launch).or_default();
        body.kernel = kernel.to_string();
        if tail {
            body.tail = Some((unit, by_warp));
        } else {
            body.units.push((unit, by_warp));
        }
    }

    /// The kernel (its cluster's group) of every body unit and tail, of every launch: the
    /// kernel whose probes and calibration time it.
    pub fn kernels(&self) -> BTreeMap<usize, String> {
        (self.launches.values())
            .flat_map(|body| {
                let units = body.units.iter().chain(&body.tail);
                units.map(|(u, _)| (*u, body.kernel.clone()))
            })
            .collect()
    }

    /// The body units (tails apart) whose copies do not have every core at work to their
    /// end, of every launch: those that cannot calibrate the model (`Scaling::full`).
    pub fn unfull_units(&self) -> BTreeSet<usize> {
        let full = self.full_units();
        (self.launches.values())
            .flat_map(|body| body.units.iter().map(|(u, _)| *u))
            .filter(|u| !full.contains(u))
            .collect()
    }

    /// The body units whose copies have every core at work to their end, of every launch:
    /// those that can calibrate the model.
    pub fn full_units(&self) -> BTreeSet<usize> {
        (self.launches.values())
            .flat_map(|body| body.full_units(self.warps).map(|(u, _)| *u))
            .collect()
    }

    /// Each launch's ratio, by place over its units' times in the copies, the units it
    /// scales and their weights, from
    /// `measured` (the measured units, a warm-up check's left out). A launch of a kernel
    /// none of whose full units was measured, or with a socket whose first core was
    /// measured idle, is not scaled.
    pub fn scaling<'a>(&self, measured: impl IntoIterator<Item = &'a Measured>) -> Scaling {
        let warps = self.warps;
        // The launch of each full unit, and the kernel of each body unit and tail (whether
        // a tail).
        let full: BTreeMap<usize, usize> = (self.launches.iter())
            .flat_map(|(&l, body)| body.full_units(warps).map(move |(u, _)| (*u, l)))
            .collect();
        let kernel_of: BTreeMap<usize, (&str, bool)> = (self.launches.values())
            .flat_map(|body| {
                let units = body.units.iter().map(|(u, _)| (*u, false));
                let tail = body.tail.iter().map(|(u, _)| (*u, true));
                (units.chain(tail)).map(|(u, tail)| (u, (body.kernel.as_str(), tail)))
            })
            .collect();
        // Each kernel's measured full units pooled, and its probes' rates.
        let mut by_kernel: BTreeMap<&str, Pooled> = BTreeMap::new();
        let mut probed: BTreeMap<&str, Probed> = BTreeMap::new();
        let mut probes = Vec::new();
        for m in measured {
            if let Some(&(kernel, tail)) = kernel_of.get(&m.unit).filter(|_| !m.probes.is_empty()) {
                let rates = probed.entry(kernel).or_default();
                for p in &m.probes {
                    let at: Vec<f64> = (p.by_core.iter())
                        .map(|&n| n as f64 / p.cycles as f64)
                        .collect();
                    match (p.lone_warp, p.alone) {
                        (true, _) => rates.add_lone_warp(&at, self.socket, tail),
                        (false, true) => rates.add_alone(p.active, &at),
                        (false, false) => _ = rates.fewer.insert(p.active, at.clone()),
                    }
                    probes.push(CoreProbe {
                        kernel: kernel.to_string(),
                        unit: m.unit as u32,
                        active: p.active as u32,
                        alone: p.alone,
                        lone_warp: p.lone_warp,
                        cycles: p.cycles,
                        rates: at,
                    });
                }
            }
            let Some(launch) = full.get(&m.unit) else {
                continue;
            };
            let kernel = self.launches[launch].kernel.as_str();
            (by_kernel.entry(kernel).or_default()).add(m, warps, self.socket);
        }
        let mut scaling = Scaling {
            probes,
            full: (full.iter())
                .map(|(&u, l)| (u, self.launches[l].kernel.clone()))
                .collect(),
            ..Scaling::default()
        };
        for (&launch, body) in &self.launches {
            let Some(pooled) = by_kernel.get(body.kernel.as_str()) else {
                continue;
            };
            // A kernel whose sockets were not probed with every count of cores short of
            // theirs is not timed: the model would give a socket's first cores left at
            // work their rates with all at work, the contention gone. Measured on Table
            // 4.5's quick PageRank VM on UK (units of 5k): its hub vertex's two cores,
            // the first of their socket, ran on for most of each launch after the last
            // cores, with 1.7k instructions each, had ended, so the probe of the last core
            // alone ran out of work and was dropped; the model had the two at their rates
            // with all at work (0.125 a cycle), scaled the launches by 4.9 and the
            // estimate came out +331% (+-2%).
            let Some(probed) = (probed.get(body.kernel.as_str()))
                .filter(|p| (1..self.socket).all(|a| p.fewer.contains_key(&a)))
            else {
                continue;
            };
            let rates: Vec<f64> = (pooled.by_core.iter())
                .map(|&n| n as f64 / pooled.cycles as f64)
                .collect();
            let warp_shares = pooled.warp_shares();
            // Each socket's lone warp's rate: its probes' mean.
            let by_socket = probed.lone_warps(rates.len().div_ceil(self.socket));
            let lone_warp = mean_by_socket(&by_socket);
            // Each warp's work to the launch's end: what decides which core ends it.
            let mut work = body.work();
            work.resize(rates.len() * warps, 0);
            let model = Model {
                rates: &rates,
                fewer: &probed.fewer,
                alone: &probed.alone,
                lone_warp: &lone_warp,
                warp_shares: &warp_shares,
                socket: self.socket,
                warps,
            };
            let units: Vec<&(usize, Vec<u64>)> = body.units.iter().chain(&body.tail).collect();
            let Some((ratio, times)) = model.ratio(&work, units.iter().map(|(_, n)| &n[..])) else {
                continue;
            };
            // The same copies' time under each probed lone warp's rates instead of their
            // mean: the launch's time by place with its sockets' draining warps as slow or
            // fast as that warp.
            let copies: f64 = times.iter().sum();
            let lone_warps = in_turn(&by_socket);
            let lone_warp_ratios = match lone_warps.len() {
                0 | 1 => Vec::new(),
                _ => (lone_warps.iter())
                    .filter_map(|lone_warp| Model { lone_warp, ..model }.by_place(&work))
                    .map(|by_place| by_place / copies)
                    .collect(),
            };
            let all_at_work: f64 = rates.iter().sum();
            for (&(unit, _), time) in units.iter().zip(times) {
                scaling.units.insert(*unit, launch);
                scaling.weights.insert(*unit, time * all_at_work);
            }
            (scaling.kernels).insert(launch, body.kernel.clone());
            let record = LaunchProgress {
                launch: launch as u32,
                rates,
                work: by_core(&work, warps),
                lone_warp,
                warp_shares,
                ratio,
                lone_warp_ratios,
            };
            scaling.launches.insert(launch, record);
        }
        scaling
    }
}

/// The model's rates: each core's with all at work (`rates`), with fewer at work the
/// probes' (`fewer`: by how many of each socket's cores were at work, every core's rate,
/// the parked ones' 0), with the other sockets ended the probes' with them parked
/// (`alone`, the same way; where not probed, as with them at work), each socket's lone
/// warp's (`lone_warp`, empty when not probed:
/// a warp is then held only by its core) and how a core's warps share it with all at work
/// (`warp_shares`: each socket's shares, the largest first; empty: oldest first).
#[derive(Clone, Copy)]
struct Model<'a> {
    rates: &'a [f64],
    fewer: &'a BTreeMap<usize, Vec<f64>>,
    alone: &'a BTreeMap<usize, Vec<f64>>,
    lone_warp: &'a [f64],
    warp_shares: &'a [Vec<f64>],
    socket: usize,
    warps: usize,
}

/// One socket's rates, from the model's.
struct Socket<'a> {
    /// Each core's with all at work, in core order.
    rates: &'a [f64],
    /// The probed cores', the last `active` of the socket, by `active`.
    fewer: BTreeMap<usize, &'a [f64]>,
    /// The same with the other sockets parked (`active` up to all of its cores).
    alone: BTreeMap<usize, &'a [f64]>,
    /// A warp alone (infinite when not probed).
    warp: f64,
    /// A core's shares of its rate, by its live warps' age, the oldest first (empty when
    /// not measured: the oldest takes what it can first).
    shares: &'a [f64],
    /// A core alone: the most a core takes of what those before it leave (infinite when
    /// not probed), with the other sockets at work and parked.
    core: f64,
    alone_core: f64,
}

impl<'a> Model<'a> {
    /// The time by place of a launch whose warps' work is `work` (each warp's
    /// instructions, core by core): its slowest socket's. None when the model cannot tell.
    fn by_place(&self, work: &[u64]) -> Option<f64> {
        if work.len() != self.rates.len() * self.warps || work.iter().all(|&w| w == 0) {
            return None;
        }
        time(&self.sockets(), work, self.warps)
    }

    fn sockets(&self) -> Vec<Socket<'a>> {
        // Socket `s`'s last `a` cores' rates in each probe of `probes`, by `a`.
        let mine =
            |probes: &'a BTreeMap<usize, Vec<f64>>, s: usize| -> BTreeMap<usize, &'a [f64]> {
                (probes.iter())
                    .filter_map(|(&a, r)| {
                        let mine = r.chunks(self.socket).nth(s)?;
                        Some((a, mine.get(self.socket.checked_sub(a)?..)?))
                    })
                    .collect()
            };
        let lone_core =
            |probed: &BTreeMap<usize, &[f64]>| probed.get(&1).map_or(f64::INFINITY, |r| r[0]);
        (self.rates.chunks(self.socket).enumerate())
            .map(|(s, rates)| {
                let (fewer, alone) = (mine(self.fewer, s), mine(self.alone, s));
                Socket {
                    rates,
                    core: lone_core(&fewer),
                    alone_core: lone_core(&alone),
                    fewer,
                    alone,
                    warp: (self.lone_warp.get(s).copied())
                        .filter(|&r| r > 0.0)
                        .unwrap_or(f64::INFINITY),
                    shares: self.warp_shares.get(s).map_or(&[], Vec::as_slice),
                }
            })
            .collect()
    }

    /// For a launch whose warps' work is `work` (each warp's instructions, core by core),
    /// cut into `units` (each unit's instructions by warp, in order): the time its sockets
    /// take by place over the time copies of the functional run take for its units, and
    /// that time of each unit (its instructions at the rate by place with the warps that
    /// issued in it at work: a copy has every warp at the same point, so which warps are
    /// left follows the functional run's lock step). None when the model cannot tell (no
    /// rate, or a socket left with work and no rate for it).
    fn ratio<'u>(
        &self,
        work: &[u64],
        units: impl Iterator<Item = &'u [u64]>,
    ) -> Option<(f64, Vec<f64>)> {
        let per_socket = self.socket * self.warps;
        let by_place = self.by_place(work)?;
        let sockets = self.sockets();
        let mut times = Vec::new();
        for unit in units {
            let busy: Vec<bool> = (unit.chunks(per_socket))
                .map(|s| s.iter().any(|&n| n > 0))
                .collect();
            let rate: f64 = (unit.chunks(per_socket).zip(&sockets).enumerate())
                .map(|(s, (unit, socket))| {
                    let live: Vec<usize> = (unit.chunks(self.warps))
                        .map(|core| core.iter().filter(|&&n| n > 0).count())
                        .collect();
                    socket
                        .core_rates(&live, alone(&busy, s))
                        .iter()
                        .sum::<f64>()
                })
                .sum();
            let instructions: u64 = unit.iter().sum();
            times.push(match instructions {
                0 => 0.0,
                _ if rate > 0.0 => instructions as f64 / rate,
                _ => return None,
            });
        }
        let copies: f64 = times.iter().sum();
        (copies > 0.0).then_some((by_place / copies, times))
    }
}

impl Socket<'_> {
    /// Each core's rate by place with `live[c]` warps of core `c` at work, `alone` when
    /// the other sockets have ended: its active cores in core order, the k-th at the k-th
    /// core's rate with all at work (with fewer at work, the probe's for the k-th of that
    /// many, as core order serves them; alone, the probe's with the others parked where
    /// one was made), at most a lone warp's rate per warp and a lone core's; what a core
    /// cannot take passes to the cores after it.
    fn core_rates(&self, live: &[usize], alone: bool) -> Vec<f64> {
        let active: Vec<usize> = (0..live.len()).filter(|&c| live[c] > 0).collect();
        let probed = (self.alone.get(&active.len())).filter(|_| alone);
        let places: &[f64] = match (probed, self.fewer.get(&active.len())) {
            (Some(alone), _) => alone,
            (None, Some(probed)) if active.len() < self.rates.len() => probed,
            _ => &self.rates[..active.len().min(self.rates.len())],
        };
        let core = match alone && self.alone_core.is_finite() {
            true => self.alone_core,
            false => self.core,
        };
        let mut rates = vec![0.0; live.len()];
        let mut passed = 0.0;
        for (&c, &place) in active.iter().zip(places) {
            let offered = place + passed;
            rates[c] = (offered.min(live[c] as f64 * self.warp)).min(core.max(place));
            passed = offered - rates[c];
        }
        rates
    }

    /// Each of a core's live warps' rates when it runs at `rate`, the warps by their places
    /// in the core (`places`, the oldest first): each its place's measured share of the rate
    /// (as with all at work), and what the ended warps' shares leave to the oldest first,
    /// each warp at most a lone warp's rate; without shares, the oldest first, each at most
    /// a lone warp's rate. Greedy-then-oldest keeps issuing the oldest ready warps: traced
    /// on PageRank VM on HW at scale 0.01 (`--trace-instructions --trace-cores 1`), a
    /// core's light warps ended in the order of their places, from 1.27M to 2.88M cycles,
    /// and its young heavy warp (place 30) issued almost nothing until 2.75M, then ran
    /// alone to 5.07M, where the warps sharing the rate by the shares of the live warps'
    /// ranks ended at 1.60-2.03M and 4.38M (the socket's last core at 7.62M against the
    /// trace's 8.16M) and by their places at 1.48-2.86M and 4.89M (7.93M).
    fn split(&self, rate: f64, places: &[usize]) -> Vec<f64> {
        let mut at = vec![0.0; places.len()];
        let shares = (places.iter())
            .map(|&p| self.shares.get(p).copied())
            .collect::<Option<Vec<f64>>>()
            .unwrap_or_else(|| vec![0.0; places.len()]);
        for (a, s) in at.iter_mut().zip(&shares) {
            *a = (rate * s).min(self.warp);
        }
        let mut left = rate - at.iter().sum::<f64>();
        for a in &mut at {
            let more = left.min(self.warp - *a).max(0.0);
            *a += more;
            left -= more;
        }
        at
    }
}

/// Whether socket `s` is the only one of `busy` at work (the others ended). With more
/// than two sockets, one whose others have partly ended takes its rates with them at work
/// (an assumption: the probes park all or none of them).
fn alone(busy: &[bool], s: usize) -> bool {
    busy.iter().enumerate().all(|(o, &b)| o == s || !b)
}

/// The time `sockets` take by place for `work` (each warp's instructions, `warps` a core,
/// socket by socket): within a core its live warps take their places' shares of its rate,
/// the oldest what the ended ones leave (`Socket::split`); the socket left at work once the
/// others have ended takes its rates alone (`Socket::core_rates`). None when a socket is
/// left with work and no rate for it.
///
/// Measured on Table 4.5's PageRank VM on HW at the paper's size (one iteration,
/// `--trace-instructions` on the outer loop's branch, each warp's last, to the run's
/// first 1.0G cycles): a socket's cores' warps ended at 189-301M, 445-555M, 697-803M and
/// 917M to the launch's end at 1,024M. Oldest first, each warp at most a lone warp's
/// 0.055 a cycle, ended them at 167-317M, 204-555M, 572-823M and 811-1,047M: the young
/// warps starved until the old ones ended, where in detail they ran all along, slower
/// (a loaded core's youngest at 0.009-0.015 a cycle). By the measured shares: 161-285M,
/// 433-542M, 694-799M, 901-1,031M. The sockets' ends: 1,031M and 1,032M (oldest first
/// 1,079M; each warp held at the fastest one's rate or its even share, 1,047M and
/// 1,060M). On UK, issue-bound, 88.4M (oldest first and the full run 89.1M); on a
/// small PageRank (R-MAT 14) 1.95M (oldest first 2.02M, the full run's launch 1.97M).
fn time(sockets: &[Socket], work: &[u64], warps: usize) -> Option<f64> {
    let mut left: Vec<f64> = work.iter().map(|&w| w as f64).collect();
    let mut at = vec![0.0; left.len()];
    // Each socket's first warp.
    let firsts: Vec<usize> = (sockets.iter())
        .scan(0, |first, s| {
            let at = *first;
            *first += s.rates.len() * warps;
            Some(at)
        })
        .collect();
    let mut time = 0.0;
    loop {
        // Per socket, per core, its live warps.
        let live: Vec<Vec<Vec<usize>>> = (sockets.iter().zip(&firsts))
            .map(|(socket, &first)| {
                (0..socket.rates.len())
                    .map(|c| {
                        (first + c * warps..first + (c + 1) * warps)
                            .filter(|&w| left[w] > 0.0)
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let busy: Vec<bool> = (live.iter())
            .map(|cores| cores.iter().any(|c| !c.is_empty()))
            .collect();
        if !busy.contains(&true) {
            return Some(time);
        }
        at.fill(0.0);
        for (s, (socket, cores)) in sockets.iter().zip(&live).enumerate() {
            let counts: Vec<usize> = cores.iter().map(Vec::len).collect();
            let rates = socket.core_rates(&counts, alone(&busy, s));
            for (rate, of_core) in rates.into_iter().zip(cores) {
                // Each live warp's place in its core (cores start at multiples of `warps`).
                let places: Vec<usize> = of_core.iter().map(|w| w % warps).collect();
                for (&w, r) in of_core.iter().zip(socket.split(rate, &places)) {
                    at[w] = r;
                }
            }
        }
        // The first live warp to finish at its rate.
        let step = (left.iter().zip(&at))
            .filter(|(_, &r)| r > 0.0)
            .map(|(l, r)| l / r)
            .fold(f64::INFINITY, f64::min);
        // A socket left with work and no rate for it.
        if !step.is_finite() {
            return None;
        }
        time += step;
        for (w, (l, r)) in left.iter_mut().zip(&at).enumerate() {
            *l -= r * step;
            // What rounding leaves of a warp that finished in this step.
            if *l <= 1e-9 * work[w] as f64 {
                *l = 0.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detail::Probe;

    /// The model's ratio with a warp a core and no lone warp's rate (`units` as copies of
    /// the functional run measure them; None: the whole work as one unit).
    fn ratio(
        work: &[u64],
        units: Option<&[&[u64]]>,
        rates: &[f64],
        fewer: &BTreeMap<usize, Vec<f64>>,
        socket: usize,
    ) -> Option<f64> {
        let model = Model {
            rates,
            fewer,
            alone: &BTreeMap::new(),
            lone_warp: &[],
            warp_shares: &[],
            socket,
            warps: 1,
        };
        let whole = [work];
        let units = units.unwrap_or(&whole);
        model.ratio(work, units.iter().copied()).map(|(r, _)| r)
    }

    fn socket<'a>(rates: &'a [f64], fewer: BTreeMap<usize, &'a [f64]>) -> Socket<'a> {
        let (warp, core) = (f64::INFINITY, f64::INFINITY);
        Socket {
            rates,
            fewer,
            warp,
            shares: &[],
            core,
            alone: BTreeMap::new(),
            alone_core: f64::INFINITY,
        }
    }

    /// The trace's GraphSum on one socket: 0.55, 0.45 and 0.00 with all three at work,
    /// 82.4M instructions each. By place the first finishes at 150M cycles, the second (then
    /// at 0.55) at 177M, the third (at 0.45, then alone at 0.55) at 305M; the copies, all
    /// three at work, run it at 1.0 a cycle, in 247M.
    #[test]
    fn a_socket_served_in_core_order_ends_with_its_last_core_alone() {
        let work = [82_400_000u64; 3];
        let rates = [0.55, 0.45, 0.0];
        let t = time(&[socket(&rates, BTreeMap::new())], &work, 1).unwrap();
        let first = 82.4e6 / 0.55;
        let second = first + (82.4e6 - 0.45 * first) / 0.55;
        let third = second + (82.4e6 - 0.45 * (second - first)) / 0.55;
        assert!((t - third).abs() < 1.0, "{t} against {third}");
        let r = ratio(&work, None, &rates, &BTreeMap::new(), 3).unwrap();
        assert!((r - third / (3.0 * 82.4e6)).abs() < 1e-9);
        assert!(r > 1.2 && r < 1.3, "{r}");
    }

    /// A first core that alone takes what the socket gives (a small PageRank: 0.90, 0.06,
    /// 0.03) loses nothing by place: the socket runs at nearly its rate either way.
    #[test]
    fn a_first_core_that_fills_its_socket_alone_costs_little_by_place() {
        let r = ratio(&[500; 3], None, &[0.9, 0.06, 0.03], &BTreeMap::new(), 3).unwrap();
        assert!(r > 1.0 && r < 1.06, "{r}");
    }

    /// Cores that share a socket alike and have the same work finish together either way;
    /// the sockets' imbalance is in both times and not in their ratio: the copies run the
    /// second socket's work alongside the first's, then the first's alone, as the
    /// functional run cut it.
    #[test]
    fn even_rates_and_the_sockets_imbalance_are_not_scaled() {
        let r = ratio(&[1000; 6], None, &[0.3; 6], &BTreeMap::new(), 3).unwrap();
        assert!((r - 1.0).abs() < 1e-12, "{r}");
        let units: [&[u64]; 2] = [&[1000; 4], &[1000, 1000, 0, 0]];
        let work = [2000, 2000, 1000, 1000];
        let r = ratio(&work, Some(&units), &[0.5; 4], &BTreeMap::new(), 2).unwrap();
        assert!((r - 1.0).abs() < 1e-12, "{r}");
    }

    /// A socket with work and no rate for any of it cannot be timed.
    #[test]
    fn a_socket_with_no_rate_cannot_be_timed() {
        assert_eq!(
            ratio(&[10, 10], None, &[0.0, 0.0], &BTreeMap::new(), 2),
            None
        );
        assert_eq!(
            time(&[socket(&[0.0, 0.5], BTreeMap::new())], &[10, 10], 1),
            None
        );
    }

    /// A socket whose first core takes most of it because a resource the cores share
    /// limits them (SparseWeaver's GCN layer: 0.34, 0.03, 0.01 with all three at work): a
    /// probe finds the last core alone, or the last two, running at the socket's rate, so
    /// the cores finishing one after another cost nothing. Without the probes by place
    /// gives the last core alone the first's 0.34 and the socket 4% longer.
    #[test]
    fn probed_cores_at_the_sockets_rate_are_not_scaled() {
        let (work, rates) = ([1000u64; 3], [0.34, 0.03, 0.01]);
        let r = ratio(&work, None, &rates, &BTreeMap::new(), 3).unwrap();
        assert!(r > 1.02, "{r}");
        let fewer = BTreeMap::from([(1, vec![0.0, 0.0, 0.38]), (2, vec![0.0, 0.35, 0.03])]);
        let r = ratio(&work, None, &rates, &fewer, 3).unwrap();
        assert!((r - 1.0).abs() < 0.01, "{r}");
    }

    /// The socket left at work once the others have ended takes its rates probed with them
    /// parked: two sockets of two cores, a warp each, 0.4 and 0.1 a cycle with all at work,
    /// the last core 0.5 with the other socket's at work, and with it parked 0.8, both
    /// cores 0.6 and 0.1.
    #[test]
    fn the_socket_left_at_work_takes_its_rates_alone() {
        let rates = [0.4, 0.1, 0.4, 0.1];
        let fewer = BTreeMap::from([(1, vec![0.0, 0.5, 0.0, 0.5])]);
        let alone = BTreeMap::from([(1, vec![0.0, 0.8, 0.0, 0.8]), (2, vec![0.6, 0.1, 0.6, 0.1])]);
        let model = |alone| Model {
            rates: &rates,
            fewer: &fewer,
            alone,
            lone_warp: &[],
            warp_shares: &[],
            socket: 2,
            warps: 1,
        };
        let (work, none) = ([200, 200, 1000, 1000], BTreeMap::new());
        let shared = model(&none).by_place(&work).unwrap();
        let apart = model(&alone).by_place(&work).unwrap();
        // The first socket's cores end at 500 and 800 cycles (its second then at 0.5),
        // when the second's have 320 and 80 done. With the rates shared throughout its
        // first core ends at 800 + 680 / 0.4 = 2,500 (its second has 250 done), the second
        // then at 0.5: 2,500 + 750 / 0.5.
        assert!((shared - 4000.0).abs() < 1e-6, "{shared}");
        // Alone from 800 cycles: its first core ends at 800 + 680 / 0.6, its second then
        // at 0.8.
        let first = 800.0 + 680.0 / 0.6;
        let second_done = 80.0 + 0.1 * (first - 800.0);
        let expect = first + (1000.0 - second_done) / 0.8;
        assert!((apart - expect).abs() < 1e-6, "{apart} against {expect}");
        assert!(apart < shared);
    }

    /// Each socket takes its own probed rates: a second socket whose lone core
    /// runs slower ends later, and the launch with it.
    #[test]
    fn each_socket_takes_its_own_probed_rates() {
        let (work, rates) = ([1000u64; 4], [0.5, 0.0, 0.5, 0.0]);
        let even = BTreeMap::from([(1, vec![0.0, 0.5, 0.0, 0.5])]);
        let slow = BTreeMap::from([(1, vec![0.0, 0.5, 0.0, 0.25])]);
        let t = ratio(&work, None, &rates, &even, 2).unwrap();
        let s = ratio(&work, None, &rates, &slow, 2).unwrap();
        // By place 4,000 cycles (each core 2,000 alone); the copies 4,000 at 1.0.
        assert!((t - 1.0).abs() < 1e-9, "{t}");
        // The second socket's last core at 0.25: 2,000 + 4,000 cycles.
        assert!((s - 1.5).abs() < 1e-9, "{s}");
    }

    /// A socket of two cores of two warps, the first core taking all of it with both at
    /// work (1.0, 0.0), either core alone 1.0, a warp alone 0.5. Core 0's warps have 1,000
    /// and 200 instructions, core 1's 300 each. By place core 0's heavy (oldest) warp runs
    /// at its own 0.5 from the start, and what its core cannot take passes to core 1: it
    /// ends the socket at 2,000 cycles. The functional run's lock step cuts it into 200 of
    /// each warp's (the copies: 1.0 a cycle, 800 cycles), 100 of three (core 0's one warp
    /// 0.5, core 1 the rest: 300 cycles), and the heavy warp's last 700 alone at 0.5 (1,400
    /// cycles, twice its instructions' weight).
    #[test]
    fn a_heavy_warp_runs_at_its_own_pace_by_place_and_drains_alone_in_the_copies() {
        let rates = [1.0, 0.0];
        let two_cores = Socket {
            rates: &rates,
            fewer: BTreeMap::from([(1, &[1.0][..])]),
            warp: 0.5,
            shares: &[],
            core: 1.0,
            alone: BTreeMap::new(),
            alone_core: f64::INFINITY,
        };
        let work = [1000, 200, 300, 300];
        let by_place = time(&[two_cores], &work, 2).unwrap();
        assert!((by_place - 2000.0).abs() < 1e-6, "{by_place}");
        let fewer = BTreeMap::from([(1, vec![0.0, 1.0])]);
        let model = Model {
            rates: &rates,
            fewer: &fewer,
            alone: &BTreeMap::new(),
            lone_warp: &[0.5],
            warp_shares: &[],
            socket: 2,
            warps: 2,
        };
        let units: [&[u64]; 3] = [&[200; 4], &[100, 0, 100, 100], &[700, 0, 0, 0]];
        let (r, times) = model.ratio(&work, units.into_iter()).unwrap();
        assert_eq!(times, vec![800.0, 300.0, 1400.0]);
        assert!((r - 0.8).abs() < 1e-9, "{r}");
    }

    /// Without a lone warp's rate a core's warps take what it is given in any split: by
    /// place the socket's time is the cores', as with a warp a core.
    #[test]
    fn unprobed_warps_leave_the_cores_model_as_it_was() {
        let socket = [socket(&[0.55, 0.45, 0.0], BTreeMap::new())];
        let by_warps = time(&socket, &[50, 30, 2, 40, 20, 20, 0, 60, 20], 3).unwrap();
        let by_cores = time(&socket, &[82, 80, 80], 1).unwrap();
        assert!(
            (by_warps - by_cores).abs() < 1e-9,
            "{by_warps} against {by_cores}"
        );
    }

    /// A core's warps share it as the measured units' did: one core at 1.0 a cycle, a
    /// warp alone at 0.8, two warps of 1,000 instructions. Unmeasured, oldest first: the old
    /// warp takes 0.8 and ends at 1,250 cycles, the young one (at 0.2 until then) at 1,250 +
    /// 750 / 0.8 = 2,187.5. Shared alike, both end at 2,000. By shares of 0.7 and 0.3 the
    /// old one ends at 1,000 / 0.7, the young one then alone (its 0.7 of 0.7: 1.0, held at
    /// 0.8) at 1,000 / 0.7 + (1,000 - 300 / 0.7) / 0.8; by 0.9 and 0.1 the old one is held
    /// at 0.8 and the young takes the rest, as oldest first.
    #[test]
    fn a_cores_warps_share_it_as_the_measured_units_did() {
        let rates = [1.0];
        let core = |shares| Socket {
            rates: &rates,
            fewer: BTreeMap::new(),
            warp: 0.8,
            shares,
            core: 1.0,
            alone: BTreeMap::new(),
            alone_core: f64::INFINITY,
        };
        let time = |shares| time(&[core(shares)], &[1000, 1000], 2).unwrap();
        let expect = [
            (&[][..], 2187.5),
            (&[0.5, 0.5][..], 2000.0),
            (&[0.7, 0.3][..], 1000.0 / 0.7 + (1000.0 - 300.0 / 0.7) / 0.8),
            (&[0.9, 0.1][..], 2187.5),
        ];
        for (shares, end) in expect {
            let t = time(shares);
            assert!((t - end).abs() < 1e-6, "{shares:?}: {t} against {end}");
        }
    }

    /// A core's live warps keep their places' shares, and what the ended warps' shares
    /// leave goes to the oldest first, each at most a lone warp's rate: shares 0.5, 0.3 and
    /// 0.2 of a core at 1.0 a cycle, its oldest warp ended.
    #[test]
    fn what_ended_warps_leave_goes_to_the_oldest_first() {
        let rates = [1.0];
        let core = |warp| Socket {
            rates: &rates,
            fewer: BTreeMap::new(),
            warp,
            shares: &[0.5, 0.3, 0.2],
            core: 1.0,
            alone: BTreeMap::new(),
            alone_core: f64::INFINITY,
        };
        let close = |a: Vec<f64>, b: [f64; 2]| a.iter().zip(b).all(|(a, b)| (a - b).abs() < 1e-12);
        assert!(close(core(1.0).split(1.0, &[1, 2]), [0.8, 0.2]));
        assert!(close(core(0.6).split(1.0, &[1, 2]), [0.6, 0.4]));
        // All at work: their shares, the oldest held at a lone warp's rate and the rest
        // to the next.
        let all = core(0.45).split(1.0, &[0, 1, 2]);
        assert!(
            (all[0] - 0.45).abs() < 1e-12 && (all[1] - 0.35).abs() < 1e-12,
            "{all:?}"
        );
    }

    /// A kernel is timed only with its sockets probed at every count of cores short of
    /// theirs: one socket of two cores, a warp each, the second core ending in the second
    /// body unit; its full unit (the first) measured, with the probe of the last core
    /// alone, and without it (dropped: its core ran out of work).
    #[test]
    fn a_kernel_probed_short_of_a_count_of_cores_is_not_timed() {
        let mut bodies = Bodies {
            socket: 2,
            warps: 1,
            launches: BTreeMap::new(),
        };
        for (unit, by_warp) in [(1, [100, 100]), (2, [100, 50]), (3, [100, 0])] {
            bodies.add(unit, 1, "k", by_warp.to_vec(), false);
        }
        bodies.add(4, 1, "k", vec![50, 0], true);
        let last_core = Probe {
            active: 1,
            alone: false,
            lone_warp: false,
            cycles: 100,
            by_core: vec![0, 80],
        };
        let measured = |probes: Vec<Probe>| Measured {
            unit: 1,
            cycles: 200,
            detailed_instructions: 200,
            check: false,
            by_warp: vec![100, 100],
            probes,
        };
        let probed = bodies.scaling([&measured(vec![last_core])]);
        assert!(probed.launches.contains_key(&1) && probed.ratio(1).is_some());
        let dropped = bodies.scaling([&measured(Vec::new())]);
        assert!(dropped.launches.is_empty() && dropped.ratio(1).is_none());
    }
}
