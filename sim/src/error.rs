//! Errors of a run, with the context a kernel author needs to find the cause.

use std::fmt;

/// Where in the machine an error happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub core: u32,
    pub warp: u32,
    /// Active lanes when the instruction issued.
    pub lanes: u32,
    pub pc: u32,
    /// The instruction, disassembled (or its raw word if it does not decode).
    pub instr: String,
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The ELF file cannot be used.
    Load(String),
    /// The configuration or the program's layout conflicts with the machine.
    Setup(String),
    IllegalInstruction {
        word: u32,
        reason: String,
    },
    Misaligned {
        what: &'static str,
        addr: u32,
        width: u8,
    },
    Unmapped {
        what: &'static str,
        addr: u32,
        reason: &'static str,
    },
    /// A lane's access below its own stack: into another thread's stack, or below every
    /// stack (`owner` none); `stack`: the lane's own `[bottom, top)`.
    StackOverflow {
        what: &'static str,
        addr: u32,
        hart: u32,
        stack: (u64, u64),
        owner: Option<u32>,
    },
    /// No live warp can ever go on: each waits on a barrier that cannot complete, or on
    /// something else that will not come (each warp's line names it).
    Deadlock {
        warps: Vec<String>,
    },
    /// The run reached `run.max_cycles`; where each live warp was.
    MaxCycles {
        cycles: u64,
        warps: Vec<String>,
    },
    /// The host stopped the run before its end ([`crate::Machine::stop_when`]: a SIGINT).
    Stopped,
    /// A functional run reached `run.max_cycles` rounds; where each live warp was.
    MaxRounds {
        rounds: u64,
        warps: Vec<String>,
    },
    /// Anything else a program can do wrong (a bad JOIN, an ecall nobody handles, ...).
    Program(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimError {
    pub kind: ErrorKind,
    pub site: Option<Site>,
    /// The site's PC in the program's terms (`function+offset (file:line)`), filled by the
    /// machine, which has the symbols and line tables.
    pub place: Option<String>,
}

impl SimError {
    pub fn new(kind: ErrorKind) -> Self {
        SimError {
            kind,
            site: None,
            place: None,
        }
    }

    pub fn at(mut self, site: Site) -> Self {
        self.site.get_or_insert(site);
        self
    }
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::Load(m) | ErrorKind::Setup(m) | ErrorKind::Program(m) => f.write_str(m)?,
            ErrorKind::IllegalInstruction { word, reason } => {
                write!(f, "illegal instruction {word:#010x} ({reason})")?
            }
            ErrorKind::Misaligned { what, addr, width } => {
                write!(f, "misaligned {what} of {width} bytes at {addr:#010x}")?
            }
            ErrorKind::Unmapped { what, addr, reason } => {
                write!(f, "{what} at unmapped address {addr:#010x} ({reason})")?
            }
            ErrorKind::Stopped => f.write_str(
                "interrupted: stopped before its end (SIGINT or SIGTERM); the statistics are \
                 partial, up to the cycle it stopped at",
            )?,
            ErrorKind::StackOverflow {
                what,
                addr,
                hart,
                stack,
                owner,
            } => {
                let whose = owner.map_or("below every stack".to_string(), |o| {
                    format!("in hart {o}'s stack")
                });
                write!(
                    f,
                    "{what} at {addr:#010x}, below this thread's own stack (hart {hart}: \
                     [{:#x}, {:#x})), {whose}: a stack overflow? (each thread has stack.size \
                     bytes: docs/CONFIG.md, [stack])",
                    stack.0, stack.1
                )?
            }
            ErrorKind::Deadlock { warps } => {
                write!(
                    f,
                    "deadlock: no live warp can go on (each one's wait below)"
                )?;
                write_warps(f, warps)?;
            }
            ErrorKind::MaxCycles { cycles, warps } => {
                write!(f, "run exceeded run.max_cycles = {cycles}")?;
                write_warps(f, warps)?;
            }
            ErrorKind::MaxRounds { rounds, warps } => {
                write!(
                    f,
                    "functional run exceeded run.max_cycles = {rounds} rounds (in a round \
                     every warp that can goes at least one instruction on)"
                )?;
                write_warps(f, warps)?;
            }
        }
        if let Some(s) = &self.site {
            write!(
                f,
                "\n  at core {} warp {} lanes {:#010x} pc {:#010x}: {}",
                s.core, s.warp, s.lanes, s.pc, s.instr
            )?;
        }
        if let Some(place) = &self.place {
            write!(f, "\n  in {place}")?;
        }
        Ok(())
    }
}

/// One line per warp, the first [`WARPS_SHOWN`] of them (a large machine has thousands).
fn write_warps(f: &mut fmt::Formatter<'_>, warps: &[String]) -> fmt::Result {
    for w in warps.iter().take(WARPS_SHOWN) {
        write!(f, "\n  {w}")?;
    }
    if warps.len() > WARPS_SHOWN {
        write!(
            f,
            "\n  ... and {} more live warps",
            warps.len() - WARPS_SHOWN
        )?;
    }
    Ok(())
}

/// Warps a deadlock or max_cycles message lists.
pub const WARPS_SHOWN: usize = 64;

impl std::error::Error for SimError {}

pub type SimResult<T> = Result<T, SimError>;
