//! How an input names its vertices: the id a file gives each vertex against the index
//! the graph uses (`0..V`), so that options such as `--source` can be given in the
//! file's own ids.

/// A graph's vertex ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VertexIds {
    /// The ids are the indices: generators, SNAP files whose ids are already `0..V`,
    /// files written by wsim.
    Indices,
    /// Matrix Market's 1-based row and column numbers: id = index + 1.
    OneBased,
    /// A SNAP file's sparse ids, ascending: index `i` is the `i`-th smallest id.
    Sparse(Vec<u64>),
}

impl VertexIds {
    /// The id of the vertex with index `index`.
    pub fn id(&self, index: u32) -> u64 {
        match self {
            VertexIds::Indices => u64::from(index),
            VertexIds::OneBased => u64::from(index) + 1,
            VertexIds::Sparse(ids) => ids[index as usize],
        }
    }

    /// The index of the vertex the input calls `id`, in a graph of `vertices` vertices.
    pub fn index(&self, id: u64, vertices: u32) -> Option<u32> {
        let index = match self {
            VertexIds::Indices => id,
            VertexIds::OneBased => id.checked_sub(1)?,
            VertexIds::Sparse(ids) => ids.binary_search(&id).ok()? as u64,
        };
        u32::try_from(index).ok().filter(|&i| i < vertices)
    }

    /// The ids a graph of `vertices` vertices has, for messages: `0..=9`, `1..=10`, or
    /// `10 ids from 3 to 93`.
    pub fn describe(&self, vertices: u32) -> String {
        match self {
            VertexIds::Sparse(ids) => format!(
                "{} ids from {} to {}",
                ids.len(),
                ids.first().copied().unwrap_or(0),
                ids.last().copied().unwrap_or(0)
            ),
            _ => format!("{}..={}", self.id(0), self.id(vertices - 1)),
        }
    }

    /// Whether ids and indices differ.
    pub fn relabelled(&self) -> bool {
        *self != VertexIds::Indices
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_indices_map_both_ways() {
        let sparse = VertexIds::Sparse(vec![3, 13, 23]);
        assert_eq!((sparse.id(1), sparse.index(13, 3)), (13, Some(1)));
        assert_eq!(sparse.index(4, 3), None);
        assert_eq!(sparse.describe(3), "3 ids from 3 to 23");
        let one = VertexIds::OneBased;
        assert_eq!(
            (one.id(0), one.index(1, 5), one.index(0, 5)),
            (1, Some(0), None)
        );
        assert_eq!((one.index(5, 5), one.index(6, 5)), (Some(4), None));
        assert_eq!(one.describe(5), "1..=5");
        assert_eq!(VertexIds::Indices.index(1 << 40, 5), None);
        assert_eq!(VertexIds::Indices.describe(5), "0..=4");
    }
}
