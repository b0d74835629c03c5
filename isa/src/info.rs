//! Static facts of an instruction: unit, register operands, control flow, memory access.

use crate::{Flow, FpuClass, Info, Instr, LsuKind, MemAccess, Op, RegFile, RegRef, SfuKind, Unit};

/// Register files of (rs1, rs2, rs3, rd); `None` where the operation does not use the
/// field as a register.
type Regs = [Option<RegFile>; 4];

const I: Option<RegFile> = Some(RegFile::Int);
const F: Option<RegFile> = Some(RegFile::Float);
const N: Option<RegFile> = None;

/// The static facts of an instruction.
pub fn info(instr: &Instr) -> Info {
    use Op::*;
    let (unit, regs, flow): (Unit, Regs, Flow) = match instr.op {
        Lui | Auipc => (Unit::Alu, [N, N, N, I], Flow::None),
        Jal => (Unit::Alu, [N, N, N, I], Flow::Jump),
        Jalr => (Unit::Alu, [I, N, N, I], Flow::IndirectJump),
        Beq | Bne | Blt | Bge | Bltu | Bgeu => (Unit::Alu, [I, I, N, N], Flow::Branch),
        Lb | Lh | Lw | Lbu | Lhu => (Unit::Lsu(LsuKind::Load), [I, N, N, I], Flow::None),
        Sb | Sh | Sw => (Unit::Lsu(LsuKind::Store), [I, I, N, N], Flow::None),
        Addi | Slti | Sltiu | Xori | Ori | Andi | Slli | Srli | Srai => {
            (Unit::Alu, [I, N, N, I], Flow::None)
        }
        Add | Sub | Sll | Slt | Sltu | Xor | Srl | Sra | Or | And => {
            (Unit::Alu, [I, I, N, I], Flow::None)
        }
        Fence | FenceI => (Unit::Lsu(LsuKind::Fence), [N; 4], Flow::None),
        Ecall | Ebreak | Mret | Wfi => (Unit::Sfu(SfuKind::System), [N; 4], Flow::System),
        Csrrw | Csrrs | Csrrc => (Unit::Sfu(SfuKind::Csr), [I, N, N, I], Flow::None),
        // rs1 holds the 5-bit immediate, not a register.
        Csrrwi | Csrrsi | Csrrci => (Unit::Sfu(SfuKind::Csr), [N, N, N, I], Flow::None),
        Mul | Mulh | Mulhsu | Mulhu => (Unit::Mul, [I, I, N, I], Flow::None),
        Div | Divu | Rem | Remu => (Unit::Div, [I, I, N, I], Flow::None),
        LrW => (Unit::Lsu(LsuKind::Atomic), [I, N, N, I], Flow::None),
        ScW | AmoswapW | AmoaddW | AmoxorW | AmoandW | AmoorW | AmominW | AmomaxW | AmominuW
        | AmomaxuW => (Unit::Lsu(LsuKind::Atomic), [I, I, N, I], Flow::None),
        Flw => (Unit::Lsu(LsuKind::Load), [I, N, N, F], Flow::None),
        Fsw => (Unit::Lsu(LsuKind::Store), [I, F, N, N], Flow::None),
        FmaddS | FmsubS | FnmsubS | FnmaddS => {
            (Unit::Fpu(FpuClass::AddMul), [F, F, F, F], Flow::None)
        }
        FaddS | FsubS | FmulS => (Unit::Fpu(FpuClass::AddMul), [F, F, N, F], Flow::None),
        FdivS => (Unit::Fpu(FpuClass::Div), [F, F, N, F], Flow::None),
        FsqrtS => (Unit::Fpu(FpuClass::Sqrt), [F, N, N, F], Flow::None),
        FsgnjS | FsgnjnS | FsgnjxS => (Unit::Fpu(FpuClass::Move), [F, F, N, F], Flow::None),
        FminS | FmaxS => (Unit::Fpu(FpuClass::Compare), [F, F, N, F], Flow::None),
        FeqS | FltS | FleS => (Unit::Fpu(FpuClass::Compare), [F, F, N, I], Flow::None),
        FcvtWS | FcvtWuS => (Unit::Fpu(FpuClass::Cvt), [F, N, N, I], Flow::None),
        FcvtSW | FcvtSWu => (Unit::Fpu(FpuClass::Cvt), [I, N, N, F], Flow::None),
        FmvXW | FclassS => (Unit::Fpu(FpuClass::Move), [F, N, N, I], Flow::None),
        FmvWX => (Unit::Fpu(FpuClass::Move), [I, N, N, F], Flow::None),
        VxTmc | VxJoin => (
            Unit::Sfu(SfuKind::WarpControl),
            [I, N, N, N],
            Flow::WarpControl,
        ),
        VxWspawn | VxBar | VxPred => (
            Unit::Sfu(SfuKind::WarpControl),
            [I, I, N, N],
            Flow::WarpControl,
        ),
        // rd receives the join token; rs2 is the negate flag, not a register.
        VxSplit => (
            Unit::Sfu(SfuKind::WarpControl),
            [I, N, N, I],
            Flow::WarpControl,
        ),
        VxWsync => (Unit::Sfu(SfuKind::WarpControl), [N; 4], Flow::WarpControl),
        VxVoteAll | VxVoteAny | VxVoteUni | VxVoteBallot | VxShflUp | VxShflDown | VxShflBfly
        | VxShflIdx => (Unit::Sfu(SfuKind::WarpLevel), [I, I, N, I], Flow::None),
        // DEC_ID sets the thread mask to the lanes that received work: warp control.
        WeaverDecId => (Unit::Sfu(SfuKind::Weaver), [N, N, N, I], Flow::WarpControl),
        WeaverDecLoc => (Unit::Sfu(SfuKind::Weaver), [N, N, N, I], Flow::None),
        WeaverReg => (Unit::Sfu(SfuKind::Weaver), [I, I, I, N], Flow::None),
        WeaverSkip => (Unit::Sfu(SfuKind::Weaver), [I, N, N, N], Flow::None),
        // rd <- old value, rs1 the address, rs2 the addend (both values single precision).
        AmoaddF => (Unit::Lsu(LsuKind::Atomic), [I, F, N, F], Flow::None),
    };
    let reg = |file: Option<RegFile>, num: u8| {
        let file = file?;
        // x0 is hard-wired and carries no dependency; f0 is an ordinary register.
        (file == RegFile::Float || num != 0).then_some(RegRef { file, num })
    };
    Info {
        unit,
        srcs: [
            reg(regs[0], instr.rs1),
            reg(regs[1], instr.rs2),
            reg(regs[2], instr.rs3),
        ],
        dst: reg(regs[3], instr.rd),
        flow,
        mem: mem_access(instr.op),
    }
}

fn mem_access(op: Op) -> Option<MemAccess> {
    use Op::*;
    let (width, signed) = match op {
        Lb => (1, true),
        Lbu | Sb => (1, false),
        Lh => (2, true),
        Lhu | Sh => (2, false),
        Lw | Sw | Flw | Fsw | LrW | ScW | AmoswapW | AmoaddW | AmoxorW | AmoandW | AmoorW
        | AmominW | AmomaxW | AmominuW | AmomaxuW | AmoaddF => (4, false),
        _ => return None,
    };
    Some(MemAccess { width, signed })
}
