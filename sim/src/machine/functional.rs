//! The functional mode (`wsim run --functional`): every warp executes to completion with
//! the architectural results of the detailed run (docs/ARCHITECTURE.md, "The functional
//! mode", says which results and where an interleaving decides them), and no timing: no
//! pipeline, caches or DRAM. A round gives each core in turn its round
//! ([`Core::run_functional`]: every warp that can go on executes its next instructions), then
//! does what the warps asked of the machine (exit, global barrier, launch) and cuts the
//! intervals, as the end of a detailed cycle does; the cycle counter advances by one a
//! round, so a program that reads it sees time pass, but no report calls it cycles. From
//! any round boundary the detailed model can take over ([`Machine::run_until`]): the
//! architectural state is exact there, and the pipeline of a machine that has not yet
//! simulated a cycle starts each live warp from its PC.

use super::{access_kind, Machine, Mode};
use crate::core::Core;
use crate::error::{ErrorKind, SimError, SimResult};
use crate::machine::RunSummary;

impl Machine {
    /// Run to the end functionally: the statistics hold what the architecture determines
    /// (instructions, their units and kinds, branches, barriers, the Weaver's requests,
    /// iterations and launches), none of what the timing model measures.
    pub fn run_functional(&mut self) -> SimResult<RunSummary> {
        self.run_functional_until(|_| false)?;
        Ok(self.summary())
    }

    /// Execute functionally until the run is over (`Ok(true)`) or `stop`, asked before
    /// each round, says so (`Ok(false)`: a detailed run, [`Machine::run_until`], can take
    /// over from there). A machine that has simulated a cycle in detail cannot go back: its
    /// pipeline holds instructions fetched and requests in flight that a functional round
    /// would leave behind.
    pub fn run_functional_until(
        &mut self,
        mut stop: impl FnMut(&Machine) -> bool,
    ) -> SimResult<bool> {
        if self.mode == Some(Mode::Detailed) {
            return Err(SimError::new(ErrorKind::Setup(
                "a functional run cannot take over from a detailed one".into(),
            )));
        }
        self.mode = Some(Mode::Functional);
        while !self.is_over() {
            if stop(self) {
                return Ok(false);
            }
            self.round().map_err(|e| self.placed(e))?;
        }
        Ok(true)
    }

    /// Warm the caches while running functionally: each memory instruction's lines change
    /// the caches' tags and replacement order as its requests would in detail, at once
    /// (`MemoryHierarchy::warm`), so that a detailed run taking over finds them as the
    /// run left them. DRAM's rows, the instruction caches and the Weaver's reads are not
    /// warmed.
    pub fn warm_caches(&mut self) {
        for core in &mut self.cores {
            core.warm_caches();
        }
    }

    /// Run the functional rounds in the other order: the cores last to first, and each
    /// core's warps last to first. A program whose work follows the interleaving (which
    /// atomic update wins) can then take another trajectory; one whose work does not
    /// counts the same instructions, but for `wsim_spawn`'s wait loop (a sampler's check,
    /// `sampler/src/order.rs`).
    pub fn reverse_functional_order(&mut self) {
        self.functional_reversed = true;
    }

    /// Global barriers released so far. Right after the one `wsim_spawn` ends a launch
    /// with, every warp the launch started has retired, whatever the interleaving.
    pub fn global_barrier_releases(&self) -> u64 {
        self.global_releases
    }

    /// Lines the last-level cache installed while warming so far ([`Machine::warm_caches`]):
    /// with [`Machine::llc_lines`], how much of its content the warming has replaced.
    pub fn llc_warm_fills(&self) -> u64 {
        self.memory.warm_fills()
    }

    /// The lines the last-level caches hold together (0 without an L2 or L3).
    pub fn llc_lines(&self) -> u64 {
        self.memory.llc_lines()
    }

    /// Count every core's warp and thread instructions by PC while running functionally
    /// ([`Machine::counted_pcs`]): a sampler's basic-block vectors, without the profile.
    pub fn count_pcs(&mut self) {
        let ranges = self.shared.program.code_ranges();
        for core in &mut self.cores {
            core.count_pcs(&ranges);
        }
    }

    /// The program's code ranges, (base, instructions) in address order: the order of
    /// [`Machine::counted_pcs`]'s entries.
    pub fn code_ranges(&self) -> Vec<(u32, u32)> {
        self.shared.program.code_ranges()
    }

    /// The instructions counted so far ([`Machine::count_pcs`]), summed over the cores, into
    /// `out`: (warp, thread) instructions per instruction of the code ranges in address
    /// order, then every PC outside them as one. Empty when not counted.
    pub fn counted_pcs(&self, out: &mut Vec<(u64, u64)>) {
        out.clear();
        for counts in self.cores.iter().filter_map(Core::counted_pcs) {
            let counts = counts.counts();
            out.resize(counts.len(), (0, 0));
            for (o, c) in out.iter_mut().zip(counts) {
                o.0 += c.0;
                o.1 += c.1;
            }
        }
    }

    /// One functional round of every core, then the machine's part of it.
    fn round(&mut self) -> SimResult<()> {
        self.check_stop()?;
        // A round is at least a cycle's worth of progress (a warp issues at most one
        // instruction a cycle), so `run.max_cycles` bounds the rounds too.
        let max = self.config.run.max_cycles;
        if self.shared.cycle >= max {
            return Err(SimError::new(ErrorKind::MaxRounds {
                rounds: max,
                warps: self.warp_states(),
            }));
        }
        let mut executed = false;
        let (cores, reversed) = (self.cores.len(), self.functional_reversed);
        for i in 0..cores {
            let c = if reversed { cores - 1 - i } else { i };
            let core = &mut self.cores[c];
            executed |= core.run_functional(&mut self.shared, reversed)?;
            core.take_effects(&mut self.asked);
            core.take_warming(&mut self.warming);
            self.apply_asked(c);
            for (line, kind) in self.warming.drain(..) {
                self.memory.warm(c as u32, line, access_kind(kind));
            }
        }
        self.shared.cycle += 1;
        self.end_cycle()?;
        if !executed && self.ended.is_none() && self.cores.iter().any(Core::is_live) {
            return Err(self.deadlock());
        }
        Ok(())
    }
}
