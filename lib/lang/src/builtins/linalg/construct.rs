//! Matrices built from others, all from `ad::ops` primitives (so they differentiate like any
//! other code): `diag`, `diagm`, `Diagonal`, `Symmetric`, `tr`, `kron`, `I`, `triu`, `tril`,
//! `cross` and `normalize`.

use super::*;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::{from_tensor, operand};
use crate::value::Value;
use difflab_ad::ops::{self, BinaryFn};
use difflab_ad::Tensor;

/// Positions of the `k`-th diagonal of an m×n matrix (column-major).
pub(super) fn diagonal_positions(m: usize, n: usize, k: i64) -> Vec<usize> {
    let (i0, j0) = if k >= 0 {
        (0, k as usize)
    } else {
        ((-k) as usize, 0)
    };
    (0..)
        .map(|t| (i0 + t, j0 + t))
        .take_while(|&(i, j)| i < m && j < n)
        .map(|(i, j)| i + j * m)
        .collect()
}

fn diag_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("diag", 1, 2)?;
    let k = args
        .pos
        .get(1)
        .map(|v| crate::builtins::to_int(v, "diag"))
        .transpose()?
        .unwrap_or(0);
    if let Value::Sparse(s) = &args.pos[0] {
        let s = s.borrow();
        let (m, n) = (s.matrix.rows(), s.matrix.cols());
        let values: Vec<f64> = diagonal_positions(m, n, k)
            .into_iter()
            .map(|p| s.matrix.get(p % m, p / m).copied().unwrap_or(0.0))
            .collect();
        return Ok(crate::builtins::array(s.eltype, &[values.len()], values));
    }
    let (t, eltype) = matrix_tensor(interp, &args.pos[0], "diag")?;
    let [m, n] = *t.shape() else {
        return Err(fail(
            ErrorKind::MethodError,
            format!("no method matching diag(::{})", args.pos[0].type_name()),
        ));
    };
    let pos = diagonal_positions(m, n, k);
    let d = ops::gather(&t, &pos, &[pos.len()])?;
    Ok(from_tensor(d, eltype, false))
}

fn tr_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("tr", 1, 1)?;
    if let Value::Sparse(s) = &args.pos[0] {
        let s = s.borrow();
        let (m, n) = (s.matrix.rows(), s.matrix.cols());
        if m != n {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!("matrix is not square: dimensions are ({m}, {n})"),
            ));
        }
        let sum = (0..n).filter_map(|i| s.matrix.get(i, i)).sum::<f64>();
        return Ok(Value::Float(sum));
    }
    let (t, eltype) = matrix_tensor(interp, &args.pos[0], "tr")?;
    if t.shape().is_empty() {
        return Ok(from_tensor(t, eltype, true));
    }
    Ok(from_tensor(trace(&t)?, eltype, true))
}

pub(super) fn diagm(interp: &mut Interp, args: Args) -> EvalResult {
    let (size, pairs) = crate::builtins::diagonal_pairs(&args.pos, "diagm")?;
    let mut diagonals = Vec::with_capacity(pairs.len());
    let mut eltype = ElType::Bool;
    for (k, v) in pairs {
        let o = operand(&v)?.ok_or_else(|| {
            fail(
                ErrorKind::MethodError,
                format!("no method matching diagm(::{})", v.type_name()),
            )
        })?;
        let t = o.tensor().clone();
        eltype = match (eltype, o.eltype) {
            (ElType::Float64, _) | (_, ElType::Float64) => ElType::Float64,
            (ElType::Int64, _) | (_, ElType::Int64) => ElType::Int64,
            _ => ElType::Bool,
        };
        let len = t.len();
        diagonals.push((k, ops::reshape(&t, &[len])?));
    }
    let (m, n) = size.unwrap_or_else(|| {
        let n = crate::builtins::diagonal_square(diagonals.iter().map(|(k, t)| (*k, t.len())));
        (n, n)
    });
    interp.check_alloc(m.saturating_mul(n))?;
    let mut out = Tensor::filled(&[m, n], 0.0);
    for (k, t) in &diagonals {
        let pos = diagonal_positions(m, n, *k);
        if pos.len() < t.len() {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!(
                    "diagonal {k} of a {m}×{n} matrix has {} entries, got {}",
                    pos.len(),
                    t.len()
                ),
            ));
        }
        out = ops::scatter(&out, &pos[..t.len()], t)?;
    }
    // Julia's `diagm` of a Bool vector is a Bool matrix; numbers stay Int or Float64.
    Ok(from_tensor(out, eltype, false))
}

fn kron_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("kron", 2, 2)?;
    if let Some(product) =
        crate::builtins::sparse::construct::sparse_kron(interp, &args.pos[0], &args.pos[1])
    {
        return product;
    }
    let (a, ea) = matrix_tensor(interp, &args.pos[0], "kron")?;
    let (b, eb) = matrix_tensor(interp, &args.pos[1], "kron")?;
    let dims = |t: &Tensor| match *t.shape() {
        [] => Ok((1, 1)),
        [m] => Ok((m, 1)),
        [m, n] => Ok((m, n)),
        _ => Err(fail(
            ErrorKind::MethodError,
            "kron needs vectors or matrices",
        )),
    };
    let ((ma, na), (mb, nb)) = (dims(&a)?, dims(&b)?);
    let (m, n) = (ma * mb, na * nb);
    interp.check_alloc(m.saturating_mul(n).saturating_mul(3))?;
    // Entry ((ia, ib), (ja, jb)) is A[ia, ja] * B[ib, jb]: gather each factor to the result's
    // shape and multiply elementwise, so every number kind differentiates through it.
    let mut from_a = Vec::with_capacity(m * n);
    let mut from_b = Vec::with_capacity(m * n);
    for ja in 0..na {
        for jb in 0..nb {
            for ia in 0..ma {
                for ib in 0..mb {
                    from_a.push(ia + ja * ma);
                    from_b.push(ib + jb * mb);
                }
            }
        }
    }
    let vectors = a.shape().len() <= 1 && b.shape().len() <= 1;
    let shape = if vectors { vec![m] } else { vec![m, n] };
    let out = ops::binary(
        BinaryFn::Mul,
        &ops::gather(&a, &from_a, &shape)?,
        &ops::gather(&b, &from_b, &shape)?,
    )?;
    let eltype = if ea == ElType::Float64 || eb == ElType::Float64 {
        ElType::Float64
    } else {
        ElType::Int64
    };
    Ok(from_tensor(out, eltype, false))
}

fn identity_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("I", 1, 1)?;
    let n = crate::builtins::to_size(&args.pos[0], "I")?;
    let matrix = from_tensor(identity(n)?, ElType::Bool, false);
    Ok(super::diagonal::marked(matrix))
}

/// `triu` and `tril`: keeps the entries with `j - i >= k` (upper) or `j - i <= k` (lower).
fn triangle(interp: &mut Interp, args: &Args, name: &str, upper: bool) -> EvalResult {
    args.arity(name, 1, 2)?;
    let k = args
        .pos
        .get(1)
        .map(|v| crate::builtins::to_int(v, name))
        .transpose()?
        .unwrap_or(0);
    let keep = |i: usize, j: usize| {
        let d = j as i64 - i as i64;
        if upper {
            d >= k
        } else {
            d <= k
        }
    };
    if let Value::Sparse(s) = &args.pos[0] {
        let s = s.borrow();
        let mut tri = sprs::TriMat::new((s.matrix.rows(), s.matrix.cols()));
        for (x, (i, j)) in s.matrix.iter() {
            if keep(i, j) {
                tri.add_triplet(i, j, *x);
            }
        }
        return Ok(crate::builtins::sparse::sparse_value(
            tri.to_csc(),
            s.eltype,
        ));
    }
    let (t, eltype) = matrix_tensor(interp, &args.pos[0], name)?;
    let [m, n] = *t.shape() else {
        return Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", args.pos[0].type_name()),
        ));
    };
    let kept = |i, j| f64::from(u8::from(keep(i, j)));
    Ok(from_tensor(weighted(&t, (m, n), kept)?, eltype, false))
}

/// Entry `(i, j)` of the `m × n` matrix `t` times `weight(i, j)` (a mask when the weights are
/// 0 and 1): a product with a constant matrix, so every number kind differentiates through it.
pub(super) fn weighted(
    t: &Tensor,
    (m, n): (usize, usize),
    weight: impl Fn(usize, usize) -> f64,
) -> AdResult<Tensor> {
    let mask = (0..m * n).map(|p| weight(p % m.max(1), p / m.max(1)));
    ops::binary(
        BinaryFn::Mul,
        t,
        &Tensor::from_col_major(&[m, n], mask.collect()),
    )
}

fn triu_(interp: &mut Interp, args: Args) -> EvalResult {
    triangle(interp, &args, "triu", true)
}

fn tril_(interp: &mut Interp, args: Args) -> EvalResult {
    triangle(interp, &args, "tril", false)
}

/// `UpperTriangular(A)`: `triu(A)` as a plain matrix (Julia's is a lazy wrapper type).
fn upper_triangular_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("UpperTriangular", 1, 1)?;
    triangle(interp, &args, "UpperTriangular", true)
}

/// `LowerTriangular(A)`: `tril(A)` as a plain matrix.
fn lower_triangular_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("LowerTriangular", 1, 1)?;
    triangle(interp, &args, "LowerTriangular", false)
}

/// `Diagonal(v)`: the square matrix with `v` on its diagonal; `Diagonal(A)`: `A`'s diagonal
/// alone. Both are plain matrices here (Julia's is a lazy wrapper type).
fn diagonal_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("Diagonal", 1, 1)?;
    let v = match &args.pos[0] {
        Value::Sparse(_) => diag_(interp, Args::positional(args.pos.clone()))?,
        other => {
            let (t, eltype) = matrix_tensor(interp, other, "Diagonal")?;
            match *t.shape() {
                [_] => other.clone(),
                [m, n] => {
                    let pos = diagonal_positions(m, n, 0);
                    from_tensor(ops::gather(&t, &pos, &[m.min(n)])?, eltype, false)
                }
                _ => {
                    return Err(fail(
                        ErrorKind::DimensionMismatch,
                        format!(
                            "Diagonal needs a vector or a square matrix, got size {:?}",
                            t.shape()
                        ),
                    ))
                }
            }
        }
    };
    let matrix = diagm(interp, Args::positional(vec![v]))?;
    Ok(super::diagonal::marked(matrix))
}

/// `Symmetric(A, uplo=:U)`: the symmetric matrix that mirrors `A`'s upper (`:U`) or lower
/// (`:L`) triangle, as a plain (dense or sparse) matrix rather than Julia's wrapper type.
fn symmetric_(interp: &mut Interp, args: Args) -> EvalResult {
    symmetric_from_triangle(interp, args, "Symmetric")
}

/// `Hermitian(A, uplo)`: for real matrices, `Symmetric`.
fn hermitian_(interp: &mut Interp, args: Args) -> EvalResult {
    symmetric_from_triangle(interp, args, "Hermitian")
}

/// `uplo` as LinearAlgebra takes it: `:U` is true, `:L` false, another symbol an
/// `ArgumentError`, and anything else has no method.
pub(super) fn uplo_is_upper(v: &Value, name: &str) -> Result<bool, Flow> {
    match v {
        Value::Symbol(s) if s.as_str() == "U" => Ok(true),
        Value::Symbol(s) if s.as_str() == "L" => Ok(false),
        Value::Symbol(_) => Err(fail(
            ErrorKind::ArgumentError,
            "uplo argument must be either :U (upper) or :L (lower)",
        )),
        other => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {name}(…, ::{}) (uplo is :U or :L)",
                other.type_name()
            ),
        )),
    }
}

fn symmetric_from_triangle(interp: &mut Interp, args: Args, name: &str) -> EvalResult {
    args.arity(name, 1, 2)?;
    let upper = match args.pos.get(1) {
        None => true,
        Some(uplo) => uplo_is_upper(uplo, name)?,
    };
    // Entry (i, j) comes from (min, max) for the upper triangle, (max, min) for the lower.
    let source = |i: usize, j: usize| {
        let (lo, hi) = (i.min(j), i.max(j));
        if upper {
            (lo, hi)
        } else {
            (hi, lo)
        }
    };
    let square = |m: usize, n: usize| {
        if m == n {
            Ok(n)
        } else {
            Err(fail(
                ErrorKind::DimensionMismatch,
                format!("matrix is not square: dimensions are ({m}, {n})"),
            ))
        }
    };
    if let Value::Sparse(s) = &args.pos[0] {
        let s = s.borrow();
        square(s.matrix.rows(), s.matrix.cols())?;
        let symmetric = crate::builtins::sparse::mirrored_triangle(s.matrix.view(), upper)?;
        return Ok(crate::builtins::sparse::sparse_value(symmetric, s.eltype));
    }
    let (t, eltype) = matrix_tensor(interp, &args.pos[0], name)?;
    let [m, n] = *t.shape() else {
        return Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", args.pos[0].type_name()),
        ));
    };
    let n = square(m, n)?;
    let pos: Vec<usize> = (0..n * n)
        .map(|p| {
            let (i, j) = source(p % n, p / n);
            i + j * n
        })
        .collect();
    Ok(from_tensor(ops::gather(&t, &pos, &[n, n])?, eltype, false))
}

/// `cross(a, b)`: the cross product of two 3-vectors, `a[[2,3,1]] .* b[[3,1,2]] -
/// a[[3,1,2]] .* b[[2,3,1]]`.
fn cross_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("cross", 2, 2)?;
    let vector = |v: &Value| -> Result<(Tensor, ElType), crate::error::Flow> {
        match operand(v)? {
            Some(o) if o.tensor().shape() == [3] => Ok((o.tensor().clone(), o.eltype)),
            _ => Err(fail(
                ErrorKind::DimensionMismatch,
                "cross product is only defined for vectors of length 3",
            )),
        }
    };
    let ((a, ea), (b, eb)) = (vector(&args.pos[0])?, vector(&args.pos[1])?);
    let rotated = |t: &Tensor, order: [usize; 3]| ops::gather(t, &order, &[3]);
    let first = ops::binary(
        BinaryFn::Mul,
        &rotated(&a, [1, 2, 0])?,
        &rotated(&b, [2, 0, 1])?,
    )?;
    let second = ops::binary(
        BinaryFn::Mul,
        &rotated(&a, [2, 0, 1])?,
        &rotated(&b, [1, 2, 0])?,
    )?;
    let eltype = if ea == ElType::Float64 || eb == ElType::Float64 {
        ElType::Float64
    } else {
        ElType::Int64
    };
    Ok(from_tensor(
        ops::binary(BinaryFn::Sub, &first, &second)?,
        eltype,
        false,
    ))
}

/// `normalize(v, p = 2)`: `v ./ norm(v, p)`.
fn normalize_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("normalize", 1, 2)?;
    let length = crate::builtins::call_named(interp, "norm", args.pos.clone())?;
    interp.binary(difflab_syntax::BinOp::Div, true, &args.pos[0], &length)
}

crate::builtins! {
    "cross" => cross_, false, "    cross(a, b)\n    a × b\n\nThe cross product of two vectors of length 3 (differentiable).\n\n```\njulia> cross([1, 0, 0], [0, 1, 0])\n3-element Vector{Int64}:\n 0\n 0\n 1\n```";
    "normalize" => normalize_, false, "    normalize(v, p = 2)\n\n`v` divided by its `p`-norm (differentiable).\n\n```\njulia> normalize([3.0, 4.0])\n2-element Vector{Float64}:\n 0.6\n 0.8\n```";
    "diag" => diag_, false, "    diag(A, k=0)\n\nThe `k`-th diagonal of a matrix as a vector.\n\n```\njulia> diag([1 2; 3 4])\n2-element Vector{Int64}:\n 1\n 4\n```";
    "diagm" => diagm, false, "    diagm(v)\n    diagm(k => v, ...)\n    diagm(m, n, k => v, ...)\n\nA matrix with `v` on its `k`-th diagonal (square unless m×n is given).\n\n```\njulia> diagm([1.0, 2.0])\n2×2 Matrix{Float64}:\n 1.0  0.0\n 0.0  2.0\n```";
    "Diagonal" => diagonal_, false, "    Diagonal(v)\n    Diagonal(A)\n\nJulia's `Diagonal` matrix: the vector `v` on the diagonal and zeros elsewhere, or the main diagonal of a matrix `A` (square, of the smaller side). It prints as Julia prints it, with `⋅` off the diagonal, and its type is `Diagonal{T, Vector{T}}` (a subtype of `AbstractMatrix`, not of `Matrix`); its numbers are stored densely here. Sums, differences and products of `Diagonal`s, products and quotients with a number, `-D`, `D'`, `transpose(D)`, `inv(D)` and `copy(D)` are `Diagonal`s; other operations give a `Matrix` (`Matrix(D)` converts). Writing a nonzero off the diagonal is an `ArgumentError`. It differentiates like `diagm`, and under sparsity detection `det`, `logdet`, `inv` and `exp` of it follow the rules of Julia's `Diagonal` (only distinct diagonal entries interact in `det`) while its off-diagonal entries stay constant.\n\n```\njulia> D = Diagonal([1.0, 2.0])\n2×2 Diagonal{Float64, Vector{Float64}}:\n 1.0   ⋅ \n  ⋅   2.0\n\njulia> 2D * D\n2×2 Diagonal{Float64, Vector{Float64}}:\n 2.0   ⋅ \n  ⋅   8.0\n\njulia> D + [0.0 1.0; 0.0 0.0]\n2×2 Matrix{Float64}:\n 1.0  1.0\n 0.0  2.0\n\njulia> Diagonal([1 2 3; 4 5 6])\n2×2 Diagonal{Int64, Vector{Int64}}:\n 1  ⋅\n ⋅  5\n```";
    "Symmetric" => symmetric_, false, "    Symmetric(A, uplo=:U)\n\nThe symmetric matrix whose upper (`:U`) or lower (`:L`) triangle is that of the square matrix `A`, mirrored across the diagonal. It is a plain (dense or sparse) matrix here, not Julia's wrapper type.\n\n```\njulia> Symmetric([1 2; 3 4])\n2×2 Matrix{Int64}:\n 1  2\n 2  4\n```";
    "tr" => tr_, false, "    tr(A)\n\nThe trace (sum of the diagonal).\n\n```\njulia> tr([1 2; 3 4])\n5\n```";
    "kron" => kron_, false, "    kron(A, B)\n\nThe Kronecker product (of two vectors: a vector). With a sparse factor the product is sparse.\n\n```\njulia> kron([1 0; 0 1], [1 2])\n2×4 Matrix{Int64}:\n 1  2  0  0\n 0  0  1  2\n```";
    "I" => identity_, false, "    I(n)\n\nThe n×n identity matrix, a `Diagonal{Bool, Vector{Bool}}` as in Julia (arithmetic promotes it: `2I(2)` holds `Int`s, `A + I(2)` is a `Matrix`). The bare `I` is Julia's uniform identity: `λ*I` scales it, and it takes the size of the square matrix it meets (`A + λ*I`, `A - I`, `I * x`, `I \\ b`; sparse `A` stays sparse); `(λ*I)(n)` is the n×n matrix.\n\n```\njulia> I(3)\n3×3 Diagonal{Bool, Vector{Bool}}:\n 1  ⋅  ⋅\n ⋅  1  ⋅\n ⋅  ⋅  1\n\njulia> [1.0 2.0; 3.0 4.0] + 2I\n2×2 Matrix{Float64}:\n 3.0  2.0\n 3.0  6.0\n```";
    "Hermitian" => hermitian_, false, "    Hermitian(A, uplo=:U)\n\nThe Hermitian matrix whose upper (`:U`) or lower (`:L`) triangle is that of the square matrix `A`; for real matrices (all of difflab's), the same as `Symmetric`, and a plain matrix.\n\n```\njulia> Hermitian([1.0 2.0; 3.0 4.0], :L)\n2×2 Matrix{Float64}:\n 1.0  3.0\n 3.0  4.0\n```";
    "UpperTriangular" => upper_triangular_, false, "    UpperTriangular(A)\n\nThe upper triangle of a matrix (the entries on and above the diagonal, the others zero), as a plain matrix of the same kind (`triu(A)`; Julia's is a lazy wrapper).\n\n```\njulia> UpperTriangular([1 2; 3 4])\n2×2 Matrix{Int64}:\n 1  2\n 0  4\n```";
    "LowerTriangular" => lower_triangular_, false, "    LowerTriangular(A)\n\nThe lower triangle of a matrix (the entries on and below the diagonal, the others zero), as a plain matrix of the same kind (`tril(A)`).\n\n```\njulia> LowerTriangular([1 2; 3 4])\n2×2 Matrix{Int64}:\n 1  0\n 3  4\n```";
    "triu" => triu_, false, "    triu(A, k=0)\n\nThe upper triangle of a matrix: the entries on and above the `k`-th diagonal, the others zero.\n\n```\njulia> triu([1 2; 3 4])\n2×2 Matrix{Int64}:\n 1  2\n 0  4\n```";
    "tril" => tril_, false, "    tril(A, k=0)\n\nThe lower triangle of a matrix: the entries on and below the `k`-th diagonal, the others zero.\n\n```\njulia> tril([1 2; 3 4])\n2×2 Matrix{Int64}:\n 1  0\n 3  4\n```";
}
