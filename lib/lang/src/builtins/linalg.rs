//! Dense linear algebra (being written): `\`, `inv`, `det`, matrix powers.

use crate::error::ErrorKind;
use crate::eval::{fail, EvalResult, Interp};
use crate::value::Value;

/// `A \ b`: dense square systems by LU with partial pivoting (plain numbers).
pub fn solve(_: &mut Interp, a: &Value, b: &Value) -> EvalResult {
    use crate::eval::operators::{from_tensor, operand};
    let (Some(ao), Some(bo)) = (operand(a), operand(b)) else {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching \\(::{}, ::{})",
                a.type_name(),
                b.type_name()
            ),
        ));
    };
    let (at, bt) = (ao.tensor(), bo.tensor());
    let n = match at.shape() {
        [m, n] if m == n => *n,
        shape => {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!("A \\ b needs a square matrix A, got size {shape:?}"),
            ))
        }
    };
    if bt.shape().first().copied().unwrap_or(1) != n {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!(
                "A has {n} rows but b has {}",
                bt.shape().first().copied().unwrap_or(1)
            ),
        ));
    }
    if !(at.is_plain() && bt.is_plain()) {
        return Err(fail(
            ErrorKind::MethodError,
            "`\\` has no derivative rule yet for numbers carrying derivatives",
        ));
    }
    let x = difflab_ad::solve::dense_solve(&at.to_col_major(), n, &bt.to_col_major()).ok_or_else(
        || {
            fail(
                ErrorKind::ArgumentError,
                "SingularException: the matrix is singular",
            )
        },
    )?;
    Ok(from_tensor(
        difflab_ad::Tensor::from_col_major(bt.shape(), x),
        crate::show::ElType::Float64,
        false,
    ))
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

fn identity_(interp: &mut Interp, args: crate::builtins::Args) -> EvalResult {
    args.arity("I", 1, 1)?;
    let n = crate::builtins::to_size(&args.pos[0], "I")?;
    interp.check_alloc(n.saturating_mul(n))?;
    let data = (0..n * n)
        .map(|k| if k % (n + 1) == 0 { 1.0 } else { 0.0 })
        .collect();
    Ok(crate::builtins::array(
        crate::show::ElType::Float64,
        &[n, n],
        data,
    ))
}

crate::builtins! {
    "I" => identity_, false, "    I(n)\n\nThe n×n identity matrix (dense).\n\n```\njulia> I(2)\n2×2 Matrix{Float64}:\n 1.0  0.0\n 0.0  1.0\n```";
}
