//! The sparse builtins: construction (`sparse`, `spzeros`, `spdiagm`, `sprand`), inspection
//! (`nnz`, `findnz`, `nonzeros`, `rowvals`, `issparse`) and `dropzeros`.

use super::*;
use crate::builtins::{to_size, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
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
) -> Result<CsMat<f64>, Flow> {
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
    Ok(matrix)
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
            let matrix =
                from_triplets(interp, &diagonal, &diagonal, &values, ElType::Float64, m, n)?;
            Ok(sparse_value(matrix, ElType::Float64))
        }
        [a] => {
            if let Value::Sparse(_) = a {
                return Ok(crate::builtins::arrays::deep_copy(a));
            }
            if carries_derivatives(a)? {
                return super::traced::from_dense(a);
            }
            let (m, eltype) = sparse_of_dense(a, "sparse")?;
            if crate::builtins::arrays::shape_of_value(a).is_some_and(|s| s.len() == 1) {
                return Ok(sparse_vector_value(m, eltype));
            }
            Ok(sparse_value(m, eltype))
        }
        [i, j, v, rest @ ..] => {
            let (is, js) = (ints(i, "sparse")?, ints(j, "sparse")?);
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
            if carries_derivatives(v)? {
                return super::traced::from_triplets(interp, &is, &js, v, m, n, false);
            }
            let (vs, eltype) = numbers(v, "sparse")?;
            Ok(sparse_value(
                from_triplets(interp, &is, &js, &vs, eltype, m, n)?,
                eltype,
            ))
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
    let (m, n) =
        match dims.as_slice() {
            [m, n] => (*m, *n),
            [n] => return Ok(sparse_vector_value(super::empty_csc(*n, 1), eltype)),
            _ => return Err(fail(
                ErrorKind::MethodError,
                "no method matching spzeros with these arguments: use spzeros(n) or spzeros(m, n)",
            )),
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
    if let Some(result) = super::traced::inspect(&args.pos[0], "nnz") {
        return result;
    }
    Ok(Value::Int(the_sparse(&args, "nnz")?.matrix.nnz() as i64))
}

fn findnz_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("findnz", 1, 1)?;
    if let Some(result) = super::traced::inspect(&args.pos[0], "findnz") {
        return result;
    }
    let s = the_sparse(&args, "findnz")?;
    let nnz = s.matrix.nnz();
    if s.vector {
        return Ok(Value::tuple(vec![
            ints_of(s.matrix.indices()),
            crate::builtins::array(s.eltype, &[nnz], s.matrix.data().to_vec()),
        ]));
    }
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
    if let Some(result) = super::traced::inspect(&args.pos[0], "nonzeros") {
        return result;
    }
    let s = the_sparse(&args, "nonzeros")?;
    Ok(crate::builtins::array(
        s.eltype,
        &[s.matrix.nnz()],
        s.matrix.data().to_vec(),
    ))
}

/// 0-based positions as Julia's 1-based `Vector{Int64}`.
fn ints_of(positions: &[usize]) -> Value {
    crate::builtins::array(
        ElType::Int64,
        &[positions.len()],
        positions.iter().map(|i| (i + 1) as f64).collect(),
    )
}

/// `rowvals(A)` of a matrix (`of_vector` false) or `nonzeroinds(x)` of a vector: the 1-based
/// indices of the stored entries along the first dimension.
fn stored_indices(args: &Args, name: &str, of_vector: bool, instead: &str) -> EvalResult {
    args.arity(name, 1, 1)?;
    if let Some(result) = super::traced::inspect(&args.pos[0], name) {
        return result;
    }
    let s = the_sparse(args, name)?;
    if s.vector != of_vector {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {name}(::{}): use {instead}",
                s.type_name()
            ),
        ));
    }
    Ok(ints_of(s.matrix.indices()))
}

fn rowvals_(_: &mut Interp, args: Args) -> EvalResult {
    stored_indices(&args, "rowvals", false, "nonzeroinds(x) or x.nzind")
}

fn nonzeroinds_(_: &mut Interp, args: Args) -> EvalResult {
    stored_indices(&args, "nonzeroinds", true, "rowvals(A) or findnz(A)")
}

fn issparse_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("issparse", 1, 1)?;
    Ok(Value::Bool(
        matches!(args.pos[0], Value::Sparse(_)) || super::traced::is_traced_sparse(&args.pos[0]),
    ))
}

fn dropzeros_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("dropzeros", 1, 1)?;
    let s = the_sparse(&args, "dropzeros")?;
    Ok(sparse_like(&s, without_zeros(s.matrix.view()), s.eltype))
}

/// Keeps only the stored entries of the sparse first argument that `keep` accepts, in place.
fn prune_in_place(args: &Args, name: &str, keep: impl Fn(f64) -> bool) -> EvalResult {
    let Value::Sparse(cell) = &args.pos[0] else {
        return Err(args.no_method(name));
    };
    let pruned = super::keeping(cell.borrow().matrix.view(), keep);
    cell.borrow_mut().matrix = pruned.into_shared();
    Ok(args.pos[0].clone())
}

fn dropzeros_in_place(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("dropzeros!", 1, 1)?;
    prune_in_place(&args, "dropzeros!", |x| x != 0.0)
}

/// `droptol!(A, tol)`: removes the stored entries of magnitude at most `tol`.
fn droptol_in_place(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("droptol!", 2, 2)?;
    let tol = crate::builtins::to_float(&args.pos[1], "droptol!")?;
    prune_in_place(&args, "droptol!", |x| x.abs() > tol)
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
    let (m, n, p) = match pos {
        [m, n, p] => (to_size(m, "sprand")?, to_size(n, "sprand")?, p),
        [m, p] => (to_size(m, "sprand")?, 1, p),
        _ => return Err(fail(
            ErrorKind::MethodError,
            "no method matching sprand with these arguments: use sprand(m, n, p), sprand(n, p) or sprand(Bool, m, n, p)",
        )),
    };
    let vector = pos.len() == 2;
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
    let matrix = CsMat::new_csc((m, n), indptr, indices, data);
    Ok(if vector {
        sparse_vector_value(matrix, eltype)
    } else {
        sparse_value(matrix, eltype)
    })
}

/// `sparsevec(I, V, [n])` (duplicates summed) and `sparsevec(v)` of a dense vector.
fn sparsevec_(interp: &mut Interp, args: Args) -> EvalResult {
    match args.pos.as_slice() {
        [v] => {
            if let Value::Sparse(s) = v {
                if s.borrow().vector {
                    return Ok(crate::builtins::arrays::deep_copy(v));
                }
            }
            let vector = crate::builtins::arrays::shape_of_value(v).is_some_and(|s| s.len() == 1);
            if carries_derivatives(v)? && vector {
                return super::traced::from_dense(v);
            }
            let (column, eltype) = sparse_of_dense(v, "sparsevec")?;
            if column.cols() != 1 {
                return Err(fail(
                    ErrorKind::MethodError,
                    "sparsevec(A) takes a vector: use sparse(A) for a matrix, or sparsevec(vec(A))",
                ));
            }
            Ok(sparse_vector_value(column, eltype))
        }
        [i, v, rest @ ..] if rest.len() <= 1 => {
            let is = ints(i, "sparsevec")?;
            let n = match rest {
                [n] => to_size(n, "sparsevec")?,
                _ => is.iter().copied().max().unwrap_or(0).max(0) as usize,
            };
            let js = vec![1; is.len()];
            if carries_derivatives(v)? {
                return super::traced::from_triplets(interp, &is, &js, v, n, 1, true);
            }
            let (vs, eltype) = numbers(v, "sparsevec")?;
            if vs.len() != is.len() && vs.len() != 1 {
                return Err(fail(
                    ErrorKind::ArgumentError,
                    format!(
                        "sparsevec(I, V): I and V must have the same length, got {} and {}",
                        is.len(),
                        vs.len()
                    ),
                ));
            }
            let column = from_triplets(interp, &is, &js, &vs, eltype, n, 1)?;
            Ok(sparse_vector_value(column, eltype))
        }
        _ => Err(fail(
            ErrorKind::MethodError,
            "no method matching sparsevec with these arguments: use sparsevec(I, V[, n]) or sparsevec(v)",
        )),
    }
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
/// matrix cannot store: `sparse`, `sparsevec` and `spdiagm` then give a dense array marked
/// sparse (`traced`).
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
        return super::traced::diagonals(interp, &args.pos);
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
    "sparse" => sparse_, false, "    sparse(I, J, V, [m, n])\n    sparse(A)\n    sparse(I, n)\n\nA `SparseMatrixCSC{Float64, Int64}` with entries `V[k]` at `(I[k], J[k])` (1-based; duplicates are summed; a single value is repeated), or the nonzeros of a dense matrix (of a vector: a `SparseVector`), or the n×n identity (`I` is the identity function). Inside a differentiated function, `sparse` of numbers carrying derivatives or sparsity tracers keeps every number and computes as the dense matrix, while `nnz`, `nonzeros` and the fields see the entries Julia's `SparseMatrixCSC` of duals would store.\n\n```\njulia> sparse([1, 2, 1], [1, 2, 1], [1.0, 2.0, 3.0], 2, 2)\n2×2 SparseMatrixCSC{Float64, Int64} with 2 stored entries:\n 4.0   ⋅ \n  ⋅   2.0\n```";
    "spzeros" => spzeros_, false, "    spzeros(m, n)\n    spzeros(n)\n\nAn m×n sparse matrix, or a sparse vector of length n, with no stored entries.\n\n```\njulia> nnz(spzeros(3, 3))\n0\n\njulia> spzeros(4)\n4-element SparseVector{Float64, Int64} with 0 stored entries\n```";
    "sparsevec" => sparsevec_, false, "    sparsevec(I, V, [n])\n    sparsevec(v)\n\nA `SparseVector{Float64, Int64}` of length `n` with entries `V[k]` at `I[k]` (duplicates are summed; `n` defaults to the largest index), or the nonzeros of a dense vector. `sparse(v)` of a vector is the same. Its fields are `n`, `nzind` and `nzval`; `findnz(x)` gives `(nzind, nzval)`.\n\n```\njulia> x = sparsevec([1, 4], [2.5, -1.0], 5)\n5-element SparseVector{Float64, Int64} with 2 stored entries:\n  [1]  =  2.5\n  [4]  =  -1.0\n\njulia> dot(x, [1.0, 2.0, 3.0, 4.0, 5.0])\n-1.5\n```";
    "nonzeroinds" => nonzeroinds_, false, "    nonzeroinds(x)\n\nThe indices of the stored entries of a sparse vector (its field `nzind`).\n\n```\njulia> nonzeroinds(sparse([0.0, 3.0, 0.0, 4.0]))\n2-element Vector{Int64}:\n 2\n 4\n```";
    "spdiagm" => spdiagm_, false, "    spdiagm(v)\n    spdiagm(k => v, ...)\n    spdiagm(m, n, k => v, ...)\n\nA sparse matrix with `v` on its `k`-th diagonal. Inside a differentiated function, for numbers carrying derivatives or sparsity tracers, it computes as the dense `diagm` and stores the diagonals given.\n\n```\njulia> spdiagm(0 => [2.0, 2.0], 1 => [-1.0])\n2×2 SparseMatrixCSC{Float64, Int64} with 3 stored entries:\n 2.0  -1.0\n  ⋅    2.0\n```";
    "sprand" => sprand_, false, "    sprand([rng,] m, n, p)\n    sprand([rng,] Bool, m, n, p)\n    sprand([rng,] n, p)\n\nA random m×n sparse matrix (or sparse vector of length n): each entry is stored with probability `p`, with a value uniform in [0, 1) (from the session's generator), or `true` for a `Bool` pattern.\n\n```\njulia> size(sprand(100, 50, 0.1))\n(100, 50)\n```";
    "nnz" => nnz_, false, "    nnz(A)\n\nThe number of stored entries of a sparse matrix or vector.\n\n```\njulia> nnz(sparse([1, 2], [1, 2], [1.0, 2.0]))\n2\n```";
    "findnz" => findnz_, false, "    findnz(A)\n\n`(I, J, V)`: the row indices, column indices and values of the stored entries, column by column; for a sparse vector `(I, V)`.\n\n```\njulia> findnz(sparse([2, 1], [1, 2], [5.0, 6.0]))\n([2, 1], [1, 2], [5.0, 6.0])\n```";
    "nonzeros" => nonzeros_, false, "    nonzeros(A)\n\nThe stored values, column by column.\n\n```\njulia> nonzeros(sparse([1], [1], [3.0]))\n1-element Vector{Float64}:\n 3.0\n```";
    "rowvals" => rowvals_, false, "    rowvals(A)\n\nThe row index of each stored value.\n\n```\njulia> rowvals(sparse([2], [1], [3.0]))\n1-element Vector{Int64}:\n 2\n```";
    "issparse" => issparse_, false, "    issparse(A)\n\nWhether `A` is a sparse matrix or a sparse vector.\n\n```\njulia> issparse(spzeros(2, 2))\ntrue\n```";
    "dropzeros" => dropzeros_, false, "    dropzeros(A)\n\nA copy without the stored entries equal to zero.\n\n```\njulia> nnz(dropzeros(sparse([1, 2], [1, 2], [0.0, 1.0])))\n1\n```";
    "droptol!" => droptol_in_place, false, "    droptol!(A, tol)\n\nRemoves the stored entries of `A` whose magnitude is at most `tol`, in place, and returns `A`.\n\n```\njulia> A = sparse([1.0 1e-12; 0.0 2.0]); droptol!(A, 1e-10); nnz(A)\n2\n```";
    "dropzeros!" => dropzeros_in_place, false, "    dropzeros!(A)\n\nRemoves the stored entries equal to zero from `A` itself, and returns it.\n\n```\njulia> A = sparse([1, 2], [1, 2], [0.0, 1.0]); dropzeros!(A); nnz(A)\n1\n```";
}
