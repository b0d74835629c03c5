//! The loaded program as the engine sees it: its code, decoded once per PC, and the
//! control-flow analysis that gives every branch its reconvergence point.

use wsim_isa::{decode, DecodeError, Decoded};

use crate::cfg::{CodeSection, ControlFlow, DataSection, FunctionSymbol, Reconvergence};
use crate::loader::{ElfImage, Symbol, SymbolKind};
use crate::mem::Memory;

/// One executable range, decoded.
struct CodeRange {
    base: u32,
    decoded: Vec<Result<Decoded, DecodeError>>,
}

pub struct Program {
    code: Vec<CodeRange>,
    cfg: ControlFlow,
}

impl Program {
    pub fn new(image: &ElfImage) -> Program {
        let code_sections: Vec<CodeSection> = image
            .sections
            .iter()
            .filter(|s| s.executable && !s.data.is_empty())
            .map(|s| CodeSection {
                addr: s.addr,
                bytes: &s.data,
            })
            .collect();
        let data_sections: Vec<DataSection> = image
            .sections
            .iter()
            .filter(|s| !s.executable && s.alloc && !s.data.is_empty())
            .map(|s| DataSection {
                addr: s.addr,
                bytes: &s.data,
            })
            .collect();
        // Functions, plus the entry and global untyped labels in code: assembly routines
        // (`_start`) often lack `.type @function`. Local labels are block labels, not
        // functions, and must not split a function.
        let in_code = |s: &Symbol| {
            s.section
                .and_then(|i| image.section(i))
                .is_some_and(|sec| sec.executable)
        };
        let functions: Vec<FunctionSymbol> = image
            .symbols
            .iter()
            .filter(|s| {
                s.is_function()
                    || (s.kind == SymbolKind::Other
                        && in_code(s)
                        && (s.global || s.addr == image.entry))
            })
            .map(|s| FunctionSymbol {
                name: s.name.clone(),
                start: s.addr,
                size: s.size,
            })
            .collect();
        let cfg = ControlFlow::build(&code_sections, &data_sections, &functions);
        let code = code_sections
            .iter()
            .map(|s| CodeRange {
                base: s.addr,
                decoded: s
                    .bytes
                    .chunks(4)
                    .map(|w| {
                        let mut word = [0u8; 4];
                        word[..w.len()].copy_from_slice(w);
                        decode(u32::from_le_bytes(word))
                    })
                    .collect(),
            })
            .collect();
        Program { code, cfg }
    }

    /// The decoded instruction at `pc`; `None` outside the program's code.
    #[inline]
    pub fn fetch(&self, pc: u32) -> Option<&Result<Decoded, DecodeError>> {
        self.code.iter().find_map(|r| {
            let off = pc.wrapping_sub(r.base);
            if off % 4 == 0 {
                r.decoded.get((off / 4) as usize)
            } else {
                None
            }
        })
    }

    /// Whether any instruction of the code runs on `unit` (e.g. the Weaver, whose
    /// presence changes the L1 data cache).
    pub fn uses_unit(&self, unit: wsim_isa::Unit) -> bool {
        self.code
            .iter()
            .flat_map(|r| &r.decoded)
            .any(|d| d.as_ref().is_ok_and(|d| d.info.unit == unit))
    }

    /// Re-decode the code from memory (after `fence.i`). The control-flow analysis stays
    /// that of the loaded image.
    pub fn fence_i(&mut self, mem: &Memory) {
        for r in &mut self.code {
            for (k, slot) in r.decoded.iter_mut().enumerate() {
                *slot = decode(mem.read_u32(r.base + 4 * k as u32));
            }
        }
    }

    /// Where the paths of a divergent branch or indirect jump at `pc` rejoin. Code the
    /// analysis does not know rejoins at its function's exit, which is always correct.
    pub fn rejoin(&self, pc: u32) -> Reconvergence {
        self.cfg
            .reconvergence(pc)
            .unwrap_or(Reconvergence::FunctionExit)
    }

    /// Statically found targets of the indirect jump at `pc`, sorted.
    pub fn indirect_targets(&self, pc: u32) -> Option<&[u32]> {
        self.cfg.indirect_targets(pc)
    }

    /// Name of the function containing `pc`, for messages.
    pub fn function_of(&self, pc: u32) -> Option<&str> {
        self.cfg.function_of(pc).map(|(name, _, _)| name)
    }
}
