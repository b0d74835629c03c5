//! How wsim opens what it reads and writes what it makes, the one place for both
//! (docs/ARCHITECTURE.md, "Files"):
//!
//! - An input is a regular file, opened without blocking and read up to a size its kind
//!   allows ([`open_input`], [`read_input`]): a FIFO is refused at once rather than
//!   waited on forever, `/dev/zero` rather than read until memory runs out.
//! - An output is written whole ([`write_whole`], [`write_with`]): into a new temporary
//!   file beside it (created exclusively, so a file or symlink planted under that name is
//!   never written through), synced, then renamed over the output (a symlink there is
//!   replaced, not followed). On any failure the temporary file is removed and the old
//!   output stays as it was. An output that exists and is not a regular file (a pipe,
//!   `/dev/null`, a terminal) is a stream, written in place.
//! - Before the work, an output is checked writable ([`check_output`]) and not one of the
//!   command's inputs ([`check_not_input`]), so hours of work are not lost at the end and
//!   no input is overwritten.
//! - Writers that re-read, merge and rewrite a file hold a lock of its directory
//!   ([`lock_directory_of`]).
//!
//! Errors are `io::Error`s whose text names the file, but [`open_input`]'s (as std's).

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// `e` with `what` and the file's name before it: "cannot read x.toml: ...".
fn named(e: io::Error, what: &str, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("cannot {what} {}: {e}", path.display()))
}

/// What a file that is not a regular one is, for messages.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// Open `path` to read it: a regular file, else an error saying what it is. It is opened
/// without blocking, so a FIFO with no writer is refused at once. Like `File::open`'s,
/// its errors do not name the file (the caller does).
pub fn open_input(path: &Path) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {}, not a regular file", kind_of(&meta)),
        ));
    }
    // O_NONBLOCK means nothing to a regular file's reads.
    Ok(file)
}

/// The bytes of the regular file `path`, which may have at most `max` (its kind's cap,
/// named `what` in the error, e.g. "a configuration").
pub fn read_input(path: &Path, max: u64, what: &str) -> io::Result<Vec<u8>> {
    let file = open_input(path).map_err(|e| named(e, "read", path))?;
    let too_big = |size: u64| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "cannot read {}: {size} bytes, more than the {max} {what} may have",
                path.display()
            ),
        )
    };
    let len = file.metadata().map_err(|e| named(e, "read", path))?.len();
    if len > max {
        return Err(too_big(len));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    // The file may grow while it is read: never past the cap (then its size is "max + 1").
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| named(e, "read", path))?;
    if bytes.len() as u64 > max {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// [`read_input`] as UTF-8 text.
pub fn read_text(path: &Path, max: u64, what: &str) -> io::Result<String> {
    String::from_utf8(read_input(path, max, what)?).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "cannot read {}: not UTF-8 text (byte {})",
                path.display(),
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// The directory `path` is in (`.` for a bare file name).
fn directory(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Whether `path` exists and is something other than a regular file or a directory
/// (followed through symlinks: `/dev/stdout`): a stream, written in place.
fn is_stream(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// A new temporary file beside `path`, named after it, created exclusively with the
/// permissions a new file gets (the umask applies).
fn temporary(path: &Path) -> io::Result<tempfile::NamedTempFile> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(directory(path))
        .map_err(|e| named(without_temporary_name(e), "write", path))
}

/// tempfile's error names its temporary file, which the user never asked for: the
/// operating system's error alone (the caller names the output).
fn without_temporary_name(e: io::Error) -> io::Error {
    let os = e
        .get_ref()
        .and_then(|inner| inner.source())
        .and_then(|source| source.downcast_ref::<io::Error>())
        .and_then(io::Error::raw_os_error);
    os.map_or(e, io::Error::from_raw_os_error)
}

/// Write `path` whole with what `fill` writes (buffered): into a temporary file beside
/// it, synced, renamed over it; the temporary file is removed when anything fails. A
/// directory at `path` is an error; a stream there is written in place.
pub fn write_with<E: From<io::Error>>(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), E> {
    if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
        return Err(is_a_directory(path).into());
    }
    if is_stream(path) {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| named(e, "write", path))?;
        let mut out = BufWriter::new(Named { inner: file, path });
        fill(&mut out)?;
        return Ok(out.flush()?);
    }
    let temporary = temporary(path)?;
    let mut out = BufWriter::new(Named {
        inner: temporary.as_file(),
        path,
    });
    fill(&mut out)?;
    out.flush()?;
    drop(out);
    temporary
        .as_file()
        .sync_all()
        .map_err(|e| named(e, "write", path))?;
    temporary
        .persist(path)
        .map_err(|e| named(e.error, "write", path))?;
    // The rename's own durability; a file system that cannot sync a directory still
    // has the whole file under its name.
    let _ = File::open(directory(path)).and_then(|d| d.sync_all());
    Ok(())
}

/// A writer whose errors name the output (whatever file it goes through).
struct Named<'a, W> {
    inner: W,
    path: &'a Path,
}

impl<W: Write> Write for Named<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        (self.inner.write(bytes)).map_err(|e| named(e, "write", self.path))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(|e| named(e, "write", self.path))
    }
}

/// Write `bytes` to `path` whole ([`write_with`]).
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, |out| out.write_all(bytes))
}

fn is_a_directory(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("cannot write {}: it is a directory", path.display()),
    )
}

/// Whether `path` can be written, checked before the work that makes it: not a
/// directory, and a file can be created in its directory (it exists and is writable).
/// Creates nothing that stays.
pub fn check_output(path: &Path) -> io::Result<()> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(is_a_directory(path)),
        Ok(m) if !m.is_file() => Ok(()),
        _ => temporary(path).map(drop),
    }
}

/// An error when `output` is the same file as one of `inputs` (by device and inode,
/// whatever the paths): writing it would destroy that input.
pub fn check_not_input(output: &Path, inputs: &[&Path]) -> io::Result<()> {
    let Ok(out) = std::fs::metadata(output) else {
        return Ok(());
    };
    if !out.is_file() {
        return Ok(());
    }
    for input in inputs {
        if std::fs::metadata(input).is_ok_and(|i| i.dev() == out.dev() && i.ino() == out.ino()) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "cannot write {}: it is the input {}; give another output",
                    output.display(),
                    input.display()
                ),
            ));
        }
    }
    Ok(())
}

/// An exclusive lock of the directory `path` is in, held until the returned handle drops:
/// whoever reads, merges and rewrites a file there holds it for the whole round.
pub fn lock_directory_of(path: &Path) -> io::Result<File> {
    let dir = directory(path);
    let handle = File::open(dir).map_err(|e| named(e, "open the directory", dir))?;
    handle
        .lock()
        .map_err(|e| named(e, "lock the directory", dir))?;
    Ok(handle)
}

/// A name beside `path` that no file has yet, tagged: `table.csv` gives `table.TAG.csv`,
/// then `table.TAG-2.csv`, ...
pub fn free_name(path: &Path, tag: &str) -> PathBuf {
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
        .find(|candidate| std::fs::symlink_metadata(candidate).is_err())
        .expect("an unbounded range has a free name")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `dir`.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn special_files_are_refused_at_once_naming_what_they_are() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // No writer: a blocking open would wait forever.
        let e = read_input(&fifo, 1 << 20, "a configuration").unwrap_err();
        assert!(
            e.to_string().ends_with("it is a FIFO, not a regular file"),
            "{e}"
        );
        let e = read_input(Path::new("/dev/zero"), 1 << 20, "x").unwrap_err();
        assert!(e.to_string().contains("a character device"), "{e}");
        let e = read_input(dir.path(), 1 << 20, "x").unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
    }

    #[test]
    fn an_input_over_its_cap_is_refused_naming_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("c.toml");
        std::fs::write(&file, [b'#'; 100]).unwrap();
        let e = read_input(&file, 99, "a configuration").unwrap_err();
        assert!(
            e.to_string()
                .ends_with("100 bytes, more than the 99 a configuration may have"),
            "{e}"
        );
        assert_eq!(read_input(&file, 100, "x").unwrap().len(), 100);
    }

    #[test]
    fn a_symlink_at_the_output_is_replaced_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        std::fs::write(&outside, "keep").unwrap();
        let out = dir.path().join("speed.svg");
        std::os::unix::fs::symlink(&outside, &out).unwrap();
        write_whole(&out, b"figure").unwrap();
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "figure");
        assert!(!std::fs::symlink_metadata(&out).unwrap().is_symlink());
        assert_eq!(names(dir.path()), ["outside", "speed.svg"]);
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("e.csv");
        std::fs::write(&out, "old").unwrap();
        let e = write_with(&out, |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("the disk is full"))
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "the disk is full");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
        assert_eq!(names(dir.path()), ["e.csv"]);
    }

    #[test]
    fn a_stream_output_is_written_in_place() {
        write_whole(Path::new("/dev/null"), b"x").unwrap();
        let e = write_whole(Path::new("/dev/full"), b"x").unwrap_err();
        assert!(e.to_string().starts_with("cannot write /dev/full: "), "{e}");
        assert!(Path::new("/dev/null").exists());
    }

    #[test]
    fn outputs_are_checked_before_the_work() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_output(&dir.path().join("r.json")).is_ok());
        let e = check_output(&dir.path().join("no/such/r.json")).unwrap_err();
        assert!(e.to_string().starts_with("cannot write "), "{e}");
        let e = check_output(dir.path()).unwrap_err();
        assert!(e.to_string().ends_with("it is a directory"), "{e}");
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
    }

    #[test]
    fn an_output_that_is_an_input_is_refused_by_any_path() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("p.elf");
        std::fs::write(&input, "elf").unwrap();
        let other = dir.path().join("link");
        std::fs::hard_link(&input, &other).unwrap();
        let e = check_not_input(&other, &[Path::new("x"), &input]).unwrap_err();
        assert!(e.to_string().contains("it is the input "), "{e}");
        assert!(check_not_input(&dir.path().join("new.json"), &[&input]).is_ok());
    }
}
