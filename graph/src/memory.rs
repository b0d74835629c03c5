//! The host memory a graph takes, estimated from the sizes an input declares before
//! anything is allocated for them (docs/GRAPHS.md, "Ceilings"), and the memory wsim may
//! plan to use: `--max-memory`, else what the host has available.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Host bytes a graph of `vertices` and `edges` holds: the CSR and the CSC, each with
/// offsets (4 bytes a vertex), targets and weights (4 bytes each an edge).
pub fn graph_bytes(vertices: u64, edges: u64) -> u64 {
    (8 * (vertices + 1)).saturating_add(edges.saturating_mul(16))
}

/// Host bytes at the peak of building a graph of `vertices` and `edges` from `input`
/// edges (more than `edges` when symmetrised): the input's edges and weights (12 bytes
/// each) beside the CSR being filled and its counts per vertex, or the CSR beside the
/// CSC being transposed (its counts per vertex too).
pub fn load_bytes(vertices: u64, input: u64, edges: u64) -> u64 {
    let per_vertex = vertices + 1;
    let building = (input.saturating_mul(12))
        .saturating_add(8 * per_vertex)
        .saturating_add(edges.saturating_mul(8));
    building.max(graph_bytes(vertices, edges).saturating_add(4 * per_vertex))
}

/// Host bytes per edge of a SNAP edge list while it is read: the ids as written (16), its
/// weights (4), the ids sorted to relabel them (16), the relabelled edges (8).
pub const SNAP_READ_BYTES: u64 = 44;

/// `bytes` as a person reads them: `17.2 GB`, `512 MB`.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "kB", "MB", "GB", "TB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit < UNITS.len() - 1 {
        value /= 1000.0;
        unit += 1;
    }
    match unit {
        0 => format!("{bytes} bytes"),
        _ => format!("{value:.1} {}", UNITS[unit]),
    }
}

/// The budget set (`--max-memory`); 0: none.
static BUDGET: AtomicU64 = AtomicU64::new(0);
/// What the host had available when first asked.
static AVAILABLE: OnceLock<u64> = OnceLock::new();

/// Set the memory wsim may plan to use (`--max-memory`, at least 1 byte).
pub fn set_budget(bytes: u64) {
    BUDGET.store(bytes.max(1), Ordering::Relaxed);
}

/// The memory wsim may plan to use: the budget set, else [`available`] when the process
/// first asked.
pub fn budget() -> u64 {
    match BUDGET.load(Ordering::Relaxed) {
        0 => *AVAILABLE.get_or_init(available),
        set => set,
    }
}

/// What the host lets this process allocate now: the least of the memory Linux reports
/// available (`MemAvailable`), the address-space limit (`ulimit -v`) and the cgroup's
/// limit less its use; unbounded where none can be read.
pub fn available() -> u64 {
    let read = |path: &str| std::fs::read_to_string(path).unwrap_or_default();
    let meminfo = read("/proc/meminfo");
    let available = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|rest| rest.trim().strip_suffix("kB"))
        .and_then(|kib| kib.trim().parse::<u64>().ok())
        .map(|kib| kib * 1024);
    // "Max address space   SOFT   HARD   bytes": the soft limit, a number or "unlimited".
    let limits = read("/proc/self/limits");
    let address_space = limits
        .lines()
        .find_map(|l| l.strip_prefix("Max address space"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|soft| soft.parse::<u64>().ok());
    let cgroup = read("/sys/fs/cgroup/memory.max")
        .trim()
        .parse::<u64>()
        .ok()
        .map(|max| {
            let used = read("/sys/fs/cgroup/memory.current")
                .trim()
                .parse()
                .unwrap_or(0);
            max.saturating_sub(used)
        });
    [available, address_space, cgroup]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(u64::MAX)
}

/// `SIZE` as bytes: a whole number with an optional `k`, `M`, `G` or `T` (powers of 1024,
/// as `ulimit` and Slurm count), e.g. `4G`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (digits, shift) = match text.char_indices().last() {
        Some((at, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return Err(format!("`{text}`: a size is a number with k, M, G or T")),
            };
            (&text[..at], shift)
        }
        _ => (text, 0),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("`{text}`: a size is a whole number with k, M, G or T, e.g. 4G"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}`: more than 2^64 bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_ulimit_and_slurm_write_them() {
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("512m"), Ok(512 << 20));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("4X").is_err());
        assert!(parse_size("G").is_err());
        assert!(parse_size("99999999999T").is_err());
        assert_eq!(human(17_180_000_000), "17.2 GB");
        assert_eq!(human(999), "999 bytes");
    }

    #[test]
    fn a_load_peaks_at_the_larger_of_its_two_stages() {
        // R-MAT 19 measured 142 MB peak (graph info); the estimate may only be above.
        let (v, e) = (1 << 19, 16 << 19);
        let estimate = load_bytes(v, e, e);
        assert!((142_000_000..180_000_000).contains(&estimate), "{estimate}");
        // gen:uniform:v=2^28,e=1 took 3.1 GB: 12 bytes a vertex.
        assert!(load_bytes(1 << 28, 1, 1) >= 12 << 28);
    }
}
