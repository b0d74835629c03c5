use crate::Instr;

/// Looks up the symbol for an address: its name and the offset of the address into it.
pub trait Symbolizer {
    fn symbolize(&self, addr: u32) -> Option<(&str, u32)>;
}

/// Disassemble in `llvm-objdump -d` syntax; branch and jump targets get `<sym+off>`.
pub fn disasm(_instr: &Instr, _pc: u32, _symbols: &dyn Symbolizer) -> String {
    String::new()
}

/// Disassemble without symbols.
pub fn disasm_plain(_instr: &Instr, _pc: u32) -> String {
    String::new()
}
