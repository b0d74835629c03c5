//! Where an experiment's results go ([`Outputs`]) and what is written there: the table of
//! every run (a part of the experiment adding its rows to the earlier parts') and the
//! plots drawn from it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::cache::Cache;
use super::{table, Experiment, Run};
use crate::table::Table;

/// What [`Experiment::write_outputs`] wrote.
pub struct Written {
    pub table: Table,
    /// The table's file, then each plot's file or why it could not be drawn.
    pub written: Vec<anyhow::Result<PathBuf>>,
    /// What became of the rows of the table earlier parts of the experiment wrote.
    pub earlier_rows: table::EarlierRows,
    /// Where that table was kept because some of its rows could not be placed.
    pub earlier_kept_as: Option<PathBuf>,
}

/// Where an experiment's results go.
#[derive(Clone, Debug)]
pub struct Outputs {
    /// The table and plots.
    pub dir: PathBuf,
    pub cache: PathBuf,
}

impl Outputs {
    /// `results/NAME` (`results/NAME/PROFILE` under a profile) below the current
    /// directory, its cache in `cache/` there, unless given.
    pub fn new(experiment: &Experiment, dir: Option<&Path>, cache: Option<&Path>) -> Outputs {
        let dir = dir.map_or_else(
            || {
                let dir = Path::new("results").join(&experiment.name);
                match &experiment.profile {
                    Some(profile) => dir.join(profile),
                    None => dir,
                }
            },
            Path::to_path_buf,
        );
        let cache = cache.map_or_else(|| dir.join("cache"), Path::to_path_buf);
        Outputs { dir, cache }
    }

    pub fn table(&self, experiment: &Experiment) -> PathBuf {
        self.dir.join(format!("{}.csv", experiment.name))
    }

    /// Whether the results can be written, before any run (a read-only `--out` fails now,
    /// not after hours of runs): the cache, and with `table` the table, which may not be
    /// one of the experiment's inputs.
    pub fn check(&self, experiment: &Experiment, table: bool) -> anyhow::Result<()> {
        let mut places = vec![self.cache.join("entry.json")];
        if table {
            places.push(self.table(experiment));
        }
        let programs: BTreeSet<&Path> = (experiment.runs.iter())
            .map(|r| r.program.path.as_path())
            .collect();
        let mut inputs = vec![experiment.path.as_path()];
        inputs.extend(programs);
        for place in &places {
            let dir = place.parent().expect("a file in a directory");
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            crate::files::check_not_input(place, &inputs)?;
            crate::files::check_output(place)?;
        }
        Ok(())
    }
}

impl Experiment {
    /// Read every run from the cache, write the table (`NAME.csv`) and draw the plots
    /// into the output directory. A part of the experiment (`--graphs`, `--programs`)
    /// adds its rows to those the table there holds for the runs it left out (earlier
    /// parts, perhaps measured by another wsim: each row names its `wsim_version`).
    pub fn write_outputs(&self, outputs: &Outputs) -> anyhow::Result<Written> {
        let mut records = self.collect(outputs)?;
        let mut runs: Vec<&Run> = self.runs.iter().collect();
        let part = runs.len();
        let path = outputs.table(self);
        let mut earlier_rows = table::EarlierRows::default();
        let mut earlier_kept_as = None;
        // Parts written at once (--graphs in two shells) each keep the other's rows.
        std::fs::create_dir_all(&outputs.dir)
            .with_context(|| format!("cannot create {}", outputs.dir.display()))?;
        let _lock = crate::files::lock_directory_of(&path)?;
        let earlier = if !self.left_out.is_empty() && path.exists() {
            // The rows of left-out runs this cache holds come from it (each entry checked
            // by its digest), not from the earlier table, which anyone may have edited.
            let cache = Cache::new(&outputs.cache)?;
            for run in &self.left_out {
                if let Some(record) = cache.get(&run.key, &run.seal, &run.program.name)? {
                    runs.push(run);
                    records.push(record);
                }
            }
            Some(Table::read(&path)?)
        } else {
            None
        };
        // One table of this part's runs and the cached ones, so that their columns are
        // filled alike (a phase only some runs have is 0 in the others' rows).
        let mut table = table::table_of(self, &runs, &records);
        let cached = Table {
            header: table.header.clone(),
            rows: table.rows.split_off(part),
        };
        if let Some(earlier) = earlier {
            earlier_rows = table::add_earlier_parts(&mut table, self, &earlier, &cached);
            // Rows the new table cannot hold (measured under an older configuration, say)
            // are still somebody's measurements: the whole earlier table stays, renamed.
            if earlier_rows.unplaced + earlier_rows.unbacked > 0 {
                let kept = crate::files::free_name(&path, "earlier");
                let text = crate::files::read_input(&path, crate::TABLE_BYTES, "a table")?;
                crate::files::write_whole(&kept, &text)?;
                earlier_kept_as = Some(kept);
            }
        }
        table.write(&path)?;
        let mut written = vec![Ok(path)];
        written.extend(self.plot(&table, outputs));
        Ok(Written {
            table,
            written,
            earlier_rows,
            earlier_kept_as,
        })
    }

    /// Draw the plots of `table` (this experiment's) into the output directory: each one's
    /// file, or why it could not be drawn (which does not keep the others from being).
    pub fn plot(&self, table: &Table, outputs: &Outputs) -> Vec<anyhow::Result<PathBuf>> {
        let axes: crate::plot::Columns = self
            .axes
            .iter()
            .map(|a| {
                let axis = crate::plot::AxisColumn {
                    key: a.key.clone(),
                    unit: a.unit.clone(),
                };
                (a.name.clone(), axis)
            })
            .collect();
        if let Err(e) = std::fs::create_dir_all(&outputs.dir) {
            let dir = outputs.dir.display();
            return vec![Err(anyhow::anyhow!(
                "cannot create the plots' directory {dir}: {e}"
            ))];
        }
        // A row with no reading (a table written before readings were, or by an experiment
        // without them) is the default reading's, as the paper report reads it, so a plot
        // `where reading = default` finds it.
        let with_reading;
        let table = match self.readings.first() {
            Some(default) => {
                with_reading = table.with_default("reading", &default.name);
                &with_reading
            }
            None => table,
        };
        let part = self.is_part();
        self.plots
            .iter()
            .filter(|p| !part || p.has_rows(table))
            .filter(|p| {
                let sampled = p.sampled_without_values(table);
                if sampled {
                    tracing::warn!(
                        "{}: plot `{}` not drawn: its rows are sampled runs, which \
                         estimate the cycles and nothing else the timing model measures",
                        self.path.display(),
                        p.name
                    );
                }
                !sampled
            })
            .map(|p| {
                p.draw(table, &outputs.dir, &axes)
                    .with_context(|| format!("{}", self.path.display()))
            })
            .collect()
    }
}
