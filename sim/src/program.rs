//! The loaded program as the engine sees it: its code, decoded once per PC, and the
//! control-flow analysis that gives every branch its reconvergence point.
//!
//! Instructions are fetched from any mapped memory, not only the image's code sections: a
//! program may write code into data memory and run it (riscv-tests' `fence_i` does). What
//! was decoded is cached per PC until `fence.i`, the one instruction that makes stores
//! visible to instruction fetch (Zifencei); without it a fetch may see the old code, which
//! the ISA allows. Code the static analysis did not see (written at run time, or a loaded
//! function that a store changed) is not analysed: its divergent branches reconverge at
//! the exit of their function (always correct, possibly later than the post-dominator).

use std::collections::HashMap;

use wsim_isa::{decode, DecodeError, Decoded};

use crate::cfg::{CodeSection, ControlFlow, DataSection, FunctionSymbol, Reconvergence};
use crate::loader::{ElfImage, Symbol, SymbolKind};
use crate::mem::Memory;
use crate::source_lines::SourceLines;

/// One executable range, decoded.
#[derive(Clone)]
struct CodeRange {
    base: u32,
    decoded: Vec<Result<Decoded, DecodeError>>,
}

#[derive(Clone)]
pub struct Program {
    code: Vec<CodeRange>,
    /// Decoded instructions outside the code sections, by PC (looked up, never iterated).
    dynamic: HashMap<u32, Result<Decoded, DecodeError>>,
    /// Loaded functions (start, end) whose code a store changed: their analysis is void.
    modified: Vec<(u32, u32)>,
    cfg: ControlFlow,
    lines: SourceLines,
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
                        && (s.global || (s.addr == image.entry && !s.name.starts_with(".L"))))
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
        Program {
            code,
            dynamic: HashMap::new(),
            modified: Vec::new(),
            cfg,
            lines: SourceLines::read(image),
        }
    }

    /// The decoded instruction at `pc`; `None` where no memory is mapped.
    #[inline]
    pub fn fetch(&mut self, pc: u32, mem: &Memory) -> Option<&Result<Decoded, DecodeError>> {
        let loaded = self.code.iter().position(|r| {
            let off = pc.wrapping_sub(r.base);
            off % 4 == 0 && ((off / 4) as usize) < r.decoded.len()
        });
        if let Some(k) = loaded {
            let r = &self.code[k];
            return r.decoded.get((pc.wrapping_sub(r.base) / 4) as usize);
        }
        if !pc.is_multiple_of(4) || !mem.is_mapped(pc) {
            return None;
        }
        Some(
            self.dynamic
                .entry(pc)
                .or_insert_with(|| decode(mem.read_u32(pc))),
        )
    }

    /// Whether any instruction of the code runs on `unit` (e.g. the Weaver, whose
    /// presence changes the L1 data cache).
    pub fn uses_unit(&self, unit: wsim_isa::Unit) -> bool {
        self.code
            .iter()
            .flat_map(|r| &r.decoded)
            .any(|d| d.as_ref().is_ok_and(|d| d.info.unit == unit))
    }

    /// `fence.i`: forget what was decoded; instructions come from memory again. A loaded
    /// function whose words changed loses its analysis.
    pub fn fence_i(&mut self, mem: &Memory) {
        self.dynamic.clear();
        for r in &mut self.code {
            for (k, slot) in r.decoded.iter_mut().enumerate() {
                let pc = r.base + 4 * k as u32;
                let now = decode(mem.read_u32(pc));
                if now != *slot {
                    let function = self.cfg.function_of(pc).map(|(_, start, end)| (start, end));
                    let (start, end) = function.unwrap_or((pc, pc + 4));
                    if !self.modified.contains(&(start, end)) {
                        self.modified.push((start, end));
                    }
                    *slot = now;
                }
            }
        }
    }

    /// Whether the static analysis speaks for the code at `pc`.
    fn analysed(&self, pc: u32) -> bool {
        !self
            .modified
            .iter()
            .any(|&(start, end)| (start..end).contains(&pc))
    }

    /// Where the paths of a divergent branch or indirect jump at `pc` rejoin. Code the
    /// analysis does not know rejoins at its function's exit, which is always correct.
    pub fn rejoin(&self, pc: u32) -> Reconvergence {
        let analysed = self.analysed(pc).then(|| self.cfg.reconvergence(pc));
        analysed.flatten().unwrap_or(Reconvergence::FunctionExit)
    }

    /// Statically found targets of the indirect jump at `pc`, sorted.
    pub fn indirect_targets(&self, pc: u32) -> Option<&[u32]> {
        self.analysed(pc)
            .then(|| self.cfg.indirect_targets(pc))
            .flatten()
    }

    /// The image's code ranges: (first PC, instructions).
    pub fn code_ranges(&self) -> Vec<(u32, u32)> {
        (self.code.iter())
            .map(|r| (r.base, r.decoded.len() as u32))
            .collect()
    }

    /// The function (symbol) `pc` is in and the offset into it.
    pub fn function_of(&self, pc: u32) -> Option<(&str, u32)> {
        (self.cfg.function_of(pc)).map(|(name, start, _)| (name, pc - start))
    }

    /// The functions (symbols) called `name`: (start, end exclusive), in address order.
    pub fn functions_named(&self, name: &str) -> Vec<(u32, u32)> {
        (self.cfg.functions())
            .filter(|(n, _, _)| *n == name)
            .map(|(_, start, end)| (start, end))
            .collect()
    }

    /// `file:line` of the code at `pc`, where the ELF has line tables.
    pub fn line_of(&self, pc: u32) -> Option<String> {
        self.lines.line_of(pc)
    }

    /// The instruction at `pc` as text (`.word 0x...` for a word that does not decode),
    /// as decoded for the image's code or read from `mem` elsewhere.
    pub fn text_of(&self, pc: u32, mem: &Memory) -> String {
        let loaded = self.code.iter().find_map(|r| {
            let off = pc.wrapping_sub(r.base);
            (off % 4 == 0).then(|| r.decoded.get((off / 4) as usize))?
        });
        let decoded = loaded.cloned().unwrap_or_else(|| decode(mem.read_u32(pc)));
        match decoded {
            Ok(d) => wsim_isa::disasm_plain(&d.instr, pc),
            Err(e) => format!(".word {:#010x}", e.word),
        }
    }

    /// Where `pc` is in the program's terms, for messages: `function+offset` and, when
    /// the ELF has line tables, `file:line`.
    pub fn place_of(&self, pc: u32) -> Option<String> {
        let function = (self.cfg.function_of(pc)).map(|(name, start, _)| match pc - start {
            0 => name.to_string(),
            offset => format!("{name}+{offset:#x}"),
        });
        match (function, self.lines.line_of(pc)) {
            (Some(f), Some(line)) => Some(format!("{f} ({line})")),
            (Some(f), None) => Some(f),
            (None, Some(line)) => Some(line),
            (None, None) => None,
        }
    }
}
