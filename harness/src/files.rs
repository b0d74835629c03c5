//! Files several processes may write at once (array tasks, two shells): a lock of the
//! directory they live in, and whole-file writes (a temporary file beside the target,
//! renamed over it), so a reader or a killed writer never sees half a file.

use std::path::Path;

use anyhow::Context;

/// The directory `path` is in (`.` for a bare file name).
fn directory(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// An exclusive lock of the directory `path` is in, held until the returned handle drops:
/// whoever reads, merges and rewrites a file there holds it for the whole round.
pub fn lock_directory_of(path: &Path) -> anyhow::Result<std::fs::File> {
    let dir = directory(path);
    let handle = std::fs::File::open(dir)
        .with_context(|| format!("cannot open the directory {}", dir.display()))?;
    handle
        .lock()
        .with_context(|| format!("cannot lock the directory {}", dir.display()))?;
    Ok(handle)
}

/// Write `bytes` to `path` whole: into a temporary file of this process beside it, then
/// renamed over it.
pub fn write_whole(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let temporary = directory(path).join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&temporary, bytes)
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(&temporary, path).with_context(|| format!("cannot write {}", path.display()))
}

/// A name beside `path` that no file has yet, tagged: `table.csv` gives `table.TAG.csv`,
/// then `table.TAG-2.csv`, ...
pub fn free_name(path: &Path, tag: &str) -> std::path::PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let extension = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()));
    let extension = extension.unwrap_or_default();
    (1..)
        .map(|n| match n {
            1 => format!("{stem}.{tag}{extension}"),
            n => format!("{stem}.{tag}-{n}{extension}"),
        })
        .map(|name| directory(path).join(name))
        .find(|candidate| !candidate.exists())
        .expect("an unbounded range has a free name")
}
