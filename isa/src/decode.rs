use crate::Decoded;

/// A word that is not a valid instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub word: u32,
    pub reason: &'static str,
}

/// Decode one 32-bit instruction word.
pub fn decode(word: u32) -> Result<Decoded, DecodeError> {
    Err(DecodeError { word, reason: "decoder not yet written" })
}
