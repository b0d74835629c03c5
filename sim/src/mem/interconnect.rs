//! Links between levels of the memory hierarchy: a fixed latency and a bandwidth in
//! requests per cycle per direction, served first in, first out, so contention shows up as
//! queueing delay.
//!
//! A channel computes a request's arrival cycle when the request is sent, because FIFO
//! service makes it depend only on the requests sent before it: no per-cycle work.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::counts::{Merge, Phased};
use crate::limits::LATENCY;

/// One link (both directions use the same parameters).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LinkConfig {
    /// Cycles from leaving one end to arriving at the other.
    pub latency: u32,
    /// Requests that may leave per cycle, per direction.
    pub bandwidth: u32,
    /// Requests that may wait to leave, per direction, before the cores' L1 caches reject
    /// requests that need the link (`Reject::QueueFull`); and when a cache is at the far
    /// end, the credits of its input: requests on the link or waiting for the cache's tags
    /// (back-pressure, `mem/hierarchy/credits.rs`).
    pub queue: u32,
}

impl Default for LinkConfig {
    fn default() -> Self {
        LinkConfig {
            latency: 2,
            bandwidth: 1,
            queue: 16,
        }
    }
}

impl LinkConfig {
    /// Check the values; messages name `<key>.<field>`.
    pub fn validate(&self, key: &str) -> Result<(), String> {
        if !(1..=1024).contains(&self.bandwidth) {
            return Err(format!(
                "{key}.bandwidth = {} must be 1..=1024 requests per cycle",
                self.bandwidth
            ));
        }
        // The queue of requests waiting for the link, like a DRAM channel's.
        if !(1..=4096).contains(&self.queue) {
            return Err(format!("{key}.queue = {} must be 1..=4096", self.queue));
        }
        if self.latency > LATENCY {
            return Err(format!(
                "{key}.latency = {} must be 0..={LATENCY}",
                self.latency
            ));
        }
        Ok(())
    }
}

/// Traffic through one direction of a link. Each request also counts in its phase; a
/// phase's `max_queue` is the longest queue a request of that phase joined, so the run's is
/// the largest of the phases'.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelStats {
    /// Requests carried.
    pub transfers: u64,
    /// Cycles requests spent waiting to leave, summed over requests.
    pub queue_cycles: u64,
    /// Most requests waiting to leave at once.
    pub max_queue: u64,
}

impl Merge for ChannelStats {
    /// Phases' traffic into the run's: the longest queue is the largest of theirs.
    fn merge(&mut self, other: &Self) {
        self.transfers += other.transfers;
        self.queue_cycles += other.queue_cycles;
        self.max_queue = self.max_queue.max(other.max_queue);
    }
}

impl ChannelStats {
    /// Mean cycles a request waited to leave.
    pub fn mean_queue_cycles(&self) -> f64 {
        if self.transfers == 0 {
            0.0
        } else {
            self.queue_cycles as f64 / self.transfers as f64
        }
    }
}

/// One direction of a link.
#[derive(Clone, Debug)]
pub struct Channel {
    latency: u64,
    bandwidth: u32,
    /// The latest cycle in which a request has left (or is booked to leave) ...
    slot: u64,
    /// ... and how many requests leave in it.
    used: u32,
    /// Departure cycles of the requests still waiting, oldest first.
    waiting: VecDeque<u64>,
    stats: Phased<ChannelStats>,
}

impl Channel {
    pub fn new(cfg: &LinkConfig) -> Channel {
        Channel {
            latency: u64::from(cfg.latency),
            bandwidth: cfg.bandwidth.max(1),
            slot: 0,
            used: 0,
            waiting: VecDeque::new(),
            stats: Phased::default(),
        }
    }

    /// Send a request of `phase` at cycle `now` (non-decreasing across calls); returns the
    /// cycle in which it arrives at the other end.
    pub fn send(&mut self, now: u64, phase: usize) -> u64 {
        self.retire(now);
        let depart = if now > self.slot {
            self.slot = now;
            self.used = 1;
            now
        } else if self.used < self.bandwidth {
            self.used += 1;
            self.slot
        } else {
            self.slot += 1;
            self.used = 1;
            self.slot
        };
        let mut queue = 0;
        if depart > now {
            self.waiting.push_back(depart);
            queue = self.waiting.len() as u64;
        }
        self.stats.count(phase, |s| {
            s.max_queue = s.max_queue.max(queue);
            s.transfers += 1;
            s.queue_cycles += depart - now;
        });
        depart + self.latency
    }

    /// Requests waiting to leave at cycle `now`.
    pub fn queued(&mut self, now: u64) -> usize {
        self.retire(now);
        self.waiting.len()
    }

    fn retire(&mut self, now: u64) {
        while self.waiting.front().is_some_and(|&d| d <= now) {
            self.waiting.pop_front();
        }
    }

    /// The whole run's counters.
    pub fn stats(&self) -> &ChannelStats {
        self.stats.total()
    }
}

/// Both directions of a link.
#[derive(Clone, Debug)]
pub struct Link {
    /// Toward memory.
    pub down: Channel,
    /// Toward the cores.
    pub up: Channel,
    queue: usize,
}

/// Traffic through a link, per direction.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkStats {
    pub down: ChannelStats,
    pub up: ChannelStats,
}

impl Merge for LinkStats {
    fn merge(&mut self, other: &Self) {
        self.down.merge(&other.down);
        self.up.merge(&other.up);
    }
}

impl Link {
    pub fn new(cfg: &LinkConfig) -> Link {
        Link {
            down: Channel::new(cfg),
            up: Channel::new(cfg),
            queue: cfg.queue as usize,
        }
    }

    /// Whether the downward queue is full at cycle `now` (the L1s then refuse requests).
    /// Requests that may be on the way down or waiting at the far end's input.
    pub fn queue(&self) -> u32 {
        self.queue as u32
    }

    pub fn down_full(&mut self, now: u64) -> bool {
        self.down.queued(now) >= self.queue
    }

    /// The whole run's traffic.
    pub fn stats(&self) -> LinkStats {
        LinkStats {
            down: self.down.stats().clone(),
            up: self.up.stats().clone(),
        }
    }

    /// The traffic of `phase` (see [`Phased`]).
    pub fn phase_stats(&self, phase: usize) -> LinkStats {
        LinkStats {
            down: self.down.stats.phase(phase),
            up: self.up.stats.phase(phase),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(latency: u32, bandwidth: u32) -> Channel {
        Channel::new(&LinkConfig {
            latency,
            bandwidth,
            queue: 16,
        })
    }

    #[test]
    fn one_per_cycle_serialises_a_burst() {
        let mut c = channel(3, 1);
        let arrivals: Vec<u64> = (0..4).map(|_| c.send(10, 0)).collect();
        assert_eq!(arrivals, [13, 14, 15, 16]);
        assert_eq!(c.stats().queue_cycles, 1 + 2 + 3);
        assert_eq!(c.stats().max_queue, 3);
        assert_eq!(c.queued(11), 2);
        assert_eq!(c.queued(13), 0);
    }

    #[test]
    fn wider_links_carry_more_per_cycle() {
        let mut c = channel(0, 2);
        let arrivals: Vec<u64> = (0..5).map(|_| c.send(0, 0)).collect();
        assert_eq!(arrivals, [0, 0, 1, 1, 2]);
        // A later request does not wait once the backlog has drained.
        assert_eq!(c.send(7, 0), 7);
        assert_eq!(c.stats().transfers, 6);
    }

    #[test]
    fn validate_names_the_field() {
        let bad = LinkConfig {
            bandwidth: 0,
            ..LinkConfig::default()
        };
        assert!(bad
            .validate("l1_link")
            .unwrap_err()
            .contains("l1_link.bandwidth"));
        let bad = LinkConfig {
            queue: 0,
            ..LinkConfig::default()
        };
        assert!(bad
            .validate("l1_link")
            .unwrap_err()
            .contains("l1_link.queue"));
    }
}
