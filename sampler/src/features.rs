//! A unit's architecture-free features, from the functional pass, and the clusters of
//! similar launches they make (SimPoint's grouping, kept deterministic and online).
//!
//! The features: the unit's basic-block vector, its warp instructions by PC divided by its
//! warp instructions (the L1 distance of two such vectors is that of SimPoint's vectors by
//! basic block weighted by the block's instructions: every PC of a block counts alike),
//! and its active lanes (thread instructions per warp instruction, as a fraction of the
//! warp). Nothing comes from the timing model.

use std::collections::BTreeMap;

use wsim_sim::Machine;

/// A unit's features.
#[derive(Clone)]
pub(crate) struct Features {
    /// (PC index, share of the unit's warp instructions), by index, the nonzero ones.
    bbv: Vec<(u32, f64)>,
    /// Thread instructions per warp instruction, over the warp's width (0 without any).
    lanes: f64,
}

impl Features {
    /// How unlike two units are: the L1 distance of their basic-block vectors (0 to 2)
    /// plus the difference of their active lanes (0 to 1).
    pub fn distance(&self, other: &Features) -> f64 {
        let (mut a, mut b) = (self.bbv.iter().peekable(), other.bbv.iter().peekable());
        let mut d = 0.0;
        loop {
            match (a.peek(), b.peek()) {
                (Some(&&(i, x)), Some(&&(j, y))) if i == j => {
                    d += (x - y).abs();
                    a.next();
                    b.next();
                }
                (Some(&&(i, x)), Some(&&(j, _))) if i < j => {
                    d += x;
                    a.next();
                }
                (Some(&&(_, x)), None) => {
                    d += x;
                    a.next();
                }
                (_, Some(&&(_, y))) => {
                    d += y;
                    b.next();
                }
                (None, None) => break,
            }
        }
        d + (self.lanes - other.lanes).abs()
    }
}

/// The functional run's instructions by PC at the last unit's end, to difference.
pub(crate) struct Counter {
    before: Vec<(u64, u64)>,
    now: Vec<(u64, u64)>,
    width: f64,
}

impl Counter {
    /// Counting `machine`'s instructions by PC from now on.
    pub fn new(machine: &mut Machine) -> Counter {
        machine.count_pcs();
        Counter {
            before: Vec::new(),
            now: Vec::new(),
            width: f64::from(machine.config().gpu.threads_per_warp),
        }
    }

    /// The features of the unit that ends now (since the last call).
    pub fn unit(&mut self, machine: &Machine) -> Features {
        machine.counted_pcs(&mut self.now);
        self.before.resize(self.now.len(), (0, 0));
        let (mut warp, mut thread) = (0u64, 0u64);
        let mut bbv = Vec::new();
        for (k, (now, before)) in self.now.iter().zip(&self.before).enumerate() {
            let n = now.0 - before.0;
            if n > 0 {
                bbv.push((k as u32, n as f64));
                warp += n;
                thread += now.1 - before.1;
            }
        }
        std::mem::swap(&mut self.before, &mut self.now);
        let total = warp.max(1) as f64;
        for (_, x) in &mut bbv {
            *x /= total;
        }
        Features {
            bbv,
            lanes: thread as f64 / total / self.width,
        }
    }
}

/// The clusters of each kernel's launches: a launch joins the first cluster, in the order
/// they were made, whose first launch is within `threshold` of it, else starts one. Online
/// and in unit order, so the clusters do not depend on the threads.
pub(crate) struct Clusters {
    threshold: f64,
    /// Per kernel, each cluster's first launch (its index among the run's launches) and
    /// features.
    kernels: BTreeMap<String, Vec<(usize, Features)>>,
    /// Per kernel followed ([`Clusters::follow`]), its last launch's cluster and features.
    last: BTreeMap<String, (usize, Features)>,
}

impl Clusters {
    pub fn new(threshold: f64) -> Clusters {
        Clusters {
            threshold,
            kernels: BTreeMap::new(),
            last: BTreeMap::new(),
        }
    }

    /// The cluster of `kernel`'s launch `launch` with `features`, following a drift: its
    /// kernel's last launch's when within the threshold of that launch's features, else as
    /// [`Clusters::join`] has it. Its first launch's index, and whether it is the kernel's
    /// first cluster.
    pub fn follow(&mut self, kernel: &str, launch: usize, features: Features) -> (usize, bool) {
        let cluster = match self.last.get(kernel) {
            Some((last, seen)) if seen.distance(&features) <= self.threshold => *last,
            _ => self.join(kernel, launch, features.clone()),
        };
        self.last.insert(kernel.to_string(), (cluster, features));
        (cluster, self.kernels[kernel][0].0 == cluster)
    }

    /// The cluster of `kernel`'s launch `launch` with `features`: its first launch's index.
    pub fn join(&mut self, kernel: &str, launch: usize, features: Features) -> usize {
        let clusters = self.kernels.entry(kernel.to_string()).or_default();
        match (clusters.iter()).find(|(_, first)| first.distance(&features) <= self.threshold) {
            Some(&(first, _)) => first,
            None => {
                clusters.push((launch, features));
                launch
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn features(bbv: &[(u32, f64)], lanes: f64) -> Features {
        Features {
            bbv: bbv.to_vec(),
            lanes,
        }
    }

    #[test]
    fn the_distance_is_l1_over_the_union_of_pcs_plus_the_lanes() {
        let a = features(&[(0, 0.5), (2, 0.5)], 1.0);
        let b = features(&[(1, 0.25), (2, 0.75)], 0.5);
        // |0.5| + |0.25| + |0.5 - 0.75| + |1.0 - 0.5|
        assert!((a.distance(&b) - 1.5).abs() < 1e-12);
        assert_eq!(a.distance(&a), 0.0);
        assert!((features(&[(3, 1.0)], 0.0).distance(&features(&[], 0.0)) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_launch_joins_the_first_cluster_within_the_threshold() {
        let mut c = Clusters::new(0.2);
        assert_eq!(c.join("k", 3, features(&[(0, 1.0)], 1.0)), 3);
        assert_eq!(c.join("k", 4, features(&[(0, 0.5), (1, 0.5)], 1.0)), 4);
        // 0.1 from the first cluster's first launch, 0.9 from the second's.
        assert_eq!(c.join("k", 5, features(&[(0, 0.95), (1, 0.05)], 1.0)), 3);
        // Another kernel's launch never joins k's clusters.
        assert_eq!(c.join("j", 6, features(&[(0, 1.0)], 1.0)), 6);
        // The lanes count: the same vector at half the lanes is 0.5 away.
        assert_eq!(c.join("k", 7, features(&[(0, 1.0)], 0.5)), 7);
    }

    /// A drift of 0.1-0.2 a launch stays in the first cluster, 0.4 past its first launch;
    /// a jump starts a cluster, and a launch back near the first joins it again.
    #[test]
    fn a_launch_near_its_kernels_last_follows_it_into_its_cluster() {
        let mut c = Clusters::new(0.25);
        let at = |x: f64| features(&[(0, 1.0 - x), (1, x)], 1.0);
        assert_eq!(c.follow("k", 1, at(0.0)), (1, true));
        assert_eq!(c.follow("k", 2, at(0.05)), (1, true));
        assert_eq!(c.follow("k", 3, at(0.1)), (1, true));
        assert_eq!(c.follow("k", 4, at(0.2)), (1, true));
        assert_eq!(c.follow("k", 5, at(0.9)), (5, false));
        assert_eq!(c.follow("k", 6, at(0.05)), (1, true));
    }
}
