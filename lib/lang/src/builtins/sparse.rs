//! Sparse matrices (`SparseMatrixCSC{Float64, Int64}`, sprs underneath): construction
//! (`sparse`, `spzeros`), inspection (`nnz`, `findnz`, `nonzeros`, `rowvals`, `issparse`),
//! `dropzeros`, conversion to dense, indexing, transposition and concatenation.

use super::{to_size, Args};
use crate::error::ErrorKind;
use crate::eval::iterate::elements;
use crate::eval::operators::operand;
use crate::eval::{fail, EvalResult, Flow, Interp};
use crate::show::ElType;
use crate::value::{SparseMatrix, Value};
use sprs::{CsMat, TriMat};
use std::cell::RefCell;
use std::rc::Rc;

/// A sparse matrix value.
pub fn sparse_value(matrix: CsMat<f64>, eltype: ElType) -> Value {
    let matrix = if matrix.is_csc() {
        matrix
    } else {
        matrix.to_csc()
    };
    Value::Sparse(Rc::new(RefCell::new(SparseMatrix { matrix, eltype })))
}

fn ints(v: &Value, name: &str) -> Result<Vec<i64>, Flow> {
    elements(v)?
        .iter()
        .map(|x| super::to_int(x, name))
        .collect()
}

fn numbers(v: &Value) -> Result<(Vec<f64>, ElType), Flow> {
    if v.is_number() {
        return Ok((vec![super::to_float(v, "sparse")?], ElType::Float64));
    }
    let o = operand(v).ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("sparse: expected numbers, got a {}", v.type_name()),
        )
    })?;
    Ok((o.tensor().to_col_major(), o.eltype))
}

/// `A.field`: `m`, `n`, `colptr`, `rowval`, `nzval` (1-based, as Julia's fields).
pub fn field(s: &SparseMatrix, name: &str) -> EvalResult {
    let m = &s.matrix;
    let as_ints = |v: Vec<usize>| {
        let n = v.len();
        super::array(
            ElType::Int64,
            &[n],
            v.into_iter().map(|k| (k + 1) as f64).collect(),
        )
    };
    match name {
        "m" => Ok(Value::Int(m.rows() as i64)),
        "n" => Ok(Value::Int(m.cols() as i64)),
        "colptr" => Ok(as_ints(m.indptr().raw_storage().to_vec())),
        "rowval" => Ok(as_ints(m.indices().to_vec())),
        "nzval" => Ok(super::array(ElType::Float64, &[m.nnz()], m.data().to_vec())),
        _ => Err(fail(ErrorKind::ArgumentError, format!("type SparseMatrixCSC has no field {name}; its fields are m, n, colptr, rowval, nzval"))),
    }
}

fn position(v: &Value, extent: usize) -> Result<usize, Flow> {
    let i = super::to_int(v, "getindex")?;
    if i < 1 || i as usize > extent {
        return Err(fail(
            ErrorKind::BoundsError,
            format!("attempt to access a dimension of length {extent} at index [{i}]"),
        ));
    }
    Ok(i as usize - 1)
}

/// `A[i, j]` (numbers); other index forms go through the dense matrix.
pub fn index(interp: &mut Interp, s: &SparseMatrix, indices: &[Value]) -> EvalResult {
    let m = &s.matrix;
    if let [i, j] = indices {
        if let (Value::Int(_), Value::Int(_)) = (i, j) {
            let (i, j) = (position(i, m.rows())?, position(j, m.cols())?);
            let x = m.get(i, j).copied().unwrap_or(0.0);
            return Ok(crate::eval::iterate::number(s.eltype, x));
        }
    }
    let dense = dense_of(s);
    interp.index_value(&dense, indices)
}

/// `A[i, j] = v`, inserting a structural entry when needed.
pub fn set_index(s: &mut SparseMatrix, indices: &[Value], v: &Value) -> Result<(), Flow> {
    let [i, j] = indices else {
        return Err(fail(
            ErrorKind::ArgumentError,
            "sparse assignment takes A[i, j] = value",
        ));
    };
    let (i, j) = (position(i, s.matrix.rows())?, position(j, s.matrix.cols())?);
    let x = super::to_float(v, "setindex!")?;
    if let Some(slot) = s.matrix.get_mut(i, j) {
        *slot = x;
    } else {
        s.matrix.insert(i, j, x);
    }
    Ok(())
}

fn dense_of(s: &SparseMatrix) -> Value {
    let (m, n) = (s.matrix.rows(), s.matrix.cols());
    let mut data = vec![0.0; m * n];
    for (x, (i, j)) in s.matrix.iter() {
        data[i + j * m] += *x;
    }
    super::array(s.eltype, &[m, n], data)
}

/// `Matrix(A)`.
pub fn to_dense(v: &Value) -> EvalResult {
    match v {
        Value::Sparse(s) => Ok(dense_of(&s.borrow())),
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching Matrix(::{})", other.type_name()),
        )),
    }
}

/// `A'`.
pub fn transpose_value(v: &Value) -> EvalResult {
    match v {
        Value::Sparse(s) => {
            let s = s.borrow();
            Ok(sparse_value(s.matrix.transpose_view().to_csc(), s.eltype))
        }
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching adjoint(::{})", other.type_name()),
        )),
    }
}

/// `[A; B]` and `[A B]` of sparse matrices.
pub fn cat(values: &[Value], dim: usize) -> EvalResult {
    let mats: Vec<CsMat<f64>> = values
        .iter()
        .map(|v| match v {
            Value::Sparse(s) => Ok(s.borrow().matrix.clone()),
            other => Err(fail(
                ErrorKind::MethodError,
                format!(
                    "cannot concatenate a sparse matrix with a {}",
                    other.type_name()
                ),
            )),
        })
        .collect::<Result<_, _>>()?;
    let views: Vec<_> = mats.iter().map(|m| m.view()).collect();
    let out = match dim {
        0 if mats.iter().all(|m| m.cols() == mats[0].cols()) => sprs::vstack(&views),
        1 if mats.iter().all(|m| m.rows() == mats[0].rows()) => sprs::hstack(&views),
        _ => {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                "sparse matrices of mismatched sizes cannot be concatenated",
            ))
        }
    };
    Ok(sparse_value(out, ElType::Float64))
}

fn sparse_(interp: &mut Interp, args: Args) -> EvalResult {
    match args.pos.as_slice() {
        [a] => {
            if let Value::Sparse(_) = a {
                return Ok(super::arrays::deep_copy(a));
            }
            let o = operand(a).ok_or_else(|| {
                fail(
                    ErrorKind::MethodError,
                    format!("no method matching sparse(::{})", a.type_name()),
                )
            })?;
            let t = o.tensor();
            let (m, n) = match t.shape() {
                [m] => (*m, 1),
                [m, n] => (*m, *n),
                _ => {
                    return Err(fail(
                        ErrorKind::ArgumentError,
                        "sparse needs a vector or a matrix",
                    ))
                }
            };
            let data = t.to_col_major();
            let mut tri = TriMat::new((m, n));
            for (k, &x) in data.iter().enumerate() {
                if x != 0.0 {
                    tri.add_triplet(k % m, k / m, x);
                }
            }
            Ok(sparse_value(
                tri.to_csc(),
                if o.eltype == ElType::Bool {
                    ElType::Bool
                } else {
                    ElType::Float64
                },
            ))
        }
        [i, j, v, rest @ ..] => {
            let (is, js) = (ints(i, "sparse")?, ints(j, "sparse")?);
            let (vs, eltype) = numbers(v)?;
            if is.len() != js.len() || (vs.len() != is.len() && vs.len() != 1) {
                return Err(fail(
                    ErrorKind::ArgumentError,
                    "sparse(I, J, V): I, J and V must have the same length",
                ));
            }
            let (m, n) = match rest {
                [m, n] => (to_size(m, "sparse")?, to_size(n, "sparse")?),
                [] => (
                    is.iter().copied().max().unwrap_or(0).max(0) as usize,
                    js.iter().copied().max().unwrap_or(0).max(0) as usize,
                ),
                _ => return Err(fail(ErrorKind::MethodError, "sparse(I, J, V, m, n)")),
            };
            interp.check_alloc(is.len())?;
            let mut tri = TriMat::new((m, n));
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
            // TriMat sums duplicates when converted, as Julia's sparse does.
            Ok(sparse_value(
                tri.to_csc(),
                if eltype == ElType::Bool {
                    ElType::Bool
                } else {
                    ElType::Float64
                },
            ))
        }
        _ => Err(fail(
            ErrorKind::MethodError,
            "sparse(A) or sparse(I, J, V, m, n)",
        )),
    }
}

fn spzeros_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("spzeros", 2, 2)?;
    let (m, n) = (
        to_size(&args.pos[0], "spzeros")?,
        to_size(&args.pos[1], "spzeros")?,
    );
    interp.check_alloc(n + 1)?;
    Ok(sparse_value(CsMat::zero((m, n)).to_csc(), ElType::Float64))
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
    let (mut is, mut js, mut vs) = (Vec::new(), Vec::new(), Vec::new());
    for (j, col) in s.matrix.outer_iterator().enumerate() {
        for (i, x) in col.iter() {
            is.push((i + 1) as f64);
            js.push((j + 1) as f64);
            vs.push(*x);
        }
    }
    let n = is.len();
    Ok(Value::Tuple(Rc::new(vec![
        super::array(ElType::Int64, &[n], is),
        super::array(ElType::Int64, &[n], js),
        super::array(s.eltype, &[n], vs),
    ])))
}

fn nonzeros_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("nonzeros", 1, 1)?;
    let s = the_sparse(&args, "nonzeros")?;
    Ok(super::array(
        s.eltype,
        &[s.matrix.nnz()],
        s.matrix.data().to_vec(),
    ))
}

fn rowvals_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("rowvals", 1, 1)?;
    let s = the_sparse(&args, "rowvals")?;
    Ok(super::array(
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
    let mut tri = TriMat::new((s.matrix.rows(), s.matrix.cols()));
    for (x, (i, j)) in s.matrix.iter() {
        if *x != 0.0 {
            tri.add_triplet(i, j, *x);
        }
    }
    Ok(sparse_value(tri.to_csc(), s.eltype))
}

crate::builtins! {
    "sparse" => sparse_, false, "    sparse(I, J, V, [m, n])\n    sparse(A)\n\nA `SparseMatrixCSC{Float64, Int64}` with entries `V[k]` at `(I[k], J[k])` (duplicates are summed), or the nonzeros of a dense matrix.\n\n```\njulia> sparse([1, 2], [1, 2], [1.0, 2.0], 2, 2)\n2×2 SparseMatrixCSC{Float64, Int64} with 2 stored entries:\n 1.0   ⋅ \n  ⋅   2.0\n```";
    "spzeros" => spzeros_, false, "    spzeros(m, n)\n\nAn m×n sparse matrix with no stored entries.\n\n```\njulia> nnz(spzeros(3, 3))\n0\n```";
    "nnz" => nnz_, false, "    nnz(A)\n\nThe number of stored entries of a sparse matrix.\n\n```\njulia> nnz(sparse([1, 2], [1, 2], [1.0, 2.0]))\n2\n```";
    "findnz" => findnz_, false, "    findnz(A)\n\n`(I, J, V)`: the row indices, column indices and values of the stored entries, column by column.\n\n```\njulia> findnz(sparse([2, 1], [1, 2], [5.0, 6.0]))\n([2, 1], [1, 2], [5.0, 6.0])\n```";
    "nonzeros" => nonzeros_, false, "    nonzeros(A)\n\nThe stored values, column by column.\n\n```\njulia> nonzeros(sparse([1], [1], [3.0]))\n1-element Vector{Float64}:\n 3.0\n```";
    "rowvals" => rowvals_, false, "    rowvals(A)\n\nThe row index of each stored value.\n\n```\njulia> rowvals(sparse([2], [1], [3.0]))\n1-element Vector{Int64}:\n 2\n```";
    "issparse" => issparse_, false, "    issparse(A)\n\nWhether `A` is a sparse matrix.\n\n```\njulia> issparse(spzeros(2, 2))\ntrue\n```";
    "dropzeros" => dropzeros_, false, "    dropzeros(A)\n\nA copy without the stored entries equal to zero.\n\n```\njulia> nnz(dropzeros(sparse([1, 2], [1, 2], [0.0, 1.0])))\n1\n```";
}
