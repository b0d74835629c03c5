//! A table's typed cells ([`Cell`]) and how a column's text reads back into one
//! ([`Kind`]).

use std::fmt;

/// One cell of a table: a typed value, printed the same way everywhere (rates with six
/// decimals), so equal runs give equal rows.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Nothing to say: a run not set up, a level nothing reached, a program without it.
    Empty,
    Count(u64),
    /// A real number printed with this many decimals.
    Fixed(f64, usize),
    Bool(bool),
    Text(String),
    /// A value as a person wrote it (a configuration value of an axis): printed as written,
    /// a number in JSON when it reads as one.
    Written(String),
}

impl Cell {
    /// The number it holds (a written value that reads as one included).
    pub fn number(&self) -> Option<f64> {
        match self {
            Cell::Count(n) => Some(*n as f64),
            Cell::Fixed(x, _) => Some(*x),
            Cell::Written(s) => s.parse().ok(),
            _ => None,
        }
    }

    /// As JSON: numbers as numbers (a fixed one as printed), empty as null.
    pub fn json(&self) -> serde_json::Value {
        use serde_json::Value;
        let number = |text: &str| text.parse::<serde_json::Number>().ok().map(Value::Number);
        match self {
            _ if self.is_empty() => Value::Null,
            Cell::Empty => Value::Null,
            Cell::Count(n) => Value::from(*n),
            Cell::Bool(b) => Value::Bool(*b),
            Cell::Fixed(..) => number(&self.to_string()).unwrap_or(Value::Null),
            Cell::Text(s) => Value::String(s.clone()),
            Cell::Written(s) => number(s).unwrap_or_else(|| Value::String(s.clone())),
        }
    }

    /// Whether it holds `wanted` (numbers compare as numbers: `1` matches `1.0`).
    pub fn matches(&self, wanted: &str) -> bool {
        let text = self.to_string();
        text == wanted
            || matches!((text.parse::<f64>(), wanted.parse::<f64>()), (Ok(a), Ok(b)) if a == b)
    }

    pub fn is_empty(&self) -> bool {
        match self {
            Cell::Empty => true,
            Cell::Text(s) | Cell::Written(s) => s.is_empty(),
            _ => false,
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::Empty => Ok(()),
            Cell::Count(n) => write!(f, "{n}"),
            Cell::Fixed(x, decimals) => write!(f, "{x:.decimals$}"),
            Cell::Bool(b) => write!(f, "{b}"),
            Cell::Text(s) | Cell::Written(s) => f.write_str(s),
        }
    }
}

/// What kind of cell a statistic has: how a table's text reads back into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Count,
    /// Printed with this many decimals.
    Fixed(usize),
    Bool,
    Text,
}

impl Kind {
    /// A table's `text` as a cell of this kind (empty text: an empty cell); `None` when it
    /// is not one.
    pub fn read(self, text: &str) -> Option<Cell> {
        if text.is_empty() {
            return Some(Cell::Empty);
        }
        match self {
            Kind::Count => text.parse().ok().map(Cell::Count),
            // The decimals as written, so that a row read back is written back the same.
            Kind::Fixed(_) => {
                let decimals = text.split_once('.').map_or(0, |(_, d)| d.len());
                text.parse().ok().map(|x| Cell::Fixed(x, decimals))
            }
            Kind::Bool => text.parse().ok().map(Cell::Bool),
            Kind::Text => Some(Cell::Text(text.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_print_and_read_back_alike() {
        for (kind, text) in [
            (Kind::Count, "1051508"),
            (Kind::Fixed(6), "0.517847"),
            (Kind::Fixed(1), "12.5"),
            (Kind::Fixed(3), "10.224"),
            (Kind::Bool, "false"),
            (Kind::Text, "SparseWeaver"),
            (Kind::Count, ""),
        ] {
            assert_eq!(kind.read(text).unwrap().to_string(), text);
        }
        assert_eq!(Kind::Count.read("x"), None);
        assert!(Cell::Fixed(1.0, 6).matches("1"));
        assert!(Cell::Written("4".into()).matches("4.0"));
        assert_eq!(Cell::Written("4".into()).json(), serde_json::json!(4));
        assert_eq!(Cell::Written("lru".into()).json(), serde_json::json!("lru"));
        assert_eq!(Cell::Fixed(0.5, 6).json(), serde_json::json!(0.5));
        assert_eq!(Cell::Empty.json(), serde_json::Value::Null);
    }
}
