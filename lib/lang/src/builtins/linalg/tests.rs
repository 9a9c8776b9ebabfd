//! Tests of dense linear algebra: values against closed forms, derivative rules against
//! finite differences, errors.

use super::solve::*;
use crate::builtins::test_support::{call, interp};
use crate::error::ErrorKind;
use crate::error::{EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::from_tensor;
use crate::value::Value;
use difflab_ad::ops::{self, BinaryFn};
use difflab_ad::reverse::Tape;
use difflab_ad::tracer::{self};
use difflab_ad::{Tag, Tensor};
use difflab_syntax::Name;

/// The value of a successful evaluation (`Flow` has no `Debug`, so no `unwrap`).
trait Evaluated {
    fn value(self) -> Value;
}

impl Evaluated for EvalResult {
    fn value(self) -> Value {
        match self {
            Ok(v) => v,
            Err(Flow::Error(e)) => panic!("{}: {}", e.kind.name(), e.message),
            Err(_) => panic!("unexpected control flow"),
        }
    }
}

fn tensor_of(v: &Value) -> Tensor {
    match crate::value::convert::to_tensor(v) {
        Ok(t) => t,
        Err(_) => panic!("numbers expected"),
    }
}

/// A Float64 matrix from rows (as it is written).
fn rows(rows: &[&[f64]]) -> Tensor {
    let (m, n) = (rows.len(), rows.first().map_or(0, |r| r.len()));
    Tensor::from_col_major(
        &[m, n],
        (0..n)
            .flat_map(|j| rows.iter().map(move |r| r[j]))
            .collect(),
    )
}

fn value(t: Tensor) -> Value {
    from_tensor(t, ElType::Float64, false)
}

fn vector(x: &[f64]) -> Tensor {
    Tensor::from_col_major(&[x.len()], x.to_vec())
}

fn numbers(v: &Value) -> Vec<f64> {
    tensor_of(v).to_col_major()
}

fn close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= tol * (1.0 + w.abs()),
            "{got:?} vs {want:?}"
        );
    }
}

fn error_of(r: EvalResult) -> (ErrorKind, String) {
    match r {
        Err(Flow::Error(e)) => (e.kind, e.message),
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(_) => panic!("expected an error"),
    }
}

/// A seeded pseudo-random tensor (a small linear congruential generator).
fn pseudo_random(shape: &[usize], seed: u64) -> Tensor {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let n = shape.iter().product();
    let data = (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        })
        .collect();
    Tensor::from_col_major(shape, data)
}

/// A well-conditioned n×n matrix: random plus a dominant diagonal.
fn well_conditioned(n: usize, seed: u64) -> Tensor {
    let r = pseudo_random(&[n, n], seed).to_col_major();
    Tensor::from_col_major(
        &[n, n],
        (0..n * n)
            .map(|k| r[k] + if k % (n + 1) == 0 { 3.0 } else { 0.0 })
            .collect(),
    )
}

fn axpy(t: &Tensor, h: f64, d: &Tensor) -> Tensor {
    ops::binary(
        BinaryFn::Add,
        t,
        &ops::binary(BinaryFn::Mul, &Tensor::scalar(h), d).unwrap(),
    )
    .unwrap()
}

/// The central difference of `f` along the directions `(da, db)` at `(a, b)`.
fn central(
    f: &dyn Fn(&Tensor, &Tensor) -> Tensor,
    a: &Tensor,
    b: &Tensor,
    da: &Tensor,
    db: &Tensor,
) -> Vec<f64> {
    let h = 1e-6;
    let plus = f(&axpy(a, h, da), &axpy(b, h, db)).to_col_major();
    let minus = f(&axpy(a, -h, da), &axpy(b, -h, db)).to_col_major();
    plus.iter()
        .zip(&minus)
        .map(|(p, m)| (p - m) / (2.0 * h))
        .collect()
}

fn first_partial(t: &Tensor) -> Vec<f64> {
    match t {
        Tensor::Dual(d) => d.partials[0].to_col_major(),
        other => panic!("expected a dual, got {other:?}"),
    }
}

#[test]
fn solves_square_systems_against_a_known_solution() {
    let mut it = interp();
    let a = value(rows(&[
        &[4.0, 1.0, 0.0],
        &[1.0, 3.0, 1.0],
        &[0.0, 1.0, 2.0],
    ]));
    let x = solve(&mut it, &a, &value(vector(&[6.0, 10.0, 8.0]))).value();
    close(&numbers(&x), &[1.0, 2.0, 3.0], 1e-12);
    assert_eq!(x.type_name(), "Vector{Float64}");
    // A matrix right-hand side: one solution per column.
    let b = value(rows(&[&[6.0, 4.0], &[10.0, 1.0], &[8.0, 0.0]]));
    let x = solve(&mut it, &a, &b).value();
    close(&numbers(&x), &[1.0, 2.0, 3.0, 1.0, 0.0, 0.0], 1e-12);
    // Integer matrices solve in Float64.
    let ai = from_tensor(rows(&[&[2.0, 0.0], &[0.0, 4.0]]), ElType::Int64, false);
    let x = solve(&mut it, &ai, &value(vector(&[2.0, 2.0]))).value();
    close(&numbers(&x), &[1.0, 0.5], 0.0);
}

#[test]
fn singular_and_mismatched_systems_are_errors() {
    let mut it = interp();
    let singular = value(rows(&[&[1.0, 2.0], &[2.0, 4.0]]));
    let (kind, msg) = error_of(solve(&mut it, &singular, &value(vector(&[1.0, 2.0]))));
    assert_eq!(
        (kind, msg.as_str()),
        (ErrorKind::ArgumentError, "SingularException(2)")
    );
    let (kind, msg) = error_of(inv_matrix(&mut it, &singular));
    assert_eq!(
        (kind, msg.as_str()),
        (ErrorKind::ArgumentError, "SingularException(2)")
    );
    let zero_first = value(rows(&[&[0.0, 0.0], &[0.0, 1.0]]));
    let (_, msg) = error_of(solve(&mut it, &zero_first, &value(vector(&[1.0, 2.0]))));
    assert_eq!(msg, "SingularException(1)");
    let a = value(rows(&[&[1.0, 0.0], &[0.0, 1.0]]));
    let (kind, _) = error_of(solve(&mut it, &a, &value(vector(&[1.0, 2.0, 3.0]))));
    assert_eq!(kind, ErrorKind::DimensionMismatch);
    let (kind, _) = error_of(inv_matrix(&mut it, &value(rows(&[&[1.0, 2.0]]))));
    assert_eq!(kind, ErrorKind::DimensionMismatch);
}

#[test]
fn rectangular_systems_are_least_squares() {
    let mut it = interp();
    // Overdetermined: the normal equations [2 1; 1 2] x = [5, 6].
    let a = value(rows(&[&[1.0, 0.0], &[0.0, 1.0], &[1.0, 1.0]]));
    let x = solve(&mut it, &a, &value(vector(&[1.0, 2.0, 4.0]))).value();
    close(&numbers(&x), &[4.0 / 3.0, 7.0 / 3.0], 1e-12);
    // Underdetermined: the minimum-norm solution.
    let a = value(rows(&[&[1.0, 1.0]]));
    let x = solve(&mut it, &a, &value(vector(&[2.0]))).value();
    close(&numbers(&x), &[1.0, 1.0], 1e-12);
    // Rank-deficient: still the minimum-norm least-squares solution.
    let a = value(rows(&[&[1.0, 1.0], &[1.0, 1.0], &[1.0, 1.0]]));
    let x = solve(&mut it, &a, &value(vector(&[1.0, 2.0, 3.0]))).value();
    close(&numbers(&x), &[1.0, 1.0], 1e-12);
}

#[test]
fn det_and_inv_of_known_matrices() {
    let mut it = interp();
    let det = |it: &mut Interp, t: Tensor| match call(it, "det", vec![value(t)]).value() {
        Value::Float(x) => x,
        other => panic!("det gave {other:?}"),
    };
    assert_eq!(det(&mut it, rows(&[&[1.0, 2.0], &[3.0, 4.0]])), -2.0);
    assert_eq!(det(&mut it, rows(&[&[0.0, 1.0], &[1.0, 0.0]])), -1.0);
    assert_eq!(det(&mut it, rows(&[&[1.0, 2.0], &[2.0, 4.0]])), 0.0);
    let a = rows(&[&[2.0, 1.0, 0.0], &[1.0, 3.0, 1.0], &[0.0, 1.0, 4.0]]);
    assert!((det(&mut it, a) - 18.0).abs() < 1e-12);
    // A cyclic permutation of three rows is even.
    let p = rows(&[&[0.0, 1.0, 0.0], &[0.0, 0.0, 1.0], &[1.0, 0.0, 0.0]]);
    assert_eq!(det(&mut it, p), 1.0);
    assert_eq!(det(&mut it, Tensor::from_col_major(&[0, 0], vec![])), 1.0);
    let inv = inv_matrix(&mut it, &value(rows(&[&[2.0, 1.0], &[1.0, 1.0]]))).value();
    close(&numbers(&inv), &[1.0, -1.0, -1.0, 2.0], 1e-12);
    assert_eq!(inv.type_name(), "Matrix{Float64}");
}

#[test]
fn lu_factors_reconstruct_the_permuted_matrix() {
    let mut it = interp();
    let a = rows(&[&[1.0, 2.0, 0.0], &[3.0, 4.0, 1.0], &[0.0, 5.0, 6.0]]);
    let f = call(&mut it, "lu", vec![value(a.clone())]).value();
    let Value::Object(o) = &f else {
        panic!("lu gives an object")
    };
    assert_eq!(o.type_name(), "LU{Float64, Matrix{Float64}, Vector{Int64}}");
    let (l, u, p) = (
        o.field("L").unwrap(),
        o.field("U").unwrap(),
        numbers(&o.field("p").unwrap()),
    );
    let lu = ops::matmul(&tensor_of(&l), &tensor_of(&u))
        .unwrap()
        .to_col_major();
    let data = a.to_col_major();
    for i in 0..3 {
        for j in 0..3 {
            let row = p[i] as usize - 1;
            assert!((lu[i + 3 * j] - data[row + 3 * j]).abs() < 1e-12);
        }
    }
    assert_eq!(p, vec![2.0, 3.0, 1.0]);
    assert!(o.show().starts_with(
        "LU{Float64, Matrix{Float64}, Vector{Int64}}\nL factor:\n3×3 Matrix{Float64}:"
    ));
    // `F \ b` solves with the factors.
    let x = crate::builtins::sparse::sparse_binary(
        &mut it,
        difflab_syntax::BinOp::LeftDiv,
        &f,
        &value(vector(&[5.0, 14.0, 28.0])),
    )
    .expect("F \\ b is handled")
    .value();
    close(&numbers(&x), &[1.0, 2.0, 3.0], 1e-12);
    // A zero pivot: an error unless check=false.
    let singular = value(rows(&[&[1.0, 2.0], &[2.0, 4.0]]));
    let (_, msg) = error_of(call(&mut it, "lu", vec![singular.clone()]));
    assert_eq!(msg, "SingularException(2)");
    let f = it
        .call_value(
            &Value::Builtin(crate::builtins::lookup(Name::new("lu")).unwrap()),
            vec![singular],
            vec![(Name::new("check"), Value::Bool(false))],
        )
        .value();
    let Value::Object(o) = f else { panic!() };
    close(&numbers(&o.field("U").unwrap()), &[2.0, 0.0, 4.0, 0.0], 0.0);
}

#[test]
fn forward_rule_of_solve_matches_central_differences() {
    let n = 4;
    let (a, b) = (well_conditioned(n, 1), pseudo_random(&[n], 2));
    let (da, db) = (pseudo_random(&[n, n], 3), pseudo_random(&[n], 4));
    let f = |a: &Tensor, b: &Tensor| solve_tensor(a, b).unwrap();
    let want = central(&f, &a, &b, &da, &db);
    let tag = Tag::fresh();
    let x = solve_tensor(
        &Tensor::dual(tag, a.clone(), vec![da.clone()]),
        &Tensor::dual(tag, b.clone(), vec![db.clone()]),
    )
    .unwrap();
    close(&first_partial(&x), &want, 1e-6);
    close(&x.to_col_major(), &f(&a, &b).to_col_major(), 1e-14);
    // Only b, or only A, carrying the derivative.
    let zero_a = Tensor::filled(&[n, n], 0.0);
    let zero_b = Tensor::filled(&[n], 0.0);
    let x = solve_tensor(&a, &Tensor::dual(Tag::fresh(), b.clone(), vec![db.clone()])).unwrap();
    close(&first_partial(&x), &central(&f, &a, &b, &zero_a, &db), 1e-6);
    let x = solve_tensor(&Tensor::dual(Tag::fresh(), a.clone(), vec![da.clone()]), &b).unwrap();
    close(&first_partial(&x), &central(&f, &a, &b, &da, &zero_b), 1e-6);
    // A matrix right-hand side through the language's `\`.
    let bm = pseudo_random(&[n, 2], 5);
    let dbm = pseudo_random(&[n, 2], 6);
    let mut it = interp();
    let tag = Tag::fresh();
    let x = solve(
        &mut it,
        &value(Tensor::dual(tag, a.clone(), vec![da.clone()])),
        &value(Tensor::dual(tag, bm.clone(), vec![dbm.clone()])),
    )
    .value();
    let x = tensor_of(&x);
    close(&first_partial(&x), &central(&f, &a, &bm, &da, &dbm), 1e-6);
}

#[test]
fn forward_rule_of_least_squares_matches_central_differences() {
    let f = |a: &Tensor, b: &Tensor| solve_tensor(a, b).unwrap();
    for (m, n) in [(5, 3), (2, 4)] {
        let (a, b) = (pseudo_random(&[m, n], 7), pseudo_random(&[m], 8));
        let (da, db) = (pseudo_random(&[m, n], 9), pseudo_random(&[m], 10));
        let tag = Tag::fresh();
        let x = solve_tensor(
            &Tensor::dual(tag, a.clone(), vec![da.clone()]),
            &Tensor::dual(tag, b.clone(), vec![db.clone()]),
        )
        .unwrap();
        close(&first_partial(&x), &central(&f, &a, &b, &da, &db), 1e-5);
    }
    // No derivative where A loses rank.
    let a = rows(&[&[1.0, 1.0], &[1.0, 1.0], &[1.0, 1.0]]);
    let err = solve_tensor(
        &Tensor::dual(Tag::fresh(), a.clone(), vec![a]),
        &vector(&[1.0, 2.0, 3.0]),
    )
    .unwrap_err();
    assert!(err.to_string().contains("rank-deficient"), "{err}");
}

#[test]
fn forward_rules_of_inv_and_det_match_central_differences() {
    let n = 3;
    let (a, da) = (well_conditioned(n, 11), pseudo_random(&[n, n], 12));
    let none = Tensor::scalar(0.0);
    let inv = |a: &Tensor, _: &Tensor| inv_tensor(a).unwrap();
    let y = inv_tensor(&Tensor::dual(Tag::fresh(), a.clone(), vec![da.clone()])).unwrap();
    close(
        &first_partial(&y),
        &central(&inv, &a, &none, &da, &none),
        1e-6,
    );
    let det = |a: &Tensor, _: &Tensor| det_tensor(a).unwrap();
    let mut it = interp();
    let d = call(
        &mut it,
        "det",
        vec![value(Tensor::dual(
            Tag::fresh(),
            a.clone(),
            vec![da.clone()],
        ))],
    )
    .value();
    let Value::Real(d) = d else {
        panic!("a dual number expected")
    };
    close(
        &first_partial(&d),
        &central(&det, &a, &none, &da, &none),
        1e-6,
    );
    // Second order: d²/dt² det(A + tD) = 2 det(D) for 2×2 matrices.
    let (a2, d2) = (
        rows(&[&[1.0, 2.0], &[3.0, 5.0]]),
        rows(&[&[2.0, -1.0], &[1.0, 3.0]]),
    );
    let (inner, outer) = (Tag::fresh(), Tag::fresh());
    let x = Tensor::dual(
        outer,
        Tensor::dual(inner, a2.clone(), vec![d2.clone()]),
        vec![Tensor::dual(
            inner,
            d2.clone(),
            vec![Tensor::filled(&[2, 2], 0.0)],
        )],
    );
    let Tensor::Dual(out) = det_tensor(&x).unwrap() else {
        panic!()
    };
    let second = first_partial(&out.partials[0]);
    close(&second, &[2.0 * 7.0], 1e-12);
    // At a singular matrix the derivative is the adjugate: d/dt det([1 2; 2 4] + tD) at 0 is
    // tr(adj(A) D) = 4·D11 − 2·D12 − 2·D21 + 1·D22.
    let s = rows(&[&[1.0, 2.0], &[2.0, 4.0]]);
    let d = rows(&[&[1.0, 3.0], &[5.0, 7.0]]);
    let y = det_tensor(&Tensor::dual(Tag::fresh(), s.clone(), vec![d.clone()])).unwrap();
    close(
        &first_partial(&y),
        &[4.0 - 2.0 * 3.0 - 2.0 * 5.0 + 7.0],
        1e-12,
    );
    let s3 = rows(&[&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0], &[7.0, 8.0, 9.0]]);
    let d3 = pseudo_random(&[3, 3], 13);
    let y = det_tensor(&Tensor::dual(Tag::fresh(), s3.clone(), vec![d3.clone()])).unwrap();
    close(
        &first_partial(&y),
        &central(&det, &s3, &none, &d3, &none),
        1e-6,
    );
    // Its second derivative there (nested duals) is refused, not guessed.
    let x = Tensor::dual(
        outer,
        Tensor::dual(inner, s.clone(), vec![d.clone()]),
        vec![Tensor::dual(
            inner,
            d.clone(),
            vec![Tensor::filled(&[2, 2], 0.0)],
        )],
    );
    let err = det_tensor(&x).unwrap_err();
    assert!(err.to_string().contains("SingularException(2)"), "{err}");
}

/// The gradient of `sum(w .* f(A, b))` by the tape, against central differences.
fn check_reverse(f: &dyn Fn(&Tensor, &Tensor) -> Tensor, a: &Tensor, b: &Tensor) {
    let tape = Tape::new();
    let (ta, tb) = (tape.input(a.clone()), tape.input(b.clone()));
    let out = f(&ta, &tb);
    let w = pseudo_random(out.shape(), 21);
    let loss = ops::sum_all(&ops::binary(BinaryFn::Mul, &out, &w).unwrap()).unwrap();
    let node = |t: &Tensor| match t {
        Tensor::Tracked(tr) => tr.node,
        _ => panic!("tracked input expected"),
    };
    let grads = tape
        .gradient(
            &loss,
            &Tensor::scalar(1.0),
            &[
                (node(&ta), a.shape().to_vec()),
                (node(&tb), b.shape().to_vec()),
            ],
        )
        .unwrap();
    let scalar_loss = |a: &Tensor, b: &Tensor| {
        ops::sum_all(&ops::binary(BinaryFn::Mul, &f(a, b), &w).unwrap()).unwrap()
    };
    for (k, input) in [a, b].into_iter().enumerate() {
        for e in 0..input.len() {
            let mut unit = vec![0.0; input.len()];
            unit[e] = 1.0;
            let unit = Tensor::from_col_major(input.shape(), unit);
            let (za, zb) = (
                Tensor::filled(a.shape(), 0.0),
                Tensor::filled(b.shape(), 0.0),
            );
            let (da, db) = if k == 0 { (unit, zb) } else { (za, unit) };
            let want = central(&scalar_loss, a, b, &da, &db)[0];
            let got = grads[k].to_col_major()[e];
            assert!(
                (got - want).abs() < 1e-6 * (1.0 + want.abs()),
                "input {k}, entry {e}: {got} vs {want}"
            );
        }
    }
}

#[test]
fn reverse_rules_match_central_differences() {
    let solve = |a: &Tensor, b: &Tensor| solve_tensor(a, b).unwrap();
    check_reverse(&solve, &well_conditioned(3, 31), &pseudo_random(&[3], 32));
    check_reverse(
        &solve,
        &well_conditioned(3, 33),
        &pseudo_random(&[3, 2], 34),
    );
    check_reverse(
        &solve,
        &pseudo_random(&[5, 3], 35),
        &pseudo_random(&[5], 36),
    );
    check_reverse(
        &solve,
        &pseudo_random(&[2, 4], 37),
        &pseudo_random(&[2], 38),
    );
    let det = |a: &Tensor, b: &Tensor| {
        ops::binary(
            BinaryFn::Add,
            &det_tensor(a).unwrap(),
            &ops::sum_all(b).unwrap(),
        )
        .unwrap()
    };
    check_reverse(&det, &well_conditioned(3, 39), &vector(&[0.0]));
    let inv = |a: &Tensor, b: &Tensor| {
        ops::binary(
            BinaryFn::Mul,
            &inv_tensor(a).unwrap(),
            &ops::sum_all(b).unwrap(),
        )
        .unwrap()
    };
    check_reverse(&inv, &well_conditioned(3, 40), &vector(&[2.0]));
}

#[test]
fn sparsity_of_solve_and_det_is_dense_in_a() {
    let a = well_conditioned(3, 41);
    let b = vector(&[1.0, 2.0, 3.0]);
    let x = solve_tensor(&tracer::input(&a, false), &b).unwrap();
    let sets = tracer::sets_of(&x);
    assert!(sets.iter().all(|s| s.len() == 9));
    let x = solve_tensor(&a, &tracer::input(&b, true)).unwrap();
    assert!(tracer::sets_of(&x).iter().all(|s| s.len() == 3));
    close(
        &x.to_col_major(),
        &solve_tensor(&a, &b).unwrap().to_col_major(),
        1e-14,
    );
    let d = det_tensor(&tracer::input(&a, false)).unwrap();
    assert_eq!(tracer::sets_of(&d)[0].len(), 9);
}

#[test]
fn functions_without_rules_refuse_derivatives() {
    let mut it = interp();
    let a = rows(&[&[2.0, 1.0], &[1.0, 2.0]]);
    let dual = value(Tensor::dual(Tag::fresh(), a.clone(), vec![a]));
    for name in ["cond", "lu"] {
        let (kind, msg) = error_of(call(&mut it, name, vec![dual.clone()]));
        assert_eq!(kind, ErrorKind::MethodError);
        assert!(
            msg.starts_with(&format!("`{name}` has no derivative rule")),
            "{msg}"
        );
    }
}

#[test]
fn matrix_powers() {
    let mut it = interp();
    let fib = from_tensor(rows(&[&[1.0, 1.0], &[1.0, 0.0]]), ElType::Int64, false);
    let p = matrix_power(&mut it, &fib, &Value::Int(10)).value();
    assert_eq!(p.type_name(), "Matrix{Int64}");
    assert_eq!(numbers(&p), vec![89.0, 55.0, 55.0, 34.0]);
    let p = matrix_power(&mut it, &fib, &Value::Int(0)).value();
    assert_eq!(numbers(&p), vec![1.0, 0.0, 0.0, 1.0]);
    let p = matrix_power(&mut it, &fib, &Value::Int(-2)).value();
    assert_eq!(p.type_name(), "Matrix{Float64}");
    close(&numbers(&p), &[1.0, -1.0, -1.0, 2.0], 1e-12);
    let (kind, _) = error_of(matrix_power(&mut it, &fib, &Value::Float(0.5)));
    assert_eq!(kind, ErrorKind::MethodError);
}

#[test]
fn structural_functions() {
    let mut it = interp();
    let ints = |t: Tensor| from_tensor(t, ElType::Int64, false);
    let k = call(
        &mut it,
        "kron",
        vec![
            ints(rows(&[&[1.0, 0.0], &[0.0, 1.0]])),
            ints(rows(&[&[1.0, 2.0]])),
        ],
    )
    .value();
    assert_eq!(k.type_name(), "Matrix{Int64}");
    assert_eq!(numbers(&k), vec![1.0, 0.0, 2.0, 0.0, 0.0, 1.0, 0.0, 2.0]);
    let k = call(
        &mut it,
        "kron",
        vec![value(vector(&[1.0, 2.0])), value(vector(&[1.0, 10.0]))],
    )
    .value();
    assert_eq!(numbers(&k), vec![1.0, 10.0, 2.0, 20.0]);
    assert_eq!(k.type_name(), "Vector{Float64}");
    let a = ints(rows(&[
        &[1.0, 2.0, 3.0],
        &[4.0, 5.0, 6.0],
        &[7.0, 8.0, 9.0],
    ]));
    let u = call(&mut it, "triu", vec![a.clone()]).value();
    assert_eq!(
        numbers(&u),
        vec![1.0, 0.0, 0.0, 2.0, 5.0, 0.0, 3.0, 6.0, 9.0]
    );
    assert_eq!(u.type_name(), "Matrix{Int64}");
    let l = call(&mut it, "tril", vec![a.clone(), Value::Int(-1)]).value();
    assert_eq!(
        numbers(&l),
        vec![0.0, 4.0, 7.0, 0.0, 0.0, 8.0, 0.0, 0.0, 0.0]
    );
    let sym = |it: &mut Interp, v: Value| call(it, "issymmetric", vec![v]).value();
    assert!(matches!(sym(&mut it, a), Value::Bool(false)));
    assert!(matches!(
        sym(&mut it, value(rows(&[&[1.0, 2.0], &[2.0, 1.0]]))),
        Value::Bool(true)
    ));
    let d = call(
        &mut it,
        "diagm",
        vec![
            Value::Int(2),
            Value::Int(3),
            Value::pair(Value::Int(1), value(vector(&[5.0, 6.0]))),
        ],
    )
    .value();
    assert_eq!(numbers(&d), vec![0.0, 0.0, 5.0, 0.0, 0.0, 6.0]);
    assert!(matches!(
        call(&mut it, "tr", vec![ints(rows(&[&[1.0, 2.0], &[3.0, 4.0]]))]).value(),
        Value::Int(5)
    ));
    // triu is differentiable: it masks the partials too.
    let t = rows(&[&[1.0, 2.0], &[3.0, 4.0]]);
    let u = call(
        &mut it,
        "triu",
        vec![value(Tensor::dual(Tag::fresh(), t.clone(), vec![t]))],
    )
    .value();
    let u = tensor_of(&u);
    assert_eq!(first_partial(&u), vec![1.0, 0.0, 2.0, 4.0]);
}

#[test]
fn spectral_functions() {
    let mut it = interp();
    let c = call(
        &mut it,
        "cond",
        vec![value(rows(&[&[1.0, 0.0], &[0.0, 2.0]]))],
    )
    .value();
    assert!(matches!(c, Value::Float(x) if (x - 2.0).abs() < 1e-12));
    let c = call(
        &mut it,
        "cond",
        vec![value(rows(&[&[1.0, 2.0], &[2.0, 4.0]]))],
    )
    .value();
    assert!(matches!(c, Value::Float(x) if x > 1e15));
    let c = call(
        &mut it,
        "cond",
        vec![value(rows(&[&[1.0, 2.0], &[3.0, 4.0]])), Value::Int(1)],
    )
    .value();
    assert!(matches!(c, Value::Float(x) if (x - 21.0).abs() < 1e-12));
    let e = call(
        &mut it,
        "eigvals",
        vec![value(rows(&[&[2.0, 1.0], &[1.0, 2.0]]))],
    )
    .value();
    close(&numbers(&e), &[1.0, 3.0], 1e-12);
    let e = call(
        &mut it,
        "eigvals",
        vec![value(rows(&[&[3.0, 2.0], &[0.0, 1.0]]))],
    )
    .value();
    close(&numbers(&e), &[1.0, 3.0], 1e-12);
    let (kind, _) = error_of(call(
        &mut it,
        "eigvals",
        vec![value(rows(&[&[0.0, -1.0], &[1.0, 0.0]]))],
    ));
    assert_eq!(kind, ErrorKind::DomainError);
}
