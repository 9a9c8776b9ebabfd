//! Shared helpers for the integration tests: a small Matrix Market reader, seeded random
//! patterns, and the round-trip/validity checks every coloring result must pass.
//!
//! `colpack.rs` (and the coloring benchmark, which includes this file) reads the matrices and
//! ColPack's counts under `tests/fixtures/matrices` of the repository; `small.rs` and `random.rs` build their own.

#![allow(dead_code)] // each test file uses a different subset

use std::path::{Path, PathBuf};

use difflab_coloring::{
    compress_bidirectional, compress_dense, decompress, decompress_bidirectional,
    directly_recoverable_columns, structurally_biorthogonal, structurally_orthogonal_columns,
    structurally_orthogonal_rows, symmetrically_orthogonal_columns, ColoringResult, Decompression,
    Order, Partition, SparsityPattern, Structure,
};
use ndarray::Array2;
use sprs::{CsMat, TriMat};

/// One row of `colpack_counts.tsv`: ColPack's colors and time for a (matrix, problem, order).
pub struct ColPackRow {
    pub matrix: String,
    pub problem: String,
    pub order: String,
    pub colors: usize,
    pub seconds: f64,
}

/// Every row of `colpack_counts.tsv`.
pub fn colpack_rows() -> Vec<ColPackRow> {
    let text = std::fs::read_to_string(matrices_dir().join("colpack_counts.tsv")).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            ColPackRow {
                matrix: f[0].to_string(),
                problem: f[4].to_string(),
                order: f[5].to_string(),
                colors: f[6].parse().unwrap(),
                seconds: f[7].parse().unwrap(),
            }
        })
        .collect()
}

/// difflab's order for a ColPack order name.
pub fn colpack_order(name: &str) -> Order {
    match name {
        "NATURAL" => Order::Natural,
        "LARGEST_FIRST" => Order::LargestFirst,
        "SMALLEST_LAST" => Order::SMALLEST_LAST,
        "INCIDENCE_DEGREE" => Order::INCIDENCE_DEGREE,
        "DYNAMIC_LARGEST_FIRST" => Order::DYNAMIC_LARGEST_FIRST,
        other => panic!("unknown order {other}"),
    }
}

/// The test matrices kept in the repository (`tests/fixtures/matrices` from its root), found
/// from the package directory cargo names when it runs the test (`CARGO_MANIFEST_DIR` at run
/// time), so that a test binary reused for a copy of the repository reads the copy's files.
pub fn matrices_dir() -> PathBuf {
    let package = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    let dir = package.join("../../tests/fixtures/matrices");
    assert!(
        dir.join("colpack_counts.tsv").is_file(),
        "test matrices not found at {} (tests/fixtures/matrices of the repository)",
        dir.display()
    );
    dir
}

/// A coordinate Matrix Market file with its symmetric storage expanded.
pub struct Mtx {
    pub nrows: usize,
    pub ncols: usize,
    /// `(row, col, value)`, 0-based; pattern files get value 1.
    pub entries: Vec<(usize, usize, f64)>,
}

impl Mtx {
    pub fn read(path: &Path) -> Mtx {
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut lines = text.lines();
        let banner = lines.next().expect("banner").to_lowercase();
        assert!(
            banner.starts_with("%%matrixmarket matrix coordinate"),
            "{banner}"
        );
        let symmetric = banner.contains("symmetric");
        let mut lines = lines.filter(|l| !l.starts_with('%') && !l.trim().is_empty());
        let size: Vec<usize> = lines
            .next()
            .expect("size line")
            .split_whitespace()
            .map(|t| t.parse().expect("size"))
            .collect();
        let (nrows, ncols, nnz) = (size[0], size[1], size[2]);
        let mut entries = Vec::with_capacity(if symmetric { 2 * nnz } else { nnz });
        for line in lines.take(nnz) {
            let mut tokens = line.split_whitespace();
            let i: usize = tokens.next().and_then(|t| t.parse().ok()).expect("row");
            let j: usize = tokens.next().and_then(|t| t.parse().ok()).expect("col");
            let v: f64 = tokens.next().map_or(1.0, |t| t.parse().expect("value"));
            entries.push((i - 1, j - 1, v));
            if symmetric && i != j {
                entries.push((j - 1, i - 1, v));
            }
        }
        Mtx {
            nrows,
            ncols,
            entries,
        }
    }

    /// Pattern of the stored entries, explicit zeros included.
    pub fn stored_pattern(&self) -> SparsityPattern {
        let e: Vec<_> = self.entries.iter().map(|&(i, j, _)| (i, j)).collect();
        SparsityPattern::from_entries(self.nrows, self.ncols, &e).unwrap()
    }

    /// Pattern of the nonzero entries.
    pub fn nonzero_pattern(&self) -> SparsityPattern {
        let e: Vec<_> = self
            .entries
            .iter()
            .filter(|t| t.2 != 0.0)
            .map(|&(i, j, _)| (i, j))
            .collect();
        SparsityPattern::from_entries(self.nrows, self.ncols, &e).unwrap()
    }
}

/// A tiny deterministic generator (SplitMix64) so the tests need no extra dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.uniform() * n as f64) as usize
    }
}

/// Values that never cancel by accident: distinct, irregular, nonzero.
pub fn values_for(pattern: &SparsityPattern, rng: &mut Rng) -> Vec<f64> {
    (0..pattern.nnz())
        .map(|_| 1.0 + rng.uniform() * 9.0 + rng.below(1000) as f64)
        .collect()
}

/// Values for a symmetric pattern: `A[i, j] == A[j, i]`.
pub fn symmetric_values_for(pattern: &SparsityPattern, rng: &mut Rng) -> Vec<f64> {
    let raw = values_for(pattern, rng);
    pattern
        .entries()
        .map(|(i, j)| {
            raw[pattern
                .position(i.max(j), i.min(j))
                .expect("symmetric pattern")]
        })
        .collect()
}

/// `sprand`: each entry present with probability `p`.
pub fn random_pattern(m: usize, n: usize, p: f64, rng: &mut Rng) -> SparsityPattern {
    let entries: Vec<_> = (0..n)
        .flat_map(|j| (0..m).map(move |i| (i, j)))
        .filter(|_| rng.uniform() < p)
        .collect();
    SparsityPattern::from_entries(m, n, &entries).unwrap()
}

/// A random structurally symmetric pattern with a random part of the diagonal.
pub fn random_symmetric_pattern(n: usize, p: f64, rng: &mut Rng) -> SparsityPattern {
    let mut entries = Vec::new();
    for j in 0..n {
        for i in j..n {
            if rng.uniform() < p {
                entries.push((i, j));
                entries.push((j, i));
            }
        }
    }
    SparsityPattern::from_entries(n, n, &entries).unwrap()
}

pub fn to_csmat(pattern: &SparsityPattern, values: &[f64]) -> CsMat<f64> {
    let mut t = TriMat::new(pattern.shape());
    for ((i, j), &v) in pattern.entries().zip(values) {
        t.add_triplet(i, j, v);
    }
    t.to_csc()
}

pub fn to_dense(pattern: &SparsityPattern, values: &[f64]) -> Array2<f64> {
    let mut a = Array2::zeros(pattern.shape());
    for ((i, j), &v) in pattern.entries().zip(values) {
        a[[i, j]] = v;
    }
    a
}

/// Checks validity with the checker matching the result, and that decompressing the
/// compressed matrix (sparse and dense compression) gives back exactly `values`.
pub fn check_result(result: &ColoringResult, values: &[f64]) {
    let pattern = result.pattern();
    let problem = result.problem();
    let direct = result.algorithm().decompression == Decompression::Direct;
    match (problem.structure, problem.partition) {
        (Structure::Nonsymmetric, Partition::Column) => {
            let colors = result.column_colors().unwrap();
            structurally_orthogonal_columns(pattern, colors).unwrap();
            directly_recoverable_columns(pattern, values, colors).unwrap();
        }
        (Structure::Nonsymmetric, Partition::Row) => {
            structurally_orthogonal_rows(pattern, result.row_colors().unwrap()).unwrap();
        }
        (Structure::Symmetric, _) => {
            let colors = result.column_colors().unwrap();
            if direct {
                symmetrically_orthogonal_columns(pattern, colors).unwrap();
                directly_recoverable_columns(pattern, values, colors).unwrap();
            }
        }
        (Structure::Nonsymmetric, Partition::Bidirectional) => {
            if direct {
                structurally_biorthogonal(
                    pattern,
                    result.row_colors().unwrap(),
                    result.column_colors().unwrap(),
                )
                .unwrap();
            }
        }
    }
    // A compressed matrix has one dense column (or row) per color: skip the round trip when
    // it would not fit comfortably in memory (the arrowhead matrix needs 46500 colors).
    let (m, n) = pattern.shape();
    if m.max(n) * result.ncolors() > 1 << 26 {
        return;
    }
    let a = to_csmat(pattern, values);
    let recovered = if problem.partition == Partition::Bidirectional {
        let (br, bc) = compress_bidirectional(&a, result).unwrap();
        decompress_bidirectional(br.view(), bc.view(), result).unwrap()
    } else {
        let b = difflab_coloring::compress(&a, result).unwrap();
        if m * n <= 1 << 20 {
            let dense = compress_dense(to_dense(pattern, values).view(), result).unwrap();
            assert_eq!(b, dense);
        }
        // The same compressed matrix given line by line, as AD computes it.
        let by_rows = problem.partition == Partition::Row;
        let lines: Vec<Vec<f64>> = if by_rows {
            b.rows().into_iter().map(|l| l.to_vec()).collect()
        } else {
            b.columns().into_iter().map(|l| l.to_vec()).collect()
        };
        let lines: Vec<&[f64]> = lines.iter().map(Vec::as_slice).collect();
        let mut from_lines = vec![0.0; pattern.nnz()];
        difflab_coloring::decompress_lines_into(&mut from_lines, &lines, result).unwrap();
        let recovered = decompress(b.view(), result).unwrap();
        assert_eq!(from_lines, recovered.data());
        // Again, through what the first decompression worked out once for the result.
        let mut again = vec![f64::NAN; pattern.nnz()];
        difflab_coloring::decompress_lines_into(&mut again, &lines, result).unwrap();
        assert_eq!(again, from_lines);
        recovered
    };
    assert_eq!(recovered.indptr().raw_storage(), pattern.colptr());
    assert_eq!(recovered.indices(), pattern.rowval());
    for (k, (&got, &want)) in recovered.data().iter().zip(values).enumerate() {
        // Substitution subtracts partial sums, so allow rounding; direct recovery is exact.
        let tol = if direct {
            0.0
        } else {
            1e-8 * (1.0 + want.abs())
        };
        assert!(
            (got - want).abs() <= tol,
            "entry {k}: got {got}, want {want}"
        );
    }
}
