//! The custom (Vortex / SparseWeaver) encodings, each checked bit by bit against a
//! hand-written word, plus the reserved neighbours that must not decode.

// Words are written grouped by instruction field, not by nibble.
#![allow(clippy::unusual_byte_groupings)]

use wsim_isa::{decode, disasm_plain, encode, Instr, Op};

fn instr(op: Op, rd: u8, rs1: u8, rs2: u8, rs3: u8) -> Instr {
    Instr {
        rd,
        rs1,
        rs2,
        rs3,
        ..Instr::new(op)
    }
}

/// `x` encodes to `word`, `word` decodes to `x`, and disassembles to `text`.
fn check(x: Instr, word: u32, text: &str) {
    assert_eq!(
        encode(&x),
        word,
        "encode {x:?}: {:#034b} != {word:#034b}",
        encode(&x)
    );
    assert_eq!(decode(word).map(|d| d.instr), Ok(x));
    assert_eq!(disasm_plain(&x, 0), text);
}

#[test]
fn vx_tmc() {
    check(
        instr(Op::VxTmc, 0, 10, 0, 0),
        0b0000000_00000_01010_000_00000_0001011,
        "vx_tmc\ta0",
    );
}

#[test]
fn vx_wspawn() {
    check(
        instr(Op::VxWspawn, 0, 10, 11, 0),
        0b0000000_01011_01010_001_00000_0001011,
        "vx_wspawn\ta0, a1",
    );
}

#[test]
fn vx_split() {
    check(
        instr(Op::VxSplit, 5, 6, 0, 0),
        0b0000000_00000_00110_010_00101_0001011,
        "vx_split\tt0, t1",
    );
}

#[test]
fn vx_split_n() {
    check(
        instr(Op::VxSplit, 5, 6, 1, 0),
        0b0000000_00001_00110_010_00101_0001011,
        "vx_split_n\tt0, t1",
    );
}

#[test]
fn vx_join() {
    check(
        instr(Op::VxJoin, 0, 5, 0, 0),
        0b0000000_00000_00101_011_00000_0001011,
        "vx_join\tt0",
    );
}

#[test]
fn vx_bar() {
    check(
        instr(Op::VxBar, 0, 10, 11, 0),
        0b0000000_01011_01010_100_00000_0001011,
        "vx_bar\ta0, a1",
    );
}

#[test]
fn vx_pred() {
    check(
        instr(Op::VxPred, 0, 12, 13, 0),
        0b0000000_01101_01100_101_00000_0001011,
        "vx_pred\ta2, a3",
    );
}

#[test]
fn vx_pred_n() {
    check(
        instr(Op::VxPred, 1, 12, 13, 0),
        0b0000000_01101_01100_101_00001_0001011,
        "vx_pred_n\ta2, a3",
    );
}

#[test]
fn vx_wsync() {
    check(
        instr(Op::VxWsync, 0, 0, 0, 0),
        0b0000000_00000_00000_111_00000_0001011,
        "vx_wsync",
    );
}

fn warp_level(op: Op, funct3: u32, mnemonic: &str) {
    let word = 0b0000001_01100_01011_000_01010_0001011 | (funct3 << 12);
    check(
        instr(op, 10, 11, 12, 0),
        word,
        &format!("{mnemonic}\ta0, a1, a2"),
    );
}

#[test]
fn vx_vote_all() {
    warp_level(Op::VxVoteAll, 0, "vx_vote.all");
}

#[test]
fn vx_vote_any() {
    warp_level(Op::VxVoteAny, 1, "vx_vote.any");
}

#[test]
fn vx_vote_uni() {
    warp_level(Op::VxVoteUni, 2, "vx_vote.uni");
}

#[test]
fn vx_vote_ballot() {
    warp_level(Op::VxVoteBallot, 3, "vx_vote.ballot");
}

#[test]
fn vx_shfl_up() {
    warp_level(Op::VxShflUp, 4, "vx_shfl.up");
}

#[test]
fn vx_shfl_down() {
    warp_level(Op::VxShflDown, 5, "vx_shfl.down");
}

#[test]
fn vx_shfl_bfly() {
    warp_level(Op::VxShflBfly, 6, "vx_shfl.bfly");
}

#[test]
fn vx_shfl_idx() {
    warp_level(Op::VxShflIdx, 7, "vx_shfl.idx");
}

#[test]
fn weaver_dec_id() {
    check(
        instr(Op::WeaverDecId, 10, 0, 0, 0),
        0b0000010_00000_00000_000_01010_0001011,
        "weaver.dec_id\ta0",
    );
}

#[test]
fn weaver_dec_loc() {
    check(
        instr(Op::WeaverDecLoc, 11, 0, 0, 0),
        0b0000010_00000_00000_001_01011_0001011,
        "weaver.dec_loc\ta1",
    );
}

#[test]
fn weaver_reg() {
    check(
        instr(Op::WeaverReg, 0, 10, 11, 12),
        0b01100_00_01011_01010_000_00000_0101011,
        "weaver.reg\ta0, a1, a2",
    );
}

#[test]
fn weaver_skip() {
    check(
        instr(Op::WeaverSkip, 0, 10, 0, 0),
        0b00000_00_00000_01010_001_00000_0101011,
        "weaver.skip\ta0",
    );
}

#[test]
fn amoadd_f() {
    check(
        instr(Op::AmoaddF, 10, 11, 12, 0),
        0b0000011_01100_01011_000_01010_0001011,
        "amoadd.f\tfa0, fa2, (a1)",
    );
}

/// Fields the encodings fix at zero (or at a flag bit) reject anything else.
#[test]
fn reserved_custom_words_do_not_decode() {
    let bad = [
        (0b0000000_00000_01010_000_00001_0001011, "tmc with rd != 0"),
        (0b0000000_00001_01010_000_00000_0001011, "tmc with rs2 != 0"),
        (
            0b0000000_01011_01010_001_00001_0001011,
            "wspawn with rd != 0",
        ),
        (
            0b0000000_00010_00110_010_00101_0001011,
            "split with rs2 = 2",
        ),
        (
            0b0000000_11111_00110_010_00101_0001011,
            "split with rs2 = 31",
        ),
        (
            0b0000000_00001_00101_011_00000_0001011,
            "join with rs2 != 0",
        ),
        (0b0000000_01011_01010_100_00001_0001011, "bar with rd != 0"),
        (0b0000000_01101_01100_101_00010_0001011, "pred with rd = 2"),
        (0b0000000_00000_00000_110_00000_0001011, "funct3 6"),
        (
            0b0000000_00000_00001_111_00000_0001011,
            "wsync with rs1 != 0",
        ),
        (
            0b0000011_00000_00000_001_00000_0001011,
            "funct7 3, funct3 1",
        ),
        (0b0000100_00000_00000_000_00000_0001011, "funct7 4"),
        (0b1000000_00000_00000_000_00000_0001011, "funct7 64"),
        (
            0b0000010_00000_00001_000_01010_0001011,
            "dec_id with rs1 != 0",
        ),
        (
            0b0000010_00001_00000_001_01010_0001011,
            "dec_loc with rs2 != 0",
        ),
        (0b0000010_00000_00000_010_01010_0001011, "weaver funct3 2"),
        (
            0b01100_01_01011_01010_000_00000_0101011,
            "weaver.reg with funct2 1",
        ),
        (
            0b01100_00_01011_01010_000_00001_0101011,
            "weaver.reg with rd != 0",
        ),
        (
            0b00001_00_00000_01010_001_00000_0101011,
            "weaver.skip with rs3 != 0",
        ),
        (
            0b00000_00_00001_01010_001_00000_0101011,
            "weaver.skip with rs2 != 0",
        ),
        (0b00000_00_00000_01010_010_00000_0101011, "CUSTOM1 funct3 2"),
    ];
    for (word, what) in bad {
        assert!(decode(word).is_err(), "{what}: {word:#010x} decoded");
    }
}

/// The words the LLVM assembler produces for the `.insn` lines of
/// programs/isa_cover/isa_cover.S.
#[test]
fn agrees_with_llvm_insn() {
    let cases = [
        (0x0005_000b, "vx_tmc\ta0"),
        (0x00b5_100b, "vx_wspawn\ta0, a1"),
        (0x0003_228b, "vx_split\tt0, t1"),
        (0x0013_228b, "vx_split_n\tt0, t1"),
        (0x0002_b00b, "vx_join\tt0"),
        (0x00b5_400b, "vx_bar\ta0, a1"),
        (0x00d6_500b, "vx_pred\ta2, a3"),
        (0x00d6_508b, "vx_pred_n\ta2, a3"),
        (0x0000_700b, "vx_wsync"),
        (0x02c5_850b, "vx_vote.all\ta0, a1, a2"),
        (0x0400_050b, "weaver.dec_id\ta0"),
        (0x0400_158b, "weaver.dec_loc\ta1"),
        (0x60b5_002b, "weaver.reg\ta0, a1, a2"),
        (0x0005_102b, "weaver.skip\ta0"),
        (0x06b5_050b, "amoadd.f\tfa0, fa1, (a0)"),
    ];
    for (word, text) in cases {
        let d = decode(word).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(disasm_plain(&d.instr, 0), text, "{word:#010x}");
    }
}
