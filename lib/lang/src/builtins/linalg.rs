//! Dense linear algebra (being written): `\`, `inv`, `det`, matrix powers.

use crate::error::ErrorKind;
use crate::eval::{fail, EvalResult, Interp};
use crate::value::Value;

/// `A \ b`.
pub fn solve(_: &mut Interp, _a: &Value, _b: &Value) -> EvalResult {
    Err(fail(ErrorKind::MethodError, "`\\` is not available yet"))
}

/// `A ^ k` for a square matrix.
pub fn matrix_power(_: &mut Interp, _a: &Value, _b: &Value) -> EvalResult {
    Err(fail(
        ErrorKind::MethodError,
        "matrix powers are not available yet",
    ))
}

/// `inv(A)` for a square matrix.
pub fn inv_matrix(_: &mut Interp, _a: &Value) -> EvalResult {
    Err(fail(
        ErrorKind::MethodError,
        "matrix inverse is not available yet",
    ))
}

crate::builtins! {}
