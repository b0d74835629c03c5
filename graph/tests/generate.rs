//! Generators: sizes, shapes, determinism (pinned hashes), and spec errors.

use wsim_graph::{ErrorKind, Graph, LoadOptions};

fn gen(spec: &str) -> Graph {
    Graph::from_spec(spec, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// FNV-1a over the CSR arrays: pins a generator's exact output.
fn fingerprint(g: &Graph) -> u64 {
    let csr = g.csr();
    let words = csr.offsets.iter().chain(&csr.targets).chain(&csr.weights);
    words.fold(0xcbf2_9ce4_8422_2325, |h, w| {
        w.to_le_bytes()
            .iter()
            .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
    })
}

fn spec_error(spec: &str) -> String {
    let e = Graph::from_spec(spec, &LoadOptions::default()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Spec(_)), "{spec}: {e}");
    let msg = e.to_string();
    assert!(msg.starts_with(spec), "names the spec: {msg}");
    msg
}

#[test]
fn outputs_are_pinned() {
    // Changing a generator, the PRNG or the weight hash changes these on purpose only.
    let pinned = [
        ("gen:rmat:scale=10,ef=8", 0x6606_9cd6_915f_ef2cu64),
        // Every quadrant's bounds, one of them empty.
        (
            "gen:rmat:scale=9,ef=4,a=0.45,b=0,c=0.3",
            0x61c9_6058_3cfe_7fae,
        ),
        (
            "gen:rmat:scale=9,ef=4,a=0.1,b=0.2,c=0.3",
            0x83c4_d9d1_79ec_0e73,
        ),
        ("gen:powerlaw:v=2000,e=40000", 0xb8dd_ab0a_769f_64f2),
        // Chung-Lu stand-ins: hubs' partners, then draws from the alias table.
        ("gen:table43:graph=UK,scale=0.005", 0xc4db_c975_c017_4a3b),
        ("gen:table43:graph=BH,scale=0.05", 0x9834_c867_7811_ac3e),
        ("gen:uniform:v=500,e=3000,seed=9", 0x9c02_96c5_cc6b_3b42),
        ("gen:grid:w=20,h=10,seed=3", 0x2379_bd04_f321_7995),
    ];
    let got: Vec<(&str, u64)> = pinned
        .iter()
        .map(|&(s, _)| (s, fingerprint(&gen(s))))
        .collect();
    assert_eq!(got, pinned);
}

#[test]
fn rmat_sizes_and_skew() {
    let g = gen("gen:rmat:scale=12,ef=4");
    assert_eq!((g.num_vertices(), g.num_edges()), (4096, 4 * 4096));
    let s = g.stats();
    assert!(s.out_degree.skewness > 5.0, "{:?}", s.out_degree);
    // a = 0.57 favours low ids: vertex 0 is the hub.
    assert_eq!(g.csr().degree(0), s.out_degree.max);
    let flat = gen("gen:rmat:scale=12,ef=4,a=0.25,b=0.25,c=0.25").stats();
    assert!(flat.out_degree.skewness < 1.0, "{:?}", flat.out_degree);
}

#[test]
fn powerlaw_has_exactly_e_edges_simple_and_decreasing_degrees() {
    for v in [1000, 4000] {
        let g = gen(&format!("gen:powerlaw:v={v},e=30000"));
        let s = g.stats();
        assert_eq!((s.vertices, s.edges), (v, 30_000));
        assert_eq!((s.self_loops, s.duplicate_edges), (0, 0));
        assert!(s.out_degree.max < v);
        let degrees: Vec<u32> = (0..v).map(|u| g.csr().degree(u)).collect();
        assert!(
            degrees.windows(2).all(|p| p[0] >= p[1]),
            "out-degree falls with the id"
        );
    }
    // Fixed edges, more vertices: more skew (the dissertation's study).
    let skew = |v: u32| {
        gen(&format!("gen:powerlaw:v={v},e=40000"))
            .stats()
            .out_degree
            .skewness
    };
    assert!(skew(1000) < skew(4000) && skew(4000) < skew(16000));
    // A complete graph is the limit.
    let full = gen("gen:powerlaw:v=30,e=870").stats();
    assert_eq!((full.out_degree.min, full.in_degree.min), (29, 29));
}

#[test]
fn uniform_and_grid_shapes() {
    let u = gen("gen:uniform:v=300,e=5000");
    assert_eq!((u.num_vertices(), u.num_edges()), (300, 5000));
    assert!(u.stats().out_degree.skewness.abs() < 1.0);
    let g = gen("gen:grid:w=5,h=3");
    // 2 (h (w - 1) + w (h - 1)) edges; corners have 2 neighbours, the middle 4.
    assert_eq!((g.num_vertices(), g.num_edges()), (15, 2 * (3 * 4 + 5 * 2)));
    assert_eq!(g.csr(), g.csc());
    assert_eq!(&g.csr().targets[g.csr().range(0)], [1, 5]);
    assert_eq!(&g.csr().targets[g.csr().range(7)], [2, 6, 8, 12]);
    assert_eq!(g.stats().out_degree.max, 4);
}

#[test]
fn seeds_are_deterministic_and_default_to_the_load_seed() {
    assert_eq!(
        gen("gen:uniform:v=100,e=400"),
        gen("gen:uniform:v=100,e=400,seed=1")
    );
    assert_ne!(
        gen("gen:uniform:v=100,e=400,seed=2"),
        gen("gen:uniform:v=100,e=400")
    );
    let seeded = LoadOptions {
        seed: 2,
        ..LoadOptions::default()
    };
    let g = Graph::from_spec("gen:uniform:v=100,e=400", &seeded).unwrap();
    assert_eq!(g, gen("gen:uniform:v=100,e=400,seed=2"));
    // The grid's seed only changes weights.
    let (a, b) = (
        gen("gen:grid:w=8,h=8,seed=1"),
        gen("gen:grid:w=8,h=8,seed=2"),
    );
    assert_eq!(a.csr().targets, b.csr().targets);
    assert_ne!(a.csr().weights, b.csr().weights);
}

#[test]
fn bad_specs_name_the_problem() {
    assert!(spec_error("gen:rmat:scal=3")
        .contains("unknown key `scal` for gen:rmat (did you mean `scale`?)"));
    assert!(spec_error("gen:powerlaw:alhpa=2").contains("did you mean `alpha`?"));
    assert!(spec_error("gen:rmatt:scale=3")
        .contains("unknown generator `rmatt` (did you mean `rmat`?)"));
    assert!(spec_error("gen:rmat:scale=x").contains("key `scale`: `x` is not"));
    assert!(spec_error("gen:rmat:scale=40").contains("key `scale`: 40 is outside 1..=31"));
    assert!(spec_error("gen:rmat:scale").contains("`scale` is not key=value"));
    assert!(spec_error("gen:rmat:scale=3,scale=4").contains("`scale` is given twice"));
    assert!(spec_error("gen:rmat:a=0.9,b=0.2").contains("`a`, `b`, `c`"));
    assert!(spec_error("gen:powerlaw:alpha=1").contains("key `alpha`"));
    assert!(spec_error("gen:powerlaw:v=10,e=91").contains("keys `v`, `e`"));
    assert!(spec_error("gen:uniform:v=0").contains("key `v`: 0 is outside"));
    assert!(spec_error("gen:grid:h=1.5").contains("key `h`"));
    let e = Graph::from_spec("gen:rmat:scale=31,ef=2", &LoadOptions::default()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::TooLarge(_)), "{e}");
    let e = Graph::from_spec("gen:grid:w=1,h=1", &LoadOptions::default()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Empty), "{e}");
}

#[test]
fn spaces_and_trailing_commas_are_tolerated() {
    assert_eq!(gen("gen:grid: w = 4 , h=3,"), gen("gen:grid:w=4,h=3"));
    assert_eq!(gen("gen:grid"), gen("gen:grid:w=64,h=64"));
}

#[test]
fn permute_renames_vertices_and_keeps_the_edges() {
    for kind in [
        "rmat:scale=10,ef=8",
        "powerlaw:v=2000,e=40000",
        "grid:w=20,h=10",
    ] {
        let plain = gen(&format!("gen:{kind}"));
        let renamed = gen(&format!("gen:{kind},permute=1"));
        assert_eq!(plain.num_vertices(), renamed.num_vertices(), "{kind}");
        // What a renaming keeps: the edge, self-loop and duplicate counts and the
        // multiset of (out-degree, in-degree) pairs.
        let profile = |g: &Graph| {
            let s = g.stats();
            let mut pairs: Vec<(u32, u32)> = (0..g.num_vertices())
                .map(|u| (g.csr().degree(u), g.csc().degree(u)))
                .collect();
            pairs.sort_unstable();
            (s.edges, s.self_loops, s.duplicate_edges, pairs)
        };
        assert_eq!(profile(&plain), profile(&renamed), "{kind}");
        assert_ne!(
            fingerprint(&plain),
            fingerprint(&renamed),
            "{kind}: ids moved"
        );
    }
    // R-MAT's hub is no longer vertex 0; the permutation is deterministic from the seed.
    let g = gen("gen:rmat:scale=12,ef=4,permute=1");
    assert!(g.csr().degree(0) < g.stats().out_degree.max);
    assert_eq!(
        fingerprint(&g),
        fingerprint(&gen("gen:rmat:scale=12,ef=4,permute=1"))
    );
    assert!(spec_error("gen:rmat:permute=2").contains("permute"));
}
