//! Sparse matrices whose structure is shared: the column pointers and row indices of a
//! [`SharedCsMat`] sit behind an `Rc`, so every sparse derivative computed from one
//! preparation holds the plan's pattern and owns only its values, as CasADi's matrices share
//! their sparsity. Copying a matrix copies its values; the index arrays are copied only when
//! one matrix's structure changes ([`into_owned`]).
//!
//! Building a matrix around arrays that were already checked skips sprs's check of the
//! structure (a pass over every index), which is why this module holds the crate's `unsafe`
//! blocks.
#![allow(unsafe_code)]

use sprs::{CompressedStorage, CsMat, CsMatBase};
use std::ops::Deref;
use std::rc::Rc;

/// An index array (column pointers or row indices) shared by the matrices of one pattern.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SharedIndices(Rc<Vec<usize>>);

impl Deref for SharedIndices {
    type Target = [usize];

    fn deref(&self) -> &[usize] {
        &self.0
    }
}

impl From<Vec<usize>> for SharedIndices {
    fn from(indices: Vec<usize>) -> SharedIndices {
        SharedIndices(Rc::new(indices))
    }
}

impl SharedIndices {
    /// The array, copied only when another matrix shares it.
    fn into_vec(self) -> Vec<usize> {
        Rc::try_unwrap(self.0).unwrap_or_else(|shared| shared.as_ref().clone())
    }
}

/// A compressed sparse matrix of `f64` with shared index arrays.
pub type SharedCsMat = CsMatBase<f64, usize, SharedIndices, SharedIndices, Vec<f64>>;

/// `matrix` with its index arrays moved behind an `Rc` (no copy).
pub fn share(matrix: CsMat<f64>) -> SharedCsMat {
    let (pattern, data) = SharedPattern::split(matrix);
    pattern.with_values(data)
}

/// The pattern of matrices that share it: storage order, shape and index arrays.
#[derive(Debug, Clone)]
pub struct SharedPattern {
    storage: CompressedStorage,
    shape: (usize, usize),
    indptr: SharedIndices,
    indices: SharedIndices,
}

impl SharedPattern {
    /// The pattern of `matrix` (its arrays moved, not copied).
    pub fn of(matrix: CsMat<f64>) -> SharedPattern {
        SharedPattern::split(matrix).0
    }

    fn split(matrix: CsMat<f64>) -> (SharedPattern, Vec<f64>) {
        let storage = matrix.storage();
        let shape = matrix.shape();
        let (indptr, indices, data) = matrix.into_raw_storage();
        let pattern = SharedPattern {
            storage,
            shape,
            indptr: indptr.into(),
            indices: indices.into(),
        };
        (pattern, data)
    }

    /// The number of rows and columns.
    pub fn shape(&self) -> (usize, usize) {
        self.shape
    }

    /// The number of stored entries.
    pub fn nnz(&self) -> usize {
        self.indices.len()
    }

    /// The matrix of this pattern holding `values` (in storage order), sharing its arrays.
    ///
    /// # Panics
    /// When `values` is not one number per stored entry (a caller's bug).
    pub fn with_values(&self, values: Vec<f64>) -> SharedCsMat {
        assert_eq!(values.len(), self.nnz(), "one value per stored entry");
        // SAFETY: the arrays are those of a valid matrix of this shape and storage (sprs
        // checked them when it was built), shared arrays are never written, and there is one
        // value per stored entry.
        unsafe {
            SharedCsMat::new_unchecked(
                self.storage,
                self.shape,
                self.indptr.clone(),
                self.indices.clone(),
                values,
            )
        }
    }
}

/// The matrix with arrays of its own, to change its structure (the index arrays are copied
/// only when another matrix shares them).
pub fn into_owned(matrix: SharedCsMat) -> CsMat<f64> {
    let storage = matrix.storage();
    let shape = matrix.shape();
    let (indptr, indices, data) = matrix.into_raw_storage();
    let (indptr, indices) = (indptr.into_vec(), indices.into_vec());
    // SAFETY: the arrays are those of a valid matrix of this shape and storage, unchanged.
    unsafe { CsMat::new_unchecked(storage, shape, indptr, indices, data) }
}

/// A sparse matrix that becomes a [`SharedCsMat`] without copying its arrays: one just
/// computed with arrays of its own, or one already shared.
pub trait IntoShared {
    /// The matrix with shared index arrays.
    fn into_shared(self) -> SharedCsMat;
}

impl IntoShared for CsMat<f64> {
    fn into_shared(self) -> SharedCsMat {
        share(self)
    }
}

impl IntoShared for SharedCsMat {
    fn into_shared(self) -> SharedCsMat {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bidiagonal() -> CsMat<f64> {
        CsMat::new_csc((3, 3), vec![0, 2, 4, 5], vec![0, 1, 1, 2, 2], vec![1.0; 5])
    }

    #[test]
    fn matrices_of_one_pattern_share_its_arrays_and_own_their_values() {
        let pattern = SharedPattern::of(bidiagonal());
        let a = pattern.with_values(vec![1.0, 2.0, 3.0, 4.0, 5.0]);
        let mut b = pattern.with_values(vec![0.0; 5]);
        assert_eq!(a.indices().as_ptr(), b.indices().as_ptr());
        assert_eq!(
            a.indptr().raw_storage().as_ptr(),
            b.indptr().raw_storage().as_ptr()
        );
        b.data_mut()[0] = 9.0;
        assert_eq!(a.get(0, 0), Some(&1.0));
        assert_eq!(a.get(2, 1), Some(&4.0));
    }

    #[test]
    fn owning_copies_the_arrays_only_when_shared() {
        let pattern = SharedPattern::of(bidiagonal());
        let shared = pattern.with_values(vec![1.0; 5]);
        let mut owned = into_owned(pattern.with_values(vec![2.0; 5]));
        assert_ne!(owned.indices().as_ptr(), shared.indices().as_ptr());
        owned.insert(0, 2, 7.0);
        assert_eq!((owned.nnz(), shared.nnz()), (6, 5));
        drop(pattern);
        let alone = shared.indices().as_ptr();
        assert_eq!(into_owned(shared).indices().as_ptr(), alone);
    }

    #[test]
    #[should_panic(expected = "one value per stored entry")]
    fn a_value_per_entry() {
        SharedPattern::of(bidiagonal()).with_values(vec![1.0; 4]);
    }
}
