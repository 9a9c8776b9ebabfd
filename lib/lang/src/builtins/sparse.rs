//! Sparse matrices (being written).

use crate::error::ErrorKind;
use crate::eval::{fail, EvalResult, Flow, Interp};
use crate::value::{SparseMatrix, Value};

/// `A.field`.
pub fn field(_: &SparseMatrix, name: &str) -> EvalResult {
    Err(fail(
        ErrorKind::ArgumentError,
        format!("type SparseMatrixCSC has no field {name}"),
    ))
}

/// `A[i, j]`.
pub fn index(_: &mut Interp, _: &SparseMatrix, _: &[Value]) -> EvalResult {
    Err(fail(
        ErrorKind::MethodError,
        "sparse indexing is not available yet",
    ))
}

/// `A[i, j] = v`.
pub fn set_index(_: &mut SparseMatrix, _: &[Value], _: &Value) -> Result<(), Flow> {
    Err(fail(
        ErrorKind::MethodError,
        "sparse assignment is not available yet",
    ))
}

/// `A'`.
pub fn transpose_value(_: &Value) -> EvalResult {
    Err(fail(
        ErrorKind::MethodError,
        "sparse transpose is not available yet",
    ))
}

/// Concatenation of sparse matrices.
pub fn cat(_: &[Value], _dim: usize) -> EvalResult {
    Err(fail(
        ErrorKind::MethodError,
        "sparse concatenation is not available yet",
    ))
}

/// `Matrix(A)`.
pub fn to_dense(_: &Value) -> EvalResult {
    Err(fail(
        ErrorKind::MethodError,
        "sparse to dense is not available yet",
    ))
}

crate::builtins! {}
