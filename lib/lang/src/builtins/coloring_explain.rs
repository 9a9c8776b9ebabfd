//! What the coloring checkers say with `verbose=true` when a check fails: SparseMatrixColorings'
//! messages, found by scanning the matrix in the order its checkers do (colors in order, rows
//! then columns), so the problem reported first is the one SMC reports. The checks themselves
//! are the coloring crate's; these are small-scale explanations, dense in the matrix size.

use difflab_ad::shared_sparse::SharedCsMat;

/// The largest matrix (in entries, zeros included) explained this way; beyond, the caller
/// reports the crate's own description of the violation.
pub(super) const MAX_EXPLAINED_ENTRIES: usize = 4_000_000;

/// Which check failed.
#[derive(Clone, Copy)]
pub(super) enum Check {
    OrthogonalColumns,
    OrthogonalRows,
    SymmetricColumns,
    Biorthogonal,
    DirectlyRecoverable,
}

/// The stored nonzeros of a matrix as a dense test.
struct Nonzeros {
    nrows: usize,
    ncols: usize,
    values: Vec<f64>,
}

impl Nonzeros {
    fn new(matrix: &SharedCsMat, transposed: bool) -> Nonzeros {
        let (m, n) = (matrix.rows(), matrix.cols());
        let (nrows, ncols) = if transposed { (n, m) } else { (m, n) };
        let mut values = vec![0.0; nrows * ncols];
        for (&v, (i, j)) in matrix.iter() {
            let (i, j) = if transposed { (j, i) } else { (i, j) };
            values[i + j * nrows] = v;
        }
        Nonzeros {
            nrows,
            ncols,
            values,
        }
    }

    fn get(&self, i: usize, j: usize) -> f64 {
        self.values[i + j * self.nrows]
    }

    fn nonzero(&self, i: usize, j: usize) -> bool {
        self.get(i, j) != 0.0
    }
}

/// The 0-based members of each color `1..=max` (neutral members, color 0, in none).
fn groups(colors: &[usize]) -> Vec<Vec<usize>> {
    let mut groups = vec![Vec::new(); colors.iter().copied().max().unwrap_or(0)];
    for (k, &c) in colors.iter().enumerate() {
        if c > 0 {
            groups[c - 1].push(k);
        }
    }
    groups
}

/// `[2, 3]`: 0-based indices shown 1-based.
fn shown(indices: impl IntoIterator<Item = usize>) -> String {
    let items: Vec<String> = indices.into_iter().map(|k| (k + 1).to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// SMC's warnings for `check` failing on `matrix` (whose numbers are integers when
/// `integers`) with these color vectors; empty when SMC would fail silently, `None` for a
/// matrix of more than [`MAX_EXPLAINED_ENTRIES`].
pub(super) fn explain(
    check: Check,
    matrix: &SharedCsMat,
    integers: bool,
    colors: &[Vec<usize>],
) -> Option<Vec<String>> {
    if matrix.rows().checked_mul(matrix.cols())? > MAX_EXPLAINED_ENTRIES {
        return None;
    }
    let a = Nonzeros::new(matrix, matches!(check, Check::OrthogonalRows));
    let mut warnings = Vec::new();
    if let Check::Biorthogonal = check {
        if colors[0].len() != a.nrows {
            warnings.push(format!(
                "{} colors provided for {} rows.",
                colors[0].len(),
                a.nrows
            ));
        }
    }
    let column_colors = colors.last().map(Vec::as_slice).unwrap_or(&[]);
    if column_colors.len() != a.ncols {
        warnings.push(format!(
            "{} colors provided for {} columns.",
            column_colors.len(),
            a.ncols
        ));
    }
    if !warnings.is_empty() {
        return Some(warnings);
    }
    let message = match check {
        Check::OrthogonalColumns | Check::OrthogonalRows => orthogonality(&a, column_colors),
        Check::SymmetricColumns => {
            let symmetric = a.nrows == a.ncols
                && (0..a.nrows).all(|i| (0..i).all(|j| a.get(i, j) == a.get(j, i)));
            symmetric
                .then(|| first_bilateral(&a, column_colors, column_colors))
                .flatten()
        }
        Check::Biorthogonal => first_bilateral(&a, &colors[0], column_colors),
        Check::DirectlyRecoverable => lost_values(&a, column_colors, integers),
    };
    Some(message.into_iter().collect())
}

/// The first color with two columns sharing a row: the row with the most of them (the first
/// on ties).
fn orthogonality(a: &Nonzeros, colors: &[usize]) -> Option<String> {
    groups(colors).iter().enumerate().find_map(|(c, group)| {
        let count = |i: usize| group.iter().filter(|&&j| a.nonzero(i, j)).count();
        let (i, most) = (0..a.nrows).map(|i| (i, count(i))).fold(
            None,
            |best: Option<(usize, usize)>, (i, n)| match best {
                Some((_, m)) if m >= n => best,
                _ => Some((i, n)),
            },
        )?;
        (most > 1).then(|| {
            let columns = group.iter().copied().filter(|&j| a.nonzero(i, j));
            format!(
                "In color {}, columns {} all have nonzeros in row {}.",
                c + 1,
                shown(columns),
                i + 1
            )
        })
    })
}

/// The first nonzero `(i, j)` (rows outer) that neither its row's color nor its column's
/// color recovers alone.
fn first_bilateral(a: &Nonzeros, row_colors: &[usize], column_colors: &[usize]) -> Option<String> {
    let (row_groups, column_groups) = (groups(row_colors), groups(column_colors));
    (0..a.nrows)
        .flat_map(|i| (0..a.ncols).map(move |j| (i, j)))
        .filter(|&(i, j)| a.nonzero(i, j))
        .find_map(|(i, j)| {
            let (ci, cj) = (row_colors[i], column_colors[j]);
            let rows_clash = |group: &[usize]| {
                let rows: Vec<usize> = group.iter().copied().filter(|&r| a.nonzero(r, j)).collect();
                (rows.len() > 1).then(|| {
                    format!(
                        "- In row color ci={ci}, rows {} all have nonzeros in column j={}.",
                        shown(rows),
                        j + 1
                    )
                })
            };
            let columns_clash = |group: &[usize]| {
                let columns: Vec<usize> =
                    group.iter().copied().filter(|&k| a.nonzero(i, k)).collect();
                (columns.len() > 1).then(|| {
                    format!(
                        "- In column color cj={cj}, columns {} all have nonzeros in row i={}.",
                        shown(columns),
                        i + 1
                    )
                })
            };
            let row_neutral = format!("- Row color ci={ci} is neutral.");
            let column_neutral = format!("- Column color cj={cj} is neutral.");
            let lines = match (ci, cj) {
                (0, 0) => Some((row_neutral, column_neutral)),
                (0, _) => columns_clash(&column_groups[cj - 1]).map(|c| (row_neutral, c)),
                (_, 0) => rows_clash(&row_groups[ci - 1]).map(|r| (r, column_neutral)),
                _ => rows_clash(&row_groups[ci - 1]).zip(columns_clash(&column_groups[cj - 1])),
            }?;
            Some(format!(
                "For coefficient (i={}, j={}) with colors (ci={ci}, cj={cj}):\n{}\n{}\n",
                i + 1,
                j + 1,
                lines.0,
                lines.1
            ))
        })
}

/// The values of the matrix found nowhere in its compression (zero always counts as found).
fn lost_values(a: &Nonzeros, colors: &[usize], integers: bool) -> Option<String> {
    let mut found: Vec<f64> = vec![0.0];
    for group in groups(colors) {
        for i in 0..a.nrows {
            found.push(group.iter().map(|&j| a.get(i, j)).sum());
        }
    }
    let mut lost: Vec<f64> = a
        .values
        .iter()
        .copied()
        .filter(|v| !found.contains(v))
        .collect();
    lost.sort_by(f64::total_cmp);
    lost.dedup();
    if lost.is_empty() {
        return None;
    }
    let items: Vec<String> = lost
        .iter()
        .map(|&v| {
            if integers {
                (v as i64).to_string()
            } else {
                crate::display::repr(&crate::value::Value::Float(v))
            }
        })
        .collect();
    Some(format!(
        "Coefficients [{}] are not directly recoverable.",
        items.join(", ")
    ))
}
