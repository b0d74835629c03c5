//! The core in the functional mode (`Machine::run_functional`): no pipeline, no time. In
//! a round every warp that is live and waits on nothing executes its next instructions, in
//! warp order, through [`Core::perform`], the pipeline's own issue path: execution is the
//! one definition of what an instruction does, and what it counts is counted the same way.

use wsim_isa::{LsuKind, SfuKind, Unit};

use super::exec::{Effect, Executed};
use super::pipeline::PortKind;
use super::warp::WarpWait;
use super::Core;
use crate::error::SimResult;
use crate::shared::Shared;

/// The most instructions a warp executes in a round. More than one keeps a warp's
/// registers in the host's caches from one instruction to the next (a round of 192
/// warps, one instruction each, would walk 1.5 MB of register files); a warp stops
/// earlier wherever the machine or another warp must act first.
const QUANTUM: u32 = 16;

impl Core {
    /// One functional round at `sh.cycle`: each warp live and waiting on nothing when the
    /// round starts executes up to [`QUANTUM`] instructions, in warp order. It stops after
    /// an instruction that asks the machine for something (an exit, a global barrier), a
    /// barrier arrival, a spawn or a retirement, or a CSR (the iteration mark among them), so the
    /// machine acts at the end of the round as after that instruction's cycle in detail;
    /// a warp a barrier releases or a `vx_wspawn` starts goes from the next round, as it
    /// issues from a later cycle in detail. What the machine must do is left for
    /// [`Core::take_effects`]. `reversed`: the warps go last to first
    /// (`Machine::reverse_functional_order`). Whether any warp executed.
    pub fn run_functional(&mut self, sh: &mut Shared, reversed: bool) -> SimResult<bool> {
        let mut ready = 0u32;
        for (w, warp) in self.warps.iter().enumerate() {
            ready |= u32::from(warp.is_live() && warp.wait == WarpWait::Ready) << w;
        }
        let now = sh.cycle;
        let mut left = ready;
        while left != 0 {
            let w = match reversed {
                false => left.trailing_zeros(),
                true => 31 - left.leading_zeros(),
            } as usize;
            left &= !(1 << w);
            for _ in 0..QUANTUM {
                let pc = self.warps[w].stack.pc();
                if let Some(c) = &mut self.counted {
                    c.count(pc, self.warps[w].stack.mask().count_ones());
                }
                let mut rec = Executed::new(std::mem::take(&mut self.accesses));
                let performed = self.perform(w, pc, now, sh, &mut rec);
                let e = &rec.events;
                let turn = rec.effect != Effect::None
                    || e.barrier.is_some()
                    || e.spawned != 0
                    || e.retired
                    || self.iteration_mark.is_some();
                self.accesses = rec.accesses;
                // A CSR may read the time or the machine's state (the warps alive): a warp
                // that reads one lets a round pass before its next read, as a cycle would.
                let csr = match performed? {
                    Some(d) => {
                        self.count_unit(d.info.unit);
                        self.warm_fetch(pc);
                        if let Unit::Lsu(kind) = d.info.unit {
                            self.warm_lines(kind);
                        }
                        d.info.unit == Unit::Sfu(SfuKind::Csr)
                    }
                    None => false,
                };
                let warp = &self.warps[w];
                if turn || csr || !warp.is_live() || warp.wait != WarpWait::Ready {
                    break;
                }
            }
        }
        Ok(ready != 0)
    }

    /// Count the warp and thread instructions by PC from now on (`Machine::count_pcs`),
    /// in code `ranges` (base, instructions).
    pub fn count_pcs(&mut self, ranges: &[(u32, u32)]) {
        self.counted = Some(PcCounts::new(ranges));
    }

    /// The instructions counted by PC so far (`Machine::count_pcs`), if counted.
    pub fn counted_pcs(&self) -> Option<&PcCounts> {
        self.counted.as_ref()
    }

    /// Warm the caches functionally (the sampler's warming between its detailed units):
    /// from now on the lines each memory instruction requests are kept for the machine
    /// and the instruction lines it fetches from ([`Core::take_warming`]). The Weaver's and
    /// EGHW's reads are not.
    pub fn warm_caches(&mut self) {
        self.warming.get_or_insert_with(Vec::new);
    }

    /// The lines kept for warming since the last call, into `out`.
    pub fn take_warming(&mut self, out: &mut Vec<(u32, PortKind)>) {
        if let Some(lines) = &mut self.warming {
            out.append(lines);
        }
    }

    /// The instruction line `pc` is fetched from, kept when warming unless it is the
    /// line kept last: a core's warps run the same code, and another hit on the line
    /// just used changes no tag and no order.
    fn warm_fetch(&mut self, pc: u32) {
        let Some(lines) = &mut self.warming else {
            return;
        };
        let line = (pc & !(self.pipe.p.line - 1), PortKind::Fetch);
        if lines.last() != Some(&line) {
            lines.push(line);
        }
    }

    /// The lines the memory instruction just executed requests, as the LSU's coalescer
    /// makes them (local memory makes none), kept when warming.
    fn warm_lines(&mut self, kind: LsuKind) {
        if self.warming.is_none() || self.accesses.is_empty() {
            return;
        }
        let port = match kind {
            LsuKind::Load => PortKind::Read,
            LsuKind::Store => PortKind::Write,
            LsuKind::Atomic => PortKind::Atomic,
            LsuKind::Fence => return,
        };
        let accesses = std::mem::take(&mut self.accesses);
        self.coalesce(port, &accesses);
        self.accesses = accesses;
        let warming = self.warming.as_mut().expect("checked");
        warming.extend(self.pipe.coalescer.lines().iter().map(|&l| (l, port)));
    }
}

/// Warp and thread instructions by PC, counted by the functional rounds: what a sampler's
/// basic-block vectors are made of, at an index check and two additions an instruction
/// (the profile, `Machine::profile_pcs`, keeps far more per PC and slows the copies'
/// detailed runs too).
#[derive(Clone, Debug)]
pub struct PcCounts {
    /// The code ranges, in order: base, instructions, and the first one's index in `counts`.
    ranges: Vec<(u32, u32, usize)>,
    /// Per instruction of the code ranges, then one entry for any PC outside them:
    /// (warp instructions, thread instructions).
    counts: Vec<(u64, u64)>,
}

impl PcCounts {
    fn new(ranges: &[(u32, u32)]) -> PcCounts {
        let mut first = 0;
        let ranges: Vec<_> = (ranges.iter())
            .map(|&(base, n)| {
                first += n as usize;
                (base, n, first - n as usize)
            })
            .collect();
        PcCounts {
            ranges,
            counts: vec![(0, 0); first + 1],
        }
    }

    fn count(&mut self, pc: u32, lanes: u32) {
        let outside = self.counts.len() - 1;
        let k = (self.ranges.iter())
            .find_map(|&(base, n, first)| {
                let k = pc.wrapping_sub(base) / 4;
                (pc.is_multiple_of(4) && k < n).then_some(first + k as usize)
            })
            .unwrap_or(outside);
        let c = &mut self.counts[k];
        c.0 += 1;
        c.1 += u64::from(lanes);
    }

    /// (warp, thread) instructions per index: the code ranges' instructions in address
    /// order, then every PC outside them as one.
    pub fn counts(&self) -> &[(u64, u64)] {
        &self.counts
    }
}
