//! The encoding table (one entry per [`Op`], shared by the decoder) and the encoder.

use crate::{Instr, Op, OPCODE_CUSTOM0, OPCODE_CUSTOM1};

// Operand fields an encoding carries. Every bit outside the fields (and outside the
// immediate) is fixed by the entry's `bits`: a word with anything else there is invalid.
pub(crate) const RD: u8 = 1;
pub(crate) const RS1: u8 = 2;
pub(crate) const RS2: u8 = 4;
pub(crate) const RS3: u8 = 8;
/// Rounding mode in funct3 (bits 14:12).
pub(crate) const RM: u8 = 16;
/// aq/rl in bits 26:25.
pub(crate) const AQRL: u8 = 32;
/// Only bit 0 of the rd field is free (PRED's negate flag); bits 11:8 must be zero.
pub(crate) const RD_BIT: u8 = 64;
/// Only bit 0 of the rs2 field is free (SPLIT's negate flag); bits 24:21 must be zero.
pub(crate) const RS2_BIT: u8 = 128;

/// The immediate layout of an encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Imm {
    None,
    I,
    S,
    B,
    U,
    J,
    /// shamt in bits 24:20 (RV32: bit 25 is part of funct7 and must be zero).
    Shamt,
    /// CSR number in bits 31:20, unsigned.
    Csr,
    /// fm|pred|succ in bits 31:20, raw; rd and rs1 are ignored as the spec requires.
    Fence,
    /// No operands; imm, rs1 and rd are ignored as the Zifencei spec requires.
    FenceI,
}

pub(crate) struct Entry {
    pub op: Op,
    /// The fixed bits of the encoding (operand fields zero).
    pub bits: u32,
    /// Which bits are fixed: `word & mask == bits` identifies the operation.
    pub mask: u32,
    pub fields: u8,
    pub imm: Imm,
}

const fn free_bits(fields: u8, imm: Imm) -> u32 {
    let mut free = 0;
    if fields & RD != 0 {
        free |= 0x1f << 7;
    }
    if fields & RD_BIT != 0 {
        free |= 1 << 7;
    }
    if fields & RS1 != 0 {
        free |= 0x1f << 15;
    }
    if fields & RS2 != 0 {
        free |= 0x1f << 20;
    }
    if fields & RS2_BIT != 0 {
        free |= 1 << 20;
    }
    if fields & RS3 != 0 {
        free |= 0x1f << 27;
    }
    if fields & RM != 0 {
        free |= 7 << 12;
    }
    if fields & AQRL != 0 {
        free |= 3 << 25;
    }
    free | match imm {
        Imm::None => 0,
        Imm::I | Imm::Csr => 0xfff0_0000,
        Imm::S | Imm::B => 0xfe00_0f80,
        Imm::U | Imm::J => 0xffff_f000,
        Imm::Shamt => 0x01f0_0000,
        Imm::Fence => 0xfff0_0000 | (0x1f << 15) | (0x1f << 7),
        Imm::FenceI => 0xffff_8f80,
    }
}

const fn e(op: Op, bits: u32, fields: u8, imm: Imm) -> Entry {
    Entry {
        op,
        bits,
        mask: !free_bits(fields, imm),
        fields,
        imm,
    }
}

/// funct7 | funct3 | opcode.
const fn r(funct7: u32, funct3: u32, opcode: u32) -> u32 {
    (funct7 << 25) | (funct3 << 12) | opcode
}

/// An AMO's funct5 (bits 31:27) with funct3 = 2 (word).
const fn amo(funct5: u32) -> u32 {
    (funct5 << 27) | (2 << 12) | 0x2f
}

/// OP-FP with a fixed rs2 field (which selects the variant of fsqrt/fcvt/fmv/fclass).
const fn fp(funct7: u32, rs2: u32, funct3: u32) -> u32 {
    r(funct7, funct3, 0x53) | (rs2 << 20)
}

const R: u8 = RD | RS1 | RS2;
const R2: u8 = RD | RS1;

impl Op {
    /// Every operation, in declaration order.
    pub const ALL: [Op; TABLE.len()] = {
        let mut all = [Op::Lui; TABLE.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = TABLE[i].op;
            i += 1;
        }
        all
    };
}

/// One entry per [`Op`], in declaration order, so `TABLE[op as usize].op == op` (the
/// length is checked by the compiler, the order by a test).
pub(crate) const TABLE: [Entry; Op::AmoaddF as usize + 1] = [
    e(Op::Lui, 0x37, RD, Imm::U),
    e(Op::Auipc, 0x17, RD, Imm::U),
    e(Op::Jal, 0x6f, RD, Imm::J),
    e(Op::Jalr, 0x67, R2, Imm::I),
    e(Op::Beq, r(0, 0, 0x63), RS1 | RS2, Imm::B),
    e(Op::Bne, r(0, 1, 0x63), RS1 | RS2, Imm::B),
    e(Op::Blt, r(0, 4, 0x63), RS1 | RS2, Imm::B),
    e(Op::Bge, r(0, 5, 0x63), RS1 | RS2, Imm::B),
    e(Op::Bltu, r(0, 6, 0x63), RS1 | RS2, Imm::B),
    e(Op::Bgeu, r(0, 7, 0x63), RS1 | RS2, Imm::B),
    e(Op::Lb, r(0, 0, 0x03), R2, Imm::I),
    e(Op::Lh, r(0, 1, 0x03), R2, Imm::I),
    e(Op::Lw, r(0, 2, 0x03), R2, Imm::I),
    e(Op::Lbu, r(0, 4, 0x03), R2, Imm::I),
    e(Op::Lhu, r(0, 5, 0x03), R2, Imm::I),
    e(Op::Sb, r(0, 0, 0x23), RS1 | RS2, Imm::S),
    e(Op::Sh, r(0, 1, 0x23), RS1 | RS2, Imm::S),
    e(Op::Sw, r(0, 2, 0x23), RS1 | RS2, Imm::S),
    e(Op::Addi, r(0, 0, 0x13), R2, Imm::I),
    e(Op::Slti, r(0, 2, 0x13), R2, Imm::I),
    e(Op::Sltiu, r(0, 3, 0x13), R2, Imm::I),
    e(Op::Xori, r(0, 4, 0x13), R2, Imm::I),
    e(Op::Ori, r(0, 6, 0x13), R2, Imm::I),
    e(Op::Andi, r(0, 7, 0x13), R2, Imm::I),
    e(Op::Slli, r(0, 1, 0x13), R2, Imm::Shamt),
    e(Op::Srli, r(0, 5, 0x13), R2, Imm::Shamt),
    e(Op::Srai, r(0x20, 5, 0x13), R2, Imm::Shamt),
    e(Op::Add, r(0, 0, 0x33), R, Imm::None),
    e(Op::Sub, r(0x20, 0, 0x33), R, Imm::None),
    e(Op::Sll, r(0, 1, 0x33), R, Imm::None),
    e(Op::Slt, r(0, 2, 0x33), R, Imm::None),
    e(Op::Sltu, r(0, 3, 0x33), R, Imm::None),
    e(Op::Xor, r(0, 4, 0x33), R, Imm::None),
    e(Op::Srl, r(0, 5, 0x33), R, Imm::None),
    e(Op::Sra, r(0x20, 5, 0x33), R, Imm::None),
    e(Op::Or, r(0, 6, 0x33), R, Imm::None),
    e(Op::And, r(0, 7, 0x33), R, Imm::None),
    e(Op::Fence, r(0, 0, 0x0f), 0, Imm::Fence),
    e(Op::Ecall, 0x0000_0073, 0, Imm::None),
    e(Op::Ebreak, 0x0010_0073, 0, Imm::None),
    e(Op::Mret, 0x3020_0073, 0, Imm::None),
    e(Op::Wfi, 0x1050_0073, 0, Imm::None),
    e(Op::FenceI, r(0, 1, 0x0f), 0, Imm::FenceI),
    e(Op::Csrrw, r(0, 1, 0x73), R2, Imm::Csr),
    e(Op::Csrrs, r(0, 2, 0x73), R2, Imm::Csr),
    e(Op::Csrrc, r(0, 3, 0x73), R2, Imm::Csr),
    e(Op::Csrrwi, r(0, 5, 0x73), R2, Imm::Csr),
    e(Op::Csrrsi, r(0, 6, 0x73), R2, Imm::Csr),
    e(Op::Csrrci, r(0, 7, 0x73), R2, Imm::Csr),
    e(Op::Mul, r(1, 0, 0x33), R, Imm::None),
    e(Op::Mulh, r(1, 1, 0x33), R, Imm::None),
    e(Op::Mulhsu, r(1, 2, 0x33), R, Imm::None),
    e(Op::Mulhu, r(1, 3, 0x33), R, Imm::None),
    e(Op::Div, r(1, 4, 0x33), R, Imm::None),
    e(Op::Divu, r(1, 5, 0x33), R, Imm::None),
    e(Op::Rem, r(1, 6, 0x33), R, Imm::None),
    e(Op::Remu, r(1, 7, 0x33), R, Imm::None),
    e(Op::LrW, amo(0x02), R2 | AQRL, Imm::None),
    e(Op::ScW, amo(0x03), R | AQRL, Imm::None),
    e(Op::AmoswapW, amo(0x01), R | AQRL, Imm::None),
    e(Op::AmoaddW, amo(0x00), R | AQRL, Imm::None),
    e(Op::AmoxorW, amo(0x04), R | AQRL, Imm::None),
    e(Op::AmoandW, amo(0x0c), R | AQRL, Imm::None),
    e(Op::AmoorW, amo(0x08), R | AQRL, Imm::None),
    e(Op::AmominW, amo(0x10), R | AQRL, Imm::None),
    e(Op::AmomaxW, amo(0x14), R | AQRL, Imm::None),
    e(Op::AmominuW, amo(0x18), R | AQRL, Imm::None),
    e(Op::AmomaxuW, amo(0x1c), R | AQRL, Imm::None),
    e(Op::Flw, r(0, 2, 0x07), R2, Imm::I),
    e(Op::Fsw, r(0, 2, 0x27), RS1 | RS2, Imm::S),
    // R4-type: funct2 (bits 26:25) = 00 selects single precision.
    e(Op::FmaddS, 0x43, R | RS3 | RM, Imm::None),
    e(Op::FmsubS, 0x47, R | RS3 | RM, Imm::None),
    e(Op::FnmsubS, 0x4b, R | RS3 | RM, Imm::None),
    e(Op::FnmaddS, 0x4f, R | RS3 | RM, Imm::None),
    e(Op::FaddS, fp(0x00, 0, 0), R | RM, Imm::None),
    e(Op::FsubS, fp(0x04, 0, 0), R | RM, Imm::None),
    e(Op::FmulS, fp(0x08, 0, 0), R | RM, Imm::None),
    e(Op::FdivS, fp(0x0c, 0, 0), R | RM, Imm::None),
    e(Op::FsqrtS, fp(0x2c, 0, 0), R2 | RM, Imm::None),
    e(Op::FsgnjS, fp(0x10, 0, 0), R, Imm::None),
    e(Op::FsgnjnS, fp(0x10, 0, 1), R, Imm::None),
    e(Op::FsgnjxS, fp(0x10, 0, 2), R, Imm::None),
    e(Op::FminS, fp(0x14, 0, 0), R, Imm::None),
    e(Op::FmaxS, fp(0x14, 0, 1), R, Imm::None),
    e(Op::FcvtWS, fp(0x60, 0, 0), R2 | RM, Imm::None),
    e(Op::FcvtWuS, fp(0x60, 1, 0), R2 | RM, Imm::None),
    e(Op::FmvXW, fp(0x70, 0, 0), R2, Imm::None),
    e(Op::FeqS, fp(0x50, 0, 2), R, Imm::None),
    e(Op::FltS, fp(0x50, 0, 1), R, Imm::None),
    e(Op::FleS, fp(0x50, 0, 0), R, Imm::None),
    e(Op::FclassS, fp(0x70, 0, 1), R2, Imm::None),
    e(Op::FcvtSW, fp(0x68, 0, 0), R2 | RM, Imm::None),
    e(Op::FcvtSWu, fp(0x68, 1, 0), R2 | RM, Imm::None),
    e(Op::FmvWX, fp(0x78, 0, 0), R2, Imm::None),
    e(Op::VxTmc, r(0, 0, OPCODE_CUSTOM0), RS1, Imm::None),
    e(Op::VxWspawn, r(0, 1, OPCODE_CUSTOM0), RS1 | RS2, Imm::None),
    e(
        Op::VxSplit,
        r(0, 2, OPCODE_CUSTOM0),
        RD | RS1 | RS2_BIT,
        Imm::None,
    ),
    e(Op::VxJoin, r(0, 3, OPCODE_CUSTOM0), RS1, Imm::None),
    e(Op::VxBar, r(0, 4, OPCODE_CUSTOM0), RS1 | RS2, Imm::None),
    e(
        Op::VxPred,
        r(0, 5, OPCODE_CUSTOM0),
        RD_BIT | RS1 | RS2,
        Imm::None,
    ),
    e(Op::VxWsync, r(0, 7, OPCODE_CUSTOM0), 0, Imm::None),
    e(Op::VxVoteAll, r(1, 0, OPCODE_CUSTOM0), R, Imm::None),
    e(Op::VxVoteAny, r(1, 1, OPCODE_CUSTOM0), R, Imm::None),
    e(Op::VxVoteUni, r(1, 2, OPCODE_CUSTOM0), R, Imm::None),
    e(Op::VxVoteBallot, r(1, 3, OPCODE_CUSTOM0), R, Imm::None),
    e(Op::VxShflUp, r(1, 4, OPCODE_CUSTOM0), R, Imm::None),
    e(Op::VxShflDown, r(1, 5, OPCODE_CUSTOM0), R, Imm::None),
    e(Op::VxShflBfly, r(1, 6, OPCODE_CUSTOM0), R, Imm::None),
    e(Op::VxShflIdx, r(1, 7, OPCODE_CUSTOM0), R, Imm::None),
    e(Op::WeaverDecId, r(2, 0, OPCODE_CUSTOM0), RD, Imm::None),
    e(Op::WeaverDecLoc, r(2, 1, OPCODE_CUSTOM0), RD, Imm::None),
    // R4-type with funct2 = 0 and rd = 0.
    e(
        Op::WeaverReg,
        r(0, 0, OPCODE_CUSTOM1),
        RS1 | RS2 | RS3,
        Imm::None,
    ),
    e(Op::WeaverSkip, r(0, 1, OPCODE_CUSTOM1), RS1, Imm::None),
    e(Op::AmoaddF, r(3, 0, OPCODE_CUSTOM0), R, Imm::None),
];

/// Rounding modes 0-4 (static) and 7 (dynamic); 5 and 6 are reserved.
pub(crate) fn valid_rm(rm: u8) -> bool {
    rm <= 4 || rm == 7
}

/// Encode an instruction into its 32-bit word: the inverse of [`crate::decode`].
///
/// Each operand is masked to its field, so an `Instr` that `decode` could not have
/// produced (e.g. a misaligned branch offset) encodes to some word without panicking; it
/// need not decode back to the same `Instr`.
pub fn encode(instr: &Instr) -> u32 {
    let entry = &TABLE[instr.op as usize];
    let has = |f: u8| entry.fields & f != 0;
    let reg = |r: u8, shift: u32| (u32::from(r) & 31) << shift;
    let mut word = entry.bits;
    if has(RD) {
        word |= reg(instr.rd, 7);
    }
    if has(RD_BIT) {
        word |= reg(instr.rd & 1, 7);
    }
    if has(RS1) {
        word |= reg(instr.rs1, 15);
    }
    if has(RS2) {
        word |= reg(instr.rs2, 20);
    }
    if has(RS2_BIT) {
        word |= reg(instr.rs2 & 1, 20);
    }
    if has(RS3) {
        word |= reg(instr.rs3, 27);
    }
    if has(RM) {
        word |= (u32::from(instr.rm) & 7) << 12;
    }
    if has(AQRL) {
        word |= (u32::from(instr.aqrl) & 3) << 25;
    }
    let imm = instr.imm as u32;
    word | match entry.imm {
        Imm::None | Imm::FenceI => 0,
        Imm::I | Imm::Csr | Imm::Fence => (imm & 0xfff) << 20,
        Imm::S => ((imm >> 5) & 0x7f) << 25 | (imm & 0x1f) << 7,
        Imm::B => {
            ((imm >> 12) & 1) << 31
                | ((imm >> 5) & 0x3f) << 25
                | ((imm >> 1) & 0xf) << 8
                | ((imm >> 11) & 1) << 7
        }
        Imm::U => imm & 0xffff_f000,
        Imm::J => {
            ((imm >> 20) & 1) << 31
                | ((imm >> 1) & 0x3ff) << 21
                | ((imm >> 11) & 1) << 20
                | (imm & 0x000f_f000)
        }
        Imm::Shamt => (imm & 0x1f) << 20,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_in_op_order() {
        for (i, entry) in TABLE.iter().enumerate() {
            assert_eq!(entry.op as usize, i, "{:?} out of place", entry.op);
        }
    }

    #[test]
    fn encodings_are_disjoint() {
        for (i, a) in TABLE.iter().enumerate() {
            assert_eq!(
                a.bits & !a.mask,
                0,
                "{:?} has bits in its operand fields",
                a.op
            );
            for b in &TABLE[i + 1..] {
                assert_ne!(
                    (a.bits ^ b.bits) & a.mask & b.mask,
                    0,
                    "{:?} and {:?} overlap",
                    a.op,
                    b.op
                );
            }
        }
    }
}
