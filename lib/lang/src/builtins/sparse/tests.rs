//! Tests of sparse matrices: construction, display, indexing, arithmetic, solves and the
//! derivatives that flow through them.

use super::arith::*;
use super::*;
use crate::builtins::linalg::{apply_linear, LinearMap};
use crate::builtins::test_support::{call, interp};
use crate::error::ErrorKind;
use crate::error::{EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::from_tensor;
use crate::value::Value;
use difflab_ad::{ops, Tensor};
use difflab_syntax::{BinOp, UnaryOp};
use sprs::CsMat;
use std::rc::Rc;

use difflab_ad::reverse::Tape;
use difflab_ad::{tracer, Tag};
use difflab_syntax::Name;

fn ok(r: EvalResult) -> Value {
    match r {
        Ok(v) => v,
        Err(Flow::Error(e)) => panic!("{}: {}", e.kind.name(), e.message),
        Err(_) => panic!("unexpected control flow"),
    }
}

fn error_kind(r: EvalResult) -> ErrorKind {
    match r {
        Err(Flow::Error(e)) => e.kind,
        _ => panic!("an error was expected"),
    }
}

fn ints(v: &[i64]) -> Value {
    crate::builtins::array(
        ElType::Int64,
        &[v.len()],
        v.iter().map(|&k| k as f64).collect(),
    )
}

fn floats(v: &[f64]) -> Value {
    crate::builtins::array(ElType::Float64, &[v.len()], v.to_vec())
}

fn numbers(v: &Value) -> Vec<f64> {
    match crate::value::convert::to_tensor(v) {
        Ok(t) => t.to_col_major(),
        Err(_) => panic!("numbers expected, got {v:?}"),
    }
}

fn matrix_of(v: &Value) -> CsMat<f64> {
    match v {
        Value::Sparse(s) => s.borrow().matrix.to_owned(),
        other => panic!("a sparse matrix expected, got {other:?}"),
    }
}

fn dense_numbers(v: &Value) -> Vec<f64> {
    numbers(&ok(to_dense(v)))
}

/// The n×n tridiagonal matrix with 2 on the diagonal and -1 beside it.
fn tridiagonal(interp: &mut Interp, n: i64) -> Value {
    let (mut is, mut js, mut vs) = (Vec::new(), Vec::new(), Vec::new());
    for i in 1..=n {
        is.push(i);
        js.push(i);
        vs.push(2.0);
        if i < n {
            is.extend([i, i + 1]);
            js.extend([i + 1, i]);
            vs.extend([-1.0, -1.0]);
        }
    }
    ok(call(
        interp,
        "sparse",
        vec![
            ints(&is),
            ints(&js),
            floats(&vs),
            Value::Int(n),
            Value::Int(n),
        ],
    ))
}

#[test]
fn constructors_sum_duplicates_and_keep_stored_zeros() {
    let mut it = interp();
    let a = ok(call(
        &mut it,
        "sparse",
        vec![
            ints(&[1, 2, 1]),
            ints(&[1, 2, 1]),
            floats(&[1.0, 2.0, 3.0]),
            Value::Int(2),
            Value::Int(3),
        ],
    ));
    assert_eq!(a.type_name(), "SparseMatrixCSC{Float64, Int64}");
    assert_eq!(matrix_of(&a).shape(), (2, 3));
    assert!(matches!(
        ok(call(&mut it, "nnz", vec![a.clone()])),
        Value::Int(2)
    ));
    assert_eq!(dense_numbers(&a), vec![4.0, 0.0, 0.0, 2.0, 0.0, 0.0]);
    // Sizes from the largest indices; a stored zero counts as an entry.
    let z = ok(call(
        &mut it,
        "sparse",
        vec![ints(&[1, 3]), ints(&[2, 1]), floats(&[0.0, 5.0])],
    ));
    assert_eq!(matrix_of(&z).shape(), (3, 2));
    assert_eq!(matrix_of(&z).nnz(), 2);
    assert_eq!(
        matrix_of(&ok(call(&mut it, "dropzeros", vec![z.clone()]))).nnz(),
        1
    );
    assert_eq!(matrix_of(&z).nnz(), 2);
    ok(call(&mut it, "dropzeros!", vec![z.clone()]));
    assert_eq!(matrix_of(&z).nnz(), 1);
    // Bool values combine with `|`.
    let b = ok(call(
        &mut it,
        "sparse",
        vec![
            ints(&[1, 1]),
            ints(&[1, 1]),
            crate::builtins::array(ElType::Bool, &[2], vec![1.0, 1.0]),
        ],
    ));
    assert_eq!(b.type_name(), "SparseMatrixCSC{Bool, Int64}");
    assert_eq!(matrix_of(&b).data(), &[1.0]);
    // From a dense matrix: the nonzeros.
    let d = crate::builtins::array(ElType::Float64, &[2, 2], vec![1.0, 0.0, 0.0, 3.0]);
    let s = ok(call(&mut it, "sparse", vec![d]));
    assert_eq!(matrix_of(&s).nnz(), 2);
    // The sparse identity and the empty matrix.
    let id = ok(call(
        &mut it,
        "sparse",
        vec![
            Value::Builtin(crate::builtins::lookup(Name::new("I")).unwrap()),
            Value::Int(3),
        ],
    ));
    assert_eq!(
        dense_numbers(&id),
        vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    );
    let e = ok(call(&mut it, "spzeros", vec![Value::Int(3), Value::Int(4)]));
    assert_eq!((matrix_of(&e).shape(), matrix_of(&e).nnz()), ((3, 4), 0));
    assert!(matches!(
        ok(call(&mut it, "issparse", vec![e])),
        Value::Bool(true)
    ));
    // Errors: an index outside the size, mismatched lengths, derivatives.
    let outside = call(
        &mut it,
        "sparse",
        vec![
            ints(&[3]),
            ints(&[1]),
            floats(&[1.0]),
            Value::Int(2),
            Value::Int(2),
        ],
    );
    assert_eq!(error_kind(outside), ErrorKind::ArgumentError);
    let lengths = call(
        &mut it,
        "sparse",
        vec![ints(&[1, 2]), ints(&[1]), floats(&[1.0, 2.0])],
    );
    assert_eq!(error_kind(lengths), ErrorKind::ArgumentError);
    let t = Tensor::from_col_major(&[1], vec![1.0]);
    let dual = from_tensor(
        Tensor::dual(Tag::fresh(), t.clone(), vec![t]),
        ElType::Float64,
        false,
    );
    // Values carrying derivatives keep them: a dense array marked as the sparse one.
    let traced = ok(call(
        &mut it,
        "sparse",
        vec![
            ints(&[1, 1]),
            ints(&[1, 1]),
            dual,
            Value::Int(2),
            Value::Int(2),
        ],
    ));
    assert_eq!(traced.type_name(), "SparseMatrixCSC{Float64, Int64}");
    assert!(matches!(
        ok(call(&mut it, "nnz", vec![traced.clone()])),
        Value::Int(1)
    ));
    let Value::Array(a) = &traced else {
        panic!("a dense array of duals expected, got {traced:?}")
    };
    let Tensor::Dual(d) = &a.borrow().data else {
        panic!("derivatives expected")
    };
    // The one value is placed twice at (1, 1), so it counts twice, partials included.
    assert_eq!(d.value.to_col_major(), vec![2.0, 0.0, 0.0, 0.0]);
    assert_eq!(d.partials[0].to_col_major(), vec![2.0, 0.0, 0.0, 0.0]);
}

#[test]
fn findnz_goes_column_by_column() {
    let mut it = interp();
    let a = ok(call(
        &mut it,
        "sparse",
        vec![ints(&[2, 1, 3]), ints(&[2, 1, 1]), floats(&[5.0, 6.0, 7.0])],
    ));
    let Value::Tuple(parts) = ok(call(&mut it, "findnz", vec![a.clone()])) else {
        panic!("findnz gives a tuple")
    };
    assert_eq!(numbers(&parts[0]), vec![1.0, 3.0, 2.0]);
    assert_eq!(numbers(&parts[1]), vec![1.0, 1.0, 2.0]);
    assert_eq!(numbers(&parts[2]), vec![6.0, 7.0, 5.0]);
    assert_eq!(parts[0].type_name(), "Vector{Int64}");
    assert_eq!(
        numbers(&ok(call(&mut it, "nonzeros", vec![a.clone()]))),
        vec![6.0, 7.0, 5.0]
    );
    assert_eq!(
        numbers(&ok(call(&mut it, "rowvals", vec![a.clone()]))),
        vec![1.0, 3.0, 2.0]
    );
    let Value::Sparse(s) = &a else { panic!() };
    let s = s.borrow();
    assert_eq!(numbers(&ok(field(&s, "colptr"))), vec![1.0, 3.0, 4.0]);
    assert!(matches!(ok(field(&s, "m")), Value::Int(3)));
    assert_eq!(error_kind(field(&s, "foo")), ErrorKind::ArgumentError);
}

#[test]
fn indexing_and_assignment() {
    let mut it = interp();
    let a = ok(call(
        &mut it,
        "sparse",
        vec![ints(&[2, 1, 3]), ints(&[2, 1, 1]), floats(&[5.0, 6.0, 7.0])],
    ));
    let Value::Sparse(cell) = &a else { panic!() };
    let colon = Value::Builtin(crate::builtins::colon());
    let range = |a: i64, b: i64| {
        crate::builtins::value_operators::make_range(&Value::Int(a), None, &Value::Int(b))
            .unwrap_or(Value::Nothing)
    };
    {
        let s = cell.borrow();
        assert!(
            matches!(ok(index(&mut it, &s, &[Value::Int(3), Value::Int(1)])), Value::Float(x) if x == 7.0)
        );
        assert!(
            matches!(ok(index(&mut it, &s, &[Value::Int(3), Value::Int(2)])), Value::Float(x) if x == 0.0)
        );
        assert!(matches!(ok(index(&mut it, &s, &[Value::Int(5)])), Value::Float(x) if x == 5.0));
        // A column or a row is a sparse vector.
        let column = ok(index(&mut it, &s, &[colon.clone(), Value::Int(1)]));
        assert_eq!(column.type_name(), "SparseVector{Float64, Int64}");
        assert_eq!(dense_numbers(&column), vec![6.0, 0.0, 7.0]);
        let row = ok(index(&mut it, &s, &[Value::Int(2), colon.clone()]));
        assert_eq!(row.type_name(), "SparseVector{Float64, Int64}");
        assert_eq!(dense_numbers(&row), vec![0.0, 5.0]);
        assert_eq!(matrix_of(&row).nnz(), 1);
        let sub = ok(index(&mut it, &s, &[range(2, 3), colon.clone()]));
        assert_eq!(dense_numbers(&sub), vec![0.0, 7.0, 5.0, 0.0]);
        assert_eq!(
            error_kind(index(&mut it, &s, &[Value::Int(4), Value::Int(1)])),
            ErrorKind::BoundsError
        );
    }
    {
        let mut s = cell.borrow_mut();
        set_index(&mut s, &[Value::Int(1), Value::Int(2)], &Value::Float(9.0)).ok();
        set_index(&mut s, &[Value::Int(3), Value::Int(1)], &Value::Int(1)).ok();
        // Zero into an entry that is not stored leaves it unstored.
        set_index(&mut s, &[Value::Int(2), Value::Int(1)], &Value::Float(0.0)).ok();
    }
    assert_eq!(dense_numbers(&a), vec![6.0, 0.0, 1.0, 9.0, 5.0, 0.0]);
    assert_eq!(matrix_of(&a).nnz(), 4);
    {
        // A colon assigns every entry it selects (`A[:, 1] .= 1`), inserting the missing ones;
        // an array must have the selection's length.
        let mut s = cell.borrow_mut();
        set_index(&mut s, &[colon.clone(), Value::Int(1)], &Value::Float(1.0)).ok();
        let wrong = floats(&[1.0, 2.0]);
        assert!(set_index(&mut s, &[colon, Value::Int(2)], &wrong).is_err());
    }
    assert_eq!(dense_numbers(&a), vec![1.0, 1.0, 1.0, 9.0, 5.0, 0.0]);
    assert_eq!(matrix_of(&a).nnz(), 5);
}

#[test]
fn arithmetic_with_sparse_matrices() {
    let mut it = interp();
    let a = ok(call(
        &mut it,
        "sparse",
        vec![ints(&[1, 2, 2]), ints(&[1, 1, 2]), floats(&[1.0, 2.0, 3.0])],
    ));
    let dense_a = ok(to_dense(&a));
    let x = floats(&[1.0, 10.0]);
    let bin = |it: &mut Interp, op: BinOp, p: &Value, q: &Value| {
        ok(sparse_binary(it, op, p, q).expect("a sparse operand"))
    };
    assert_eq!(numbers(&bin(&mut it, BinOp::Mul, &a, &x)), vec![1.0, 32.0]);
    // A row times a sparse matrix stays a row.
    let row = ok(crate::builtins::value_operators::adjoint(&x));
    let r = bin(&mut it, BinOp::Mul, &row, &a);
    assert_eq!(numbers(&r), vec![21.0, 30.0]);
    assert_eq!(r.type_name(), dense_a.type_name());
    let dense_times = bin(&mut it, BinOp::Mul, &dense_a, &a);
    assert_eq!(numbers(&dense_times), vec![1.0, 8.0, 0.0, 9.0]);
    let sq = bin(&mut it, BinOp::Mul, &a, &a);
    assert!(matches!(sq, Value::Sparse(_)));
    assert_eq!(dense_numbers(&sq), vec![1.0, 8.0, 0.0, 9.0]);
    assert_eq!(
        dense_numbers(&bin(&mut it, BinOp::Pow, &a, &Value::Int(2))),
        vec![1.0, 8.0, 0.0, 9.0]
    );
    assert_eq!(
        dense_numbers(&bin(&mut it, BinOp::Pow, &a, &Value::Int(0))),
        vec![1.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        dense_numbers(&bin(&mut it, BinOp::Add, &a, &a)),
        vec![2.0, 4.0, 0.0, 6.0]
    );
    let zero = bin(&mut it, BinOp::Sub, &a, &a);
    assert_eq!(matrix_of(&zero).nnz(), 0);
    assert_eq!(
        dense_numbers(&bin(&mut it, BinOp::Mul, &Value::Int(2), &a)),
        vec![2.0, 4.0, 0.0, 6.0]
    );
    assert_eq!(
        dense_numbers(&bin(&mut it, BinOp::Div, &a, &Value::Float(2.0))),
        vec![0.5, 1.0, 0.0, 1.5]
    );
    let mixed = bin(&mut it, BinOp::Add, &a, &dense_a);
    assert_eq!(mixed.type_name(), "Matrix{Float64}");
    assert_eq!(numbers(&mixed), vec![2.0, 4.0, 0.0, 6.0]);
    assert_eq!(
        error_kind(
            sparse_binary(&mut it, BinOp::Add, &a, &Value::Int(1)).unwrap_or(Ok(Value::Nothing))
        ),
        ErrorKind::MethodError
    );
    assert!(matches!(
        bin(&mut it, BinOp::Eq, &a, &dense_a),
        Value::Bool(true)
    ));
    assert!(matches!(
        bin(&mut it, BinOp::Eq, &a, &ok(deep(&a))),
        Value::Bool(true)
    ));
    assert!(matches!(
        bin(&mut it, BinOp::Eq, &a, &sq),
        Value::Bool(false)
    ));
    let tiny = bin(&mut it, BinOp::Mul, &Value::Float(1e-12), &a);
    let nudged = bin(&mut it, BinOp::Add, &a, &tiny);
    assert!(matches!(
        bin(&mut it, BinOp::Approx, &a, &nudged),
        Value::Bool(true)
    ));
    assert!(matches!(
        bin(&mut it, BinOp::Approx, &nudged, &dense_a),
        Value::Bool(true)
    ));
    assert!(matches!(
        bin(&mut it, BinOp::Approx, &a, &sq),
        Value::Bool(false)
    ));
    let solved = bin(&mut it, BinOp::LeftDiv, &a, &floats(&[1.0, 32.0]));
    assert!(numbers(&solved)
        .iter()
        .zip([1.0, 10.0])
        .all(|(p, q)| (p - q).abs() < 1e-12));
    let neg = ok(sparse_unary(UnaryOp::Neg, &a).expect("sparse"));
    assert_eq!(dense_numbers(&neg), vec![-1.0, -2.0, 0.0, -3.0]);
    let t = ok(transpose_value(&a));
    assert_eq!(dense_numbers(&t), vec![1.0, 0.0, 2.0, 3.0]);
    // Broadcasting: scaling stays sparse, comparisons give a sparse Bool matrix.
    let half = ok(sparse_broadcast(&mut it, BinOp::Mul, &a, &Value::Float(0.5)).expect("sparse"));
    assert_eq!(dense_numbers(&half), vec![0.5, 1.0, 0.0, 1.5]);
    let big = ok(sparse_broadcast(&mut it, BinOp::Gt, &a, &Value::Float(1.5)).expect("sparse"));
    assert_eq!(big.type_name(), "SparseMatrixCSC{Bool, Int64}");
    assert_eq!(dense_numbers(&big), vec![0.0, 1.0, 0.0, 1.0]);
    assert!(sparse_binary(&mut it, BinOp::Add, &x, &x).is_none());
}

fn deep(v: &Value) -> EvalResult {
    Ok(crate::builtins::arrays::deep_copy(v))
}

#[test]
fn a_large_tridiagonal_system_solves_quickly() {
    let mut it = interp();
    let n = 1000;
    let a = tridiagonal(&mut it, n);
    let ones = floats(&vec![1.0; n as usize]);
    let b = ok(sparse_binary(&mut it, BinOp::Mul, &a, &ones).expect("sparse"));
    let start = std::time::Instant::now();
    let x = ok(crate::builtins::linalg::solve(&mut it, &a, &b));
    let elapsed = start.elapsed();
    assert!(numbers(&x).iter().all(|v| (v - 1.0).abs() < 1e-9));
    assert!(elapsed.as_secs_f64() < 1.0, "took {elapsed:?}");
    // A structurally singular matrix is an error.
    let s = ok(call(
        &mut it,
        "sparse",
        vec![
            ints(&[1, 2]),
            ints(&[1, 1]),
            floats(&[1.0, 1.0]),
            Value::Int(2),
            Value::Int(2),
        ],
    ));
    let err = crate::builtins::linalg::solve(&mut it, &s, &floats(&[1.0, 1.0]));
    assert_eq!(error_kind(err), ErrorKind::ArgumentError);
    // A numerically singular one too.
    let s = ok(call(
        &mut it,
        "sparse",
        vec![
            ints(&[1, 2, 1, 2]),
            ints(&[1, 1, 2, 2]),
            floats(&[1.0, 2.0, 2.0, 4.0]),
        ],
    ));
    let err = crate::builtins::linalg::solve(&mut it, &s, &floats(&[1.0, 1.0]));
    assert_eq!(error_kind(err), ErrorKind::ArgumentError);
}

#[test]
fn derivatives_flow_through_sparse_products_and_solves() {
    let mut it = interp();
    let a = tridiagonal(&mut it, 5);
    let dense =
        crate::value::convert::to_tensor(&ok(to_dense(&a))).unwrap_or_else(|_| Tensor::scalar(0.0));
    let x = Tensor::from_col_major(&[5], vec![1.0, -2.0, 3.0, 0.5, 2.0]);
    let dx = Tensor::from_col_major(&[5], vec![0.3, 0.1, -1.0, 2.0, 0.0]);
    let dual = from_tensor(
        Tensor::dual(Tag::fresh(), x.clone(), vec![dx.clone()]),
        ElType::Float64,
        false,
    );
    // A * x is linear: its tangent is A * dx.
    let y = ok(sparse_binary(&mut it, BinOp::Mul, &a, &dual).expect("sparse"));
    let Ok(Tensor::Dual(y)) = crate::value::convert::to_tensor(&y) else {
        panic!("a dual result expected")
    };
    let want = ops::matmul(&dense, &dx).unwrap().to_col_major();
    assert_eq!(y.partials[0].to_col_major(), want);
    // A \ b: its tangent is A \ db.
    let z = ok(sparse_binary(&mut it, BinOp::LeftDiv, &a, &dual).expect("sparse"));
    let Ok(Tensor::Dual(z)) = crate::value::convert::to_tensor(&z) else {
        panic!("a dual result expected")
    };
    let want = crate::builtins::linalg::solve_tensor(&dense, &dx)
        .unwrap()
        .to_col_major();
    for (g, w) in z.partials[0].to_col_major().iter().zip(&want) {
        assert!((g - w).abs() < 1e-12);
    }
    // Reverse mode: the gradient of sum(w .* (A \ x)) is A⁻ᵀ w (A is symmetric here).
    let Value::Sparse(s) = &a else { panic!() };
    let map: Rc<dyn LinearMap> = Rc::new(SparseLu::new(s.borrow().matrix.view()).unwrap());
    let tape = Tape::new();
    let tx = tape.input(x.clone());
    let w = Tensor::from_col_major(&[5], vec![1.0, 2.0, 3.0, 4.0, 5.0]);
    let out = apply_linear(&map, &tx, false).unwrap();
    let loss = ops::sum_all(&ops::binary(ops::BinaryFn::Mul, &out, &w).unwrap()).unwrap();
    let Tensor::Tracked(node) = &tx else { panic!() };
    let g = tape
        .gradient(&loss, &Tensor::scalar(1.0), &[(node.node, vec![5])])
        .unwrap();
    let want = crate::builtins::linalg::solve_tensor(&dense, &w)
        .unwrap()
        .to_col_major();
    for (p, q) in g[0].to_col_major().iter().zip(&want) {
        assert!((p - q).abs() < 1e-12);
    }
    // Sparsity: row i of a tridiagonal product depends on x[i-1], x[i], x[i+1].
    let y = sparse_times(&s.borrow().matrix, &tracer::input(&x, false)).unwrap();
    let sets: Vec<Vec<u32>> = tracer::sets_of(&y).iter().map(|s| s.to_vec()).collect();
    assert_eq!(
        sets,
        vec![
            vec![0, 1],
            vec![0, 1, 2],
            vec![1, 2, 3],
            vec![2, 3, 4],
            vec![3, 4]
        ]
    );
}

#[test]
fn sprand_spdiagm_and_concatenation() {
    let mut it = interp();
    let r = ok(call(
        &mut it,
        "sprand",
        vec![Value::Int(200), Value::Int(100), Value::Float(0.1)],
    ));
    let m = matrix_of(&r);
    assert_eq!(m.shape(), (200, 100));
    assert!((1500..2500).contains(&m.nnz()), "{}", m.nnz());
    assert!(m.data().iter().all(|v| (0.0..1.0).contains(v)));
    let full = ok(call(
        &mut it,
        "sprand",
        vec![Value::Int(3), Value::Int(2), Value::Float(1.0)],
    ));
    assert_eq!(matrix_of(&full).nnz(), 6);
    let none = ok(call(
        &mut it,
        "sprand",
        vec![Value::Int(3), Value::Int(2), Value::Float(0.0)],
    ));
    assert_eq!(matrix_of(&none).nnz(), 0);
    let pair = |k: i64, v: &[f64]| Value::pair(Value::Int(k), floats(v));
    let d = ok(call(
        &mut it,
        "spdiagm",
        vec![pair(0, &[2.0, 2.0]), pair(1, &[-1.0])],
    ));
    assert_eq!(dense_numbers(&d), vec![2.0, 0.0, -1.0, 2.0]);
    let d = ok(call(&mut it, "spdiagm", vec![floats(&[1.0, 2.0, 3.0])]));
    assert_eq!(matrix_of(&d).nnz(), 3);
    let v = ok(cat(&[d.clone(), d.clone()], 0));
    assert_eq!(matrix_of(&v).shape(), (6, 3));
    let h = ok(cat(&[d.clone(), floats(&[7.0, 8.0, 9.0])], 1));
    assert_eq!(matrix_of(&h).shape(), (3, 4));
    assert_eq!(dense_numbers(&h)[9..], [7.0, 8.0, 9.0]);
    assert_eq!(
        error_kind(cat(&[d.clone(), floats(&[1.0])], 1)),
        ErrorKind::DimensionMismatch
    );
}
