//! Julia's bare `I` (a `UniformScaling`): `λ*I`, `A + λ*I`, `A - I`, `I * x`, `I \ b`, `(2I)(n)`.
//! A scaling is a number (which may carry derivatives) times the identity of whatever size the
//! matrix it meets has; the identity is built only then, at that matrix's size.

use super::identity;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::show::ElType;
use crate::value::convert::{from_tensor, operand};
use crate::value::Value;
use difflab_syntax::{BinOp, UnaryOp};
use std::any::Any;
use std::rc::Rc;

/// `scale * I`.
pub struct UniformScaling {
    scale: Value,
}

impl Object for UniformScaling {
    fn type_name(&self) -> String {
        format!("UniformScaling{{{}}}", self.scale.type_name())
    }

    fn show(&self) -> String {
        format!(
            "{}\n{}*I",
            self.type_name(),
            crate::display::repr(&self.scale)
        )
    }

    fn repr(&self) -> String {
        format!(
            "{}({})",
            self.type_name(),
            crate::display::repr(&self.scale)
        )
    }

    fn field(&self, name: &str) -> Option<Value> {
        (name == "λ").then(|| self.scale.clone())
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["λ"]
    }

    /// `(λ*I)(n)`: the n×n matrix.
    fn call(
        &self,
        interp: &mut Interp,
        args: Vec<Value>,
        _kwargs: Vec<(difflab_syntax::Name, Value)>,
    ) -> Option<EvalResult> {
        Some(match args.as_slice() {
            [n] => crate::builtins::to_size(n, "UniformScaling")
                .and_then(|n| scaled_identity(interp, &self.scale, n)),
            _ => Err(fail(
                ErrorKind::MethodError,
                "a UniformScaling is called with the size n of the matrix it stands for",
            )),
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// True for the bare `I`: Julia's constant `UniformScaling{Bool}`, which is a builtin here so
/// that `I(n)` is a call of it; it prints and names its type as Julia's constant does.
pub fn is_bare_identity(v: &Value) -> bool {
    matches!(v, Value::Builtin(b) if b.name == "I")
}

/// The type name of the bare `I`.
pub const BARE_IDENTITY_TYPE: &str = "UniformScaling{Bool}";

fn scaling(scale: Value) -> Value {
    Value::Object(Rc::new(Box::new(UniformScaling { scale })))
}

/// The scale `v` stands for: `true` for the builtin `I`, λ for `λ*I`.
/// The factor of `I` (`true`) or of a `UniformScaling` (`λ` of `λI`); `None` for other values.
pub fn scale_of(v: &Value) -> Option<Value> {
    match v {
        Value::Builtin(b) if b.name == "I" => Some(Value::Bool(true)),
        Value::Object(o) => o
            .as_any()
            .downcast_ref::<UniformScaling>()
            .map(|u| u.scale.clone()),
        _ => None,
    }
}

/// `a op b` when either side is a scaling; `None` otherwise (and for broadcasting, which
/// Julia does not define for scalings either).
pub fn binary(
    interp: &mut Interp,
    op: BinOp,
    dotted: bool,
    a: &Value,
    b: &Value,
) -> Option<EvalResult> {
    let (left, right) = (scale_of(a), scale_of(b));
    if dotted || (left.is_none() && right.is_none()) {
        return None;
    }
    Some(match (op, left, right) {
        (BinOp::Add | BinOp::Sub | BinOp::Mul, Some(x), Some(y)) => {
            interp.binary(op, false, &x, &y).map(scaling)
        }
        (BinOp::Mul, Some(s), None) if b.is_number() => {
            interp.binary(op, false, &s, b).map(scaling)
        }
        (BinOp::Mul, None, Some(s)) if a.is_number() => {
            interp.binary(op, false, a, &s).map(scaling)
        }
        (BinOp::Div, Some(s), None) if b.is_number() => {
            interp.binary(op, false, &s, b).map(scaling)
        }
        (BinOp::Mul, Some(s), None) => interp.binary(op, false, &s, b),
        (BinOp::Mul, None, Some(s)) => interp.binary(op, false, a, &s),
        (BinOp::LeftDiv, Some(s), None) => interp.binary(BinOp::Div, false, b, &s),
        (BinOp::Add, None, Some(s)) => plus_scaled_identity(interp, a, &s),
        (BinOp::Add, Some(s), None) => plus_scaled_identity(interp, b, &s),
        (BinOp::Sub, None, Some(s)) => {
            let negated = crate::builtins::value_operators::unary(UnaryOp::Neg, false, &s);
            negated.and_then(|minus| plus_scaled_identity(interp, a, &minus))
        }
        (BinOp::Sub, Some(s), None) => {
            crate::builtins::value_operators::unary(UnaryOp::Neg, false, b)
                .and_then(|minus| plus_scaled_identity(interp, &minus, &s))
        }
        (BinOp::Approx, _, _) => crate::builtins::math::isapprox(interp, a, b, None, None),
        (BinOp::Eq | BinOp::Ne, Some(x), Some(y)) => interp.binary(op, false, &x, &y),
        (BinOp::Eq | BinOp::Ne, None, Some(s)) => {
            matrix_like(interp, &s, a).and_then(|m| interp.binary(op, false, a, &m))
        }
        (BinOp::Eq | BinOp::Ne, Some(s), None) => {
            matrix_like(interp, &s, b).and_then(|m| interp.binary(op, false, &m, b))
        }
        _ => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {}(::{}, ::{})",
                op.symbol(),
                a.type_name(),
                b.type_name()
            ),
        )),
    })
}

/// `λ*I` as a matrix of the size of the square matrix `like` (for `A == I`, `A ≈ I`).
fn matrix_like(interp: &mut Interp, scale: &Value, like: &Value) -> EvalResult {
    let zero =
        crate::builtins::call_builtin(interp, "zero", vec![like.clone()], Vec::new(), false)?;
    plus_scaled_identity(interp, &zero, scale)
}

/// `v` itself, or, when `v` is `I` or `λ*I`, what it stands for beside `like`: the matrix of
/// `like`'s size, or its scale when `like` is a scaling too.
pub fn sized_like(interp: &mut Interp, v: &Value, like: &Value) -> EvalResult {
    match (scale_of(v), scale_of(like)) {
        (Some(scale), None) => matrix_like(interp, &scale, like),
        (Some(scale), Some(_)) => Ok(scale),
        (None, _) => Ok(v.clone()),
    }
}

/// `-(λ*I)`.
pub fn negate(v: &Value) -> Option<EvalResult> {
    let scale = scale_of(v)?;
    Some(crate::builtins::value_operators::unary(UnaryOp::Neg, false, &scale).map(scaling))
}

/// `m + scale * Id` for a square matrix `m` (dense or sparse).
fn plus_scaled_identity(interp: &mut Interp, m: &Value, scale: &Value) -> EvalResult {
    let shape = match m {
        Value::Sparse(s) => {
            let s = s.borrow();
            vec![s.matrix.rows(), s.matrix.cols()]
        }
        _ => operand(m)?
            .map(|x| x.tensor().shape().to_vec())
            .ok_or_else(|| {
                fail(
                    ErrorKind::MethodError,
                    format!(
                        "no method matching +(::{}, ::UniformScaling)",
                        m.type_name()
                    ),
                )
            })?,
    };
    let n = match shape.as_slice() {
        [r, c] if r == c => *r,
        _ => {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!(
                    "matrix is not square: dimensions are ({})",
                    shape
                        .iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ))
        }
    };
    let scaled = match m {
        Value::Sparse(_) => {
            let eye = crate::builtins::sparse::sparse_value(sprs::CsMat::eye(n), ElType::Float64);
            interp.binary(BinOp::Mul, false, scale, &eye)?
        }
        _ => scaled_identity(interp, scale, n)?,
    };
    interp.binary(BinOp::Add, false, m, &scaled)
}

/// `Matrix(λI, m, n)`: the m×n matrix with λ on its diagonal; `None` when `v` is no scaling.
pub fn materialize(interp: &mut Interp, v: &Value, m: usize, n: usize) -> Option<EvalResult> {
    let scale = scale_of(v)?;
    Some((|| {
        interp.check_alloc(m.saturating_mul(n))?;
        let mut eye = vec![0.0; m * n];
        for k in 0..m.min(n) {
            eye[k * m + k] = 1.0;
        }
        let eye = Value::array(ElType::Bool, &[m, n], eye);
        interp.binary(BinOp::Mul, false, &scale, &eye)
    })())
}

/// `(λ*I)(n)`: the `Diagonal` of `n` λs.
fn scaled_identity(interp: &mut Interp, scale: &Value, n: usize) -> Result<Value, Flow> {
    let eye = super::diagonal::marked(from_tensor(identity(n)?, ElType::Bool, false));
    interp.binary(BinOp::Mul, false, scale, &eye)
}
