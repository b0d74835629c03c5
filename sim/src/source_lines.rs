//! The source line of each instruction, from the ELF's DWARF line tables (`.debug_line`,
//! written by `-g`), for messages: an error at a PC names `file:line`. Best effort: a file
//! without line tables, or with malformed ones, gives no lines (gimli reads hostile input
//! without panicking) and never fails a load.

use std::collections::HashMap;

use gimli::{EndianSlice, LittleEndian, SectionId};

use crate::loader::ElfImage;

type Reader<'a> = EndianSlice<'a, LittleEndian>;

/// One row of a line table: from `addr` on, the code is `line` of `files[file]`, until the
/// next row; `end` rows close a sequence (no code of a line follows).
#[derive(Clone, Copy, Debug)]
struct Row {
    addr: u32,
    file: u32,
    line: u32,
    end: bool,
}

/// Every line-table row of a program, by address.
#[derive(Clone, Debug, Default)]
pub struct SourceLines {
    rows: Vec<Row>,
    files: Vec<String>,
}

impl SourceLines {
    /// The line tables of `image` (none if it has no `.debug_line` or it cannot be read).
    pub fn read(image: &ElfImage) -> Self {
        let section = |id: SectionId| -> Result<Reader<'_>, gimli::Error> {
            let data = (image.sections.iter())
                .find(|s| s.name == id.name())
                .map_or(&[][..], |s| &s.data[..]);
            Ok(EndianSlice::new(data, LittleEndian))
        };
        let mut lines = SourceLines::default();
        if let Ok(dwarf) = gimli::Dwarf::load(section) {
            // A unit that cannot be read is skipped; the others still give their lines.
            let _ = lines.add_units(&dwarf);
        }
        // Stable: rows of one address keep their table order (the last one wins below).
        lines.rows.sort_by_key(|r| r.addr);
        lines
    }

    fn add_units(&mut self, dwarf: &gimli::Dwarf<Reader<'_>>) -> Result<(), gimli::Error> {
        let mut interned: HashMap<String, u32> = HashMap::new();
        let mut units = dwarf.units();
        while let Some(header) = units.next()? {
            let Ok(unit) = dwarf.unit(header) else {
                continue;
            };
            let Some(program) = unit.line_program.clone() else {
                continue;
            };
            let mut rows = program.rows();
            while let Some((header, row)) = rows.next_row()? {
                let path = row
                    .file(header)
                    .map(|f| file_path(dwarf, &unit, header, f))
                    .unwrap_or_default();
                let next = self.files.len() as u32;
                let file = *interned.entry(path).or_insert_with_key(|p| {
                    self.files.push(p.clone());
                    next
                });
                self.rows.push(Row {
                    addr: row.address() as u32,
                    file,
                    line: row.line().map_or(0, |l| l.get() as u32),
                    end: row.end_sequence(),
                });
            }
        }
        Ok(())
    }

    /// `file:line` of the code at `pc`, if a line table covers it.
    pub fn line_of(&self, pc: u32) -> Option<String> {
        let after = self.rows.partition_point(|r| r.addr <= pc);
        let row = self.rows[..after].last()?;
        if row.end || row.line == 0 {
            return None;
        }
        Some(format!("{}:{}", self.files[row.file as usize], row.line))
    }
}

/// A line-table file entry's path: its directory joined to its name unless the name is
/// absolute, without a leading `./` (the programs are built with their folder mapped to `.`).
fn file_path(
    dwarf: &gimli::Dwarf<Reader<'_>>,
    unit: &gimli::Unit<Reader<'_>>,
    header: &gimli::LineProgramHeader<Reader<'_>>,
    file: &gimli::FileEntry<Reader<'_>>,
) -> String {
    let text = |value| {
        dwarf
            .attr_string(unit, value)
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let name = text(file.path_name());
    let dir = file.directory(header).map(text).unwrap_or_default();
    let path = if name.starts_with('/') || dir.is_empty() || dir == "." {
        name
    } else {
        format!("{dir}/{name}")
    };
    path.strip_prefix("./").map(str::to_string).unwrap_or(path)
}
