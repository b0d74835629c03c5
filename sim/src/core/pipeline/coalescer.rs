//! The coalescer: an instruction's lane addresses to line requests for the data cache,
//! one per distinct line (SimX's `mem_coalescer`), with each line's operations on its
//! busiest word for an atomic. Stack addresses first go through the thread-interleaved
//! layout (`stack.interleave`, a timing-only bijection); local addresses are the local
//! memory's and make no request.

use super::memory_port::PortKind;
use crate::core::local_memory::LocalMemory;

/// The coalescer and its requests for the instruction being issued.
#[derive(Clone, Debug)]
pub(in crate::core) struct Coalescer {
    /// The data cache's line size.
    line: u32,
    /// Stacks interleaved for timing: (top, bytes per thread, threads in the machine).
    stacks: Option<(u32, u32, u32)>,
    /// The requests' lines and, for an atomic, each line's operations on its busiest word.
    lines: Vec<u32>,
    ops: Vec<u32>,
    /// Scratch: an atomic's words and the lanes on each.
    words: Vec<(u32, u32)>,
}

impl Coalescer {
    pub(super) fn new(line: u32, stacks: Option<(u32, u32, u32)>) -> Self {
        Coalescer {
            line,
            stacks,
            lines: Vec::new(),
            ops: Vec::new(),
            words: Vec::new(),
        }
    }

    /// The lines of the last requests made.
    pub(in crate::core) fn lines(&self) -> &[u32] {
        &self.lines
    }

    /// For an atomic's requests, each line's operations on its busiest word (empty
    /// otherwise).
    pub(in crate::core) fn ops(&self) -> &[u32] {
        &self.ops
    }

    /// The lines of the last requests made, leaving none.
    pub(in crate::core) fn take_lines(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.lines)
    }

    /// The addresses among `accesses` that `local` does not hold as requests: one per
    /// distinct line. For an atomic (one access per lane) also, per line, how many lanes
    /// work on its busiest word: the atomic unit at the last-level cache applies those one
    /// after the other.
    pub(in crate::core) fn coalesce(
        &mut self,
        kind: PortKind,
        accesses: &[u32],
        local: &LocalMemory,
    ) {
        let line = self.line;
        let atomic = kind == PortKind::Atomic;
        self.lines.clear();
        self.words.clear();
        for &a in accesses {
            if local.contains(a) {
                continue;
            }
            let a = self.stacks.map_or(a, |(top, size, threads)| {
                interleaved_stack_address(a, top, size, threads)
            });
            let l = line_of(a, line);
            // Neighbouring lanes mostly share the last line: check it first.
            if self.lines.last() != Some(&l) && !self.lines.contains(&l) {
                self.lines.push(l);
            }
            if atomic {
                match self.words.iter_mut().find(|(w, _)| *w == a & !3) {
                    Some((_, lanes)) => *lanes += 1,
                    None => self.words.push((a & !3, 1)),
                }
            }
        }
        self.ops.clear();
        if atomic {
            for &l in &self.lines {
                let on_line = self.words.iter().filter(|(w, _)| line_of(*w, line) == l);
                self.ops
                    .push(on_line.map(|&(_, lanes)| lanes).max().unwrap_or(1));
            }
        }
    }

    /// One request per word of `accesses` (for a unit that reads word by word), in order.
    pub(in crate::core) fn word_reads(&mut self, accesses: &[u32]) {
        let line = self.line;
        self.lines.clear();
        self.lines
            .extend(accesses.iter().map(|&a| line_of(a, line)));
    }
}

#[inline]
pub(super) fn line_of(addr: u32, line: u32) -> u32 {
    addr & !(line - 1)
}

/// Where stack address `a` lies when all threads' stacks are interleaved word by word, as
/// GPUs lay out thread-private memory: byte `o` below thread `h`'s stack top goes to word
/// `(o / 4) * threads + h`. A warp's lanes (consecutive harts) share lines, and the hot tops
/// of all stacks are one contiguous block rather than one block per warp `size * warp`
/// bytes apart, which would map to the same cache sets. A bijection on the stack region
/// (other addresses are unchanged), so caches see distinct lines for distinct data.
fn interleaved_stack_address(a: u32, top: u32, size: u32, threads: u32) -> u32 {
    let below = u64::from(top.wrapping_sub(a).wrapping_sub(1));
    let (size, threads) = (u64::from(size), u64::from(threads));
    if a >= top || below >= threads * size {
        return a;
    }
    let (thread, offset) = (below / size, below % size);
    let mapped = ((offset / 4) * threads + thread) * 4 + offset % 4;
    top - 1 - mapped as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleaved_stacks_coalesce_and_stay_distinct() {
        let (top, size, threads) = (0xFE00_0000u32, 4096, 64);
        // The same spill slot of a warp's 32 threads: 32 words in two 64-byte lines.
        let lines: std::collections::BTreeSet<u32> = (0..32)
            .map(|h| interleaved_stack_address(top - h * size - 8, top, size, threads) & !63)
            .collect();
        assert_eq!(lines.len(), 2);
        // A bijection on the region; addresses outside are unchanged.
        let region = top - threads * size;
        let mut seen = std::collections::BTreeSet::new();
        for a in (region..top).step_by(4) {
            let m = interleaved_stack_address(a, top, size, threads);
            assert!((region..top).contains(&m) && seen.insert(m), "{a:#x}");
        }
        assert_eq!(interleaved_stack_address(top, top, size, threads), top);
        assert_eq!(
            interleaved_stack_address(region - 4, top, size, threads),
            region - 4
        );
    }
}
