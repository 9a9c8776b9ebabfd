//! The one error type of this crate, [`PlotError`].
//!
//! Constructors in `model` return it when the data cannot make a plot; `render` returns it when
//! a file cannot be written or a drawing backend fails. Data that merely has nothing drawable
//! (NaN values, an empty matrix) is not an error: it renders as an empty plot.

use std::fmt;
use std::path::PathBuf;

/// Why a plot could not be built, rendered or saved.
#[derive(Debug)]
pub enum PlotError {
    /// A plot needs at least one of `what` (a series, a benchmark row), and none was given.
    EmptyData {
        /// What was missing, e.g. `"series"`.
        what: &'static str,
    },
    /// Two sequences that must have the same length do not, e.g. a series' `xs` and `ys`, or
    /// a spy plot's column groups and its number of columns.
    MismatchedLengths {
        /// Which pair of sequences, e.g. `"xs and ys of series \"f\""`.
        what: String,
        /// The length required.
        expected: usize,
        /// The length given.
        found: usize,
    },
    /// A spy plot's structural nonzero lies outside the matrix (indices are 0-based).
    EntryOutOfBounds {
        /// The entry's row.
        row: usize,
        /// The entry's column.
        col: usize,
        /// The matrix's number of rows.
        nrows: usize,
        /// The matrix's number of columns.
        ncols: usize,
    },
    /// A requested image size is zero or larger than [`crate::MAX_PIXELS`] on a side.
    InvalidSize {
        /// The width asked for, in pixels.
        width: u32,
        /// The height asked for, in pixels.
        height: u32,
    },
    /// `save` was given a path whose extension is neither `.svg` nor `.png`.
    UnknownExtension {
        /// The path as given.
        path: PathBuf,
    },
    /// Writing the file failed.
    Io {
        /// The file being written.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The drawing backend or the PNG encoder failed; this is a bug in this crate or its
    /// dependencies rather than a problem with the data.
    Render {
        /// The backend's message.
        message: String,
    },
}

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlotError::EmptyData { what } => write!(f, "nothing to plot: no {what} given"),
            PlotError::MismatchedLengths {
                what,
                expected,
                found,
            } => write!(
                f,
                "mismatched lengths: {what}: expected {expected}, found {found}"
            ),
            PlotError::EntryOutOfBounds {
                row,
                col,
                nrows,
                ncols,
            } => write!(
                f,
                "entry ({row}, {col}) (0-based) is outside a {nrows}×{ncols} matrix"
            ),
            PlotError::InvalidSize { width, height } => write!(
                f,
                "invalid image size {width}×{height}: each side must be between 1 and {}",
                crate::MAX_PIXELS
            ),
            PlotError::UnknownExtension { path } => write!(
                f,
                "cannot save a plot to {}: the extension must be .svg or .png",
                path.display()
            ),
            PlotError::Io { path, source } => {
                write!(f, "cannot write {}: {source}", path.display())
            }
            PlotError::Render { message } => write!(f, "rendering failed: {message}"),
        }
    }
}

impl std::error::Error for PlotError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlotError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl PlotError {
    /// Wraps any backend error as [`PlotError::Render`].
    pub(crate) fn render(error: impl fmt::Display) -> PlotError {
        PlotError::Render {
            message: error.to_string(),
        }
    }
}
