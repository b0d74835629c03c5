//! Counters as values: a fixed set of keyed counts ([`Counts`]), counters kept for the
//! whole run and per phase ([`Phased`]), and [`Merge`], the one way counter structures add
//! up (the [`merged_counters!`] macro derives it field by field, so a counter added to a
//! structure cannot be left out of phases and iterations). A leaf: it imports nothing of
//! the engine, so the memory system and the statistics can both stand on it.

use std::marker::PhantomData;

use serde::{Deserialize, Serialize};

/// Counters that add up: per phase into the whole run, per core into the machine.
pub trait Merge {
    fn merge(&mut self, other: &Self);
}

impl Merge for u64 {
    #[inline]
    fn merge(&mut self, other: &Self) {
        *self += other;
    }
}

/// Counters that only grow, read twice: what was counted between the earlier reading and
/// this one (the profile of a launch is its counts by PC at its end since its start).
/// [`merged_counters!`] derives it with [`Merge`].
pub trait Since {
    fn since(&self, earlier: &Self) -> Self;
}

impl Since for u64 {
    #[inline]
    fn since(&self, earlier: &Self) -> Self {
        self - earlier
    }
}

/// A counter structure whose every field is [`Merge`] and [`Since`], with `merge` and
/// `since` derived from the field list itself. A field marked `[timing]` is one only the timing model counts: a
/// functional run's report leaves it out ([`Architectural`]).
#[macro_export]
macro_rules! merged_counters {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* $([$timing:ident])? pub $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl $crate::counts::Merge for $name {
            fn merge(&mut self, other: &Self) {
                $( $crate::counts::Merge::merge(&mut self.$field, &other.$field); )*
            }
        }

        impl $crate::counts::Since for $name {
            fn since(&self, earlier: &Self) -> Self {
                $name {
                    $( $field: $crate::counts::Since::since(&self.$field, &earlier.$field), )*
                }
            }
        }

        impl serde::Serialize for $crate::counts::Architectural<'_, $name> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap;
                let mut map = s.serialize_map(None)?;
                $( $crate::merged_counters!(@field map, self.0.$field, $field $(, $timing)?); )*
                map.end()
            }
        }
    };
    (@field $map:ident, $value:expr, $field:ident, timing) => {};
    (@field $map:ident, $value:expr, $field:ident) => {
        $map.serialize_entry(stringify!($field), &$crate::counts::Architectural(&$value))?;
    };
}

/// Counters as a functional run reports them: serialized without the fields only the
/// timing model counts (`[timing]` in [`merged_counters!`]).
pub struct Architectural<'a, T>(pub &'a T);

impl Serialize for Architectural<'_, u64> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<K: CountKey<N>, const N: usize> Serialize for Architectural<'_, Counts<K, N>> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

/// A fixed set of counters' keys: every value, each with an index and a name.
pub trait CountKey<const N: usize>: Copy {
    const ALL: [Self; N];
    fn index(self) -> usize;
    fn name(self) -> &'static str;
}

/// One count per key; serialized as a map from the keys' names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts<K, const N: usize>([u64; N], PhantomData<K>);

impl<K, const N: usize> Default for Counts<K, N> {
    fn default() -> Self {
        Counts([0; N], PhantomData)
    }
}

impl<K: CountKey<N>, const N: usize> Counts<K, N> {
    #[inline]
    pub fn add(&mut self, key: K, n: u64) {
        self.0[key.index()] += n;
    }

    pub fn get(&self, key: K) -> u64 {
        self.0[key.index()]
    }

    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }
}

impl<K, const N: usize> Merge for Counts<K, N> {
    fn merge(&mut self, other: &Self) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }
}

impl<K, const N: usize> Since for Counts<K, N> {
    fn since(&self, earlier: &Self) -> Self {
        Counts(
            std::array::from_fn(|i| self.0[i] - earlier.0[i]),
            PhantomData,
        )
    }
}

impl<K: CountKey<N>, const N: usize> Serialize for Counts<K, N> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(N))?;
        for k in K::ALL {
            map.serialize_entry(k.name(), &self.get(k))?;
        }
        map.end()
    }
}

impl<'de, K: CountKey<N>, const N: usize> Deserialize<'de> for Counts<K, N> {
    /// The map [`Serialize`] writes: every key's name once, no other.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let map = std::collections::BTreeMap::<String, u64>::deserialize(d)?;
        let mut counts = Counts::default();
        for (name, n) in &map {
            let key = K::ALL
                .into_iter()
                .find(|k| k.name() == name)
                .ok_or_else(|| {
                    let names: Vec<&str> = K::ALL.iter().map(|k| k.name()).collect();
                    D::Error::custom(format!(
                        "unknown count `{name}` (the counts: {})",
                        names.join(", ")
                    ))
                })?;
            counts.add(key, *n);
        }
        if let Some(k) = K::ALL.into_iter().find(|k| !map.contains_key(k.name())) {
            return Err(D::Error::custom(format!("missing count `{}`", k.name())));
        }
        Ok(counts)
    }
}

/// Counters kept for the whole run and per phase. Below
/// [`crate::mem::hierarchy::MemoryHierarchy::access`] a phase is a small dense index (the
/// hierarchy numbers the phases in the order it first sees them and maps them back in its
/// statistics); the whole-run counters are counted alongside, not summed, so that a test
/// can check that the phases add up to them.
#[derive(Clone, Debug, Default)]
pub struct Phased<T> {
    total: T,
    phases: Vec<T>,
}

impl<T: Clone + Default> Phased<T> {
    /// Apply `f` to the whole-run counters and to those of `phase`.
    #[inline]
    pub fn count(&mut self, phase: usize, f: impl Fn(&mut T)) {
        f(&mut self.total);
        if phase >= self.phases.len() {
            self.phases.resize_with(phase + 1, T::default);
        }
        f(&mut self.phases[phase]);
    }

    pub fn total(&self) -> &T {
        &self.total
    }

    /// Whole-run counters that belong to no phase.
    pub fn total_mut(&mut self) -> &mut T {
        &mut self.total
    }

    /// The counters of `phase` (zero if it saw no event).
    pub fn phase(&self, phase: usize) -> T {
        self.phases.get(phase).cloned().unwrap_or_default()
    }
}
