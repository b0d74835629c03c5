//! Errors of loading, generating and writing graphs, with the file and line they concern.

use std::fmt;
use std::path::{Path, PathBuf};

/// What went wrong.
#[derive(Debug, thiserror::Error)]
pub enum ErrorKind {
    #[error("{0}")]
    Io(std::io::Error),
    /// The input is neither a SNAP edge list nor a Matrix Market file.
    #[error("unknown format: {0}")]
    UnknownFormat(String),
    /// A truncated, non-numeric or malformed line or header.
    #[error("{0}")]
    Syntax(String),
    /// A vertex id outside the declared or given vertex count, or an entry count that
    /// disagrees with a Matrix Market header.
    #[error("{0}")]
    Range(String),
    #[error("the graph has no edges")]
    Empty,
    /// A bad `gen:` specification (names the kind or key).
    #[error("{0}")]
    Spec(String),
    /// More vertices or edges than 32-bit ids can name.
    #[error("{0}")]
    TooLarge(String),
    /// An invalid argument to a constructor or an option.
    #[error("{0}")]
    Invalid(String),
}

/// A graph error: the kind, and where (the file or generator spec, and a 1-based line).
#[derive(Debug, thiserror::Error)]
#[error("{}{kind}", Location(.file.as_deref(), *.line))]
pub struct GraphError {
    pub kind: ErrorKind,
    /// The input file, or the `gen:` spec, the error is about.
    pub file: Option<PathBuf>,
    pub line: Option<u64>,
}

struct Location<'a>(Option<&'a Path>, Option<u64>);

impl fmt::Display for Location<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0, self.1) {
            (Some(file), Some(line)) => write!(f, "{}: line {line}: ", file.display()),
            (Some(file), None) => write!(f, "{}: ", file.display()),
            (None, Some(line)) => write!(f, "line {line}: "),
            (None, None) => Ok(()),
        }
    }
}

impl GraphError {
    pub fn new(kind: ErrorKind) -> Self {
        GraphError {
            kind,
            file: None,
            line: None,
        }
    }

    /// Name the file, unless a more specific one is already named.
    pub(crate) fn in_file(mut self, file: impl Into<PathBuf>) -> Self {
        self.file.get_or_insert_with(|| file.into());
        self
    }

    pub(crate) fn at_line(mut self, line: u64) -> Self {
        self.line.get_or_insert(line);
        self
    }
}

impl From<ErrorKind> for GraphError {
    fn from(kind: ErrorKind) -> Self {
        GraphError::new(kind)
    }
}

pub(crate) fn syntax(line: u64, msg: impl Into<String>) -> GraphError {
    GraphError::new(ErrorKind::Syntax(msg.into())).at_line(line)
}

pub(crate) fn range(line: u64, msg: impl Into<String>) -> GraphError {
    GraphError::new(ErrorKind::Range(msg.into())).at_line(line)
}
