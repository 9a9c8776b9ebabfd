//! Tests of sparse matrix display: cases taken verbatim from the `show` tests of Julia's
//! SparseArrays, the sparse results printed in the seed documents, and snapshots of the
//! braille pattern for larger matrices.

use expect_test::expect;
use sprs::{CsMat, TriMat};

use super::sparse::braille;
use super::testing::{framed, loose};
use super::{sparse_inline, sparse_plain, ElType, DEFAULT_SCREEN};

const F: ElType = ElType::Float64;
const I: ElType = ElType::Int64;
const B: ElType = ElType::Bool;

/// Julia's `sparse(I, J, V, m, n)` with 1-based indices.
fn sparse(is: &[usize], js: &[usize], vs: &[f64], m: usize, n: usize) -> CsMat<f64> {
    let mut t = TriMat::new((m, n));
    for ((&i, &j), &v) in is.iter().zip(js).zip(vs) {
        t.add_triplet(i - 1, j - 1, v);
    }
    t.to_csc()
}

/// The sparse matrix of the nonzero entries of a dense one given by rows.
fn from_rows(rows: &[&[f64]]) -> CsMat<f64> {
    let mut t = TriMat::new((rows.len(), rows[0].len()));
    for (i, row) in rows.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            if v != 0.0 {
                t.add_triplet(i, j, v);
            }
        }
    }
    t.to_csc()
}

/// A sparse matrix with an entry of 1 wherever `pattern(i, j)` holds (0-based).
fn pattern(m: usize, n: usize, pattern: impl Fn(usize, usize) -> bool) -> CsMat<f64> {
    let mut t = TriMat::new((m, n));
    for j in 0..n {
        for i in (0..m).filter(|&i| pattern(i, j)) {
            t.add_triplet(i, j, 1.0);
        }
    }
    t.to_csc()
}

fn plain(elt: ElType, m: &CsMat<f64>) -> String {
    sparse_plain(&m.view(), elt, None)
}

fn dots(m: &CsMat<f64>) -> String {
    braille(&m.view(), DEFAULT_SCREEN)
}

#[test]
fn sparsearrays_show_tests() {
    // SparseArrays' test/sparsematrix_constructors_indexing.jl, testset "show".
    assert_eq!(
        plain(F, &sparse(&[], &[], &[], 0, 0)),
        "0×0 SparseMatrixCSC{Float64, Int64} with 0 stored entries"
    );
    assert_eq!(
        plain(F, &sparse(&[1], &[1], &[1.0], 1, 1)),
        "1×1 SparseMatrixCSC{Float64, Int64} with 1 stored entry:\n 1.0"
    );
    assert_eq!(
        plain(F, &sparse(&[], &[], &[], 2, 2)),
        "2×2 SparseMatrixCSC{Float64, Int64} with 0 stored entries:\n  ⋅    ⋅ \n  ⋅    ⋅ "
    );
    let a = sparse(&[1, 1], &[1, 2], &[1.0, 2.0], 1, 2);
    assert_eq!(
        plain(F, &a),
        "1×2 SparseMatrixCSC{Float64, Int64} with 2 stored entries:\n 1.0  2.0"
    );
    assert_eq!(dots(&a), "⎡⠁⠈⎤\n⎣⠀⠀⎦");

    let a = sparse(&[1, 2, 4, 2, 3], &[1, 1, 1, 2, 2], &[1.0; 5], 4, 2);
    assert_eq!(
        plain(I, &a),
        "4×2 SparseMatrixCSC{Int64, Int64} with 5 stored entries:\n 1  ⋅\n 1  1\n ⋅  1\n 1  ⋅"
    );
    assert_eq!(dots(&a), "⎡⠅⠠⎤\n⎣⡀⠐⎦");

    let a = sparse(&[1, 3, 2, 4], &[1, 1, 2, 2], &[1.0; 4], 7, 3);
    assert_eq!(
        plain(I, &a),
        "7×3 SparseMatrixCSC{Int64, Int64} with 4 stored entries:\n 1  ⋅  ⋅\n ⋅  1  ⋅\n 1  ⋅  ⋅\n ⋅  1  ⋅\n ⋅  ⋅  ⋅\n ⋅  ⋅  ⋅\n ⋅  ⋅  ⋅"
    );
    assert_eq!(dots(&a), "⎡⢕⠀⎤\n⎣⠀⠀⎦");

    assert_eq!(
        dots(&pattern(10, 10, |i, j| i == j)),
        "⎡⠑⢄⠀⠀⠀⎤\n⎢⠀⠀⠑⢄⠀⎥\n⎣⠀⠀⠀⠀⠑⎦"
    );
    assert_eq!(dots(&pattern(4, 2, |_, _| false)), "⎡⠀⠀⎤\n⎣⠀⠀⎦");
    // Issue #30589.
    assert_eq!(
        plain(B, &sparse(&[1, 1], &[1, 2], &[1.0, 1.0], 1, 2)),
        "1×2 SparseMatrixCSC{Bool, Int64} with 2 stored entries:\n 1  1"
    );

    // Every one-dot braille pattern appears alone.
    for (k, dot) in "⠁⠂⠄⡀⠈⠐⠠⢀".chars().enumerate() {
        let out = dots(&pattern(8, 4, |i, j| i == k % 4 && j == k / 4));
        let others: Vec<char> = "⠁⠂⠄⡀⠈⠐⠠⢀".chars().filter(|&c| c != dot).collect();
        assert!(
            out.contains(dot) && !out.contains(&others[..]),
            "{k}: {out}"
        );
    }

    // Scaling to the screen: `:displaysize => (5, 80)` and `(80, 4)`.
    let full = |m, n| pattern(m, n, |_, _| true);
    assert_eq!(braille(&full(10, 10).view(), (5, 80)), "⎡⣿⣿⎤\n⎣⣿⣿⎦");
    assert_eq!(braille(&full(20, 10).view(), (5, 80)), "⎡⣿⣿⎤\n⎣⣿⣿⎦");
    assert_eq!(braille(&full(8, 8).view(), (80, 4)), "⎡⣿⣿⎤\n⎣⣿⣿⎦");
    assert_eq!(braille(&full(8, 16).view(), (80, 4)), "⎡⣿⣿⎤\n⎣⣿⣿⎦");

    // `repr` is `sparse(I, J, V, m, n)`.
    assert_eq!(
        sparse_inline(&a.view(), I),
        "sparse([1, 3, 2, 4], [1, 1, 2, 2], [1, 1, 1, 1], 7, 3)"
    );
}

#[test]
fn inline_forms() {
    let a = sparse(&[1, 1], &[1, 2], &[1.0, 2.0], 1, 2);
    assert_eq!(
        sparse_inline(&a.view(), F),
        "sparse([1, 1], [1, 2], [1.0, 2.0], 1, 2)"
    );
    assert_eq!(
        sparse_inline(&a.view(), B),
        "sparse([1, 1], [1, 2], Bool[1, 1], 1, 2)"
    );
    let empty = sparse(&[], &[], &[], 2, 3);
    assert_eq!(
        sparse_inline(&empty.view(), F),
        "sparse(Int64[], Int64[], Float64[], 2, 3)"
    );
    assert_eq!(
        sparse_inline(&empty.view(), B),
        "sparse(Int64[], Int64[], Bool[], 2, 3)"
    );
    // Stored entries are listed column by column, whatever the storage order.
    let csr = sparse(&[2, 1, 2], &[1, 2, 2], &[3.0, 4.0, 5.0], 2, 2).to_csr();
    assert_eq!(
        sparse_inline(&csr.view(), F),
        "sparse([2, 1, 2], [1, 2, 2], [3.0, 4.0, 5.0], 2, 2)"
    );
    assert_eq!(
        plain(F, &csr),
        "2×2 SparseMatrixCSC{Float64, Int64} with 3 stored entries:\n  ⋅   4.0\n 3.0  5.0"
    );
}

#[test]
fn seed_sparse_matrices() {
    // 003 (DifferentiationInterface paper), Listing 2: `hessian(f, back3, xsmall)`.
    let hess = from_rows(&[
        &[2., -2., 0., 0., 0.],
        &[-2., 4., -2., 0., 0.],
        &[0., -2., 4., -2., 0.],
        &[0., 0., -2., 4., -2.],
        &[0., 0., 0., -2., 2.],
    ]);
    let shown = plain(F, &hess);
    expect![[r#"
        5×5 SparseMatrixCSC{Float64, Int64} with 13 stored entries:|
          2.0  -2.0    ⋅     ⋅     ⋅ |
         -2.0   4.0  -2.0    ⋅     ⋅ |
           ⋅   -2.0   4.0  -2.0    ⋅ |
           ⋅     ⋅   -2.0   4.0  -2.0|
           ⋅     ⋅     ⋅   -2.0   2.0|
    "#]]
    .assert_eq(&framed(&shown));
    let seed = "5×5 SparseMatrixCSC{Float64, Int64}\nwith 13 stored entries:\n 2.0 -2.0  .  .  .\n-2.0  4.0 -2.0  .  .\n . -2.0  4.0 -2.0  .\n .  . -2.0  4.0 -2.0\n .  .  . -2.0  2.0";
    assert_eq!(loose(&shown), loose(seed));

    // 002 (sparsity slides): `jacobian(f, backend, x)` with `AutoSparse`; the slide drops
    // the "with 14 stored entries" of the header.
    let jac = from_rows(&[
        &[-2., 4., 0., 8., -10.],
        &[0., -4., 12., -8., 0.],
        &[0., 4., -12., 8., 0.],
        &[2., -4., 0., -8., 10.],
    ]);
    let shown = plain(F, &jac);
    expect![[r#"
        4×5 SparseMatrixCSC{Float64, Int64} with 14 stored entries:|
         -2.0   4.0     ⋅    8.0  -10.0|
           ⋅   -4.0   12.0  -8.0     ⋅ |
           ⋅    4.0  -12.0   8.0     ⋅ |
          2.0  -4.0     ⋅   -8.0   10.0|
    "#]]
    .assert_eq(&framed(&shown));
    let seed_body = "-2.0\t4.0\t.\t8.0\t-10.0\n.\t-4.0\t12.0\t-8.0\t.\n.\t4.0\t-12.0\t8.0\t.\n2.0\t-4.0\t.\t-8.0\t10.0";
    assert_eq!(loose(shown.split_once('\n').unwrap().1), loose(seed_body));

    // 002: `hessian(f, sparse_backend, x)` for four inputs (header abbreviated likewise).
    let hess4 = from_rows(&[
        &[2., -2., 0., 0.],
        &[-2., 4., -2., 0.],
        &[0., -2., 4., -2.],
        &[0., 0., -2., 2.],
    ]);
    let shown = plain(F, &hess4);
    assert!(shown.starts_with("4×4 SparseMatrixCSC{Float64, Int64} with 10 stored entries:\n"));
    let seed_body =
        " 2.0  -2.0   .   .\n-2.0   4.0  -2.0   .\n .   -2.0   4.0  -2.0\n .   .   -2.0   2.0";
    assert_eq!(loose(shown.split_once('\n').unwrap().1), loose(seed_body));
}

#[test]
fn sixteen_or_more_rows_or_columns_draw_braille() {
    let tridiagonal = |n| pattern(n, n, |i, j| i.abs_diff(j) <= 1);
    expect![[r#"
        16×16 SparseMatrixCSC{Float64, Int64} with 46 stored entries:|
        ⎡⠻⣦⡀⠀⠀⠀⠀⠀⎤|
        ⎢⠀⠈⠻⣦⡀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠈⠻⣦⡀⠀⎥|
        ⎣⠀⠀⠀⠀⠀⠈⠻⣦⎦|
    "#]]
    .assert_eq(&framed(&plain(F, &tridiagonal(16))));
    // Wider than 80 columns or taller than 80 rows: scaled down to 80 × 80 dots.
    expect![[r#"
        1000×1000 SparseMatrixCSC{Float64, Int64} with 2998 stored entries:|
        ⎡⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎤|
        ⎢⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⠀⠀⎥|
        ⎢⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⡀⠀⎥|
        ⎣⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠻⣦⎦|
    "#]]
    .assert_eq(&framed(&plain(F, &tridiagonal(1000))));
    let arrow = pattern(30, 200, |i, j| i == 0 || j == 0 || j == 6 * i);
    expect![[r#"
        30×200 SparseMatrixCSC{Bool, Int64} with 258 stored entries:|
        ⎡⡏⠉⠙⠙⠉⠍⠍⠍⢉⢉⢉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⎤|
        ⎢⡇⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠁⠁⠐⠐⠐⠀⠄⠄⠄⢀⢀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⎥|
        ⎣⡇⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠁⠁⠁⠐⠐⠀⠂⠄⠄⢀⢀⠀⠀⠀⠀⠀⎦|
    "#]]
    .assert_eq(&framed(&plain(B, &arrow)));
}

#[test]
fn small_sparse_wider_than_the_screen_elides_columns() {
    let wide = pattern(3, 15, |i, j| (i + j) % 4 == 0);
    let scaled: CsMat<f64> = wide.map(|&v| v * 123456.789);
    expect![[r#"
        3×15 SparseMatrixCSC{Float64, Int64} with 11 stored entries:|
         1.23457e5   ⋅    ⋅          ⋅         …  1.23457e5   ⋅    ⋅ |
          ⋅          ⋅    ⋅         1.23457e5      ⋅          ⋅    ⋅ |
          ⋅          ⋅   1.23457e5   ⋅             ⋅          ⋅   1.23457e5|
    "#]]
    .assert_eq(&framed(&plain(F, &scaled)));
    assert_eq!(
        sparse_plain(&scaled.view(), F, Some((4, 80))),
        "3×15 SparseMatrixCSC{Float64, Int64} with 11 stored entries: …"
    );
}

#[test]
fn any_screen_size_is_handled() {
    for (m, n) in [(3, 4), (15, 15), (16, 3), (40, 300)] {
        let a = pattern(m, n, |i, j| (i * 7 + j * 3) % 5 == 0);
        for rows in 0..30 {
            for cols in 0..50 {
                let out = sparse_plain(&a.view(), F, Some((rows, cols)));
                assert!(
                    out.starts_with(&format!("{m}×{n} SparseMatrixCSC")),
                    "{out}"
                );
            }
        }
    }
}

#[test]
fn sparse_vector_lists_its_stored_entries() {
    // SparseArrays' docstring of `sparsevec`: `sparsevec([1.0, 2.0, 0.0, 0.0, 3.0, 0.0])`.
    let x = sparse(&[1, 2, 5], &[1, 1, 1], &[1.0, 2.0, 3.0], 6, 1);
    assert_eq!(
        super::sparse_vector_plain(&x.view(), F, Some(DEFAULT_SCREEN)),
        "6-element SparseVector{Float64, Int64} with 3 stored entries:\n  [1]  =  1.0\n  [2]  =  2.0\n  [5]  =  3.0"
    );
    // Indices are padded on the right to the digits of the length.
    let x = sparse(&[1, 4], &[1, 1], &[2.3, 2.2], 10, 1);
    assert_eq!(
        super::sparse_vector_plain(&x.view(), F, Some(DEFAULT_SCREEN)),
        "10-element SparseVector{Float64, Int64} with 2 stored entries:\n  [1 ]  =  2.3\n  [4 ]  =  2.2"
    );
    let empty = sparse(&[], &[], &[], 4, 1);
    assert_eq!(
        super::sparse_vector_plain(&empty.view(), B, Some(DEFAULT_SCREEN)),
        "4-element SparseVector{Bool, Int64} with 0 stored entries"
    );
}

#[test]
fn sparse_vector_elides_the_middle_entries_that_do_not_fit() {
    // 12 rows: entries k < 2 and k > nnz - 2 show, and a `⋮` at k = 2.
    let x = sparse(&[1, 2, 3, 4, 5], &[1; 5], &[1.0, 2.0, 3.0, 4.0, 5.0], 5, 1);
    assert_eq!(
        super::sparse_vector_plain(&x.view(), F, Some((12, 80))),
        "5-element SparseVector{Float64, Int64} with 5 stored entries:\n  [1]  =  1.0\n       ⋮\n  [4]  =  4.0\n  [5]  =  5.0"
    );
}

#[test]
fn sparse_vector_shows_as_its_constructor_call() {
    let x = sparse(&[2, 5], &[1, 1], &[1.5, -2.0], 6, 1);
    assert_eq!(
        super::sparse_vector_inline(&x.view(), F, false),
        "sparsevec([2, 5], [1.5, -2.0], 6)"
    );
    let empty = sparse(&[], &[], &[], 3, 1);
    assert_eq!(
        super::sparse_vector_inline(&empty.view(), F, false),
        "sparsevec(Int64[], Float64[], 3)"
    );
}
