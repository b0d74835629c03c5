//! An experiment's tidy table: one row per run, in the runs' order, with every field that
//! identifies the run (experiment, profile, program, kernel and arguments, graph, each
//! axis, configuration and its hash, wsim's version) and its results (the registry's,
//! [`Stat::results`]: outcome, cycles (a sampled experiment's with whether they are an
//! estimate and its interval), instructions, IPC, SIMT efficiency, issue slots by
//! reason, hit rates, DRAM, the Weaver unit, cycles per phase), then the verdict, the
//! error and the host's time (the only column that differs between two runs of the same
//! experiment).

use std::collections::{BTreeMap, BTreeSet};

use super::{Experiment, Run};
use crate::run::RunRecord;
use crate::stats::{Cell, Stat};
use crate::table::Table;

/// A GCN run's mean nonzeros per row of X as asked for (the report states the nonzeros
/// drawn, `input_nonzeros`); empty for other runs.
fn input_nnz(run: &Run, record: &RunRecord) -> Cell {
    let gcn = record.workload().is_some_and(|g| g.gcn.is_some());
    let asked = run
        .arguments
        .input_nnz
        .unwrap_or(wsim_graph::gcn::LayerSpec::default().input_nnz);
    if gcn {
        Cell::Count(u64::from(asked))
    } else {
        Cell::Empty
    }
}

/// The registry's results of `experiment`'s table ([`Stat::results`]), with a sampled
/// experiment's [`Stat::SAMPLING`] after `cycles` (an experiment in full detail keeps the
/// columns it always had).
fn results(experiment: &Experiment, phases: &[u32]) -> Vec<Stat> {
    let mut results = Stat::results(phases);
    if experiment.sampling.is_some() {
        let cycles = results
            .iter()
            .position(|s| *s == Stat::Cycles)
            .expect("cycles");
        results.splice(cycles + 1..cycles + 1, Stat::SAMPLING);
    }
    results
}

/// The columns of `experiment`'s table when its runs have `phases`.
pub fn header(experiment: &Experiment, phases: &[u32]) -> Vec<String> {
    let mut header: Vec<String> = ["experiment", "profile", "reading", "run", "program"]
        .map(String::from)
        .to_vec();
    header.extend(Stat::KERNEL.iter().map(|s| s.name().into_owned()));
    header.extend(["input_nnz", "graph", "graph_spec", "graph_options"].map(String::from));
    header.extend(
        experiment
            .axes
            .iter()
            .filter(|a| a.own_column())
            .map(|a| a.name.clone()),
    );
    header.extend(["config", "config_hash", "wsim_version"].map(String::from));
    header.extend(
        results(experiment, phases)
            .iter()
            .map(|s| s.name().into_owned()),
    );
    header.extend(Stat::LAST.iter().map(|s| s.name().into_owned()));
    header
}

/// The table of `runs` of `experiment`, which left `records` (in the runs' order).
pub fn table_of(experiment: &Experiment, runs: &[&Run], records: &[RunRecord]) -> Table {
    let phases: BTreeSet<u32> = (records.iter())
        .filter_map(|r| r.report.as_ref())
        .flat_map(|r| r.phases.keys().copied())
        .collect();
    let phases: Vec<u32> = phases.into_iter().collect();
    let results = results(experiment, &phases);
    let header = header(experiment, &phases);
    let version = crate::version();
    let text = |s: &str| Cell::Text(s.to_string());
    let rows = runs
        .iter()
        .zip(records)
        .map(|(run, record)| {
            let graph = run.graph.map(|g| &experiment.graphs[g]);
            let mut row = vec![
                text(&experiment.name),
                text(experiment.profile.as_deref().unwrap_or_default()),
                text(&run.reading),
                Cell::Count(run.index as u64),
                text(&run.program.name),
            ];
            row.extend(Stat::KERNEL.iter().map(|s| s.read(record)));
            row.push(input_nnz(run, record));
            row.push(text(graph.map_or("", |g| &g.name)));
            row.push(text(graph.map_or("", |g| &g.spec)));
            row.push(Cell::Text(
                graph.map_or(String::new(), |g| g.flags.join(" ")),
            ));
            row.extend(
                (experiment.axes.iter().zip(&run.values))
                    .filter(|(a, _)| a.own_column())
                    .map(|(_, v)| Cell::Written(v.clone())),
            );
            row.push(text(&experiment.config));
            row.push(Cell::Text(run.config.hash()));
            row.push(text(&version));
            row.extend(results.iter().map(|s| s.read(record)));
            row.extend(Stat::LAST.iter().map(|s| s.read(record)));
            row
        })
        .collect();
    Table { header, rows }
}

/// What [`add_earlier_parts`] did with the earlier table's rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EarlierRows {
    /// Rows of runs this part left out, kept.
    pub kept: usize,
    /// Of those, rows whose run the cache holds and that differed from it (edited): the
    /// cache's row is kept.
    pub corrected: usize,
    /// Rows that say this wsim measured them but whose run its cache does not hold, so
    /// nothing backs them: not in the new table.
    pub unbacked: usize,
    /// Rows that name no run of the experiment as it is now (another configuration hash,
    /// program, graph or reading; or a table with no column to tell): not in the new table.
    pub unplaced: usize,
}

/// Add the rows of `earlier` (the table at this part's output, written by earlier parts)
/// that belong to runs this part of `experiment` left out, each under its run's index, in
/// the runs' order. Columns go by name (phases that only one side has are kept); an earlier
/// row of a run this part measured again gives way to the new one, and one of a run the
/// experiment no longer has cannot be placed (counted, so the caller can keep the table).
/// A left-out run that `cached` has a row for (read from the cache) gets that row, whatever
/// the earlier one says; one without, whose row claims this wsim measured it, is not
/// placed: only rows of other wsims' (other caches') are taken on trust.
pub fn add_earlier_parts(
    table: &mut Table,
    experiment: &Experiment,
    earlier: &Table,
    cached: &Table,
) -> EarlierRows {
    let phases: BTreeSet<u32> = (table.header.iter().chain(&earlier.header))
        .filter_map(|h| Stat::parse(h).and_then(Stat::phase))
        .collect();
    let header = header(experiment, &phases.into_iter().collect::<Vec<_>>());
    let ids: Vec<(Vec<String>, usize)> = (experiment.left_out.iter())
        .map(|run| (experiment.row_id(run), run.index))
        .collect();
    let left_out: BTreeMap<&[String], usize> = ids
        .iter()
        .map(|(id, index)| (id.as_slice(), *index))
        .collect();
    // An axis's column has its name (an argument axis's is the argument's, so named).
    // An earlier table without one of these columns has no row this part can place; one
    // without a reading column (written before readings were) has the default reading's
    // rows, which its configuration hash tells apart.
    let id_columns: Vec<usize> = ["program", "graph", "config_hash"]
        .into_iter()
        .chain(experiment.axes.iter().map(|a| a.name.as_str()))
        .map(|name| earlier.column(name))
        .collect::<Option<_>>()
        .unwrap_or_default();
    let reading = earlier.column("reading");
    let default = experiment.readings.first().map_or("", |r| r.name.as_str());
    let run = header
        .iter()
        .position(|h| h == "run")
        .expect("a run column");
    let mut rows: Vec<(usize, Vec<Cell>)> = (table.rows.iter())
        .map(|row| {
            let row = aligned(table, row, &header);
            let index = row[run].number().map_or(usize::MAX, |n| n as usize);
            (index, row)
        })
        .collect();
    let measured: BTreeSet<Vec<String>> = experiment
        .runs
        .iter()
        .map(|r| experiment.row_id(r))
        .collect();
    let from_cache: BTreeMap<usize, Vec<Cell>> = (cached.rows.iter())
        .map(|row| {
            let row = aligned(cached, row, &header);
            (row[run].number().map_or(usize::MAX, |n| n as usize), row)
        })
        .collect();
    let version = header.iter().position(|h| h == "wsim_version");
    let this_wsim = crate::version();
    let text = |row: &[Cell]| row.iter().map(Cell::to_string).collect::<Vec<_>>();
    let mut counts = EarlierRows::default();
    if id_columns.is_empty() {
        counts.unplaced = earlier.rows.len();
    }
    for row in earlier.rows.iter().filter(|_| !id_columns.is_empty()) {
        let mut id: Vec<String> = id_columns.iter().map(|&k| row[k].to_string()).collect();
        let reading = reading.map_or(default.to_string(), |k| row[k].to_string());
        id.insert(3, reading);
        let Some(&index) = left_out.get(id.as_slice()) else {
            if !measured.contains(&id) {
                counts.unplaced += 1;
            }
            continue;
        };
        let mut row = aligned(earlier, row, &header);
        row[run] = Cell::Count(index as u64);
        let row = match from_cache.get(&index) {
            Some(cached) => {
                counts.corrected += usize::from(text(cached) != text(&row));
                cached.clone()
            }
            None if version.is_some_and(|k| row[k].to_string() == this_wsim) => {
                counts.unbacked += 1;
                continue;
            }
            None => row,
        };
        rows.push((index, row));
        counts.kept += 1;
    }
    rows.sort_by_key(|(index, _)| *index);
    table.header = header;
    table.rows = rows.into_iter().map(|(_, row)| row).collect();
    counts
}

/// `row` of `table` with the columns of `header` (empty where it has none).
fn aligned(table: &Table, row: &[Cell], header: &[String]) -> Vec<Cell> {
    header
        .iter()
        .map(|h| table.cell(row, h).cloned().unwrap_or(Cell::Empty))
        .collect()
}
