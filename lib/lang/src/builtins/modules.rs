//! `Main` as a value, for the reflection Julia code does on it: `isdefined(Main, :x)` and
//! `Main.x` (the session's global `x`). difflab has no modules of its own; the names of the
//! reference packages' modules only qualify their builtins (`eval::call`'s `MODULES`).

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::Value;
use std::any::Any;

/// The session's top-level module.
struct Module;

impl Object for Module {
    fn type_name(&self) -> String {
        "Module".into()
    }

    fn show(&self) -> String {
        "Main".into()
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `Main`.
pub fn main_module() -> Value {
    Value::object(Module)
}

/// Whether `v` is `Main`.
pub fn is_module(v: &Value) -> bool {
    matches!(v, Value::Object(o) if o.as_any().is::<Module>())
}

/// `isdefined(Main, :x)`: whether `x` names a global, a function or a builtin of the session.
fn isdefined_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("isdefined", 2, 2)?;
    match (&args.pos[0], &args.pos[1]) {
        (m, Value::Symbol(name)) if is_module(m) => Ok(Value::Bool(interp.lookup(*name).is_ok())),
        // `isdefined(x, :f)`: whether the field `f` of a struct was assigned.
        (Value::Struct(s), Value::Symbol(name)) => Ok(Value::Bool(
            s.def
                .field_index(*name)
                .is_some_and(|i| !s.fields.borrow()[i].is_undefined()),
        )),
        (m, other) if is_module(m) => Err(fail(
            ErrorKind::TypeError,
            format!("isdefined: the name must be a Symbol, got a {}", other.type_name()),
        )),
        (other, _) => Err(fail(
            ErrorKind::MethodError,
            format!(
                "isdefined takes a module (Main) and a symbol, got a {}; for a variable here, use @isdefined",
                other.type_name()
            ),
        )),
    }
}

/// `isassigned(v, i)`: whether entry `i` of `v` is in bounds and not `#undef`.
fn isassigned_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("isassigned", 2, 2)?;
    let i = super::to_int(&args.pos[1], "isassigned")?;
    let assigned = match &args.pos[0] {
        Value::List(items) => usize::try_from(i - 1)
            .ok()
            .and_then(|k| items.borrow().get(k).map(|v| !v.is_undefined()))
            .unwrap_or(false),
        other => {
            let len: usize = super::arrays::shape_of(other, "isassigned")?
                .iter()
                .product();
            (1..=len as i64).contains(&i)
        }
    };
    Ok(Value::Bool(assigned))
}

crate::builtins! {
    "isdefined" => isdefined_, false, "    isdefined(Main, :name)\n    isdefined(x, :field)\n\nWhether `name` is defined in the session: a global variable, a function or a builtin (`Main` sees everything Julia's `Base` exports). `@isdefined name` asks the same of the current scope, locals included. For a struct value, whether its field was assigned (an inner constructor's `new()` may leave fields `#undef`).\n\n```\njulia> step_size = 0.1;\n\njulia> isdefined(Main, :step_size), isdefined(Main, :sin), isdefined(Main, :never_defined)\n(true, true, false)\n\njulia> mutable struct Node; next::Node; Node() = new(); end\n\njulia> n = Node(); isdefined(n, :next)\nfalse\n```";
    "isassigned" => isassigned_, false, "    isassigned(v, i)\n\nWhether the entry `i` of the vector `v` exists and was assigned: `Vector{String}(undef, n)` starts with `n` `#undef` entries.\n\n```\njulia> v = Vector{String}(undef, 2); v[1] = \"a\";\n\njulia> isassigned(v, 1), isassigned(v, 2), isassigned(v, 3)\n(true, false, false)\n```";
}
