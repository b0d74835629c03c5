//! State every core's instructions reach: the machine's shape and address map
//! ([`Geometry`]), global memory, the program, the I/O words and LR reservations
//! ([`Shared`]). Below the cores and the machine, so both can stand on it.

use crate::config::Config;
use crate::error::{ErrorKind, SimError, SimResult};
use crate::instruction_trace::InstructionTrace;
use crate::limits;
use crate::mem::Memory;
use crate::memory_map::MemoryMap;
use crate::program::Program;

/// The machine's shape and address map, as instructions need it.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub cores: u32,
    pub warps: u32,
    pub threads: u32,
    pub local_base: u32,
    pub local_size: u32,
    pub null_guard: u32,
    pub console: u32,
    pub exit: u32,
    /// What loads and stores may touch.
    pub map: MemoryMap,
    /// The stacks: `[stack_bottom, stack_top)`, hart `h`'s the `2^stack_log2` bytes below
    /// `stack_top - h * 2^stack_log2`.
    pub stack_bottom: u64,
    pub stack_top: u64,
    pub stack_log2: u32,
}

impl Geometry {
    pub fn new(c: &Config, map: MemoryMap) -> Self {
        Geometry {
            cores: c.cores(),
            warps: c.gpu.warps_per_core,
            threads: c.gpu.threads_per_warp,
            local_base: c.local_mem.base,
            local_size: c.local_mem.size,
            null_guard: c.io.null_guard,
            console: c.io.console,
            exit: c.io.exit,
            map,
            // Validation keeps the stacks above the null guard and `stack.size` a power of
            // two.
            stack_bottom: c.stack_region().0.max(0) as u64,
            stack_top: c.stack_region().1,
            stack_log2: c.stack.size.trailing_zeros(),
        }
    }

    /// The hart whose stack holds `addr`, if any.
    #[inline]
    pub fn stack_owner(&self, addr: u32) -> Option<u32> {
        let a = u64::from(addr);
        (self.stack_bottom <= a && a < self.stack_top)
            .then(|| ((self.stack_top - 1 - a) >> self.stack_log2) as u32)
    }

    /// Whether `[start, end)` is clear of the stacks' guard: the stacks and the stack's
    /// worth below the lowest.
    #[inline]
    pub fn clear_of_stacks(&self, start: u32, end: u64) -> bool {
        u64::from(start) >= self.stack_top || end + (1 << self.stack_log2) <= self.stack_bottom
    }

    /// Hart `hart`'s stack `[bottom, top)`.
    pub fn stack_of(&self, hart: u32) -> (u64, u64) {
        let top = self.stack_top - (u64::from(hart) << self.stack_log2);
        (top - (1 << self.stack_log2), top)
    }

    /// Mask of the lanes a warp has.
    #[inline]
    pub fn lane_mask(&self) -> u32 {
        u32::MAX >> (32 - self.threads)
    }

    /// Offset into local memory of an access that lies wholly inside it.
    #[inline]
    pub fn local_offset(&self, addr: u32, width: u8) -> Option<usize> {
        let off = addr.wrapping_sub(self.local_base);
        (addr >= self.local_base && u64::from(off) + u64::from(width) <= u64::from(self.local_size))
            .then_some(off as usize)
    }
}

/// State every core's instructions reach: global memory, the program, I/O.
#[derive(Clone)]
pub struct Shared {
    pub mem: Memory,
    pub program: Program,
    pub geometry: Geometry,
    pub cycle: u64,
    /// Bytes the program wrote to the console.
    pub console: Vec<u8>,
    /// The first non-zero word stored to the exit address.
    pub exit_word: Option<u32>,
    tohost: Option<u32>,
    /// LR reservations: (hart, address). Usually empty, so stores check them cheaply.
    reservations: Vec<(u32, u32)>,
    /// The distinct values written to the phase CSR, at most [`limits::PHASES`], in order;
    /// those below 64 also as bits, found without a search (kernels mark phases every few
    /// instructions, and name them with small numbers).
    phases: Vec<u32>,
    small_phases: u64,
    /// The instructions issued, when traced (`Machine::trace_instructions`).
    pub instructions: Option<InstructionTrace>,
}

impl Shared {
    /// `tohost`: the riscv-tests word whose write ends the run, if the program has one.
    pub fn new(mem: Memory, program: Program, geometry: Geometry, tohost: Option<u32>) -> Self {
        Shared {
            mem,
            program,
            geometry,
            cycle: 0,
            console: Vec::new(),
            exit_word: None,
            tohost,
            reservations: Vec::new(),
            phases: vec![0],
            small_phases: 1,
            instructions: None,
        }
    }

    pub fn reserve(&mut self, hart: u32, addr: u32) {
        self.reservations.retain(|&(h, _)| h != hart);
        self.reservations.push((hart, addr));
    }

    /// Consume `hart`'s reservation; whether it was valid for `addr`.
    pub fn take_reservation(&mut self, hart: u32, addr: u32) -> bool {
        let before = self.reservations.len();
        self.reservations.retain(|&r| r != (hart, addr));
        let held = self.reservations.len() != before;
        self.reservations.retain(|&(h, _)| h != hart);
        held
    }

    /// Whether every aligned access inside `[start, end)` is an ordinary one of global
    /// memory, as far as the address alone decides (the stacks' guard also asks whose
    /// access it is): mapped in one span, above the null guard, clear of local memory and
    /// the I/O words, and with no LR reservation held anywhere.
    #[inline]
    pub fn ordinary(&self, start: u32, end: u64) -> bool {
        let g = &self.geometry;
        let io = |word: u32| u64::from(word) + 4 <= u64::from(start) || u64::from(word) >= end;
        self.reservations.is_empty()
            && start >= g.null_guard
            && (end <= u64::from(g.local_base)
                || u64::from(start) >= u64::from(g.local_base) + u64::from(g.local_size))
            && io(g.console)
            && io(g.exit)
            && self.tohost.is_none_or(io)
            && g.map.covers(start, end)
    }

    #[inline]
    pub fn invalidate_reservations(&mut self, addr: u32) {
        if !self.reservations.is_empty() {
            self.reservations.retain(|&(_, a)| a != addr & !3);
        }
    }

    /// The program writes `phase` to the phase CSR: an error when it would be the run's
    /// first value past [`limits::PHASES`] distinct ones. Inline: the kernels mark phases
    /// every few instructions, and a phase seen before is a bit, or one search of a few.
    #[inline]
    pub fn write_phase(&mut self, phase: u32) -> SimResult<()> {
        if phase < 64 && self.small_phases & (1 << phase) != 0 {
            return Ok(());
        }
        match self.phases.binary_search(&phase) {
            Ok(_) => Ok(()),
            Err(at) => self.register_phase(phase, at),
        }
    }

    /// A phase not seen before, to be registered at `at` in the sorted list.
    #[cold]
    fn register_phase(&mut self, phase: u32, at: usize) -> SimResult<()> {
        if self.phases.len() == limits::PHASES {
            return Err(SimError::new(ErrorKind::Program(format!(
                "phase {phase:#x} would be the run's distinct phase number {} (CSR 0x7C0): a run \
                 keeps the statistics of at most {} phases (limits::PHASES)",
                limits::PHASES + 1,
                limits::PHASES
            ))));
        }
        self.phases.insert(at, phase);
        if phase < 64 {
            self.small_phases |= 1 << phase;
        }
        Ok(())
    }

    /// Store to global memory or an I/O word; `Some(code)` when the store ends the run.
    #[inline]
    pub fn store(&mut self, addr: u32, width: u8, value: u32) -> SimResult<Option<u32>> {
        let g = &self.geometry;
        if addr & !3 == g.console {
            self.console.push(value as u8);
        } else if addr & !3 == g.exit {
            if value != 0 {
                self.exit_word.get_or_insert(value);
            }
        } else if Some(addr & !3) == self.tohost && value != 0 {
            if value & 1 == 0 {
                return Err(SimError::new(ErrorKind::Program(format!(
                    "tohost = {value:#x}: HTIF system calls are not supported (bit 0 clear)"
                ))));
            }
            return Ok(Some(value >> 1));
        } else {
            self.mem.write(addr, width, value);
        }
        Ok(None)
    }
}
