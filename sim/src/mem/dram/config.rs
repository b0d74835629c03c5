//! The DRAM's configuration: geometry, timing and page policy, their validation, and the
//! address mapping ([`DramConfig::locate`]).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

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

/// The order of the address fields above the line offset, most significant first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AddressMapping {
    /// `| row | column | bank | channel |`: consecutive lines go to consecutive channels,
    /// then banks, so a stream spreads over every bank.
    RoCoBaCh,
    /// `| row | bank | column | channel |`: consecutive lines share a bank's row until it
    /// is full (ramulator2's `RoBaRaCoCh`, rank-less; Vortex SimX's mapping of its lines).
    RoBaCoCh,
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
    /// FR-FCFS with a cap: after this many column commands to one open row in a row,
    /// a bank that has requests for another row closes it (Ramulator's `FRFCFS_Cap`
    /// scheduler, cap 16), so a stream of row hits cannot starve them. 0: no cap.
    pub row_hit_cap: u32,
    /// A read is delivered when its first burst has arrived instead of its last: Vortex
    /// SimX answers a line with the first of its four 16-byte DRAM requests
    /// (`DramSim::Impl::send_request`), a modelling shortcut its preset copies. Writes
    /// still hold the bus for every burst.
    pub first_burst_response: bool,
    /// How an address selects channel, bank, row and column.
    pub mapping: AddressMapping,
    /// DRAM cycles a read's data takes from the data bus to its requester beyond the
    /// transfer: Vortex SimX's `DramSim` passes a request to ramulator2 a cycle after it
    /// came (`handle_pending_requests`) and the answer back a cycle after ramulator2's
    /// callback (`handle_pending_responses`), both counted here, at the return.
    pub read_return: u32,
    /// Reads and writes are served in modes, as ramulator2's `GenericDRAMController`
    /// (`set_write_mode`): a channel serves only reads until more than `write_high` writes
    /// wait or no read does, then only writes until fewer than `write_low` wait and a read
    /// does. A request whose row was opened for it keeps its turn across a switch (the
    /// controller's active buffer); a bank precharges a row hit only by the other mode's
    /// requests. Column commands turn the bus around: `t_wtr` after a write, `t_rtw` after
    /// a read. Off: one FR-FCFS queue without turnarounds.
    pub write_drain: bool,
    /// Writes waiting above which a channel turns to writes (with `write_drain`).
    pub write_high: u32,
    /// Writes waiting below which a channel turns back to waiting reads.
    pub write_low: u32,
    /// A write's last column command to a read's column command in a channel, DRAM cycles
    /// (HBM2: nCWL + nBL + nWTRS), with `write_drain`.
    pub t_wtr: u32,
    /// A read's last column command to a write's, DRAM cycles (HBM2: nCL + nBL + 2 -
    /// nCWL), with `write_drain`.
    pub t_rtw: u32,
    /// With `write_drain`, a write's column command to its data, DRAM cycles (HBM2: nCWL);
    /// 0: `t_cl`, as for reads.
    pub t_cwl: u32,
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
            row_hit_cap: 16,
            first_burst_response: false,
            mapping: AddressMapping::RoCoBaCh,
            read_return: 0,
            write_drain: false,
            write_high: 25,
            write_low: 7,
            t_wtr: 0,
            t_rtw: 0,
            t_cwl: 0,
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
            ("read_return", self.read_return),
            ("t_wtr", self.t_wtr),
            ("t_rtw", self.t_rtw),
            ("t_cwl", self.t_cwl),
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
        // A channel in write mode with no write left must turn back to waiting reads.
        if self.write_drain && !(1..=self.write_high.max(1)).contains(&self.write_low) {
            problem(format!(
                "dram.write_low = {} must be in 1..=dram.write_high ({})",
                self.write_low, self.write_high
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

    /// Decodes `addr` with [`DramConfig::mapping`] above the line offset.
    pub fn locate(&self, addr: u32) -> DramLocation {
        // Powers of two (validated), so trailing_zeros is log2; u64 so a 32-bit shift is fine.
        let field = |shift: u32, count: u32| {
            ((u64::from(addr) >> shift) & u64::from(count.wrapping_sub(1))) as u32
        };
        let columns = self.row_bytes / self.line_bytes;
        let (bank_bits, column_bits) = (self.banks.trailing_zeros(), columns.trailing_zeros());
        let channel_shift = self.line_bytes.trailing_zeros();
        let above_channel = channel_shift + self.channels.trailing_zeros();
        let (bank_shift, column_shift) = match self.mapping {
            AddressMapping::RoCoBaCh => (above_channel, above_channel + bank_bits),
            AddressMapping::RoBaCoCh => (above_channel + column_bits, above_channel),
        };
        let row_shift = above_channel + bank_bits + column_bits;
        DramLocation {
            channel: field(channel_shift, self.channels),
            bank: field(bank_shift, self.banks),
            row: (u64::from(addr) >> row_shift) as u32,
            column: field(column_shift, columns),
        }
    }
}
