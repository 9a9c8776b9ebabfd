//! Functions of a whole matrix: `eigmax`, `eigmin`, `opnorm`, `logabsdet`, `pinv` and the
//! matrix exponential `exp(A)`, for every number kind.
//!
//! The extreme eigenvalues of a symmetric matrix carry their own rule (`∂λ/∂A = vvᵀ` for the
//! unit eigenvector `v`; every entry for sparsity); the others are built from primitives that
//! have rules (`det`, `inv`, products, sums), so they differentiate and trace as those do. The
//! exponential is a Taylor series with scaling and squaring, without an inverse.

use super::solve::{det_tensor, inv_tensor};
use super::spectral::sorted_eigenvalues;
use super::*;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::from_tensor;
use crate::value::Value;
use difflab_ad::reverse::{record_op, tracked_with, value_below, Rule};
use difflab_ad::tensor::col_major_slice;

/// The eigenvalues of a plain square matrix in increasing order; an error for complex ones.
fn eigen_plain(n: usize, a: &[f64]) -> AdResult<Vec<f64>> {
    sorted_eigenvalues(n, a)?.ok_or_else(|| {
        AdError::Argument(
            "the matrix has complex eigenvalues, and difflab has no complex numbers".into(),
        )
    })
}

/// `vvᵀ` for the unit eigenvector `v` of the largest (or smallest) eigenvalue of a plain
/// symmetric matrix: the gradient of that eigenvalue. For tracers, every entry depends on
/// every entry.
fn extreme_gradient(a: &Tensor, largest: bool) -> AdResult<Tensor> {
    let n = square_size(a)?;
    let Tensor::Plain(p) = a else {
        if a.has_tracer() && a.tag().is_none() {
            let set = union_all(&tracer::sets_of(a));
            let sets = vec![set; n * n];
            return Ok(Tensor::Tracer(Rc::new(Tracer::new(&[n, n], sets, None))));
        }
        return Err(AdError::Argument(
            "second derivatives of eigmax and eigmin are not available".into(),
        ));
    };
    let data = col_major_slice(p).into_owned();
    if !is_symmetric(n, &data) {
        return Err(AdError::Argument(
            "the derivative of eigmax and eigmin is available for symmetric matrices".into(),
        ));
    }
    let eigen = interruptible(&data, move |a| {
        faer::MatRef::from_column_major_slice(a, n, n).self_adjoint_eigen(faer::Side::Lower)
    })?
    .map_err(|_| AdError::Argument("the eigenvalue iteration did not converge".into()))?;
    // faer orders the eigenvalues increasingly.
    let column = if largest { n - 1 } else { 0 };
    let u = eigen.U();
    let v: Vec<f64> = (0..n).map(|i| u[(i, column)]).collect();
    let outer = (0..n * n).map(|k| v[k % n] * v[k / n]).collect();
    Ok(Tensor::from_col_major(&[n, n], outer))
}

/// The largest (or smallest) eigenvalue of a square matrix of any number kind.
fn extreme_eigenvalue(a: &Tensor, largest: bool) -> AdResult<Tensor> {
    let n = square_size(a)?;
    let pick = |values: Vec<f64>| {
        if largest {
            values.last().copied()
        } else {
            values.first().copied()
        }
        .unwrap_or(f64::NAN)
    };
    if let Tensor::Plain(p) = a {
        return Ok(Tensor::scalar(pick(eigen_plain(n, &col_major_slice(p))?)));
    }
    let Some(tag) = a.tag() else {
        let sets = vec![union_all(&tracer::sets_of(a))];
        let primal = if a.is_global_tracer() {
            None
        } else {
            Some(vec![pick(eigen_plain(n, &a.to_col_major())?)])
        };
        return Ok(Tensor::Tracer(Rc::new(Tracer::new(&[], sets, primal))));
    };
    if tracked_with(a, tag).is_some() {
        let va = value_below(a, tag).clone();
        let value = extreme_eigenvalue(&va, largest)?;
        let rule: Rule =
            Box::new(move |ct| ops::binary(BinaryFn::Mul, ct, &extreme_gradient(&va, largest)?));
        return Ok(record_op(tag, value, vec![(a, rule)], &[a], move |x| {
            extreme_eigenvalue(&x[0], largest)
        }));
    }
    let (va, pa) = a.split(tag);
    let value = extreme_eigenvalue(va, largest)?;
    let partials = match pa {
        Some(pa) if !pa.is_empty() => {
            let g = extreme_gradient(va, largest)?;
            pa.iter()
                .map(|p| ops::sum_all(&ops::binary(BinaryFn::Mul, &g, p)?))
                .collect::<AdResult<_>>()?
        }
        _ => Vec::new(),
    };
    Ok(Tensor::dual(tag, value, partials))
}

fn extreme(interp: &mut Interp, args: &Args, name: &str, largest: bool) -> EvalResult {
    args.arity(name, 1, 1)?;
    let (t, _) = matrix_tensor(interp, &args.pos[0], name)?;
    Ok(Value::from_scalar(extreme_eigenvalue(&t, largest)?))
}

fn eigmax_(interp: &mut Interp, args: Args) -> EvalResult {
    extreme(interp, &args, "eigmax", true)
}

fn eigmin_(interp: &mut Interp, args: Args) -> EvalResult {
    extreme(interp, &args, "eigmin", false)
}

/// The largest of the entries of a tensor, by `max` (so derivatives and patterns follow it).
fn largest_entry(t: &Tensor) -> AdResult<Tensor> {
    let shape = t.shape().to_vec();
    let flat = ops::reshape(t, &[shape.iter().product()])?;
    let mut best = ops::gather(&flat, &[0], &[])?;
    for k in 1..flat.len() {
        best = ops::binary(BinaryFn::Max, &best, &ops::gather(&flat, &[k], &[])?)?;
    }
    Ok(best)
}

/// `opnorm(A, p)`: the largest column sum of `|A|` (p = 1), the largest row sum (p = Inf), or
/// the largest singular value `√λmax(AᵀA)` (p = 2).
fn opnorm_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("opnorm", 1, 2)?;
    let (t, _) = matrix_tensor(interp, &args.pos[0], "opnorm")?;
    let a = as_matrix(&t)?;
    let p = match args.pos.get(1) {
        Some(v) => crate::builtins::to_float(v, "opnorm")?,
        None => 2.0,
    };
    if a.is_empty() {
        return Ok(Value::Float(0.0));
    }
    let norm = if p == 1.0 || p == f64::INFINITY {
        let dim = if p == 1.0 { 0 } else { 1 };
        largest_entry(&ops::sum_dims(&ops::unary(ops::UnaryFn::Abs, &a)?, &[dim])?)?
    } else if p == 2.0 {
        let gram = ops::matmul(&ops::transpose(&a)?, &a)?;
        ops::unary(ops::UnaryFn::Sqrt, &extreme_eigenvalue(&gram, true)?)?
    } else {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!(
                "opnorm: p must be 1, 2 or Inf, got {}",
                crate::show::float(p)
            ),
        ));
    };
    Ok(Value::from_scalar(norm))
}

/// `logabsdet(A) = (log|det(A)|, sign(det(A)))`.
fn logabsdet_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("logabsdet", 1, 1)?;
    let (t, _) = matrix_tensor(interp, &args.pos[0], "logabsdet")?;
    let d = det_tensor(&t)?;
    let magnitude = ops::unary(ops::UnaryFn::Abs, &d)?;
    let log = ops::unary(ops::UnaryFn::Log, &magnitude)?;
    let sign = ops::unary(ops::UnaryFn::Sign, &d)?;
    Ok(Value::tuple(vec![
        Value::from_scalar(log),
        Value::from_scalar(sign),
    ]))
}

/// `pinv(A)`: the Moore–Penrose inverse; from the SVD for plain numbers (rank-deficient
/// matrices too), `inv(A)`, `(AᵀA)⁻¹Aᵀ` or `Aᵀ(AAᵀ)⁻¹` (full rank) for numbers carrying
/// derivatives or tracers.
fn pinv_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("pinv", 1, 1)?;
    let (t, _) = matrix_tensor(interp, &args.pos[0], "pinv")?;
    Ok(from_tensor(pinv_tensor(&t)?, ElType::Float64, false))
}

/// The pseudo-inverse `A⁺` of a matrix of any number kind: least squares for plain numbers,
/// `(AᵀA)⁻¹Aᵀ` or `Aᵀ(AAᵀ)⁻¹` (full rank) for numbers carrying derivatives.
pub(crate) fn pinv_tensor(t: &Tensor) -> AdResult<Tensor> {
    let a = as_matrix(t)?;
    let (m, n) = matrix_size(&a)?;
    Ok(if a.is_plain() {
        let map = least_squares(m, n, &col_major_slice(a.primal()))?;
        apply_linear(&map, &identity(m)?, false)?
    } else if m == n {
        inv_tensor(&a)?
    } else {
        let at = ops::transpose(&a)?;
        if m > n {
            ops::matmul(&inv_tensor(&ops::matmul(&at, &a)?)?, &at)?
        } else {
            ops::matmul(&at, &inv_tensor(&ops::matmul(&a, &at)?)?)?
        }
    })
}

/// `exp(A)` for a square matrix: `(Σₖ₌₀ᵐ (A/2ˢ)ᵏ/k!)^(2ˢ)` with `2ˢ ≥ 2‖A‖₁` and m = 18 terms
/// (exact to rounding there); a tracing without values takes n terms, enough for every
/// pattern the series can have.
pub(crate) fn matrix_exp(t: &Tensor) -> AdResult<Tensor> {
    let n = square_size(t)?;
    let (squarings, terms) = if t.is_global_tracer() {
        (0, n.max(1))
    } else {
        let value = t.primal();
        let norm = (0..n)
            .map(|j| (0..n).map(|i| value[[i, j]].abs()).sum::<f64>())
            .fold(0.0, f64::max);
        let squarings = if norm > 0.5 {
            (2.0 * norm).log2().ceil().min(1000.0) as i32
        } else {
            0
        };
        (squarings, 18)
    };
    let scaled = ops::binary(BinaryFn::Mul, t, &Tensor::scalar(0.5f64.powi(squarings)))?;
    let mut term = identity(n)?;
    let mut sum = identity(n)?;
    for k in 1..=terms {
        term = ops::matmul(&term, &scaled)?;
        term = ops::binary(BinaryFn::Div, &term, &Tensor::scalar(k as f64))?;
        sum = ops::binary(BinaryFn::Add, &sum, &term)?;
    }
    for _ in 0..squarings {
        sum = ops::matmul(&sum, &sum)?;
    }
    Ok(sum)
}

crate::builtins! {
    "eigmax" => eigmax_, false, "    eigmax(A)\n\nThe largest eigenvalue of a square matrix with real eigenvalues. Differentiable for symmetric matrices (`∂λ/∂A = vvᵀ`, first order); it depends on every entry for sparsity detection.\n\n```\njulia> eigmax([2.0 1.0; 1.0 2.0])\n3.0\n```";
    "eigmin" => eigmin_, false, "    eigmin(A)\n\nThe smallest eigenvalue of a square matrix with real eigenvalues; differentiable as `eigmax`.\n\n```\njulia> eigmin([2.0 1.0; 1.0 2.0])\n1.0\n```";
    "opnorm" => opnorm_, false, "    opnorm(A, p = 2)\n\nThe operator norm: the largest singular value (p = 2), the largest column sum of `|A|` (p = 1) or row sum (p = Inf). Differentiable.\n\n```\njulia> opnorm([1.0 -2.0; 3.0 4.0], 1)\n6.0\n```";
    "logabsdet" => logabsdet_, false, "    logabsdet(A)\n\nThe tuple `(log|det(A)|, sign(det(A)))`; the first is differentiable.\n\n```\njulia> logabsdet([2.0 0.0; 0.0 -3.0])\n(1.791759469228055, -1.0)\n```";
    "pinv" => pinv_, false, "    pinv(A)\n\nThe Moore–Penrose pseudoinverse (from the SVD; singular values below the tolerance of `\\` are dropped). Differentiable for matrices of full rank.\n\n```\njulia> pinv([1.0 0.0; 0.0 2.0; 0.0 0.0])\n2×3 Matrix{Float64}:\n 1.0  0.0  0.0\n 0.0  0.5  0.0\n```";
}
