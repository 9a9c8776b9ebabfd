//! The sparse builtins: construction (`sparse`, `spzeros`, `spdiagm`, `sprand`), inspection
//! (`nnz`, `findnz`, `nonzeros`, `rowvals`, `issparse`) and `dropzeros`.

use super::*;
use crate::builtins::{to_size, Args};
use crate::error::ErrorKind;
use crate::eval::{fail, EvalResult, Flow, Interp};
use crate::show::ElType;
use crate::value::{SparseMatrix, Value};
use rand::Rng;
use sprs::{CsMat, TriMat};

/// A sparse matrix from triplets (1-based), duplicates summed (or'ed for `Bool` values).
fn from_triplets(
    interp: &Interp,
    is: &[i64],
    js: &[i64],
    vs: &[f64],
    eltype: ElType,
    m: usize,
    n: usize,
) -> EvalResult {
    if is.len() != js.len() || (vs.len() != is.len() && vs.len() != 1) {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!(
                "sparse(I, J, V): I, J and V must have the same length, got {}, {} and {}",
                is.len(),
                js.len(),
                vs.len()
            ),
        ));
    }
    // Three numbers per entry and an offset per column: `sparse([1], [10^12], [1.0])` is refused.
    interp.check_alloc(
        is.len()
            .saturating_mul(3)
            .saturating_add(n)
            .saturating_add(1),
    )?;
    let mut tri = TriMat::with_capacity((m, n), is.len());
    for k in 0..is.len() {
        let (r, c) = (is[k], js[k]);
        if r < 1 || c < 1 || r as usize > m || c as usize > n {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("sparse: index ({r}, {c}) is outside a {m}×{n} matrix"),
            ));
        }
        tri.add_triplet(
            r as usize - 1,
            c as usize - 1,
            vs[if vs.len() == 1 { 0 } else { k }],
        );
    }
    // Converting the triplets sums duplicates, as Julia's `sparse` does; stored zeros stay.
    let mut matrix: CsMat<f64> = tri.to_csc();
    if eltype == ElType::Bool {
        matrix.map_inplace(|&x| f64::from(u8::from(x != 0.0)));
    }
    Ok(sparse_value(matrix, eltype))
}

fn sparse_(interp: &mut Interp, args: Args) -> EvalResult {
    match args.pos.as_slice() {
        [scaling, rest @ ..]
            if !rest.is_empty()
                && rest.len() <= 2
                && crate::builtins::linalg::uniform::scale_of(scaling).is_some() =>
        {
            // `sparse(I, n)`, `sparse(I, m, n)` and `sparse(λI, m, n)`: λ on the diagonal.
            let scale = crate::builtins::linalg::uniform::scale_of(scaling).expect("checked");
            let (values, _) = numbers(&scale, "sparse")?;
            let m = to_size(&rest[0], "sparse")?;
            let n = rest.get(1).map(|v| to_size(v, "sparse")).transpose()?.unwrap_or(m);
            let k = m.min(n);
            interp.check_alloc(k + n)?;
            let diagonal: Vec<i64> = (1..=k as i64).collect();
            from_triplets(interp, &diagonal, &diagonal, &values, ElType::Float64, m, n)
        }
        [a] => {
            if let Value::Sparse(_) = a {
                return Ok(crate::builtins::arrays::deep_copy(a));
            }
            if carries_derivatives(a)? {
                // Inside a differentiated function: the dense copy, same values and derivatives.
                return Ok(crate::builtins::arrays::deep_copy(a));
            }
            let (m, eltype) = sparse_of_dense(a, "sparse")?;
            Ok(sparse_value(m, eltype))
        }
        [i, j, v, rest @ ..] => {
            let (is, js) = (ints(i, "sparse")?, ints(j, "sparse")?);
            let (vs, eltype) = numbers(v, "sparse")?;
            let (m, n) = match rest {
                [m, n] => (to_size(m, "sparse")?, to_size(n, "sparse")?),
                [] => (
                    is.iter().copied().max().unwrap_or(0).max(0) as usize,
                    js.iter().copied().max().unwrap_or(0).max(0) as usize,
                ),
                _ => {
                    return Err(fail(
                        ErrorKind::MethodError,
                        "sparse(I, J, V, m, n) takes no combining function here (duplicates are summed)",
                    ))
                }
            };
            from_triplets(interp, &is, &js, &vs, eltype, m, n)
        }
        _ => Err(fail(
            ErrorKind::MethodError,
            "no method matching sparse with these arguments: use sparse(A), sparse(I, J, V[, m, n]) or sparse(I, m, n)",
        )),
    }
}

/// Skips a leading element type (`spzeros(Float64, m, n)`), returning the rest and the type.
fn with_eltype(pos: &[Value]) -> (&[Value], ElType) {
    match pos.first() {
        Some(Value::Builtin(b)) if b.name == "Bool" => (&pos[1..], ElType::Bool),
        Some(Value::Builtin(b)) if b.name == "Float64" => (&pos[1..], ElType::Float64),
        _ => (pos, ElType::Float64),
    }
}

fn spzeros_(interp: &mut Interp, args: Args) -> EvalResult {
    let (pos, eltype) = with_eltype(&args.pos);
    let dims = crate::builtins::dims_from(pos, "spzeros")?;
    let (m, n) = match dims.as_slice() {
        [m, n] => (*m, *n),
        _ => {
            return Err(fail(
                ErrorKind::MethodError,
                "no method matching spzeros with these arguments: use spzeros(m, n)",
            ))
        }
    };
    interp.check_alloc(n + 1)?;
    Ok(sparse_value(super::empty_csc(m, n), eltype))
}

fn the_sparse<'a>(args: &'a Args, name: &str) -> Result<std::cell::Ref<'a, SparseMatrix>, Flow> {
    match args.pos.first() {
        Some(Value::Sparse(s)) => Ok(s.borrow()),
        Some(other) => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", other.type_name()),
        )),
        None => Err(fail(
            ErrorKind::MethodError,
            format!("{name} needs a sparse matrix"),
        )),
    }
}

fn nnz_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("nnz", 1, 1)?;
    Ok(Value::Int(the_sparse(&args, "nnz")?.matrix.nnz() as i64))
}

fn findnz_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("findnz", 1, 1)?;
    let s = the_sparse(&args, "findnz")?;
    let nnz = s.matrix.nnz();
    let (mut is, mut js, mut vs) = (
        Vec::with_capacity(nnz),
        Vec::with_capacity(nnz),
        Vec::with_capacity(nnz),
    );
    for (j, col) in s.matrix.outer_iterator().enumerate() {
        for (i, x) in col.iter() {
            is.push((i + 1) as f64);
            js.push((j + 1) as f64);
            vs.push(*x);
        }
    }
    Ok(Value::tuple(vec![
        crate::builtins::array(ElType::Int64, &[nnz], is),
        crate::builtins::array(ElType::Int64, &[nnz], js),
        crate::builtins::array(s.eltype, &[nnz], vs),
    ]))
}

fn nonzeros_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("nonzeros", 1, 1)?;
    let s = the_sparse(&args, "nonzeros")?;
    Ok(crate::builtins::array(
        s.eltype,
        &[s.matrix.nnz()],
        s.matrix.data().to_vec(),
    ))
}

fn rowvals_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("rowvals", 1, 1)?;
    let s = the_sparse(&args, "rowvals")?;
    Ok(crate::builtins::array(
        ElType::Int64,
        &[s.matrix.nnz()],
        s.matrix.indices().iter().map(|i| (i + 1) as f64).collect(),
    ))
}

fn issparse_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("issparse", 1, 1)?;
    Ok(Value::Bool(matches!(args.pos[0], Value::Sparse(_))))
}

fn dropzeros_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("dropzeros", 1, 1)?;
    let s = the_sparse(&args, "dropzeros")?;
    Ok(sparse_value(without_zeros(&s.matrix), s.eltype))
}

fn dropzeros_in_place(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("dropzeros!", 1, 1)?;
    let Value::Sparse(cell) = &args.pos[0] else {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching dropzeros!(::{})",
                args.pos[0].type_name()
            ),
        ));
    };
    let pruned = without_zeros(&cell.borrow().matrix);
    cell.borrow_mut().matrix = pruned;
    Ok(args.pos[0].clone())
}

fn sprand_(interp: &mut Interp, mut args: Args) -> EvalResult {
    crate::builtins::random::with_generator(interp, &mut args, sprand_with)
}

/// `sprand([rng,] [Bool,] m, n, p)` drawing from `rng`.
fn sprand_with(
    interp: &mut Interp,
    rng: &mut rand_xoshiro::Xoshiro256PlusPlus,
    args: &Args,
) -> EvalResult {
    // `sprand(Bool, m, n, p)` stores `true` at each drawn position.
    let (pos, eltype) = with_eltype(&args.pos);
    let [m, n, p] = pos else {
        return Err(fail(
            ErrorKind::MethodError,
            "no method matching sprand with these arguments: use sprand(m, n, p) or sprand(Bool, m, n, p)",
        ));
    };
    let (m, n) = (to_size(m, "sprand")?, to_size(n, "sprand")?);
    let p = crate::builtins::to_float(p, "sprand")?;
    if !(0.0..=1.0).contains(&p) {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!(
                "sprand: the density p must lie in [0, 1], got {}",
                crate::show::float(p)
            ),
        ));
    }
    let expected = (m as f64 * n as f64 * p).ceil() as usize;
    interp.check_alloc(expected.saturating_mul(2).saturating_add(n + 1))?;
    // Each entry is stored with probability p: the gaps between stored rows of a column are
    // geometric, so the cost is proportional to the number of entries, not to m·n.
    let mut indptr = Vec::with_capacity(n + 1);
    let (mut indices, mut data) = (Vec::new(), Vec::new());
    indptr.push(0);
    let log_q = (1.0 - p).ln();
    for _ in 0..n {
        if p > 0.0 {
            let mut i = 0usize;
            loop {
                if p < 1.0 {
                    let u: f64 = 1.0 - rng.random::<f64>();
                    let skip = (u.ln() / log_q).floor();
                    if !skip.is_finite() || skip >= (m - i.min(m)) as f64 {
                        break;
                    }
                    i += skip as usize;
                }
                if i >= m {
                    break;
                }
                indices.push(i);
                data.push(if eltype == ElType::Bool {
                    1.0
                } else {
                    rng.random::<f64>()
                });
                i += 1;
            }
        }
        indptr.push(indices.len());
    }
    Ok(sparse_value(
        CsMat::new_csc((m, n), indptr, indices, data),
        eltype,
    ))
}

/// `kron(A, B)` when either factor is sparse: the sparse Kronecker product (a dense factor
/// is taken by its nonzeros); `None` when neither is sparse.
pub(crate) fn sparse_kron(interp: &Interp, a: &Value, b: &Value) -> Option<EvalResult> {
    if !matches!(a, Value::Sparse(_)) && !matches!(b, Value::Sparse(_)) {
        return None;
    }
    let factor = |v: &Value| -> Result<(CsMat<f64>, ElType), Flow> {
        match v {
            Value::Sparse(s) => {
                let s = s.borrow();
                Ok((s.matrix.to_csc(), s.eltype))
            }
            other => sparse_of_dense(other, "kron"),
        }
    };
    Some((|| {
        let ((a, ea), (b, eb)) = (factor(a)?, factor(b)?);
        let (m, n) = (
            a.rows().saturating_mul(b.rows()),
            a.cols().saturating_mul(b.cols()),
        );
        interp.check_alloc(a.nnz().saturating_mul(b.nnz()).saturating_mul(3))?;
        let mut tri = TriMat::with_capacity((m, n), a.nnz() * b.nnz());
        for (&x, (ia, ja)) in a.iter() {
            for (&y, (ib, jb)) in b.iter() {
                tri.add_triplet(ia * b.rows() + ib, ja * b.cols() + jb, x * y);
            }
        }
        let eltype = if ea == ElType::Bool && eb == ElType::Bool {
            ElType::Bool
        } else {
            ElType::Float64
        };
        Ok(sparse_value(tri.to_csc(), eltype))
    })())
}

/// Whether `v` holds numbers carrying derivatives (or sparsity tracers), which a sparse
/// matrix cannot store: `sparse` and `spdiagm` then give the dense matrix instead, as a
/// differentiated function needs its values and derivatives more than the storage.
fn carries_derivatives(v: &Value) -> Result<bool, Flow> {
    Ok(operand(v)?.is_some_and(|o| !o.tensor().is_plain()))
}

fn spdiagm_(interp: &mut Interp, args: Args) -> EvalResult {
    let carried = args.pos.iter().try_fold(false, |any, a| {
        let values = a
            .pair_parts()
            .map_or_else(|| a.clone(), |(_, values)| values);
        Ok::<_, Flow>(any || carries_derivatives(&values)?)
    })?;
    if carried {
        return crate::builtins::call_named(interp, "diagm", args.pos.clone());
    }
    let (size, pairs) = crate::builtins::diagonal_pairs(&args.pos, "spdiagm")?;
    let mut diagonals = Vec::with_capacity(pairs.len());
    let mut all_bool = true;
    for (k, v) in pairs {
        let (values, eltype) = numbers(&v, "spdiagm")?;
        all_bool &= eltype == ElType::Bool;
        diagonals.push((k, values));
    }
    let (m, n) = size.unwrap_or_else(|| {
        let n = crate::builtins::diagonal_square(diagonals.iter().map(|(k, v)| (*k, v.len())));
        (n, n)
    });
    let total: usize = diagonals.iter().map(|(_, v)| v.len()).sum();
    interp.check_alloc(total.saturating_mul(3).saturating_add(n))?;
    let mut tri = TriMat::with_capacity((m, n), total);
    for (k, values) in &diagonals {
        let (i0, j0) = if *k >= 0 {
            (0, *k as usize)
        } else {
            (k.unsigned_abs() as usize, 0)
        };
        for (t, &x) in values.iter().enumerate() {
            let (i, j) = (i0 + t, j0 + t);
            if i >= m || j >= n {
                return Err(fail(
                    ErrorKind::DimensionMismatch,
                    format!(
                        "diagonal {k} of a {m}×{n} matrix is shorter than the {} values given",
                        values.len()
                    ),
                ));
            }
            tri.add_triplet(i, j, x);
        }
    }
    let eltype = if all_bool {
        ElType::Bool
    } else {
        ElType::Float64
    };
    Ok(sparse_value(tri.to_csc(), eltype))
}

crate::builtins! {
    "sparse" => sparse_, false, "    sparse(I, J, V, [m, n])\n    sparse(A)\n    sparse(I, n)\n\nA `SparseMatrixCSC{Float64, Int64}` with entries `V[k]` at `(I[k], J[k])` (1-based; duplicates are summed; a single value is repeated), or the nonzeros of a dense matrix, or the n×n identity (`I` is the identity function). Inside a differentiated function, `sparse(A)` of numbers carrying derivatives or sparsity tracers is a dense copy of `A` (a sparse matrix stores plain numbers only; the values and derivatives are the same).\n\n```\njulia> sparse([1, 2, 1], [1, 2, 1], [1.0, 2.0, 3.0], 2, 2)\n2×2 SparseMatrixCSC{Float64, Int64} with 2 stored entries:\n 4.0   ⋅ \n  ⋅   2.0\n```";
    "spzeros" => spzeros_, false, "    spzeros(m, n)\n\nAn m×n sparse matrix with no stored entries.\n\n```\njulia> nnz(spzeros(3, 3))\n0\n```";
    "spdiagm" => spdiagm_, false, "    spdiagm(v)\n    spdiagm(k => v, ...)\n    spdiagm(m, n, k => v, ...)\n\nA sparse matrix with `v` on its `k`-th diagonal. Inside a differentiated function, for numbers carrying derivatives or sparsity tracers, it is the dense `diagm` (a sparse matrix stores plain numbers only; the values and derivatives are the same).\n\n```\njulia> spdiagm(0 => [2.0, 2.0], 1 => [-1.0])\n2×2 SparseMatrixCSC{Float64, Int64} with 3 stored entries:\n 2.0  -1.0\n  ⋅    2.0\n```";
    "sprand" => sprand_, false, "    sprand([rng,] m, n, p)\n    sprand([rng,] Bool, m, n, p)\n\nA random m×n sparse matrix: each entry is stored with probability `p`, with a value uniform in [0, 1) (from the session's generator), or `true` for a `Bool` pattern.\n\n```\njulia> size(sprand(100, 50, 0.1))\n(100, 50)\n```";
    "nnz" => nnz_, false, "    nnz(A)\n\nThe number of stored entries of a sparse matrix.\n\n```\njulia> nnz(sparse([1, 2], [1, 2], [1.0, 2.0]))\n2\n```";
    "findnz" => findnz_, false, "    findnz(A)\n\n`(I, J, V)`: the row indices, column indices and values of the stored entries, column by column.\n\n```\njulia> findnz(sparse([2, 1], [1, 2], [5.0, 6.0]))\n([2, 1], [1, 2], [5.0, 6.0])\n```";
    "nonzeros" => nonzeros_, false, "    nonzeros(A)\n\nThe stored values, column by column.\n\n```\njulia> nonzeros(sparse([1], [1], [3.0]))\n1-element Vector{Float64}:\n 3.0\n```";
    "rowvals" => rowvals_, false, "    rowvals(A)\n\nThe row index of each stored value.\n\n```\njulia> rowvals(sparse([2], [1], [3.0]))\n1-element Vector{Int64}:\n 2\n```";
    "issparse" => issparse_, false, "    issparse(A)\n\nWhether `A` is a sparse matrix.\n\n```\njulia> issparse(spzeros(2, 2))\ntrue\n```";
    "dropzeros" => dropzeros_, false, "    dropzeros(A)\n\nA copy without the stored entries equal to zero.\n\n```\njulia> nnz(dropzeros(sparse([1, 2], [1, 2], [0.0, 1.0])))\n1\n```";
    "dropzeros!" => dropzeros_in_place, false, "    dropzeros!(A)\n\nRemoves the stored entries equal to zero from `A` itself, and returns it.\n\n```\njulia> A = sparse([1, 2], [1, 2], [0.0, 1.0]); dropzeros!(A); nnz(A)\n1\n```";
}
