//! Backends: which technique computes derivatives, and its settings.
//!
//! Each backend is its own implementation here, named after the reference package of its
//! technique: [`Backend::Forward`] (dual numbers with chunked partials, like ForwardDiff),
//! [`Backend::Reverse`] (a tape, like ReverseDiff; `compile` replays a recorded tape),
//! [`Backend::FiniteDiff`] (differences, like FiniteDiff), [`Backend::Symbolic`] (a traced and
//! compiled graph of scalar operations, like FastDifferentiation), [`Backend::SecondOrder`]
//! (one backend differentiating another), and DifferentiationInterface's test backends
//! [`Backend::ZeroForward`] and [`Backend::ZeroReverse`] (every derivative is zero: what is
//! left is the cost of calling the function and of the operator's own bookkeeping).

use std::fmt;

/// The difference scheme of [`Backend::FiniteDiff`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FdType {
    /// `(f(x + h) - f(x)) / h` with `h ≈ √ε·max(1, |x|)`.
    Forward,
    /// `(f(x + h) - f(x - h)) / 2h` with `h ≈ ∛ε·max(1, |x|)`.
    Central,
}

/// How a backend computes first-order derivatives best.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Cheap pushforwards (Jacobian–vector products): one per input direction.
    Forward,
    /// Cheap pullbacks (vector–Jacobian products): one per output direction.
    Reverse,
    /// Function evaluations only.
    FiniteDifferences,
}

/// A differentiation backend.
#[derive(Debug, Clone, PartialEq)]
pub enum Backend {
    /// Forward mode with dual numbers; `chunk` partials per pass (`None`: chosen from the input
    /// size as ForwardDiff does).
    Forward {
        /// The number of partials carried at once.
        chunk: Option<usize>,
    },
    /// Reverse mode with a tape; with `compile`, the tape is recorded once at preparation and
    /// replayed for new inputs (wrong if the function branches on values: see the docs).
    Reverse {
        /// Record once, replay afterwards.
        compile: bool,
    },
    /// Finite differences.
    FiniteDiff {
        /// The difference scheme.
        fdtype: FdType,
        /// FiniteDiff's `relstep` and `absstep`: the step is `max(relstep·max(1, |x|), absstep)`
        /// (`None`: the scheme's default relative step, and `absstep = relstep`).
        steps: Option<(f64, f64)>,
        /// FiniteDiff's `dir`: forward differences step by `dir` times the step (`-1`: backward
        /// differences); central ones ignore it.
        dir: f64,
    },
    /// Symbolic tracing: preparation traces the function into a graph of scalar operations and
    /// compiles it ([`crate::symbolic::Program`]); pushforwards then run its instructions on up
    /// to [`SYMBOLIC_LANES`] tangents at once, pullbacks sweep them backwards. On anything but a
    /// compiled program (no preparation, or a function that cannot be traced) it works as forward
    /// mode with gradients by a tape.
    Symbolic {
        /// The reference package the user named (`AutoFastDifferentiation` or
        /// `AutoSymbolics`): the technique is the same, the name is shown back.
        package: SymbolicPackage,
    },
    /// A forward-mode backend whose pushforwards are zero (DifferentiationInterface's
    /// `AutoZeroForward`): it evaluates the function and nothing else.
    ZeroForward,
    /// A reverse-mode backend whose pullbacks are zero (`AutoZeroReverse`).
    ZeroReverse,
    /// `outer` differentiates what `inner` computes (Hessians, HVPs, second derivatives).
    SecondOrder {
        /// The outer backend.
        outer: Box<Backend>,
        /// The inner backend.
        inner: Box<Backend>,
    },
}

/// Which symbolic package's name a [`Backend::Symbolic`] was made with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolicPackage {
    /// `AutoFastDifferentiation()`.
    FastDifferentiation,
    /// `AutoSymbolics()`.
    Symbolics,
}

/// The largest chunk ForwardDiff picks by default.
pub const MAX_CHUNK: usize = 12;

/// The most tangents [`Backend::Symbolic`] pushes through a compiled program at once: more lanes
/// share each instruction's decoding, at the cost of a wider working set.
pub const SYMBOLIC_LANES: usize = 32;

impl Backend {
    /// The first-order mode (of the inner backend for `SecondOrder`).
    pub fn mode(&self) -> Mode {
        match self {
            Backend::Forward { .. } | Backend::Symbolic { .. } | Backend::ZeroForward => {
                Mode::Forward
            }
            Backend::Reverse { .. } | Backend::ZeroReverse => Mode::Reverse,
            Backend::FiniteDiff { .. } => Mode::FiniteDifferences,
            Backend::SecondOrder { inner, .. } => inner.mode(),
        }
    }

    /// The backend used for first-order operators (the inner one of `SecondOrder`).
    pub fn first_order(&self) -> &Backend {
        match self {
            Backend::SecondOrder { inner, .. } => inner.first_order(),
            other => other,
        }
    }

    /// True when this backend, or one inside `SecondOrder`, is a compiled reverse tape.
    pub fn compiles_tape(&self) -> bool {
        match self {
            Backend::Reverse { compile } => *compile,
            Backend::SecondOrder { outer, inner } => outer.compiles_tape() || inner.compiles_tape(),
            Backend::Forward { .. }
            | Backend::FiniteDiff { .. }
            | Backend::Symbolic { .. }
            | Backend::ZeroForward
            | Backend::ZeroReverse => false,
        }
    }

    /// True when this backend, or one inside `SecondOrder`, traces the function symbolically.
    pub fn traces_symbolically(&self) -> bool {
        match self {
            Backend::Symbolic { .. } => true,
            Backend::SecondOrder { outer, inner } => {
                outer.traces_symbolically() || inner.traces_symbolically()
            }
            Backend::Forward { .. }
            | Backend::Reverse { .. }
            | Backend::FiniteDiff { .. }
            | Backend::ZeroForward
            | Backend::ZeroReverse => false,
        }
    }

    /// True when a preparation with this backend may record the function once and run the
    /// backend's own arithmetic (dual lanes, reverse sweeps) on the recording at every call:
    /// forward mode, reverse mode without a compiled tape, and second order over those.
    /// Finite differences stay evaluations of the function, as the baseline they are.
    pub fn runs_on_recording(&self) -> bool {
        match self {
            Backend::Forward { .. } | Backend::Reverse { compile: false } => true,
            Backend::SecondOrder { outer, inner } => {
                outer.runs_on_recording() && inner.runs_on_recording()
            }
            Backend::Reverse { compile: true }
            | Backend::FiniteDiff { .. }
            | Backend::Symbolic { .. }
            | Backend::ZeroForward
            | Backend::ZeroReverse => false,
        }
    }

    /// True when every derivative of this backend is zero by definition (the test backends).
    pub fn is_zero(&self) -> bool {
        matches!(
            self.first_order(),
            Backend::ZeroForward | Backend::ZeroReverse
        )
    }

    /// True when gradients come from one pullback rather than a pushforward per input.
    pub fn gradient_by_pullback(&self) -> bool {
        matches!(
            self.first_order(),
            Backend::Reverse { .. } | Backend::Symbolic { .. } | Backend::ZeroReverse
        )
    }

    /// The (outer, inner) pair used for second-order operators.
    pub fn second_order(&self) -> (&Backend, &Backend) {
        match self {
            Backend::SecondOrder { outer, inner } => (outer, inner),
            other => (other, other),
        }
    }
}

/// ForwardDiff's default chunk: all inputs up to 12, else evenly split batches of at most 12.
pub fn default_chunk(n: usize) -> usize {
    even_chunk(n, MAX_CHUNK)
}

/// The batch size splitting `n` directions evenly into batches of at most `max`.
pub fn even_chunk(n: usize, max: usize) -> usize {
    if n <= max {
        return n.max(1);
    }
    let batches = n.div_ceil(max);
    n.div_ceil(batches)
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Backend::Forward { chunk: None } => write!(f, "AutoForwardDiff()"),
            Backend::Forward { chunk: Some(c) } => write!(f, "AutoForwardDiff(chunksize={c})"),
            Backend::Reverse { compile: false } => write!(f, "AutoReverseDiff()"),
            Backend::Reverse { compile: true } => write!(f, "AutoReverseDiff(compile=true)"),
            Backend::FiniteDiff { fdtype, steps, dir } => {
                let mut options = Vec::new();
                if *fdtype == FdType::Forward {
                    options.push("fdtype=:forward".to_string());
                }
                if let Some((rel, abs)) = steps {
                    options.push(format!("relstep={rel:e}, absstep={abs:e}"));
                }
                if *dir != 1.0 {
                    options.push(format!("dir={dir}"));
                }
                write!(f, "AutoFiniteDiff({})", options.join(", "))
            }
            Backend::Symbolic {
                package: SymbolicPackage::FastDifferentiation,
            } => write!(f, "AutoFastDifferentiation()"),
            Backend::Symbolic {
                package: SymbolicPackage::Symbolics,
            } => write!(f, "AutoSymbolics()"),
            Backend::ZeroForward => write!(f, "AutoZeroForward()"),
            Backend::ZeroReverse => write!(f, "AutoZeroReverse()"),
            Backend::SecondOrder { outer, inner } => write!(f, "SecondOrder({outer}, {inner})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_follow_forwarddiff() {
        assert_eq!(default_chunk(5), 5);
        assert_eq!(default_chunk(12), 12);
        assert_eq!(default_chunk(13), 7);
        assert_eq!(default_chunk(100), 12);
        assert_eq!(default_chunk(25), 9);
    }
}
