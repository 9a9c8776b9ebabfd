//! `DifferentiateWith(f, backend)`: a function that is evaluated normally but differentiated
//! with its own backend, whatever backend differentiates the code around it.
//!
//! Called on plain numbers or sparsity tracers it just calls `f`. Called on a dual number
//! (forward mode outside),
//! it evaluates `f` at the dual's value and pushes the dual's partials through `f` with its
//! own backend; the outer layers of nested duals are handled by recursion.

use super::backends::{as_backend, backend_value};
use super::custom_rule::{record_plain_pullback, transpose_times};
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::convert::operand;
use crate::value::{Array, Value};
use difflab_ad::di::{primitives, Backend};
use difflab_ad::Tensor;
use difflab_syntax::Name;
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

/// A function differentiated with its own backend.
pub struct DifferentiateWith {
    function: Value,
    backend: Backend,
}

fn to_value(t: Tensor, scalar: bool) -> Value {
    if scalar && t.shape().is_empty() {
        Value::from_scalar(t)
    } else {
        Value::Array(Rc::new(RefCell::new(Array::new(
            crate::show::ElType::Float64,
            t,
        ))))
    }
}

impl DifferentiateWith {
    fn apply(&self, interp: &mut Interp, x: &Tensor, scalar: bool) -> Result<Tensor, Flow> {
        // Sparsity tracers go through `f` itself, as DI's wrapper is transparent to every
        // backend but the one it redirects: the pattern is `f`'s own.
        if x.has_tracer() {
            return self.call_raw(interp, x, scalar);
        }
        if let Tensor::Tracked(tr) = x {
            return self.apply_reverse(interp, x, &tr.value, scalar);
        }
        let Tensor::Dual(d) = x else {
            let out = interp.call(&self.function, vec![to_value(x.clone(), scalar)])?;
            return numbers(&out);
        };
        // The value of f at the dual's value (itself possibly dual, of an older tag).
        let y = self.apply(interp, &d.value, scalar)?;
        let mut f = |t: &Tensor| -> Result<Tensor, Flow> { self.call_raw(interp, t, scalar) };
        let (_, jvps) = primitives::pushforward(&mut f, &self.backend, &d.value, &d.partials)?;
        Ok(Tensor::dual(d.tag, y, jvps))
    }
}

impl DifferentiateWith {
    /// `f(t)` itself, for its own backend to differentiate (no translation again).
    fn call_raw(&self, interp: &mut Interp, t: &Tensor, scalar: bool) -> Result<Tensor, Flow> {
        let out = interp.call(&self.function, vec![to_value(t.clone(), scalar)])?;
        numbers(&out)
    }

    /// Reverse mode around it: records `f(x)` with the rule `ȳ ↦ Jᵀ ȳ`, the Jacobian computed
    /// by its own backend at this point.
    fn apply_reverse(
        &self,
        interp: &mut Interp,
        x: &Tensor,
        x0: &Tensor,
        scalar: bool,
    ) -> Result<Tensor, Flow> {
        let mut f = |t: &Tensor| -> Result<Tensor, Flow> { self.call_raw(interp, t, scalar) };
        let (y, jacobian) =
            difflab_ad::di::operators::value_and_jacobian(&mut f, &self.backend, x0)?;
        let (m, jacobian) = (y.len(), jacobian.to_col_major());
        Ok(record_plain_pullback(x, y, move |ct| {
            transpose_times(&jacobian, m, ct)
        }))
    }
}

fn numbers(v: &Value) -> Result<Tensor, Flow> {
    operand(v)?.map(|o| o.tensor().clone()).ok_or_else(|| {
        fail(
            ErrorKind::ArgumentError,
            format!(
                "DifferentiateWith: the function must return numbers, got a {}",
                v.type_name()
            ),
        )
    })
}

impl Object for DifferentiateWith {
    fn type_name(&self) -> String {
        "DifferentiateWith".into()
    }

    fn show(&self) -> String {
        format!(
            // The last part is DI's (empty) tuple of contexts.
            "DifferentiateWith({}, {}, ())",
            crate::display::repr(&self.function),
            self.backend
        )
    }

    fn field(&self, name: &str) -> Option<Value> {
        match name {
            "f" => Some(self.function.clone()),
            "backend" => Some(backend_value(self.backend.clone())),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["f", "backend"]
    }

    fn call(
        &self,
        interp: &mut Interp,
        args: Vec<Value>,
        kwargs: Vec<(Name, Value)>,
    ) -> Option<EvalResult> {
        Some((|| {
            if !kwargs.is_empty() || args.len() != 1 {
                return Err(fail(
                    ErrorKind::MethodError,
                    "a DifferentiateWith function takes exactly one argument",
                ));
            }
            let x = operand(&args[0])?.ok_or_else(|| {
                fail(
                    ErrorKind::MethodError,
                    format!(
                        "DifferentiateWith: expected numbers, got a {}",
                        args[0].type_name()
                    ),
                )
            })?;
            let (t, scalar) = (x.tensor().clone(), x.scalar);
            drop(x);
            if t.is_plain() {
                return interp.call(&self.function, args);
            }
            let out = self.apply(interp, &t, scalar)?;
            Ok(to_value(out, scalar || args_are_scalar(&args[0])))
        })())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn args_are_scalar(v: &Value) -> bool {
    v.is_number()
}

fn differentiate_with_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("DifferentiateWith", 2, 2)?;
    let backend = as_backend(&args.pos[1])
        .ok_or_else(|| {
            fail(
                ErrorKind::ArgumentError,
                "DifferentiateWith(f, backend): the second argument must be a backend",
            )
        })?
        .clone();
    Ok(Value::Object(Rc::new(Box::new(DifferentiateWith {
        function: args.pos[0].clone(),
        backend,
    }))))
}

crate::builtins! {
    "DifferentiateWith" => differentiate_with_, false, "    DifferentiateWith(f, backend)\n\nA function that computes `f(x)` but is differentiated with `backend`, whatever backend differentiates the code around it (backend translation). Sparsity detectors trace through `f` itself, as DifferentiationInterface's wrapper is transparent to them.\n\n```\njulia> g = DifferentiateWith(x -> sum(abs2, x), AutoFiniteDiff());\n\njulia> isapprox(gradient(x -> 2 * g(x), AutoForwardDiff(), [1.0, 2.0]), [4.0, 8.0]; rtol=1e-8)\ntrue\n```";
}
