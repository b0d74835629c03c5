use crate::Instr;

/// Encode an instruction into its 32-bit word: the inverse of [`crate::decode`].
pub fn encode(_instr: &Instr) -> u32 {
    0
}
