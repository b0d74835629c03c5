//! Tests of the ELF loader on hand-built files (`Builder`): what loads, and the error for
//! each kind of malformed or unsupported input.

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

/// Where `Builder::body` put each part, as file offsets and lengths.
struct Layout {
    data_start: usize,
    seg_offsets: Vec<usize>,
    /// (offset, length) of `.symtab`, `.strtab` and `.shstrtab`.
    tables: [(usize, usize); 3],
    shoff: usize,
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
        let (body, layout) = self.body();
        let mut b = Vec::new();
        self.header(&mut b, &layout);
        self.program_headers(&mut b, &layout);
        b.extend_from_slice(&body);
        self.section_headers(&mut b, &layout);
        b
    }

    /// Contents after the ELF and program headers: segment bytes, then .symtab, .strtab,
    /// .shstrtab, padded to 4 bytes.
    fn body(&self) -> (Vec<u8>, Layout) {
        let data_start = EHDR_SIZE + 32 * self.segments.len();
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
        let mut tables = [(0, 0); 3];
        for (slot, table) in tables.iter_mut().zip([&symtab, &strtab, &shstrtab]) {
            *slot = (data_start + body.len(), table.len());
            body.extend_from_slice(table);
        }
        while body.len() % 4 != 0 {
            body.push(0);
        }
        let shoff = data_start + body.len();
        let layout = Layout {
            data_start,
            seg_offsets,
            tables,
            shoff,
        };
        (body, layout)
    }

    fn header(&self, b: &mut Vec<u8>, layout: &Layout) {
        let phnum = self.segments.len();
        b.extend_from_slice(b"\x7fELF\x01\x01\x01\0\0\0\0\0\0\0\0\0");
        put16(b, self.e_type);
        put16(b, EM_RISCV);
        put32(b, 1);
        put32(b, self.segments.first().map_or(0, |s| s.0));
        put32(b, if phnum > 0 { EHDR_SIZE as u32 } else { 0 });
        put32(b, layout.shoff as u32);
        put32(b, 0);
        put16(b, EHDR_SIZE as u16);
        put16(b, 32);
        put16(b, phnum as u16);
        put16(b, 40);
        put16(b, 6);
        put16(b, 5);
    }

    fn program_headers(&self, b: &mut Vec<u8>, layout: &Layout) {
        for ((vaddr, data, memsz), off) in self.segments.iter().zip(&layout.seg_offsets) {
            for v in [
                PT_LOAD,
                *off as u32,
                *vaddr,
                *vaddr,
                data.len() as u32,
                *memsz,
            ] {
                put32(b, v);
            }
            put32(b, PF_R | PF_X);
            put32(b, 4);
        }
    }

    /// The null section, .text, .bss, .symtab, .strtab and .shstrtab.
    fn section_headers(&self, b: &mut Vec<u8>, layout: &Layout) {
        let (text_addr, text_len, text_off) = self
            .segments
            .first()
            .map_or((0, 0, layout.data_start), |s| {
                (s.0, s.1.len(), layout.seg_offsets[0])
            });
        let [(symtab_off, symtab_len), (strtab_off, strtab_len), (shstrtab_off, shstrtab_len)] =
            layout.tables;
        let shdr = |b: &mut Vec<u8>, f: [u32; 10]| f.iter().for_each(|v| put32(b, *v));
        shdr(b, [0; 10]);
        shdr(
            b,
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
            b,
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
            b,
            [
                12,
                2,
                0,
                0,
                symtab_off as u32,
                symtab_len as u32,
                4,
                1,
                4,
                16,
            ],
        );
        shdr(
            b,
            [
                20,
                3,
                0,
                0,
                strtab_off as u32,
                strtab_len as u32,
                0,
                0,
                1,
                0,
            ],
        );
        shdr(
            b,
            [
                28,
                3,
                0,
                0,
                shstrtab_off as u32,
                shstrtab_len as u32,
                0,
                0,
                1,
                0,
            ],
        );
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

/// A segment may end exactly at 2^32 (it used to be refused as wrapping): the last byte
/// of the address space is 0xffffffff.
#[test]
fn a_segment_may_end_at_the_top_of_the_address_space() {
    let mut b = Builder::exec();
    b.segments[0] = (0xffff_ffe0, vec![0; 8], 0x20);
    let image = load(&b.build()).expect("ends at 2^32");
    assert_eq!(image.segments[0].vaddr, 0xffff_ffe0);
}

/// One empty PT_LOAD is no program image: said so, not as a heap or console-word clash.
#[test]
fn an_executable_of_empty_segments_is_refused_as_having_none() {
    let mut b = Builder::exec();
    b.segments[0] = (0x8000_0000, vec![], 0);
    let err = load(&b.build()).unwrap_err();
    assert!(matches!(err, LoadError::NoSegments), "{err}");
    assert!(err.to_string().contains("memsz > 0"), "{err}");
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
