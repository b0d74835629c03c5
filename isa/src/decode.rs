//! Decoding, driven by the encoding table in [`crate::encode`].

use std::fmt;

use crate::encode::{valid_rm, Entry, Imm, AQRL, RD, RD_BIT, RM, RS1, RS2, RS2_BIT, RS3, TABLE};
use crate::{info, Decoded, Instr};

/// A word that is not a valid instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub word: u32,
    pub reason: &'static str,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid instruction 0x{:08x}: {}",
            self.word, self.reason
        )
    }
}

impl std::error::Error for DecodeError {}

/// Decode one 32-bit instruction word.
pub fn decode(word: u32) -> Result<Decoded, DecodeError> {
    let err = |reason| Err(DecodeError { word, reason });
    // The table's masks are pairwise disjoint (checked by a test), so the first hit is the
    // only one.
    let Some(entry) = TABLE.iter().find(|e| word & e.mask == e.bits) else {
        return err(reason_for_miss(word));
    };
    let instr = extract(entry, word);
    if entry.fields & RM != 0 && !valid_rm(instr.rm) {
        return err("reserved rounding mode (5 or 6)");
    }
    Ok(Decoded {
        instr,
        info: info(&instr),
    })
}

/// The operands of `word`, which matches `entry`.
fn extract(entry: &Entry, word: u32) -> Instr {
    let reg = |shift: u32| ((word >> shift) & 31) as u8;
    let has = |f: u8| entry.fields & f != 0;
    let mut instr = Instr::new(entry.op);
    // The 1-bit fields' upper bits are fixed zero by the mask.
    if has(RD | RD_BIT) {
        instr.rd = reg(7);
    }
    if has(RS1) {
        instr.rs1 = reg(15);
    }
    if has(RS2 | RS2_BIT) {
        instr.rs2 = reg(20);
    }
    if has(RS3) {
        instr.rs3 = reg(27);
    }
    if has(RM) {
        instr.rm = ((word >> 12) & 7) as u8;
    }
    if has(AQRL) {
        instr.aqrl = ((word >> 25) & 3) as u8;
    }
    let s = word as i32;
    instr.imm = match entry.imm {
        Imm::None | Imm::FenceI => 0,
        Imm::I => s >> 20,
        Imm::S => ((s >> 25) << 5) | ((word >> 7) & 0x1f) as i32,
        Imm::B => {
            ((s >> 31) << 12)
                | (((word >> 7) & 1) << 11) as i32
                | (((word >> 25) & 0x3f) << 5) as i32
                | (((word >> 8) & 0xf) << 1) as i32
        }
        Imm::U => (word & 0xffff_f000) as i32,
        Imm::J => {
            ((s >> 31) << 20)
                | (word & 0x000f_f000) as i32
                | (((word >> 20) & 1) << 11) as i32
                | (((word >> 21) & 0x3ff) << 1) as i32
        }
        Imm::Shamt => ((word >> 20) & 0x1f) as i32,
        Imm::Csr | Imm::Fence => (word >> 20) as i32,
    };
    instr
}

/// Why no table entry matched: a hint for error messages.
fn reason_for_miss(word: u32) -> &'static str {
    if word & 3 != 3 {
        return "16-bit (compressed) encoding; the C extension is not supported";
    }
    if word & 0x1c == 0x1c {
        return "encoding longer than 32 bits";
    }
    match word & 0x7f {
        0x37 | 0x17 | 0x6f | 0x67 | 0x63 | 0x03 | 0x23 | 0x13 | 0x33 | 0x0f | 0x73 | 0x2f
        | 0x07 | 0x27 | 0x43 | 0x47 | 0x4b | 0x4f | 0x53 => {
            "reserved or unsupported encoding within a standard major opcode"
        }
        0x0b => "reserved encoding within CUSTOM0 (Vortex / SparseWeaver / wsim)",
        0x2b => "reserved encoding within CUSTOM1 (SparseWeaver)",
        _ => "unsupported major opcode",
    }
}
