//! Where a running program's output goes: the [`Output`] sink the session provides.
//!
//! Printing, `display`, `clear_output`, progress bars and `readline` go through this trait so the evaluator
//! knows nothing of terminals or notebooks. [`Capture`] collects text for tests and `-e` runs.

pub use crate::builtins::progress::ProgressUpdate;
use crate::value::Value;

/// Which stream text is written to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// The sink for everything a program shows while it runs.
pub trait Output {
    /// Writes text to a stream.
    fn write(&mut self, stream: Stream, text: &str);
    /// Shows a value with its richest rendering (`display(x)`).
    fn display(&mut self, value: &Value);
    /// Clears the visible output (the cell's output, or the terminal screen).
    fn clear_output(&mut self, wait: bool);
    /// Reads a line from the user; `None` when no input is available.
    fn read_line(&mut self, prompt: &str) -> Option<String>;
    /// Redraws a progress bar; by default as a stderr line redrawn with `\r`.
    fn progress(&mut self, update: &ProgressUpdate) {
        self.write(Stream::Stderr, &update.terminal_text());
    }
}

/// An [`Output`] that keeps everything as text (displayed values in their `text/plain` form).
#[derive(Default)]
pub struct Capture {
    /// Everything written, in order.
    pub text: String,
}

impl Output for Capture {
    fn write(&mut self, _stream: Stream, text: &str) {
        self.text.push_str(text);
    }

    fn display(&mut self, value: &Value) {
        self.text.push_str(&crate::display::plain(value));
        self.text.push('\n');
    }

    fn clear_output(&mut self, _wait: bool) {}

    fn read_line(&mut self, _prompt: &str) -> Option<String> {
        None
    }
}
