//! difflab-plot: plots as data, rendered on demand to SVG, PNG or terminal text.
//!
//! Build a [`Plot`] with [`Plot::spy`] (sparsity patterns, optionally coloured), [`Plot::lines`]
//! (line plots, linear or log axes) or [`Plot::benchmark`] (time against input size per
//! backend), then ask for [`Plot::to_svg`], [`Plot::to_png`], [`Plot::to_terminal`] or
//! [`Plot::save`]. Start reading at `model`; `render` draws through plotters, `terminal` with
//! the braille canvas of `braille`.
//!
//! ```
//! use difflab_plot::{Groups, Plot, SpyOptions};
//!
//! let coloring = SpyOptions {
//!     title: Some("tridiagonal".to_string()),
//!     groups: Some(Groups::Columns(vec![1, 2, 3, 1])),
//! };
//! let entries = vec![
//!     (0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (3, 2), (3, 3),
//! ];
//! let plot = Plot::spy(4, 4, entries, coloring)?;
//! assert_eq!(plot.to_string(), "spy plot: 4×4, nnz = 10, 3 colors");
//! assert!(plot.to_svg()?.starts_with("<svg"));
//! assert!(plot.to_png()?.starts_with(b"\x89PNG"));
//! print!("{}", plot.to_terminal(40, false));
//! # Ok::<(), difflab_plot::PlotError>(())
//! ```
//!
//! In an evcxr notebook (the Rust Jupyter kernel) a [`Plot`] shows inline as SVG: it has evcxr's
//! `evcxr_display` method. So does [`Spy`], the spy plot of a difflab-coloring
//! [`SparsityPattern`](difflab_coloring::SparsityPattern), sparse matrix or
//! [`ColoringResult`](difflab_coloring::ColoringResult):
//!
//! ```
//! use difflab_coloring::{coloring, ColoringProblem, GreedyColoringAlgorithm, SparsityPattern};
//! use difflab_plot::Spy;
//!
//! // The bidiagonal Jacobian of y[i] = x[i] * x[i + 1]: two colors of columns.
//! let entries: Vec<(usize, usize)> = (0..4).flat_map(|i| [(i, i), (i, i + 1)]).collect();
//! let pattern = SparsityPattern::from_entries(4, 5, &entries)?;
//! let result = coloring(&pattern, ColoringProblem::COLUMN, &GreedyColoringAlgorithm::default())?;
//! let spy = Spy::coloring(&result);
//! assert_eq!(spy.to_string(), "spy plot: 4×5, nnz = 8, 2 colors");
//! let svg = spy.to_svg()?;
//! assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
//! spy.evcxr_display(); // prints EVCXR_BEGIN_CONTENT image/svg+xml, the SVG, EVCXR_END_CONTENT
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! This crate knows nothing of the difflab language or of automatic differentiation: its inputs
//! are plain numbers and strings (and difflab-coloring's patterns and colorings, for [`Spy`]),
//! so the language layer adapts its values to it.

mod bench;
mod braille;
mod error;
mod evcxr;
mod font;
mod model;
mod overlap;
mod palette;
mod render;
mod scale;
mod terminal;

pub use bench::{BenchmarkOptions, BenchmarkRow};
pub use error::PlotError;
pub use evcxr::Spy;
pub use model::{Groups, LineOptions, Plot, Series, SpyOptions, MAX_PIXELS};
pub use scale::Scale;
pub use terminal::{MAX_TERMINAL_WIDTH, MIN_TERMINAL_WIDTH};
