//! Properties of matrices computed with faer: `issymmetric`, `cond`, `rank` (plain numbers
//! only), `eigvals` and `eigvecs` (differentiable for symmetric matrices) and `svdvals`
//! (differentiable),
//! both traced for sparsity.

use super::*;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::Value;

fn issymmetric_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("issymmetric", 1, 1)?;
    if let Value::Sparse(s) = &args.pos[0] {
        let s = s.borrow();
        let m = &s.matrix;
        let symmetric = m.rows() == m.cols()
            && m.iter()
                .all(|(x, (i, j))| m.get(j, i).copied().unwrap_or(0.0) == *x);
        return Ok(Value::Bool(symmetric));
    }
    let (t, _) = matrix_tensor(interp, &args.pos[0], "issymmetric")?;
    let symmetric = match *t.shape() {
        [] => true,
        [m, n] if m == n => is_symmetric(n, &t.to_col_major()),
        [_, _] => false,
        _ => {
            return Err(fail(
                ErrorKind::MethodError,
                format!(
                    "no method matching issymmetric(::{})",
                    args.pos[0].type_name()
                ),
            ))
        }
    };
    Ok(Value::Bool(symmetric))
}

/// `isposdef(A)`: whether a square matrix is symmetric and has a Cholesky factorization, as
/// Julia decides it.
fn isposdef_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("isposdef", 1, 1)?;
    let (m, n, a) = plain_matrix(interp, &args.pos[0], "isposdef")?;
    if m != n || !is_symmetric(n, &a) {
        return Ok(Value::Bool(false));
    }
    let t = difflab_ad::Tensor::from_col_major(&[n, n], a);
    Ok(Value::Bool(super::cholesky::factor(&t).is_ok()))
}

/// Whether every entry of a plain matrix with `keep(i, j)` false is zero (`istril`, `istriu`,
/// `isdiag`).
fn zero_outside(
    interp: &mut Interp,
    args: &Args,
    name: &str,
    keep: fn(usize, usize) -> bool,
) -> EvalResult {
    args.arity(name, 1, 1)?;
    let (m, _, a) = plain_matrix(interp, &args.pos[0], name)?;
    Ok(Value::Bool(a.iter().enumerate().all(|(k, &x)| {
        x == 0.0 || keep(k % m.max(1), k / m.max(1))
    })))
}

fn istril_(interp: &mut Interp, args: Args) -> EvalResult {
    zero_outside(interp, &args, "istril", |i, j| i >= j)
}

fn istriu_(interp: &mut Interp, args: Args) -> EvalResult {
    zero_outside(interp, &args, "istriu", |i, j| i <= j)
}

fn isdiag_(interp: &mut Interp, args: Args) -> EvalResult {
    zero_outside(interp, &args, "isdiag", |i, j| i == j)
}

/// The singular values of a plain `m × n` matrix (column-major), largest first.
fn singular_values(
    a: &[f64],
    m: usize,
    n: usize,
    name: &str,
) -> Result<Vec<f64>, crate::error::Flow> {
    if m == 0 || n == 0 {
        return Ok(Vec::new());
    }
    let name = name.to_string();
    interruptible(a, move |a| {
        faer::MatRef::from_column_major_slice(a, m, n).singular_values()
    })?
    .map_err(|_| {
        fail(
            ErrorKind::ArgumentError,
            format!("{name}: the SVD did not converge"),
        )
    })
}

/// `rank(A; atol = 0, rtol = min(m, n) ε)`: the number of singular values above
/// `max(atol, rtol σ₁)`, as LinearAlgebra counts them.
fn rank_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("rank", 1, 1)?;
    args.keywords("rank", &["atol", "rtol"])?;
    let (m, n, a) = plain_matrix(interp, &args.pos[0], "rank")?;
    let s = singular_values(&a, m, n, "rank")?;
    let tolerance = |key: &str, default: f64| {
        args.kw(key)
            .map_or(Ok(default), |v| crate::builtins::to_float(v, "rank"))
    };
    let atol = tolerance("atol", 0.0)?;
    let rtol = tolerance("rtol", m.min(n) as f64 * f64::EPSILON)?;
    let threshold = atol.max(rtol * s.first().copied().unwrap_or(0.0));
    Ok(Value::Int(
        s.iter().filter(|&&x| x > threshold).count() as i64
    ))
}

fn cond_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("cond", 1, 2)?;
    let (m, n, a) = plain_matrix(interp, &args.pos[0], "cond")?;
    let p = args
        .pos
        .get(1)
        .map(|v| crate::builtins::to_float(v, "cond"))
        .transpose()?
        .unwrap_or(2.0);
    if p == 2.0 {
        if m == 0 || n == 0 {
            return Ok(Value::Float(0.0));
        }
        let s = singular_values(&a, m, n, "cond")?;
        let (max, min) = (s[0], s[s.len() - 1]);
        return Ok(Value::Float(if min == 0.0 {
            f64::INFINITY
        } else {
            max / min
        }));
    }
    if p != 1.0 && p != f64::INFINITY {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("cond: p must be 1, 2 or Inf, got {}", crate::show::float(p)),
        ));
    }
    if m != n {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!("matrix is not square: dimensions are ({m}, {n})"),
        ));
    }
    // ‖A‖₁ is the largest column sum of |A|, ‖A‖∞ the largest row sum.
    let norm = |x: &[f64]| -> f64 {
        let sums = (0..n).map(|o| {
            (0..n)
                .map(|i| {
                    if p == 1.0 {
                        x[i + o * n].abs()
                    } else {
                        x[o + i * n].abs()
                    }
                })
                .sum::<f64>()
        });
        sums.fold(0.0, f64::max)
    };
    match DenseLu::new(n, &a) {
        Ok(lu) => {
            let inverse = lu.apply_plain(&identity(n)?.to_col_major(), n, false)?;
            Ok(Value::Float(norm(&a) * norm(&inverse)))
        }
        Err(_) => Ok(Value::Float(f64::INFINITY)),
    }
}

/// The eigenvalues of a plain square matrix (column-major) in increasing order, as Julia sorts
/// them (symmetric matrices by the symmetric solver); `None` when some are complex.
pub(super) fn sorted_eigenvalues(n: usize, a: &[f64]) -> AdResult<Option<Vec<f64>>> {
    let failed = |_| AdError::Argument("the eigenvalue iteration did not converge".into());
    let mut values: Vec<f64> = if n == 0 {
        Vec::new()
    } else if is_symmetric(n, a) {
        interruptible(a, move |a| {
            faer::MatRef::from_column_major_slice(a, n, n)
                .self_adjoint_eigenvalues(faer::Side::Lower)
        })?
        .map_err(failed)?
    } else {
        let complex = interruptible(a, move |a| {
            faer::MatRef::from_column_major_slice(a, n, n).eigenvalues()
        })?
        .map_err(failed)?;
        if complex.iter().any(|z| z.im != 0.0) {
            return Ok(None);
        }
        complex.iter().map(|z| z.re).collect()
    };
    values.sort_by(f64::total_cmp);
    Ok(Some(values))
}

fn eigvals_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("eigvals", 1, 1)?;
    let (t, _) = matrix_tensor(interp, &args.pos[0], "eigvals")?;
    if t.tag().is_some() {
        let (values, _) = super::symmetric_eigen::symmetric_eigen(&t)?;
        return Ok(crate::value::convert::from_tensor(
            values,
            ElType::Float64,
            false,
        ));
    }
    if t.has_tracer() {
        let n = square_size(&t)?;
        return traced_values(&t, n, |a| {
            sorted_eigenvalues(n, a)?.ok_or_else(|| {
                fail(
                    ErrorKind::DomainError,
                    "eigvals: this matrix has complex eigenvalues, and difflab has no complex numbers",
                )
            })
        });
    }
    let (m, n, a) = plain_matrix(interp, &args.pos[0], "eigvals")?;
    if m != n {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!("matrix is not square: dimensions are ({m}, {n})"),
        ));
    }
    let values = sorted_eigenvalues(n, &a)?.ok_or_else(|| {
        fail(
            ErrorKind::DomainError,
            "eigvals: this matrix has complex eigenvalues, and difflab has no complex numbers",
        )
    })?;
    Ok(crate::builtins::array(ElType::Float64, &[n], values))
}

/// The `count` eigenvalues or singular values of a matrix of sparsity tracers: each depends on
/// every entry, and a local tracer keeps the values (`values` of the matrix's numbers).
/// `eigvecs(A)`: the eigenvectors of `eigen(A)`, as the columns of a matrix.
fn eigvecs_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("eigvecs", 1, 1)?;
    let factors = crate::builtins::call_named(interp, "eigen", args.pos)?;
    interp.field(&factors, difflab_syntax::name!("vectors"))
}

fn traced_values(
    t: &Tensor,
    count: usize,
    values: impl FnOnce(&[f64]) -> Result<Vec<f64>, crate::error::Flow>,
) -> EvalResult {
    let set = union_all(&tracer::sets_of(t));
    let primal = if t.is_global_tracer() {
        None
    } else {
        Some(values(&t.to_col_major())?)
    };
    let tracer = Tracer::new(&[count], vec![set; count], primal);
    Ok(crate::value::convert::from_tensor(
        Tensor::Tracer(Rc::new(tracer)),
        ElType::Float64,
        false,
    ))
}

/// `svdvals(A)`: the singular values, decreasing.
fn svdvals_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("svdvals", 1, 1)?;
    let (t, _) = matrix_tensor(interp, &args.pos[0], "svdvals")?;
    let (m, n) = match *t.shape() {
        [] => (1, 1),
        [m, n] => (m, n),
        _ => {
            return Err(fail(
                ErrorKind::MethodError,
                format!("no method matching svdvals(::{})", args.pos[0].type_name()),
            ))
        }
    };
    if t.tag().is_some() {
        let (_, s, _) = super::thin_svd::thin_svd(&ops::reshape(&t, &[m, n])?)?;
        return Ok(crate::value::convert::from_tensor(
            s,
            ElType::Float64,
            false,
        ));
    }
    if t.has_tracer() {
        return traced_values(&t, m.min(n), |a| singular_values(a, m, n, "svdvals"));
    }
    let s = singular_values(&t.to_col_major(), m, n, "svdvals")?;
    Ok(crate::builtins::array(ElType::Float64, &[s.len()], s))
}

crate::builtins! {
    "isposdef" => isposdef_, false, "    isposdef(A)\n\nWhether `A` is symmetric and positive definite (it has a Cholesky factorization).\n\n```\njulia> isposdef([2.0 1.0; 1.0 2.0])\ntrue\n\njulia> isposdef([1.0 2.0; 2.0 1.0])\nfalse\n```";
    "issymmetric" => issymmetric_, false, "    issymmetric(A)\n\nWhether a matrix equals its transpose exactly.\n\n```\njulia> issymmetric([1.0 2.0; 2.0 1.0])\ntrue\n```";
    "istril" => istril_, false, "    istril(A)\n\nWhether every entry above the diagonal of `A` is zero.\n\n```\njulia> istril([1 0; 2 3]), istril([1 2; 0 3])\n(true, false)\n```";
    "istriu" => istriu_, false, "    istriu(A)\n\nWhether every entry below the diagonal of `A` is zero.\n\n```\njulia> istriu([1 2; 0 3])\ntrue\n```";
    "isdiag" => isdiag_, false, "    isdiag(A)\n\nWhether every entry off the diagonal of `A` is zero.\n\n```\njulia> isdiag([1 0; 0 3]), isdiag([1 2; 0 3])\n(true, false)\n```";
    "svdvals" => svdvals_, false, "    svdvals(A)\n\nThe singular values of a matrix, decreasing. It differentiates under every backend but the symbolic one (see `svd`), and under sparsity detection each depends on every entry.\n\n```\njulia> svdvals([3.0 0.0; 0.0 -2.0])\n2-element Vector{Float64}:\n 3.0\n 2.0\n\njulia> gradient(x -> svdvals([x[1] x[2]; 0.0 0.0])[1], AutoForwardDiff(), [3.0, 4.0]) ≈ [0.6, 0.8]  # σ₁ = ‖x‖\ntrue\n```";
    "rank" => rank_, false, "    rank(A; atol = 0, rtol = min(m, n) * eps())\n\nThe numerical rank of `A`: the number of its singular values above `max(atol, rtol * σ₁)`.\n\n```\njulia> rank([1.0 2.0; 2.0 4.0]), rank([1.0 0.0; 0.0 1.0])\n(1, 2)\n```";
    "cond" => cond_, false, "    cond(A, p=2)\n\nThe condition number in the `p`-norm (`p` = 1, 2 or Inf): for p = 2 the ratio of the largest to the smallest singular value. Not differentiable.\n\n```\njulia> cond([1.0 0.0; 0.0 2.0])\n2.0\n```";
    "eigvecs" => eigvecs_, false, "    eigvecs(A)\n\nThe eigenvectors of `A` as the columns of a matrix, in the order of `eigvals(A)` (`eigen(A).vectors`; each is determined up to its sign). Differentiable for a symmetric matrix.\n\n```\njulia> V = eigvecs([2.0 0.0; 0.0 1.0]); abs.(V)\n2×2 Matrix{Float64}:\n 0.0  1.0\n 1.0  0.0\n```";
    "eigvals" => eigvals_, false, "    eigvals(A)\n\nThe eigenvalues of a square matrix in increasing order (symmetric matrices use the symmetric solver; complex eigenvalues are an error). It differentiates for symmetric matrices (see `eigen`), to any order, and under sparsity detection each eigenvalue depends on every entry.\n\n```\njulia> eigvals([2.0 1.0; 1.0 2.0])\n2-element Vector{Float64}:\n 1.0\n 3.0\n\njulia> hessian(x -> eigvals([x[1] x[2]; x[2] -x[1]])[2], AutoForwardDiff(), [3.0, 4.0])  # λ₂ = ‖x‖\n2×2 Matrix{Float64}:\n  0.128  -0.096\n -0.096   0.072\n```";
}
