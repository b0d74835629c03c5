//! DRAM timing model: channels of banks with row buffers, DDR4-like command timing, a
//! per-channel FR-FCFS scheduler and a core:DRAM clock ratio. A model of its own in the
//! spirit of Ramulator's DDR4 (what Vortex uses), not a binding to it.
//!
//! **Time.** Callers speak core cycles; the model runs in DRAM cycles, DRAM cycle `d`
//! starting at core cycle `d * clock_ratio`. The commands of DRAM cycle `d` are decided at
//! the end of core cycle `d * clock_ratio`, after every request enqueued in that core cycle,
//! so whether a caller enqueues before or after ticking within a cycle does not matter.
//! Data whose transfer ends at DRAM cycle `e` is delivered at core cycle `e * clock_ratio`.
//! **Work is done lazily, jumping from one possible command to the next, so `tick` after a
//! gap gives exactly what ticking every cycle gives** (`enqueue` catches up the same way).
//!
//! **Address mapping**, from the most significant bit down, by default
//! `| row | column | bank | channel | offset |`, with `offset` = log2(line_bytes) bits,
//! `channel` = log2(channels), `bank` = log2(banks), `column` = log2(row_bytes / line_bytes)
//! and `row` the remaining high bits. Consecutive lines go to consecutive channels, then
//! banks, then columns of the same row; with [`AddressMapping::RoBaCoCh`] to the columns of
//! one bank's row first. See [`DramConfig::locate`].
//!
//! **Commands** (DRAM cycles; at most one command per channel per cycle):
//! - ACT opens a row: the bank must be precharged (tRP after PRE, or refresh done) and tRRD
//!   must have passed since the channel's last ACT. RD/WR may follow tRCD later, PRE tRAS.
//! - RD/WR moves one line: `line_bytes / (bus_bytes * burst_length)` bursts, one column
//!   command every max(tCCD, BL/2) cycles, each burst occupying the channel's data bus for
//!   BL/2 cycles from tCL after its command (writes use tCL too). The extra column commands
//!   of a multi-burst line are not checked against the command bus. PRE may follow tRTP
//!   after the last RD, tWR after the end of write data.
//!   A read is delivered when its last burst ends, or with `first_burst_response` when its
//!   first one does (Vortex SimX's shortcut, see [`DramConfig::first_burst_response`]).
//! - PRE closes the row.
//! - Refresh (optional), every tREFI cycles per channel: once due it preempts (no other
//!   command issues, as in Ramulator); each open bank is precharged as soon as its timing
//!   allows, then all banks are blocked for tRFC.
//!
//! Not modelled: tFAW, bank groups, ranks, power-down; the read/write bus turnaround (tWTR,
//! tRTW) only with the write drain.
//!
//! **Write drain** (optional, ramulator2's `GenericDRAMController`): a channel serves only
//! reads or only writes at a time, switching at watermarks of waiting writes; a request
//! whose row was activated for it goes first in either mode; a bank precharges a row that
//! only the other mode's requests hit (so the mode's requests never wait for hits that
//! cannot issue). See [`DramConfig::write_drain`].
//!
//! **Scheduling**, FR-FCFS per channel each DRAM cycle: the oldest queued request whose row
//! is open and whose column command can issue; else the oldest request whose ACT or PRE can
//! issue. A row that queued requests still hit is not precharged, so an older request never
//! turns a younger hit into a conflict (as in plain FR-FCFS, a steady stream of hits can
//! hold off a conflict indefinitely). A request leaves its queue when its column command
//! issues. Its row-buffer outcome is the first command issued for it: RD/WR a hit, ACT a
//! miss (bank closed), PRE a conflict (another row open), as Ramulator counts.
//!
//! **Files**: `config.rs` the configuration and address mapping, `channel.rs` the state
//! of channels and banks, `scheduler.rs` the FR-FCFS decisions in time order.

mod channel;
mod config;
mod scheduler;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::{Deserialize, Serialize};

use crate::counts::Phased;
use channel::{Bank, Channel, Command, Queued, Timing};
pub use config::{AddressMapping, DramConfig, DramLocation, PagePolicy};

/// A line read or write. `id` is the caller's, handed back on completion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DramRequest {
    pub id: u64,
    pub addr: u32,
    pub write: bool,
    /// The statistics phase the request counts in (a small index, see
    /// [`crate::counts::Phased`]).
    pub phase: u32,
}

crate::merged_counters! {
/// What the DRAM did. Counts are requests unless stated; cycles are core cycles. Per phase,
/// a request's events count in its phase (queue occupancy too: a phase's sum counts its
/// own queued requests); `ticked_cycles` and `refreshes` belong to no request and are 0.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DramStats {
    /// Completed reads.
    pub reads: u64,
    /// Completed writes.
    pub writes: u64,
    /// Bytes moved by completed requests.
    pub bytes: u64,
    /// First command a RD/WR: the row was open.
    pub row_hits: u64,
    /// First command an ACT: the bank was closed.
    pub row_misses: u64,
    /// First command a PRE: another row was open.
    pub row_conflicts: u64,
    /// Enqueue to data delivered, summed over completed requests.
    pub total_latency: u64,
    /// Requests delivered.
    pub completed: u64,
    /// Requests waiting in all channel queues, summed over the cycles ticked.
    pub queue_occupancy_sum: u64,
    /// Core cycles covered: the model has advanced to this cycle.
    pub ticked_cycles: u64,
    /// Enqueues refused by a full queue.
    pub rejected: u64,
    /// Refreshes, summed over channels.
    pub refreshes: u64,
}
}

impl DramStats {
    /// Hits over requests whose row-buffer outcome is known; 0 when there is none.
    pub fn row_hit_rate(&self) -> f64 {
        ratio(
            self.row_hits,
            self.row_hits + self.row_misses + self.row_conflicts,
        )
    }

    /// Mean core cycles from enqueue to data; 0 when nothing completed.
    pub fn avg_latency(&self) -> f64 {
        ratio(self.total_latency, self.completed)
    }

    /// Mean requests queued per core cycle ticked.
    pub fn avg_queue_occupancy(&self) -> f64 {
        ratio(self.queue_occupancy_sum, self.ticked_cycles)
    }

    /// Bytes per core cycle over a run of `cycles` core cycles.
    pub fn bandwidth_bytes_per_cycle(&self, cycles: u64) -> f64 {
        ratio(self.bytes, cycles)
    }
}

fn ratio(num: u64, den: u64) -> f64 {
    if den == 0 {
        0.0
    } else {
        num as f64 / den as f64
    }
}

/// A request whose column command has issued, ordered by delivery then id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Flight {
    /// Core cycle the data transfer ends.
    done: u64,
    id: u64,
    arrival: u64,
    write: bool,
    phase: usize,
}

/// The DRAM: see the module documentation for what is modelled.
#[derive(Clone, Debug)]
pub struct Dram {
    cfg: DramConfig,
    t: Timing,
    ratio: u64,
    channels: Vec<Channel>,
    in_flight: BinaryHeap<Reverse<Flight>>,
    /// Core cycle the model has advanced to: every DRAM cycle before
    /// `now.div_ceil(ratio)` is decided, and occupancy is accounted up to `now`.
    now: u64,
    queued: u64,
    /// `queued` by phase.
    queued_by_phase: Vec<u64>,
    stats: Phased<DramStats>,
    /// Scratch, per bank of one channel: the command it can issue now.
    ready: Vec<Option<Command>>,
}

impl Dram {
    /// `cfg` must have passed [`DramConfig::validate`].
    pub fn new(cfg: &DramConfig) -> Dram {
        debug_assert!(cfg.validate().is_ok(), "unvalidated DRAM configuration");
        let t = Timing::new(cfg);
        let channel = || Channel {
            banks: vec![Bank::default(); cfg.banks as usize],
            queue: Vec::with_capacity(cfg.queue_depth as usize),
            next_col: 0,
            next_act: 0,
            bus_free: 0,
            next_refresh: if cfg.refresh { t.refi } else { u64::MAX },
            next_try: None,
            waiting: vec![0; (cfg.banks as usize).div_ceil(64)],
            writes: 0,
            write_mode: false,
            last_col: None,
        };
        Dram {
            cfg: cfg.clone(),
            channels: (0..cfg.channels).map(|_| channel()).collect(),
            t,
            ratio: cfg.clock_ratio.into(),
            in_flight: BinaryHeap::new(),
            now: 0,
            queued: 0,
            queued_by_phase: Vec::new(),
            stats: Phased::default(),
            ready: vec![None; cfg.banks as usize],
        }
    }

    /// The channel whose queue a request for `addr` joins.
    pub fn queue_of(&self, addr: u32) -> usize {
        self.cfg.locate(addr).channel as usize
    }

    /// Requests channel `channel`'s queue can still take.
    pub fn room(&self, channel: usize) -> usize {
        let queued = self.channels.get(channel).map_or(0, |c| c.queue.len());
        (self.cfg.queue_depth as usize).saturating_sub(queued)
    }

    /// Enqueue at core cycle `now`; `Err(req)` if that channel's queue is full (the caller
    /// retries later). A `now` before an earlier `tick`/`enqueue` counts as that cycle.
    pub fn enqueue(&mut self, now: u64, req: DramRequest) -> Result<(), DramRequest> {
        self.advance(now);
        let loc = self.cfg.locate(req.addr);
        let ch = &mut self.channels[loc.channel as usize];
        let phase = req.phase as usize;
        if ch.queue.len() >= self.cfg.queue_depth as usize {
            self.stats.count(phase, |s| s.rejected += 1);
            return Err(req);
        }
        let bank = loc.bank as usize;
        ch.set_waiting(bank, true);
        let b = &mut ch.banks[bank];
        let hit = u32::from(b.open_row == Some(loc.row));
        b.queued += 1;
        b.hits += hit;
        if req.write {
            b.queued_writes += 1;
            b.hit_writes += hit;
            ch.writes += 1;
        }
        ch.queue.push(Queued {
            id: req.id,
            arrival: self.now,
            bank,
            row: loc.row,
            write: req.write,
            phase,
            counted: false,
            activated: false,
        });
        self.queued += 1;
        if phase >= self.queued_by_phase.len() {
            self.queued_by_phase.resize(phase + 1, 0);
        }
        self.queued_by_phase[phase] += 1;
        let now = self.now.div_ceil(self.ratio);
        if self.t.write_drain {
            // The request may switch the mode, and so what every bank does next.
            ch.next_try = Some(ch.next_try.map_or(now, |d| d.min(now)));
        } else if let Some((at, _)) = ch.bank_next(&ch.banks[bank], &self.t, None) {
            // Only this request's bank can have an earlier command now.
            let at = at.max(now);
            ch.next_try = Some(ch.next_try.map_or(at, |d| d.min(at)));
        }
        Ok(())
    }

    /// Advance to core cycle `now` and push, in delivery order (ties by id), the ids of the
    /// requests whose data transfer ended at or before `now`. Calls may skip cycles.
    pub fn tick(&mut self, now: u64, done: &mut Vec<u64>) {
        self.advance(now);
        while let Some(&Reverse(f)) = self.in_flight.peek() {
            if f.done > now {
                break;
            }
            self.in_flight.pop();
            let line_bytes = u64::from(self.cfg.line_bytes);
            self.stats.count(f.phase, |s| {
                if f.write {
                    s.writes += 1;
                } else {
                    s.reads += 1;
                }
                s.bytes += line_bytes;
                s.total_latency += f.done - f.arrival;
                s.completed += 1;
            });
            done.push(f.id);
        }
    }

    /// Earliest core cycle after `now` at which `tick` would issue a command or deliver
    /// data (never later than the real one), or None when nothing is queued or in flight.
    /// Commands of DRAM cycle `d` are decided by the first tick after core cycle
    /// `d * clock_ratio`.
    pub fn next_event(&self, now: u64) -> Option<u64> {
        let delivery = self.in_flight.peek().map(|Reverse(f)| f.done);
        let command = self
            .channels
            .iter()
            .filter_map(|c| c.next_try)
            .min()
            .map(|d| d * self.ratio + 1);
        delivery
            .into_iter()
            .chain(command)
            .min()
            .map(|at| at.max(now.saturating_add(1)))
    }

    /// The whole run's statistics.
    pub fn stats(&self) -> &DramStats {
        self.stats.total()
    }

    /// The statistics of `phase` (see [`DramStats`]).
    pub fn phase_stats(&self, phase: usize) -> DramStats {
        self.stats.phase(phase)
    }

    /// Requests queued or in flight.
    pub fn pending(&self) -> usize {
        self.queued as usize + self.in_flight.len()
    }
}

#[cfg(test)]
mod tests;
