//! Functional execution: what one warp instruction does to the architectural state of its
//! active lanes, split by extension (integer, control, memory, CSR, FP, SIMT; the Weaver's
//! instructions are in `core/weaver/exec.rs`). How long it takes is the timing model's
//! business, and what it counts the statistics': execution hands both an [`Executed`]
//! record and nothing else (the pipeline's issue counts the instruction, `core/account.rs`
//! the rest of the record).

mod control;
mod csr;
mod float;
mod integer;
mod memory;
mod simt;

use wsim_isa::{Decoded, Instr, Op};

use super::weaver::table::WeaverRequest;
use super::Core;
use crate::error::{ErrorKind, SimError, SimResult};
use crate::shared::Shared;

/// What the machine outside the core must do after an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    /// The warp arrived at a global (cross-core) barrier and waits.
    GlobalBarrier {
        id: u32,
        count: u32,
    },
    /// The program ended the run (tohost or an `ecall` exit) with this status.
    Exit(u32),
    /// The core's launch (`vx_wspawn` while none of its spawned warps ran) started, or its
    /// last spawned warp exited: the machine's launch records follow the cores'.
    Launch {
        started: bool,
    },
}

/// What an executed instruction did, as the machine, the timing model and the statistics
/// learn it. Filled as far as the instruction got: a fatal error leaves what happened
/// before it (the statistics of a failed run count it).
#[derive(Debug)]
pub struct Executed {
    pub effect: Effect,
    /// The addresses it accessed, in execution order (lane order; an atomic's load then its
    /// store; an EGHW decode's topology words, then its edges).
    pub accesses: Vec<u32>,
    /// What a Weaver instruction asked of the unit.
    pub weaver: Option<WeaverRequest>,
    /// Warps a local barrier released, a bit per warp.
    pub released: u32,
    /// What it did that the statistics and the timeline count.
    pub events: ExecEvents,
}

/// What an instruction did that is counted (`Core::account`), beyond its issue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExecEvents {
    /// A conditional branch.
    pub branch: bool,
    /// Its lanes went different ways (a branch or an indirect jump).
    pub divergent: bool,
    /// An indirect jump diverged to targets the static analysis did not know.
    pub unknown_indirect: bool,
    /// A load, store or atomic that completed on every lane.
    pub memory: Option<MemoryOp>,
    /// It trapped to the warp's handler.
    pub trapped: bool,
    /// The warp arrived at barrier `id` (local or global).
    pub barrier: Option<u32>,
    /// Warps a `vx_wspawn` started, a bit per warp.
    pub spawned: u32,
    /// The warp's lanes retired (`vx_tmc` or `vx_pred` to none).
    pub retired: bool,
}

/// The kind of a counted memory instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryOp {
    Load,
    Store,
    Atomic,
}

impl Executed {
    /// An empty record that fills `accesses` (cleared), so its allocation is reused.
    pub(in crate::core) fn new(mut accesses: Vec<u32>) -> Self {
        accesses.clear();
        Executed {
            effect: Effect::None,
            accesses,
            weaver: None,
            released: 0,
            events: ExecEvents::default(),
        }
    }
}

// mcause values.
const CAUSE_MISALIGNED_FETCH: u32 = 0;
const CAUSE_ILLEGAL: u32 = 2;
const CAUSE_BREAKPOINT: u32 = 3;
const CAUSE_MISALIGNED_LOAD: u32 = 4;
const CAUSE_MISALIGNED_STORE: u32 = 6;
const CAUSE_ECALL_M: u32 = 11;

/// A condition that traps to `mtvec` when the program installed a handler and is an
/// error otherwise.
struct Trap {
    cause: u32,
    tval: u32,
    error: ErrorKind,
}

impl Trap {
    /// An illegal instruction: `word` with the reason it is one.
    fn illegal(word: u32, reason: String) -> Self {
        Trap {
            cause: CAUSE_ILLEGAL,
            tval: word,
            error: ErrorKind::IllegalInstruction { word, reason },
        }
    }

    /// A jump or branch to an address that is not 4-byte aligned.
    fn misaligned_target(target: u32) -> Self {
        Trap {
            cause: CAUSE_MISALIGNED_FETCH,
            tval: target,
            error: ErrorKind::Misaligned {
                what: "jump target",
                addr: target,
                width: 4,
            },
        }
    }
}

/// Why an instruction did not complete: a trap to take (an error if no handler is
/// installed), or a fatal error.
enum Fault {
    Trap(Trap),
    Fatal(SimError),
}

impl From<Trap> for Fault {
    fn from(t: Trap) -> Self {
        Fault::Trap(t)
    }
}

impl From<SimError> for Fault {
    fn from(e: SimError) -> Self {
        Fault::Fatal(e)
    }
}

type ExecResult<T> = Result<T, Fault>;

/// Where the warp goes after an instruction.
enum Next {
    /// The instruction after it.
    Advance,
    /// The instruction set the PC (or retired the lanes) itself.
    Moved,
}

impl Core {
    /// Execute the instruction at the PC of warp `w`'s executing path into `rec` (an empty
    /// record).
    pub(in crate::core) fn execute(
        &mut self,
        w: usize,
        d: &Decoded,
        sh: &mut Shared,
        rec: &mut Executed,
    ) -> SimResult<()> {
        let pc = self.warps[w].stack.pc();
        let mask = self.warps[w].stack.mask();
        self.warps[w].instret += 1;
        match self.dispatch(w, pc, mask, &d.instr, sh, rec) {
            Ok(Next::Advance) => self.warps[w].stack.jump(pc.wrapping_add(4))?,
            Ok(Next::Moved) => {}
            Err(Fault::Fatal(e)) => return Err(e),
            Err(Fault::Trap(trap)) => {
                self.take_trap(w, pc, trap)?;
                rec.events.trapped = true;
            }
        }
        Ok(())
    }

    /// Raise an illegal-instruction condition for a word that did not decode (it issued,
    /// and traps, into `rec`).
    pub(in crate::core) fn illegal_word(
        &mut self,
        w: usize,
        word: u32,
        reason: &str,
        rec: &mut Executed,
    ) -> SimResult<()> {
        let pc = self.warps[w].stack.pc();
        self.take_trap(w, pc, Trap::illegal(word, reason.to_string()))?;
        rec.events.trapped = true;
        Ok(())
    }

    fn take_trap(&mut self, w: usize, pc: u32, trap: Trap) -> SimResult<()> {
        let warp = &mut self.warps[w];
        if warp.trap.mtvec == 0 {
            return Err(SimError::new(trap.error));
        }
        warp.trap.mepc = pc;
        warp.trap.mcause = trap.cause;
        warp.trap.mtval = trap.tval;
        // MPIE <- MIE, MIE <- 0, MPP <- M.
        let mie = (warp.trap.mstatus >> 3) & 1;
        warp.trap.mstatus = (warp.trap.mstatus & !0x88) | (mie << 7) | (3 << 11);
        let vector = warp.trap.mtvec & !3;
        warp.stack.jump(vector)
    }

    /// The extension that executes `i`.
    fn dispatch(
        &mut self,
        w: usize,
        pc: u32,
        mask: u32,
        i: &Instr,
        sh: &mut Shared,
        rec: &mut Executed,
    ) -> ExecResult<Next> {
        use Op::*;
        match i.op {
            Lui | Auipc | Addi | Slti | Sltiu | Xori | Ori | Andi | Slli | Srli | Srai | Add
            | Sub | Sll | Slt | Sltu | Xor | Srl | Sra | Or | And | Mul | Mulh | Mulhsu | Mulhu
            | Div | Divu | Rem | Remu => self.integer(w, pc, mask, i),
            Beq | Bne | Blt | Bge | Bltu | Bgeu => self.branch(w, pc, mask, i, sh, rec),
            Jal => self.jal(w, pc, mask, i),
            Jalr => self.jalr(w, pc, mask, i, sh, rec),
            Ecall | Ebreak | Mret | Wfi => self.system(w, pc, mask, i, rec),
            Lb | Lh | Lw | Lbu | Lhu | Flw => self.load_op(w, mask, i, sh, rec),
            Sb | Sh | Sw | Fsw => self.store_op(w, mask, i, sh, rec),
            LrW | ScW | AmoswapW | AmoaddW | AmoxorW | AmoandW | AmoorW | AmominW | AmomaxW
            | AmominuW | AmomaxuW | AmoaddF => self.atomic(w, mask, i, sh, rec),
            Fence => Ok(Next::Advance),
            FenceI => {
                sh.program.fence_i(&sh.mem);
                Ok(Next::Advance)
            }
            Csrrw | Csrrs | Csrrc | Csrrwi | Csrrsi | Csrrci => self.csr_op(w, mask, i, sh),
            FmaddS | FmsubS | FnmsubS | FnmaddS | FaddS | FsubS | FmulS | FdivS | FsqrtS
            | FsgnjS | FsgnjnS | FsgnjxS | FminS | FmaxS | FcvtWS | FcvtWuS | FmvXW | FeqS
            | FltS | FleS | FclassS | FcvtSW | FcvtSWu | FmvWX => self.float(w, mask, i),
            VxTmc | VxWspawn | VxSplit | VxJoin | VxBar | VxPred | VxWsync | VxVoteAll
            | VxVoteAny | VxVoteUni | VxVoteBallot | VxShflUp | VxShflDown | VxShflBfly
            | VxShflIdx => self.simt(w, pc, mask, i, sh, rec),
            WeaverReg | WeaverDecId | WeaverDecLoc | WeaverSkip => {
                self.execute_weaver(w, mask, i, sh, rec)?;
                Ok(Next::Advance)
            }
        }
    }
}
