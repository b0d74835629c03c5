//! From TOML to a [`Config`]: where a configuration came from (file and line, or the
//! `--set` item) for its errors, the overlay on the defaults, typed values, overrides,
//! and the walk over known keys.

use super::{Config, ConfigError};

/// Where a configuration came from, so that each error names the file and line of the
/// key, or the `--set`/`--vary` item that set it.
pub(super) enum Origin<'a> {
    File {
        name: &'a str,
        text: &'a str,
    },
    Overrides {
        flag: &'a str,
        /// (key path, item) in the order given.
        items: Vec<(String, &'a str)>,
    },
}

impl Origin<'_> {
    /// `name: line N: ` or `--set item: ` for a message about `key`.
    pub(super) fn prefix(&self, key: Option<&str>) -> String {
        match self {
            Origin::File { name, text } => match key.and_then(|k| key_line(text, k)) {
                Some(line) => format!("{name}: line {line}: "),
                None => format!("{name}: "),
            },
            Origin::Overrides { flag, items } => {
                let related = |path: &str, k: &str| {
                    path == k
                        || k.starts_with(&format!("{path}."))
                        || path.starts_with(&format!("{k}."))
                };
                match key.and_then(|k| items.iter().rev().find(|(p, _)| related(p, k))) {
                    Some((_, item)) => format!("{flag} {item}: "),
                    None => format!("{flag}: "),
                }
            }
        }
    }

    /// Whether the document or an override gave `key` (or a section around it).
    fn gives(&self, key: &str) -> bool {
        match self {
            Origin::File { text, .. } => key_line(text, key).is_some(),
            Origin::Overrides { .. } => self.prefix(Some(key)) != self.prefix(None),
        }
    }

    /// Each problem prefixed with where the first of its named keys that was given was
    /// given (a check across keys names the one the user wrote), joined by "; ".
    pub(super) fn locate(&self, problems: &[String]) -> ConfigError {
        let known = known_paths(true);
        let located: Vec<String> = problems
            .iter()
            .map(|p| {
                let keys = named_keys(p, &known);
                let key = keys.iter().find(|k| self.gives(k)).or(keys.first());
                format!("{}{p}", self.prefix(key.copied()))
            })
            .collect();
        ConfigError(located.join("; "))
    }
}

/// The 1-based line of `path` (`a.b.c`) in a TOML document, when it is given there.
pub(super) fn key_line(text: &str, path: &str) -> Option<usize> {
    let doc = toml::de::DeTable::parse(text).ok()?;
    let mut table = doc.get_ref();
    let mut span = None;
    let mut parts = path.split('.').peekable();
    while let Some(part) = parts.next() {
        let (key, value) = table.get_key_value(part)?;
        span = Some(key.span());
        if parts.peek().is_some() {
            table = value.get_ref().as_table()?;
        }
    }
    Some(text[..span?.start].matches('\n').count() + 1)
}

/// The configuration keys (in `known`) a message names, in order.
pub(super) fn named_keys<'a>(msg: &str, known: &'a [String]) -> Vec<&'a str> {
    msg.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .map(|w| w.trim_end_matches('.'))
        .filter_map(|w| known.iter().find(|k| *k == w))
        .map(String::as_str)
        .collect()
}

/// Lay `top` over `base`: its values replace `base`'s, its tables merge into `base`'s.
pub(super) fn overlay(base: &mut toml::Table, top: toml::Table) {
    for (key, value) in top {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(below)), toml::Value::Table(above)) => overlay(below, above),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

/// The typed configuration of a table whose keys are all known. A value of the wrong type
/// or out of its type's range is reported with its key: the table's leaves are tried one
/// at a time on top of the defaults, since serde's error does not say which it was.
pub(super) fn typed(table: toml::Table) -> Result<Config, (Option<String>, String)> {
    let err = match toml::Value::Table(table.clone()).try_into::<Config>() {
        Ok(config) => return Ok(config),
        Err(e) => e,
    };
    let defaults = toml::Table::try_from(Config::default()).expect("a Config always serializes");
    let mut leaves = Vec::new();
    collect_leaves(&table, "", &mut leaves);
    for (path, value) in leaves {
        let mut t = defaults.clone();
        let shown = describe(&value);
        if set_path(&mut t, &path, value).is_err() {
            continue;
        }
        if let Err(e) = toml::Value::Table(t).try_into::<Config>() {
            return Err((
                Some(path.clone()),
                format!("`{path}` = {shown}: {}", plain(e.message())),
            ));
        }
    }
    Err((None, plain(err.message())))
}

/// A value as TOML, shortened for a message.
pub(super) fn describe(value: &toml::Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text,
    }
}

/// serde's type names in words.
pub(super) fn plain(msg: &str) -> String {
    msg.replace("expected u32", "expected an integer in 0..=4294967295")
        .replace("expected u64", "expected a non-negative integer")
        .replace("expected a boolean", "expected true or false")
}

pub(super) fn parse_override_value(raw: &str) -> Result<toml::Value, String> {
    // One TOML value; a bare word that is not valid TOML is taken as a string. A line
    // break would let the rest of the item pass for more keys, silently dropped.
    if raw.contains(['\n', '\r']) {
        return Err("a value is one line: it has a line break".into());
    }
    if raw.len() as u64 > crate::limits::CONFIG_BYTES {
        return Err(format!(
            "a value of {} bytes, more than a configuration may have ({}, limits::CONFIG_BYTES)",
            raw.len(),
            crate::limits::CONFIG_BYTES
        ));
    }
    Ok(format!("v = {raw}")
        .parse::<toml::Table>()
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(raw.to_string())))
}

pub(super) fn set_path(
    table: &mut toml::Table,
    path: &str,
    value: toml::Value,
) -> Result<(), String> {
    let mut parts = path.split('.').peekable();
    let mut current = table;
    while let Some(part) = parts.next() {
        if part.is_empty() {
            break;
        }
        if parts.peek().is_none() {
            current.insert(part.to_string(), value);
            return Ok(());
        }
        current = match current
            .entry(part.to_string())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()))
        {
            toml::Value::Table(t) => t,
            _ => return Err(format!("`{part}` is a value, not a section")),
        };
    }
    Err("empty key".into())
}

/// Every key path of the schema: values, and with `sections` the sections too.
pub(super) fn known_paths(sections: bool) -> Vec<String> {
    let known = toml::Table::try_from(Config::default()).expect("a Config always serializes");
    let mut paths = Vec::new();
    collect_paths(&known, "", sections, &mut paths);
    paths
}

/// Reject keys that are not in the schema, naming the full path and the nearest valid key,
/// a section given a value, and a value given keys. `Err((path, message))`.
pub(super) fn check_known_keys(table: &toml::Table) -> Result<(), (String, String)> {
    let known = known_paths(false);
    let mut given = Vec::new();
    collect_paths(table, "", false, &mut given);
    for path in given {
        if known.contains(&path) {
            continue;
        }
        let below = format!("{path}.");
        let keys: Vec<&str> = known
            .iter()
            .filter(|k| k.starts_with(&below))
            .map(String::as_str)
            .collect();
        if !keys.is_empty() {
            return Err((
                path.clone(),
                format!(
                    "`{path}` is a section, not a value; set its keys: {}",
                    keys.join(", ")
                ),
            ));
        }
        if let Some(value) = known.iter().find(|k| path.starts_with(&format!("{k}."))) {
            return Err((
                path.clone(),
                format!("`{value}` is a value, not a section (given `{path}`)"),
            ));
        }
        let nearest = known
            .iter()
            .min_by_key(|k| strsim::levenshtein(k, &path))
            .cloned()
            .unwrap_or_default();
        return Err((
            path.clone(),
            format!("unknown key `{path}` (did you mean `{nearest}`?)"),
        ));
    }
    Ok(())
}

/// Key paths below `prefix`: the values, and with `sections` the sections too.
pub(super) fn collect_paths(
    table: &toml::Table,
    prefix: &str,
    sections: bool,
    out: &mut Vec<String>,
) {
    walk(table, prefix, &mut |path, value| {
        if sections || !value.is_table() {
            out.push(path);
        }
    });
}

/// The values of a table with their key paths.
pub(super) fn collect_leaves(
    table: &toml::Table,
    prefix: &str,
    out: &mut Vec<(String, toml::Value)>,
) {
    walk(table, prefix, &mut |path, value| {
        if !value.is_table() {
            out.push((path, value.clone()));
        }
    });
}

/// Every entry below `prefix` with its key path, a section before its keys.
pub(super) fn walk(table: &toml::Table, prefix: &str, visit: &mut dyn FnMut(String, &toml::Value)) {
    for (key, value) in table {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        visit(path.clone(), value);
        if let toml::Value::Table(t) = value {
            walk(t, &path, visit);
        }
    }
}
