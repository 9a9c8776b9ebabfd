//! Inline display in evcxr notebooks, and [`Spy`]: spy plots of difflab-coloring's sparsity
//! patterns and colorings.
//!
//! evcxr (the Rust REPL and Jupyter kernel) shows a cell's value inline when its type has an
//! inherent method `evcxr_display(&self)` that prints
//! `EVCXR_BEGIN_CONTENT <mime type>\n<content>\nEVCXR_END_CONTENT` to stdout. [`Plot`] and
//! [`Spy`] print their SVG that way; [`Plot::evcxr_content`] and [`Spy::evcxr_content`] return
//! the same text without printing it.
//!
//! difflab-coloring stays free of plotting (the AD core depends on it), so the display of its
//! [`SparsityPattern`] and [`ColoringResult`] lives here, in the [`Spy`] wrapper.

use std::fmt;

use difflab_coloring::{ColoringResult, SparsityPattern};
use sprs::CsMat;

use crate::error::PlotError;
use crate::model::{Groups, Plot, SpyOptions};

/// The text evcxr reads as one display of `content` with MIME type `mime`.
fn evcxr_block(mime: &str, content: &str) -> String {
    format!("EVCXR_BEGIN_CONTENT {mime}\n{content}\nEVCXR_END_CONTENT\n")
}

/// An SVG document for evcxr, or the error as plain text when rendering failed.
fn svg_or_error(svg: Result<String, PlotError>) -> String {
    match svg {
        Ok(svg) => evcxr_block("image/svg+xml", &svg),
        Err(e) => evcxr_block("text/plain", &format!("plot error: {e}")),
    }
}

impl Plot {
    /// What [`Plot::evcxr_display`] prints: the SVG between evcxr's content markers (a
    /// rendering error becomes a `text/plain` display of its message).
    pub fn evcxr_content(&self) -> String {
        svg_or_error(self.to_svg())
    }

    /// Shows the plot inline in an evcxr notebook, as SVG.
    pub fn evcxr_display(&self) {
        print!("{}", self.evcxr_content());
    }
}

/// A spy plot of a [`SparsityPattern`], a sparse matrix's pattern or a [`ColoringResult`]
/// (entries coloured by the color of their column, row, or both for a bicoloring), shown
/// inline in evcxr notebooks.
///
/// ```
/// use difflab_coloring::{coloring, ColoringProblem, GreedyColoringAlgorithm, SparsityPattern};
/// use difflab_plot::Spy;
///
/// // An arrowhead pattern: a full first row and column plus the diagonal.
/// let n = 5;
/// let mut entries: Vec<(usize, usize)> = (0..n).map(|i| (i, i)).collect();
/// entries.extend((1..n).flat_map(|i| [(0, i), (i, 0)]));
/// let pattern = SparsityPattern::from_entries(n, n, &entries)?;
/// let result = coloring(&pattern, ColoringProblem::COLUMN, &GreedyColoringAlgorithm::default())?;
/// assert_eq!(result.ncolors(), 5); // the full row makes every column collide
///
/// let spy = Spy::coloring(&result).title("arrowhead");
/// assert_eq!(spy.to_string(), "spy plot: 5×5, nnz = 13, 5 colors");
/// assert!(spy.to_svg()?.starts_with("<svg"));
/// assert!(spy.evcxr_content().starts_with("EVCXR_BEGIN_CONTENT image/svg+xml\n<svg"));
/// // In an evcxr notebook, `spy` as a cell's last expression (or `spy.evcxr_display()`)
/// // draws it.
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Spy {
    nrows: usize,
    ncols: usize,
    entries: Vec<(usize, usize)>,
    options: SpyOptions,
}

impl Spy {
    /// The pattern's structural nonzeros, uncoloured.
    pub fn pattern(pattern: &SparsityPattern) -> Spy {
        Spy {
            nrows: pattern.nrows(),
            ncols: pattern.ncols(),
            entries: pattern.entries().collect(),
            options: SpyOptions::default(),
        }
    }

    /// The stored entries of a sparse matrix (explicit zeros included), uncoloured.
    pub fn matrix<N>(matrix: &CsMat<N>) -> Spy {
        Spy::pattern(&SparsityPattern::from_csmat(matrix))
    }

    /// The colored pattern: each entry takes the color of its column (column and symmetric
    /// colorings), of its row (row colorings), or of its column and else its row (bicolorings);
    /// color 0 (neutral) is grey.
    pub fn coloring(result: &ColoringResult) -> Spy {
        let columns = result.column_colors().map(<[usize]>::to_vec);
        let rows = result.row_colors().map(<[usize]>::to_vec);
        let groups = Groups::of_coloring(rows, columns);
        let mut spy = Spy::pattern(result.pattern());
        spy.options.groups = groups;
        spy
    }

    /// The same plot with a title above it.
    pub fn title(mut self, title: impl Into<String>) -> Spy {
        self.options.title = Some(title.into());
        self
    }

    /// The plot, to render as PNG or terminal text, resize or save.
    pub fn to_plot(&self) -> Result<Plot, PlotError> {
        Plot::spy(
            self.nrows,
            self.ncols,
            self.entries.clone(),
            self.options.clone(),
        )
    }

    /// The plot as an SVG document.
    pub fn to_svg(&self) -> Result<String, PlotError> {
        self.to_plot()?.to_svg()
    }

    /// What [`Spy::evcxr_display`] prints: the SVG between evcxr's content markers.
    pub fn evcxr_content(&self) -> String {
        svg_or_error(self.to_svg())
    }

    /// Shows the spy plot inline in an evcxr notebook, as SVG.
    pub fn evcxr_display(&self) {
        print!("{}", self.evcxr_content());
    }
}

impl From<&SparsityPattern> for Spy {
    fn from(pattern: &SparsityPattern) -> Spy {
        Spy::pattern(pattern)
    }
}

impl From<&ColoringResult> for Spy {
    fn from(result: &ColoringResult) -> Spy {
        Spy::coloring(result)
    }
}

impl fmt::Display for Spy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_plot() {
            Ok(plot) => fmt::Display::fmt(&plot, f),
            Err(e) => write!(f, "plot error: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use difflab_coloring::{coloring, ColoringProblem, GreedyColoringAlgorithm};

    const SVG_START: &str = "EVCXR_BEGIN_CONTENT image/svg+xml\n<svg";
    const END: &str = "\nEVCXR_END_CONTENT\n";

    fn tridiagonal(n: usize) -> SparsityPattern {
        let entries = (0..n).flat_map(|i| {
            [(i, i), (i, i + 1), (i + 1, i)]
                .into_iter()
                .filter(move |&(r, c)| r < n && c < n)
        });
        SparsityPattern::from_entries(n, n, &entries.collect::<Vec<_>>()).unwrap()
    }

    fn check_svg_display(content: &str) {
        assert!(content.starts_with(SVG_START), "{}", &content[..60]);
        assert!(content.ends_with(END));
        assert!(content.contains("<svg"));
        assert!(content.contains("</svg>"));
    }

    #[test]
    fn a_plot_displays_as_svg() {
        let plot = Plot::spy(2, 2, vec![(0, 0), (1, 1)], SpyOptions::default()).unwrap();
        check_svg_display(&plot.evcxr_content());
    }

    #[test]
    fn a_pattern_displays_as_an_uncoloured_spy_plot() {
        let spy = Spy::pattern(&tridiagonal(6));
        check_svg_display(&spy.evcxr_content());
        assert_eq!(spy.to_string(), "spy plot: 6×6, nnz = 16");
    }

    #[test]
    fn a_sparse_matrix_displays_by_its_stored_entries() {
        let matrix = tridiagonal(4).to_csmat(vec![1.0; 10]).unwrap();
        let spy = Spy::matrix(&matrix);
        check_svg_display(&spy.evcxr_content());
        assert_eq!(spy.to_string(), "spy plot: 4×4, nnz = 10");
    }

    #[test]
    fn colorings_display_with_their_colors() {
        let pattern = tridiagonal(6);
        let algorithm = GreedyColoringAlgorithm::default();
        for (problem, expected) in [
            (ColoringProblem::COLUMN, "spy plot: 6×6, nnz = 16, 3 colors"),
            (ColoringProblem::ROW, "spy plot: 6×6, nnz = 16, 3 colors"),
            (
                ColoringProblem::SYMMETRIC,
                "spy plot: 6×6, nnz = 16, 3 colors",
            ),
        ] {
            let result = coloring(&pattern, problem, &algorithm).unwrap();
            let spy = Spy::from(&result).title("tridiagonal");
            check_svg_display(&spy.evcxr_content());
            assert_eq!(spy.to_string(), expected, "{problem:?}");
            assert!(spy.evcxr_content().contains("tridiagonal"));
        }
    }

    #[test]
    fn a_rendering_error_displays_as_text() {
        let content = svg_or_error(Err(PlotError::EmptyData { what: "series" }));
        assert!(content.starts_with("EVCXR_BEGIN_CONTENT text/plain\nplot error: "));
        assert!(content.ends_with(END));
    }
}
