//! How values look as text: [`repr`] (Julia's `show`/`repr`), [`print_string`] (`print` and
//! `string`: strings without quotes) and [`plain`] (the multi-line `text/plain` display of the
//! REPL and notebooks). Arrays, numbers and sparse matrices are formatted by [`crate::show`].

use crate::show::{self, ElType};
use crate::value::Value;

/// Julia's `repr(v)`: one line, strings quoted.
pub fn repr(v: &Value) -> String {
    match v {
        Value::Nothing => "nothing".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(x) => show::float(*x),
        Value::Real(t) => crate::builtins::ad::tracers::show_tracer(t).unwrap_or_else(|| {
            let x = t.primal().first().copied().unwrap_or(f64::NAN);
            format!("Dual({})", show::float(x))
        }),
        Value::Str(s) => format!("{s:?}"),
        Value::Symbol(s) => format!(":{s}"),
        Value::Array(a) => {
            let a = a.borrow();
            show::dense_inline(a.eltype, a.data.primal().view())
        }
        Value::Range(r) => show::range_plain(r.start, r.step, r.last(), r.is_int),
        Value::Tuple(items) => {
            let inner: Vec<String> = items.iter().map(repr).collect();
            if items.len() == 1 {
                format!("({},)", inner[0])
            } else {
                format!("({})", inner.join(", "))
            }
        }
        Value::NamedTuple(items) => {
            let inner: Vec<String> = items
                .iter()
                .map(|(k, v)| format!("{k} = {}", repr(v)))
                .collect();
            if items.len() == 1 {
                format!("({},)", inner[0])
            } else {
                format!("({})", inner.join(", "))
            }
        }
        Value::List(items) => {
            let items = items.borrow();
            let inner: Vec<String> = items.iter().map(repr).collect();
            let prefix = if items.is_empty() { "Any" } else { "" };
            format!("{prefix}[{}]", inner.join(", "))
        }
        Value::Sparse(s) => {
            let s = s.borrow();
            show::sparse_inline(&s.matrix.view(), s.eltype)
        }
        Value::Function(f) => f
            .def
            .name
            .map_or("#anonymous".to_string(), |n| n.to_string()),
        Value::Builtin(b) => b.name.to_string(),
        Value::Exception(e) => format!("{}({:?})", e.kind.name(), e.message),
        Value::Object(o) => o.repr(),
        Value::Type(t) => t.to_string(),
        Value::Struct(s) => struct_repr(s),
    }
}

/// A user value: the text of its `show` method when it has one, else Julia's default
/// `Name(field1, field2)`.
fn struct_repr(s: &crate::types::StructValue) -> String {
    if let Some(text) = s.shown.borrow().as_ref() {
        return text.clone();
    }
    let fields: Vec<String> = s.fields.borrow().iter().map(repr).collect();
    format!("{}({})", s.type_of(), fields.join(", "))
}

/// `print(v)` / `string(v)`: like [`repr`] but strings and symbols without quotes or colons.
pub fn print_string(v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        Value::Symbol(s) => s.to_string(),
        Value::Exception(e) => e.headline(),
        other => repr(other),
    }
}

/// The `text/plain` display of the REPL and notebooks (`display(v)`).
pub fn plain(v: &Value) -> String {
    match v {
        Value::Array(a) => {
            let a = a.borrow();
            if let Some(text) = crate::builtins::ad::tracers::tracer_array_plain(&a.data) {
                return text;
            }
            let text = show::dense_plain(a.eltype, a.data.primal().view(), None);
            if !a.row_adjoint {
                return text;
            }
            // `x'` of a vector is shown as Julia shows an adjoint vector.
            let (_, body) = text.split_once('\n').unwrap_or((&text, ""));
            let n = a.data.len();
            format!(
                "1×{n} adjoint(::{}) with eltype {}:\n{body}",
                show::type_name(a.eltype, 1),
                a.eltype.name()
            )
        }
        Value::Sparse(s) => {
            let s = s.borrow();
            show::sparse_plain(&s.matrix.view(), s.eltype, None)
        }
        Value::List(items) => {
            let items = items.borrow();
            let eltype = common_type(&items);
            let mut out = format!("{}-element Vector{{{eltype}}}:", items.len());
            for item in items.iter() {
                out.push_str("\n ");
                out.push_str(&repr(item));
            }
            out
        }
        Value::Function(f) => {
            let n = 1 + f.methods.len();
            match f.def.name {
                Some(name) => format!(
                    "{name} (generic function with {n} method{})",
                    if n == 1 { "" } else { "s" }
                ),
                None => "#anonymous (generic function with 1 method)".into(),
            }
        }
        // Capitalized builtins are types and constructors (`Float64`, `AutoForwardDiff`).
        Value::Builtin(b) if b.name.starts_with(char::is_uppercase) => b.name.to_string(),
        Value::Builtin(b) => format!("{} (generic function)", b.name),
        Value::Exception(e) => format!("{}({:?})", e.kind.name(), e.message),
        Value::Object(o) => o.show(),
        other => repr(other),
    }
}

/// The element type Julia would give a vector of these values.
fn common_type(items: &[Value]) -> String {
    let mut names = items.iter().map(Value::type_name);
    match names.next() {
        Some(first) if names.all(|n| n == first) => first,
        _ => "Any".into(),
    }
}

/// The element type of an array value, for display.
pub fn eltype_of(v: &Value) -> Option<ElType> {
    match v {
        Value::Array(a) => Some(a.borrow().eltype),
        _ => None,
    }
}
