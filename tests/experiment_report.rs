//! `wsim experiment report`: a paper file and a tree of experiment tables (the quick
//! profile run, the full one not) into the Markdown page, its figures copied beside it;
//! the same page again from the same tables; errors that name the claim.

use std::path::Path;
use std::process::{Command, Output};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// An experiment file (only its name and plots matter to a report), the quick profile's
/// table and plot, and a paper file whose claims (`claims`, TOML) read them.
fn tree(dir: &Path, claims: &str) {
    write(
        &dir.join("exp/tiny.toml"),
        "name = 'tiny'\n[[programs]]\nfiles = ['pr_*.elf']\n\
         [[plots]]\nname = 'speedup'\nkind = 'speedup'\nx = 'graph'\nseries = 'schedule'\n\
         baseline = 'VM'\n",
    );
    write(
        &dir.join("results/tiny/quick/tiny.csv"),
        "experiment,run,program,graph,schedule,profile,wsim_version,verified,verdict,cycles\n\
         tiny,0,pr_vm,g1,VM,quick,0.1.0 (abc),yes,ok,400\n\
         tiny,1,pr_sw,g1,SparseWeaver,quick,0.1.0 (abc),yes,ok,100\n\
         tiny,2,pr_vm,g2,VM,quick,0.1.0 (abc),yes,ok,900\n\
         tiny,3,pr_sw,g2,SparseWeaver,quick,0.1.0 (abc),-,ok,100\n",
    );
    write(
        &dir.join("results/tiny/quick/speedup.svg"),
        "<svg xmlns='http://www.w3.org/2000/svg'/>\n",
    );
    write(
        &dir.join("exp/paper.toml"),
        &format!(
            "title = 'A tiny paper, reproduced'\nintroduction = 'What this page is.'\n\
             [[sections]]\ntitle = 'Figure 1'\nexperiment = 'tiny'\nfigures = ['speedup']\n\
             {claims}\n\
             [[closing]]\ntitle = 'How to regenerate'\ntext = 'Run the experiments.'\n"
        ),
    );
}

const CLAIMS: &str = r#"
[[sections.claims]]
id = "overall"
text = "SparseWeaver over VM"
lines = "10, 12"
paper = 2.5
reason = "smaller graphs | fewer cores"
compute = "geomean_speedup"
baseline = { schedule = "VM" }
subject = { schedule = "SparseWeaver" }
pair_by = ["graph"]

[[sections.claims]]
id = "every-graph"
text = "SparseWeaver beats VM on every graph"
lines = 14
paper = "beats VM everywhere"
reason = "as the paper says"
compute = "range"
baseline = { schedule = "VM" }
subject = { schedule = "SparseWeaver" }
pair_by = ["graph"]
expect = "above 1"

[[sections.claims]]
id = "vm-g2"
text = "VM's cycles on g2"
lines = 15
paper = 1000
reason = "a smaller machine"
compute = "value"
where = { schedule = "VM", graph = "g2" }

[[sections.claims]]
id = "area"
text = "Area: +2.96% ALMs"
lines = "Table 4.4"
paper = "+2.96%"
reason = "wsim has no area model"
"#;

fn report(dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wsim"))
        .current_dir(dir)
        .args([
            "experiment",
            "report",
            "exp/paper.toml",
            "--results",
            "results",
            "-o",
            "docs/RESULTS.md",
            "--figures",
            "docs/figures",
        ])
        .output()
        .expect("wsim runs")
}

/// The report of `dir`'s tree, which must succeed: its page.
fn page(dir: &Path) -> String {
    let out = report(dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(dir.join("docs/RESULTS.md")).unwrap()
}

#[test]
fn a_report_sets_wsims_values_beside_the_papers() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path(), CLAIMS);
    let page = page(dir.path());
    let has = |text: &str| assert!(page.contains(text), "no `{text}` in:\n{page}");
    has("# A tiny paper, reproduced\n");
    has("Do not edit it by hand");
    has(
        "`wsim experiment report exp/paper.toml --results results -o docs/RESULTS.md \
         --figures docs/figures`",
    );
    has("| tiny | `results/tiny/quick/tiny.csv`: 4 rows, wsim 0.1.0 (abc) | not run |");
    has("| claim | lines | paper | wsim quick | wsim full | wsim/paper | reason |");
    // sqrt(400/100 * 900/100) = 6; 6 / 2.5 = 2.4, from quick since full did not run.
    has(
        "| SparseWeaver over VM (`overall`) | 10, 12 | 2.50x | 6.00x | not run | 2.40 (quick) \
         | smaller graphs \\| fewer cores |",
    );
    has(
        "| SparseWeaver beats VM on every graph (`every-graph`) | 14 | beats VM everywhere \
         | 4.00x-9.00x | not run | holds (quick) | as the paper says |",
    );
    has("| VM's cycles on g2 (`vm-g2`) | 15 | 1,000 | 900 | not run | 0.90 (quick) |");
    has(
        "| Area: +2.96% ALMs (`area`) | Table 4.4 | +2.96% | not measured | not measured | — \
         | wsim has no area model |",
    );
    has("![speedup (tiny, quick)](figures/tiny/quick/speedup.svg)");
    has("*speedup: experiment tiny, profile quick.*");
    has("What this page is.");
    has("\n## How to regenerate\n\nRun the experiments.\n");
    assert_eq!(
        std::fs::read(dir.path().join("docs/figures/tiny/quick/speedup.svg")).unwrap(),
        std::fs::read(dir.path().join("results/tiny/quick/speedup.svg")).unwrap()
    );
    // The same tables give the same page.
    assert!(report(dir.path()).status.success());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("docs/RESULTS.md")).unwrap(),
        page
    );
}

fn error(claims: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path(), claims);
    let out = report(dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(!dir.path().join("docs/RESULTS.md").exists());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn errors_name_the_claim_and_what_is_wrong() {
    for (id, keys, message) in [
        (
            "x",
            "experiment = 'nosuch'",
            "claim `x`: unknown experiment `nosuch` (the experiments in exp: tiny)",
        ),
        (
            "y",
            "where = { colour = 'red' }",
            "claim `y` (quick): results/tiny/quick/tiny.csv has no column colour",
        ),
        (
            "z",
            "where = { schedule = 'VM' }",
            "claim `z` (quick): 2 rows match where = {schedule=VM}",
        ),
    ] {
        let e = error(&format!(
            "[[sections.claims]]\nid = '{id}'\ntext = 't'\nlines = 1\npaper = 1\n\
             reason = 'r'\ncompute = 'value'\n{keys}\n"
        ));
        assert!(e.contains(message), "{e}");
    }
    let e = error("[[sections.claims]]\nid = 'w'\ntext = 't'\n");
    assert!(e.contains("missing field `lines`"), "{e}");
}

#[test]
fn a_profile_run_for_part_of_its_experiment_shows_the_rest_as_not_run() {
    let dir = tempfile::tempdir().unwrap();
    tree(
        dir.path(),
        "[[sections.claims]]\nid = 'g1'\ntext = 'on g1'\nlines = 1\npaper = 4\nreason = 'r'\n\
         compute = 'ratio'\nwhere = { graph = 'g1' }\nbaseline = { schedule = 'VM' }\n\
         subject = { schedule = 'SparseWeaver' }\n\
         [[sections.claims]]\nid = 'g2'\ntext = 'on g2'\nlines = 2\npaper = 9\nreason = 'r'\n\
         compute = 'ratio'\nwhere = { graph = 'g2' }\nbaseline = { schedule = 'VM' }\n\
         subject = { schedule = 'SparseWeaver' }\n",
    );
    // The full profile ran g2 only.
    write(
        &dir.path().join("results/tiny/full/tiny.csv"),
        "experiment,run,program,graph,schedule,profile,wsim_version,verified,verdict,cycles\n\
         tiny,2,pr_vm,g2,VM,full,0.1.0 (abc),yes,ok,1800\n\
         tiny,3,pr_sw,g2,SparseWeaver,full,0.1.0 (abc),yes,ok,300\n",
    );
    let full_figure = "<svg xmlns='http://www.w3.org/2000/svg'><title>g2</title></svg>\n";
    write(
        &dir.path().join("results/tiny/full/speedup.svg"),
        full_figure,
    );
    let page = page(dir.path());
    // Both figures, the full one first: the quick one still shows the graphs full lacks.
    let (full, quick) = (
        page.find("![speedup (tiny, full)](figures/tiny/full/speedup.svg)"),
        page.find("![speedup (tiny, quick)](figures/tiny/quick/speedup.svg)"),
    );
    assert!(full.is_some() && quick.is_some() && full < quick, "{page}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("docs/figures/tiny/full/speedup.svg")).unwrap(),
        full_figure
    );
    assert!(
        page.contains("| on g1 (`g1`) | 1 | 4.00x | 4.00x | not run | 1.00 (quick) |"),
        "{page}"
    );
    assert!(
        page.contains("| on g2 (`g2`) | 2 | 9.00x | 9.00x | 6.00x | 0.67 |"),
        "{page}"
    );
    // A claim no table has rows for is a typo, not a partial run.
    let e = error(
        "[[sections.claims]]\nid = 'g3'\ntext = 't'\nlines = 1\npaper = 1\nreason = 'r'\n\
         compute = 'ratio'\nwhere = { graph = 'g3' }\nbaseline = { schedule = 'VM' }\n\
         subject = { schedule = 'SparseWeaver' }\n",
    );
    assert!(e.contains("claim `g3` (quick): no row of"), "{e}");
}

/// A readings file: the default; EM-search by replace; a write-back L2 and the sockets
/// layout, which run; a pipelined EGHW for EGHW programs only.
const READINGS: &str = r#"
default = "plain"
[[readings]]
name = "plain"
lines = "1"
justification = "as written"
[[readings]]
name = "em-search"
lines = "2"
justification = "searchVID"
replace = { schedule = { EM = "EM-search" } }
[[readings]]
name = "write-back"
lines = "-"
justification = "not stated"
set = ["memory.l2.write_policy=write-back"]
[[readings]]
name = "eghw-pipelined"
lines = "3"
justification = "adding pipelines"
set = ["weaver.eghw_reads=pipelined"]
programs = ["*_eghw_*"]
[[readings]]
name = "sockets"
lines = "4"
justification = "two sockets"
set = ["gpu.cores_per_socket=3"]
"#;

/// A paper over an experiment run under readings: the quick profile ran every reading
/// but `sockets`, medium the default alone.
fn readings_tree(dir: &Path) {
    write(
        &dir.join("exp/tiny.toml"),
        "name = 'tiny'\nprofile = 'quick'\n[readings]\nfile = 'readings.toml'\n\
         run = '${readings}'\n[[programs]]\nfiles = ['pr_*.elf']\n\
         [profiles.quick]\nreadings = 'all'\n[profiles.medium]\nreadings = ['plain']\n",
    );
    write(&dir.join("exp/readings.toml"), READINGS);
    let head = "experiment,profile,reading,run,program,graph,schedule,verified,verdict,cycles\n";
    let mut quick = head.to_string();
    // (program, schedule, cycles on g1 and g2) under the default, then under write-back.
    let rows = [
        ("pr_vm", "VM", [400, 900], [300, 600]),
        ("pr_em", "EM", [200, 200], [100, 100]),
        ("pr_emsearch", "EM-search", [800, 800], [400, 400]),
        ("pr_sw", "SparseWeaver", [100, 100], [100, 200]),
    ];
    let mut run = 0;
    for (reading, k) in [("plain", 0), ("write-back", 1)] {
        for (program, schedule, plain, wb) in rows {
            for (g, graph) in ["g1", "g2"].iter().enumerate() {
                let cycles = if k == 0 { plain[g] } else { wb[g] };
                quick.push_str(&format!(
                    "tiny,quick,{reading},{run},{program},{graph},{schedule},yes,ok,{cycles}\n"
                ));
                run += 1;
            }
        }
    }
    write(&dir.join("results/tiny/quick/tiny.csv"), &quick);
    write(
        &dir.join("results/tiny/medium/tiny.csv"),
        &format!(
            "{head}tiny,medium,plain,0,pr_vm,g1,VM,yes,ok,1000\n\
             tiny,medium,plain,1,pr_sw,g1,SparseWeaver,yes,ok,200\n\
             tiny,medium,plain,2,pr_em,g1,EM,yes,ok,400\n"
        ),
    );
    write(
        &dir.join("exp/paper.toml"),
        r#"title = "Readings"
profiles = ["quick", "medium", "full"]
readings = "readings.toml"
[[sections]]
title = "Figure 1"
experiment = "tiny"
[[sections.claims]]
id = "sw-over-vm"
text = "SparseWeaver over VM"
lines = 1
paper = 2.5
reason = "r"
compute = "geomean_speedup"
baseline = { schedule = "VM" }
subject = { schedule = "SparseWeaver" }
pair_by = ["graph"]
[[sections.claims]]
id = "sw-over-em"
text = "SparseWeaver over EM"
lines = 2
paper = 2.6
reason = "r"
compute = "geomean_speedup"
baseline = { schedule = "EM" }
subject = { schedule = "SparseWeaver" }
pair_by = ["graph"]
expect = "above 1"
[headline]
title = "Headline claims"
claims = ["sw-over-em"]
"#,
    );
}

#[test]
fn each_claim_shows_the_default_readings_value_and_its_band_across_readings() {
    let dir = tempfile::tempdir().unwrap();
    readings_tree(dir.path());
    let page = page(dir.path());
    let has = |text: &str| assert!(page.contains(text), "no `{text}` in:\n{page}");
    has("| experiment | quick | medium | full |");
    has("readings plain, em-search, write-back, eghw-pipelined, sockets |");
    has("| `em-search` | 2 | claims on EM read EM-search's rows | searchVID |");
    has("| claim | lines | paper | wsim quick | wsim medium | wsim full | band across readings | wsim/paper | reason |");
    // Default: sqrt(4 * 9) = 6; write-back: sqrt(3 * 3) = 3; em-search (no EM in the
    // claim) and eghw-pipelined (no EGHW program here) are not readings of this claim.
    // Sockets has no rows though every program is in its scope: not run. Medium: 5 on g1.
    has(
        "| SparseWeaver over VM (`sw-over-vm`) | 1 | 2.50x | 6.00x | 5.00x | not run | quick: \
         3.00x (write-back) to 6.00x (plain), 2 readings; not run: sockets | 2.00 (medium) | r |",
    );
    // Over EM: default 2; em-search takes EM-search's rows, sqrt(8 * 8) = 8; write-back:
    // sqrt(1 * 0.5). Medium: 400 / 200.
    has(
        "| SparseWeaver over EM (`sw-over-em`) | 2 | 2.60x | 2.00x | 2.00x | not run | quick: \
         0.71x (write-back) to 8.00x (em-search), 3 readings, holds in 2; not run: sockets | \
         0.77, holds (medium) | r |",
    );
    has("## Headline claims");
    has(
        "| SparseWeaver over EM (`sw-over-em`) | 2.60x | quick | 2.00x | 0.71x (write-back) | \
         8.00x (em-search) | sockets | medium: 2.00x |",
    );
}

/// A table measured before the default reading changed holds only another reading's rows:
/// its claims are not run under the default there, not a typo that fails the report.
#[test]
fn a_table_of_another_readings_rows_is_not_run_under_the_default() {
    let dir = tempfile::tempdir().unwrap();
    readings_tree(dir.path());
    for profile in ["quick", "medium"] {
        let table = dir.path().join(format!("results/tiny/{profile}/tiny.csv"));
        let text = std::fs::read_to_string(&table).unwrap();
        let kept: Vec<&str> = (text.lines())
            .filter(|l| !l.contains(",quick,plain,"))
            .collect();
        write(
            &table,
            &(kept
                .join("\n")
                .replace(",medium,plain,", ",medium,write-back,")
                + "\n"),
        );
    }
    let exp = dir.path().join("exp/tiny.toml");
    let text = std::fs::read_to_string(&exp).unwrap();
    write(
        &exp,
        &text.replace("readings = ['plain']", "readings = ['plain', 'write-back']"),
    );
    let page = page(dir.path());
    let row = (page.lines())
        .find(|l| l.contains("(`sw-over-vm`)"))
        .unwrap_or_else(|| panic!("no row in:\n{page}"));
    assert!(row.contains("| not run | not run | not run |"), "{row}");
}

#[test]
fn a_band_of_the_default_alone_is_not_shown() {
    let dir = tempfile::tempdir().unwrap();
    readings_tree(dir.path());
    // Medium names em-search too: no reading of the claim over VM, and for the claim over
    // EM one whose EM-search rows the medium table lacks.
    let exp = dir.path().join("exp/tiny.toml");
    let text = std::fs::read_to_string(&exp).unwrap();
    write(
        &exp,
        &text.replace("readings = ['plain']", "readings = ['plain', 'em-search']"),
    );
    let page = page(dir.path());
    let row = |id: &str| {
        let row = page.lines().find(|l| l.contains(&format!("(`{id}`)")));
        row.unwrap_or_else(|| panic!("no row of {id} in:\n{page}"))
            .to_string()
    };
    let over_vm = row("sw-over-vm");
    assert!(
        over_vm.contains("quick: 3.00x (write-back) to 6.00x (plain)"),
        "{over_vm}"
    );
    assert!(!over_vm.contains("medium:"), "{over_vm}");
    let over_em = row("sw-over-em");
    assert!(
        over_em.contains("medium: 2.00x (plain), holds in 1; not run: em-search"),
        "{over_em}"
    );
    // The headline's other profiles: a value, and a band only where one was measured.
    let headline = page.split("## Headline claims").nth(1).unwrap();
    assert!(
        headline.contains("| sockets | medium: 2.00x |"),
        "{headline}"
    );
}

#[test]
fn a_reading_the_paper_cannot_place_is_an_error_that_names_it() {
    let dir = tempfile::tempdir().unwrap();
    readings_tree(dir.path());
    // The experiment runs readings the paper file does not name.
    let paper = dir.path().join("exp/paper.toml");
    let text = std::fs::read_to_string(&paper).unwrap();
    write(&paper, &text.replace("readings = \"readings.toml\"\n", ""));
    let out = report(dir.path());
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.contains("experiment `tiny` (quick) runs readings (plain, em-search, write-back, eghw-pipelined, sockets), and the paper file names no readings file"),
        "{e}"
    );
    // A headline naming no claim, a profile named twice.
    write(
        &paper,
        &text
            .replace("claims = [\"sw-over-em\"]", "claims = [\"sw-over-wm\"]")
            .replace("\"medium\", \"full\"]", "\"medium\", \"quick\"]"),
    );
    let e = String::from_utf8_lossy(&report(dir.path()).stderr).into_owned();
    assert!(
        e.contains("headline.claims[0]: no claim `sw-over-wm`"),
        "{e}"
    );
    assert!(e.contains("profiles[2]: `quick` is named twice"), "{e}");
}

/// With its defaults, a report goes beside the results, never over the project's page.
#[test]
fn a_report_by_default_leaves_the_projects_docs_alone() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path(), CLAIMS);
    write(&dir.path().join("docs/RESULTS.md"), "the project's page\n");
    let out = Command::new(env!("CARGO_BIN_EXE_wsim"))
        .current_dir(dir.path())
        .args(["experiment", "report", "exp/paper.toml"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("docs/RESULTS.md")).unwrap(),
        "the project's page\n"
    );
    let page = std::fs::read_to_string(dir.path().join("results/RESULTS.md")).unwrap();
    assert!(
        page.contains("![speedup (tiny, quick)](figures/tiny/quick/speedup.svg)"),
        "{page}"
    );
    assert!(dir
        .path()
        .join("results/figures/tiny/quick/speedup.svg")
        .is_file());
}

/// An experiment file without profiles writes its one table to `results/NAME/NAME.csv`:
/// the report reads it (in every profile's column), copies its figure and the figure's
/// PDF once; a tree with no table at all is an error, not a page of "not run".
#[test]
fn an_experiment_without_profiles_is_read_from_its_one_table() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path(), CLAIMS);
    let results = dir.path().join("results/tiny");
    std::fs::rename(results.join("quick/tiny.csv"), results.join("tiny.csv")).unwrap();
    std::fs::rename(
        results.join("quick/speedup.svg"),
        results.join("speedup.svg"),
    )
    .unwrap();
    write(&results.join("speedup.pdf"), "%PDF-1.7\n");
    std::fs::remove_dir(results.join("quick")).unwrap();
    let page = page(dir.path());
    assert!(
        page.contains("| SparseWeaver over VM (`overall`) | 10, 12 | 2.50x | 6.00x | 6.00x |"),
        "{page}"
    );
    assert!(
        page.contains("![speedup (tiny)](../docs/figures/tiny/speedup.svg)")
            || page.contains("![speedup (tiny)](figures/tiny/speedup.svg)"),
        "{page}"
    );
    assert!(dir.path().join("docs/figures/tiny/speedup.pdf").exists());

    std::fs::remove_file(results.join("tiny.csv")).unwrap();
    let out = report(dir.path());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no experiment's table was found (looked for results/tiny/tiny.csv)"),
        "{err}"
    );
}

#[test]
fn a_figures_claims_stand_under_each_reading_with_the_reading_that_reproduces_them() {
    let dir = tempfile::tempdir().unwrap();
    readings_tree(dir.path());
    // A reading of two choices together, run: its rows are write-back's cycles.
    let readings = dir.path().join("exp/readings.toml");
    let text = std::fs::read_to_string(&readings).unwrap();
    write(
        &readings,
        &format!(
            "{text}[[readings]]\nname = \"both\"\nlines = \"-\"\njustification = \"j\"\n\
             combines = [\"em-search\", \"write-back\"]\n"
        ),
    );
    let table = dir.path().join("results/tiny/quick/tiny.csv");
    let rows = std::fs::read_to_string(&table).unwrap();
    let both: String = (rows.lines())
        .filter(|l| l.contains(",write-back,"))
        .map(|l| format!("{}\n", l.replace(",write-back,", ",both,")))
        .collect();
    write(&table, &format!("{rows}{both}"));
    let paper = dir.path().join("exp/paper.toml");
    let text = std::fs::read_to_string(&paper).unwrap();
    write(&paper, &format!("reproduced = \"within 25%\"\n{text}"));
    let page = page(dir.path());
    let has = |text: &str| assert!(page.contains(text), "no `{text}` in:\n{page}");
    has("| `both` | - | `em-search` and `write-back` together; `memory.l2.write_policy=write-back`; claims on EM read EM-search's rows | j |");
    has("| claim | paper | `plain` | `em-search` | `write-back` | `eghw-pipelined` | `sockets` | `both` |");
    // Over VM: 6 under the default and the readings that change none of its runs
    // (italic), 3 under write-back and both, within 25% of 2.5; sockets did not run.
    has("| `sw-over-vm` | 2.50x | 6.00x ✗ | *6.00x* ✗ | 3.00x ✓ | *6.00x* ✗ | not run | 3.00x ✓ |");
    // Over EM, above 1: both reads EM-search's write-back rows, sqrt(4 * 2).
    has("| `sw-over-em` | 2.60x | 2.00x ✓ | 8.00x ✓ | 0.71x ✗ | *2.00x* ✓ | not run | 2.83x ✓ |");
    has("| reproduced | | 1 of 2 | 1 of 2 | 1 of 2 | 1 of 2 | 0 of 2 (2 not run) | 2 of 2 |");
    has(
        "**Verdict** (`quick`): `both` reproduces all 2 claims (`eghw-pipelined` changes none \
         of these runs: the default's values).",
    );
    // Without `both`: no reading reproduces both, and the leaders say what they miss.
    write(&table, &rows);
    let readings_text = std::fs::read_to_string(&readings).unwrap();
    write(
        &readings,
        &readings_text[..readings_text.find("[[readings]]\nname = \"both\"").unwrap()],
    );
    let page = self::page(dir.path());
    assert!(
        page.contains(
            "**Verdict** (`quick`): no single reading reproduces the 2 claims together; the \
             most, 1, under `plain` (misses `sw-over-vm`); `em-search` (misses `sw-over-vm`); \
             `write-back` (misses `sw-over-em`) (`eghw-pipelined` changes none of these runs: \
             the default's values)."
        ),
        "{page}"
    );
}

#[test]
fn a_reasons_numbers_are_computed_from_the_rows_they_name() {
    let dir = tempfile::tempdir().unwrap();
    let claims = CLAIMS.replace(
        "reason = \"smaller graphs | fewer cores\"",
        "reason = \"g1 {g1}, g2 {g2}; VM's cycles {vm} (line 12)\"\n\
         numbers.g1 = { profile = \"quick\", where = { graph = \"g1\" } }\n\
         numbers.g2 = { profile = \"quick\", where = { graph = \"g2\" }, format = \"x1\" }\n\
         numbers.vm = { profile = \"quick\", compute = \"bounds\", metric = \"cycles\", where = { schedule = \"VM\" }, format = \"int\" }",
    );
    tree(dir.path(), &claims);
    let page = page(dir.path());
    assert!(
        page.contains("| g1 4.00x, g2 9.0x; VM's cycles 400-900 (line 12) |"),
        "{page}"
    );
    // A number written out, a placeholder without its number, a number no text uses.
    let e = error(&CLAIMS.replace("smaller graphs | fewer cores", "3.9x smaller graphs"));
    assert!(
        e.contains("claim `overall`: reason: the text states 3.9 without a number to compute it"),
        "{e}"
    );
    let e = error(&CLAIMS.replace("smaller graphs | fewer cores", "{nothing}"));
    assert!(
        e.contains("claim `overall`: reason: {nothing}: no number `nothing`"),
        "{e}"
    );
    let e = error(&claims.replace("; VM's cycles {vm}", ""));
    assert!(
        e.contains("claim `overall`: number `vm`: the reason does not use it"),
        "{e}"
    );
    // Rows that are not there: an error that names the claim and the number.
    let e = error(&claims.replace("graph = \"g2\" }, format", "graph = \"g3\" }, format"));
    assert!(
        e.contains("claim `overall`: reason: number `g2` (quick): no row of results/tiny/quick/tiny.csv matches where = {graph=g3}"),
        "{e}"
    );
}

#[test]
fn a_rankings_reasons_numbers_are_computed_from_the_rows_they_name() {
    let dir = tempfile::tempdir().unwrap();
    let ranking = r#"
[[sections.rankings]]
title = "Both sides"
items = "schedule"
by = "graph"
left = { name = "A", experiment = "tiny", profile = "quick", metric = "cycles" }
right = { name = "B", experiment = "tiny", profile = "quick", metric = "cycles" }
[sections.rankings.reasons]
g2 = "VM's cycles {vm}, {speedup} SparseWeaver's (line 12)"
[sections.rankings.numbers]
vm = { profile = "quick", compute = "value", metric = "cycles", where = { graph = "g2", schedule = "VM" }, format = "int" }
speedup = { profile = "quick", compute = "ratio", where = { graph = "g2" }, baseline = { schedule = "VM" }, subject = { schedule = "SparseWeaver" } }
"#;
    let claims = format!("{CLAIMS}{ranking}");
    tree(dir.path(), &claims);
    let page = page(dir.path());
    assert!(
        page.contains(
            "| g2 | SparseWeaver < VM | SparseWeaver < VM | 1.00 | yes | VM's cycles 900, 9.00x \
             SparseWeaver's (line 12) |"
        ),
        "{page}"
    );
    // A number written out, and a number no reason uses, are errors naming the ranking.
    let e = error(&claims.replace("VM's cycles {vm}", "VM's cycles 900"));
    assert!(
        e.contains(
            "section `Figure 1`: rankings[0]: reasons.g2: the text states 900 without a number"
        ),
        "{e}"
    );
    let e = error(&claims.replace("VM's cycles {vm}, ", ""));
    assert!(
        e.contains("section `Figure 1`: rankings[0]: number `vm`: no reason uses it"),
        "{e}"
    );
    // Rows that are not there: an error naming the reason and the number.
    let e = error(&claims.replace("graph = \"g2\", schedule", "graph = \"g3\", schedule"));
    assert!(
        e.contains("section `Figure 1`: rankings[0]: reasons.g2: number `vm` (quick): no row"),
        "{e}"
    );
}

#[test]
fn per_graph_gives_each_graph_and_every_subset_of_the_papers_count() {
    let dir = tempfile::tempdir().unwrap();
    let claims = format!("[sections.per_graph]\nprofile = \"quick\"\nsubsets = 1\n{CLAIMS}");
    tree(dir.path(), &claims);
    let page = page(dir.path());
    assert!(
        page.contains(
            "| claim | paper | all 2 | 1 of 2: least (left out) | greatest (left out) | g1 | g2 |"
        ),
        "{page}"
    );
    // g1 4, g2 9: all sqrt(36) = 6; the subsets of one graph leave the other out.
    assert!(
        page.contains("| `overall` | 2.50x | 6.00x | 4.00x (g2) | 9.00x (g1) | 4.00x | 9.00x |"),
        "{page}"
    );
}

#[test]
fn a_profile_with_another_readings_rows_alone_shows_their_band_and_no_default() {
    let dir = tempfile::tempdir().unwrap();
    readings_tree(dir.path());
    // Medium's table measured on another machine: its rows are write-back's.
    let exp = dir.path().join("exp/tiny.toml");
    let text = std::fs::read_to_string(&exp).unwrap();
    write(
        &exp,
        &text.replace("readings = ['plain']", "readings = ['plain', 'write-back']"),
    );
    let medium = dir.path().join("results/tiny/medium/tiny.csv");
    let rows = std::fs::read_to_string(&medium).unwrap();
    write(&medium, &rows.replace(",plain,", ",write-back,"));
    let page = page(dir.path());
    let row = (page.lines())
        .find(|l| l.contains("(`sw-over-vm`)"))
        .unwrap_or_else(|| panic!("no row of sw-over-vm in:\n{page}"));
    // Quick's default beside medium's band; wsim/paper from the last default that ran.
    assert!(
        row.contains(
            "| 2.50x | 6.00x | not run | not run | quick: 3.00x (write-back) to 6.00x (plain), 2 \
             readings; not run: sockets; medium: 5.00x (write-back) | 2.40 (quick) |"
        ),
        "{row}"
    );
}

/// A value computed from a sampled run's estimate is marked `~`, with a line under its
/// table saying so, and so is the caption of a figure drawn from a table with sampled
/// runs; a value from runs in full detail is not (a table without the `sampled` column,
/// every committed one, gives the page it always did).
#[test]
fn values_from_sampled_runs_are_marked() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path(), CLAIMS);
    write(
        &dir.path().join("results/tiny/quick/tiny.csv"),
        "experiment,run,program,graph,schedule,profile,wsim_version,verified,verdict,cycles,sampled,cycles_low,cycles_high\n\
         tiny,0,pr_vm,g1,VM,quick,0.1.0 (abc),yes,ok,400,,,\n\
         tiny,1,pr_sw,g1,SparseWeaver,quick,0.1.0 (abc),yes,ok,100,,,\n\
         tiny,2,pr_vm,g2,VM,quick,0.1.0 (abc),yes,ok,900,yes,890,910\n\
         tiny,3,pr_sw,g2,SparseWeaver,quick,0.1.0 (abc),-,ok,100,,,\n",
    );
    let page = page(dir.path());
    let has = |text: &str| assert!(page.contains(text), "no `{text}` in:\n{page}");
    has("| SparseWeaver over VM (`overall`) | 10, 12 | 2.50x | ~6.00x | not run |");
    has("| VM's cycles on g2 (`vm-g2`) | 15 | 1,000 | ~900 | not run |");
    has("\n~ computed from sampled runs' estimates of the cycles");
    has(
        "*speedup: experiment tiny, profile quick; ~ its table holds sampled runs, whose \
         cycles are estimates.*",
    );
    let line = |id: &str| page.lines().find(|l| l.contains(id)).unwrap().to_string();
    assert!(!line("(`area`)").contains('~'), "{page}");

    // A claim on g1's rows alone reads no sampled run: not marked.
    let sampled_table =
        std::fs::read_to_string(dir.path().join("results/tiny/quick/tiny.csv")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    tree(
        dir.path(),
        &CLAIMS.replace(
            "id = \"overall\"",
            "id = \"overall\"\nwhere = { graph = \"g1\" }",
        ),
    );
    write(
        &dir.path().join("results/tiny/quick/tiny.csv"),
        &sampled_table,
    );
    let page = self::page(dir.path());
    assert!(
        page.contains("| SparseWeaver over VM (`overall`) | 10, 12 | 2.50x | 4.00x |"),
        "{page}"
    );
    assert!(page.contains("| ~900 |"), "{page}");
}
