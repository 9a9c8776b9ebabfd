//! Dense arrays of any rank: the REPL form [`dense_plain`] (`3-element Vector{Float64}:` and
//! aligned rows), the one-line `show` form [`dense_inline`] (`[1.0 2.0; 3.0 4.0]`), and
//! [`dense_in_container`], the form an array takes as an entry of a displayed container.
//!
//! Vectors and matrices are laid out by `matrix.rs`; arrays of rank 3 and more print one
//! `[:, :, k] =` slice at a time (`show_nd` in Julia's `base/arrayshow.jl`).

use difflab_ad::limits::interrupt_requested;
use ndarray::{ArrayViewD, IxDyn};

use super::matrix::{print_matrix, Cell};
use super::{alignment, element, joined, summary, type_name, ElType};

/// Julia's REPL display (`display(x)`, `show(io, "text/plain", x)`) of a dense array.
///
/// `screen` is the display size `(rows, cols)`, the session's [`super::screen`] when `None`; taller or
/// wider arrays are elided with `⋮`, `…` and `⋱` as Julia does. Matrices with more than one
/// column print their floats in compact form; vectors print them in full. An empty vector
/// prints as `Float64[]`, other empty arrays as their summary (`0×3 Matrix{Float64}`,
/// `0-element BitVector`).
pub fn dense_plain(elt: ElType, a: ArrayViewD<f64>, screen: Option<(usize, usize)>) -> String {
    let screen = screen.unwrap_or_else(super::screen);
    let shape = a.shape();
    if shows_summary_only(elt, &a, false) {
        return summary(elt, shape);
    }
    if a.is_empty() {
        return dense_inline(elt, a);
    }
    let mut out = summary(elt, shape);
    if !super::open_body(&mut out, screen) {
        return out;
    }
    let compact = shape.get(1).is_some_and(|&cols| cols > 1);
    match shape.len() {
        0 => out.push_str(&element(elt, a[IxDyn(&[])], false)),
        1 => {
            let entry = |i: usize, _| cell(elt, a[[i].as_slice()], compact);
            print_matrix(&mut out, shape[0], 1, &entry, Some(screen));
        }
        _ => print_slices(&mut out, elt, &a, compact, screen),
    }
    out
}

/// Julia's REPL display of a `Diagonal` matrix: `2×2 Diagonal{Float64, Vector{Float64}}:`,
/// then the rows with each entry off the diagonal printed as a centred `⋅` as wide as the
/// zero it stands for.
pub fn diagonal_plain(elt: ElType, a: ArrayViewD<f64>, screen: Option<(usize, usize)>) -> String {
    let screen = screen.unwrap_or_else(super::screen);
    let shape = a.shape();
    let mut out = format!(
        "{} {}",
        super::dims_string(shape),
        super::diagonal_type_name(elt)
    );
    let [rows, cols] = *shape else {
        return out;
    };
    if a.is_empty() {
        return out;
    }
    if !super::open_body(&mut out, screen) {
        return out;
    }
    let entry = |i: usize, j: usize| {
        if i == j {
            return cell(elt, a[[i, j].as_slice()], cols > 1);
        }
        // Measured as the zero it stands for (`-D` stores `-0.0` there).
        let zero = cell(elt, 0.0, cols > 1);
        Cell {
            text: super::sparse::centered_dot(zero.text.chars().count()),
            align: zero.align,
        }
    };
    print_matrix(&mut out, rows, cols, &entry, Some(screen));
    out
}

/// Whether Julia's REPL form of `a` is just its summary: an empty array, except that an
/// empty `Vector` (not a `BitVector`) or any empty array in a compact context shows in its
/// `show` form (`Float64[]`) instead.
fn shows_summary_only(elt: ElType, a: &ArrayViewD<f64>, compact: bool) -> bool {
    a.is_empty() && !compact && (a.ndim() != 1 || elt == ElType::Bool)
}

fn cell(elt: ElType, x: f64, compact: bool) -> Cell {
    let text = element(elt, x, compact);
    Cell {
        align: alignment(elt, &text),
        text,
    }
}

/// The indices of the dimensions after the second, first dimension fastest (0-based).
fn tail_indices(tail: &[usize]) -> impl Iterator<Item = Vec<usize>> + '_ {
    let count: usize = tail.iter().product();
    (0..count).map(move |mut linear| {
        tail.iter()
            .map(|&len| {
                let index = linear % len;
                linear /= len;
                index
            })
            .collect()
    })
}

/// What the limited display does with one slice of a rank ≥ 3 array.
enum Slice {
    Show,
    Skip,
    /// Skip it, printing `;;; …` (one `;` more per dimension after the third) instead.
    Elide(usize),
}

/// In each dimension after the second that is longer than 10, only the first three and the
/// last three slices show; `idxs` are the slice's 1-based indices in those dimensions.
fn slice_fate(tail: &[usize], idxs: &[usize]) -> Slice {
    for (i, (&ii, &len)) in idxs.iter().zip(tail).enumerate() {
        if len <= 10 {
            continue;
        }
        if ii == 4 && idxs[..i].iter().all(|&d| d == 1) {
            let inner_hidden =
                (i + 1..tail.len()).any(|j| tail[j] > 10 && 3 < idxs[j] && idxs[j] <= tail[j] - 3);
            return if inner_hidden {
                Slice::Skip
            } else {
                Slice::Elide(i)
            };
        }
        if 3 < ii && ii <= len - 3 {
            return Slice::Skip;
        }
    }
    Slice::Show
}

/// Rank ≥ 2 in the REPL: each matrix slice under a `[:, :, k] =` label.
fn print_slices(
    out: &mut String,
    elt: ElType,
    a: &ArrayViewD<f64>,
    compact: bool,
    screen: (usize, usize),
) {
    let shape = a.shape();
    let (m, n) = (shape[0], shape[1]);
    let tail = &shape[2..];
    let total: usize = tail.iter().product();
    for (count, rest) in tail_indices(tail).enumerate() {
        let entry = |i: usize, j: usize| {
            let index: Vec<usize> = [i, j].into_iter().chain(rest.iter().copied()).collect();
            cell(elt, a[index.as_slice()], compact)
        };
        if tail.is_empty() {
            print_matrix(out, m, n, &entry, Some(screen));
            continue;
        }
        let one_based: Vec<usize> = rest.iter().map(|i| i + 1).collect();
        match slice_fate(tail, &one_based) {
            Slice::Elide(dim) => {
                out.push_str(&";".repeat(dim + 3));
                out.push_str(" … \n\n");
            }
            Slice::Skip => {}
            Slice::Show => {
                let label: Vec<String> = one_based.iter().map(usize::to_string).collect();
                out.push_str(&format!("[:, :, {}] =\n", label.join(", ")));
                print_matrix(out, m, n, &entry, Some(screen));
                if count + 1 < total {
                    out.push_str("\n\n");
                }
            }
        }
    }
}

/// Julia's `show`/`print`/`string` of a dense array: `[1.0, 2.0]`, `[1 2; 3 4]`,
/// `[1.0; 2.0;;]` (a one-column matrix), `[1.0;;; 2.0]` (rank 3), `Float64[]`, `Bool[1, 0]`,
/// `Matrix{Float64}(undef, 0, 3)`, `fill(1.0)` (rank 0). Floats print in full.
pub fn dense_inline(elt: ElType, a: ArrayViewD<f64>) -> String {
    let ctx = Inline {
        elt,
        limit: false,
        compact: false,
    };
    ctx.show(&a, false)
}

/// How a dense array prints as one entry of a displayed container, such as a vector of
/// vectors: one line, limited (a vector over 20 entries shows its first and last 10 around
/// `…`), floats compact when the container prints compactly (it is a matrix), and no
/// element-type prefix when `typed_container` (the container's element type is exactly this
/// array's type, so `Float64[]` prints `[]`).
pub fn dense_in_container(
    elt: ElType,
    a: ArrayViewD<f64>,
    compact: bool,
    typed_container: bool,
) -> String {
    // Julia tries the REPL form first and keeps it when it is one line, which only happens
    // when that form is the bare summary.
    if shows_summary_only(elt, &a, compact) {
        return summary(elt, a.shape());
    }
    let ctx = Inline {
        elt,
        limit: true,
        compact,
    };
    ctx.show(&a, typed_container)
}

/// The context of Julia's two-argument `show` of an array.
struct Inline {
    elt: ElType,
    limit: bool,
    compact: bool,
}

impl Inline {
    fn show(&self, a: &ArrayViewD<f64>, typed_container: bool) -> String {
        let elt = self.elt;
        // Float64 and Int64 are implied by their literals; Bool is not.
        let implicit = elt != ElType::Bool && !a.is_empty();
        let prefix = if typed_container || implicit {
            ""
        } else {
            elt.name()
        };
        let shape = a.shape();
        match shape.len() {
            0 => match elt {
                ElType::Bool => format!("BitArray({})", self.el(a[IxDyn(&[])])),
                _ => format!("fill({})", self.el(a[IxDyn(&[])])),
            },
            1 => {
                let item = |i: usize| self.el(a[[i].as_slice()]);
                let len = shape[0];
                let list = |range: std::ops::Range<usize>| joined(range.map(item));
                if self.limit && len > 20 {
                    format!("{prefix}[{}  …  {}]", list(0..10), list(len - 10..len))
                } else {
                    format!("{prefix}[{}]", list(0..len))
                }
            }
            _ if a.is_empty() => match elt {
                ElType::Bool => summary(elt, shape),
                _ => {
                    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
                    format!(
                        "{}(undef, {})",
                        type_name(elt, shape.len()),
                        dims.join(", ")
                    )
                }
            },
            2 => {
                let mut out = format!("{prefix}[");
                self.matrix(&mut out, a, &[]);
                if shape[1] == 1 {
                    out.push_str(";;");
                }
                out.push(']');
                out
            }
            _ => format!("{prefix}{}", self.nd(a)),
        }
    }

    fn el(&self, x: f64) -> String {
        element(self.elt, x, self.compact)
    }

    /// The rows of one matrix slice (`rest` indexes the dimensions after the second),
    /// without brackets: `1 2; 3 4`.
    fn matrix(&self, out: &mut String, a: &ArrayViewD<f64>, rest: &[usize]) {
        let (nr, nc) = (a.shape()[0], a.shape()[1]);
        let at = |i: usize, j: usize| {
            let index: Vec<usize> = [i, j].into_iter().chain(rest.iter().copied()).collect();
            self.el(a[index.as_slice()])
        };
        let (row_dots, col_dots) = (self.limit && nr > 4, self.limit && nc > 4);
        let halves = |len: usize, dots: bool| {
            if dots {
                [0..2, len - 2..len]
            } else {
                [0..len, 0..0]
            }
        };
        for rows in halves(nr, row_dots) {
            for i in rows.clone() {
                if interrupt_requested() {
                    return;
                }
                for cols in halves(nc, col_dots) {
                    for j in cols.clone() {
                        if j > cols.start {
                            out.push(' ');
                        }
                        out.push_str(&at(i, j));
                    }
                    if cols.end == nc && !cols.is_empty() {
                        if i + 1 < nr {
                            out.push_str("; ");
                        }
                    } else if col_dots && !cols.is_empty() {
                        out.push_str(" … ");
                    }
                }
            }
            if row_dots && rows.end != nr {
                out.push_str("… ; ");
            }
        }
    }

    /// Rank ≥ 3: slices joined by `;;;` (one more `;` per dimension), `[1 3; 2 4;;; 5 7; 6 8]`.
    fn nd(&self, a: &ArrayViewD<f64>) -> String {
        let tail = &a.shape()[2..];
        let mut out = String::from("[");
        let mut last: Option<Vec<usize>> = None;
        let mut reached_last_dim = false;
        for idxs in tail_indices(tail) {
            let one_based: Vec<usize> = idxs.iter().map(|i| i + 1).collect();
            let fate = if self.limit {
                slice_fate(tail, &one_based)
            } else {
                Slice::Show
            };
            match fate {
                Slice::Elide(dim) => {
                    out.push_str(&";".repeat(dim + 3));
                    out.push_str(" … ");
                }
                Slice::Skip => {}
                Slice::Show => {
                    let previous = last.as_deref().unwrap_or(&idxs);
                    let changed = (0..tail.len()).rev().find(|&d| previous[d] < idxs[d]);
                    if let Some(d) = changed {
                        out.push_str(&";".repeat(d + 3));
                        reached_last_dim |= d + 1 == tail.len();
                        out.push(' ');
                    }
                    self.matrix(&mut out, a, &idxs);
                }
            }
            last = Some(idxs);
        }
        if !reached_last_dim {
            out.push_str(&";".repeat(tail.len() + 2));
        }
        out.push(']');
        out
    }
}
