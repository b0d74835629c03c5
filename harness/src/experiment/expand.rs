//! An experiment file's lists resolved: the programs its patterns match on disk, its
//! graphs, each run's graph options, and the readings it runs under.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::{bail, Context};

use super::file::*;
use crate::readings::{Reading, Readings};
use wsim_workloads::{GraphOptions, LayerOptions, LoadSpec, Source as SourceChoice};

/// The programs the entries match, in entry order and by path within an entry; a pattern
/// that matches nothing, or a program two entries match, is an error.
pub(super) fn programs(spec: &Spec, dir: &Path, file: &Path) -> anyhow::Result<Vec<Program>> {
    let mut found: Vec<Program> = Vec::new();
    for (entry, p) in spec.programs.iter().enumerate() {
        let mut matched = BTreeSet::new();
        for pattern in &p.files {
            let full = dir.join(pattern);
            let text = full.to_string_lossy();
            let paths = glob::glob(&text).with_context(|| {
                format!(
                    "{}: programs[{entry}]: bad pattern `{pattern}`",
                    file.display()
                )
            })?;
            let (before, mut listed, mut excluded) = (matched.len(), None, false);
            for path in paths {
                let path =
                    path.with_context(|| format!("{}: programs[{entry}]", file.display()))?;
                let name = file_name(&path);
                // A folder the pattern names is not a program.
                if path.is_dir() {
                    continue;
                }
                // A pattern whose programs are all excluded (by a profile, say) is no typo.
                if p.exclude.iter().any(|x| crate::matches(x, &name)) {
                    excluded = true;
                    continue;
                }
                if !matched.insert(path) {
                    listed = Some(name);
                }
            }
            if let (true, Some(name)) = (matched.len() == before, listed) {
                bail!(
                    "{}: programs[{entry}]: `{pattern}` lists only programs an earlier pattern \
                     of this entry lists ({name}): list each once",
                    file.display()
                );
            }
            if matched.len() == before && !excluded {
                bail!(
                    "{}: programs[{entry}]: `{pattern}` matches no program (looked for {text}; \
                     build them with `make -C programs`)",
                    file.display()
                );
            }
        }
        for path in matched {
            if let Some(other) = found.iter().find(|q| q.path == path) {
                bail!(
                    "{}: {} is matched by programs[{}] and programs[{entry}]: which arguments would it take?",
                    file.display(),
                    path.display(),
                    other.entry
                );
            }
            let name = path
                .file_stem()
                .map_or_else(|| file_name(&path), |s| s.to_string_lossy().into_owned());
            found.push(Program { name, path, entry });
        }
    }
    Ok(found)
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

/// The graphs with their loading options; a bad option is an error naming the graph.
pub(super) fn graphs(spec: &Spec, dir: &Path) -> anyhow::Result<Vec<Graph>> {
    spec.graphs
        .iter()
        .map(|g| {
            let name = g.name.clone().unwrap_or_else(|| g.spec.clone());
            let d = LoadSpec::default();
            let weights = match &g.weights {
                Some(w) => w
                    .parse()
                    .map_err(|e: String| anyhow::anyhow!("graph `{name}`: {e}"))?,
                None => d.weights,
            };
            let load = LoadSpec {
                symmetrize: g.symmetrize,
                drop_self_loops: g.drop_self_loops,
                dedup: g.dedup,
                weights,
                max_weight: g.max_weight.unwrap_or(d.max_weight),
                seed: g.seed.unwrap_or(d.seed),
                max_vertices: g.max_vertices.unwrap_or(d.max_vertices),
                max_edges: g.max_edges.unwrap_or(d.max_edges),
            };
            let resolved = if g.spec.starts_with("gen:") {
                g.spec.clone()
            } else {
                dir.join(&g.spec).display().to_string()
            };
            Ok(Graph {
                name,
                spec: g.spec.clone(),
                resolved,
                flags: load.flags(),
                load,
            })
        })
        .collect()
}

/// The options of a run on `graph` (none for programs run without one) with `arguments`.
pub(super) fn graph_options(graph: Option<&Graph>, arguments: &Arguments) -> GraphOptions {
    GraphOptions {
        graph: graph.map(|g| g.resolved.clone()),
        source: match (arguments.source, arguments.source_hub) {
            (Some(v), _) => SourceChoice::Id(u64::from(v)),
            (None, true) => SourceChoice::Hub,
            (None, false) => SourceChoice::First,
        },
        iterations: arguments.iterations,
        load: graph.map_or_else(LoadSpec::default, |g| g.load.clone()),
        layer: LayerOptions {
            features: arguments.features,
            input_features: arguments.input_features,
            input_nnz: arguments.input_nnz,
        },
    }
}

/// The readings `spec` runs under (the default first), from its readings file; none
/// without `[readings]`. A reading that sets a key the experiment sets itself (`set`, a
/// `[[programs]]` entry's `set`, an axis) is an error: the two would disagree on it.
pub(super) fn readings(
    spec: &Spec,
    dir: &Path,
    file: &Path,
) -> anyhow::Result<Option<(Readings, Vec<Reading>)>> {
    let Some(wanted) = &spec.readings else {
        return Ok(None);
    };
    let path = dir.join(&wanted.file);
    let readings =
        Readings::load(&path).with_context(|| format!("{}: readings.file", file.display()))?;
    let chosen: Vec<Reading> = readings
        .choose(&wanted.run, &format!("{}: readings.run", file.display()))?
        .into_iter()
        .cloned()
        .collect();
    let keys = |set: &[String]| -> Vec<String> {
        set.iter()
            .filter_map(|s| s.split_once('=').map(|(k, _)| k.trim().to_string()))
            .collect()
    };
    let mut own: Vec<(String, String)> = keys(&spec.set)
        .into_iter()
        .map(|k| (k, "its `set`".to_string()))
        .collect();
    for (i, p) in spec.programs.iter().enumerate() {
        own.extend(
            keys(&p.set)
                .into_iter()
                .map(|k| (k, format!("programs[{i}].set"))),
        );
    }
    for a in &spec.axes {
        if let Some(key) = &a.key {
            own.push((key.clone(), format!("axis `{}`", a.name)));
        }
    }
    for reading in &chosen {
        for key in reading.keys() {
            if let Some((_, whose)) = own.iter().find(|(k, _)| k == key) {
                bail!(
                    "{}: reading `{}` ({}) sets {key}, which the experiment sets in {whose}: \
                     leave the reading out of readings.run, or the key out of the experiment",
                    file.display(),
                    reading.name,
                    path.display()
                );
            }
        }
    }
    Ok(Some((readings, chosen)))
}
