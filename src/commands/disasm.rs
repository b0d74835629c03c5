//! `wsim disasm`: the code sections of an ELF file in the layout of `llvm-objdump -d`.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use wsim_isa::{decode, disasm, Symbolizer};
use wsim_sim::loader::{self, ElfImage, ElfKind, Section};

#[derive(Args)]
pub struct DisasmArgs {
    /// A 32-bit little-endian RISC-V ELF file.
    elf: PathBuf,
}

pub fn exec(args: DisasmArgs) -> anyhow::Result<ExitCode> {
    let elf = &args.elf;
    let bytes = wsim_harness::read_program(elf)?;
    let image = loader::parse(&bytes).with_context(|| elf.display().to_string())?;
    let text = render(&image, &elf.display().to_string());
    let mut out = std::io::stdout().lock();
    // A closed pipe (e.g. `| head`) is not an error worth reporting.
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// A label or target symbol: the name objdump shows for an address.
struct Label<'a> {
    addr: u32,
    name: &'a str,
}

/// The labels of one section as objdump sees them: its symbols in the loader's order
/// (address, name, kind), preceded by the section's own name when no symbol is at its
/// start. Where several share an address, objdump shows the last.
fn section_labels<'a>(image: &'a ElfImage, section: &'a Section) -> Vec<Label<'a>> {
    let mut labels: Vec<Label> = image
        .symbols
        .iter()
        .filter(|s| s.section == Some(section.index))
        .map(|s| Label {
            addr: s.addr,
            name: &s.name,
        })
        .collect();
    if labels.first().is_none_or(|l| l.addr != section.addr) {
        labels.insert(
            0,
            Label {
                addr: section.addr,
                name: &section.name,
            },
        );
    }
    labels
}

/// The last label at or before `addr`, and the offset into it.
fn lookup<'a>(labels: &[Label<'a>], addr: u32) -> Option<(&'a str, u32)> {
    let n = labels.partition_point(|l| l.addr <= addr);
    let label = labels.get(n.checked_sub(1)?)?;
    Some((label.name, addr - label.addr))
}

/// Resolves branch targets like objdump: in an executable, among the symbols of the
/// sections starting closest below the target; in an object file, within the section
/// being disassembled (all of its sections start at 0).
struct Targets<'a> {
    /// (section start, labels), sorted by start.
    sections: Vec<(u32, Vec<Label<'a>>)>,
    current: usize,
    relocatable: bool,
}

impl Symbolizer for Targets<'_> {
    fn symbolize(&self, addr: u32) -> Option<(&str, u32)> {
        if self.relocatable {
            return lookup(&self.sections.get(self.current)?.1, addr);
        }
        let n = self.sections.partition_point(|(start, _)| *start <= addr);
        let start = self.sections.get(n.checked_sub(1)?)?.0;
        self.sections[..n]
            .iter()
            .rev()
            .take_while(|(s, _)| *s == start)
            .find_map(|(_, labels)| lookup(labels, addr))
    }
}

fn render(image: &ElfImage, path: &str) -> String {
    let mut out = format!("\n{path}:\tfile format elf32-littleriscv\n");
    let code: Vec<&Section> = image
        .sections
        .iter()
        .filter(|s| s.executable && !s.data.is_empty())
        .collect();
    let mut targets = Targets {
        sections: code
            .iter()
            .map(|s| (s.addr, section_labels(image, s)))
            .collect(),
        current: 0,
        relocatable: image.kind == ElfKind::Relocatable,
    };
    if !targets.relocatable {
        // Stable: sections at the same address keep their header order.
        targets.sections.sort_by_key(|(start, _)| *start);
    }
    for (i, section) in code.iter().enumerate() {
        targets.current = i;
        let labels = section_labels(image, section);
        let _ = writeln!(out, "\nDisassembly of section {}:", section.name);
        let mut next_label = 0;
        for (k, chunk) in section.data.chunks(4).enumerate() {
            let addr = section.addr.wrapping_add(4 * k as u32);
            let end = u64::from(addr) + chunk.len() as u64;
            // Print the last label in [addr, end): objdump shows one name per address.
            let mut label = None;
            while let Some(l) = labels.get(next_label) {
                if u64::from(l.addr) >= end {
                    break;
                }
                if l.addr >= addr {
                    label = Some(l);
                }
                next_label += 1;
            }
            if let Some(l) = label {
                let _ = write!(out, "\n{:08x} <{}>:\n", l.addr, l.name);
            }
            let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
            let text = match <[u8; 4]>::try_from(chunk) {
                Ok(word) => match decode(u32::from_le_bytes(word)) {
                    Ok(d) => disasm(&d.instr, addr, &targets),
                    Err(_) => "<unknown>".to_string(),
                },
                Err(_) => "<unknown>".to_string(),
            };
            let _ = writeln!(out, "{addr:8x}: {:<13}\t{text}", hex.join(" "));
        }
    }
    out
}
