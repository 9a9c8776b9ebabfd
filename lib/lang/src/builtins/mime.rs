//! MIME types, as Julia's `MIME{Symbol("text/plain")}`: `MIME("text/plain")` and the literal
//! `MIME"text/plain"` (the type; calling it makes an instance). They select a form in
//! `show(io, MIME"text/plain"(), x)` and `repr`, and user types extend the REPL display with
//! `Base.show(io::IO, ::MIME"text/plain", x::T)` (see `Interp::prepare_display`).

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::Interp;
use crate::object::Object;
use crate::types::Type;
use crate::value::Value;

/// An instance of `MIME{Symbol(name)}`.
pub struct Mime(String);

/// The type `MIME{Symbol(name)}`, which `MIME"name"` stands for.
pub struct MimeType(String);

/// Julia's name of the type of MIME `name`.
fn type_name(name: &str) -> String {
    format!("MIME{{Symbol(\"{name}\")}}")
}

impl Object for Mime {
    fn type_name(&self) -> String {
        type_name(&self.0)
    }

    fn type_of(&self) -> Option<Type> {
        Some(Type::named(&type_name(&self.0)))
    }

    fn show(&self) -> String {
        format!("MIME type {}", self.0)
    }

    fn repr(&self) -> String {
        format!("{}()", type_name(&self.0))
    }

    fn print(&self) -> String {
        self.0.clone()
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl Object for MimeType {
    /// A type, as the language's type values are (`Type::from_value` reads its name).
    fn type_name(&self) -> String {
        "DataType".into()
    }

    fn show(&self) -> String {
        type_name(&self.0)
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    /// `MIME"text/plain"()`: the instance.
    fn call(
        &self,
        _interp: &mut Interp,
        args: Vec<Value>,
        _kwargs: Vec<(difflab_syntax::Name, Value)>,
    ) -> Option<EvalResult> {
        Some(match args.as_slice() {
            [] => Ok(mime(&self.0)),
            _ => Err(fail(
                ErrorKind::MethodError,
                format!(
                    "no method matching {}(…): it takes no arguments",
                    self.show()
                ),
            )),
        })
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// An instance of MIME `name`.
pub fn mime(name: &str) -> Value {
    Value::object(Mime(name.into()))
}

/// The type `MIME"name"` stands for.
pub fn mime_type(name: &str) -> Value {
    Value::object(MimeType(name.into()))
}

/// The name of a MIME instance (`"text/plain"`), or `None` for other values.
pub fn name_of(v: &Value) -> Option<&str> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<Mime>().map(|m| m.0.as_str()),
        _ => None,
    }
}

fn mime_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("MIME", 1, 1)?;
    match &args.pos[0] {
        Value::Str(name) => Ok(mime(name)),
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching MIME(::{})", other.type_name()),
        )),
    }
}

crate::builtins! {
    "MIME" => mime_, false, "    MIME(name)\n    MIME\"name\"\n\nA MIME type, as Julia's `MIME{Symbol(name)}`: `MIME(\"text/plain\")` is an instance, and the literal `MIME\"text/plain\"` is the type (call it for an instance, or use it as an annotation). `show(io, MIME\"text/plain\"(), x)` and `repr(MIME(\"text/plain\"), x)` give the form the REPL displays; a user type changes that display with a method `Base.show(io::IO, ::MIME\"text/plain\", x::T)` and keeps its two-argument `show` for `print` and `repr`.\n\n```\njulia> struct Money; cents::Int; end\n\njulia> Base.show(io::IO, ::MIME\"text/plain\", m::Money) = print(io, \"Money: \", m.cents / 100, \" EUR\")\n\njulia> Money(250)\nMoney: 2.5 EUR\n\njulia> repr(Money(250))\n\"Money(250)\"\n\njulia> repr(MIME(\"text/plain\"), [1, 2])\n\"2-element Vector{Int64}:\\n 1\\n 2\"\n```";
}
