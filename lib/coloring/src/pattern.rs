//! [`SparsityPattern`]: which entries of a matrix may be nonzero, stored column by column (CSC).
//!
//! Every constructor validates its input, so the rest of the crate may rely on sorted,
//! duplicate-free, in-bounds row indices. Values never live here: they travel beside the pattern
//! as a slice in the same CSC order (see [`crate::decompress_into`]). The graphs the coloring
//! algorithms walk are built from a pattern in [`crate::graph`].

use sprs::{CsMat, CsMatBase};
use std::ops::Deref;

use crate::error::ColoringError;

/// The nonzero structure of an `nrows × ncols` matrix in compressed sparse column form.
///
/// Column `j` holds the row indices `rowval[colptr[j]..colptr[j + 1]]`, strictly increasing.
/// The position of an entry in `rowval` is its position in every CSC value array that
/// accompanies this pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SparsityPattern {
    nrows: usize,
    ncols: usize,
    colptr: Vec<usize>,
    rowval: Vec<usize>,
}

impl SparsityPattern {
    /// Builds a pattern from raw CSC arrays, checking that `colptr` has `ncols + 1`
    /// non-decreasing entries from 0 to `rowval.len()` and that each column's rows are strictly
    /// increasing and below `nrows`.
    pub fn new(
        nrows: usize,
        ncols: usize,
        colptr: Vec<usize>,
        rowval: Vec<usize>,
    ) -> Result<Self, ColoringError> {
        if colptr.len() != ncols + 1 {
            return Err(ColoringError::ColptrLength {
                expected: ncols + 1,
                found: colptr.len(),
            });
        }
        if colptr[0] != 0 {
            return Err(ColoringError::ColptrInvalid { col: 0 });
        }
        if colptr[ncols] != rowval.len() {
            return Err(ColoringError::ColptrInvalid {
                col: ncols.saturating_sub(1),
            });
        }
        for j in 0..ncols {
            let (start, end) = (colptr[j], colptr[j + 1]);
            if start > end || end > rowval.len() {
                return Err(ColoringError::ColptrInvalid { col: j });
            }
            let rows = &rowval[start..end];
            if let Some(&row) = rows.iter().find(|&&i| i >= nrows) {
                return Err(ColoringError::IndexOutOfBounds {
                    row,
                    col: j,
                    nrows,
                    ncols,
                });
            }
            if rows.windows(2).any(|w| w[0] >= w[1]) {
                return Err(ColoringError::UnsortedColumn { col: j });
            }
        }
        Ok(Self {
            nrows,
            ncols,
            colptr,
            rowval,
        })
    }

    /// Builds a pattern from `(row, col)` pairs in any order; repeated pairs count once.
    pub fn from_entries(
        nrows: usize,
        ncols: usize,
        entries: &[(usize, usize)],
    ) -> Result<Self, ColoringError> {
        if let Some(&(row, col)) = entries.iter().find(|&&(i, j)| i >= nrows || j >= ncols) {
            return Err(ColoringError::IndexOutOfBounds {
                row,
                col,
                nrows,
                ncols,
            });
        }
        let mut sorted = entries.to_vec();
        sorted.sort_unstable_by_key(|&(i, j)| (j, i));
        sorted.dedup();
        Ok(Self::from_sorted_entries(nrows, ncols, &sorted))
    }

    /// Builds a pattern from a dense column-major mask: entry `(i, j)` is stored when
    /// `mask[i + j * nrows]` is true.
    pub fn from_dense_column_major(
        nrows: usize,
        ncols: usize,
        mask: &[bool],
    ) -> Result<Self, ColoringError> {
        if mask.len() != nrows * ncols {
            return Err(ColoringError::LengthMismatch {
                what: "dense mask",
                expected: nrows * ncols,
                found: mask.len(),
            });
        }
        let mut colptr = Vec::with_capacity(ncols + 1);
        let mut rowval = Vec::new();
        colptr.push(0);
        for column in mask.chunks(nrows.max(1)).take(ncols) {
            rowval.extend(
                column
                    .iter()
                    .enumerate()
                    .filter(|(_, &b)| b)
                    .map(|(i, _)| i),
            );
            colptr.push(rowval.len());
        }
        // A matrix with zero rows has `ncols` empty columns that `chunks` does not yield.
        colptr.resize(ncols + 1, rowval.len());
        Ok(Self {
            nrows,
            ncols,
            colptr,
            rowval,
        })
    }

    /// The structure of a `sprs` matrix (CSR or CSC): every stored entry, explicit zeros
    /// included. Use [`SparsityPattern::from_csmat_filtered`] to drop some stored values.
    pub fn from_csmat<N, Iptr, Ind, Data>(matrix: &CsMatBase<N, usize, Iptr, Ind, Data>) -> Self
    where
        Iptr: Deref<Target = [usize]>,
        Ind: Deref<Target = [usize]>,
        Data: Deref<Target = [N]>,
    {
        Self::from_csmat_filtered(matrix, |_| true)
    }

    /// The structure of a `sprs` matrix, keeping only the stored entries whose value satisfies
    /// `keep`. `SparsityPattern::from_csmat_filtered(&a, |v| *v != 0.0)` drops explicit zeros.
    pub fn from_csmat_filtered<N, Iptr, Ind, Data>(
        matrix: &CsMatBase<N, usize, Iptr, Ind, Data>,
        keep: impl Fn(&N) -> bool,
    ) -> Self
    where
        Iptr: Deref<Target = [usize]>,
        Ind: Deref<Target = [usize]>,
        Data: Deref<Target = [N]>,
    {
        let (nrows, ncols) = (matrix.rows(), matrix.cols());
        let mut entries = Vec::with_capacity(matrix.nnz());
        for (outer, lane) in matrix.outer_iterator().enumerate() {
            for (inner, value) in lane.iter() {
                if keep(value) {
                    let (i, j) = if matrix.is_csc() {
                        (inner, outer)
                    } else {
                        (outer, inner)
                    };
                    entries.push((i, j));
                }
            }
        }
        if matrix.is_csr() {
            entries.sort_unstable_by_key(|&(i, j)| (j, i));
        }
        entries.dedup();
        Self::from_sorted_entries(nrows, ncols, &entries)
    }

    /// The pattern of the `n × n` identity matrix.
    pub fn identity(n: usize) -> Self {
        Self {
            nrows: n,
            ncols: n,
            colptr: (0..=n).collect(),
            rowval: (0..n).collect(),
        }
    }

    /// Entries sorted by `(col, row)`, in bounds and without repetition.
    fn from_sorted_entries(nrows: usize, ncols: usize, entries: &[(usize, usize)]) -> Self {
        let mut colptr = vec![0; ncols + 1];
        for &(_, j) in entries {
            colptr[j + 1] += 1;
        }
        for j in 0..ncols {
            colptr[j + 1] += colptr[j];
        }
        let rowval = entries.iter().map(|&(i, _)| i).collect();
        Self {
            nrows,
            ncols,
            colptr,
            rowval,
        }
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.nrows
    }

    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.ncols
    }

    /// `(nrows, ncols)`.
    pub fn shape(&self) -> (usize, usize) {
        (self.nrows, self.ncols)
    }

    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.rowval.len()
    }

    /// Column pointers (`ncols + 1` entries).
    pub fn colptr(&self) -> &[usize] {
        &self.colptr
    }

    /// Row index of every stored entry, column by column.
    pub fn rowval(&self) -> &[usize] {
        &self.rowval
    }

    /// Sorted row indices of column `j`.
    ///
    /// # Panics
    /// If `j >= ncols`.
    pub fn column(&self, j: usize) -> &[usize] {
        &self.rowval[self.colptr[j]..self.colptr[j + 1]]
    }

    /// Position of entry `(i, j)` in CSC order, if it is stored.
    pub fn position(&self, i: usize, j: usize) -> Option<usize> {
        if j >= self.ncols {
            return None;
        }
        let start = self.colptr[j];
        self.column(j).binary_search(&i).ok().map(|k| start + k)
    }

    /// Whether entry `(i, j)` is stored.
    pub fn contains(&self, i: usize, j: usize) -> bool {
        self.position(i, j).is_some()
    }

    /// `(row, col)` of every stored entry in CSC order.
    pub fn entries(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.ncols).flat_map(move |j| self.column(j).iter().map(move |&i| (i, j)))
    }

    /// The pattern of the transposed matrix.
    pub fn transpose(&self) -> Self {
        let mut colptr = vec![0; self.nrows + 1];
        for &i in &self.rowval {
            colptr[i + 1] += 1;
        }
        for i in 0..self.nrows {
            colptr[i + 1] += colptr[i];
        }
        let mut next = colptr.clone();
        let mut rowval = vec![0; self.nnz()];
        // Visiting columns in increasing order keeps every transposed column sorted.
        for (i, j) in self.entries() {
            rowval[next[i]] = j;
            next[i] += 1;
        }
        Self {
            nrows: self.ncols,
            ncols: self.nrows,
            colptr,
            rowval,
        }
    }

    /// The first stored entry `(i, j)` whose mirror `(j, i)` is missing, if any. A square
    /// pattern without such an entry is structurally symmetric.
    pub fn first_asymmetry(&self) -> Option<(usize, usize)> {
        if self.nrows == self.ncols && self.transpose() == *self {
            return None;
        }
        self.entries().find(|&(i, j)| !self.contains(j, i))
    }

    /// For a structurally symmetric pattern: the CSC position of the mirror `(j, i)` of every
    /// stored entry `(i, j)`.
    pub(crate) fn mirror_positions(&self) -> Vec<usize> {
        self.mirror_in(self)
    }

    /// The position in `transposed` (the transpose of `self`, or `self` when symmetric) of
    /// the mirror `(j, i)` of every stored entry `(i, j)`, in CSC order.
    pub(crate) fn mirror_in(&self, transposed: &SparsityPattern) -> Vec<usize> {
        let mut next = transposed.colptr[..transposed.ncols].to_vec();
        let mut mirror = vec![0; self.nnz()];
        // Entries come column by column with increasing rows, so the entries reaching column
        // i do so in increasing order of their column, which is the row order of column i.
        for (k, &i) in self.rowval.iter().enumerate() {
            mirror[k] = next[i];
            next[i] += 1;
        }
        mirror
    }

    /// Whether the pattern is square and structurally symmetric.
    pub fn is_symmetric(&self) -> bool {
        self.nrows == self.ncols && self.first_asymmetry().is_none()
    }

    /// A `sprs` CSC matrix with this pattern and the given values (in CSC order).
    pub fn to_csmat(&self, values: Vec<f64>) -> Result<CsMat<f64>, ColoringError> {
        if values.len() != self.nnz() {
            return Err(ColoringError::LengthMismatch {
                what: "nonzero values",
                expected: self.nnz(),
                found: values.len(),
            });
        }
        // The pattern was validated on construction, so `sprs` accepts it; the error branch
        // only guards against a future change of its rules.
        CsMat::try_new_csc(
            self.shape(),
            self.colptr.clone(),
            self.rowval.clone(),
            values,
        )
        .map_err(|_| ColoringError::UnsortedColumn { col: 0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_agree() {
        let mask = [true, false, true, true, false, false];
        let dense = SparsityPattern::from_dense_column_major(2, 3, &mask).unwrap();
        let entries =
            SparsityPattern::from_entries(2, 3, &[(1, 1), (0, 0), (0, 1), (0, 1)]).unwrap();
        assert_eq!(dense, entries);
        let raw = SparsityPattern::new(2, 3, vec![0, 1, 3, 3], vec![0, 0, 1]).unwrap();
        assert_eq!(raw, dense);
        let csr = CsMat::new((2, 3), vec![0, 2, 3], vec![0, 1, 1], vec![1.0, 2.0, 0.0]);
        assert_eq!(SparsityPattern::from_csmat(&csr), dense);
        let dropped = SparsityPattern::from_csmat_filtered(&csr, |v| *v != 0.0);
        assert_eq!(dropped.nnz(), 2);
        assert_eq!(dense.transpose().transpose(), dense);
    }

    #[test]
    fn invalid_inputs_are_errors() {
        assert_eq!(
            SparsityPattern::new(2, 2, vec![0, 2, 1], vec![0, 1]),
            Err(ColoringError::ColptrInvalid { col: 1 })
        );
        assert_eq!(
            SparsityPattern::new(2, 1, vec![0, 2], vec![1, 0]),
            Err(ColoringError::UnsortedColumn { col: 0 })
        );
        assert!(matches!(
            SparsityPattern::new(2, 1, vec![0, 1], vec![2]),
            Err(ColoringError::IndexOutOfBounds { .. })
        ));
        assert!(matches!(
            SparsityPattern::from_entries(2, 2, &[(0, 2)]),
            Err(ColoringError::IndexOutOfBounds { .. })
        ));
        assert!(matches!(
            SparsityPattern::from_dense_column_major(2, 2, &[true]),
            Err(ColoringError::LengthMismatch { .. })
        ));
        let empty = SparsityPattern::from_dense_column_major(0, 3, &[]).unwrap();
        assert_eq!(empty.colptr(), &[0, 0, 0, 0]);
    }

    #[test]
    fn symmetry() {
        let s = SparsityPattern::from_entries(3, 3, &[(0, 0), (1, 0), (0, 1), (2, 1)]).unwrap();
        assert_eq!(s.first_asymmetry(), Some((2, 1)));
        assert!(!s.is_symmetric());
        assert!(SparsityPattern::identity(4).is_symmetric());
    }
}
