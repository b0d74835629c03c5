//! The address map: the regions a program may load from and store to. An access outside
//! all of them is an error reported like a null-pointer access (docs/CONFIG.md, "The
//! memory map"), so a wild pointer stops the run where it happens instead of silently
//! writing memory nobody reads.
//!
//! The regions: the program image's loadable segments and the heap above its end
//! (`map.heap`), the stacks (`stack.top`, `stack.size` per hardware thread), every core's
//! local-memory window, the I/O words, the regions a host reserved
//! (`Machine::reserve_region`: a placed graph), and `map.regions`.

use std::cell::Cell;

use crate::config::Config;
use crate::error::{ErrorKind, SimError};
use crate::loader::Segment;

/// A mapped region `[start, end)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub start: u32,
    pub end: u64,
    pub name: String,
}

impl Region {
    fn new(start: u32, end: u64, name: impl Into<String>) -> Region {
        Region {
            start,
            end,
            name: name.into(),
        }
    }

    fn overlaps(&self, other: &Region) -> bool {
        u64::from(self.start) < other.end && u64::from(other.start) < self.end
    }
}

impl std::fmt::Display for Region {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} [{:#x}, {:#x})", self.name, self.start, self.end)
    }
}

#[derive(Clone, Debug, Default)]
pub struct MemoryMap {
    /// Every region, in the order added (for messages).
    regions: Vec<Region>,
    /// Their union as disjoint `[start, end)` spans sorted by start (for lookups).
    spans: Vec<(u32, u64)>,
    /// The span the last access fell in: a warp's lanes and a loop's accesses mostly stay
    /// in one, so it is tried first.
    last: Cell<usize>,
}

impl MemoryMap {
    /// The map of a machine built from `config` (already validated) running a program of
    /// these loadable segments (and `tohost` word, riscv-tests' I/O). Errors when a
    /// segment overlaps the null guard, local memory, an I/O word or the stacks, or the
    /// heap overlaps any of them.
    pub fn new(
        config: &Config,
        segments: &[Segment],
        tohost: Option<u32>,
    ) -> Result<MemoryMap, String> {
        let io = &config.io;
        let lm = &config.local_mem;
        let (stack_bottom, stack_top) = config.stack_region();
        let fixed = [
            Region::new(0, io.null_guard.into(), "the null guard"),
            Region::new(
                lm.base,
                u64::from(lm.base) + u64::from(lm.size),
                "local memory",
            ),
            Region::new(io.console, u64::from(io.console) + 4, "the console word"),
            Region::new(io.exit, u64::from(io.exit) + 4, "the exit word"),
            // Validation keeps the stacks above the null guard.
            Region::new(stack_bottom.max(0) as u32, stack_top, "the stacks"),
        ];
        let mut map = MemoryMap::default();
        let mut image_end = 0u64;
        for seg in segments.iter().filter(|s| s.memsz > 0) {
            let end = u64::from(seg.vaddr) + u64::from(seg.memsz);
            let region = Region::new(seg.vaddr, end, "loadable segment");
            if let Some(f) = fixed.iter().find(|f| f.overlaps(&region)) {
                return Err(format!(
                    "loadable segment [{:#x}, {end:#x}) overlaps {f}",
                    seg.vaddr
                ));
            }
            image_end = image_end.max(end);
            map.insert(region);
        }
        let heap = Region::new(
            image_end as u32,
            (image_end + u64::from(config.map.heap)).min(1 << 32),
            "the heap",
        );
        // No heap above an image that ends at the top of the address space.
        if image_end < 1 << 32 && heap.end > image_end {
            if let Some(f) = fixed[1..].iter().find(|f| f.overlaps(&heap)) {
                return Err(format!(
                    "map.heap = {:#x}: {heap} above the program image overlaps {f}",
                    config.map.heap
                ));
            }
            map.insert(heap);
        }
        for f in &fixed[1..] {
            map.insert(f.clone());
        }
        if let Some(tohost) = tohost {
            map.insert(Region::new(tohost, u64::from(tohost) + 8, "tohost"));
        }
        for r in &config.map.regions {
            map.insert(Region::new(
                r.base,
                u64::from(r.base) + u64::from(r.size),
                "map.regions",
            ));
        }
        Ok(map)
    }

    /// Map `[start, end)` (a placed graph); errors naming the region it would overlap
    /// among those that must stay apart: the stacks, local memory, the heap, the I/O words.
    pub fn add(&mut self, start: u32, end: u64, name: &str) -> Result<(), String> {
        let region = Region::new(start, end, name);
        let apart = [
            "the stacks",
            "local memory",
            "the heap",
            "the console word",
            "the exit word",
        ];
        if let Some(r) =
            (self.regions.iter()).find(|r| apart.contains(&r.name.as_str()) && r.overlaps(&region))
        {
            return Err(format!("{region} overlaps {r}"));
        }
        self.insert(region);
        Ok(())
    }

    fn insert(&mut self, region: Region) {
        self.spans.push((region.start, region.end));
        self.spans.sort_unstable();
        let mut merged: Vec<(u32, u64)> = Vec::with_capacity(self.spans.len());
        for &(s, e) in &self.spans {
            match merged.last_mut() {
                Some(last) if u64::from(s) <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        self.spans = merged;
        self.last.set(0);
        self.regions.push(region);
    }

    /// The regions, in the order they were mapped.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// Whether an access of `width` bytes at `addr` lies inside one mapped span; else the
    /// error for it (`what`: load, store, ...). On every load and store, so the span of
    /// the last access is tried first.
    #[inline]
    pub fn check(&self, addr: u32, width: u8, what: &'static str) -> Result<(), SimError> {
        if self.covers(addr, u64::from(addr) + u64::from(width)) {
            Ok(())
        } else {
            Err(unmapped(addr, what))
        }
    }

    /// Whether `[start, end)` lies inside one mapped span.
    #[inline]
    pub fn covers(&self, start: u32, end: u64) -> bool {
        match self.spans.get(self.last.get()) {
            Some(&(s, e)) if s <= start && end <= e => true,
            _ => self.search(start, end),
        }
    }

    /// Out of line, so that `covers` stays small enough to inline into the access path.
    #[inline(never)]
    fn search(&self, start: u32, end: u64) -> bool {
        match (self.spans.iter()).position(|&(s, e)| s <= start && end <= e) {
            Some(i) => {
                self.last.set(i);
                true
            }
            None => false,
        }
    }
}

#[cold]
#[inline(never)]
fn unmapped(addr: u32, what: &'static str) -> SimError {
    SimError::new(ErrorKind::Unmapped {
        what,
        addr,
        reason: "outside every mapped region: image, heap, stacks, local memory, I/O, graph, map.regions",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::MapRegion;

    fn image() -> Vec<Segment> {
        vec![Segment {
            vaddr: 0x8000_0000,
            data: vec![0; 0x100],
            memsz: 0x200,
            read: true,
            write: true,
            execute: true,
        }]
    }

    #[test]
    fn image_heap_stacks_local_and_io_are_mapped_and_nothing_else() {
        let mut config = Config::default();
        config.map.regions.push(MapRegion {
            base: 0xC000_0000,
            size: 0x10,
        });
        let map = MemoryMap::new(&config, &image(), None).unwrap();
        let heap_end = 0x8000_0200 + config.map.heap;
        let (bottom, top) = config.stack_region();
        for addr in [
            0x8000_0000,
            0x8000_01FC,
            heap_end - 4,
            bottom as u32,
            top as u32 - 4,
            config.local_mem.base,
            config.io.console,
            config.io.exit,
            0xC000_000C,
        ] {
            assert_eq!(map.check(addr, 4, "load"), Ok(()), "{addr:#x}");
        }
        for addr in [
            0x7FFF_FFFC,
            heap_end,
            bottom as u32 - 4,
            top as u32,
            0xC000_0010,
            0xB000_0000,
            config.io.console + 4,
        ] {
            assert!(map.check(addr, 4, "store").is_err(), "{addr:#x}");
        }
        // An access that starts inside and ends outside.
        assert!(map.check(heap_end - 2, 4, "load").is_err());
    }

    #[test]
    fn overlaps_are_errors_naming_both_sides() {
        let mut config = Config::default();
        config.map.heap = 0x7E00_0000;
        let e = MemoryMap::new(&config, &image(), None).unwrap_err();
        assert!(
            e.contains("map.heap") && e.contains("overlaps the stacks"),
            "{e}"
        );
        config.map.heap = 0;
        config.stack.top = 0x8000_0100;
        config.stack.size = 16;
        let e = MemoryMap::new(&config, &image(), None).unwrap_err();
        assert!(
            e.contains("loadable segment [0x80000000, 0x80000200) overlaps the stacks"),
            "{e}"
        );
        let mut map = MemoryMap::new(&Config::default(), &image(), None).unwrap();
        let e = map.add(0x8000_1000, 0x8000_2000, "the graph").unwrap_err();
        assert!(
            e.contains("the graph") && e.contains("overlaps the heap"),
            "{e}"
        );
        assert_eq!(map.add(0x9000_0000, 0x9000_1000, "the graph"), Ok(()));
        assert_eq!(map.check(0x9000_0FFC, 4, "load"), Ok(()));
    }
}
