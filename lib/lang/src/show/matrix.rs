//! Julia's `print_matrix`: aligned columns and, on a limited screen, the "nine-slice"
//! elision with `⋮`, `…` and `⋱` that the REPL uses for tall and wide matrices.
//!
//! [`print_matrix`] is shared by dense vectors and matrices (`dense.rs`) and small sparse
//! matrices (`sparse.rs`); it sees the matrix only through a function returning each
//! entry's printed text and [`Cell::align`] (Julia's `alignment`). The steps and their
//! order follow `Base.print_matrix` in `base/arrayshow.jl`, so the same columns are dropped.

use std::collections::HashMap;

/// One printed entry: its text and how many characters sit left and right of the
/// alignment point. The text may differ from what the alignment was measured on (sparse
/// structural zeros print `⋅` in place of `0.0`) but has the same width.
pub(crate) struct Cell {
    pub(crate) text: String,
    pub(crate) align: (usize, usize),
}

const PRE: &str = " ";
const SEP: &str = "  ";
const HDOTS: &str = "  …  ";
const VDOTS: &str = "⋮";
const DDOTS: &str = "  ⋱  ";
/// `…` and `⋮` repeat every this many rows and columns.
const EVERY: usize = 5;
/// An "unlimited" screen that still leaves room for arithmetic.
const UNLIMITED: i64 = i64::MAX / 4;

/// Entries are computed once and reused by the several alignment passes.
struct Cells<'a> {
    entry: &'a dyn Fn(usize, usize) -> Cell,
    memo: HashMap<(usize, usize), Cell>,
}

impl Cells<'_> {
    fn get(&mut self, i: usize, j: usize) -> &Cell {
        let entry = self.entry;
        self.memo.entry((i, j)).or_insert_with(|| entry(i, j))
    }
}

type Align = Vec<(usize, usize)>;

fn width(a: &[(usize, usize)]) -> i64 {
    let sum: usize = a.iter().map(|&(l, r)| l + r).sum();
    (sum + SEP.len() * a.len()) as i64
}

/// Julia's `alignment(io, X, rows, cols, cols_if_complete, cols_otherwise, sep)`: the
/// widest left and right parts of each column, for as many columns as fit.
fn alignment(
    cells: &mut Cells,
    rows: &[usize],
    cols: impl Iterator<Item = usize>,
    if_complete: i64,
    otherwise: i64,
    ncols: usize,
) -> Align {
    let mut a = Align::new();
    for j in cols {
        let mut col = (0, 0);
        for &i in rows {
            let (l, r) = cells.get(i, j).align;
            col = (col.0.max(l), col.1.max(r));
        }
        a.push(col);
        if a.len() > 1 && width(&a) >= if_complete {
            a.pop();
            break;
        }
    }
    if 1 < a.len() && a.len() < ncols {
        while !a.is_empty() && width(&a) >= otherwise {
            a.pop();
        }
    }
    a
}

/// One row's entries under alignment `a`, padded; the matrix's last column gets no padding
/// on the right.
fn print_row(
    out: &mut String,
    cells: &mut Cells,
    a: &[(usize, usize)],
    i: usize,
    cols: impl Iterator<Item = usize>,
    last_col: usize,
) {
    for (k, j) in cols.enumerate().take(a.len()) {
        let cell = cells.get(i, j);
        push_spaces(out, a[k].0.saturating_sub(cell.align.0));
        out.push_str(&cell.text);
        if j != last_col {
            push_spaces(out, a[k].1.saturating_sub(cell.align.1));
        }
        if k + 1 < a.len() {
            out.push_str(SEP);
        }
    }
}

/// A row of `⋮` under every `EVERY`th column (those with `k % EVERY == m`, 1-based).
fn print_vdots(out: &mut String, a: &[(usize, usize)], m: usize, pad_right: bool) {
    for (k, &(l, r)) in a.iter().enumerate().map(|(k, lr)| (k + 1, lr)) {
        let last = k == a.len();
        if k % EVERY == m {
            let left = l.saturating_sub(1);
            push_spaces(out, left);
            out.push_str(VDOTS);
            if !last || pad_right {
                push_spaces(out, (l + r).saturating_sub(1 + left));
            }
        } else if !last || pad_right {
            push_spaces(out, l + r);
        }
        if !last {
            out.push_str(SEP);
        }
    }
}

fn push_spaces(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// Appends the `m × n` matrix whose entries `entry(i, j)` gives (0-based), one line per
/// row, each starting with a space. With `screen = Some((rows, cols))` the output is
/// limited as in the REPL; `rows` must exceed 4 (the caller prints ` …` otherwise).
pub(crate) fn print_matrix(
    out: &mut String,
    m: usize,
    n: usize,
    entry: &dyn Fn(usize, usize) -> Cell,
    screen: Option<(usize, usize)>,
) {
    let cells = &mut Cells {
        entry,
        memo: HashMap::new(),
    };
    let (height, screen_width) = match screen {
        Some((rows, cols)) => (rows as i64 - 4, cols as i64),
        None => (UNLIMITED, UNLIMITED),
    };
    let width = screen_width - PRE.len() as i64;
    let sep = SEP.len() as i64;
    let last_col = n.saturating_sub(1);

    // Only the rows and columns that could show on screen matter for the alignment.
    let half = (height / 2).max(0) as usize;
    let rows: Vec<usize> = if m as i64 > height {
        let tail = ((height - 1) / 2).max(0) as usize;
        (0..half).chain(m - tail..m).collect()
    } else {
        (0..m).collect()
    };
    let max_cols = (width / (1 + sep)).max(0) as usize;
    let cols: Vec<usize> = if n > max_cols {
        (0..max_cols).chain(n - max_cols..n).collect()
    } else {
        (0..n).collect()
    };
    let a = alignment(cells, &rows, cols.iter().copied(), width, width, n);

    // The column alignments left and right of a `…`, when not all columns fit.
    let hdots_len = HDOTS.chars().count() as i64;
    let split = |cells: &mut Cells| {
        let c = (width - hdots_len + 1) / 2 + 1;
        let mut right = alignment(cells, &rows, cols.iter().rev().copied(), c, c, n);
        right.reverse();
        let c = width - width_of(&right) - (right.len() as i64 - 1) * sep - hdots_len;
        let left = alignment(cells, &rows, cols.iter().copied(), c, c, n);
        (left, right)
    };
    let fits_across = n <= a.len();
    let (left, right) = if fits_across {
        (a, Align::new())
    } else {
        split(cells)
    };
    let right_cols = |k: usize| n - right.len() + k;
    let first_row = rows.first().copied().unwrap_or(0);
    let last_row = rows.last().copied().unwrap_or(0);

    for (idx, &i) in rows.iter().enumerate() {
        out.push_str(PRE);
        print_row(out, cells, &left, i, cols.iter().copied(), last_col);
        if !fits_across {
            if (i - first_row) % EVERY == 0 {
                out.push_str(HDOTS);
            } else {
                push_spaces(out, hdots_len as usize);
            }
            print_row(
                out,
                cells,
                &right,
                i,
                (0..right.len()).map(right_cols),
                last_col,
            );
        }
        let at_gap = m as i64 > height && idx + 1 == half;
        if i != last_row || at_gap {
            out.push('\n');
        }
        if at_gap {
            out.push_str(PRE);
            if fits_across {
                print_vdots(out, &left, 1, false);
            } else {
                let r = (right.len() as i64 - n as i64 + 1).rem_euclid(EVERY as i64);
                print_vdots(out, &left, 1, true);
                out.push_str(DDOTS);
                print_vdots(out, &right, r as usize, false);
            }
            if i != last_row {
                out.push('\n');
            }
        }
    }
    if m as i64 > height && rows.is_empty() {
        out.push_str(PRE);
        out.push_str(VDOTS);
        if cols.len() > 1 {
            out.push_str("    ");
            out.push_str(DDOTS);
        }
    }
}

fn width_of(a: &[(usize, usize)]) -> i64 {
    a.iter().map(|&(l, r)| (l + r) as i64).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int_matrix(
        m: usize,
        n: usize,
        f: impl Fn(usize, usize) -> i64,
        screen: (usize, usize),
    ) -> String {
        let entry = |i, j| {
            let text = f(i, j).to_string();
            let align = (text.len(), 0);
            Cell { text, align }
        };
        let mut out = String::new();
        print_matrix(&mut out, m, n, &entry, Some(screen));
        out
    }

    #[test]
    fn integers_right_align() {
        let out = int_matrix(3, 3, |i, j| (i as i64 - 1) * 10_i64.pow(j as u32), (24, 80));
        assert_eq!(out, " -1  -10  -100\n  0    0     0\n  1   10   100");
    }

    #[test]
    fn tiny_screens_follow_julia_tests() {
        // From Julia's test/show.jl, "Array printing with limited rows".
        assert_eq!(int_matrix(2, 1, |i, _| i as i64 + 1, (5, 80)), " ⋮");
        assert_eq!(int_matrix(3, 1, |i, _| i as i64 + 1, (6, 80)), " 1\n ⋮");
        assert_eq!(int_matrix(2, 1, |i, _| i as i64 + 1, (6, 80)), " 1\n 2");
        assert_eq!(int_matrix(4, 3, |_, _| 0, (5, 80)), " ⋮      ⋱  ");
    }
}
