//! Every key a preset omits resolves to the documented default of its own level: a partial
//! `[memory.l2]` table keeps the L2's hit latency and MSHRs, not a generic cache's (the
//! defaults are `Config::default()`, which docs/CONFIG.md documents key by key).

use std::path::PathBuf;

use wsim_sim::Config;

/// The dotted paths of every leaf of `table`, with their values.
fn leaves(table: &toml::Table, prefix: &str, out: &mut Vec<(String, toml::Value)>) {
    for (key, value) in table {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match value {
            toml::Value::Table(t) => leaves(t, &path, out),
            v => out.push((path, v.clone())),
        }
    }
}

fn lookup<'a>(table: &'a toml::Table, path: &str) -> Option<&'a toml::Value> {
    let mut parts = path.split('.');
    let mut value = table.get(parts.next()?)?;
    for part in parts {
        value = value.as_table()?.get(part)?;
    }
    Some(value)
}

#[test]
fn omitted_keys_take_their_levels_defaults() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../configs");
    let defaults = toml::Table::try_from(Config::default()).unwrap();
    let mut default_leaves = Vec::new();
    leaves(&defaults, "", &mut default_leaves);
    let mut presets: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    presets.sort();
    assert!(presets.len() >= 4, "{presets:?}");
    let mut checked = 0;
    for preset in presets {
        let text = std::fs::read_to_string(&preset).unwrap();
        let written: toml::Table = text.parse().unwrap();
        let config = Config::from_toml(&text, &preset.display().to_string()).unwrap();
        let resolved = toml::Table::try_from(&config).unwrap();
        for (path, default) in &default_leaves {
            if lookup(&written, path).is_some() {
                continue;
            }
            assert_eq!(
                lookup(&resolved, path),
                Some(default),
                "{}: {path} is omitted, so it must be the default",
                preset.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} omitted keys checked");
}

/// The bug this guards against: configs/sparseweaver.toml gives the L2's size and ways only.
#[test]
fn a_partial_l2_table_keeps_the_l2_defaults() {
    let c = Config::from_toml("[memory.l2]\nsize = 524288\n", "test").unwrap();
    let l2 = &Config::default().memory.l2;
    assert_eq!(c.memory.l2.size, 524288);
    assert_eq!(c.memory.l2.hit_latency, l2.hit_latency);
    assert_eq!(c.memory.l2.mshrs, l2.mshrs);
    assert_ne!(c.memory.l2.hit_latency, c.memory.l1d.hit_latency);
}
