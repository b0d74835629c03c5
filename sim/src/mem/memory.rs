//! Sparse, paged, little-endian backing store for the whole 32-bit address space.
//!
//! A two-level table (1024 directories x 4096 pages of 1 KiB) so lookups are two indexed
//! loads and iteration is in address order (determinism). Untouched memory reads as zero
//! and costs nothing. Pages are shared between copies of a memory until one writes them
//! (the sampler copies the machine every few units: copying the pages measured 24% of a
//! sampled road-graph BFS). Pages are small because a write after a copy copies its page:
//! each of a unit's thousands of threads spills to its own stack, and 4 KiB pages made
//! that copying a fifth of a sampled grid BFS copied at every unit (1 KiB: 1.29x faster
//! and 113 MB against 314 MB at its peak; 512 and 256 bytes gain 1.11x and 1.02x more, at
//! a directory of 64 and 128 KiB that every copy of the machine copies).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Bytes per page.
pub const PAGE_SIZE: usize = 1 << PAGE_BITS;
const PAGE_BITS: usize = 10;
/// A directory covers 4 MiB: 1024 of them cover the address space.
const DIR_BITS: usize = 22;
const PAGES_PER_DIR: usize = 1 << (DIR_BITS - PAGE_BITS);

type Page = Arc<[u8; PAGE_SIZE]>;

/// A directory's pages, and for each the epoch of its memory in which the memory last
/// found it its own. Arrays of exactly the indices an address yields: no bounds checks on
/// the way.
#[derive(Clone)]
struct Dir {
    pages: [Option<Page>; PAGES_PER_DIR],
    owned: [u64; PAGES_PER_DIR],
}

pub struct Memory {
    dirs: Box<[Option<Box<Dir>>; 1024]>,
    /// Changes whenever the memory is copied (`Clone`), for the original and the copy
    /// alike: a page stamped with the current epoch is this memory's alone (no copy shares
    /// it), so a store writes it in place without `Arc::make_mut`'s atomic compare-and-swap
    /// (half of `write`, 6% of a functional road BFS).
    epoch: AtomicU64,
}

/// A new epoch: no two memories ever have the same one, nor one a memory had before.
fn fresh_epoch() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl Clone for Memory {
    /// The copy shares every page; from now on neither memory counts a page its own until
    /// a store has made sure (`page_mut`).
    fn clone(&self) -> Self {
        self.epoch.store(fresh_epoch(), Ordering::Relaxed);
        Memory {
            dirs: self.dirs.clone(),
            epoch: AtomicU64::new(fresh_epoch()),
        }
    }
}

impl Default for Memory {
    fn default() -> Self {
        Memory::new()
    }
}

impl Memory {
    pub fn new() -> Self {
        Memory {
            dirs: Box::new([const { None }; 1024]),
            epoch: AtomicU64::new(fresh_epoch()),
        }
    }

    #[inline]
    fn split(addr: u32) -> (usize, usize, usize) {
        let a = addr as usize;
        (
            a >> DIR_BITS,
            (a >> PAGE_BITS) & (PAGES_PER_DIR - 1),
            a & (PAGE_SIZE - 1),
        )
    }

    #[inline]
    fn page(&self, addr: u32) -> Option<&[u8; PAGE_SIZE]> {
        let (d, p, _) = Self::split(addr);
        self.dirs[d].as_ref()?.pages[p].as_deref()
    }

    #[inline]
    fn page_mut(&mut self, addr: u32) -> &mut [u8; PAGE_SIZE] {
        let (d, p, _) = Self::split(addr);
        let epoch = *self.epoch.get_mut();
        if let Some(dir) = self.dirs[d].as_mut() {
            if let (Some(page), true) = (&mut dir.pages[p], dir.owned[p] == epoch) {
                // SAFETY: the page is stamped with this epoch, so this memory found it its
                // own (`make_own`) and has not been copied since (a copy changes the
                // epoch): no other `Arc` or `Weak` of it exists, and `&mut self` excludes
                // every other reference, which is what `Arc::get_mut` would check.
                return unsafe { &mut *Arc::as_ptr(page).cast_mut() };
            }
        }
        self.make_own(d, p, epoch)
    }

    /// A page not yet stamped as this memory's own: made so (allocated as zeros on the
    /// first write, copied when a copy of the memory shares it) and stamped.
    #[cold]
    #[inline(never)]
    fn make_own(&mut self, d: usize, p: usize, epoch: u64) -> &mut [u8; PAGE_SIZE] {
        let dir = self.dirs[d].get_or_insert_with(|| {
            Box::new(Dir {
                pages: [const { None }; PAGES_PER_DIR],
                owned: [0; PAGES_PER_DIR],
            })
        });
        dir.owned[p] = epoch;
        Arc::make_mut(dir.pages[p].get_or_insert_with(|| Arc::new([0; PAGE_SIZE])))
    }

    /// Whether the page of `addr` holds data (the program image put it there or a store
    /// did); other memory reads as zero.
    pub fn is_mapped(&self, addr: u32) -> bool {
        self.page(addr).is_some()
    }

    /// Read an aligned value of `width` bytes (1, 2 or 4), zero-extended.
    #[inline(always)]
    pub fn read(&self, addr: u32, width: u8) -> u32 {
        debug_assert!(addr.is_multiple_of(u32::from(width)));
        let Some(page) = self.page(addr) else {
            return 0;
        };
        // Offsets masked to the width's alignment (which they have): the compiler then
        // knows every byte lies in the page, and reads a word as one load.
        let o = addr as usize;
        match width {
            1 => u32::from(page[o & (PAGE_SIZE - 1)]),
            2 => u32::from(u16::from_le_bytes(bytes(page, o & (PAGE_SIZE - 2)))),
            _ => u32::from_le_bytes(bytes(page, o & (PAGE_SIZE - 4))),
        }
    }

    /// Write the low `width` bytes (1, 2 or 4) of `value` at an aligned address.
    #[inline]
    pub fn write(&mut self, addr: u32, width: u8, value: u32) {
        debug_assert!(addr.is_multiple_of(u32::from(width)));
        let o = addr as usize;
        let page = self.page_mut(addr);
        // By width, not a slice copy of variable length: no call to memcpy per store; the
        // offsets masked as in `read`.
        match width {
            1 => page[o & (PAGE_SIZE - 1)] = value as u8,
            2 => {
                let o = o & (PAGE_SIZE - 2);
                page[o..o + 2].copy_from_slice(&(value as u16).to_le_bytes())
            }
            _ => {
                let o = o & (PAGE_SIZE - 4);
                page[o..o + 4].copy_from_slice(&value.to_le_bytes())
            }
        }
    }

    pub fn read_u32(&self, addr: u32) -> u32 {
        self.read(addr, 4)
    }

    pub fn write_u32(&mut self, addr: u32, value: u32) {
        self.write(addr, 4, value)
    }

    /// Copy bytes in at any alignment (program loading, host-side set-up).
    pub fn write_bytes(&mut self, mut addr: u32, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let o = addr as usize & (PAGE_SIZE - 1);
            let n = bytes.len().min(PAGE_SIZE - o);
            self.page_mut(addr)[o..o + n].copy_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
            addr = addr.wrapping_add(n as u32);
        }
    }

    /// Copy bytes out at any alignment.
    pub fn read_bytes(&self, mut addr: u32, out: &mut [u8]) {
        let mut done = 0;
        while done < out.len() {
            let o = addr as usize & (PAGE_SIZE - 1);
            let n = (out.len() - done).min(PAGE_SIZE - o);
            match self.page(addr) {
                Some(page) => out[done..done + n].copy_from_slice(&page[o..o + n]),
                None => out[done..done + n].fill(0),
            }
            done += n;
            addr = addr.wrapping_add(n as u32);
        }
    }

    /// The touched pages in address order: (base address, contents).
    pub fn pages(&self) -> impl Iterator<Item = (u32, &[u8; PAGE_SIZE])> + '_ {
        self.dirs.iter().enumerate().flat_map(|(d, dir)| {
            dir.iter().flat_map(move |dir| {
                dir.pages.iter().enumerate().filter_map(move |(p, page)| {
                    page.as_deref()
                        .map(|pg| (((d << DIR_BITS) | (p << PAGE_BITS)) as u32, pg))
                })
            })
        })
    }
}

/// The `N` bytes of `page` from `o`, which the caller masked so that they lie in it.
#[inline(always)]
fn bytes<const N: usize>(page: &[u8; PAGE_SIZE], o: usize) -> [u8; N] {
    std::array::from_fn(|k| page[o + k])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_write_widths_little_endian() {
        let mut m = Memory::new();
        m.write(0x8000_0000, 4, 0x1122_3344);
        assert_eq!(m.read(0x8000_0000, 1), 0x44);
        assert_eq!(m.read(0x8000_0002, 2), 0x1122);
        m.write(0x8000_0001, 1, 0xAA);
        assert_eq!(m.read_u32(0x8000_0000), 0x1122_AA44);
        assert_eq!(
            m.read_u32(0x1234_5678 & !3),
            0,
            "untouched memory reads zero"
        );
    }

    /// A page written in place (stamped as its memory's own) is copied on the next write
    /// after a copy of the memory, whichever of the two writes it, copies of copies too.
    #[test]
    fn copies_never_see_each_others_writes() {
        let a_addr = 0x8000_0000;
        let mut a = Memory::new();
        a.write_u32(a_addr, 1);
        a.write_u32(a_addr, 2); // in place: the page is `a`'s own
        let mut b = a.clone();
        a.write_u32(a_addr, 3);
        assert_eq!((a.read_u32(a_addr), b.read_u32(a_addr)), (3, 2));
        b.write_u32(a_addr, 4);
        b.write_u32(a_addr + 4, 5);
        assert_eq!((a.read_u32(a_addr), b.read_u32(a_addr)), (3, 4));
        assert_eq!(a.read_u32(a_addr + 4), 0);
        let c = b.clone();
        b.write_u32(a_addr, 6);
        let d = c.clone();
        assert_eq!(
            [
                a.read_u32(a_addr),
                b.read_u32(a_addr),
                c.read_u32(a_addr),
                d.read_u32(a_addr)
            ],
            [3, 6, 4, 4]
        );
        // Copied again and dropped: the original still writes its page correctly.
        drop(a.clone());
        a.write_u32(a_addr, 7);
        assert_eq!((a.read_u32(a_addr), b.read_u32(a_addr)), (7, 6));
    }

    #[test]
    fn bytes_cross_pages_and_wrap_top() {
        let mut m = Memory::new();
        let data: Vec<u8> = (0..10_000u32).map(|i| i as u8).collect();
        m.write_bytes(0x1FFE, &data);
        let mut back = vec![0; data.len()];
        m.read_bytes(0x1FFE, &mut back);
        assert_eq!(back, data);
        m.write_u32(0xFFFF_FFFC, 7);
        assert_eq!(m.read_u32(0xFFFF_FFFC), 7);
        let bases: Vec<u32> = m.pages().map(|(a, _)| a).collect();
        // The pages of [0x1FFE, 0x1FFE + 10,000) and the last one, in address order.
        let first = 0x1FFE / PAGE_SIZE as u32;
        let last = (0x1FFE + 10_000 - 1) / PAGE_SIZE as u32;
        let mut expected: Vec<u32> = (first..=last).map(|p| p * PAGE_SIZE as u32).collect();
        expected.push(0u32.wrapping_sub(PAGE_SIZE as u32));
        assert_eq!(bases, expected);
    }
}
