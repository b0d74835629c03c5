//! Inputs whose headers or parameters claim more than is there, or more than the ceilings
//! (`Limits`): each fails before allocating for the claim, naming the file or spec and the
//! line, and memory grows with the data present.

use std::io::Write;

use wsim_graph::{ErrorKind, Graph, GraphError, Limits, LoadOptions};

fn load_bytes(name: &str, bytes: &[u8], options: &LoadOptions) -> Result<Graph, GraphError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    Graph::load(&path, options)
}

fn with_limits(max_vertices: u32, max_edges: u32) -> LoadOptions {
    LoadOptions {
        limits: Limits {
            max_vertices,
            max_edges,
            ..Limits::default()
        },
        ..LoadOptions::default()
    }
}

/// The error, its message, and the line it names.
fn failure(result: Result<Graph, GraphError>) -> (GraphError, String) {
    match result {
        Ok(g) => panic!(
            "loaded {} vertices, {} edges",
            g.num_vertices(),
            g.num_edges()
        ),
        Err(e) => {
            let text = e.to_string();
            (e, text)
        }
    }
}

#[test]
fn a_small_matrix_market_file_declaring_a_billion_rows_fails_at_its_size_line() {
    let text = "%%MatrixMarket matrix coordinate pattern general\n1000000000 1000000000 3\n1 2\n2 3\n3 1\n";
    assert!(text.len() < 100);
    let (e, msg) = failure(load_bytes(
        "big.mtx",
        text.as_bytes(),
        &LoadOptions::default(),
    ));
    assert!(matches!(e.kind, ErrorKind::TooLarge(_)), "{msg}");
    assert_eq!(e.line, Some(2), "{msg}");
    assert!(
        msg.contains("big.mtx: line 2: the size line `1000000000 1000000000 3`: 1000000000 vertices exceed the ceiling of 16777216 (--max-vertices)"),
        "{msg}"
    );
    // Entries beyond the ceiling, too, before any is read.
    let text = "%%MatrixMarket matrix coordinate pattern general\n3 3 4000000000\n1 2\n";
    let (e, msg) = failure(load_bytes(
        "many.mtx",
        text.as_bytes(),
        &LoadOptions::default(),
    ));
    assert_eq!(e.line, Some(2), "{msg}");
    assert!(msg.contains("4000000000 edges exceed the ceiling"), "{msg}");
    // Within the ceilings, a claim the data does not back is an error at the end.
    let text = "%%MatrixMarket matrix coordinate pattern general\n3 3 1000000\n1 2\n";
    let (e, msg) = failure(load_bytes(
        "short.mtx",
        text.as_bytes(),
        &LoadOptions::default(),
    ));
    assert!(matches!(e.kind, ErrorKind::Range(_)), "{msg}");
    assert!(msg.contains("after 1 of the 1000000 entries"), "{msg}");
}

#[test]
fn a_wsim_header_beyond_the_ceiling_fails_at_its_line() {
    let text = "# comment\n# wsim-graph vertices=4000000000 edges=1\n0 1\n";
    let (e, msg) = failure(load_bytes(
        "big.txt",
        text.as_bytes(),
        &LoadOptions::default(),
    ));
    assert!(matches!(e.kind, ErrorKind::TooLarge(_)), "{msg}");
    assert_eq!(e.line, Some(2), "{msg}");
    assert!(
        msg.contains("the wsim-graph header: 4000000000 vertices exceed"),
        "{msg}"
    );
    // The ceiling is the option's.
    let text = "# wsim-graph vertices=1000\n0 1\n";
    let (e, _) = failure(load_bytes("g.txt", text.as_bytes(), &with_limits(999, 10)));
    assert_eq!(e.line, Some(1));
    assert!(load_bytes("g.txt", text.as_bytes(), &with_limits(1000, 10)).is_ok());
}

#[test]
fn edges_beyond_the_ceiling_fail_at_the_first_one_too_many() {
    let text = "0 1\n1 2\n2 3\n3 4\n";
    let (e, msg) = failure(load_bytes("g.txt", text.as_bytes(), &with_limits(100, 3)));
    assert_eq!(e.line, Some(4), "{msg}");
    assert!(
        msg.contains("exceed the ceiling of 3 (--max-edges)"),
        "{msg}"
    );
    assert!(load_bytes("g.txt", text.as_bytes(), &with_limits(100, 4)).is_ok());
    // A symmetric Matrix Market file doubles its entries.
    let text = "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 1\n";
    let (e, msg) = failure(load_bytes("s.mtx", text.as_bytes(), &with_limits(100, 3)));
    assert!(matches!(e.kind, ErrorKind::TooLarge(_)), "{msg}");
    // Symmetrising doubles the edges after loading.
    let options = LoadOptions {
        symmetrize: true,
        ..with_limits(100, 5)
    };
    let (_, msg) = failure(load_bytes("g.txt", b"0 1\n1 2\n2 3\n", &options));
    assert!(msg.contains("6 edges exceed the ceiling of 5"), "{msg}");
}

#[test]
fn files_and_gzip_content_are_bounded_by_the_edge_ceiling() {
    let limits = Limits {
        max_vertices: 10,
        max_edges: 10,
        ..Limits::default()
    };
    let max = limits.max_input_bytes() as usize;
    let options = with_limits(10, 10);
    // Comments only, one byte too many: refused before parsing.
    let mut text = vec![b'#'; max];
    text.push(b'\n');
    let (e, msg) = failure(load_bytes("c.txt", &text, &options));
    assert!(matches!(e.kind, ErrorKind::TooLarge(_)), "{msg}");
    assert!(msg.contains("the file has more than"), "{msg}");
    // A gzip bomb: 1000 times smaller compressed, refused after max + 1 bytes.
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(&vec![b'\n'; 4 * max]).unwrap();
    let bomb = enc.finish().unwrap();
    assert!(bomb.len() < max / 100, "{}", bomb.len());
    let (_, msg) = failure(load_bytes("bomb.txt.gz", &bomb, &options));
    assert!(msg.contains("gzip: the content has more than"), "{msg}");
}

#[test]
fn generator_parameters_beyond_the_ceilings_are_refused_before_generating() {
    for (spec, expected) in [
        (
            "gen:rmat:scale=31",
            "key `scale`: 2147483648 vertices exceed",
        ),
        (
            "gen:rmat:scale=20,ef=100",
            "keys `ef` x 2^`scale`: 104857600 edges exceed",
        ),
        (
            "gen:uniform:v=4000000000",
            "key `v`: 4000000000 vertices exceed",
        ),
        (
            "gen:uniform:v=10,e=4000000000",
            "key `e`: 4000000000 edges exceed",
        ),
        (
            "gen:powerlaw:v=100000000,e=10",
            "key `v`: 100000000 vertices exceed",
        ),
        (
            "gen:grid:w=65536,h=65536",
            "keys `w` x `h`: 4294967296 vertices exceed",
        ),
        (
            "gen:grid:w=4096,h=4096",
            "keys `w`, `h`: 67092480 edges exceed",
        ),
    ] {
        let (e, msg) = failure(Graph::from_spec(spec, &LoadOptions::default()));
        assert!(matches!(e.kind, ErrorKind::TooLarge(_)), "{spec}: {msg}");
        assert!(msg.starts_with(&format!("{spec}: ")), "{msg}");
        assert!(msg.contains(expected), "{spec}: {msg}");
    }
}

/// With the ceilings raised to the most 32 bits allow, what cannot fit in memory is still
/// refused before anything is allocated, with the bytes it would take: each of these asked
/// for 3 to 16 GB and aborted ("memory allocation failed").
#[test]
fn raised_ceilings_still_refuse_what_memory_cannot_hold() {
    let options = LoadOptions {
        limits: Limits {
            max_vertices: u32::MAX,
            max_edges: u32::MAX,
            max_bytes: 1 << 30,
        },
        ..LoadOptions::default()
    };
    let refused = |what: &str, result: Result<Graph, GraphError>| {
        let (e, msg) = failure(result);
        assert!(matches!(e.kind, ErrorKind::TooLarge(_)), "{what}: {msg}");
        assert!(
            msg.contains("of host memory, more than the 1.1 GB wsim may use"),
            "{what}: {msg}"
        );
    };
    let text = "%%MatrixMarket matrix coordinate pattern general\n4000000000 4000000000 1\n1 2\n";
    assert!(text.len() < 80);
    let result = load_bytes("declared.mtx", text.as_bytes(), &options);
    let (_, msg) = failure(load_bytes("declared.mtx", text.as_bytes(), &options));
    assert!(msg.contains("line 2: the size line"), "{msg}");
    refused("declared.mtx", result);
    for spec in [
        "gen:uniform:v=4294967295,e=1",
        "gen:uniform:v=268435456,e=1",
        "gen:rmat:scale=31,ef=1",
        "gen:grid:w=20000,h=20000",
        "gen:powerlaw:v=268435456,e=1",
    ] {
        refused(spec, Graph::from_spec(spec, &options));
    }
    // What fits is loaded.
    let g = Graph::from_spec("gen:uniform:v=1000,e=1000", &options).unwrap();
    assert_eq!(g.num_vertices(), 1000);
}
