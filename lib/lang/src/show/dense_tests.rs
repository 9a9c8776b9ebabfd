//! Tests of dense array display: cases taken verbatim from Julia's own `test/show.jl`, the
//! printed results in the seed documents, and snapshots of the remaining layouts.

use expect_test::expect;
use ndarray::{ArrayD, IxDyn, ShapeBuilder};

use super::testing::{framed, loose};
use super::{dense_in_container, dense_inline, dense_plain, ElType};

const F: ElType = ElType::Float64;
const I: ElType = ElType::Int64;
const B: ElType = ElType::Bool;

/// An array from its entries in column-major order, as Julia's `reshape` takes them.
fn array(shape: &[usize], data: Vec<f64>) -> ArrayD<f64> {
    ArrayD::from_shape_vec(IxDyn(shape).f(), data).unwrap()
}

/// A matrix from its rows.
fn matrix(rows: &[&[f64]]) -> ArrayD<f64> {
    let (m, n) = (rows.len(), rows[0].len());
    array(
        &[m, n],
        (0..n)
            .flat_map(|j| rows.iter().map(move |r| r[j]))
            .collect(),
    )
}

fn vector(data: Vec<f64>) -> ArrayD<f64> {
    array(&[data.len()], data)
}

fn plain(elt: ElType, a: &ArrayD<f64>) -> String {
    dense_plain(elt, a.view(), None)
}

fn plain_rows(elt: ElType, a: &ArrayD<f64>, rows: usize) -> String {
    dense_plain(elt, a.view(), Some((rows, 80)))
}

#[test]
fn julia_matrix_printing() {
    // test/show.jl, "matrix printing".
    let eye = array(
        &[10, 10],
        (0..100).map(|k| f64::from(k % 11 == 0)).collect(),
    );
    let row = " 0.0  0.0  0.0  0.0  0.0  0.0  0.0  0.0  0.0  0.0";
    let rows: Vec<String> = (0..10)
        .map(|i| format!("{}1.0{}", &row[..1 + 5 * i], &row[4 + 5 * i..]))
        .collect();
    assert_eq!(
        plain(F, &eye),
        format!("10×10 Matrix{{Float64}}:\n{}", rows.join("\n"))
    );

    let v = vector((1..=100).map(f64::from).collect());
    assert_eq!(
        plain(F, &v),
        "100-element Vector{Float64}:\n   1.0\n   2.0\n   3.0\n   4.0\n   5.0\n   6.0\n   7.0\n   8.0\n   9.0\n  10.0\n   ⋮\n  92.0\n  93.0\n  94.0\n  95.0\n  96.0\n  97.0\n  98.0\n  99.0\n 100.0"
    );
    let wide = array(&[1, 100], (1..=100).map(f64::from).collect());
    assert_eq!(
        plain(F, &wide),
        "1×100 Matrix{Float64}:\n 1.0  2.0  3.0  4.0  5.0  6.0  7.0  …  95.0  96.0  97.0  98.0  99.0  100.0"
    );
    let table = array(
        &[100, 100],
        (0..10_000)
            .map(|k| f64::from((k % 100 + 1) * (k / 100 + 1)))
            .collect(),
    );
    assert_eq!(plain(F, &table), "100×100 Matrix{Float64}:\n   1.0    2.0    3.0    4.0    5.0    6.0  …    97.0    98.0    99.0    100.0\n   2.0    4.0    6.0    8.0   10.0   12.0      194.0   196.0   198.0    200.0\n   3.0    6.0    9.0   12.0   15.0   18.0      291.0   294.0   297.0    300.0\n   4.0    8.0   12.0   16.0   20.0   24.0      388.0   392.0   396.0    400.0\n   5.0   10.0   15.0   20.0   25.0   30.0      485.0   490.0   495.0    500.0\n   6.0   12.0   18.0   24.0   30.0   36.0  …   582.0   588.0   594.0    600.0\n   7.0   14.0   21.0   28.0   35.0   42.0      679.0   686.0   693.0    700.0\n   8.0   16.0   24.0   32.0   40.0   48.0      776.0   784.0   792.0    800.0\n   9.0   18.0   27.0   36.0   45.0   54.0      873.0   882.0   891.0    900.0\n  10.0   20.0   30.0   40.0   50.0   60.0      970.0   980.0   990.0   1000.0\n   ⋮                                  ⋮    ⋱                          \n  92.0  184.0  276.0  368.0  460.0  552.0     8924.0  9016.0  9108.0   9200.0\n  93.0  186.0  279.0  372.0  465.0  558.0     9021.0  9114.0  9207.0   9300.0\n  94.0  188.0  282.0  376.0  470.0  564.0     9118.0  9212.0  9306.0   9400.0\n  95.0  190.0  285.0  380.0  475.0  570.0     9215.0  9310.0  9405.0   9500.0\n  96.0  192.0  288.0  384.0  480.0  576.0  …  9312.0  9408.0  9504.0   9600.0\n  97.0  194.0  291.0  388.0  485.0  582.0     9409.0  9506.0  9603.0   9700.0\n  98.0  196.0  294.0  392.0  490.0  588.0     9506.0  9604.0  9702.0   9800.0\n  99.0  198.0  297.0  396.0  495.0  594.0     9603.0  9702.0  9801.0   9900.0\n 100.0  200.0  300.0  400.0  500.0  600.0     9700.0  9800.0  9900.0  10000.0");
}

#[test]
fn julia_limited_rows() {
    // test/show.jl, "Array printing with limited rows" (displaysize (rows, 80)).
    let ints = |n: usize| vector((1..=n).map(|k| k as f64).collect());
    assert_eq!(plain_rows(I, &ints(1), 4), "1-element Vector{Int64}: …");
    assert_eq!(plain_rows(I, &ints(1), 5), "1-element Vector{Int64}:\n 1");
    assert_eq!(plain_rows(I, &ints(2), 5), "2-element Vector{Int64}:\n ⋮");
    assert_eq!(
        plain_rows(I, &ints(2), 6),
        "2-element Vector{Int64}:\n 1\n 2"
    );
    assert_eq!(
        plain_rows(I, &ints(3), 6),
        "3-element Vector{Int64}:\n 1\n ⋮"
    );
    let zeros = |m: usize, n: usize| array(&[m, n], vec![0.0; m * n]);
    assert_eq!(plain_rows(F, &zeros(4, 3), 4), "4×3 Matrix{Float64}: …");
    assert_eq!(plain_rows(F, &zeros(4, 30), 4), "4×30 Matrix{Float64}: …");
    assert_eq!(
        plain_rows(F, &zeros(4, 3), 5),
        "4×3 Matrix{Float64}:\n ⋮      ⋱  "
    );
    assert_eq!(
        plain_rows(F, &zeros(4, 30), 5),
        "4×30 Matrix{Float64}:\n ⋮      ⋱  "
    );
    assert_eq!(
        plain_rows(F, &zeros(4, 3), 6),
        "4×3 Matrix{Float64}:\n 0.0  0.0  0.0\n ⋮         "
    );
    assert_eq!(
        plain_rows(F, &zeros(4, 30), 6),
        "4×30 Matrix{Float64}:\n 0.0  0.0  0.0  0.0  0.0  0.0  0.0  0.0  …  0.0  0.0  0.0  0.0  0.0  0.0  0.0\n ⋮                        ⋮              ⋱            ⋮                   "
    );
}

#[test]
fn julia_compact_and_show() {
    // test/show.jl, "arrays printing follows the :compact property", "Bool", "0-dimensional".
    let x = std::f64::consts::PI;
    assert_eq!(
        plain(F, &vector(vec![x, x])),
        "2-element Vector{Float64}:\n 3.141592653589793\n 3.141592653589793"
    );
    assert_eq!(
        plain(F, &matrix(&[&[x, x], &[x, x]])),
        "2×2 Matrix{Float64}:\n 3.14159  3.14159\n 3.14159  3.14159"
    );
    assert_eq!(
        dense_inline(F, vector(vec![x, x]).view()),
        "[3.141592653589793, 3.141592653589793]"
    );
    assert_eq!(
        dense_inline(F, matrix(&[&[x, x], &[x, x]]).view()),
        "[3.141592653589793 3.141592653589793; 3.141592653589793 3.141592653589793]"
    );
    assert_eq!(
        dense_inline(F, array(&[2, 2], vec![0.0; 4]).view()),
        "[0.0 0.0; 0.0 0.0]"
    );
    assert_eq!(dense_inline(B, vector(vec![1.0, 0.0]).view()), "Bool[1, 0]");
    let scalar = |x: f64| array(&[], vec![x]);
    assert_eq!(dense_inline(I, scalar(0.0).view()), "fill(0)");
    assert_eq!(dense_inline(B, scalar(0.0).view()), "BitArray(0)");
    assert_eq!(plain(B, &scalar(0.0)), "0-dimensional BitArray{0}:\n0");
    assert_eq!(plain(I, &scalar(0.0)), "0-dimensional Array{Int64, 0}:\n0");
    assert_eq!(plain(I, &vector(vec![])), "Int64[]");
    // Entries of a `Vector{Vector{Int64}}` and of a vector of empty matrices.
    assert_eq!(
        dense_in_container(I, vector(vec![]).view(), false, true),
        "[]"
    );
    assert_eq!(
        dense_in_container(F, array(&[3, 0], vec![]).view(), false, true),
        "3×0 Matrix{Float64}"
    );
}

#[test]
fn julia_nd_arrays() {
    // The Julia manual's "Multi-dimensional Arrays" example of `;;;` printing and slices.
    let iota = |shape: &[usize]| {
        array(
            shape,
            (1..=shape.iter().product::<usize>())
                .map(|k| k as f64)
                .collect(),
        )
    };
    let shapes: [&[usize]; 8] = [
        &[1, 1, 1],
        &[1, 2, 1],
        &[2, 1, 1],
        &[2, 2, 1],
        &[1, 1, 2],
        &[1, 2, 2],
        &[2, 1, 2],
        &[2, 2, 2],
    ];
    let shown: Vec<String> = shapes
        .iter()
        .map(|s| dense_inline(I, iota(s).view()))
        .collect();
    assert_eq!(
        shown,
        [
            "[1;;;]",
            "[1 2;;;]",
            "[1; 2;;;]",
            "[1 3; 2 4;;;]",
            "[1;;; 2]",
            "[1 2;;; 3 4]",
            "[1; 2;;; 3; 4]",
            "[1 3; 2 4;;; 5 7; 6 8]"
        ]
    );
    let block = array(
        &[3, 3, 3],
        vec![
            1., 1., 2., 1., 1., 2., 2., 3., 4., 1., 1., 2., 1., 1., 2., 2., 3., 4., 2., 3., 4., 3.,
            5., 6., 4., 7., 8.,
        ],
    );
    assert_eq!(
        plain(I, &block),
        "3×3×3 Array{Int64, 3}:\n[:, :, 1] =\n 1  1  2\n 1  1  3\n 2  2  4\n\n[:, :, 2] =\n 1  1  2\n 1  1  3\n 2  2  4\n\n[:, :, 3] =\n 2  3  4\n 3  5  7\n 4  6  8"
    );
}

#[test]
fn seed_matrices() {
    // 003 (DifferentiationInterface paper), Listing 2: `hessian(f, back1, xsmall)`.
    let hess = matrix(&[
        &[2., -2., 0., 0., 0.],
        &[-2., 4., -2., 0., 0.],
        &[0., -2., 4., -2., 0.],
        &[0., 0., -2., 4., -2.],
        &[0., 0., 0., -2., 2.],
    ]);
    let shown = plain(F, &hess);
    assert_eq!(shown, "5×5 Matrix{Float64}:\n  2.0  -2.0   0.0   0.0   0.0\n -2.0   4.0  -2.0   0.0   0.0\n  0.0  -2.0   4.0  -2.0   0.0\n  0.0   0.0  -2.0   4.0  -2.0\n  0.0   0.0   0.0  -2.0   2.0");
    let seed = "5×5 Matrix{Float64}:\n 2.0 -2.0  0.0  0.0  0.0\n-2.0  4.0 -2.0  0.0  0.0\n 0.0 -2.0  4.0 -2.0  0.0\n 0.0  0.0 -2.0  4.0 -2.0\n 0.0  0.0  0.0 -2.0  2.0";
    assert_eq!(loose(&shown), loose(seed));

    // 002 (sparsity slides): `jacobian(f, AutoForwardDiff(), x)`.
    let jac = matrix(&[
        &[-2., 4., 0., 8., -10.],
        &[0., -4., 12., -8., 0.],
        &[0., 4., -12., 8., 0.],
        &[2., -4., 0., -8., 10.],
    ]);
    let shown = plain(F, &jac);
    assert_eq!(shown, "4×5 Matrix{Float64}:\n -2.0   4.0    0.0   8.0  -10.0\n  0.0  -4.0   12.0  -8.0    0.0\n  0.0   4.0  -12.0   8.0    0.0\n  2.0  -4.0    0.0  -8.0   10.0");
    let seed = "4×5 Matrix{Float64}:\n-2.0  4.0  0.0  8.0 -10.0\n 0.0 -4.0 12.0 -8.0  0.0\n 0.0  4.0 -12.0  8.0  0.0\n 2.0 -4.0  0.0 -8.0 10.0";
    assert_eq!(loose(&shown), loose(seed));

    // 002: `hessian(f, dense_backend, x)` for four inputs.
    let hess4 = matrix(&[
        &[2., -2., 0., 0.],
        &[-2., 4., -2., 0.],
        &[0., -2., 4., -2.],
        &[0., 0., -2., 2.],
    ]);
    let shown = plain(F, &hess4);
    assert_eq!(shown, "4×4 Matrix{Float64}:\n  2.0  -2.0   0.0   0.0\n -2.0   4.0  -2.0   0.0\n  0.0  -2.0   4.0  -2.0\n  0.0   0.0  -2.0   2.0");
    let seed = "4×4 Matrix{Float64}:\n 2.0  -2.0   0.0   0.0\n-2.0   4.0  -2.0   0.0\n 0.0  -2.0   4.0  -2.0\n 0.0   0.0  -2.0   2.0";
    assert_eq!(loose(&shown), loose(seed));

    // 003, Listing 1: `x = float.(1:5)` and its gradient `2x`.
    assert_eq!(
        plain(F, &vector(vec![1., 2., 3., 4., 5.])),
        "5-element Vector{Float64}:\n 1.0\n 2.0\n 3.0\n 4.0\n 5.0"
    );
    assert_eq!(
        dense_inline(F, vector(vec![2., 4., 6., 8., 10.]).view()),
        "[2.0, 4.0, 6.0, 8.0, 10.0]"
    );
}

#[test]
fn mixed_widths_negatives_and_exponents() {
    let m = matrix(&[
        &[1.0, -0.5, 1e-10, f64::NAN],
        &[-123.25, 1e6, 0.1 + 0.2, f64::INFINITY],
        &[0.0, 2.0 / 3.0, -1234567.0, f64::NEG_INFINITY],
    ]);
    expect![[r#"
        3×4 Matrix{Float64}:|
            1.0   -0.5        1.0e-10    NaN|
         -123.25   1.0e6      0.3         Inf|
            0.0    0.666667  -1.23457e6  -Inf|
    "#]]
    .assert_eq(&framed(&plain(F, &m)));
    let v = vector(vec![1.0, -2.5, 1e-5, 100.0, 0.1 + 0.2]);
    expect![[r#"
        5-element Vector{Float64}:|
           1.0|
          -2.5|
           1.0e-5|
         100.0|
           0.30000000000000004|
    "#]]
    .assert_eq(&framed(&plain(F, &v)));
    assert_eq!(
        dense_inline(F, v.view()),
        "[1.0, -2.5, 1.0e-5, 100.0, 0.30000000000000004]"
    );
}

#[test]
fn ints_bools_and_empties() {
    let m = matrix(&[&[1., -20., 300.], &[-4000., 5., 60.]]);
    expect![[r#"
        2×3 Matrix{Int64}:|
             1  -20  300|
         -4000    5   60|
    "#]]
    .assert_eq(&framed(&plain(I, &m)));
    assert_eq!(dense_inline(I, m.view()), "[1 -20 300; -4000 5 60]");
    assert_eq!(
        dense_inline(I, array(&[2, 1], vec![1., 2.]).view()),
        "[1; 2;;]"
    );
    assert_eq!(dense_inline(F, array(&[1, 1], vec![1.]).view()), "[1.0;;]");

    let mask = vector(vec![0., 1., 1.]);
    assert_eq!(plain(B, &mask), "3-element BitVector:\n 0\n 1\n 1");
    assert_eq!(
        plain(B, &matrix(&[&[1., 0.], &[0., 1.]])),
        "2×2 BitMatrix:\n 1  0\n 0  1"
    );
    assert_eq!(
        dense_inline(B, matrix(&[&[1., 0.], &[0., 1.]]).view()),
        "Bool[1 0; 0 1]"
    );

    assert_eq!(plain(F, &vector(vec![])), "Float64[]");
    assert_eq!(plain(B, &vector(vec![])), "0-element BitVector");
    assert_eq!(
        dense_in_container(B, vector(vec![]).view(), false, true),
        "0-element BitVector"
    );
    assert_eq!(
        dense_in_container(B, vector(vec![]).view(), true, false),
        "Bool[]"
    );
    assert_eq!(
        dense_in_container(F, vector(vec![]).view(), false, false),
        "Float64[]"
    );
    assert_eq!(plain(F, &array(&[0, 3], vec![])), "0×3 Matrix{Float64}");
    assert_eq!(
        plain(F, &array(&[2, 0, 2], vec![])),
        "2×0×2 Array{Float64, 3}"
    );
    assert_eq!(
        dense_inline(F, array(&[0, 3], vec![]).view()),
        "Matrix{Float64}(undef, 0, 3)"
    );
    assert_eq!(
        dense_inline(I, array(&[2, 0, 2], vec![]).view()),
        "Array{Int64, 3}(undef, 2, 0, 2)"
    );
    assert_eq!(
        dense_inline(B, array(&[0, 3], vec![]).view()),
        "0×3 BitMatrix"
    );
}

#[test]
fn long_vector_elides_rows() {
    // A vector like `rand(100)` on the default 24×80 screen: 10 entries, `⋮`, the last 9.
    let v = vector(
        (1..=100)
            .map(|k| (f64::from(k) * 0.37).sin().abs())
            .collect(),
    );
    expect![[r#"
        100-element Vector{Float64}:|
         0.361615431964962|
         0.674287911628145|
         0.8956986856800476|
         0.99588084453764|
         0.9612752029752999|
         0.7965654722360868|
         0.5240443416872761|
         0.18059626789423291|
         0.18729466354290317|
         0.5298361409084934|
         ⋮|
         0.4947257161043997|
         0.14698472145297067|
         0.22064996571062537|
         0.5584207151310637|
         0.8206118404285121|
         0.971737002788134|
         0.9913421204447351|
         0.8767737326952595|
         0.6435381333569995|
    "#]]
    .assert_eq(&framed(&plain(F, &v)));
    // As an entry of a container, Julia's limited `show` keeps the first and last 10.
    let shown: Vec<String> = v.iter().map(|&x| super::float(x)).collect();
    let want = format!(
        "[{}  …  {}]",
        shown[..10].join(", "),
        shown[90..].join(", ")
    );
    assert_eq!(dense_in_container(F, v.view(), false, true), want);
}

#[test]
fn wide_matrix_elides_columns() {
    let z = array(&[10, 30], (0..300).map(f64::from).collect());
    expect![[r#"
        10×30 Matrix{Float64}:|
         0.0  10.0  20.0  30.0  40.0  50.0  …  250.0  260.0  270.0  280.0  290.0|
         1.0  11.0  21.0  31.0  41.0  51.0     251.0  261.0  271.0  281.0  291.0|
         2.0  12.0  22.0  32.0  42.0  52.0     252.0  262.0  272.0  282.0  292.0|
         3.0  13.0  23.0  33.0  43.0  53.0     253.0  263.0  273.0  283.0  293.0|
         4.0  14.0  24.0  34.0  44.0  54.0     254.0  264.0  274.0  284.0  294.0|
         5.0  15.0  25.0  35.0  45.0  55.0  …  255.0  265.0  275.0  285.0  295.0|
         6.0  16.0  26.0  36.0  46.0  56.0     256.0  266.0  276.0  286.0  296.0|
         7.0  17.0  27.0  37.0  47.0  57.0     257.0  267.0  277.0  287.0  297.0|
         8.0  18.0  28.0  38.0  48.0  58.0     258.0  268.0  278.0  288.0  298.0|
         9.0  19.0  29.0  39.0  49.0  59.0     259.0  269.0  279.0  289.0  299.0|
    "#]]
    .assert_eq(&framed(&plain(F, &z)));
    let limited = dense_in_container(F, z.view(), true, true);
    assert_eq!(limited, "[0.0 10.0 … 280.0 290.0; 1.0 11.0 … 281.0 291.0; … ; 8.0 18.0 … 288.0 298.0; 9.0 19.0 … 289.0 299.0]");
}

#[test]
fn rank_three_floats() {
    let a = array(&[2, 2, 2], vec![0.5, -1.0, 1e-7, 2.0, 3.0, 4.0, 5.0, 6.25]);
    expect![[r#"
        2×2×2 Array{Float64, 3}:|
        [:, :, 1] =|
          0.5  1.0e-7|
         -1.0  2.0|
        |
        [:, :, 2] =|
         3.0  5.0|
         4.0  6.25|
    "#]]
    .assert_eq(&framed(&plain(F, &a)));
    assert_eq!(
        dense_inline(F, a.view()),
        "[0.5 1.0e-7; -1.0 2.0;;; 3.0 5.0; 4.0 6.25]"
    );
    let many = array(&[1, 1, 12], (1..=12).map(f64::from).collect());
    expect![[r#"
        1×1×12 Array{Int64, 3}:|
        [:, :, 1] =|
         1|
        |
        [:, :, 2] =|
         2|
        |
        [:, :, 3] =|
         3|
        |
        ;;; … |
        |
        [:, :, 10] =|
         10|
        |
        [:, :, 11] =|
         11|
        |
        [:, :, 12] =|
         12|
    "#]]
    .assert_eq(&framed(&plain(I, &many)));
}

#[test]
fn any_screen_size_is_handled() {
    let shapes: [&[usize]; 5] = [&[1], &[7], &[3, 40], &[30, 3], &[4, 3, 12]];
    for shape in shapes {
        let len = shape.iter().product::<usize>();
        let a = array(shape, (0..len).map(|k| (k as f64 - 7.5) * 1.37e3).collect());
        for rows in 0..30 {
            for cols in 0..50 {
                let out = dense_plain(F, a.view(), Some((rows, cols)));
                assert!(
                    out.lines().count() <= rows.max(1) * 12,
                    "{rows}×{cols}: {out}"
                );
            }
        }
    }
}
