//! Preparation: `prepare_gradient(f, backend, x, ...)` and friends return a preparation object
//! that remembers what it was made for, and refuses reuse with another function, backend, or
//! an input of another size or kind, saying which argument differs. It holds the seed arrays
//! of chunked forward mode, with `AutoReverseDiff(compile=true)` the tape compiled at
//! preparation, and with `AutoFastDifferentiation()` the program traced at
//! preparation.

use super::operators::Op;
use crate::error::ErrorKind;
use crate::error::{fail, Flow};
use crate::object::Object;
use crate::value::Value;
use difflab_ad::compiled::CompiledTape;
use difflab_ad::di::primitives::BasisChunks;
use difflab_ad::di::Backend;
use difflab_ad::symbolic::Program;
use difflab_ad::{AdError, Tensor};
use std::any::Any;

/// What a preparation was made for.
pub struct Prep {
    /// The operator family.
    pub op: Op,
    /// The function (compared by identity).
    pub function: Value,
    /// The backend.
    pub backend: Backend,
    /// For `AutoSparse(MixedMode(backend, reverse))`: the reverse backend (shown, not checked).
    pub mixed_reverse: Option<Backend>,
    /// The input's shape (empty for a number).
    pub shape: Vec<usize>,
    /// True when the input is a number rather than an array.
    pub scalar: bool,
    /// True for two-argument functions `f!(y, x)`.
    pub two_arg: bool,
    /// For `prepare_*_same_point`: the input values it is valid at.
    pub point: Option<Vec<f64>>,
    /// For `AutoSparse`: the detected pattern and its coloring.
    pub plan: Option<std::rc::Rc<difflab_ad::di::sparse::SparsePlan>>,
    /// The recording that runs instead of the function (see [`super::recording`]), or why
    /// there is none; `None` for backends that never record. Replaced when the function is
    /// recorded again.
    pub compiled: std::cell::RefCell<Option<Result<Compiled, String>>>,
    /// For gradients, Jacobians and Hessians by chunks of basis directions: the seed arrays,
    /// reused by every call.
    pub seeds: std::cell::RefCell<BasisChunks>,
    /// The stages preparation went through, timed (for `explain`).
    pub stages: Vec<super::explain::Stage>,
}

/// What a preparation runs instead of the interpreted function.
#[derive(Clone)]
pub enum StandIn {
    /// A compiled reverse-mode tape, replayed on the input's number kind.
    Tape(std::rc::Rc<CompiledTape>),
    /// A symbolically traced program.
    Program(std::rc::Rc<Program>),
}

impl StandIn {
    /// The function at `t`.
    pub fn call(&self, t: &Tensor) -> Result<Tensor, AdError> {
        match self {
            StandIn::Tape(tape) => tape.call(t),
            StandIn::Program(program) => program.call(t),
        }
    }

    /// True when `x` takes the branches the recording took (always, for a compiled tape: its
    /// replay checks its guards itself and fails when one changed).
    pub fn branches_hold(&self, x: &Tensor) -> Result<bool, AdError> {
        match self {
            StandIn::Tape(_) => Ok(true),
            StandIn::Program(program) => program.branches_hold(&x.to_col_major()),
        }
    }

    fn describe(&self) -> String {
        match self {
            StandIn::Tape(tape) => {
                format!(
                    "compiled tape of {}",
                    counted(tape.len(), "operation", "operations")
                )
            }
            StandIn::Program(program) => format!(
                "traced program of {}{}",
                counted(program.len(), "instruction", "instructions"),
                branch_checks(program)
            ),
        }
    }
}

/// `" checking N branches"` for a program recorded along branches, else nothing.
pub fn branch_checks(program: &Program) -> String {
    match program.guard_count() {
        0 => String::new(),
        n => format!(" checking {}", counted(n, "branch", "branches")),
    }
}

/// A tape or program made at preparation, run instead of the function.
pub struct Compiled {
    /// The recorded operations.
    pub tape: StandIn,
    /// Copies of the `Constant` contexts it was recorded with (a replay bakes them in).
    pub constants: Vec<Value>,
    /// What the function read while it was recorded (a replay bakes that in too).
    pub reads: crate::eval::reads::ReadLog,
    /// The size of the output array `f!(y, x)` filled when it was recorded.
    pub y_shape: Option<Vec<usize>>,
    /// How many times an input took other branches and the function was recorded again.
    pub branch_changes: usize,
}

impl Compiled {
    /// True when the `Constant` contexts of a call hold the values it was recorded with
    /// (otherwise the function must run again).
    pub fn same_constants(&self, constants: &[Value]) -> bool {
        self.constants.len() == constants.len()
            && self
                .constants
                .iter()
                .zip(constants)
                .all(|(a, b)| crate::value::equality::values_equal(a, b))
    }
}

impl Object for Prep {
    fn type_name(&self) -> String {
        format!("{}Prep", self.op.title())
    }

    fn show(&self) -> String {
        let input = if self.scalar {
            "a number".to_string()
        } else {
            crate::show::summary(crate::show::ElType::Float64, &self.shape)
        };
        let tape = match &*self.compiled.borrow() {
            Some(Ok(c)) => format!(" ({})", c.tape.describe()),
            Some(Err(why)) => format!(" (runs the function as written: {why})"),
            None => String::new(),
        };
        let backend = match &self.mixed_reverse {
            Some(reverse) => format!("MixedMode({}, {reverse})", self.backend),
            None => self.backend.to_string(),
        };
        let shown = match &self.plan {
            Some(p) => format!(
                "Sparse{}Prep for {backend} at {input}: {}, {}{}",
                self.op.title(),
                counted(p.coloring.pattern().nnz(), "stored entry", "stored entries"),
                counted(p.ncolors(), "color", "colors"),
                p.nonzeros_program_len().map_or(String::new(), |k| format!(
                    ", computed by a derivative program of {}",
                    counted(k, "instruction", "instructions")
                ))
            ),
            None => format!("{}Prep for {backend} at {input}", self.op.title()),
        };
        shown + &tape
    }

    fn field(&self, name: &str) -> Option<Value> {
        let colors = |c: Option<&[usize]>| {
            c.map(|c| {
                crate::builtins::array(
                    crate::show::ElType::Int64,
                    &[c.len()],
                    c.iter().map(|&k| k as f64).collect(),
                )
            })
        };
        match (name, &self.plan) {
            ("backend", _) => Some(super::backends::backend_value(self.backend.clone())),
            ("function", _) => Some(self.function.clone()),
            ("ncolors", Some(p)) => Some(Value::Int(p.ncolors() as i64)),
            ("sparsity_pattern", Some(p)) => {
                Some(super::sparse_ad::pattern_value(p.coloring.pattern()))
            }
            ("column_colors", Some(p)) => colors(p.coloring.column_colors()),
            ("row_colors", Some(p)) => colors(p.coloring.row_colors()),
            ("column_groups", Some(p)) => p
                .coloring
                .column_groups()
                .map(crate::builtins::coloring::groups),
            ("row_groups", Some(p)) => p
                .coloring
                .row_groups()
                .map(crate::builtins::coloring::groups),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        if self.plan.is_some() {
            vec![
                "backend",
                "function",
                "ncolors",
                "sparsity_pattern",
                "column_colors",
                "row_colors",
                "column_groups",
                "row_groups",
            ]
        } else {
            vec!["backend", "function"]
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The preparation held by `v`, if it is one.
pub fn as_prep(v: &Value) -> Option<&Prep> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<Prep>(),
        _ => None,
    }
}

fn mismatch(message: String) -> Flow {
    fail(ErrorKind::ArgumentError, message)
}

impl Prep {
    /// Checks that this preparation fits a call; the error names the argument that differs.
    pub fn check(
        &self,
        op: Op,
        function: &Value,
        backend: &Backend,
        x: &Value,
        two_arg: bool,
    ) -> Result<(), Flow> {
        let (shape, scalar) = match crate::value::convert::operand(x)? {
            Some(o) => (o.tensor().shape().to_vec(), o.scalar),
            None => {
                return Err(mismatch(format!(
                    "the input x must be numbers, got a {}",
                    x.type_name()
                )))
            }
        };
        let shape = shape.as_slice();
        if self.op.family() != op.family() {
            return Err(mismatch(format!(
                "this preparation was made for `{}`, not `{}`; prepare again with prepare_{}",
                self.op.name(),
                op.name(),
                op.family().name()
            )));
        }
        if !crate::value::equality::identical(&self.function, function) {
            return Err(mismatch(format!(
                "the function differs from the one this preparation was made for ({} vs {})",
                crate::display::repr(&self.function),
                crate::display::repr(function)
            )));
        }
        if &self.backend != backend {
            return Err(mismatch(format!(
                "the backend {backend} differs from the one this preparation was made for ({})",
                self.backend
            )));
        }
        if self.scalar != scalar || self.shape != shape {
            let describe = |s: bool, sh: &[usize]| {
                if s {
                    "a number".to_string()
                } else {
                    crate::show::summary(crate::show::ElType::Float64, sh)
                }
            };
            return Err(mismatch(format!(
                "the input x is {} but this preparation was made for {}",
                describe(scalar, shape),
                describe(self.scalar, &self.shape)
            )));
        }
        if self.two_arg != two_arg {
            return Err(mismatch(
                "the preparation was made for a function of another signature (f(x) vs f!(y, x))"
                    .into(),
            ));
        }
        if let Some(point) = &self.point {
            let here = super::operators::plain_values(x)?;
            if &here != point {
                return Err(mismatch(
                    "the input x differs from the point this `_same_point` preparation was made at"
                        .into(),
                ));
            }
        }
        Ok(())
    }
}

/// `n` and the noun, singular for one.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
