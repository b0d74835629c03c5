//! The names a program gives its statistics phases (the values it writes to CSR 0x7C0):
//! the array `const char *const wsim_phase_names[]`, indexed by phase number and ended by
//! a null pointer, read from the program's initialized data when it is loaded. Phases
//! without a name are reported by number.

use crate::loader::ElfImage;

/// The table's symbol.
pub const SYMBOL: &str = "wsim_phase_names";
/// The most names a table may give, and the longest name (bytes).
pub const MAX_PHASES: usize = 256;
pub const MAX_NAME: usize = 40;

/// The names `image` gives its phases (index = phase number); empty when it defines no
/// table. A table that is not a null-terminated array of short lower-case names in the
/// image is an error naming the entry.
pub fn read(image: &ElfImage) -> Result<Vec<String>, String> {
    let Some(table) = image.symbol(SYMBOL) else {
        return Ok(Vec::new());
    };
    let err = |what: String| Err(format!("{SYMBOL} (at {:#x}): {what}", table.addr));
    let mut names = Vec::new();
    loop {
        let index = names.len();
        if index > MAX_PHASES {
            return err(format!(
                "no null pointer ends the table within {MAX_PHASES} names"
            ));
        }
        let at = table.addr.wrapping_add(4 * index as u32);
        if table.size != 0 && 4 * index as u32 >= table.size {
            return err(format!(
                "the table's {} bytes end before its null pointer",
                table.size
            ));
        }
        let Some(word) = bytes(image, at, 4) else {
            return err(format!(
                "entry {index} at {at:#x} is not in the program's data"
            ));
        };
        let pointer = u32::from_le_bytes(word.try_into().expect("four bytes"));
        if pointer == 0 {
            return Ok(names);
        }
        match name_at(image, pointer) {
            Ok(name) => names.push(name),
            Err(why) => return err(format!("entry {index} (pointer {pointer:#x}): {why}")),
        }
    }
}

/// The NUL-terminated name at `addr`.
fn name_at(image: &ElfImage, addr: u32) -> Result<String, String> {
    let rest = suffix(image, addr);
    if rest.is_empty() {
        return Err("not in the program's data".into());
    }
    let Some(len) = rest.iter().take(MAX_NAME + 1).position(|&b| b == 0) else {
        return Err(format!("no name of at most {MAX_NAME} bytes ends there"));
    };
    let name = &rest[..len];
    let valid = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'_';
    if name.is_empty() || !name.iter().all(valid) {
        return Err(format!(
            "{:?} is not a name of lower-case letters, digits and underscores",
            String::from_utf8_lossy(name)
        ));
    }
    Ok(String::from_utf8_lossy(name).into_owned())
}

/// `n` bytes at `addr` from a segment's file data.
fn bytes(image: &ElfImage, addr: u32, n: u32) -> Option<&[u8]> {
    let rest = suffix(image, addr);
    (rest.len() >= n as usize).then(|| &rest[..n as usize])
}

/// The file data of the segment holding `addr`, from `addr` on (empty: none holds it).
fn suffix(image: &ElfImage, addr: u32) -> &[u8] {
    image
        .segments
        .iter()
        .find_map(|s| {
            let off = addr.checked_sub(s.vaddr)? as usize;
            (off < s.data.len()).then(|| &s.data[off..])
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::{ElfKind, Segment, Symbol, SymbolKind};

    /// An image with `data` at 0x1000 and the table at `0x1000 + at`, `size` bytes.
    fn image(data: &[u8], at: u32, size: u32) -> ElfImage {
        ElfImage {
            kind: ElfKind::Executable,
            entry: 0x1000,
            segments: vec![Segment {
                vaddr: 0x1000,
                data: data.to_vec(),
                memsz: data.len() as u32,
                read: true,
                write: false,
                execute: false,
            }],
            sections: Vec::new(),
            symbols: vec![Symbol {
                name: SYMBOL.into(),
                addr: 0x1000 + at,
                size,
                kind: SymbolKind::Object,
                section: None,
                global: true,
            }],
        }
    }

    /// Strings "init\0edges\0" at 0x1000, then the table's words at 0x100c.
    fn table(words: &[u32]) -> Vec<u8> {
        let mut data = b"init\0edges\0\0".to_vec();
        for w in words {
            data.extend(w.to_le_bytes());
        }
        data
    }

    #[test]
    fn names_up_to_the_null_pointer() {
        let data = table(&[0x1000, 0x1005, 0, 0x1000]);
        assert_eq!(read(&image(&data, 12, 12)).unwrap(), ["init", "edges"]);
        let mut none = image(&data, 12, 12);
        none.symbols.clear();
        assert!(read(&none).unwrap().is_empty());
    }

    #[test]
    fn a_bad_table_names_the_entry() {
        let err = |words: &[u32], size| read(&image(&table(words), 12, size)).unwrap_err();
        assert!(
            err(&[0x1000, 0x9000, 0], 0)
                .contains("entry 1 (pointer 0x9000): not in the program's data"),
            "{}",
            err(&[0x1000, 0x9000, 0], 0)
        );
        assert!(
            err(&[0x1000, 0x1005], 8).contains("the table's 8 bytes end before its null pointer")
        );
        assert!(
            err(&[0x1000, 0x1005], 0).contains("entry 2 at 0x1014 is not in the program's data")
        );
        // "\0" at 0x1004 is an empty name; "nit" at 0x1001 is fine.
        assert!(err(&[0x1004, 0], 0).contains("\"\" is not a name"));
        assert_eq!(read(&image(&table(&[0x1001, 0]), 12, 0)).unwrap(), ["nit"]);
        let mut upper = table(&[0x1000, 0]);
        upper[0] = b'I';
        let e = read(&image(&upper, 12, 0)).unwrap_err();
        assert!(
            e.starts_with("wsim_phase_names (at 0x100c): entry 0"),
            "{e}"
        );
        assert!(
            e.contains("\"Init\" is not a name of lower-case letters"),
            "{e}"
        );
    }

    #[test]
    fn long_names_and_tables_are_refused() {
        let mut data = vec![b'a'; MAX_NAME + 1];
        data.push(0);
        let at = data.len() as u32;
        data.extend(0x1000u32.to_le_bytes());
        data.extend(0u32.to_le_bytes());
        let e = read(&image(&data, at, 0)).unwrap_err();
        assert!(e.contains("no name of at most 40 bytes ends there"), "{e}");
        let endless = table(&[0x1000; MAX_PHASES + 1]);
        let e = read(&image(&endless, 12, 0)).unwrap_err();
        assert!(
            e.contains("no null pointer ends the table within 256 names"),
            "{e}"
        );
    }
}
