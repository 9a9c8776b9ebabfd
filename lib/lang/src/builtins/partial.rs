//! Functions made from functions: `Base.Fix1(f, x)` (`y -> f(x, y)`), `Base.Fix2(f, x)`
//! (`y -> f(y, x)`) and `splat(f)` (`args -> f(args...)`), as callable library objects that
//! print as Julia prints them.

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::Value;
use difflab_syntax::Name;
use std::any::Any;

/// Which argument a [`Partial`] fixes, or whether it splats its one argument.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    First,
    Second,
    Splat,
}

/// A function with one argument fixed, or taking its arguments as one collection.
struct Partial {
    shape: Shape,
    function: Value,
    fixed: Value,
}

impl Drop for Partial {
    fn drop(&mut self) {
        crate::value::release([self.function.take(), self.fixed.take()]);
    }
}

impl Object for Partial {
    fn type_name(&self) -> String {
        match self.shape {
            Shape::First => "Base.Fix1".into(),
            Shape::Second => "Base.Fix2".into(),
            Shape::Splat => "Base.Splat".into(),
        }
    }

    fn show(&self) -> String {
        let f = crate::display::repr(&self.function);
        match self.shape {
            Shape::Splat => format!("splat({f})"),
            _ => format!(
                "{}({f}, {})",
                self.type_name(),
                crate::display::repr(&self.fixed)
            ),
        }
    }

    fn call(
        &self,
        interp: &mut Interp,
        args: Vec<Value>,
        kwargs: Vec<(Name, Value)>,
    ) -> Option<EvalResult> {
        let call_args = match (self.shape, args.as_slice()) {
            (Shape::First, [y]) => vec![self.fixed.clone(), y.clone()],
            (Shape::Second, [y]) => vec![y.clone(), self.fixed.clone()],
            (Shape::Splat, [collection]) => match interp.elements_of(collection) {
                Ok(items) => items,
                Err(e) => return Some(Err(e)),
            },
            _ => {
                return Some(Err(fail(
                    ErrorKind::MethodError,
                    format!(
                        "no method matching ({})(…) with {} arguments: it takes one",
                        self.show(),
                        args.len()
                    ),
                )))
            }
        };
        Some(interp.call_value(&self.function, call_args, kwargs))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `Base.Fix2(function, fixed)`: what a function of two arguments given only its second one is
/// (`isequal(x)`, `in(collection)`).
pub(crate) fn fix2(function: Value, fixed: Value) -> EvalResult {
    partial(Shape::Second, function, fixed)
}

fn partial(shape: Shape, function: Value, fixed: Value) -> EvalResult {
    Ok(Value::object(Partial {
        shape,
        function,
        fixed,
    }))
}

fn fix1_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Fix1", 2, 2)?;
    partial(Shape::First, args.pos[0].clone(), args.pos[1].clone())
}

fn fix2_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Fix2", 2, 2)?;
    partial(Shape::Second, args.pos[0].clone(), args.pos[1].clone())
}

fn splat_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("splat", 1, 1)?;
    partial(Shape::Splat, args.pos[0].clone(), Value::Nothing)
}

crate::builtins! {
    "Fix1" => fix1_, false, "    Base.Fix1(f, x)\n\nThe function `y -> f(x, y)`: `f` with its first argument fixed.\n\n```\njulia> map(Base.Fix1(-, 10), [1, 2])\n2-element Vector{Int64}:\n 9\n 8\n```";
    "Fix2" => fix2_, false, "    Base.Fix2(f, x)\n\nThe function `y -> f(y, x)`: `f` with its second argument fixed (what `==(x)` and `<(x)` give).\n\n```\njulia> Base.Fix2(/, 2)(10)\n5.0\n```";
    "splat" => splat_, false, "    splat(f)\n\nThe function `args -> f(args...)`, taking the arguments of `f` as one collection.\n\n```\njulia> map(splat(+), [(1, 2), (3, 4)])\n2-element Vector{Int64}:\n 3\n 7\n```";
}
