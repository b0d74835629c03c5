//! `wsim tables`: the documentation's measured tables, made from measurements.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use wsim_harness::doc_tables::{self, Schedules, ALGORITHMS, SCHEDULES};
use wsim_harness::{exit, files};

#[derive(Subcommand)]
pub enum TablesCommand {
    /// Print a schedule table (Markdown) from a kernels experiment's CSV
    /// (experiments/kernels.toml): one row per algorithm and direction, one cycles column
    /// per schedule, SparseWeaver's speedup over VM, EM and EGHW, and the geometric mean
    /// of its speedup over every schedule. Refuses a table holding a run that did not
    /// verify.
    Schedules(SchedulesArgs),
    /// Print the GCN designs' table (Markdown) from their runs' JSON reports (VM's and
    /// SparseWeaver's first, for the speedups): cycles of the run and of each launch group.
    Gcn {
        /// The runs' reports (`wsim run --json`), one row each.
        #[arg(required = true)]
        reports: Vec<PathBuf>,
        /// Also write the rows as CSV.
        #[arg(long, value_name = "FILE")]
        csv: Option<PathBuf>,
    },
    /// Rewrite every table a document marks as generated, between `<!-- wsim tables
    /// schedules ARGS -->` and `<!-- end wsim tables -->` (ARGS as `wsim tables schedules`
    /// takes them, paths from the current directory); with --check, rewrite nothing and
    /// exit 1 when a table differs from what its CSV gives.
    Doc {
        doc: PathBuf,
        #[arg(long)]
        check: bool,
    },
}

#[derive(Parser)]
#[command(no_binary_name = true)]
pub struct SchedulesArgs {
    /// The kernels experiment's table.
    csv: PathBuf,
    /// The programs' form: dissertation or tuned.
    #[arg(long, default_value = "dissertation")]
    form: String,
    /// The algorithms, in the rows' order.
    #[arg(long, value_delimiter = ',', default_values_t = ALGORITHMS.map(String::from))]
    algorithms: Vec<String>,
    /// The schedules, in the columns' order (SparseWeaver among them).
    #[arg(long, value_delimiter = ',', default_values_t = SCHEDULES.map(String::from))]
    schedules: Vec<String>,
    /// A second geomean line without these algorithms.
    #[arg(long, value_delimiter = ',')]
    mean_without: Vec<String>,
}

impl SchedulesArgs {
    fn table(self) -> Schedules {
        Schedules {
            csv: self.csv,
            form: self.form,
            algorithms: self.algorithms,
            schedules: self.schedules,
            mean_without: self.mean_without,
        }
    }
}

pub fn exec(command: TablesCommand) -> anyhow::Result<ExitCode> {
    match command {
        TablesCommand::Schedules(args) => print!("{}", args.table().render()?),
        TablesCommand::Gcn { reports, csv } => {
            if let Some(path) = &csv {
                let inputs: Vec<&Path> = reports.iter().map(PathBuf::as_path).collect();
                files::check_not_input(path, &inputs)?;
                files::check_output(path)?;
            }
            let (text, table) = doc_tables::gcn(&reports)?;
            if let Some(path) = csv {
                table.write(&path)?;
            }
            print!("{text}");
        }
        TablesCommand::Doc { doc, check } => {
            let what = doc.display().to_string();
            let text = files::read_text(&doc, wsim_harness::TEXT_BYTES, "a document")?;
            let blocks = doc_tables::blocks(&text, &what)?;
            let tables = blocks
                .iter()
                .map(|b| {
                    let args = SchedulesArgs::try_parse_from(b.args.split_whitespace())
                        .map_err(|e| anyhow::anyhow!("{what}: `{}`: {e}", b.args))?;
                    args.table()
                        .render()
                        .with_context(|| format!("{what}: `{}`", b.args))
                })
                .collect::<anyhow::Result<Vec<String>>>()?;
            if check {
                let stale: Vec<&str> = (blocks.iter().zip(&tables))
                    .filter(|(b, t)| b.text != **t)
                    .map(|(b, _)| b.args.as_str())
                    .collect();
                for args in &stale {
                    stderr_line!(
                        "{what}: the table of `wsim tables schedules {args}` is not what its \
                         CSV gives"
                    );
                }
                return Ok(if stale.is_empty() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(exit::FAILED)
                });
            }
            // Written whole: a full disk leaves the hand-written document as it was.
            files::write_whole(
                &doc,
                doc_tables::rewrite(&text, &blocks, &tables).as_bytes(),
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
