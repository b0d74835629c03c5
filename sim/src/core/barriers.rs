//! The core's local barriers (`vx_bar` with bit 31 of the id clear): the warps that have
//! arrived at each barrier in progress, and whom an arrival releases. Global barriers span
//! the cores and are the machine's; their release comes back through
//! [`super::Core::release_from_global_barrier`].

use std::collections::BTreeMap;

/// The local barriers in progress.
#[derive(Clone, Debug, Default)]
pub struct Barriers {
    /// id -> (count, the warps arrived as a bit per warp).
    waiting: BTreeMap<u32, (u32, u32)>,
}

impl Barriers {
    /// Warp `w` arrives at barrier `id` of `count` warps: the warps it releases, a bit per
    /// warp (0 while the barrier waits for more; the arriving warp among them otherwise).
    pub fn arrive(&mut self, w: usize, id: u32, count: u32) -> u32 {
        let (_, arrived) = self.waiting.entry(id).or_insert((count, 0));
        *arrived |= 1 << w;
        if arrived.count_ones() < count {
            return 0;
        }
        self.waiting.remove(&id).map_or(0, |(_, released)| released)
    }

    /// Barrier `id` in progress: its count and the warps arrived (a bit per warp).
    pub fn get(&self, id: u32) -> Option<(u32, u32)> {
        self.waiting.get(&id).copied()
    }

    /// The barriers in progress, by id: (id, count, warps arrived).
    pub fn iter(&self) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        (self.waiting.iter()).map(|(&id, &(count, arrived))| (id, count, arrived))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_arrival_releases_every_warp() {
        let mut b = Barriers::default();
        assert_eq!(b.arrive(0, 7, 3), 0);
        assert_eq!(b.arrive(2, 7, 3), 0);
        assert_eq!(b.get(7), Some((3, 0b101)));
        assert_eq!(b.arrive(1, 7, 3), 0b111);
        assert_eq!(b.get(7), None, "a released barrier starts again");
        assert_eq!(
            b.arrive(4, 1, 1),
            1 << 4,
            "a barrier of one warp does not wait"
        );
    }
}
