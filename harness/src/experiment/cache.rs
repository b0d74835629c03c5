//! The run cache: each run's outcome (its report JSON, or why it could not be set up) in
//! a file named by the SHA-256 of everything that decides it: wsim's version and sources
//! (for a build of uncommitted sources, the executable's own hash), the program's bytes, the
//! resolved configuration, the graph (spec, file contents, loading options) and the
//! program's arguments (a GCN layer's shape among them), and a sampled run's sampling. A run whose file exists is not
//! run again; anything that changes one of those inputs names another file. Files are
//! written whole (a temporary file renamed), so an interrupted run leaves none, and array
//! tasks of a cluster can share the directory. An entry carries its key, the simulator's
//! identity and a digest of its outcome, checked when read: a file copied over another
//! key's, or an edited one, is refused like a broken one. The digest is keyed by the
//! run's inputs themselves (a second hash of the text the key hashes, which the entry does
//! not hold), so an entry edited with its digest recomputed from what the entry holds is
//! refused too; it is no signature: whoever rebuilds the inputs (wsim's source ids, the
//! program, the configuration) can forge one (docs/EXPERIMENTS.md, "Caching").

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use super::Arguments;
use wsim_sim::report::Report;
use wsim_workloads::record::GraphRun;

use crate::run::{RunError, RunRecord};
use crate::sha256;

const SCHEMA: &str = "wsim-experiment-run/3";

/// What identifies the simulator: the version and the git object ids of its sources at
/// the commit it was built from (so that a commit that leaves them alone, such as one of
/// docs or experiment files, keeps the cache), and for a build whose sources differ from
/// its commit (or are not in git) the executable's bytes, since the commit then does not
/// pin the code.
pub fn simulator() -> &'static str {
    static SIMULATOR: OnceLock<String> = OnceLock::new();
    SIMULATOR.get_or_init(|| {
        let (revision, sources) = (crate::regress::REVISION, env!("WSIM_SOURCE_TREES"));
        let pinned = !revision.ends_with("-modified") && !sources.is_empty();
        let code = if pinned {
            format!("sources {sources}")
        } else {
            let exe = std::env::current_exe().and_then(std::fs::read);
            let exe = exe.map_or_else(|e| format!("unreadable ({e})"), |b| sha256(&b));
            format!("{revision} executable {exe}")
        };
        format!("wsim {} {code}", crate::regress::VERSION)
    })
}

/// The inputs of a run, as the text whose hash is its key.
pub struct Inputs<'a> {
    pub program: &'a [u8],
    /// The resolved configuration (TOML).
    pub config: &'a str,
    /// `graph SPEC sha256 FLAGS...` (the file's or generator's), or none.
    pub graph: Option<String>,
    /// The program's arguments (source, iterations, a GCN layer's shape).
    pub arguments: &'a Arguments,
    /// How the run is sampled (none: in full detail).
    pub sampling: Option<&'a wsim_sampler::Plan>,
}

impl Inputs<'_> {
    /// The cache key: the hash of the inputs' text.
    pub fn key(&self) -> String {
        sha256(self.text().as_bytes())
    }

    /// What keys an entry's digest: another hash of the same text, which the key does not
    /// give away.
    pub fn seal(&self) -> String {
        sha256(format!("wsim-experiment-seal\n{}", self.text()).as_bytes())
    }

    fn text(&self) -> String {
        let mut text = format!(
            "{}\nprogram {}\nconfig {}\n{}\n",
            simulator(),
            sha256(self.program),
            sha256(self.config.as_bytes()),
            self.graph.as_deref().unwrap_or("graph none"),
        );
        for argument in Arguments::ALL {
            let value = self.arguments.get(argument);
            let value = value.map_or("-".to_string(), |n| n.to_string());
            text.push_str(&format!("{} {value}\n", argument.name()));
        }
        // Only when given, so that the keys of runs without it stay as they were.
        if self.arguments.source_hub {
            text.push_str("source hub\n");
        }
        // Likewise: a run in full detail keeps its key. The threads change no result.
        if let Some(plan) = self.sampling {
            text.push_str(&format!(
                "sampling every {} period {} warmup {} warm_caches {}\n",
                plan.every, plan.period, plan.warmup_units, plan.warm_caches
            ));
            // Only with clusters, so that runs sampled by octaves keep the keys they had.
            if plan.cluster > 0.0 {
                text.push_str(&format!("sampling cluster {}\n", plan.cluster));
            }
            // Only with a check, so that runs sampled without one keep their keys.
            if plan.check_warmup > 0 {
                text.push_str(&format!("sampling check {}\n", plan.check_warmup));
            }
            // A short run may be simulated whole: its result is not the one it had without.
            if plan.exact_fallback {
                text.push_str("sampling exact fallback\n");
            }
            // Only where it can scale something (units inside launches), so that the keys
            // of runs cut only at launches stay as they were.
            if plan.progress && plan.period > 0 {
                text.push_str("sampling progress\n");
            }
            // Only with one, so that runs sampled as they come keep their keys.
            if let Some(share) = plan.budget {
                text.push_str(&format!("sampling budget {share}\n"));
            }
        }
        text
    }
}

/// A graph's part of a key: the spec, the contents of its file (a generator's spec is
/// its contents) and the loading options.
pub fn graph_identity(spec: &str, resolved: &str, flags: &[String]) -> anyhow::Result<String> {
    let contents = if resolved.starts_with("gen:") {
        sha256(resolved.as_bytes())
    } else {
        crate::sha256_file(Path::new(resolved)).context("graph")?
    };
    Ok(format!("graph {spec} {contents} {}", flags.join(" ")))
}

/// A cached run: its report (exactly what `wsim run --json` writes), or none when it could
/// not be set up, and its error.
#[derive(Serialize, Deserialize)]
struct Entry {
    schema: String,
    /// The key the entry was written under (its file's name).
    key: String,
    /// [`simulator`] of the wsim that ran it.
    simulator: String,
    /// SHA-256 of the run's seal and its outcome as written ([`digest`]).
    digest: String,
    report: Option<Report<GraphRun>>,
    error: Option<String>,
}

/// The hash of an entry's outcome, keyed by its run's seal ([`Inputs::seal`]): its report
/// and error as JSON (a report reads back into the same bytes, so a read entry hashes as
/// it was written unless it was edited).
fn digest(seal: &str, report: &Option<Report<GraphRun>>, error: &Option<String>) -> String {
    let text = serde_json::to_string(&(report, error)).expect("an outcome serializes");
    sha256(format!("{seal}\n{text}").as_bytes())
}

/// A directory of cached runs.
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    pub fn new(dir: &Path) -> anyhow::Result<Cache> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the cache directory {}", dir.display()))?;
        Ok(Cache {
            dir: dir.to_path_buf(),
        })
    }

    pub fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    pub fn has(&self, key: &str) -> bool {
        self.path(key).is_file()
    }

    /// The run cached under `key` (its inputs sealed as `seal`, named `name`), if any.
    pub fn get(&self, key: &str, seal: &str, name: &str) -> anyhow::Result<Option<RunRecord>> {
        let path = self.path(key);
        let text = match crate::files::read_text(&path, crate::REPORT_BYTES, "a cached run") {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let entry: Entry = serde_json::from_str(&text).with_context(|| {
            format!("{}: not a cached run (delete it to rerun)", path.display())
        })?;
        if entry.schema != SCHEMA {
            anyhow::bail!(
                "{}: schema {}, expected {SCHEMA} (delete it to rerun)",
                path.display(),
                entry.schema
            );
        }
        let refuse =
            |why: String| anyhow::anyhow!("{}: {why} (delete it to rerun)", path.display());
        if entry.key != key {
            return Err(refuse(format!(
                "the cached run of key {}, not of this file's {key} (copied over it?)",
                entry.key
            )));
        }
        if entry.simulator != simulator() {
            return Err(refuse(format!(
                "run by `{}`, not by this wsim `{}`",
                entry.simulator,
                simulator()
            )));
        }
        if digest(seal, &entry.report, &entry.error) != entry.digest {
            return Err(refuse(
                "its report or error is not what was written (edited?)".into(),
            ));
        }
        let error = match (&entry.report, entry.error) {
            (None, error) => Some(RunError::Setup(error.unwrap_or_default())),
            (Some(_), error) => error.map(RunError::Simulation),
        };
        // Byte-identical programs (a push PageRank whose two forms compile alike) share
        // one cached run: each record still names its own program.
        let report = entry.report.map(|mut r| {
            r.program = name.to_string();
            r
        });
        Ok(Some(RunRecord {
            name: name.to_string(),
            report,
            error,
        }))
    }

    /// Keep a run: written to a temporary file beside its place, then renamed into it.
    pub fn put(&self, key: &str, seal: &str, record: &RunRecord) -> anyhow::Result<()> {
        let report = record.report.clone();
        let error = record.error.as_ref().map(|e| e.message().to_string());
        let entry = Entry {
            schema: SCHEMA.to_string(),
            key: key.to_string(),
            simulator: simulator().to_string(),
            digest: digest(seal, &report, &error),
            report,
            error,
        };
        let text = serde_json::to_string(&entry).expect("an entry serializes");
        Ok(crate::files::write_whole(&self.path(key), text.as_bytes())?)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    fn inputs<'a>(
        arguments: &'a Arguments,
        sampling: Option<&'a wsim_sampler::Plan>,
    ) -> Inputs<'a> {
        Inputs {
            program: b"elf",
            config: "[gpu]\ncores = 4\n",
            graph: Some("graph gen:grid:w=4,h=4 abc --symmetrize".into()),
            arguments,
            sampling,
        }
    }

    /// A run in full detail keys exactly the text it did before runs could be sampled, so
    /// that every cache of unsampled experiments stays valid.
    #[test]
    fn a_detailed_runs_key_is_unchanged_by_sampling() {
        let arguments = Arguments {
            iterations: Some(3),
            ..Arguments::default()
        };
        let before = format!(
            "{}\nprogram {}\nconfig {}\ngraph gen:grid:w=4,h=4 abc --symmetrize\n\
             source -\niterations 3\nfeatures -\ninput_features -\ninput_nnz -\n",
            simulator(),
            sha256(b"elf"),
            sha256(b"[gpu]\ncores = 4\n"),
        );
        let detailed = inputs(&arguments, None);
        assert_eq!(detailed.text(), before);
        assert_eq!(detailed.key(), sha256(before.as_bytes()));
    }

    /// A sampled run's key differs from the detailed run's and with every choice that
    /// changes its result, but not with the threads it takes.
    #[test]
    fn a_sampled_runs_key_names_its_sampling() {
        let arguments = Arguments::default();
        let plan = wsim_sampler::Plan::default();
        let detailed = inputs(&arguments, None).key();
        let sampled = inputs(&arguments, Some(&plan)).key();
        assert_ne!(sampled, detailed);
        let threads = wsim_sampler::Plan { threads: 8, ..plan };
        assert_eq!(inputs(&arguments, Some(&threads)).key(), sampled);
        let others = [
            wsim_sampler::Plan { every: 5, ..plan },
            wsim_sampler::Plan {
                period: 1000,
                ..plan
            },
            wsim_sampler::Plan {
                warmup_units: 2,
                ..plan
            },
            wsim_sampler::Plan {
                warm_caches: !plan.warm_caches,
                ..plan
            },
            wsim_sampler::Plan {
                cluster: 0.0,
                ..plan
            },
            wsim_sampler::Plan {
                check_warmup: plan.check_warmup + 1,
                ..plan
            },
            wsim_sampler::Plan {
                exact_fallback: !plan.exact_fallback,
                ..plan
            },
            // The progress model scales only units inside launches.
            wsim_sampler::Plan {
                period: 1000,
                progress: !plan.progress,
                ..plan
            },
            wsim_sampler::Plan {
                budget: Some(0.1),
                ..plan
            },
        ];
        let keys: BTreeSet<String> = (others.iter())
            .map(|p| inputs(&arguments, Some(p)).key())
            .chain([sampled, detailed])
            .collect();
        assert_eq!(keys.len(), others.len() + 2);
        assert_ne!(
            inputs(&arguments, Some(&plan)).seal(),
            inputs(&arguments, None).seal()
        );
    }
}
