//! Contexts: extra arguments passed to the differentiated function after the input,
//! `Constant(c)` (not differentiated) and `Cache(c)` (scratch space the function may overwrite;
//! each evaluation gets a fresh copy that can hold derivative numbers) and `ConstantOrCache(c)`
//! (constants and scratch space together, passed as they are).

use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::Value;
use std::any::Any;
use std::rc::Rc;

/// A context argument.
pub enum Context {
    /// Passed as is; never differentiated.
    Constant(Value),
    /// Scratch space; copied for each evaluation.
    Cache(Value),
    /// Constants and scratch space mixed (a named tuple of both, say), passed as is and never
    /// differentiated; the function must cope with numbers carrying derivatives in it.
    ConstantOrCache(Value),
}

impl Context {
    /// The value to pass to one evaluation of the function.
    pub fn argument(&self) -> Value {
        match self {
            Context::Constant(v) | Context::ConstantOrCache(v) => v.clone(),
            Context::Cache(v) => crate::builtins::arrays::deep_copy(v),
        }
    }
}

impl Object for Context {
    fn type_name(&self) -> String {
        match self {
            Context::Constant(_) => "Constant".into(),
            Context::Cache(_) => "Cache".into(),
            Context::ConstantOrCache(_) => "ConstantOrCache".into(),
        }
    }

    fn show(&self) -> String {
        let (name, v) = match self {
            Context::Constant(v) => ("Constant", v),
            Context::Cache(v) => ("Cache", v),
            Context::ConstantOrCache(v) => ("ConstantOrCache", v),
        };
        format!("{name}({})", crate::display::repr(v))
    }

    fn field(&self, name: &str) -> Option<Value> {
        match (self, name) {
            (Context::Constant(v) | Context::Cache(v) | Context::ConstantOrCache(v), "data") => {
                Some(v.clone())
            }
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["data"]
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The context held by `v`, if it is one.
pub fn as_context(v: &Value) -> Option<&Context> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<Context>(),
        _ => None,
    }
}

fn constant_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Constant", 1, 1)?;
    Ok(Value::Object(Rc::new(Box::new(Context::Constant(
        args.pos[0].clone(),
    )))))
}

fn cache_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Cache", 1, 1)?;
    let storage = &args.pos[0];
    if storage.is_number()
        || matches!(
            storage,
            Value::Nothing | Value::Str(_) | Value::Char(_) | Value::Symbol(_)
        )
    {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!(
                "Cache holds scratch storage the function overwrites (an array, or a tuple of arrays), not a {}; pass a value that stays fixed as Constant",
                storage.type_name()
            ),
        ));
    }
    Ok(Value::Object(Rc::new(Box::new(Context::Cache(
        args.pos[0].clone(),
    )))))
}

fn constant_or_cache_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("ConstantOrCache", 1, 1)?;
    Ok(Value::object(Context::ConstantOrCache(args.pos[0].clone())))
}

crate::builtins! {
    "Constant" => constant_, false, "    Constant(c)\n\nA context argument passed to the function after the input and never differentiated: `gradient(f, backend, x, Constant(a))` differentiates `x -> f(x, a)`.\n\n```\njulia> gradient((x, a) -> a * sum(abs2, x), AutoForwardDiff(), [1.0, 2.0], Constant(3.0))\n2-element Vector{Float64}:\n  6.0\n 12.0\n```";
    "ConstantOrCache" => constant_or_cache_, false, "    ConstantOrCache(c)\n\nA context argument holding constants and scratch space together (a named tuple of both, say), passed to the function as it is and never differentiated; as in DifferentiationInterface, the function must cope with numbers carrying derivatives in its scratch arrays (difflab's arrays hold them).\n\n```\njulia> f(x, c) = (c.buffer .= c.scale .* x; sum(abs2, c.buffer));\n\njulia> gradient(f, AutoForwardDiff(), [1.0, 2.0], ConstantOrCache((; scale=2.0, buffer=zeros(2))))\n2-element Vector{Float64}:\n  8.0\n 16.0\n```";
    "Cache" => cache_, false, "    Cache(c)\n\nA context argument the function may overwrite as scratch space; each evaluation gets a fresh copy that can hold numbers carrying derivatives.\n\n```\njulia> f(x, buf) = (buf .= x .^ 2; sum(buf));\n\njulia> gradient(f, AutoForwardDiff(), [1.0, 2.0], Cache(zeros(2)))\n2-element Vector{Float64}:\n 2.0\n 4.0\n```";
}
