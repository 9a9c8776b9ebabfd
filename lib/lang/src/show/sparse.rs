//! Sparse matrices as Julia's SparseArrays prints a `SparseMatrixCSC`: small ones like a
//! dense matrix with `⋅` for structural zeros, ones of 16 or more rows or columns as a
//! braille pattern of the stored entries, and `sparse(I, J, V, m, n)` as the `show` form.
//! A `SparseVector` (the one column of an n×1 matrix) lists its stored entries as
//! `[i]  =  value`, and shows as `sparsevec(I, V, n)`.
//!
//! The dense-like layout is `matrix.rs`; the braille scaling follows SparseArrays'
//! `_show_with_braille_patterns`, including its rounding of scaled indices.

use sprs::CsMatView;

use super::matrix::{print_matrix, Cell};
use super::{alignment, element, ElType};

/// Julia's REPL display of a sparse matrix, e.g.
/// `2×2 SparseMatrixCSC{Float64, Int64} with 2 stored entries:` then ` 1.0   ⋅ ` / `  ⋅   2.0`.
///
/// `screen` is the display size `(rows, cols)`, the session's [`super::screen`] when `None`.
/// With `ElType::Bool` the matrix is a pattern: `SparseMatrixCSC{Bool, Int64}` with `1`s.
pub fn sparse_plain(m: &CsMatView<f64>, elt: ElType, screen: Option<(usize, usize)>) -> String {
    let screen = screen.unwrap_or_else(super::screen);
    let (rows, cols) = (m.rows(), m.cols());
    let stored = m.nnz();
    let mut out = format!(
        "{rows}×{cols} SparseMatrixCSC{{{}, Int64}} with {stored} stored {}",
        elt.name(),
        if stored == 1 { "entry" } else { "entries" }
    );
    if rows == 0 || cols == 0 {
        return out;
    }
    if !super::open_body(&mut out, screen) {
        return out;
    }
    if rows.max(cols) < 16 {
        let compact = cols > 1;
        let entry = |i: usize, j: usize| {
            // A structural zero is measured as the zero it stands for and printed as a
            // centred dot of the same width.
            let stored = m.get(i, j);
            let text = element(elt, stored.copied().unwrap_or(0.0), compact);
            let align = alignment(elt, &text);
            let text = if stored.is_some() {
                text
            } else {
                centered_dot(text.chars().count())
            };
            Cell { text, align }
        };
        print_matrix(&mut out, rows, cols, &entry, Some(screen));
    } else {
        out.push_str(&braille(m, screen));
    }
    out
}

/// Julia's `Base.replace_with_centered_mark`: `⋅` at position `ceil(width / 2)`.
pub(super) fn centered_dot(width: usize) -> String {
    let at = width.div_ceil(2).max(1);
    (1..=width.max(1))
        .map(|k| if k == at { '⋅' } else { ' ' })
        .collect()
}

/// The one-dot braille characters, top to bottom in the left column, then the right.
const DOTS: [u32; 8] = [0x01, 0x02, 0x04, 0x40, 0x08, 0x10, 0x20, 0x80];
const BLANK: u32 = 0x2800;

/// The sparsity pattern drawn with braille characters (2 columns × 4 rows of entries per
/// character) between `⎡⎢⎣` and `⎤⎥⎦`, scaled down to fit the screen when needed.
pub(super) fn braille(m: &CsMatView<f64>, screen: (usize, usize)) -> String {
    let (rows, cols) = (m.rows(), m.cols());
    let max_height = screen.0 as f64 - 4.0;
    let max_width = (screen.1 / 2) as f64;
    let (mut scale_height, mut scale_width) = (rows, cols);
    if rows as f64 > 4.0 * max_height || cols as f64 > 2.0 * max_width {
        let s = f64::min(
            2.0 * max_width / cols as f64,
            4.0 * max_height / rows as f64,
        );
        scale_height = (s * rows as f64).floor() as usize;
        scale_width = (s * cols as f64).floor() as usize;
    }
    // Leave room for all four corner brackets.
    let scale_height = scale_height.max(8);
    let scale_width = scale_width.max(4);

    let lines = (scale_height - 1) / 4 + 1;
    let chars = (scale_width - 1) / 2 + 1;
    let mut grid = vec![vec![BLANK; chars]; lines];
    let row_scale = (scale_height - 1).max(1) as f64 / rows.saturating_sub(1).max(1) as f64;
    let col_scale = (scale_width - 1).max(1) as f64 / cols.saturating_sub(1).max(1) as f64;
    for (_, (i, j)) in m.iter() {
        // Julia scales 1-based indices and rounds ties to even, so the `+ 1` matters.
        let si = (i as f64 * row_scale + 1.0).round_ties_even() as usize - 1;
        let sj = (j as f64 * col_scale + 1.0).round_ties_even() as usize - 1;
        grid[si / 4][sj / 2] |= DOTS[(sj % 2) * 4 + si % 4];
    }

    let mut out = String::new();
    for (l, line) in grid.iter().enumerate() {
        let (open, close) = match l {
            0 => ('⎡', '⎤'),
            _ if l + 1 == lines => ('⎣', '⎦'),
            _ => ('⎢', '⎥'),
        };
        if l > 0 {
            out.push('\n');
        }
        out.push(open);
        out.extend(line.iter().map(|&c| char::from_u32(c).unwrap_or(' ')));
        out.push(close);
    }
    out
}

/// Julia's `show` of a sparse matrix: `sparse([1, 2], [1, 2], [1.0, 2.0], 2, 2)`, the
/// stored entries in column-major order.
pub fn sparse_inline(m: &CsMatView<f64>, elt: ElType) -> String {
    show_entries(m, elt, false)
}

/// The `show` form of a sparse matrix inside a displayed container: as [`sparse_inline`], but
/// each of the three vectors shows only its first and last 10 entries when it has more than 20
/// (Julia prints them with the container's `:limit`).
pub fn sparse_in_container(m: &CsMatView<f64>, elt: ElType) -> String {
    show_entries(m, elt, true)
}

/// Julia's REPL display of a sparse vector (the one column of `m`): its summary line, then
/// `  [i]  =  value` per stored entry, the middle ones elided with `⋮` when they do not fit
/// the screen's height.
pub fn sparse_vector_plain(
    m: &CsMatView<f64>,
    elt: ElType,
    screen: Option<(usize, usize)>,
) -> String {
    let screen = screen.unwrap_or_else(super::screen);
    let (n, stored) = (m.rows(), m.nnz());
    let mut out = format!(
        "{n}-element SparseVector{{{}, Int64}} with {stored} stored {}",
        elt.name(),
        if stored == 1 { "entry" } else { "entries" }
    );
    if stored == 0 {
        return out;
    }
    out.push_str(":\n");
    let entries: Vec<(usize, f64)> = m.iter().map(|(&x, (i, _))| (i + 1, x)).collect();
    // SparseArrays pads indices to the digits of the length and keeps the entries k with
    // k < half or k > nnz - half (1-based), where half is (screen rows - 8) ÷ 2.
    let pad = n.to_string().len();
    let half = (screen.0 as i64 - 8).div_euclid(2);
    let count = entries.len() as i64;
    let mut lines = Vec::new();
    for (k, &(i, x)) in (1i64..).zip(&entries) {
        if k < half || k > count - half {
            lines.push(format!(
                "  [{i:<pad$}]  =  {}",
                super::element(elt, x, true)
            ));
        } else if k == half {
            lines.push(format!("   {}   ⋮", " ".repeat(pad)));
        }
    }
    out.push_str(&lines.join("\n"));
    out
}

/// Julia's `show` of a sparse vector: `sparsevec([1, 3], [1.0, 2.0], 3)`.
pub fn sparse_vector_inline(m: &CsMatView<f64>, elt: ElType, limit: bool) -> String {
    let [rows, _, values] = entry_lists(m, elt, limit);
    format!("sparsevec({rows}, {values}, {})", m.rows())
}

fn show_entries(m: &CsMatView<f64>, elt: ElType, limit: bool) -> String {
    let [rows, cols, values] = entry_lists(m, elt, limit);
    format!(
        "sparse({rows}, {cols}, {values}, {}, {})",
        m.rows(),
        m.cols()
    )
}

/// The row indices, column indices and values of the stored entries in column-major order,
/// each printed as a Julia vector.
fn entry_lists(m: &CsMatView<f64>, elt: ElType, limit: bool) -> [String; 3] {
    let mut entries: Vec<(usize, usize, f64)> = m
        .iter()
        .take_while(|_| !difflab_ad::limits::interrupt_requested())
        .map(|(&v, (i, j))| (i, j, v))
        .collect();
    if !m.is_csc() {
        entries.sort_by_key(|&(i, j, _)| (j, i));
    }
    let n = entries.len();
    // Only the entries that show are formatted.
    let list = |item: &dyn Fn(&(usize, usize, f64)) -> String, empty: &str| {
        if n == 0 {
            return format!("{empty}[]");
        }
        let join = |range: std::ops::Range<usize>| super::joined(entries[range].iter().map(item));
        if limit && n > 20 {
            format!("[{}  …  {}]", join(0..10), join(n - 10..n))
        } else {
            format!("[{}]", join(0..n))
        }
    };
    let rows = list(&|e| (e.0 + 1).to_string(), "Int64");
    let cols = list(&|e| (e.1 + 1).to_string(), "Int64");
    let value = |e: &(usize, usize, f64)| element(elt, e.2, false);
    let values = match elt {
        // Bool is never implied by its literals, so its vectors always carry the prefix.
        ElType::Bool => format!("Bool{}", list(&value, "")),
        _ => list(&value, elt.name()),
    };
    [rows, cols, values]
}
