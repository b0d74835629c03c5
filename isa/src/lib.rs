//! wsim-isa: the instruction set of the simulated GPU.
//!
//! RV32I, M, A, F, Zicsr and Zifencei, the machine-mode return (`mret`, `wfi`), the
//! Vortex SIMT extension and the four SparseWeaver instructions. Pure: no I/O, no timing.
//!
//! An instruction is decoded once into a [`Decoded`]: the operands ([`Instr`]) and the
//! static facts the timing model needs ([`Info`]). [`encode`] is the inverse of
//! [`decode`]; [`disasm`] prints the syntax `llvm-objdump -d` prints.

pub mod csr;
mod decode;
mod disasm;
mod encode;
mod info;

pub use decode::{decode, DecodeError};
pub use disasm::{disasm, disasm_plain, Symbolizer};
pub use encode::encode;
pub use info::info;

/// Major opcodes (bits 6:0) of the custom extensions.
pub const OPCODE_CUSTOM0: u32 = 0x0B;
pub const OPCODE_CUSTOM1: u32 = 0x2B;

/// One operation. The operands live in [`Instr`]; which fields an operation uses is given
/// by its format (see the table in `docs/ISA.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    // RV32I
    Lui,
    Auipc,
    Jal,
    Jalr,
    Beq,
    Bne,
    Blt,
    Bge,
    Bltu,
    Bgeu,
    Lb,
    Lh,
    Lw,
    Lbu,
    Lhu,
    Sb,
    Sh,
    Sw,
    Addi,
    Slti,
    Sltiu,
    Xori,
    Ori,
    Andi,
    Slli,
    Srli,
    Srai,
    Add,
    Sub,
    Sll,
    Slt,
    Sltu,
    Xor,
    Srl,
    Sra,
    Or,
    And,
    Fence,
    Ecall,
    Ebreak,
    // Privileged (machine mode), needed by conformance-test start-up code.
    Mret,
    Wfi,
    // Zifencei
    FenceI,
    // Zicsr
    Csrrw,
    Csrrs,
    Csrrc,
    Csrrwi,
    Csrrsi,
    Csrrci,
    // M
    Mul,
    Mulh,
    Mulhsu,
    Mulhu,
    Div,
    Divu,
    Rem,
    Remu,
    // A
    LrW,
    ScW,
    AmoswapW,
    AmoaddW,
    AmoxorW,
    AmoandW,
    AmoorW,
    AmominW,
    AmomaxW,
    AmominuW,
    AmomaxuW,
    // F
    Flw,
    Fsw,
    FmaddS,
    FmsubS,
    FnmsubS,
    FnmaddS,
    FaddS,
    FsubS,
    FmulS,
    FdivS,
    FsqrtS,
    FsgnjS,
    FsgnjnS,
    FsgnjxS,
    FminS,
    FmaxS,
    FcvtWS,
    FcvtWuS,
    FmvXW,
    FeqS,
    FltS,
    FleS,
    FclassS,
    FcvtSW,
    FcvtSWu,
    FmvWX,
    // Vortex SIMT extension (CUSTOM0, funct7 = 0)
    VxTmc,
    VxWspawn,
    VxSplit,
    VxJoin,
    VxBar,
    VxPred,
    VxWsync,
    // Vortex warp-level primitives (CUSTOM0, funct7 = 1)
    VxVoteAll,
    VxVoteAny,
    VxVoteUni,
    VxVoteBallot,
    VxShflUp,
    VxShflDown,
    VxShflBfly,
    VxShflIdx,
    // SparseWeaver (CUSTOM0 funct7 = 2 for the decodes; CUSTOM1 R4-type for REG and SKIP)
    WeaverDecId,
    WeaverDecLoc,
    WeaverReg,
    WeaverSkip,
    // wsim: float atomic add (CUSTOM0 funct7 = 3)
    AmoaddF,
}

/// A decoded instruction's operands. Register fields hold register numbers (integer or
/// float file as the operation implies); unused fields are zero.
///
/// - `imm`: the sign-extended immediate of I/S/B/U/J formats (U-type holds the value
///   already shifted, `imm[31:12]`); the shift amount of `slli/srli/srai`; the CSR number
///   (0..4095) of Zicsr instructions, whose 5-bit `zimm` is in `rs1`; the raw 12-bit
///   `fm|pred|succ` field of `fence`.
/// - `rm`: the rounding-mode field of F instructions that have one (0-4 static, 7 dynamic).
/// - `aqrl`: the `aq` (bit 1) and `rl` (bit 0) bits of A instructions.
/// - SPLIT's and PRED's "negate" form is `rs2 == 1` and `rd == 1` respectively, as in
///   Vortex's encoding, and is kept in those fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instr {
    pub op: Op,
    pub rd: u8,
    pub rs1: u8,
    pub rs2: u8,
    pub rs3: u8,
    pub imm: i32,
    pub rm: u8,
    pub aqrl: u8,
}

impl Instr {
    /// An instruction with every operand zero.
    pub const fn new(op: Op) -> Self {
        Instr {
            op,
            rd: 0,
            rs1: 0,
            rs2: 0,
            rs3: 0,
            imm: 0,
            rm: 0,
            aqrl: 0,
        }
    }
}

/// Register file of an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegFile {
    Int,
    Float,
}

/// A register operand. `x0` never appears as a source or destination in [`Info`]: it
/// carries no dependency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegRef {
    pub file: RegFile,
    pub num: u8,
}

/// Operation classes of the FPU; each has its own latency in the timing model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FpuClass {
    /// fadd, fsub, fmul, fmadd family.
    AddMul,
    Div,
    Sqrt,
    /// fcvt between integer and float.
    Cvt,
    /// feq/flt/fle, fmin/fmax.
    Compare,
    /// fsgnj*, fmv.x.w, fmv.w.x, fclass.
    Move,
}

/// What the load/store unit does with an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LsuKind {
    Load,
    Store,
    /// LR, SC and AMOs: executed at the last-level cache.
    Atomic,
    /// fence and fence.i.
    Fence,
}

/// What the special-function unit does with an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SfuKind {
    Csr,
    /// TMC, WSPAWN, SPLIT, JOIN, BAR, PRED, WSYNC.
    WarpControl,
    /// VOTE and SHFL: cross-lane, but no control flow.
    WarpLevel,
    Weaver,
    /// ecall, ebreak, mret, wfi.
    System,
}

/// The functional unit an instruction issues to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Integer ALU, including branches, jumps, lui and auipc.
    Alu,
    /// mul, mulh, mulhsu, mulhu.
    Mul,
    /// div, divu, rem, remu (not pipelined).
    Div,
    Fpu(FpuClass),
    Lsu(LsuKind),
    Sfu(SfuKind),
}

/// How an instruction changes the flow of control; the scheduler holds a warp that
/// issued anything but `None` until it resolves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flow {
    None,
    /// Conditional branch: may diverge.
    Branch,
    /// jal (direct jump or call).
    Jump,
    /// jalr (return, indirect call or indirect jump: may diverge).
    IndirectJump,
    /// ecall, ebreak, mret, wfi: may trap or return from a trap.
    System,
    /// Vortex warp control: changes the thread mask, the PC or the warp's state.
    WarpControl,
}

/// The memory access of a load, store or atomic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemAccess {
    /// Bytes: 1, 2 or 4.
    pub width: u8,
    /// Loads narrower than a word: sign-extend the value.
    pub signed: bool,
}

/// Static facts about an instruction, computed once at decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Info {
    pub unit: Unit,
    /// Source registers in operand order (rs1, rs2, rs3), `None` where unused or `x0`.
    pub srcs: [Option<RegRef>; 3],
    /// Destination register, `None` where unused or `x0`.
    pub dst: Option<RegRef>,
    pub flow: Flow,
    pub mem: Option<MemAccess>,
}

/// An instruction as the engine caches it per PC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decoded {
    pub instr: Instr,
    pub info: Info,
}
