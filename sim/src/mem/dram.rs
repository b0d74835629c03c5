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
//! **Address mapping**, from the most significant bit down:
//! `| row | column | bank | channel | offset |`, with `offset` = log2(line_bytes) bits,
//! `channel` = log2(channels), `bank` = log2(banks), `column` = log2(row_bytes / line_bytes)
//! and `row` the remaining high bits. Consecutive lines go to consecutive channels, then
//! banks, then columns of the same row. See [`DramConfig::locate`].
//!
//! **Commands** (DRAM cycles; at most one command per channel per cycle):
//! - ACT opens a row: the bank must be precharged (tRP after PRE, or refresh done) and tRRD
//!   must have passed since the channel's last ACT. RD/WR may follow tRCD later, PRE tRAS.
//! - RD/WR moves one line: `line_bytes / (bus_bytes * burst_length)` bursts, one column
//!   command every max(tCCD, BL/2) cycles, each burst occupying the channel's data bus for
//!   BL/2 cycles from tCL after its command (writes use tCL too). The extra column commands
//!   of a multi-burst line are not checked against the command bus. PRE may follow tRTP
//!   after the last RD, tWR after the end of write data.
//! - PRE closes the row.
//! - Refresh (optional), every tREFI cycles per channel: once due it preempts (no other
//!   command issues, as in Ramulator); each open bank is precharged as soon as its timing
//!   allows, then all banks are blocked for tRFC.
//!
//! Not modelled: read/write bus turnaround (tWTR, tRTW), tFAW, bank groups, ranks,
//! power-down.
//!
//! **Scheduling**, FR-FCFS per channel each DRAM cycle: the oldest queued request whose row
//! is open and whose column command can issue; else the oldest request whose ACT or PRE can
//! issue. A row that queued requests still hit is not precharged, so an older request never
//! turns a younger hit into a conflict (as in plain FR-FCFS, a steady stream of hits can
//! hold off a conflict indefinitely). A request leaves its queue when its column command
//! issues. Its row-buffer outcome is the first command issued for it: RD/WR a hit, ACT a
//! miss (bank closed), PRE a conflict (another row open), as Ramulator counts.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::counts::Phased;

/// Largest timing parameter accepted, DRAM cycles.
const MAX_TIMING: u32 = 1_000_000;

/// What happens to a row once no queued request wants it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PagePolicy {
    /// Leave it open for later hits (Vortex's Ramulator setup).
    Open,
    /// Precharge it right after its last column command (auto-precharge).
    Closed,
}

/// DRAM configuration: the section `[dram]` of the TOML configuration. The defaults are
/// DDR4-2400-like (tCK = 0.833 ns, 64-bit channels of x8 devices). Timing parameters are
/// at most 1,000,000 DRAM cycles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DramConfig {
    /// Independent channels (power of two, 1..=256).
    pub channels: u32,
    /// Banks per channel (power of two, 1..=256).
    pub banks: u32,
    /// Bytes in a row (the row buffer of a bank across the channel; power of two).
    pub row_bytes: u32,
    /// Bytes per request: the line of the cache above (power of two, at most `row_bytes`,
    /// a multiple of `bus_bytes * burst_length`).
    pub line_bytes: u32,
    /// Data bus width per channel, bytes; one burst moves `bus_bytes * burst_length` bytes.
    pub bus_bytes: u32,
    /// Beats per burst (even: DDR moves two beats per DRAM cycle, so BL/2 cycles a burst).
    pub burst_length: u32,
    /// ACT to RD/WR, DRAM cycles.
    pub t_rcd: u32,
    /// CAS latency, RD/WR to first data, DRAM cycles.
    pub t_cl: u32,
    /// PRE to ACT, DRAM cycles.
    pub t_rp: u32,
    /// ACT to PRE, DRAM cycles.
    pub t_ras: u32,
    /// Column command to column command in a channel, DRAM cycles.
    pub t_ccd: u32,
    /// ACT to ACT in a channel, DRAM cycles.
    pub t_rrd: u32,
    /// RD to PRE, DRAM cycles.
    pub t_rtp: u32,
    /// Write recovery, end of write data to PRE, DRAM cycles.
    pub t_wr: u32,
    /// Periodic refresh.
    pub refresh: bool,
    /// Refresh interval, DRAM cycles; must leave room after `t_rfc` for a row access.
    pub t_refi: u32,
    /// Refresh duration (all banks of the channel blocked), DRAM cycles.
    pub t_rfc: u32,
    /// Core cycles per DRAM cycle (1..=64; higher is a relatively slower DRAM).
    pub clock_ratio: u32,
    /// Requests each channel's queue holds (1..=4096); a full queue rejects.
    pub queue_depth: u32,
    /// Row-buffer policy.
    pub page_policy: PagePolicy,
}

impl Default for DramConfig {
    fn default() -> Self {
        DramConfig {
            channels: 2,
            banks: 16,
            row_bytes: 8192,
            line_bytes: 64,
            bus_bytes: 8,
            burst_length: 8,
            t_rcd: 16,
            t_cl: 16,
            t_rp: 16,
            t_ras: 39,
            t_ccd: 4,
            t_rrd: 4,
            t_rtp: 9,
            t_wr: 18,
            refresh: false,
            t_refi: 9360,
            t_rfc: 420,
            clock_ratio: 1,
            queue_depth: 32,
            page_policy: PagePolicy::Open,
        }
    }
}

/// Where an address lives in the DRAM (see the module documentation for the bit layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DramLocation {
    pub channel: u32,
    pub bank: u32,
    pub row: u32,
    /// Line index within the row.
    pub column: u32,
}

impl DramConfig {
    /// Every problem found, each naming its key as `dram.<field>`, joined by "; ".
    pub fn validate(&self) -> Result<(), String> {
        let mut problems = String::new();
        let mut problem = |s: String| {
            let sep = if problems.is_empty() { "" } else { "; " };
            let _ = write!(problems, "{sep}{s}");
        };
        for (key, value) in [("channels", self.channels), ("banks", self.banks)] {
            if !value.is_power_of_two() || value > 256 {
                problem(format!(
                    "dram.{key} = {value} must be a power of two in 1..=256"
                ));
            }
        }
        for (key, value) in [
            ("row_bytes", self.row_bytes),
            ("line_bytes", self.line_bytes),
        ] {
            if !value.is_power_of_two() {
                problem(format!("dram.{key} = {value} must be a power of two"));
            }
        }
        if self.line_bytes > self.row_bytes {
            problem(format!(
                "dram.line_bytes = {} exceeds dram.row_bytes = {}",
                self.line_bytes, self.row_bytes
            ));
        }
        if self.bus_bytes == 0 {
            problem("dram.bus_bytes must be at least 1".into());
        }
        if self.burst_length == 0 || !self.burst_length.is_multiple_of(2) {
            problem(format!(
                "dram.burst_length = {} must be even and at least 2",
                self.burst_length
            ));
        }
        let burst_bytes = u64::from(self.bus_bytes) * u64::from(self.burst_length);
        if burst_bytes != 0 && !u64::from(self.line_bytes).is_multiple_of(burst_bytes) {
            problem(format!(
                "dram.line_bytes = {} must be a multiple of dram.bus_bytes * dram.burst_length = {burst_bytes}",
                self.line_bytes
            ));
        }
        if self.refresh && burst_bytes != 0 {
            // Between two refreshes there must be time to close the banks left open, then
            // open a row and read it, or a due refresh could preempt every request forever.
            let burst = u64::from(self.burst_length / 2);
            let line = u64::from(self.line_bytes).div_ceil(burst_bytes)
                * u64::from(self.t_ccd).max(burst)
                + burst;
            let access = [
                self.t_rp, self.t_ras, self.t_rtp, self.t_wr, self.t_rrd, self.t_rcd,
            ]
            .into_iter()
            .map(u64::from)
            .sum::<u64>()
                + 2 * (u64::from(self.t_cl) + line);
            if u64::from(self.t_refi) <= u64::from(self.t_rfc) + access {
                problem(format!(
                    "dram.t_refi = {} must exceed dram.t_rfc = {} plus {access} DRAM cycles \
                     (tRP + tRAS + tRTP + tWR + tRRD + tRCD + 2 * (tCL + a line's bursts)) \
                     so requests progress between refreshes",
                    self.t_refi, self.t_rfc
                ));
            }
        }
        let timings = [
            ("t_rcd", self.t_rcd),
            ("t_cl", self.t_cl),
            ("t_rp", self.t_rp),
            ("t_ras", self.t_ras),
            ("t_ccd", self.t_ccd),
            ("t_rrd", self.t_rrd),
            ("t_rtp", self.t_rtp),
            ("t_wr", self.t_wr),
            ("t_refi", self.t_refi),
            ("t_rfc", self.t_rfc),
        ];
        // Bounds that keep every cycle count far from overflowing u64.
        for (key, value) in timings {
            if value > MAX_TIMING {
                problem(format!(
                    "dram.{key} = {value} exceeds {MAX_TIMING} DRAM cycles"
                ));
            }
        }
        if burst_bytes != 0 && u64::from(self.line_bytes) / burst_bytes > 256 {
            problem(format!(
                "dram.line_bytes = {} needs more than 256 bursts of dram.bus_bytes * dram.burst_length = {burst_bytes}",
                self.line_bytes
            ));
        }
        if !(1..=64).contains(&self.clock_ratio) {
            problem(format!(
                "dram.clock_ratio = {} must be in 1..=64",
                self.clock_ratio
            ));
        }
        if !(1..=4096).contains(&self.queue_depth) {
            problem(format!(
                "dram.queue_depth = {} must be in 1..=4096",
                self.queue_depth
            ));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }

    /// Decodes `addr` with the mapping `| row | column | bank | channel | offset |`.
    pub fn locate(&self, addr: u32) -> DramLocation {
        // Powers of two (validated), so trailing_zeros is log2; u64 so a 32-bit shift is fine.
        let field = |shift: u32, count: u32| {
            ((u64::from(addr) >> shift) & u64::from(count.wrapping_sub(1))) as u32
        };
        let channel_shift = self.line_bytes.trailing_zeros();
        let bank_shift = channel_shift + self.channels.trailing_zeros();
        let column_shift = bank_shift + self.banks.trailing_zeros();
        let columns = self.row_bytes / self.line_bytes;
        let row_shift = column_shift + columns.trailing_zeros();
        DramLocation {
            channel: field(channel_shift, self.channels),
            bank: field(bank_shift, self.banks),
            row: (u64::from(addr) >> row_shift) as u32,
            column: field(column_shift, columns),
        }
    }
}

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

/// What the DRAM did. Counts are requests unless stated; cycles are core cycles. Per phase,
/// a request's events count in its phase (queue occupancy too: a phase's sum counts its
/// own queued requests); `ticked_cycles` and `refreshes` belong to no request and are 0.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
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

/// The configuration's timing in DRAM cycles, widened once.
#[derive(Clone, Debug)]
struct Timing {
    rcd: u64,
    cl: u64,
    rp: u64,
    ras: u64,
    ccd: u64,
    rrd: u64,
    rtp: u64,
    wr: u64,
    refi: u64,
    rfc: u64,
    /// Cycles a burst occupies the data bus (BL/2).
    burst: u64,
    /// Bursts per line.
    bursts: u64,
    /// Cycles between the column commands of one line.
    stride: u64,
    close_page: bool,
}

#[derive(Clone, Copy, Debug, Default)]
struct Bank {
    open_row: Option<u32>,
    /// Earliest cycle for each command to this bank.
    next_act: u64,
    next_col: u64,
    next_pre: u64,
    /// Queued requests to this bank, and those of them that hit its open row.
    queued: u32,
    hits: u32,
}

#[derive(Clone, Debug)]
struct Queued {
    id: u64,
    /// Core cycle of enqueue.
    arrival: u64,
    bank: usize,
    row: u32,
    write: bool,
    phase: usize,
    /// Row-buffer outcome already counted (at the request's first command).
    counted: bool,
}

#[derive(Clone, Debug)]
struct Channel {
    banks: Vec<Bank>,
    /// Arrival order: oldest first.
    queue: Vec<Queued>,
    /// Earliest cycle for the next column command (tCCD) and ACT (tRRD).
    next_col: u64,
    next_act: u64,
    /// The data bus is busy until this cycle.
    bus_free: u64,
    /// DRAM cycle of the next refresh; u64::MAX when refresh is off.
    next_refresh: u64,
    /// No command can issue before this DRAM cycle (a lower bound); None when the queue is
    /// empty.
    next_try: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Command {
    /// RD or WR.
    Col,
    Act,
    Pre,
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
        let burst = u64::from(cfg.burst_length / 2);
        let t = Timing {
            rcd: cfg.t_rcd.into(),
            cl: cfg.t_cl.into(),
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
        };
        let channel = || Channel {
            banks: vec![Bank::default(); cfg.banks as usize],
            queue: Vec::with_capacity(cfg.queue_depth as usize),
            next_col: 0,
            next_act: 0,
            bus_free: 0,
            next_refresh: if cfg.refresh { t.refi } else { u64::MAX },
            next_try: None,
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
        let b = &mut ch.banks[bank];
        b.queued += 1;
        b.hits += u32::from(b.open_row == Some(loc.row));
        ch.queue.push(Queued {
            id: req.id,
            arrival: self.now,
            bank,
            row: loc.row,
            write: req.write,
            phase,
            counted: false,
        });
        self.queued += 1;
        if phase >= self.queued_by_phase.len() {
            self.queued_by_phase.resize(phase + 1, 0);
        }
        self.queued_by_phase[phase] += 1;
        // Only this request's bank can have an earlier command now.
        if let Some((at, _)) = ch.bank_next(&ch.banks[bank], &self.t) {
            let at = at.max(self.now.div_ceil(self.ratio));
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

    /// Decides every DRAM cycle whose commands are due by core cycle `to`, in time order.
    fn advance(&mut self, to: u64) {
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
    fn step(&mut self, i: usize, d: u64) {
        let t = &self.t;
        let ch = &mut self.channels[i];
        ch.refresh_before(d + 1, t, self.stats.total_mut());
        let mut hit_ready = false;
        for (b, ready) in ch.banks.iter().zip(&mut self.ready) {
            *ready = ch
                .bank_next(b, t)
                .and_then(|(at, command)| (at <= d).then_some(command));
            hit_ready |= *ready == Some(Command::Col);
        }
        // FR-FCFS: the oldest ready hit, else the oldest ready ACT or PRE.
        let mut pick = None;
        for (k, q) in ch.queue.iter().enumerate() {
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
                b.hits -= 1;
                let last = d + (t.bursts - 1) * t.stride;
                let data_end = last + t.cl + t.burst;
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
                self.in_flight.push(Reverse(Flight {
                    done: data_end * self.ratio,
                    id: q.id,
                    arrival: q.arrival,
                    write: q.write,
                    phase: q.phase,
                }));
            }
            Some((k, Command::Act)) => {
                let (bank, row) = (ch.queue[k].bank, ch.queue[k].row);
                let hits = ch.queue.iter().filter(|o| o.bank == bank && o.row == row);
                let b = &mut ch.banks[bank];
                b.hits = hits.count() as u32;
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
        ch.next_try = ch
            .banks
            .iter()
            .filter_map(|b| ch.bank_next(b, t))
            .map(|(at, _)| at.max(d + 1))
            .min();
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

impl Channel {
    /// Earliest cycle a column command to open bank `b` can issue (tRCD, tCCD, data bus).
    fn col_ready(&self, b: &Bank, t: &Timing) -> u64 {
        b.next_col
            .max(self.next_col)
            .max(self.bus_free.saturating_sub(t.cl))
    }

    /// The command bank `b` needs next for its queued requests and the earliest cycle it
    /// can issue, barring refresh: a hit's RD/WR while the open row has hits (its
    /// conflicts wait for them), else PRE, or ACT when the bank is closed.
    fn bank_next(&self, b: &Bank, t: &Timing) -> Option<(u64, Command)> {
        if b.queued == 0 {
            return None;
        }
        Some(match b.open_row {
            Some(_) if b.hits > 0 => (self.col_ready(b, t), Command::Col),
            Some(_) => (b.next_pre, Command::Pre),
            None => (b.next_act.max(self.next_act), Command::Act),
        })
    }

    /// Performs the refreshes due before DRAM cycle `end`. No command of this channel may
    /// have been decided at or after the first of them.
    fn refresh_before(&mut self, end: u64, t: &Timing, stats: &mut DramStats) {
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
                    b.next_act = start + t.rfc;
                }
                stats.refreshes += 1;
                self.next_refresh = at + t.refi;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// `Dram::advance` visiting every DRAM cycle of every channel with a queue instead of
    /// jumping to `next_try`: equal results prove `next_try` never skips a command.
    fn advance_every_cycle(dram: &mut Dram, to: u64) {
        let start = dram.now.div_ceil(dram.ratio);
        for d in start..to.div_ceil(dram.ratio) {
            for i in 0..dram.channels.len() {
                if !dram.channels[i].queue.is_empty() {
                    dram.step(i, d);
                }
            }
        }
        dram.advance(to);
    }

    fn configs() -> Vec<DramConfig> {
        let small = DramConfig {
            channels: 2,
            banks: 4,
            row_bytes: 512,
            t_rcd: 5,
            t_cl: 4,
            t_rp: 3,
            t_ras: 11,
            t_ccd: 2,
            t_rrd: 2,
            t_rtp: 3,
            t_wr: 4,
            queue_depth: 4,
            ..DramConfig::default()
        };
        vec![
            small.clone(),
            DramConfig {
                refresh: true,
                t_refi: 130,
                t_rfc: 20,
                clock_ratio: 3,
                ..small.clone()
            },
            DramConfig {
                page_policy: PagePolicy::Closed,
                line_bytes: 128,
                channels: 1,
                ..small
            },
            DramConfig {
                refresh: true,
                t_refi: 300,
                t_rfc: 40,
                ..DramConfig::default()
            },
        ]
    }

    proptest! {
        #[test]
        fn jumping_to_next_try_misses_no_command(
            which in 0usize..4,
            arrivals in prop::collection::vec((0u64..10, 0u32..1 << 16, any::<bool>()), 1..50),
        ) {
            let cfg = &configs()[which];
            let (mut jumping, mut stepping) = (Dram::new(cfg), Dram::new(cfg));
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let mut arrivals = arrivals.into_iter().enumerate().peekable();
            let mut at = 0;
            for now in 0..4000 {
                jumping.tick(now, &mut a);
                advance_every_cycle(&mut stepping, now);
                stepping.tick(now, &mut b);
                while let Some(&(id, (gap, addr, write))) = arrivals.peek() {
                    if at + gap > now {
                        break;
                    }
                    let req = DramRequest { id: id as u64, addr, write, phase: id as u32 % 3 };
                    // Both refuse alike; a refused request is dropped.
                    prop_assert_eq!(jumping.enqueue(now, req), stepping.enqueue(now, req));
                    at += gap;
                    arrivals.next();
                }
                prop_assert_eq!(&a, &b);
                prop_assert_eq!(jumping.stats(), stepping.stats());
                for phase in 0..3 {
                    prop_assert_eq!(jumping.phase_stats(phase), stepping.phase_stats(phase));
                }
            }
            prop_assert_eq!(jumping.pending(), 0);
        }
    }
}
