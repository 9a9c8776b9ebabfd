//! How values print, exactly as Julia 1.10 prints them: numbers, dense and sparse arrays,
//! ranges, in both the REPL `text/plain` form (`display`) and the one-line `show` form.
//!
//! Start with [`float()`] (digits, in `float.rs` over `digits.rs`), then [`dense_plain`]
//! (`dense.rs`), which lays out matrices with Julia's `print_matrix` (`matrix.rs`);
//! [`sparse_plain`] (`sparse.rs`) reuses that layout and adds the braille pattern, and
//! [`range_plain`] is in `range.rs`. The module knows nothing of the interpreter's values:
//! callers pass plain numbers, `ndarray` views and `sprs` matrices.

mod dense;
#[cfg(test)]
mod dense_tests;
mod digits;
mod float;
mod matrix;
mod range;
mod sparse;
#[cfg(test)]
mod sparse_tests;

pub use dense::{dense_in_container, dense_inline, dense_plain, diagonal_plain};
pub use float::{float, float_compact};
pub(crate) use matrix::{print_matrix, Cell};
pub use range::range_plain;
pub use sparse::{
    sparse_in_container, sparse_inline, sparse_plain, sparse_vector_inline, sparse_vector_plain,
};

/// The display size Julia assumes when the output is not a terminal: 24 rows, 80 columns.
pub const DEFAULT_SCREEN: (usize, usize) = (24, 80);

thread_local! {
    static SCREEN: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new(DEFAULT_SCREEN) };
}

/// The display size `(rows, cols)` values are laid out for on this thread: the terminal's in
/// the REPL (Julia's `displaysize(stdout)`), [`DEFAULT_SCREEN`] otherwise.
pub fn screen() -> (usize, usize) {
    SCREEN.with(std::cell::Cell::get)
}

/// Sets the display size for values shown on this thread from now on (at least 4×20).
pub fn set_screen(rows: usize, cols: usize) {
    SCREEN.with(|s| s.set((rows.max(4), cols.max(20))));
}

/// The element type of an array. Int and Bool arrays hold their values as `f64` (integers,
/// and 0/1) but print as Julia prints `Int64` arrays and `BitArray`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElType {
    /// `Float64`.
    Float64,
    /// `Int64`.
    Int64,
    /// `Bool`, stored as a `BitArray` (what comparisons such as `x .> 0` return).
    Bool,
}

impl ElType {
    /// Julia's name of the element type: `Float64`, `Int64`, `Bool`.
    pub fn name(self) -> &'static str {
        match self {
            ElType::Float64 => "Float64",
            ElType::Int64 => "Int64",
            ElType::Bool => "Bool",
        }
    }
}

/// Julia's `show(::Int64)`.
pub fn int(x: i64) -> String {
    x.to_string()
}

/// Julia's `show(::Bool)`: `true` or `false`.
pub fn bool(b: bool) -> String {
    if b { "true" } else { "false" }.into()
}

/// The Julia type of an array: `Vector{Float64}`, `Matrix{Int64}`, `Array{Float64, 3}`,
/// and for Bool arrays `BitVector`, `BitMatrix`, `BitArray{3}`.
pub fn type_name(elt: ElType, ndims: usize) -> String {
    match (elt, ndims) {
        (ElType::Bool, 1) => "BitVector".into(),
        (ElType::Bool, 2) => "BitMatrix".into(),
        (ElType::Bool, n) => format!("BitArray{{{n}}}"),
        (_, n) => array_type_name(elt.name(), n),
    }
}

/// Ends a display's summary line: `:` and a newline before the body, or ` …` when the
/// screen is too short for one (false: nothing more is shown).
pub(super) fn open_body(out: &mut String, screen: (usize, usize)) -> bool {
    out.push(':');
    if screen.0 <= 4 {
        out.push_str(" …");
        return false;
    }
    out.push('\n');
    true
}

/// `Diagonal{T, Vector{T}}`.
pub fn diagonal_type_name(elt: ElType) -> String {
    let element = elt.name();
    format!("Diagonal{{{element}, Vector{{{element}}}}}")
}

/// `Vector{T}`, `Matrix{T}` or `Array{T, n}` for the element type named `element`.
pub fn array_type_name(element: &str, ndims: usize) -> String {
    match ndims {
        1 => format!("Vector{{{element}}}"),
        2 => format!("Matrix{{{element}}}"),
        n => format!("Array{{{element}, {n}}}"),
    }
}

/// Julia's `summary` of an array: `3-element Vector{Float64}`, `2×3 Matrix{Int64}`,
/// `0-dimensional Array{Float64, 0}`.
pub fn summary(elt: ElType, shape: &[usize]) -> String {
    format!("{} {}", dims_string(shape), type_name(elt, shape.len()))
}

/// Julia's `Base.dims2string`.
pub fn dims_string(shape: &[usize]) -> String {
    match shape {
        [] => "0-dimensional".into(),
        [n] => format!("{n}-element"),
        _ => shape
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join("×"),
    }
}

/// How one array entry prints inside an array of element type `elt` (Julia prints with the
/// element type already known, so Bools are `1`/`0`).
pub(crate) fn element(elt: ElType, x: f64, compact: bool) -> String {
    match elt {
        ElType::Float64 if compact => float_compact(x),
        ElType::Float64 => float(x),
        ElType::Int64 => int(x as i64),
        ElType::Bool => if x != 0.0 { "1" } else { "0" }.into(),
    }
}

/// Julia's `alignment` of a printed entry: the characters left and right of the point
/// columns align on. Reals split before the first of `.eEfF` (so `Inf` splits as `In|f`);
/// integers and Bools are all left part, so they right-align.
pub(crate) fn alignment(elt: ElType, text: &str) -> (usize, usize) {
    let len = text.chars().count();
    match elt {
        ElType::Float64 => {
            let left = text.find(['.', 'e', 'E', 'f', 'F']).unwrap_or(text.len());
            (left, len - left)
        }
        ElType::Int64 | ElType::Bool => (len, 0),
    }
}

/// Test helpers shared by the submodules' snapshot tests.
#[cfg(test)]
mod testing {
    /// Marks each line's end with `|` so that snapshots keep trailing spaces visibly.
    pub(crate) fn framed(s: &str) -> String {
        s.lines().map(|line| format!("{line}|\n")).collect()
    }

    /// Collapses runs of whitespace and writes `⋅` as `.`: the seed documents were
    /// extracted from PDFs, which lost the exact spacing of printed output.
    pub(crate) fn loose(s: &str) -> String {
        s.replace('⋅', ".")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    #[test]
    fn type_names_and_summaries() {
        let mut out = String::new();
        for elt in [ElType::Float64, ElType::Int64, ElType::Bool] {
            for shape in [&[][..], &[3], &[2, 3], &[2, 2, 2], &[1, 0, 1, 1]] {
                out += &summary(elt, shape);
                out.push('\n');
            }
        }
        expect![[r#"
            0-dimensional Array{Float64, 0}
            3-element Vector{Float64}
            2×3 Matrix{Float64}
            2×2×2 Array{Float64, 3}
            1×0×1×1 Array{Float64, 4}
            0-dimensional Array{Int64, 0}
            3-element Vector{Int64}
            2×3 Matrix{Int64}
            2×2×2 Array{Int64, 3}
            1×0×1×1 Array{Int64, 4}
            0-dimensional BitArray{0}
            3-element BitVector
            2×3 BitMatrix
            2×2×2 BitArray{3}
            1×0×1×1 BitArray{4}
        "#]]
        .assert_eq(&out);
    }

    #[test]
    fn scalars() {
        assert_eq!(int(-42), "-42");
        assert_eq!(int(i64::MIN), "-9223372036854775808");
        assert_eq!(bool(true), "true");
        assert_eq!(bool(false), "false");
    }

    #[test]
    fn alignment_splits_like_julia() {
        // Julia's docstring: `alignment(stdout, 42) == (2, 0)`, `alignment(stdout, 4.23) == (1, 3)`.
        assert_eq!(alignment(ElType::Int64, "42"), (2, 0));
        assert_eq!(alignment(ElType::Float64, "4.23"), (1, 3));
        assert_eq!(alignment(ElType::Float64, "-1.0e-5"), (2, 5));
        assert_eq!(alignment(ElType::Float64, "NaN"), (3, 0));
        assert_eq!(alignment(ElType::Float64, "-Inf"), (3, 1));
    }
}

/// The texts of `items` joined by `", "`. A vector of 10⁷ numbers is seconds of formatting,
/// so a requested interrupt stops it and leaves the text empty (the caller raises the
/// interrupt before using it, and copying a part of hundreds of megabytes would take long).
fn joined(items: impl Iterator<Item = String>) -> String {
    let mut out = String::new();
    for (k, item) in items.enumerate() {
        if difflab_ad::limits::interrupt_requested() {
            return String::new();
        }
        if k > 0 {
            out.push_str(", ");
        }
        out.push_str(&item);
    }
    out
}
