//! Profiles (docs/EXPERIMENTS.md): an experiment file's `[profiles.NAME]` tables of
//! variables, one of them chosen (`--profile`, else the file's top-level `profile`), put in
//! place of `${var}` in the file's string values before the file is interpreted. A string
//! that is exactly `"${var}"` takes the variable's value with its type (a number stays a
//! number); `${var}` inside a longer string takes the value's text. The substituted
//! values are what the runs are made of, so they reach the runs' cache keys like any
//! value written out.

use std::path::Path;

use anyhow::{anyhow, bail};
use toml::{Table, Value};

/// Said where a profile's name may hold a `.`: TOML reads `[profiles.a-0.25]` as a table
/// `25` inside a profile `a-0`.
const DOTTED_NAME: &str = "; a `.` in `[profiles.NAME]` nests a table in a profile: quote \
                           such a name, `[profiles.\"NAME\"]`";

/// Take the profile machinery out of `tree` (the file as parsed) and substitute the chosen
/// profile's variables in what remains; returns the profile's name (none for a file
/// without profiles, where any `${` is an error). Every profile is substituted (into a
/// copy) too, so that a variable `full` lacks shows while `quick` is being run.
pub fn apply(
    tree: &mut Table,
    wanted: Option<&str>,
    file: &Path,
) -> anyhow::Result<Option<String>> {
    let at = |what: String| anyhow!("{}: {what}", file.display());
    let default = match tree.remove("profile") {
        None => None,
        Some(Value::String(s)) => Some(s),
        Some(other) => bail!(at(format!(
            "`profile` is the default profile's name, a string, not {}",
            other.type_str()
        ))),
    };
    let profiles = match tree.remove("profiles") {
        None => {
            if let Some(name) = default.as_deref().or(wanted) {
                bail!(at(format!(
                    "profile `{name}` is asked for, but the file defines no [profiles.NAME]"
                )));
            }
            substitute(tree, "", &|name: &str, place: &str| {
                Err(anyhow!(
                    "{place}: `${{{name}}}`, but the file defines no [profiles.NAME] to take \
                     variables from"
                ))
            })
            .map_err(|e| at(format!("{e:#}")))?;
            return Ok(None);
        }
        Some(Value::Table(profiles)) => profiles,
        Some(other) => bail!(at(format!(
            "`profiles` holds tables of variables ([profiles.NAME]), not {}",
            other.type_str()
        ))),
    };
    let names: Vec<&str> = profiles.keys().map(String::as_str).collect();
    let names = names.join(", ");
    let mut variables = Vec::new();
    for (name, vars) in &profiles {
        match vars {
            Value::Table(vars) => variables.push((name.as_str(), vars)),
            other => bail!(at(format!(
                "profiles.{name} must be a table of variables, not {}",
                other.type_str()
            ))),
        }
    }
    if let Some(name) = &default {
        if !profiles.contains_key(name) {
            bail!(at(format!(
                "`profile = \"{name}\"`: no such profile (the file defines {names})"
            )));
        }
    }
    let chosen = wanted.map(String::from).or(default).ok_or_else(|| {
        at(format!(
            "the file has profiles ({names}): choose one with --profile NAME, or name a \
             default with `profile = \"NAME\"`"
        ))
    })?;
    if !profiles.contains_key(&chosen) {
        let dotted = match chosen.contains('.') {
            true => DOTTED_NAME,
            false => "",
        };
        bail!(at(format!(
            "--profile {chosen}: no such profile (the file defines {names}){dotted}"
        )));
    }
    let mut result = None;
    for (name, vars) in variables {
        let mut copy = tree.clone();
        substitute(&mut copy, "", &|var: &str, place: &str| {
            vars.get(var).cloned().ok_or_else(|| {
                let defined: Vec<&str> = vars.keys().map(String::as_str).collect();
                // `[profiles.a-0.25]` is TOML for a table `25` in a profile `a-0`.
                let nested = match vars.values().all(Value::is_table) {
                    true => DOTTED_NAME,
                    false => "",
                };
                anyhow!(
                    "{place}: unknown variable `{var}` in profile `{name}` (it defines: {}){nested}",
                    defined.join(", ")
                )
            })
        })
        .map_err(|e| at(format!("{e:#}")))?;
        if name == chosen {
            result = Some(copy);
        }
    }
    *tree = result.expect("the chosen profile exists");
    Ok(Some(chosen))
}

/// Substitute in every string value of `table` (`place`: its key path, for messages);
/// `lookup` gives a variable's value or the error naming it.
fn substitute(
    table: &mut Table,
    place: &str,
    lookup: &dyn Fn(&str, &str) -> anyhow::Result<Value>,
) -> anyhow::Result<()> {
    for (key, value) in table.iter_mut() {
        let here = if place.is_empty() {
            key.clone()
        } else {
            format!("{place}.{key}")
        };
        substitute_value(value, &here, lookup)?;
    }
    Ok(())
}

fn substitute_value(
    value: &mut Value,
    place: &str,
    lookup: &dyn Fn(&str, &str) -> anyhow::Result<Value>,
) -> anyhow::Result<()> {
    match value {
        Value::String(s) => *value = substitute_string(s, place, lookup)?,
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                substitute_value(item, &format!("{place}[{i}]"), lookup)?;
            }
        }
        Value::Table(table) => substitute(table, place, lookup)?,
        _ => {}
    }
    Ok(())
}

/// `"${var}"` alone: the value itself; else each `${var}` replaced by the value's text.
fn substitute_string(
    s: &str,
    place: &str,
    lookup: &dyn Fn(&str, &str) -> anyhow::Result<Value>,
) -> anyhow::Result<Value> {
    if let Some(name) = s.strip_prefix("${").and_then(|r| r.strip_suffix('}')) {
        if is_variable(name) {
            return lookup(name, place);
        }
    }
    let mut out = String::new();
    let mut rest = s;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after
            .find('}')
            .ok_or_else(|| anyhow!("{place}: `${{` without its `}}` in \"{s}\""))?;
        let name = &after[..end];
        if !is_variable(name) {
            bail!("{place}: `${{{name}}}` is not a variable (letters, digits and _)");
        }
        match lookup(name, place)? {
            Value::String(text) => out.push_str(&text),
            v @ (Value::Integer(_) | Value::Float(_) | Value::Boolean(_)) => {
                out.push_str(&v.to_string())
            }
            other => bail!(
                "{place}: variable `{name}` is {} {}: only a whole string \"${{{name}}}\" can \
                 take it",
                if other.is_array() { "an" } else { "a" },
                other.type_str()
            ),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(Value::String(out))
}

fn is_variable(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}
