//! The ELF loader: 32-bit little-endian RISC-V executables (for running) and relocatable
//! objects (for disassembly only).
//!
//! Every field of the file is checked before use, so arbitrary bytes produce a
//! [`LoadError`] naming the problem, never a panic.

use goblin::elf::header::{machine_to_str, EM_RISCV, ET_EXEC, ET_REL};
use goblin::elf::program_header::{PF_R, PF_W, PF_X, PT_LOAD};
use goblin::elf::section_header::{SHF_ALLOC, SHF_EXECINSTR, SHN_LORESERVE, SHT_NOBITS};
use goblin::elf::sym::{STB_LOCAL, STT_FILE, STT_FUNC, STT_OBJECT, STT_SECTION};
use goblin::elf::Elf;
use thiserror::Error;

/// Size of the ELF32 file header.
const EHDR_SIZE: usize = 52;

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
    #[error("the executable has no loadable (PT_LOAD) segments")]
    NoSegments,
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
/// least one loadable segment.
pub fn load(bytes: &[u8]) -> Result<ElfImage, LoadError> {
    let image = parse(bytes)?;
    if image.kind != ElfKind::Executable {
        return Err(LoadError::NotExecutable("a relocatable object (ET_REL)"));
    }
    if image.segments.is_empty() {
        return Err(LoadError::NoSegments);
    }
    Ok(image)
}

/// Parse a 32-bit little-endian RISC-V executable or relocatable object.
pub fn parse(bytes: &[u8]) -> Result<ElfImage, LoadError> {
    let kind = check_header(bytes)?;
    let elf = Elf::parse(bytes).map_err(|e| LoadError::Malformed(e.to_string()))?;
    let len = bytes.len();
    let in_file = |what: String, offset: u64, size: u64| -> Result<&[u8], LoadError> {
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
    };

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
        if vaddr.checked_add(memsz).is_none() {
            return Err(LoadError::AddressOverflow {
                what: format!("segment {index}"),
                start: vaddr,
                size: memsz,
            });
        }
        let data = in_file(format!("segment {index}"), ph.p_offset, ph.p_filesz)?;
        segments.push(Segment {
            vaddr,
            data: data.to_vec(),
            memsz,
            read: ph.p_flags & PF_R != 0,
            write: ph.p_flags & PF_W != 0,
            execute: ph.p_flags & PF_X != 0,
        });
    }
    check_overlaps(&segments)?;

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
            in_file(format!("section {name:?}"), sh.sh_offset, sh.sh_size)?
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

    Ok(ElfImage {
        kind,
        entry: elf.entry as u32,
        segments,
        sections,
        symbols,
    })
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
    for (what, offset, entsize, count) in tables {
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
    Ok(kind)
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
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A minimal hand-built ELF32 RISC-V file: one PT_LOAD segment per `segments` entry
    /// (vaddr, bytes, memsz), sections `.text` (the first segment's bytes, executable)
    /// and `.bss`, and a symbol table with `symbols` (name, addr, STT type).
    struct Builder {
        e_type: u16,
        segments: Vec<(u32, Vec<u8>, u32)>,
        symbols: Vec<(&'static str, u32, u8)>,
    }

    fn put16(b: &mut Vec<u8>, v: u16) {
        b.extend_from_slice(&v.to_le_bytes());
    }

    fn put32(b: &mut Vec<u8>, v: u32) {
        b.extend_from_slice(&v.to_le_bytes());
    }

    impl Builder {
        fn exec() -> Self {
            Builder {
                e_type: ET_EXEC,
                segments: vec![(0x8000_0000, vec![0x13, 0, 0, 0, 0x6f, 0, 0, 0], 0x20)],
                symbols: vec![
                    ("_start", 0x8000_0000, STT_FUNC),
                    ("tohost", 0x8000_0010, STT_OBJECT),
                ],
            }
        }

        fn build(&self) -> Vec<u8> {
            let phnum = self.segments.len();
            let data_start = EHDR_SIZE + 32 * phnum;
            // Contents: segment bytes, then .symtab, .strtab, .shstrtab.
            let mut body = Vec::new();
            let mut seg_offsets = Vec::new();
            for (_, data, _) in &self.segments {
                seg_offsets.push(data_start + body.len());
                body.extend_from_slice(data);
            }
            let mut strtab = vec![0u8];
            let mut symtab = vec![0u8; 16];
            for (name, addr, typ) in &self.symbols {
                put32(&mut symtab, strtab.len() as u32);
                strtab.extend_from_slice(name.as_bytes());
                strtab.push(0);
                put32(&mut symtab, *addr);
                put32(&mut symtab, 4);
                symtab.push(0x10 | typ); // STB_GLOBAL
                symtab.push(0);
                put16(&mut symtab, 1); // .text
            }
            let shstrtab = b"\0.text\0.bss\0.symtab\0.strtab\0.shstrtab\0".to_vec();
            let symtab_off = data_start + body.len();
            body.extend_from_slice(&symtab);
            let strtab_off = data_start + body.len();
            body.extend_from_slice(&strtab);
            let shstrtab_off = data_start + body.len();
            body.extend_from_slice(&shstrtab);
            while body.len() % 4 != 0 {
                body.push(0);
            }
            let shoff = data_start + body.len();

            let mut b = Vec::new();
            b.extend_from_slice(b"\x7fELF\x01\x01\x01\0\0\0\0\0\0\0\0\0");
            put16(&mut b, self.e_type);
            put16(&mut b, EM_RISCV);
            put32(&mut b, 1);
            put32(&mut b, self.segments.first().map_or(0, |s| s.0));
            put32(&mut b, if phnum > 0 { EHDR_SIZE as u32 } else { 0 });
            put32(&mut b, shoff as u32);
            put32(&mut b, 0);
            put16(&mut b, EHDR_SIZE as u16);
            put16(&mut b, 32);
            put16(&mut b, phnum as u16);
            put16(&mut b, 40);
            put16(&mut b, 6);
            put16(&mut b, 5);
            for ((vaddr, data, memsz), off) in self.segments.iter().zip(&seg_offsets) {
                for v in [
                    PT_LOAD,
                    *off as u32,
                    *vaddr,
                    *vaddr,
                    data.len() as u32,
                    *memsz,
                ] {
                    put32(&mut b, v);
                }
                put32(&mut b, PF_R | PF_X);
                put32(&mut b, 4);
            }
            b.extend_from_slice(&body);
            let (text_addr, text_len, text_off) = self
                .segments
                .first()
                .map_or((0, 0, data_start), |s| (s.0, s.1.len(), seg_offsets[0]));
            let shdr = |b: &mut Vec<u8>, f: [u32; 10]| f.iter().for_each(|v| put32(b, *v));
            shdr(&mut b, [0; 10]);
            shdr(
                &mut b,
                [
                    1,
                    1,
                    6,
                    text_addr,
                    text_off as u32,
                    text_len as u32,
                    0,
                    0,
                    4,
                    0,
                ],
            );
            shdr(
                &mut b,
                [
                    7,
                    SHT_NOBITS,
                    3,
                    text_addr.wrapping_add(0x100),
                    0,
                    0x40,
                    0,
                    0,
                    4,
                    0,
                ],
            );
            shdr(
                &mut b,
                [
                    12,
                    2,
                    0,
                    0,
                    symtab_off as u32,
                    symtab.len() as u32,
                    4,
                    1,
                    4,
                    16,
                ],
            );
            shdr(
                &mut b,
                [
                    20,
                    3,
                    0,
                    0,
                    strtab_off as u32,
                    strtab.len() as u32,
                    0,
                    0,
                    1,
                    0,
                ],
            );
            shdr(
                &mut b,
                [
                    28,
                    3,
                    0,
                    0,
                    shstrtab_off as u32,
                    shstrtab.len() as u32,
                    0,
                    0,
                    1,
                    0,
                ],
            );
            b
        }
    }

    #[test]
    fn loads_a_minimal_executable() {
        let image = load(&Builder::exec().build()).unwrap();
        assert_eq!(image.kind, ElfKind::Executable);
        assert_eq!(image.entry, 0x8000_0000);
        assert_eq!(image.segments.len(), 1);
        let seg = &image.segments[0];
        assert_eq!(
            (seg.vaddr, seg.data.len(), seg.memsz),
            (0x8000_0000, 8, 0x20)
        );
        assert!(seg.read && seg.execute && !seg.write);
        let text = image.sections.iter().find(|s| s.name == ".text").unwrap();
        assert!(text.executable && text.alloc);
        assert_eq!(
            (text.index, text.addr, text.data.len()),
            (1, 0x8000_0000, 8)
        );
        let bss = image.sections.iter().find(|s| s.name == ".bss").unwrap();
        assert!(!bss.executable && bss.data.is_empty());
        assert_eq!(bss.size, 0x40);
        let tohost = image.symbol("tohost").unwrap();
        assert_eq!(
            (tohost.addr, tohost.kind, tohost.section),
            (0x8000_0010, SymbolKind::Object, Some(1))
        );
        assert_eq!(image.symbol("_start").unwrap().kind, SymbolKind::Function);
        assert!(image.symbol("missing").is_none());
        assert_eq!(image.section(1).map(|s| s.name.as_str()), Some(".text"));
    }

    #[test]
    fn symbols_sorted_like_objdump() {
        let mut b = Builder::exec();
        b.symbols = vec![
            ("zeta", 0x8000_0004, STT_FUNC),
            ("b", 0x8000_0000, 0),
            ("a", 0x8000_0000, STT_OBJECT),
            ("a", 0x8000_0000, 0),
        ];
        let image = parse(&b.build()).unwrap();
        let order: Vec<_> = image
            .symbols
            .iter()
            .map(|s| (s.name.as_str(), s.kind))
            .collect();
        assert_eq!(
            order,
            [
                ("a", SymbolKind::Other),
                ("a", SymbolKind::Object),
                ("b", SymbolKind::Other),
                ("zeta", SymbolKind::Function)
            ]
        );
    }

    #[test]
    fn relocatable_parses_but_does_not_load() {
        let mut b = Builder::exec();
        b.e_type = ET_REL;
        b.segments.clear();
        let bytes = b.build();
        assert_eq!(parse(&bytes).unwrap().kind, ElfKind::Relocatable);
        let err = load(&bytes).unwrap_err();
        assert_eq!(
            err.to_string(),
            "not an executable but a relocatable object (ET_REL); link it into an executable first"
        );
    }

    #[test]
    fn no_segments() {
        let mut b = Builder::exec();
        b.segments.clear();
        assert_eq!(load(&b.build()), Err(LoadError::NoSegments));
    }

    #[test]
    fn overlapping_segments() {
        let mut b = Builder::exec();
        b.segments.push((0x8000_0010, vec![1, 2, 3, 4], 0x100));
        let err = load(&b.build()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "loadable segments overlap: 0x80000000..0x80000020 and 0x80000010..0x80000110"
        );
    }

    #[test]
    fn file_size_larger_than_memory_size() {
        let mut b = Builder::exec();
        b.segments[0].2 = 4;
        assert!(matches!(
            load(&b.build()),
            Err(LoadError::FileSizeExceedsMemSize { index: 0, .. })
        ));
    }

    #[test]
    fn segment_wrapping_the_address_space() {
        let mut b = Builder::exec();
        b.segments[0] = (0xffff_fff0, vec![0; 8], 0x20);
        assert!(matches!(
            load(&b.build()),
            Err(LoadError::AddressOverflow { .. })
        ));
    }

    #[test]
    fn rejects_what_is_not_riscv32_le() {
        let msg = |bytes: &[u8]| load(bytes).unwrap_err().to_string();
        assert_eq!(msg(b""), "not an ELF file: the file is empty");
        assert_eq!(
            msg(b"hello\nworld\n"),
            "not an ELF file: it looks like a text file"
        );
        assert_eq!(
            msg(b"\x7fEL"),
            "not an ELF file: the file is only 3 bytes long"
        );
        assert_eq!(
            msg(b"!<arch>\nfoo"),
            "not an ELF file: it is an ar archive (a static library), not a linked program"
        );
        assert_eq!(
            msg(&[0xca, 0xfe, 0xba, 0xbe, 0, 0xff]),
            "not an ELF file: it starts with bytes ca fe ba be instead of 7f 45 4c 46"
        );
        let good = Builder::exec().build();
        let mut elf64 = good.clone();
        elf64[4] = 2;
        assert_eq!(load(&elf64), Err(LoadError::Elf64));
        let mut be = good.clone();
        be[5] = 2;
        assert_eq!(load(&be), Err(LoadError::BigEndian));
        let mut x86 = good.clone();
        x86[18] = 62;
        assert_eq!(
            msg(&x86),
            "not a RISC-V ELF file: its machine is X86_64 (e_machine 62)"
        );
        let mut dynamic = good.clone();
        dynamic[16] = 3;
        assert!(msg(&dynamic).contains("ET_DYN"));
    }

    #[test]
    fn truncated_files() {
        let good = Builder::exec().build();
        assert_eq!(
            load(&good[..40]).unwrap_err().to_string(),
            "truncated file: the ELF header needs bytes 0..52 but the file has 40 bytes"
        );
        let shoff = u32::from_le_bytes(good[32..36].try_into().unwrap()) as usize;
        assert!(matches!(
            load(&good[..shoff + 10]),
            Err(LoadError::Truncated { what, .. }) if what == "the section header table"
        ));
        assert!(matches!(
            load(&good[..70]),
            Err(LoadError::Truncated { what, .. }) if what == "the program header table"
        ));
        // A segment whose file bytes run past the end of the file.
        let mut bad = good.clone();
        bad[EHDR_SIZE + 16..EHDR_SIZE + 20].copy_from_slice(&0x10_0000u32.to_le_bytes());
        bad[EHDR_SIZE + 20..EHDR_SIZE + 24].copy_from_slice(&0x10_0000u32.to_le_bytes());
        let err = load(&bad).unwrap_err().to_string();
        assert!(
            err.starts_with("truncated file: segment 0 needs bytes 84.."),
            "{err}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn never_panics_on_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
            let _ = parse(&bytes);
        }

        #[test]
        fn never_panics_on_a_corrupted_elf(
            edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
            cut in any::<prop::sample::Index>(),
        ) {
            let mut bytes = Builder::exec().build();
            for (at, value) in edits {
                let i = at.index(bytes.len());
                bytes[i] = value;
            }
            let len = cut.index(bytes.len() + 1);
            let _ = parse(&bytes[..len]);
            let _ = parse(&bytes);
        }

        #[test]
        fn every_truncation_is_an_error(cut in any::<prop::sample::Index>()) {
            let bytes = Builder::exec().build();
            let len = cut.index(bytes.len());
            prop_assert!(load(&bytes[..len]).is_err());
        }
    }
}
