//! What an execution produces: an ordered stream of [`Event`]s with MIME bundles.

/// A value rendered for display: `(mime type, data)` pairs, always including `text/plain`.
/// Binary formats (PNG) are base64 text, as Jupyter expects.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MimeBundle {
    /// The renderings, richest last.
    pub data: Vec<(String, String)>,
}

impl MimeBundle {
    /// A bundle with only `text/plain`.
    pub fn text(text: impl Into<String>) -> MimeBundle {
        MimeBundle {
            data: vec![("text/plain".into(), text.into())],
        }
    }

    /// The rendering for `mime`, if present.
    pub fn get(&self, mime: &str) -> Option<&str> {
        self.data
            .iter()
            .find(|(m, _)| m == mime)
            .map(|(_, d)| d.as_str())
    }

    /// The `text/plain` rendering.
    pub fn plain(&self) -> &str {
        self.get("text/plain").unwrap_or("")
    }
}

/// Which output stream text belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamName {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// An error report, in the shape of Jupyter's `error` message.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorReport {
    /// The error kind (`DimensionMismatch`).
    pub ename: String,
    /// The message.
    pub evalue: String,
    /// The rendered report, one line per entry (source line, caret, location, calls).
    pub traceback: Vec<String>,
}

impl ErrorReport {
    /// The whole report as text.
    pub fn rendered(&self) -> String {
        self.traceback.join("\n")
    }
}

/// One thing an execution produced, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Text printed to a stream.
    Stream {
        /// Which stream.
        name: StreamName,
        /// The text.
        text: String,
    },
    /// `display(x)`.
    Display(MimeBundle),
    /// `clear_output()`.
    ClearOutput {
        /// Clear only when new output arrives.
        wait: bool,
    },
    /// The value of the input (absent after a trailing `;` or for `nothing`).
    Result(MimeBundle),
    /// The input raised an error.
    Error(ErrorReport),
}

/// One redraw of a progress bar (of `benchmark_differentiation`, `test_differentiation`).
///
/// A notebook shows each bar as one display updated in place (every update of a bar has the
/// same `id`); a terminal redraws a stderr line with `\r`, which is what
/// [`crate::Frontend::progress`] does unless a frontend says otherwise.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// The bar (unique in the process, the same for all its updates).
    pub id: u64,
    /// Steps done.
    pub done: usize,
    /// Steps in all.
    pub total: usize,
    /// The bar as one line of text (`benchmark_differentiation:  50%|██…| 2/4 f with …`).
    pub line: String,
    /// The last update of the bar.
    pub finished: bool,
    /// The update as terminal text: `\r`, the line padded over any longer earlier one, and a
    /// newline when finished.
    pub terminal_text: String,
}

/// The outcome of one `execute`.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The execution count this input got.
    pub execution_count: usize,
    /// True when the input raised an error.
    pub failed: bool,
}
