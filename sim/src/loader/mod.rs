//! The ELF loader: 32-bit little-endian RISC-V executables (for running) and relocatable
//! objects (for disassembly only).
//!
//! Every field of the file is checked before use, so arbitrary bytes produce a
//! [`LoadError`] naming the problem, never a panic.

use goblin::elf::header::{machine_to_str, EM_RISCV, ET_EXEC, ET_REL};
use goblin::elf::program_header::{PF_R, PF_W, PF_X, PT_LOAD};
use goblin::elf::section_header::{
    SHF_ALLOC, SHF_EXECINSTR, SHN_LORESERVE, SHT_NOBITS, SHT_STRTAB,
};
use goblin::elf::sym::{STB_LOCAL, STT_FILE, STT_FUNC, STT_OBJECT, STT_SECTION};
use goblin::elf::Elf;
use thiserror::Error;

/// Size of the ELF32 file header.
const EHDR_SIZE: usize = 52;
/// A 32-bit program header's and section header's sizes.
const PHDR_SIZE: u16 = 32;
const SHDR_SIZE: u16 = 40;

/// Why a file cannot be loaded.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum LoadError {
    #[error("not an ELF file: {0}")]
    NotElf(String),
    #[error("a 64-bit ELF file; wsim needs a 32-bit RISC-V ELF (compile with --target=riscv32)")]
    Elf64,
    #[error("a big-endian ELF file; RISC-V ELF files are little-endian")]
    BigEndian,
    #[error("an ELF file with an invalid class byte {0} (neither 32- nor 64-bit)")]
    BadClass(u8),
    #[error("not a RISC-V ELF file: its machine is {name} (e_machine {machine})")]
    NotRiscv { machine: u16, name: &'static str },
    #[error("not an executable but {0}; link it into an executable first")]
    NotExecutable(&'static str),
    #[error("truncated file: {what} needs bytes {start}..{end} but the file has {len} bytes")]
    Truncated {
        what: String,
        start: u64,
        end: u64,
        len: usize,
    },
    #[error("loadable segments overlap: {first} and {second}")]
    Overlap { first: String, second: String },
    #[error("{what} wraps around the 32-bit address space ({start:#x} + {size:#x})")]
    AddressOverflow { what: String, start: u32, size: u32 },
    #[error("segment {index}: file size {file_size:#x} is larger than its memory size {memsz:#x}")]
    FileSizeExceedsMemSize {
        index: usize,
        file_size: u32,
        memsz: u32,
    },
    #[error("the executable has no loadable (PT_LOAD) segment that takes memory (memsz > 0)")]
    NoSegments,
    #[error("{what} has entries of {size} bytes; a 32-bit ELF file's are {expected}")]
    EntrySize {
        what: &'static str,
        size: u16,
        expected: u16,
    },
    #[error(
        "string table section {section} is not UTF-8: byte {byte:#04x} at file offset {offset:#x}"
    )]
    NotUtf8 {
        section: usize,
        byte: u8,
        offset: u64,
    },
    #[error("malformed ELF file: {0}")]
    Malformed(String),
}

/// What kind of ELF file was parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElfKind {
    /// ET_EXEC: runnable.
    Executable,
    /// ET_REL: an object file; only for disassembly (its addresses are section offsets).
    Relocatable,
}

/// A PT_LOAD segment. Memory from `vaddr + data.len()` to `vaddr + memsz` is zero-filled
/// (`.bss`); `data.len() <= memsz` always holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub vaddr: u32,
    /// The bytes from the file.
    pub data: Vec<u8>,
    pub memsz: u32,
    pub read: bool,
    pub write: bool,
    pub execute: bool,
}

/// A section with its contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// Index in the section header table (what [`Symbol::section`] refers to).
    pub index: usize,
    pub name: String,
    pub addr: u32,
    /// Size in memory; equals `data.len()` except for NOBITS sections such as `.bss`.
    pub size: u32,
    /// The file contents; empty for NOBITS sections.
    pub data: Vec<u8>,
    /// SHF_EXECINSTR: holds code.
    pub executable: bool,
    /// SHF_ALLOC: occupies memory at run time.
    pub alloc: bool,
}

/// What a symbol names. The order (no type, object, function) is that of the ELF `STT_*`
/// values, which `llvm-objdump` uses to order symbols at the same address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SymbolKind {
    Other,
    Object,
    Function,
}

/// A named, defined symbol (section and file symbols are left out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub addr: u32,
    pub size: u32,
    pub kind: SymbolKind,
    /// Index of the section it is defined in; `None` for absolute and common symbols.
    pub section: Option<usize>,
    /// Global or weak binding (visible outside its object file).
    pub global: bool,
}

/// A parsed ELF file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElfImage {
    pub kind: ElfKind,
    pub entry: u32,
    /// PT_LOAD segments in file order; they do not overlap.
    pub segments: Vec<Segment>,
    /// Sections in header order, without the null section 0.
    pub sections: Vec<Section>,
    /// Sorted by address, then name, then kind (as `llvm-objdump` orders them).
    pub symbols: Vec<Symbol>,
}

impl Symbol {
    pub fn is_function(&self) -> bool {
        self.kind == SymbolKind::Function
    }
}

impl ElfImage {
    /// The first symbol (in address order) called `name`.
    pub fn symbol(&self, name: &str) -> Option<&Symbol> {
        self.symbols.iter().find(|s| s.name == name)
    }

    /// The section with header index `index`.
    pub fn section(&self, index: usize) -> Option<&Section> {
        self.sections.iter().find(|s| s.index == index)
    }
}

/// Load an executable to run: like [`parse`], but the file must be an executable with at
/// least one loadable segment that takes memory.
pub fn load(bytes: &[u8]) -> Result<ElfImage, LoadError> {
    let image = parse(bytes)?;
    if image.kind != ElfKind::Executable {
        return Err(LoadError::NotExecutable("a relocatable object (ET_REL)"));
    }
    // An empty segment places nothing: without another there is no program image.
    if image.segments.iter().all(|s| s.memsz == 0) {
        return Err(LoadError::NoSegments);
    }
    Ok(image)
}

/// Parse a 32-bit little-endian RISC-V executable or relocatable object.
pub fn parse(bytes: &[u8]) -> Result<ElfImage, LoadError> {
    let kind = check_header(bytes)?;
    let elf = Elf::parse(bytes).map_err(|e| LoadError::Malformed(e.to_string()))?;
    let segments = read_segments(&elf, bytes)?;
    check_overlaps(&segments)?;
    let sections = read_sections(&elf, bytes)?;
    let symbols = read_symbols(&elf);
    Ok(ElfImage {
        kind,
        entry: elf.entry as u32,
        segments,
        sections,
        symbols,
    })
}

/// The `size` bytes at `offset` of the file, or [`LoadError::Truncated`] naming `what`.
fn in_file(bytes: &[u8], what: String, offset: u64, size: u64) -> Result<&[u8], LoadError> {
    let len = bytes.len();
    let end = offset.saturating_add(size);
    match usize::try_from(end) {
        Ok(end_usize) if end_usize <= len => Ok(&bytes[offset as usize..end_usize]),
        _ => Err(LoadError::Truncated {
            what,
            start: offset,
            end,
            len,
        }),
    }
}

/// The `PT_LOAD` segments, each checked to fit in the file and in the address space.
fn read_segments(elf: &Elf, bytes: &[u8]) -> Result<Vec<Segment>, LoadError> {
    let mut segments = Vec::new();
    for (index, ph) in elf.program_headers.iter().enumerate() {
        if ph.p_type != PT_LOAD {
            continue;
        }
        // A 32-bit file's fields are 32-bit; goblin widens them.
        let (vaddr, file_size, memsz) = (ph.p_vaddr as u32, ph.p_filesz as u32, ph.p_memsz as u32);
        if file_size > memsz {
            return Err(LoadError::FileSizeExceedsMemSize {
                index,
                file_size,
                memsz,
            });
        }
        // A segment may end exactly at 2^32; past it, it would wrap to address 0.
        if u64::from(vaddr) + u64::from(memsz) > 1 << 32 {
            return Err(LoadError::AddressOverflow {
                what: format!("segment {index}"),
                start: vaddr,
                size: memsz,
            });
        }
        let data = in_file(bytes, format!("segment {index}"), ph.p_offset, ph.p_filesz)?;
        segments.push(Segment {
            vaddr,
            data: data.to_vec(),
            memsz,
            read: ph.p_flags & PF_R != 0,
            write: ph.p_flags & PF_W != 0,
            execute: ph.p_flags & PF_X != 0,
        });
    }
    Ok(segments)
}

/// Every section header but the null one, with its contents (none for `SHT_NOBITS`).
fn read_sections(elf: &Elf, bytes: &[u8]) -> Result<Vec<Section>, LoadError> {
    let mut sections = Vec::new();
    for (index, sh) in elf.section_headers.iter().enumerate().skip(1) {
        let name = elf
            .shdr_strtab
            .get_at(sh.sh_name)
            .unwrap_or_default()
            .to_string();
        let data = if sh.sh_type == SHT_NOBITS {
            &[][..]
        } else {
            in_file(bytes, format!("section {name:?}"), sh.sh_offset, sh.sh_size)?
        };
        sections.push(Section {
            index,
            name,
            addr: sh.sh_addr as u32,
            size: sh.sh_size as u32,
            data: data.to_vec(),
            executable: sh.sh_flags & u64::from(SHF_EXECINSTR) != 0,
            alloc: sh.sh_flags & u64::from(SHF_ALLOC) != 0,
        });
    }
    Ok(sections)
}

/// The named symbols (no section or file symbols, no undefined ones), sorted like
/// objdump's: by address, then name, then kind.
fn read_symbols(elf: &Elf) -> Vec<Symbol> {
    let mut symbols = Vec::new();
    for sym in elf.syms.iter() {
        let typ = sym.st_type();
        let name = elf.strtab.get_at(sym.st_name).unwrap_or_default();
        if name.is_empty() || typ == STT_SECTION || typ == STT_FILE || sym.st_shndx == 0 {
            continue;
        }
        let section = (sym.st_shndx < SHN_LORESERVE as usize).then_some(sym.st_shndx);
        symbols.push(Symbol {
            name: name.to_string(),
            addr: sym.st_value as u32,
            size: sym.st_size as u32,
            kind: match typ {
                STT_FUNC => SymbolKind::Function,
                STT_OBJECT => SymbolKind::Object,
                _ => SymbolKind::Other,
            },
            section,
            global: sym.st_bind() != STB_LOCAL,
        });
    }
    symbols.sort_by(|a, b| (a.addr, &a.name, a.kind).cmp(&(b.addr, &b.name, b.kind)));
    symbols
}

/// Checks identification, class, byte order, machine and type, and that the header tables
/// lie within the file, before goblin reads them.
fn check_header(bytes: &[u8]) -> Result<ElfKind, LoadError> {
    if !bytes.starts_with(b"\x7fELF") {
        return Err(LoadError::NotElf(describe_non_elf(bytes)));
    }
    match bytes.get(4) {
        Some(1) => {}
        Some(2) => return Err(LoadError::Elf64),
        Some(&c) => return Err(LoadError::BadClass(c)),
        None => {}
    }
    if bytes.get(5) == Some(&2) {
        return Err(LoadError::BigEndian);
    }
    if bytes.len() < EHDR_SIZE {
        return Err(LoadError::Truncated {
            what: "the ELF header".to_string(),
            start: 0,
            end: EHDR_SIZE as u64,
            len: bytes.len(),
        });
    }
    let u16_at = |o: usize| u16::from_le_bytes([bytes[o], bytes[o + 1]]);
    let u32_at =
        |o: usize| u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]);
    let machine = u16_at(18);
    if machine != EM_RISCV {
        return Err(LoadError::NotRiscv {
            machine,
            name: machine_to_str(machine),
        });
    }
    let kind = match u16_at(16) {
        ET_EXEC => ElfKind::Executable,
        ET_REL => ElfKind::Relocatable,
        3 => return Err(LoadError::NotExecutable("a shared object or PIE (ET_DYN)")),
        4 => return Err(LoadError::NotExecutable("a core dump (ET_CORE)")),
        _ => return Err(LoadError::NotExecutable("of an unknown ELF type")),
    };
    let tables = [
        (
            "the program header table",
            u32_at(28),
            u16_at(42),
            u16_at(44),
        ),
        (
            "the section header table",
            u32_at(32),
            u16_at(46),
            u16_at(48),
        ),
    ];
    for ((what, offset, entsize, count), expected) in tables.into_iter().zip([PHDR_SIZE, SHDR_SIZE])
    {
        if count > 0 && entsize != expected {
            return Err(LoadError::EntrySize {
                what,
                size: entsize,
                expected,
            });
        }
        let end = u64::from(offset) + u64::from(entsize) * u64::from(count);
        if count > 0 && end > bytes.len() as u64 {
            return Err(LoadError::Truncated {
                what: what.to_string(),
                start: offset.into(),
                end,
                len: bytes.len(),
            });
        }
    }
    let (shoff, shnum) = (u32_at(32) as usize, usize::from(u16_at(48)));
    for section in 1..shnum {
        let at = shoff + section * usize::from(SHDR_SIZE);
        if u32_at(at + 4) == SHT_STRTAB {
            let (offset, size) = (u64::from(u32_at(at + 16)), u64::from(u32_at(at + 20)));
            let table = in_file(
                bytes,
                format!("string table section {section}"),
                offset,
                size,
            )?;
            check_utf8(section, offset, table)?;
        }
    }
    Ok(kind)
}

/// Every NUL-terminated string of a string table is UTF-8 (goblin refuses the table
/// otherwise, naming no byte); the error names the first byte that is not.
fn check_utf8(section: usize, offset: u64, table: &[u8]) -> Result<(), LoadError> {
    let mut start = 0;
    for name in table.split(|&b| b == 0) {
        if let Err(e) = std::str::from_utf8(name) {
            let at = start + e.valid_up_to();
            return Err(LoadError::NotUtf8 {
                section,
                byte: table[at],
                offset: offset + at as u64,
            });
        }
        start += name.len() + 1;
    }
    Ok(())
}

/// What a file that is not ELF looks like, for the error message.
fn describe_non_elf(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "the file is empty".to_string();
    }
    if b"\x7fELF".starts_with(bytes) {
        return format!("the file is only {} bytes long", bytes.len());
    }
    let head = &bytes[..bytes.len().min(512)];
    if head.starts_with(b"!<arch>") {
        return "it is an ar archive (a static library), not a linked program".to_string();
    }
    if head.starts_with(b"#!") {
        return "it is a script".to_string();
    }
    if head.starts_with(&[0x1f, 0x8b]) {
        return "it is gzip-compressed".to_string();
    }
    if std::str::from_utf8(head).is_ok_and(|s| {
        s.chars()
            .all(|c| !c.is_control() || c.is_ascii_whitespace())
    }) {
        return "it looks like a text file".to_string();
    }
    let shown: Vec<String> = bytes.iter().take(4).map(|b| format!("{b:02x}")).collect();
    format!(
        "it starts with bytes {} instead of 7f 45 4c 46",
        shown.join(" ")
    )
}

fn check_overlaps(segments: &[Segment]) -> Result<(), LoadError> {
    let range = |s: &Segment| {
        format!(
            "{:#010x}..{:#010x}",
            s.vaddr,
            u64::from(s.vaddr) + u64::from(s.memsz)
        )
    };
    for (i, a) in segments.iter().enumerate() {
        for b in &segments[i + 1..] {
            let (a_end, b_end) = (
                u64::from(a.vaddr) + u64::from(a.memsz),
                u64::from(b.vaddr) + u64::from(b.memsz),
            );
            let empty = a.memsz == 0 || b.memsz == 0;
            if !empty && u64::from(a.vaddr) < b_end && u64::from(b.vaddr) < a_end {
                return Err(LoadError::Overlap {
                    first: range(a),
                    second: range(b),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
