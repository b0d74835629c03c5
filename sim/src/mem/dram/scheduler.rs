//! The DRAM's progress in time: deciding every due DRAM cycle in order ([`Dram::advance`])
//! and, per channel and cycle, the FR-FCFS choice of one command and its effects on banks,
//! bus, statistics and the requests in flight ([`Dram::step`]).

use std::cmp::Reverse;

use super::channel::Command;
use super::{Dram, DramStats, Flight};
use crate::counts::Phased;

impl Dram {
    /// Decides every DRAM cycle whose commands are due by core cycle `to`, in time order.
    pub(super) fn advance(&mut self, to: u64) {
        if to <= self.now {
            return;
        }
        let end = to.div_ceil(self.ratio);
        loop {
            // Channels are independent; ties go to the lower index only for a fixed order.
            let next = self
                .channels
                .iter()
                .enumerate()
                .filter_map(|(i, c)| c.next_try.map(|d| (d, i)))
                .min();
            match next {
                Some((d, i)) if d < end => self.step(i, d),
                _ => break,
            }
        }
        for ch in &mut self.channels {
            ch.refresh_before(end, &self.t, self.stats.total_mut());
        }
        account(&mut self.stats, &mut self.now, &self.queued_by_phase, to);
        self.stats.total_mut().ticked_cycles = to;
    }

    /// Issues at most one command in channel `i` at DRAM cycle `d`.
    pub(super) fn step(&mut self, i: usize, d: u64) {
        let t = &self.t;
        let ch = &mut self.channels[i];
        ch.refresh_before(d + 1, t, self.stats.total_mut());
        let mode = ch.mode(t);
        // Only banks with queued requests have a command, and only theirs are read below.
        let mut hit_ready = false;
        for (k, &word) in ch.waiting.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let b = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let ready = ch
                    .bank_next(&ch.banks[b], t, mode)
                    .and_then(|(at, command)| (at <= d).then_some(command));
                self.ready[b] = ready;
                hit_ready |= ready == Some(Command::Col);
            }
        }
        // A request whose row was activated for it goes first (ramulator2's active buffer);
        // else FR-FCFS among the mode's requests: the oldest ready hit, else the oldest ready
        // ACT or PRE.
        let mut pick = ch
            .queue
            .iter()
            .position(|q| q.activated && self.ready[q.bank] == Some(Command::Col))
            .map(|k| (k, Command::Col));
        for (k, q) in ch.queue.iter().enumerate() {
            if pick.is_some_and(|(_, c)| c == Command::Col) {
                break;
            }
            if mode.is_some_and(|w| w != q.write) {
                continue;
            }
            match self.ready[q.bank] {
                Some(Command::Col) if ch.banks[q.bank].open_row == Some(q.row) => {
                    pick = Some((k, Command::Col));
                    break;
                }
                Some(command @ (Command::Act | Command::Pre)) if pick.is_none() => {
                    pick = Some((k, command));
                    if !hit_ready {
                        break;
                    }
                }
                _ => {}
            }
        }
        match pick {
            Some((k, Command::Col)) => {
                let q = ch.queue.remove(k);
                let b = &mut ch.banks[q.bank];
                b.queued -= 1;
                if b.queued == 0 {
                    ch.set_waiting(q.bank, false);
                }
                let b = &mut ch.banks[q.bank];
                b.hits -= 1;
                b.streak += 1;
                if q.write {
                    b.queued_writes -= 1;
                    b.hit_writes -= 1;
                    ch.writes -= 1;
                }
                if q.activated {
                    b.activated = None;
                }
                let last = d + (t.bursts - 1) * t.stride;
                ch.last_col = Some((last, q.write));
                let data_end = last + if q.write { t.cwl } else { t.cl } + t.burst;
                ch.next_col = last + t.ccd;
                ch.bus_free = data_end;
                b.next_pre = b.next_pre.max(if q.write {
                    data_end + t.wr
                } else {
                    last + t.rtp
                });
                if t.close_page && b.hits == 0 {
                    b.open_row = None;
                    b.next_act = b.next_pre + t.rp;
                }
                if !q.counted {
                    self.stats.count(q.phase, |s| s.row_hits += 1);
                }
                account(
                    &mut self.stats,
                    &mut self.now,
                    &self.queued_by_phase,
                    d * self.ratio,
                );
                self.queued -= 1;
                self.queued_by_phase[q.phase] -= 1;
                let delivered = match (q.write, t.first_burst) {
                    (true, _) => data_end,
                    (false, true) => d + t.cl + t.burst + t.read_return,
                    (false, false) => data_end + t.read_return,
                };
                self.in_flight.push(Reverse(Flight {
                    done: delivered * self.ratio,
                    id: q.id,
                    arrival: q.arrival,
                    write: q.write,
                    phase: q.phase,
                }));
            }
            Some((k, Command::Act)) => {
                let (bank, row) = (ch.queue[k].bank, ch.queue[k].row);
                let (hits, hit_writes) = ch
                    .queue
                    .iter()
                    .filter(|o| o.bank == bank && o.row == row)
                    .fold((0, 0), |(h, w), o| (h + 1, w + u32::from(o.write)));
                if t.write_drain {
                    ch.queue[k].activated = true;
                }
                let write = ch.queue[k].write;
                let b = &mut ch.banks[bank];
                b.hits = hits;
                b.hit_writes = hit_writes;
                b.activated = t.write_drain.then_some(write);
                b.streak = 0;
                b.open_row = Some(row);
                b.next_col = d + t.rcd;
                b.next_pre = d + t.ras;
                ch.next_act = d + t.rrd;
                let first = !std::mem::replace(&mut ch.queue[k].counted, true);
                self.stats
                    .count(ch.queue[k].phase, |s| s.row_misses += u64::from(first));
            }
            Some((k, Command::Pre)) => {
                let b = &mut ch.banks[ch.queue[k].bank];
                b.open_row = None;
                b.next_act = d + t.rp;
                let first = !std::mem::replace(&mut ch.queue[k].counted, true);
                self.stats
                    .count(ch.queue[k].phase, |s| s.row_conflicts += u64::from(first));
            }
            None => {}
        }
        let mode = ch.mode(t);
        let mut next_try = None;
        for (k, &word) in ch.waiting.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let b = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Some((at, _)) = ch.bank_next(&ch.banks[b], t, mode) {
                    let at = at.max(d + 1);
                    next_try = Some(next_try.map_or(at, |n: u64| n.min(at)));
                }
            }
        }
        ch.next_try = next_try;
    }
}

/// Adds the queue occupancy of core cycles `now..at` (`queued` requests per phase) and
/// moves `now` to `at`.
fn account(stats: &mut Phased<DramStats>, now: &mut u64, queued: &[u64], at: u64) {
    let cycles = at.saturating_sub(*now);
    for (phase, &n) in queued.iter().enumerate() {
        if n > 0 && cycles > 0 {
            stats.count(phase, |s| s.queue_occupancy_sum += n * cycles);
        }
    }
    *now = (*now).max(at);
}
