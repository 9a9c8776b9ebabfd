//! Errors of the language: [`LangError`] with Julia's error kinds, and where they happened.
//!
//! An error carries its [`ErrorKind`], a message, and the location (source and byte span) of
//! the expression that raised it; line and column are computed only by [`LangError::render`].
//! `throw(v)` of a non-exception value keeps the value as the error's payload. [`Flow`] is how
//! an error (or `break`, `continue`, `return`) leaves an expression, for the evaluator and the
//! builtins alike.

use crate::value::Value;
use difflab_syntax::{line_col, line_text, Span};
use std::fmt;
use std::rc::Rc;

/// One input the session evaluated: a REPL line, a notebook cell or a script file.
#[derive(Debug)]
pub struct Source {
    /// How errors name it: `REPL[3]`, `In[3]`, or a file path.
    pub name: String,
    /// The text.
    pub text: String,
}

/// Where something is in the inputs: a source and a byte span in it.
pub type Location = (Rc<Source>, Span);

/// The kinds of error, named as Julia names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A variable or function name that is not defined.
    UndefVarError,
    /// A required keyword argument that was not given.
    UndefKeywordError,
    /// A read of a field or entry that was never assigned (`#undef`).
    UndefRefError,
    /// No method of a function accepts these arguments.
    MethodError,
    /// An index outside an array's bounds.
    BoundsError,
    /// Arrays whose sizes do not fit together.
    DimensionMismatch,
    /// An argument outside a function's domain (`sqrt(-1.0)`).
    DomainError,
    /// An invalid argument.
    ArgumentError,
    /// A parse error.
    LoadError,
    /// The user interrupted the computation.
    InterruptException,
    /// Recursion deeper than the configured limit.
    StackOverflowError,
    /// An allocation beyond the configured memory limit.
    OutOfMemoryError,
    /// `error("msg")`.
    ErrorException,
    /// A failed `@assert`.
    AssertionError,
    /// A missing key or field.
    KeyError,
    /// A conversion that would lose information (`Int(1.5)`).
    InexactError,
    /// Integer division by zero.
    DivideError,
    /// An integer result that does not fit (`factorial(21)`).
    OverflowError,
    /// A Cholesky factorization of a matrix that is not symmetric positive definite.
    PosDefException,
    /// Given colors that do not allow decompression (SparseMatrixColorings).
    InvalidColoringError,
    /// A decompression a coloring result does not offer (SparseMatrixColorings).
    UnsupportedDecompressionError,
    /// A string index inside a multi-byte character.
    StringIndexError,
    /// A value of the wrong type where a specific type is required.
    TypeError,
    /// An operating-system error (files).
    SystemError,
    /// A test set with failures or errors, when it ends (`Test`).
    TestSetException,
    /// A failing test outside any test set (`Test`).
    FallbackTestSetException,
    /// `throw(v)` of a value that is not an exception.
    Thrown,
}

impl ErrorKind {
    /// The Julia name of the kind.
    pub fn name(self) -> &'static str {
        use ErrorKind::*;
        match self {
            UndefVarError => "UndefVarError",
            UndefKeywordError => "UndefKeywordError",
            UndefRefError => "UndefRefError",
            MethodError => "MethodError",
            BoundsError => "BoundsError",
            DimensionMismatch => "DimensionMismatch",
            DomainError => "DomainError",
            ArgumentError => "ArgumentError",
            LoadError => "LoadError",
            InterruptException => "InterruptException",
            StackOverflowError => "StackOverflowError",
            OutOfMemoryError => "OutOfMemoryError",
            ErrorException => "ErrorException",
            AssertionError => "AssertionError",
            KeyError => "KeyError",
            InexactError => "InexactError",
            DivideError => "DivideError",
            OverflowError => "OverflowError",
            PosDefException => "PosDefException",
            InvalidColoringError => "InvalidColoringError",
            UnsupportedDecompressionError => "UnsupportedDecompressionError",
            StringIndexError => "StringIndexError",
            TypeError => "TypeError",
            SystemError => "SystemError",
            TestSetException => "TestSetException",
            FallbackTestSetException => "FallbackTestSetException",
            Thrown => "Exception",
        }
    }

    /// The kind called `name`, for exception constructors (`ArgumentError("…")`).
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        use ErrorKind::*;
        Some(match name {
            "UndefVarError" => UndefVarError,
            "UndefKeywordError" => UndefKeywordError,
            "UndefRefError" => UndefRefError,
            "MethodError" => MethodError,
            "BoundsError" => BoundsError,
            "DimensionMismatch" => DimensionMismatch,
            "DomainError" => DomainError,
            "ArgumentError" => ArgumentError,
            "InterruptException" => InterruptException,
            "StackOverflowError" => StackOverflowError,
            "OutOfMemoryError" => OutOfMemoryError,
            "ErrorException" => ErrorException,
            "AssertionError" => AssertionError,
            "KeyError" => KeyError,
            "InexactError" => InexactError,
            "DivideError" => DivideError,
            "OverflowError" => OverflowError,
            "PosDefException" => PosDefException,
            "InvalidColoringError" => InvalidColoringError,
            "UnsupportedDecompressionError" => UnsupportedDecompressionError,
            "StringIndexError" => StringIndexError,
            "TypeError" => TypeError,
            "SystemError" => SystemError,
            "TestSetException" => TestSetException,
            "FallbackTestSetException" => FallbackTestSetException,
            _ => return None,
        })
    }
}

/// A raised error.
#[derive(Debug, Clone)]
pub struct LangError {
    /// The kind.
    pub kind: ErrorKind,
    /// The message after `Kind: `.
    pub message: String,
    /// Where it was raised, once known.
    pub location: Option<Location>,
    /// Calls it passed through, innermost first: (function name, call site).
    pub trace: Vec<(String, Option<Location>)>,
    /// The thrown value for `throw(v)` of a non-exception.
    pub payload: Option<Value>,
}

impl LangError {
    /// An error of `kind` with `message`, location unknown yet.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> LangError {
        LangError {
            kind,
            message: message.into(),
            location: None,
            trace: Vec::new(),
            payload: None,
        }
    }

    /// `Kind: message` (or just `Kind` when there is no message), as Julia's `showerror`.
    pub fn headline(&self) -> String {
        if self.kind == ErrorKind::Thrown {
            let shown = self
                .payload
                .as_ref()
                .map(crate::display::repr)
                .unwrap_or_default();
            return shown;
        }
        if self.message.is_empty() {
            self.kind.name().to_string()
        } else if matches!(
            self.kind,
            ErrorKind::ErrorException
                | ErrorKind::TestSetException
                | ErrorKind::FallbackTestSetException
        ) {
            // Julia shows `error("…")` and failed tests by their message alone,
            self.message.clone()
        } else if self.kind == ErrorKind::DomainError && self.message.starts_with("with ") {
            // and `DomainError(x, msg)` as `DomainError with x:`.
            format!("{} {}", self.kind.name(), self.message)
        } else {
            format!("{}: {}", self.kind.name(), self.message)
        }
    }

    /// The full report: `ERROR: Kind: message`, the source line with a caret under the span,
    /// and `@ source:line:column`, then the call trace.
    pub fn render(&self) -> String {
        let mut out = format!("ERROR: {}", self.headline());
        if let Some((source, span)) = &self.location {
            let (line, col) = line_col(&source.text, span.start as usize);
            let text = line_text(&source.text, line);
            let (_, end_col) = line_col(&source.text, span.end as usize);
            let width = if end_col > col && line_col(&source.text, span.end as usize).0 == line {
                end_col - col
            } else {
                1
            };
            out.push_str(&format!(
                "\n  {text}\n  {}{}\n@ {}:{line}:{col}",
                " ".repeat(col - 1),
                "^".repeat(width.max(1)),
                source.name
            ));
        }
        // Consecutive identical frames (deep recursion) are shown once with a count, as Julia does.
        let mut k = 0;
        while k < self.trace.len() {
            let (function, site) = &self.trace[k];
            let repeats = self.trace[k + 1..]
                .iter()
                .take_while(|(f, s)| f == function && same_site(s, site))
                .count();
            match site {
                Some((source, span)) => {
                    let (line, col) = line_col(&source.text, span.start as usize);
                    out.push_str(&format!(
                        "\n  in {function} at {}:{line}:{col}",
                        source.name
                    ));
                }
                None => out.push_str(&format!("\n  in {function}")),
            }
            if repeats > 0 {
                out.push_str(&format!(" [repeats {repeats} more times]"));
            }
            k += repeats + 1;
        }
        out
    }
}

/// True when two call sites are the same place in the same source.
fn same_site(a: &Option<Location>, b: &Option<Location>) -> bool {
    match (a, b) {
        (Some((sa, pa)), Some((sb, pb))) => Rc::ptr_eq(sa, sb) && pa == pb,
        (None, None) => true,
        _ => false,
    }
}

impl fmt::Display for LangError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.headline())
    }
}

impl std::error::Error for LangError {}

impl From<difflab_ad::AdError> for LangError {
    fn from(e: difflab_ad::AdError) -> LangError {
        use difflab_ad::AdError::*;
        let kind = match &e {
            DimensionMismatch(_) => ErrorKind::DimensionMismatch,
            Domain { .. } => ErrorKind::DomainError,
            NoRule { .. } => ErrorKind::MethodError,
            Argument(_) => ErrorKind::ArgumentError,
            Bounds(_) => ErrorKind::BoundsError,
            OutOfMemory(_) => ErrorKind::OutOfMemoryError,
            Interrupted => ErrorKind::InterruptException,
        };
        let message = match &e {
            // The value as the language prints numbers (`-1.0`, `Inf`).
            Domain { function, value } => format!(
                "with {}:\n{function} was called outside its domain of real arguments",
                crate::show::float(*value)
            ),
            Interrupted => String::new(),
            _ => e.to_string(),
        };
        LangError::new(kind, message)
    }
}

/// Non-local control flow out of an expression.
pub enum Flow {
    /// An error being raised.
    Error(Box<LangError>),
    /// `break` out of the innermost loop.
    Break,
    /// `continue` with the next iteration.
    Continue,
    /// `return v` from the current function.
    Return(Value),
}

impl From<LangError> for Flow {
    fn from(e: LangError) -> Flow {
        Flow::Error(Box::new(e))
    }
}

impl From<difflab_ad::AdError> for Flow {
    fn from(e: difflab_ad::AdError) -> Flow {
        Flow::Error(Box::new(e.into()))
    }
}

/// The result of evaluating an expression.
pub type EvalResult = Result<Value, Flow>;

/// An error of `kind` as a [`Flow`].
pub fn fail(kind: ErrorKind, message: impl Into<String>) -> Flow {
    Flow::Error(Box::new(LangError::new(kind, message)))
}
