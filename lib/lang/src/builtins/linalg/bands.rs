//! LinearAlgebra's band matrices, `Bidiagonal`, `Tridiagonal` and `SymTridiagonal`, built as
//! plain matrices (as `Diagonal` is here): from their diagonals, placed with `diagm`, or from
//! the bands of a matrix, kept with a mask. Both are array operations, so every number kind
//! differentiates through them.

use super::construct::{diagm, uplo_is_upper, weighted};
use super::*;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::value::convert::{from_tensor, operand};
use crate::value::Value;

/// The length of vector argument `v` of `name`.
fn vector_length(v: &Value, name: &str) -> Result<usize, Flow> {
    match operand(v)?.map(|o| o.tensor().shape().to_vec()) {
        Some(shape) if shape.len() == 1 => Ok(shape[0]),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{}, …)", v.type_name()),
        )),
    }
}

/// The matrix with `diagonals` (`(k, vector)`) of an `n × n` matrix, after checking their
/// lengths as LinearAlgebra does.
fn banded(interp: &mut Interp, name: &str, n: usize, diagonals: &[(i64, &Value)]) -> EvalResult {
    for (k, v) in diagonals {
        // An off-diagonal of an empty matrix is empty too.
        let expected = if *k == 0 { n } else { n.saturating_sub(1) };
        let len = vector_length(v, name)?;
        if len != expected {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!("{name}: diagonal {k} has length {len}, expected {expected} for size {n}"),
            ));
        }
    }
    let size = Value::Int(n as i64);
    let mut pos = vec![size.clone(), size];
    pos.extend(
        diagonals
            .iter()
            .map(|(k, v)| Value::pair(Value::Int(*k), (*v).clone())),
    );
    diagm(interp, Args::positional(pos))
}

/// The entries of square matrix `a` whose offset `j - i` satisfies `keep`, the others zero.
fn band_of(interp: &mut Interp, a: &Value, name: &str, keep: impl Fn(i64) -> bool) -> EvalResult {
    let (t, eltype) = matrix_tensor(interp, a, name)?;
    match *t.shape() {
        [m, n] if m == n => {
            let kept = |i: usize, j: usize| f64::from(u8::from(keep(j as i64 - i as i64)));
            Ok(from_tensor(weighted(&t, (m, n), kept)?, eltype, false))
        }
        _ => Err(fail(
            ErrorKind::DimensionMismatch,
            format!("{name} needs a square matrix, got size {:?}", t.shape()),
        )),
    }
}

fn bidiagonal_(interp: &mut Interp, args: Args) -> EvalResult {
    const NAME: &str = "Bidiagonal";
    match args.pos.as_slice() {
        [dv, ev, uplo] => {
            let n = vector_length(dv, NAME)?;
            let k = if uplo_is_upper(uplo, NAME)? { 1 } else { -1 };
            banded(interp, NAME, n, &[(0, dv), (k, ev)])
        }
        [a, uplo] => {
            let up = uplo_is_upper(uplo, NAME)?;
            band_of(interp, a, NAME, |d| d == 0 || d == if up { 1 } else { -1 })
        }
        _ => Err(fail(
            ErrorKind::MethodError,
            "Bidiagonal takes (dv, ev, uplo) or (A, uplo)",
        )),
    }
}

fn tridiagonal_(interp: &mut Interp, args: Args) -> EvalResult {
    const NAME: &str = "Tridiagonal";
    match args.pos.as_slice() {
        [dl, d, du] => {
            let n = vector_length(d, NAME)?;
            banded(interp, NAME, n, &[(-1, dl), (0, d), (1, du)])
        }
        [a] => band_of(interp, a, NAME, |d| d.abs() <= 1),
        _ => Err(fail(
            ErrorKind::MethodError,
            "Tridiagonal takes (dl, d, du) or (A)",
        )),
    }
}

fn sym_tridiagonal_(interp: &mut Interp, args: Args) -> EvalResult {
    const NAME: &str = "SymTridiagonal";
    args.arity(NAME, 2, 2)?;
    let (dv, ev) = (&args.pos[0], &args.pos[1]);
    let n = vector_length(dv, NAME)?;
    banded(interp, NAME, n, &[(-1, ev), (0, dv), (1, ev)])
}

crate::builtins! {
    "Bidiagonal" => bidiagonal_, false, "    Bidiagonal(dv, ev, uplo)\n    Bidiagonal(A, uplo)\n\nThe square matrix with `dv` on its diagonal and `ev` on the superdiagonal (`uplo = :U`) or subdiagonal (`:L`), or those bands of the square matrix `A`. A plain `Matrix` here, not Julia's structured type; it differentiates.\n\n```\njulia> Bidiagonal([1.0, 2.0, 3.0], [4.0, 5.0], :U)\n3×3 Matrix{Float64}:\n 1.0  4.0  0.0\n 0.0  2.0  5.0\n 0.0  0.0  3.0\n```";
    "Tridiagonal" => tridiagonal_, false, "    Tridiagonal(dl, d, du)\n    Tridiagonal(A)\n\nThe square matrix with subdiagonal `dl`, diagonal `d` and superdiagonal `du`, or those bands of the square matrix `A`. A plain `Matrix` here, not Julia's structured type; it differentiates.\n\n```\njulia> Tridiagonal([1, 2], [3, 4, 5], [6, 7])\n3×3 Matrix{Int64}:\n 3  6  0\n 1  4  7\n 0  2  5\n```";
    "SymTridiagonal" => sym_tridiagonal_, false, "    SymTridiagonal(dv, ev)\n\nThe symmetric tridiagonal matrix with diagonal `dv` and `ev` above and below it. A plain `Matrix` here; it differentiates.\n\n```\njulia> SymTridiagonal([2.0, 2.0], [-1.0])\n2×2 Matrix{Float64}:\n  2.0  -1.0\n -1.0   2.0\n```";
}
