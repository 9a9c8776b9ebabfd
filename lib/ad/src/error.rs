//! Errors raised by primitive operations and differentiation.

use std::fmt;

/// What went wrong in a primitive operation. The evaluator maps each variant onto the
/// language's error kinds (`DimensionMismatch`, `DomainError`, `ArgumentError`, ...).
#[derive(Debug, Clone, PartialEq)]
pub enum AdError {
    /// Shapes that cannot be combined, e.g. broadcasting `(2,)` with `(3,)`.
    DimensionMismatch(String),
    /// An argument outside the domain of a function where the result would be complex or
    /// undefined, e.g. `sqrt(-1.0)`.
    Domain {
        /// The function's name.
        function: &'static str,
        /// The offending value.
        value: f64,
    },
    /// A primitive has no derivative rule for the number kind it was given.
    NoRule {
        /// The primitive's name.
        function: &'static str,
        /// The kind of derivative that is missing ("forward", "reverse").
        kind: &'static str,
    },
    /// A malformed argument (bad index, wrong length, ...).
    Argument(String),
    /// An index outside the bounds of an array.
    Bounds(String),
    /// A request beyond the session's memory limit ([`crate::limits`]).
    OutOfMemory(String),
    /// The session's interrupt was requested ([`crate::limits::check`]).
    Interrupted,
}

impl fmt::Display for AdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdError::DimensionMismatch(msg)
            | AdError::Argument(msg)
            | AdError::Bounds(msg)
            | AdError::OutOfMemory(msg) => f.write_str(msg),
            AdError::Interrupted => f.write_str("interrupted"),
            // As Julia shows a `DomainError`: the value first (`DomainError with -1.0:`).
            AdError::Domain { function, value } => write!(
                f,
                "with {value}:\n{function} was called outside its domain of real arguments"
            ),
            AdError::NoRule { function, kind } => {
                write!(f, "`{function}` has no {kind} derivative rule")
            }
        }
    }
}

impl std::error::Error for AdError {}

/// The result type of primitive operations.
pub type Result<T> = std::result::Result<T, AdError>;
