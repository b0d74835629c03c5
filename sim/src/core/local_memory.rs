//! A core's local (shared) memory: its bytes, where they are mapped, and its banks. Words
//! are interleaved over the banks; an access takes as many cycles as the most distinct
//! words that fall in one bank (the LSU and the Weaver's buffer writes pay them).

/// The local memory of one core.
#[derive(Clone, Debug)]
pub struct LocalMemory {
    bytes: Vec<u8>,
    base: u32,
    banks: u32,
}

impl LocalMemory {
    /// `size` bytes from `base`, over `banks` banks of a word each.
    pub fn new(base: u32, size: u32, banks: u32) -> Self {
        LocalMemory {
            bytes: vec![0; size as usize],
            base,
            banks,
        }
    }

    /// The contents.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Whether address `a` lies in it.
    #[inline]
    pub fn contains(&self, a: u32) -> bool {
        a.wrapping_sub(self.base) < self.bytes.len() as u32
    }

    /// The address of byte `offset`.
    pub fn address(&self, offset: u32) -> u32 {
        self.base.wrapping_add(offset)
    }

    /// The little-endian value of `width` (1, 2 or 4) bytes at `offset` (in bounds).
    #[inline]
    pub fn read(&self, offset: usize, width: u8) -> u32 {
        let b = &self.bytes[offset..offset + width as usize];
        match width {
            1 => u32::from(b[0]),
            2 => u32::from(u16::from_le_bytes([b[0], b[1]])),
            _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        }
    }

    /// Write the low `width` bytes of `value` at `offset` (in bounds), little-endian.
    #[inline]
    pub fn write(&mut self, offset: usize, width: u8, value: u32) {
        self.bytes[offset..offset + width as usize]
            .copy_from_slice(&value.to_le_bytes()[..width as usize]);
    }

    /// The number of banks.
    pub fn banks(&self) -> u32 {
        self.banks
    }

    /// The cycles an access to `addrs` needs: the largest number of distinct words that
    /// fall in one bank. A word read by several lanes is one access (a broadcast).
    pub fn conflict_degree(&self, addrs: &[u32]) -> u64 {
        let mut per_bank = [0u64; 64];
        for (k, &a) in addrs.iter().enumerate() {
            let word = a >> 2;
            if !addrs[..k].iter().any(|&b| b >> 2 == word) {
                per_bank[(word % self.banks) as usize % 64] += 1;
            }
        }
        per_bank.iter().copied().max().unwrap_or(1).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bank_conflicts() {
        let local = LocalMemory::new(0xFF00_0000, 4096, 32);
        let unit_stride: Vec<u32> = (0..32).map(|l| 0xFF00_0000 + 4 * l).collect();
        assert_eq!(local.conflict_degree(&unit_stride), 1);
        let stride2: Vec<u32> = (0..32).map(|l| 0xFF00_0000 + 8 * l).collect();
        assert_eq!(local.conflict_degree(&stride2), 2);
        let same_word = vec![0xFF00_0000; 32];
        assert_eq!(local.conflict_degree(&same_word), 1, "a broadcast");
        let stride32: Vec<u32> = (0..32).map(|l| 0xFF00_0000 + 128 * l).collect();
        assert_eq!(local.conflict_degree(&stride32), 32);
    }

    #[test]
    fn words_round_trip_little_endian() {
        let mut local = LocalMemory::new(0xFF00_0000, 16, 4);
        local.write(4, 4, 0x1122_3344);
        assert_eq!(local.read(4, 4), 0x1122_3344);
        assert_eq!((local.read(4, 1), local.read(6, 2)), (0x44, 0x1122));
        local.write(5, 1, 0xAB);
        assert_eq!(local.read(4, 4), 0x1122_AB44);
        assert!(local.contains(0xFF00_000F) && !local.contains(0xFF00_0010));
        assert!(!local.contains(0xFEFF_FFFF));
    }
}
