//! Reflection on user types and methods: `fieldnames`, `getfield`, `setfield!`,
//! `propertynames`, `hasproperty`, `getproperty`, `setproperty!`, `supertype`,
//! `isabstracttype`, `isstructtype`, `isconcretetype`, `sizeof`, and `methods` (a function's method table as Julia lists it).

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::dispatch::signature_text;
use crate::eval::Interp;
use crate::types::{Prim, Type};
use crate::value::Value;
use difflab_syntax::Name;
use std::rc::Rc;

/// Julia's `MethodError` for a call of `name` whose first argument is `v`.
fn no_method_for(name: &str, v: &Value) -> Flow {
    fail(
        ErrorKind::MethodError,
        format!("no method matching {name}(::{})", v.type_name()),
    )
}

/// The user type a type value stands for.
fn user_type(v: &Value, name: &str) -> Result<Rc<crate::types::TypeDef>, Flow> {
    match Type::from_value(v) {
        Some(Type::User(def) | Type::UserApplied(def, _)) => Ok(def),
        _ => Err(no_method_for(name, v)),
    }
}

/// `nameof(f)`: the name of a function or type as a symbol (`Symbol("#anonymous")` for a
/// function without one, as Julia's generated names are).
fn nameof_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("nameof", 1, 1)?;
    let name = match &args.pos[0] {
        Value::Builtin(b) => b.name.to_string(),
        Value::Function(f) => f
            .def
            .name
            .map_or_else(|| "#anonymous".to_string(), |n| n.as_str().to_string()),
        other => match Type::from_value(other) {
            Some(ty) => ty
                .to_string()
                .split('{')
                .next()
                .unwrap_or_default()
                .to_string(),
            None => {
                return Err(fail(
                    ErrorKind::MethodError,
                    format!("no method matching nameof(::{})", other.type_name()),
                ))
            }
        },
    };
    Ok(Value::Symbol(difflab_syntax::Name::new(&name)))
}

/// `fieldcount(T)`: the number of fields of a struct type.
fn fieldcount_(interp: &mut Interp, args: Args) -> EvalResult {
    match fieldnames_(interp, args)? {
        Value::Tuple(names) => Ok(Value::Int(names.len() as i64)),
        _ => Ok(Value::Int(0)),
    }
}

/// `ismutable(x)`: whether `x` can be changed in place (arrays, vectors, dictionaries, sets,
/// mutable structs), as opposed to numbers, strings, tuples and immutable structs.
fn ismutable_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("ismutable", 1, 1)?;
    let mutable = match &args.pos[0] {
        Value::Struct(s) => s.def.mutable,
        Value::Array(_) | Value::List(_) | Value::Sparse(_) => true,
        Value::Object(o) => o.copy().is_some(),
        _ => false,
    };
    Ok(Value::Bool(mutable))
}

fn fieldnames_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("fieldnames", 1, 1)?;
    if let Some(Type::Prim(_) | Type::Applied(..)) = Type::from_value(&args.pos[0]) {
        return Ok(Value::tuple(Vec::new()));
    }
    let def = user_type(&args.pos[0], "fieldnames")?;
    Ok(Value::tuple(
        def.fields.iter().map(|(f, _)| Value::Symbol(*f)).collect(),
    ))
}

/// The names `x.name` reads for the value `x`: a struct's fields, a named tuple's keys, a
/// library object's fields.
fn property_names(x: &Value) -> Vec<Name> {
    match x {
        Value::Struct(s) => s.def.fields.iter().map(|(f, _)| *f).collect(),
        Value::NamedTuple(items) => items.iter().map(|(k, _)| *k).collect(),
        Value::Object(o) => o.field_names().into_iter().map(Name::new).collect(),
        _ => Vec::new(),
    }
}

fn propertynames_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("propertynames", 1, 1)?;
    Ok(Value::tuple(
        property_names(&args.pos[0])
            .into_iter()
            .map(Value::Symbol)
            .collect(),
    ))
}

fn symbol_arg(args: &Args, name: &str) -> Result<Name, Flow> {
    match &args.pos[1] {
        Value::Symbol(s) => Ok(*s),
        other => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {name}(::{}, ::{})",
                args.pos[0].type_name(),
                other.type_name()
            ),
        )),
    }
}

fn hasproperty_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("hasproperty", 2, 2)?;
    let name = symbol_arg(&args, "hasproperty")?;
    Ok(Value::Bool(property_names(&args.pos[0]).contains(&name)))
}

fn getproperty_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("getproperty", 2, 2)?;
    let name = symbol_arg(&args, "getproperty")?;
    interp.field(&args.pos[0], name)
}

fn setproperty_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("setproperty!", 3, 3)?;
    let name = symbol_arg(&args, "setproperty!")?;
    match &args.pos[0] {
        Value::Struct(s) => {
            Interp::set_struct_field(s, name, args.pos[2].clone())?;
            Ok(args.pos[2].clone())
        }
        other => Err(no_method_for("setproperty!", other)),
    }
}

/// A field name given as a symbol or a 1-based position.
fn field_name(s: &crate::types::StructValue, v: &Value) -> Result<Name, Flow> {
    match v {
        Value::Symbol(name) => Ok(*name),
        Value::Int(i) => usize::try_from(*i - 1)
            .ok()
            .and_then(|k| s.def.fields.get(k))
            .map(|(f, _)| *f)
            .ok_or_else(|| {
                fail(
                    ErrorKind::BoundsError,
                    format!("attempt to access {} at index [{i}]", s.def.name),
                )
            }),
        other => Err(fail(
            ErrorKind::TypeError,
            format!(
                "getfield: expected a Symbol or an Int, got {}",
                other.type_name()
            ),
        )),
    }
}

fn getfield_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("getfield", 2, 2)?;
    match &args.pos[0] {
        Value::Struct(s) => Interp::struct_field(s, field_name(s, &args.pos[1])?),
        other => Err(no_method_for("getfield", other)),
    }
}

fn setfield_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("setfield!", 3, 3)?;
    match &args.pos[0] {
        Value::Struct(s) => {
            Interp::set_struct_field(s, field_name(s, &args.pos[1])?, args.pos[2].clone())?;
            Ok(args.pos[2].clone())
        }
        other => Err(no_method_for("setfield!", other)),
    }
}

fn supertype_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("supertype", 1, 1)?;
    let Some(ty) = Type::from_value(&args.pos[0]) else {
        return Err(no_method_for("supertype", &args.pos[0]));
    };
    let parent = match ty {
        Type::User(def) | Type::UserApplied(def, _) => def.supertype.clone(),
        Type::Prim(p) | Type::Applied(p, _) => Type::Prim(p.supertype()),
        _ => Type::Prim(Prim::Any),
    };
    Ok(Value::Type(Rc::new(parent)))
}

fn isabstracttype_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("isabstracttype", 1, 1)?;
    Ok(Value::Bool(match Type::from_value(&args.pos[0]) {
        Some(Type::User(def)) => def.is_abstract,
        Some(Type::Prim(p)) => p.is_abstract(),
        _ => false,
    }))
}

fn isstructtype_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("isstructtype", 1, 1)?;
    Ok(Value::Bool(matches!(
        Type::from_value(&args.pos[0]),
        Some(Type::User(def) | Type::UserApplied(def, _)) if !def.is_abstract
    )))
}

fn isconcretetype_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("isconcretetype", 1, 1)?;
    Ok(Value::Bool(
        Type::from_value(&args.pos[0]).is_some_and(|t| is_concrete(&t)),
    ))
}

/// Whether values can have exactly the type `t`: not abstract, and every parameter given (a
/// tuple's parameters concrete too, tuples being covariant).
fn is_concrete(t: &Type) -> bool {
    let needs_parameters = |p: &Prim| {
        matches!(
            p,
            Prim::Tuple
                | Prim::NamedTuple
                | Prim::Vararg
                | Prim::Array
                | Prim::Vector
                | Prim::Matrix
                | Prim::Range
                | Prim::SparseMatrixCSC
                | Prim::SparseVector
                | Prim::Set
                | Prim::Dict
        )
    };
    match t {
        Type::Prim(p) => !p.is_abstract() && !needs_parameters(p),
        Type::Applied(Prim::Tuple, parts) => parts.iter().all(is_concrete),
        Type::Applied(p, _) => !p.is_abstract(),
        Type::User(def) => !def.is_abstract && def.params.is_empty(),
        Type::UserApplied(def, params) => {
            !def.is_abstract
                && !params
                    .iter()
                    .any(|p| matches!(p, Type::Var(_) | Type::Within(_)))
        }
        Type::Named(_) => true,
        Type::Var(_) | Type::Within(_) | Type::Union(_) => false,
    }
}

fn sizeof_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("sizeof", 1, 1)?;
    let bytes_of_type = |t: Option<Type>| match t {
        Some(Type::Prim(Prim::Float64 | Prim::Int64)) => Some(8),
        Some(Type::Prim(Prim::Bool)) => Some(1),
        Some(Type::Prim(Prim::Char)) => Some(4),
        Some(Type::Prim(Prim::Nothing)) => Some(0),
        _ => None,
    };
    let bytes = match &args.pos[0] {
        Value::Str(s) => Some(s.len()),
        Value::Array(a) => {
            let a = a.borrow();
            let element = if a.eltype == crate::show::ElType::Bool {
                1
            } else {
                8
            };
            Some(a.data.len() * element)
        }
        // A vector of other values holds a pointer to each.
        Value::List(items) => Some(items.borrow().len() * 8),
        number @ (Value::Int(_)
        | Value::Float(_)
        | Value::Real(_)
        | Value::Bool(_)
        | Value::Char(_)
        | Value::Nothing) => bytes_of_type(Some(Type::of(number))),
        other => bytes_of_type(Type::from_value(other)),
    };
    bytes.map(|b| Value::Int(b as i64)).ok_or_else(|| {
        fail(
            ErrorKind::ArgumentError,
            format!(
                "sizeof: the size of a {} is not defined in difflab (numbers, strings, arrays and their types have one)",
                args.pos[0].type_name()
            ),
        )
    })
}

/// A function's methods, shown as Julia lists them.
struct MethodList {
    name: String,
    lines: Vec<String>,
}

impl crate::object::Object for MethodList {
    fn type_name(&self) -> String {
        "MethodList".into()
    }
    fn show(&self) -> String {
        let n = self.lines.len();
        let mut out = format!(
            "# {n} method{} for generic function \"{}\"",
            if n == 1 { "" } else { "s" },
            self.name
        );
        if n > 0 {
            out.push(':');
        }
        for (i, line) in self.lines.iter().enumerate() {
            out.push_str(&format!("\n [{}] {line}", i + 1));
        }
        out
    }
    fn elements(&self) -> Option<Vec<Value>> {
        Some(self.lines.iter().map(|l| Value::str(l.clone())).collect())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn methods_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("methods", 1, 1)?;
    let Some((name, methods)) = interp.method_list(&args.pos[0]) else {
        return Err(no_method_for("methods", &args.pos[0]));
    };
    let mut lines: Vec<String> = methods.iter().map(|m| signature_text(&name, m)).collect();
    if let Value::Builtin(b) = &args.pos[0] {
        lines.push(format!("{}(…) (builtin; see ?{})", b.name, b.name));
    }
    Ok(Value::object(MethodList { name, lines }))
}

crate::builtins! {
    "fieldcount" => fieldcount_, false, "    fieldcount(T)\n\nThe number of fields of the struct type `T`.\n\n```\njulia> struct Pair2; a::Int; b::Int; end\n\njulia> fieldcount(Pair2)\n2\n```";
    "ismutable" => ismutable_, false, "    ismutable(x)\n\nWhether `x` can be changed in place: arrays, dictionaries, sets and instances of mutable structs are; numbers, strings, tuples and immutable structs are not.\n\n```\njulia> ismutable([1, 2]), ismutable(1.0), ismutable((1, 2))\n(true, false, false)\n```";
    "nameof" => nameof_, false, "    nameof(f)\n\nThe name of a function or type, as a symbol.\n\n```\njulia> nameof(sin), nameof(Float64)\n(:sin, :Float64)\n```";
    "fieldnames" => fieldnames_, false, "    fieldnames(T)\n\nThe names of the fields of struct type `T`, as a tuple of symbols.\n\n```\njulia> struct Point; x::Float64; y::Float64; end\n\njulia> fieldnames(Point)\n(:x, :y)\n```";
    "getfield" => getfield_, false, "    getfield(x, name)\n\nThe field `name` (a symbol, or a 1-based position) of the user value `x`; `x.name` is the same.\n\n```\njulia> struct Point; x::Float64; y::Float64; end\n\njulia> getfield(Point(1, 2), :y)\n2.0\n```";
    "setfield!" => setfield_, false, "    setfield!(x, name, v)\n\nAssigns field `name` of a mutable struct value (`x.name = v`); immutable structs cannot be changed.\n\n```\njulia> mutable struct Counter; n::Int; end\n\njulia> c = Counter(0); setfield!(c, :n, 5); c.n\n5\n```";
    "propertynames" => propertynames_, false, "    propertynames(x)\n\nThe names `x.name` reads: the fields of a struct, the keys of a named tuple, the fields of a library object (a coloring result, a preparation).\n\n```\njulia> struct Point; x::Float64; y::Float64; end\n\njulia> propertynames(Point(1, 2)), propertynames((a = 1, b = 2))\n((:x, :y), (:a, :b))\n```";
    "hasproperty" => hasproperty_, false, "    hasproperty(x, name)\n\nWhether `x.name` exists: `name` is one of `propertynames(x)`.\n\n```\njulia> hasproperty((a = 1,), :a), hasproperty((a = 1,), :b)\n(true, false)\n```";
    "getproperty" => getproperty_, false, "    getproperty(x, name)\n\n`x.name`, with the name as a symbol.\n\n```\njulia> getproperty((a = 1, b = 2), :b)\n2\n```";
    "setproperty!" => setproperty_, false, "    setproperty!(x, name, v)\n\n`x.name = v` for a mutable struct, with the name as a symbol.\n\n```\njulia> mutable struct Counter; n::Int; end\n\njulia> c = Counter(0); setproperty!(c, :n, 3); c.n\n3\n```";
    "supertype" => supertype_, false, "    supertype(T)\n\nThe declared supertype of `T`.\n\n```\njulia> supertype(Float64)\nAbstractFloat\n```";
    "isabstracttype" => isabstracttype_, false, "    isabstracttype(T)\n\nWhether `T` is an abstract type (it has subtypes but no instances).\n\n```\njulia> isabstracttype(Real)\ntrue\n```";
    "isstructtype" => isstructtype_, false, "    isstructtype(T)\n\nWhether `T` is a user struct type.\n\n```\njulia> struct P; x; end\n\njulia> isstructtype(P)\ntrue\n```";
    "isconcretetype" => isconcretetype_, false, "    isconcretetype(T)\n\nWhether values can have exactly the type `T`: `Float64` and `Vector{Real}` are concrete, `Real`, `Vector` (no element type) and `Tuple{Real}` are not.\n\n```\njulia> isconcretetype(Float64), isconcretetype(Real), isconcretetype(Vector{Real})\n(true, false, true)\n```";
    "sizeof" => sizeof_, false, "    sizeof(x)\n\nThe size in bytes of a number, a string (its UTF-8 code units), an array's elements, or of a number type.\n\n```\njulia> sizeof(1.0), sizeof(\"αβ\"), sizeof(zeros(3)), sizeof(Bool)\n(8, 4, 24, 1)\n```";
    "methods" => methods_, false, "    methods(f)\n\nThe methods of `f`, with their signatures; for a builtin, the methods users added (`import Base: +`) and the builtin itself.\n\n```\njulia> f(x::Int) = 1; f(x::Float64) = 2;\n\njulia> methods(f)\n# 2 methods for generic function \"f\":\n [1] f(x::Int64)\n [2] f(x::Float64)\n```";
}
