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
//! This crate knows nothing of the difflab language or of automatic differentiation: its inputs
//! are plain numbers and strings, so the language layer adapts its values to it.

mod bench;
mod braille;
mod error;
mod font;
mod model;
mod overlap;
mod palette;
mod render;
mod scale;
mod terminal;

pub use bench::{BenchmarkOptions, BenchmarkRow};
pub use error::PlotError;
pub use model::{Groups, LineOptions, Plot, Series, SpyOptions, MAX_PIXELS};
pub use scale::Scale;
pub use terminal::{MAX_TERMINAL_WIDTH, MIN_TERMINAL_WIDTH};
