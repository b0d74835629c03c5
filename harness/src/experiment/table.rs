//! An experiment's tidy table: one row per run, in the runs' order, with every field that
//! identifies the run (experiment, profile, program, kernel and arguments, graph, each
//! axis, configuration and its hash, wsim's version) and its results ([`crate::results`]: outcome, cycles,
//! instructions, IPC, SIMT efficiency, issue slots by reason, hit rates, DRAM, the Weaver
//! unit, cycles per phase), then the verdict, the error and the host's time (the only
//! column that differs between two runs of the same experiment).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::Context;

use super::{Experiment, Run};
use crate::measure::Measured;
use crate::results;

/// The table in memory: a header and rows of cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// Columns that differ from one execution of the same runs to the next.
pub const HOST_COLUMNS: [&str; 1] = ["host_seconds"];

/// A GCN run's mean nonzeros per row of X as asked for (the report states the nonzeros
/// drawn, `input_nonzeros`); empty for other runs.
fn input_nnz(run: &Run, m: &Measured) -> String {
    let gcn = m
        .report
        .as_ref()
        .is_some_and(|r| r.pointer("/graph/gcn").is_some());
    let asked = run
        .arguments
        .input_nnz
        .unwrap_or(wsim_graph::gcn::LayerSpec::default().input_nnz);
    if gcn {
        asked.to_string()
    } else {
        String::new()
    }
}

impl Table {
    /// The columns of `experiment`'s table when its runs have `phases`.
    pub fn header(experiment: &Experiment, phases: &[u32]) -> Vec<String> {
        let mut header: Vec<String> = ["experiment", "profile", "run", "program"]
            .map(String::from)
            .to_vec();
        header.extend(results::kernel().iter().map(|c| c.name.clone()));
        header.extend(["input_nnz", "graph", "graph_spec", "graph_options"].map(String::from));
        header.extend(
            experiment
                .axes
                .iter()
                .filter(|a| a.own_column())
                .map(|a| a.name.clone()),
        );
        header.extend(["config", "config_hash", "wsim_version"].map(String::from));
        header.extend(results::all(phases).iter().map(|c| c.name.clone()));
        header.extend(["verdict", "error"].map(String::from));
        header.extend(HOST_COLUMNS.map(String::from));
        header
    }

    /// The table of `experiment`, whose runs measured `measured` (in the runs' order).
    pub fn new(experiment: &Experiment, measured: &[Measured]) -> Table {
        let phases: BTreeSet<u32> = measured.iter().flat_map(results::phases).collect();
        let phases: Vec<u32> = phases.into_iter().collect();
        let kernel = results::kernel();
        let all = results::all(&phases);
        let header = Table::header(experiment, &phases);
        let version = crate::version();
        let rows = experiment
            .runs
            .iter()
            .zip(measured)
            .map(|(run, m): (&Run, &Measured)| {
                let graph = run.graph.map(|g| &experiment.graphs[g]);
                let mut row = vec![
                    experiment.name.clone(),
                    experiment.profile.clone().unwrap_or_default(),
                    run.index.to_string(),
                    run.program.name.clone(),
                ];
                row.extend(kernel.iter().map(|c| c.cell(m)));
                row.push(input_nnz(run, m));
                row.push(graph.map_or(String::new(), |g| g.name.clone()));
                row.push(graph.map_or(String::new(), |g| g.spec.clone()));
                row.push(graph.map_or(String::new(), |g| g.flags.join(" ")));
                row.extend(
                    (experiment.axes.iter().zip(&run.values))
                        .filter(|(a, _)| a.own_column())
                        .map(|(_, v)| v.clone()),
                );
                row.push(experiment.config.clone());
                row.push(run.config.hash());
                row.push(version.clone());
                row.extend(all.iter().map(|c| c.cell(m)));
                row.push(results::verdict(m).to_string());
                row.push(results::error_line(m));
                row.push(results::host_seconds(m));
                row
            })
            .collect();
        Table { header, rows }
    }

    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let mut out = csv::Writer::from_path(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        out.write_record(&self.header)?;
        for row in &self.rows {
            out.write_record(row)?;
        }
        out.flush()
            .with_context(|| format!("cannot write {}", path.display()))
    }

    pub fn read(path: &Path) -> anyhow::Result<Table> {
        let mut reader = csv::Reader::from_path(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let header = reader
            .headers()
            .with_context(|| format!("{}: no header", path.display()))?
            .iter()
            .map(String::from)
            .collect();
        let rows = reader
            .records()
            .map(|r| r.map(|r| r.iter().map(String::from).collect()))
            .collect::<Result<Vec<Vec<String>>, _>>()
            .with_context(|| format!("cannot read {}", path.display()))?;
        Ok(Table { header, rows })
    }

    /// Add the rows of `earlier` (the table at this part's output, written by earlier
    /// parts) that belong to runs this part of `experiment` left out, each under its
    /// run's index, in the runs' order; returns how many. Columns go by name (phases
    /// that only one side has are kept); an earlier row of a run the experiment no
    /// longer has, or of a run this part measured again, is dropped.
    pub fn add_earlier_parts(&mut self, experiment: &Experiment, earlier: &Table) -> usize {
        let phases: BTreeSet<u32> = (self.header.iter().chain(&earlier.header))
            .filter_map(|h| results::phase_of_cycles_column(h))
            .collect();
        let header = Table::header(experiment, &phases.into_iter().collect::<Vec<_>>());
        let left_out: BTreeMap<&[String], usize> = (experiment.left_out.iter())
            .map(|(index, id)| (id.as_slice(), *index))
            .collect();
        // An axis's column has its name (an argument axis's is the argument's, so named).
        // An earlier table without one of these columns has no row this part can place.
        let id_columns: Vec<usize> = ["program", "graph", "config_hash"]
            .into_iter()
            .chain(experiment.axes.iter().map(|a| a.name.as_str()))
            .map(|name| earlier.column(name))
            .collect::<Option<_>>()
            .unwrap_or_default();
        let run = header
            .iter()
            .position(|h| h == "run")
            .expect("a run column");
        let mut rows: Vec<(usize, Vec<String>)> = (self.rows.iter())
            .map(|row| {
                let row = self.aligned(row, &header);
                (row[run].parse().unwrap_or(usize::MAX), row)
            })
            .collect();
        let mut added = 0;
        for row in earlier.rows.iter().filter(|_| !id_columns.is_empty()) {
            let id: Vec<String> = id_columns.iter().map(|&k| row[k].clone()).collect();
            let Some(&index) = left_out.get(id.as_slice()) else {
                continue;
            };
            let mut row = earlier.aligned(row, &header);
            row[run] = index.to_string();
            rows.push((index, row));
            added += 1;
        }
        rows.sort_by_key(|(index, _)| *index);
        self.header = header;
        self.rows = rows.into_iter().map(|(_, row)| row).collect();
        added
    }

    /// `row` of this table with the columns of `header` (empty where it has none).
    fn aligned(&self, row: &[String], header: &[String]) -> Vec<String> {
        header
            .iter()
            .map(|h| self.column(h).map_or(String::new(), |k| row[k].clone()))
            .collect()
    }

    /// The column called `name`.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }
}
