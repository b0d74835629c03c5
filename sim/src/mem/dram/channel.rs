//! A DRAM channel's state: its banks with their open rows and per-command earliest
//! cycles, its request queue, bus and refresh times; when each bank's next command can
//! issue, and refresh. The timing parameters in DRAM cycles ([`Timing`]).

use super::{DramConfig, DramStats, PagePolicy};

/// The configuration's timing in DRAM cycles, widened once.
#[derive(Clone, Debug)]
pub(super) struct Timing {
    pub(super) rcd: u64,
    pub(super) cl: u64,
    /// A write's command to its data (`t_cwl` with the write drain, else `t_cl`).
    pub(super) cwl: u64,
    pub(super) rp: u64,
    pub(super) ras: u64,
    pub(super) ccd: u64,
    pub(super) rrd: u64,
    pub(super) rtp: u64,
    pub(super) wr: u64,
    pub(super) refi: u64,
    pub(super) rfc: u64,
    /// Cycles a burst occupies the data bus (BL/2).
    pub(super) burst: u64,
    /// Bursts per line.
    pub(super) bursts: u64,
    /// Cycles between the column commands of one line.
    pub(super) stride: u64,
    pub(super) close_page: bool,
    /// Column commands to an open row after which waiting conflicts go first (0: never).
    pub(super) row_hit_cap: u32,
    /// Reads are delivered after their first burst.
    pub(super) first_burst: bool,
    /// Cycles from a read's data to its delivery.
    pub(super) read_return: u64,
    /// Reads and writes in modes (`DramConfig::write_drain`), its watermarks and the bus
    /// turnarounds.
    pub(super) write_drain: bool,
    pub(super) write_high: u32,
    pub(super) write_low: u32,
    pub(super) wtr: u64,
    pub(super) rtw: u64,
}

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Bank {
    pub(super) open_row: Option<u32>,
    /// Earliest cycle for each command to this bank.
    pub(super) next_act: u64,
    pub(super) next_col: u64,
    pub(super) next_pre: u64,
    /// Queued requests to this bank, and those of them that hit its open row.
    pub(super) queued: u32,
    pub(super) hits: u32,
    /// Column commands to the open row since it opened.
    pub(super) streak: u32,
    /// Of `queued` and `hits`, the writes (for the write drain).
    pub(super) queued_writes: u32,
    pub(super) hit_writes: u32,
    /// With the write drain: the open row was activated for a request that has not had its
    /// column command yet, a write (`Some(true)`) or a read; it goes first in either mode.
    pub(super) activated: Option<bool>,
}

#[derive(Clone, Debug)]
pub(super) struct Queued {
    pub(super) id: u64,
    /// Core cycle of enqueue.
    pub(super) arrival: u64,
    pub(super) bank: usize,
    pub(super) row: u32,
    pub(super) write: bool,
    pub(super) phase: usize,
    /// Row-buffer outcome already counted (at the request's first command).
    pub(super) counted: bool,
    /// Its bank's row was activated for it (with the write drain).
    pub(super) activated: bool,
}

#[derive(Clone, Debug)]
pub(super) struct Channel {
    pub(super) banks: Vec<Bank>,
    /// Arrival order: oldest first.
    pub(super) queue: Vec<Queued>,
    /// Earliest cycle for the next column command (tCCD) and ACT (tRRD).
    pub(super) next_col: u64,
    pub(super) next_act: u64,
    /// The data bus is busy until this cycle.
    pub(super) bus_free: u64,
    /// DRAM cycle of the next refresh; u64::MAX when refresh is off.
    pub(super) next_refresh: u64,
    /// No command can issue before this DRAM cycle (a lower bound); None when the queue is
    /// empty.
    pub(super) next_try: Option<u64>,
    /// A bit per bank with queued requests: only those have a next command.
    pub(super) waiting: Vec<u64>,
    /// Writes in `queue`.
    pub(super) writes: u32,
    /// With the write drain: serving writes (else reads).
    pub(super) write_mode: bool,
    /// The last column command issued and whether it was a write.
    pub(super) last_col: Option<(u64, bool)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Command {
    /// RD or WR.
    Col,
    Act,
    Pre,
}

impl Timing {
    pub(super) fn new(cfg: &DramConfig) -> Timing {
        let burst = u64::from(cfg.burst_length / 2);
        Timing {
            rcd: cfg.t_rcd.into(),
            cl: cfg.t_cl.into(),
            cwl: if cfg.write_drain && cfg.t_cwl > 0 {
                cfg.t_cwl
            } else {
                cfg.t_cl
            }
            .into(),
            rp: cfg.t_rp.into(),
            ras: cfg.t_ras.into(),
            ccd: cfg.t_ccd.into(),
            rrd: cfg.t_rrd.into(),
            rtp: cfg.t_rtp.into(),
            wr: cfg.t_wr.into(),
            refi: cfg.t_refi.into(),
            rfc: cfg.t_rfc.into(),
            burst,
            bursts: u64::from(cfg.line_bytes / (cfg.bus_bytes * cfg.burst_length)),
            stride: u64::from(cfg.t_ccd).max(burst),
            close_page: cfg.page_policy == PagePolicy::Closed,
            row_hit_cap: cfg.row_hit_cap,
            first_burst: cfg.first_burst_response,
            read_return: cfg.read_return.into(),
            write_drain: cfg.write_drain,
            write_high: cfg.write_high,
            write_low: cfg.write_low,
            wtr: cfg.t_wtr.into(),
            rtw: cfg.t_rtw.into(),
        }
    }
}

impl Channel {
    /// Bank `bank` has queued requests (`true`) or none.
    pub(super) fn set_waiting(&mut self, bank: usize, waiting: bool) {
        let (word, bit) = (bank / 64, 1u64 << (bank % 64));
        if waiting {
            self.waiting[word] |= bit;
        } else {
            self.waiting[word] &= !bit;
        }
    }

    /// Earliest cycle a column command to open bank `b` can issue (tRCD, tCCD, data bus),
    /// and for a write (`Some(true)`) or a read after the other kind, the turnaround.
    fn col_ready(&self, b: &Bank, t: &Timing, write: Option<bool>) -> u64 {
        let turn = match (write, self.last_col) {
            (Some(w), Some((at, last))) if w != last => at + if last { t.wtr } else { t.rtw },
            _ => 0,
        };
        let latency = if write == Some(true) { t.cwl } else { t.cl };
        b.next_col
            .max(self.next_col)
            .max(self.bus_free.saturating_sub(latency))
            .max(turn)
    }

    /// With the write drain, the mode the channel serves in now (`Some(true)`: writes),
    /// switched as ramulator2's `GenericDRAMController::set_write_mode` does; None without.
    pub(super) fn mode(&mut self, t: &Timing) -> Option<bool> {
        if !t.write_drain {
            return None;
        }
        let reads = self.queue.len() as u32 - self.writes;
        if !self.write_mode {
            self.write_mode = self.writes > t.write_high || reads == 0;
        } else if self.writes < t.write_low && reads != 0 {
            self.write_mode = false;
        }
        Some(self.write_mode)
    }

    /// The command bank `b` needs next for its queued requests (of the `mode`'s kind, if
    /// any) and the earliest cycle it can issue, barring refresh: a hit's RD/WR while the
    /// open row has hits (its conflicts wait for them, up to the row-hit cap), else PRE, or
    /// ACT when the bank is closed. A row activated for a request serves it first.
    pub(super) fn bank_next(
        &self,
        b: &Bank,
        t: &Timing,
        mode: Option<bool>,
    ) -> Option<(u64, Command)> {
        if let (Some(_), Some(write)) = (b.open_row, b.activated) {
            return Some((self.col_ready(b, t, Some(write)), Command::Col));
        }
        let (queued, hits) = match mode {
            None => (b.queued, b.hits),
            Some(true) => (b.queued_writes, b.hit_writes),
            Some(false) => (b.queued - b.queued_writes, b.hits - b.hit_writes),
        };
        if queued == 0 {
            return None;
        }
        let capped = t.row_hit_cap > 0 && b.streak >= t.row_hit_cap && queued > hits;
        Some(match b.open_row {
            Some(_) if hits > 0 && !capped => (self.col_ready(b, t, mode), Command::Col),
            Some(_) => (b.next_pre, Command::Pre),
            None => (b.next_act.max(self.next_act), Command::Act),
        })
    }

    /// Performs the refreshes due before DRAM cycle `end`. No command of this channel may
    /// have been decided at or after the first of them.
    pub(super) fn refresh_before(&mut self, end: u64, t: &Timing, stats: &mut DramStats) {
        while self.next_refresh < end {
            let at = self.next_refresh;
            if self
                .banks
                .iter()
                .all(|b| b.open_row.is_none() && b.next_act <= at)
            {
                // An idle channel refreshes on time, and tRFC < tREFI keeps it idle: do
                // every refresh up to `end` at once.
                let n = (end - 1 - at) / t.refi + 1;
                let last = at + (n - 1) * t.refi;
                for b in &mut self.banks {
                    b.next_act = last + t.rfc;
                }
                stats.refreshes += n;
                self.next_refresh = last + t.refi;
            } else {
                let start = self.banks.iter().fold(at, |start, b| {
                    start.max(match b.open_row {
                        Some(_) => b.next_pre.max(at) + t.rp,
                        None => b.next_act,
                    })
                });
                for b in &mut self.banks {
                    b.open_row = None;
                    b.hits = 0;
                    b.hit_writes = 0;
                    b.activated = None;
                    b.next_act = start + t.rfc;
                }
                for q in &mut self.queue {
                    q.activated = false;
                }
                stats.refreshes += 1;
                self.next_refresh = at + t.refi;
            }
        }
    }
}
