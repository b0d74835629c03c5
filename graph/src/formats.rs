//! Reading SNAP edge lists, Matrix Market files and binary CSR files (gzip detected by its
//! magic bytes, binary CSR by its own), and writing any of them.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;

use crate::error::{range, syntax, ErrorKind, GraphError};
use crate::{binary, memory, Graph, Limits, RawGraph, VertexIds};

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Extensions of other graph formats, refused rather than misread as edge lists (a METIS
/// header line `n m` would otherwise pass for an edge).
const FOREIGN_EXTENSIONS: [&str; 7] = ["graph", "metis", "gr", "dimacs", "gml", "graphml", "dot"];

/// The first line of a SNAP list written by `write`: the vertex count, so that isolated
/// vertices survive and ids are not relabelled.
const WSIM_HEADER: &str = "# wsim-graph vertices=";

/// The extension that names the format, below any `.gz`, lower case.
fn format_extension(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    match name.rsplit_once('.') {
        Some((_, ext)) => ext.to_string(),
        None => String::new(),
    }
}

/// The edges of a file; `seed` seeds generated weights. Neither the file nor its gzip
/// content may exceed `limits.max_input_bytes()`. The file is parsed as a stream, line by
/// line, so memory holds the graph, never the file's text.
pub(crate) fn read(path: &Path, seed: u64, limits: &Limits) -> Result<RawGraph, GraphError> {
    let io = |e| GraphError::new(ErrorKind::Io(e));
    // A regular file only: a FIFO would block, a device be read without end.
    let file = wsim_files::open_input(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    let mut file = BufReader::new(file);
    let gzip = file.fill_buf().map_err(io)?.starts_with(&GZIP_MAGIC);
    let mut reader: Box<dyn BufRead> = if gzip {
        Box::new(BufReader::new(MultiGzDecoder::new(file)))
    } else {
        Box::new(file)
    };
    // Binary CSR is told by its magic; its header, checked against the ceilings, bounds
    // what is read, so the text formats' bytes-per-edge ceiling does not apply to it.
    let ext = format_extension(path);
    if reader.fill_buf().map_err(io)?.starts_with(&binary::MAGIC) {
        reader.consume(binary::MAGIC.len());
        let mut raw = binary::read(&mut reader, (!gzip).then_some(size), limits)?;
        raw.weight_seed = seed;
        return Ok(raw);
    }
    if ext == "bcsr" {
        return Err(ErrorKind::UnknownFormat(
            "a `.bcsr` file must start with the magic `WSIMBCSR`".into(),
        )
        .into());
    }
    if size > limits.max_input_bytes() {
        return Err(too_big(limits, "the file has"));
    }
    let mut lines = Lines::new(reader, gzip, limits);
    let first = lines.peek()?;
    let mut raw = if first.len() >= 14 && first[..14].eq_ignore_ascii_case(b"%%MatrixMarket") {
        parse_matrix_market(&mut lines, limits)?
    } else {
        if ext == "mtx" || ext == "mm" {
            return Err(syntax(
                1,
                "a Matrix Market file must start with `%%MatrixMarket`",
            ));
        }
        if FOREIGN_EXTENSIONS.contains(&ext.as_str()) {
            return Err(ErrorKind::UnknownFormat(format!(
                "`.{ext}` files are not read; give a SNAP edge list or a Matrix Market file"
            ))
            .into());
        }
        parse_snap(&mut lines, limits)?
    };
    raw.weight_seed = seed;
    Ok(raw)
}

fn too_big(limits: &Limits, what: &str) -> GraphError {
    GraphError::new(ErrorKind::TooLarge(format!(
        "{what} more than {} bytes, the ceiling for --max-edges {} (64 bytes per edge)",
        limits.max_input_bytes(),
        limits.max_edges
    )))
}

/// A file's lines, read one at a time (the line end, LF or CRLF, removed), with their
/// 1-based numbers; the bytes read are bounded by the input ceiling, a line by
/// [`MAX_LINE`].
struct Lines<R> {
    reader: R,
    line: Vec<u8>,
    /// The current line is read but not yet handed out (`peek`).
    held: bool,
    number: u64,
    read: u64,
    gzip: bool,
    limits: Limits,
}

/// The longest line read: far more than any edge, comment or header needs.
const MAX_LINE: u64 = 1 << 20;

impl<R: BufRead> Lines<R> {
    fn new(reader: R, gzip: bool, limits: &Limits) -> Self {
        Lines {
            reader,
            line: Vec::new(),
            held: false,
            number: 0,
            read: 0,
            gzip,
            limits: *limits,
        }
    }

    /// The first line, left to be read again by `next` (empty for an empty file).
    fn peek(&mut self) -> Result<&[u8], GraphError> {
        if !self.held && self.number == 0 && self.fill()? {
            self.held = true;
        }
        Ok(&self.line)
    }

    /// Read the next line into `line`; false at the end of the file.
    fn fill(&mut self) -> Result<bool, GraphError> {
        self.line.clear();
        let io = |e: std::io::Error, gzip: bool| {
            let e = if gzip {
                std::io::Error::new(e.kind(), format!("gzip: {e}"))
            } else {
                e
            };
            GraphError::new(ErrorKind::Io(e))
        };
        let n = (&mut self.reader)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut self.line)
            .map_err(|e| io(e, self.gzip))? as u64;
        if n == 0 {
            return Ok(false);
        }
        self.number += 1;
        self.read += n;
        if self.read > self.limits.max_input_bytes() {
            let what = if self.gzip {
                "gzip: the content has"
            } else {
                "the file has"
            };
            return Err(too_big(&self.limits, what));
        }
        if self.line.last() == Some(&b'\n') {
            self.line.pop();
        } else if n > MAX_LINE {
            return Err(syntax(
                self.number,
                format!("the line is longer than {MAX_LINE} bytes"),
            ));
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        Ok(true)
    }

    /// The next line and its number, or `None` at the end of the file.
    fn next(&mut self) -> Result<Option<(u64, &[u8])>, GraphError> {
        if self.held {
            self.held = false;
        } else if !self.fill()? {
            return Ok(None);
        }
        Ok(Some((self.number, &self.line)))
    }
}

/// Fields separated by any run of spaces, tabs or commas.
fn fields(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|&b| b.is_ascii_whitespace() || b == b',')
        .filter(|f| !f.is_empty())
}

fn is_comment_or_blank(line: &[u8]) -> bool {
    match line.iter().find(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(&b) => b == b'#' || b == b'%',
    }
}

fn parse_u64(field: &[u8]) -> Option<u64> {
    if field.is_empty() {
        return None;
    }
    field.iter().try_fold(0u64, |acc, &b| {
        let digit = b.checked_sub(b'0').filter(|&d| d < 10)?;
        acc.checked_mul(10)?.checked_add(u64::from(digit))
    })
}

/// A file weight: any finite number, as the nearest integer of its magnitude, at least 1
/// and at most `u32::MAX`.
fn parse_weight(field: &[u8]) -> Option<u32> {
    let x: f64 = std::str::from_utf8(field).ok()?.parse().ok()?;
    x.is_finite()
        .then(|| x.abs().round().clamp(1.0, f64::from(u32::MAX)) as u32)
}

/// A field for an error message, shortened.
fn quote(field: &[u8]) -> String {
    let text = String::from_utf8_lossy(field);
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("`{}...`", &text[..cut]),
        None => format!("`{text}`"),
    }
}

fn id_field(line: u64, field: Option<&[u8]>, what: &str) -> Result<u64, GraphError> {
    let field = field.ok_or_else(|| syntax(line, format!("truncated line: no {what}")))?;
    parse_u64(field).ok_or_else(|| {
        let why = if field.iter().all(u8::is_ascii_digit) {
            "is too large"
        } else {
            "is not a non-negative integer"
        };
        syntax(line, format!("{what} {} {why}", quote(field)))
    })
}

fn weight_field(line: u64, field: &[u8]) -> Result<u32, GraphError> {
    parse_weight(field).ok_or_else(|| {
        syntax(
            line,
            format!("weight {} is not a finite number", quote(field)),
        )
    })
}

/// A SNAP edge list: `source target [weight]` per line, `#`/`%` comments. Ids are
/// relabelled to their rank among the distinct ids (the identity when they are already
/// `0..V`), unless the wsim header gives the vertex count.
fn parse_snap(lines: &mut Lines<impl BufRead>, limits: &Limits) -> Result<RawGraph, GraphError> {
    let mut declared: Option<u32> = None;
    let mut raw: Vec<(u64, u64)> = Vec::new();
    let mut weights: Vec<u32> = Vec::new();
    let mut weighted: Option<bool> = None;
    while let Some((no, line)) = lines.next()? {
        if is_comment_or_blank(line) {
            if raw.is_empty() && declared.is_none() {
                declared = parse_wsim_header(no, line)?;
                if let Some(n) = declared {
                    let what = "the wsim-graph header";
                    (limits.size(n.into(), 0, what)).map_err(|e| e.at_line(no))?;
                }
            }
            continue;
        }
        let mut f = fields(line);
        let (a, b) = (f.next(), f.next());
        let digits = |f: Option<&[u8]>| f.is_some_and(|f| f.iter().all(u8::is_ascii_digit));
        if weighted.is_none() && !(digits(a) && digits(b)) {
            let text = String::from_utf8_lossy(line);
            return Err(GraphError::new(ErrorKind::UnknownFormat(format!(
                "`{}` is neither an edge `source target [weight]` nor a comment",
                text.chars().take(60).collect::<String>()
            )))
            .at_line(no));
        }
        let src = id_field(no, a, "source id")?;
        let dst = id_field(no, b, "target id")?;
        let w = f.next();
        match (*weighted.get_or_insert(w.is_some()), w) {
            (true, Some(w)) => weights.push(weight_field(no, w)?),
            (true, None) => {
                return Err(syntax(
                    no,
                    "truncated line: no weight, but earlier lines have one",
                ))
            }
            (false, Some(_)) => return Err(syntax(no, "a weight, but earlier lines have none")),
            (false, None) => {}
        }
        if let Some(n) = declared {
            if src.max(dst) >= u64::from(n) {
                return Err(range(
                    no,
                    format!(
                        "vertex {} is beyond the header's {n} vertices",
                        src.max(dst)
                    ),
                ));
            }
        }
        if raw.len() == limits.max_edges as usize {
            limits
                .edges(raw.len() as u64 + 1, "the file")
                .map_err(|e| e.at_line(no))?;
        }
        // Before the edges' space doubles: what reading that many takes.
        if raw.len() == raw.capacity() {
            let bytes = (2 * raw.len() as u64).max(4) * memory::SNAP_READ_BYTES;
            (limits.memory(bytes, "the edges read so far")).map_err(|e| e.at_line(no))?;
        }
        raw.push((src, dst));
    }
    if raw.is_empty() {
        return Err(ErrorKind::Empty.into());
    }
    let (num_vertices, edges, ids) = match declared {
        Some(n) => (
            n,
            raw.iter().map(|&(u, v)| (u as u32, v as u32)).collect(),
            VertexIds::Indices,
        ),
        None => relabel(&raw)?,
    };
    Ok(RawGraph {
        num_vertices,
        edges,
        weights: weighted.unwrap_or(false).then_some(weights),
        weight_seed: 0,
        ids,
    })
}

/// The vertex count of a `# wsim-graph vertices=N ...` comment, if the line is one.
fn parse_wsim_header(no: u64, line: &[u8]) -> Result<Option<u32>, GraphError> {
    let Some(rest) = line.strip_prefix(WSIM_HEADER.as_bytes()) else {
        return Ok(None);
    };
    let count = fields(rest).next().and_then(parse_u64);
    match count.and_then(|n| u32::try_from(n).ok()).filter(|&n| n > 0) {
        Some(n) => Ok(Some(n)),
        None => Err(syntax(
            no,
            "the wsim-graph header needs a vertex count in 1..2^32",
        )),
    }
}

/// Ids mapped to their rank among the distinct ids, so sparse ids become `0..V`
/// deterministically and dense ids keep their values; the ids kept when they differ.
type Relabelled = (u32, Vec<(u32, u32)>, VertexIds);
fn relabel(raw: &[(u64, u64)]) -> Result<Relabelled, GraphError> {
    let mut ids: Vec<u64> = raw.iter().flat_map(|&(u, v)| [u, v]).collect();
    ids.sort_unstable();
    ids.dedup();
    let n = u32::try_from(ids.len()).map_err(|_| {
        ErrorKind::TooLarge(format!(
            "{} distinct vertex ids: more than 32-bit ids can name",
            ids.len()
        ))
    })?;
    let dense = ids.last() == Some(&(u64::from(n) - 1));
    let rank = |id: u64| {
        if dense {
            id as u32
        } else {
            ids.partition_point(|&x| x < id) as u32
        }
    };
    let edges = raw.iter().map(|&(u, v)| (rank(u), rank(v))).collect();
    let ids = if dense {
        VertexIds::Indices
    } else {
        VertexIds::Sparse(ids)
    };
    Ok((n, edges, ids))
}

#[derive(Clone, Copy, PartialEq)]
enum Field {
    Pattern,
    Weighted,
}

#[derive(Clone, Copy, PartialEq)]
enum Symmetry {
    General,
    /// Symmetric or skew-symmetric: each off-diagonal entry stands for both directions.
    Mirrored,
}

fn parse_banner(line: &[u8]) -> Result<(Field, Symmetry), GraphError> {
    let text = String::from_utf8_lossy(line).to_lowercase();
    let words: Vec<&str> = text.split_whitespace().collect();
    let [_, object, format, field, symmetry] = words[..] else {
        return Err(syntax(
            1,
            "the banner must be `%%MatrixMarket matrix coordinate FIELD SYMMETRY`",
        ));
    };
    let unsupported = |what: &str| {
        Err(GraphError::new(ErrorKind::UnknownFormat(format!(
            "Matrix Market {what} is not supported (only `matrix coordinate` with pattern, \
             integer or real values, general or symmetric)"
        )))
        .at_line(1))
    };
    if object != "matrix" {
        return unsupported(&format!("object `{object}`"));
    }
    if format != "coordinate" {
        return unsupported(&format!("format `{format}`"));
    }
    let field = match field {
        "pattern" => Field::Pattern,
        "integer" | "real" | "double" => Field::Weighted,
        other => return unsupported(&format!("field `{other}`")),
    };
    let symmetry = match symmetry {
        "general" => Symmetry::General,
        "symmetric" | "skew-symmetric" => Symmetry::Mirrored,
        other => return unsupported(&format!("symmetry `{other}`")),
    };
    Ok((field, symmetry))
}

/// A Matrix Market coordinate matrix: entry `(i, j)` is the edge `i-1 -> j-1`; vertices
/// are `0..max(rows, cols)`.
fn parse_matrix_market(
    lines: &mut Lines<impl BufRead>,
    limits: &Limits,
) -> Result<RawGraph, GraphError> {
    let (_, banner) = lines.next()?.expect("the banner was peeked");
    let (field, symmetry) = parse_banner(banner)?;
    let mut size: Option<(u64, u64, u64)> = None;
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut weights: Vec<u32> = Vec::new();
    let mut entries = 0u64;
    let mut last_line = 1;
    while let Some((no, line)) = lines.next()? {
        last_line = no;
        if is_comment_or_blank(line) {
            continue;
        }
        let mut f = fields(line);
        let Some((rows, cols, nnz)) = size else {
            let rows = id_field(no, f.next(), "row count")?;
            let cols = id_field(no, f.next(), "column count")?;
            let nnz = id_field(no, f.next(), "entry count")?;
            // The claims are checked before anything is allocated for them; the entries
            // are not reserved ahead, so memory grows with the file, not with its header.
            let what = format!("the size line `{rows} {cols} {nnz}`");
            (limits.size(rows.max(cols), nnz, &what)).map_err(|e| e.at_line(no))?;
            size = Some((rows, cols, nnz));
            continue;
        };
        if entries == nnz {
            return Err(range(
                no,
                format!("more entries than the {nnz} the size line declares"),
            ));
        }
        entries += 1;
        let i = id_field(no, f.next(), "row index")?;
        let j = id_field(no, f.next(), "column index")?;
        for (what, index, bound) in [("row", i, rows), ("column", j, cols)] {
            if index == 0 || index > bound {
                return Err(range(
                    no,
                    format!(
                        "{what} index {index} is outside 1..={bound} declared by the size line"
                    ),
                ));
            }
        }
        let w = match field {
            Field::Pattern => None,
            Field::Weighted => {
                let v = f
                    .next()
                    .ok_or_else(|| syntax(no, "truncated line: no value"))?;
                Some(weight_field(no, v)?)
            }
        };
        let (u, v) = ((i - 1) as u32, (j - 1) as u32);
        let mirrored = symmetry == Symmetry::Mirrored && u != v;
        for (s, d) in [(u, v), (v, u)]
            .into_iter()
            .take(if mirrored { 2 } else { 1 })
        {
            edges.push((s, d));
            weights.extend(w);
        }
    }
    let Some((rows, cols, nnz)) = size else {
        return Err(syntax(last_line + 1, "no size line `rows columns entries`"));
    };
    if entries < nnz {
        return Err(range(
            last_line + 1,
            format!("the file ends after {entries} of the {nnz} entries the size line declares"),
        ));
    }
    if edges.is_empty() {
        return Err(ErrorKind::Empty.into());
    }
    limits.edges(edges.len() as u64, "the mirrored entries")?;
    Ok(RawGraph {
        num_vertices: rows.max(cols) as u32,
        edges,
        weights: (field == Field::Weighted).then_some(weights),
        weight_seed: 0,
        ids: VertexIds::OneBased,
    })
}

/// Write `g` to `path` whole (wsim-files: a failure leaves the old file as it was); the
/// error names the file.
pub(crate) fn write(g: &Graph, path: &Path) -> Result<(), GraphError> {
    let ext = format_extension(path);
    let gz = path.to_string_lossy().to_lowercase().ends_with(".gz");
    wsim_files::write_with(path, |out| {
        let body = |w: &mut dyn Write| match ext.as_str() {
            "bcsr" => binary::write(g, &mut &mut *w),
            "mtx" => emit(g, true, &mut &mut *w),
            _ => emit(g, false, &mut &mut *w),
        };
        if gz {
            let mut w = GzEncoder::new(out, Compression::default());
            body(&mut w)?;
            w.finish().map(drop)
        } else {
            body(out)
        }
    })
    .map_err(|e| GraphError::new(ErrorKind::Io(e)))
}

fn emit(g: &Graph, matrix_market: bool, w: &mut impl Write) -> std::io::Result<()> {
    let (n, e) = (g.num_vertices(), g.num_edges());
    let (base, sep) = if matrix_market {
        writeln!(w, "%%MatrixMarket matrix coordinate integer general")?;
        writeln!(
            w,
            "% written by wsim: entry (i, j, w) is the edge i-1 -> j-1 of weight w"
        )?;
        writeln!(w, "{n} {n} {e}")?;
        (1, ' ')
    } else {
        writeln!(w, "{WSIM_HEADER}{n} edges={e}")?;
        writeln!(w, "# source\ttarget\tweight")?;
        (0, '\t')
    };
    let csr = g.csr();
    for u in 0..n {
        for i in csr.range(u) {
            writeln!(
                w,
                "{}{sep}{}{sep}{}",
                u + base,
                csr.targets[i] + base,
                csr.weights[i]
            )?;
        }
    }
    Ok(())
}
