//! Sections and regions: the program's code cut into disjoint regions, one per function
//! symbol plus one per stretch of code no symbol covers (see the module documentation of
//! [`super`]), and bounds-checked word reads from the loaded sections.

use super::FunctionSymbol;

#[derive(Clone, Copy)]
pub(super) struct Sec<'a> {
    pub(super) addr: u32,
    /// Exclusive, `addr + bytes.len()`, at most 2^32.
    pub(super) end: u64,
    bytes: &'a [u8],
}

impl<'a> Sec<'a> {
    pub(super) fn new(addr: u32, bytes: &'a [u8]) -> Option<Sec<'a>> {
        let room = (1u64 << 32) - addr as u64;
        let len = (bytes.len() as u64).min(room) as usize;
        let bytes = &bytes[..len];
        (len > 0).then(|| Sec {
            addr,
            end: addr as u64 + len as u64,
            bytes,
        })
    }
    pub(super) fn contains(&self, a: u64, len: u64) -> bool {
        a >= self.addr as u64 && a + len <= self.end
    }
    pub(super) fn word(&self, a: u64) -> Option<u32> {
        if !self.contains(a, 4) {
            return None;
        }
        let o = (a - self.addr as u64) as usize;
        let b = self.bytes.get(o..o + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

pub(super) fn read_word(secs: &[&[Sec]], a: u64) -> Option<u32> {
    secs.iter().flat_map(|s| s.iter()).find_map(|s| s.word(a))
}

pub(super) struct Region {
    pub(super) name: String,
    pub(super) start: u32,
    pub(super) end: u64,
    /// Index into the code sections.
    pub(super) sec: usize,
}

impl Region {
    /// Number of whole instruction words.
    pub(super) fn len(&self) -> usize {
        ((self.end - self.start as u64) / 4) as usize
    }
    pub(super) fn pc(&self, i: usize) -> u32 {
        (self.start as u64 + 4 * i as u64) as u32
    }
    /// Index of the instruction at `a`, if `a` is on this region's grid.
    pub(super) fn index(&self, a: u32) -> Option<usize> {
        let off = (a as u64).checked_sub(self.start as u64)?;
        (off % 4 == 0 && off / 4 < self.len() as u64).then_some((off / 4) as usize)
    }
}

pub(super) fn make_regions(code: &[Sec], functions: &[FunctionSymbol]) -> Vec<Region> {
    let mut out: Vec<Region> = Vec::new();
    for (si, s) in code.iter().enumerate() {
        let mut syms: Vec<&FunctionSymbol> = functions
            .iter()
            .filter(|f| s.contains(f.start as u64, 1))
            .collect();
        // One symbol per start: prefer one with a size, then the larger, then by name.
        syms.sort_by(|a, b| {
            (a.start, a.size == 0, std::cmp::Reverse(a.size), &a.name).cmp(&(
                b.start,
                b.size == 0,
                std::cmp::Reverse(b.size),
                &b.name,
            ))
        });
        syms.dedup_by_key(|f| f.start);
        let mut covered = s.addr as u64;
        for (k, f) in syms.iter().enumerate() {
            let next = syms.get(k + 1).map_or(s.end, |g| g.start as u64);
            let end = if f.size == 0 {
                next
            } else {
                (f.start as u64 + f.size as u64).min(next)
            };
            if f.start as u64 > covered {
                out.push(gap(covered, f.start as u64, si));
            }
            out.push(Region {
                name: f.name.clone(),
                start: f.start,
                end,
                sec: si,
            });
            covered = end;
        }
        if covered < s.end {
            out.push(gap(covered, s.end, si));
        }
    }
    // Overlapping code sections: keep regions disjoint.
    out.sort_by_key(|r| (r.start, r.sec));
    let mut disjoint: Vec<Region> = Vec::with_capacity(out.len());
    for mut r in out {
        if let Some(p) = disjoint.last() {
            if (r.start as u64) < p.end {
                if r.end <= p.end {
                    continue;
                }
                r.start = p.end as u32; // p.end < r.end <= 2^32
                if r.name.starts_with("<code ") {
                    r.name = gap_name(r.start as u64);
                }
            }
        }
        if r.end > r.start as u64 {
            disjoint.push(r);
        }
    }
    disjoint
}

fn gap_name(a: u64) -> String {
    format!("<code 0x{a:08x}>")
}

fn gap(start: u64, end: u64, sec: usize) -> Region {
    Region {
        name: gap_name(start),
        start: start as u32,
        end,
        sec,
    }
}
