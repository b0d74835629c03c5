use crate::{Flow, Info, Instr, Unit};

/// The static facts of an instruction.
pub fn info(_instr: &Instr) -> Info {
    Info { unit: Unit::Alu, srcs: [None; 3], dst: None, flow: Flow::None, mem: None }
}
