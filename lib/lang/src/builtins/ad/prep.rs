//! Preparation: `prepare_gradient(f, backend, x, ...)` and friends return a preparation object
//! that remembers what it was made for, and refuses reuse with another function, backend, or
//! an input of another size or kind, saying which argument differs.

use super::operators::Op;
use crate::error::ErrorKind;
use crate::eval::{fail, Flow};
use crate::object::Object;
use crate::value::Value;
use difflab_ad::di::Backend;
use std::any::Any;

/// What a preparation was made for.
pub struct Prep {
    /// The operator family.
    pub op: Op,
    /// The function (compared by identity).
    pub function: Value,
    /// The backend.
    pub backend: Backend,
    /// The input's shape (empty for a number).
    pub shape: Vec<usize>,
    /// True when the input is a number rather than an array.
    pub scalar: bool,
    /// True for two-argument functions `f!(y, x)`.
    pub two_arg: bool,
    /// For `prepare_*_same_point`: the input values it is valid at.
    pub point: Option<Vec<f64>>,
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
        format!("{}Prep for {} at {input}", self.op.title(), self.backend)
    }

    fn field(&self, name: &str) -> Option<Value> {
        match name {
            "backend" => Some(super::backends::backend_value(self.backend.clone())),
            "function" => Some(self.function.clone()),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["backend", "function"]
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
        shape: &[usize],
        scalar: bool,
        two_arg: bool,
    ) -> Result<(), Flow> {
        if self.op.family() != op.family() {
            return Err(mismatch(format!(
                "this preparation was made for `{}`, not `{}`; prepare again with prepare_{}",
                self.op.name(),
                op.name(),
                op.family().name()
            )));
        }
        if !crate::eval::operators::identical(&self.function, function) {
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
