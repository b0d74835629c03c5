//! The names a program gives its statistics phases (the values it writes to CSR 0x7C0):
//! the array `const char *const wsim_phase_names[]`, indexed by phase number and ended by
//! a null pointer, read from the program's initialized data when it is loaded. Phases
//! without a name are reported by number.

use crate::loader::ElfImage as Image;

/// The table's symbol.
pub const SYMBOL: &str = "wsim_phase_names";
/// The most names a table may give, and the longest name (bytes).
pub const MAX_PHASES: usize = 256;
pub const MAX_NAME: usize = 40;

/// The names `image` gives its phases (index = phase number); empty when it defines no
/// table. A table that is not a null-terminated array of short lower-case names in the
/// image is an error naming the entry.
pub fn read(image: &Image) -> Result<Vec<String>, String> {
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
            return err(format!("entry {index} at {at:#x} is not in the program's data"));
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
fn name_at(image: &Image, addr: u32) -> Result<String, String> {
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
fn bytes(image: &Image, addr: u32, n: u32) -> Option<&[u8]> {
    let rest = suffix(image, addr);
    (rest.len() >= n as usize).then(|| &rest[..n as usize])
}

/// The file data of the segment holding `addr`, from `addr` on (empty: none holds it).
fn suffix(image: &Image, addr: u32) -> &[u8] {
    image
        .segments
        .iter()
        .find_map(|s| {
            let off = addr.checked_sub(s.vaddr)? as usize;
            (off < s.data.len()).then(|| &s.data[off..])
        })
        .unwrap_or_default()
}
