//! Types as the language sees them: the builtin lattice ([`Prim`]), user-defined types
//! ([`TypeDef`]), instances of user structs ([`StructValue`]), and the subtype relation that
//! `isa`, `<:` and method dispatch share.

use crate::show::ElType;
use crate::value::Value;
use difflab_syntax::Name;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

/// A type of the builtin lattice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prim {
    /// The top type.
    Any,
    /// `Number`
    Number,
    /// `Real`
    Real,
    /// `AbstractFloat`
    AbstractFloat,
    /// `Float64`
    Float64,
    /// `Integer`
    Integer,
    /// `Signed`
    Signed,
    /// `Int64` (`Int`)
    Int64,
    /// `Bool`
    Bool,
    /// A number carrying derivatives (a dual, a tracked value, a tracer or a symbolic node).
    Dual,
    /// `AbstractChar`
    AbstractChar,
    /// `Char`
    Char,
    /// `AbstractString`
    AbstractString,
    /// `String`
    String,
    /// `Symbol`
    Symbol,
    /// `Nothing`
    Nothing,
    /// `Function`
    Function,
    /// `Tuple`
    Tuple,
    /// `NamedTuple`
    NamedTuple,
    /// `Vararg{T}`: any number of trailing `T`s, as the last parameter of a `Tuple` type.
    Vararg,
    /// `AbstractArray`
    AbstractArray,
    /// `AbstractVector`
    AbstractVector,
    /// `AbstractMatrix`
    AbstractMatrix,
    /// `Array`
    Array,
    /// `Vector`
    Vector,
    /// `Matrix`
    Matrix,
    /// `AbstractRange`
    AbstractRange,
    /// `UnitRange`, `StepRange`, `StepRangeLen`
    Range,
    /// `SparseMatrixCSC`
    SparseMatrixCSC,
    /// `SparseVector`
    SparseVector,
    /// LinearAlgebra's `Diagonal`
    Diagonal,
    /// `AbstractSet`
    AbstractSet,
    /// `Set{T}`
    Set,
    /// `AbstractDict`
    AbstractDict,
    /// `Dict{K, V}`
    Dict,
    /// `IO`
    IO,
    /// `Exception`
    Exception,
    /// `DataType` (the type of types)
    DataType,
}

impl Prim {
    /// The builtin type called `name` (with Julia's aliases: `Int` is `Int64`).
    pub fn from_name(name: &str) -> Option<Prim> {
        Some(match name {
            "Any" => Prim::Any,
            "Number" => Prim::Number,
            "Real" => Prim::Real,
            "AbstractFloat" => Prim::AbstractFloat,
            "Float64" => Prim::Float64,
            "Integer" => Prim::Integer,
            "Signed" => Prim::Signed,
            "Int" | "Int64" | "UInt" | "UInt64" => Prim::Int64,
            "Bool" => Prim::Bool,
            "AbstractChar" => Prim::AbstractChar,
            "Char" => Prim::Char,
            "AbstractString" => Prim::AbstractString,
            "String" => Prim::String,
            "Symbol" => Prim::Symbol,
            "Nothing" => Prim::Nothing,
            "Function" => Prim::Function,
            "Tuple" => Prim::Tuple,
            "NamedTuple" => Prim::NamedTuple,
            "Vararg" => Prim::Vararg,
            "AbstractArray" => Prim::AbstractArray,
            "AbstractVector" => Prim::AbstractVector,
            "AbstractMatrix" => Prim::AbstractMatrix,
            "Array" => Prim::Array,
            "Vector" => Prim::Vector,
            "Matrix" => Prim::Matrix,
            "AbstractRange" => Prim::AbstractRange,
            "UnitRange" | "StepRange" | "StepRangeLen" => Prim::Range,
            "SparseMatrixCSC" | "AbstractSparseMatrix" => Prim::SparseMatrixCSC,
            "SparseVector" | "AbstractSparseVector" => Prim::SparseVector,
            "Diagonal" => Prim::Diagonal,
            "AbstractSet" => Prim::AbstractSet,
            "Set" => Prim::Set,
            "AbstractDict" => Prim::AbstractDict,
            "Dict" => Prim::Dict,
            "IO" | "IOBuffer" | "IOStream" => Prim::IO,
            "Exception" => Prim::Exception,
            "DataType" | "Type" => Prim::DataType,
            _ => return None,
        })
    }

    /// The name Julia prints.
    pub fn name(self) -> &'static str {
        match self {
            Prim::Any => "Any",
            Prim::Number => "Number",
            Prim::Real => "Real",
            Prim::AbstractFloat => "AbstractFloat",
            Prim::Float64 => "Float64",
            Prim::Integer => "Integer",
            Prim::Signed => "Signed",
            Prim::Int64 => "Int64",
            Prim::Bool => "Bool",
            Prim::Dual => "Dual",
            Prim::AbstractChar => "AbstractChar",
            Prim::Char => "Char",
            Prim::AbstractString => "AbstractString",
            Prim::String => "String",
            Prim::Symbol => "Symbol",
            Prim::Nothing => "Nothing",
            Prim::Function => "Function",
            Prim::Tuple => "Tuple",
            Prim::NamedTuple => "NamedTuple",
            Prim::Vararg => "Vararg",
            Prim::AbstractArray => "AbstractArray",
            Prim::AbstractVector => "AbstractVector",
            Prim::AbstractMatrix => "AbstractMatrix",
            Prim::Array => "Array",
            Prim::Vector => "Vector",
            Prim::Matrix => "Matrix",
            Prim::AbstractRange => "AbstractRange",
            Prim::Range => "UnitRange",
            Prim::SparseMatrixCSC => "SparseMatrixCSC",
            Prim::SparseVector => "SparseVector",
            Prim::Diagonal => "Diagonal",
            Prim::AbstractSet => "AbstractSet",
            Prim::Set => "Set",
            Prim::AbstractDict => "AbstractDict",
            Prim::Dict => "Dict",
            Prim::IO => "IO",
            Prim::Exception => "Exception",
            Prim::DataType => "DataType",
        }
    }

    /// The direct supertypes (`Vector` is both an `AbstractVector` and an `Array`).
    fn parents(self) -> &'static [Prim] {
        match self {
            Prim::Any => &[],
            Prim::Real => &[Prim::Number],
            Prim::AbstractFloat | Prim::Integer | Prim::Dual => &[Prim::Real],
            Prim::Float64 => &[Prim::AbstractFloat],
            Prim::Signed | Prim::Bool => &[Prim::Integer],
            Prim::Int64 => &[Prim::Signed],
            Prim::String => &[Prim::AbstractString],
            Prim::Char => &[Prim::AbstractChar],
            Prim::AbstractVector | Prim::AbstractMatrix | Prim::Array => &[Prim::AbstractArray],
            Prim::Vector => &[Prim::AbstractVector, Prim::Array],
            Prim::Matrix => &[Prim::AbstractMatrix, Prim::Array],
            Prim::AbstractRange => &[Prim::AbstractVector],
            Prim::Range => &[Prim::AbstractRange],
            Prim::SparseMatrixCSC | Prim::Diagonal => &[Prim::AbstractMatrix],
            Prim::SparseVector => &[Prim::AbstractVector],
            Prim::Set => &[Prim::AbstractSet],
            Prim::Dict => &[Prim::AbstractDict],
            _ => &[Prim::Any],
        }
    }

    /// The first declared supertype (`Any` for `Any`).
    pub fn supertype(self) -> Prim {
        self.parents().first().copied().unwrap_or(Prim::Any)
    }

    /// Whether the type is abstract (has no instances of its own).
    pub fn is_abstract(self) -> bool {
        matches!(
            self,
            Prim::Any
                | Prim::Number
                | Prim::Real
                | Prim::AbstractFloat
                | Prim::Integer
                | Prim::Signed
                | Prim::AbstractString
                | Prim::AbstractChar
                | Prim::Function
                | Prim::AbstractArray
                | Prim::AbstractVector
                | Prim::AbstractMatrix
                | Prim::AbstractRange
                | Prim::AbstractSet
                | Prim::AbstractDict
                | Prim::IO
                | Prim::Exception
        )
    }

    /// Whether `self <: other` in the lattice.
    pub fn is_subtype(self, other: Prim) -> bool {
        self == other || other == Prim::Any || self.parents().iter().any(|p| p.is_subtype(other))
    }
}

/// How deep `typeof` looks into tuples nested in vectors and tuples: naming every type of a
/// deeply nested value would cost more than it tells.
const DEEPEST: usize = 8;

/// The element type Julia infers for a vector of these values: their one concrete type when
/// they share it, else `Any`. Tuples are typed item by item (down to [`DEEPEST`] levels);
/// vectors of vectors built from their items are `Any` here unless declared, as `Any[…]` is.
fn common_element_type(items: &[Value], depth: usize) -> Type {
    let leaf = |v: &Value| match v {
        Value::List(list) if list.declared.is_some() => Some(Type::of(v)),
        Value::Tuple(inner) if depth < DEEPEST => Some(tuple_type(inner, depth + 1)),
        Value::NamedTuple(inner) if depth < DEEPEST => Some(named_tuple_type(inner, depth + 1)),
        Value::List(_) | Value::Tuple(_) | Value::NamedTuple(_) => None,
        _ => Some(Type::of(v)),
    };
    let mut types = items.iter().map(leaf);
    match types.next() {
        Some(Some(first)) if types.all(|t| t.as_ref() == Some(&first)) => first,
        _ => Type::Prim(Prim::Any),
    }
}

/// `Tuple{T1, T2, …}` of these elements; beyond [`DEEPEST`] levels of nesting or many
/// elements, the bare `Tuple`.
fn tuple_type(items: &[Value], depth: usize) -> Type {
    const WIDEST: usize = 64;
    if depth >= DEEPEST || items.len() > WIDEST {
        return Type::Prim(Prim::Tuple);
    }
    let types = items.iter().map(|v| match v {
        Value::Tuple(inner) => tuple_type(inner, depth + 1),
        Value::List(list) if list.declared.is_none() => Type::Applied(
            Prim::Vector,
            Rc::from(vec![common_element_type(&list.borrow(), depth + 1)]),
        ),
        other => Type::of(other),
    });
    Type::Applied(Prim::Tuple, types.collect())
}

/// `@NamedTuple{a::T1, b::T2}` of these fields: its parameters are each field's name (as a
/// `Type::Named`) followed by its type; beyond [`DEEPEST`] levels of nesting, the bare
/// `NamedTuple`.
fn named_tuple_type(items: &[(Name, Value)], depth: usize) -> Type {
    if depth >= DEEPEST || items.len() > 64 {
        return Type::Prim(Prim::NamedTuple);
    }
    let mut params = Vec::with_capacity(2 * items.len());
    for (name, v) in items {
        params.push(Type::Named(Rc::from(name.as_str())));
        params.push(match v {
            Value::Tuple(inner) => tuple_type(inner, depth + 1),
            Value::NamedTuple(inner) => named_tuple_type(inner, depth + 1),
            other => Type::of(other),
        });
    }
    Type::Applied(Prim::NamedTuple, params.into())
}

/// A type: builtin, builtin with parameters (`Vector{Float64}`), user-defined (with or without
/// parameters), a library object's type known by name (`AutoForwardDiff`), or a type parameter
/// inside a struct definition.
#[derive(Clone)]
pub enum Type {
    /// A builtin type.
    Prim(Prim),
    /// A builtin type with parameters: `Vector{Float64}` (the element type).
    Applied(Prim, Rc<[Type]>),
    /// A user type (abstract, or a struct matching any parameters).
    User(Rc<TypeDef>),
    /// A parametric user struct with its parameters: `Dual{Float64}`.
    UserApplied(Rc<TypeDef>, Rc<[Type]>),
    /// A library object's type, by name.
    Named(Rc<str>),
    /// A type parameter (`T` in `struct Dual{T}; v::T; end`).
    Var(Name),
    /// Any subtype of a bound: a method's type variable (`x::T` with `where {T <: Real}`), or
    /// `<:Real` in `Vector{<:Real}`.
    Within(Rc<Type>),
    /// `Union{Nothing, Int}`: an instance of any member. Built by [`Type::union`], so it has
    /// at least two members, none a subtype of another; `Union{}` (no members) has no
    /// instances.
    Union(Rc<[Type]>),
}

impl PartialEq for Type {
    fn eq(&self, other: &Type) -> bool {
        match (self, other) {
            (Type::Prim(a), Type::Prim(b)) => a == b,
            (Type::Applied(a, p), Type::Applied(b, q)) => a == b && p == q,
            (Type::User(a), Type::User(b)) => Rc::ptr_eq(a, b),
            (Type::UserApplied(a, p), Type::UserApplied(b, q)) => Rc::ptr_eq(a, b) && p == q,
            (Type::Named(a), Type::Named(b)) => a == b,
            // A struct's own type named in its fields (`Vector{Tree}` inside `Tree`).
            (Type::User(d), Type::Named(n)) | (Type::Named(n), Type::User(d))
                if d.name.as_str() == &**n =>
            {
                true
            }
            (Type::Named(a), Type::User(_)) => {
                library_supertype(a).is_some_and(|s| s.is_subtype(other))
            }
            (Type::Named(a), Type::Prim(Prim::Exception)) => {
                a.ends_with("Error") || a.ends_with("Exception")
            }
            (Type::Var(a), Type::Var(b)) => a == b,
            (Type::Within(a), Type::Within(b)) => a == b,
            (Type::Union(a), Type::Union(b)) => {
                a.len() == b.len() && a.iter().all(|t| b.contains(t))
            }
            _ => false,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let params = |f: &mut fmt::Formatter<'_>, ps: &[Type]| {
            let shown: Vec<String> = ps.iter().map(Type::to_string).collect();
            write!(f, "{{{}}}", shown.join(", "))
        };
        match self {
            Type::Prim(p) => f.write_str(p.name()),
            // Julia 1.10's form: `@NamedTuple{a::Int64, b::Float64}`.
            Type::Applied(Prim::NamedTuple, ps) => {
                f.write_str("@NamedTuple{")?;
                for (k, field) in ps.chunks(2).enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    match field {
                        [name, ty] => write!(f, "{name}::{ty}")?,
                        other => write!(f, "{}", other[0])?,
                    }
                }
                f.write_str("}")
            }
            Type::Applied(p, ps) => {
                f.write_str(p.name())?;
                params(f, ps)
            }
            Type::User(def) => write!(f, "{}", def.name),
            Type::UserApplied(def, ps) => {
                write!(f, "{}", def.name)?;
                params(f, ps)
            }
            Type::Named(name) => f.write_str(name),
            Type::Var(name) => write!(f, "{name}"),
            Type::Within(bound) => write!(f, "<:{bound}"),
            Type::Union(members) => {
                f.write_str("Union")?;
                params(f, members)
            }
        }
    }
}

/// A user-defined type: `struct`, `mutable struct` or `abstract type`.
pub struct TypeDef {
    /// The type name.
    pub name: Name,
    /// The type parameter names.
    pub params: Vec<Name>,
    /// The declared supertype (`Any` when none).
    pub supertype: Type,
    /// The fields and their declared types (`None`: `Any`).
    pub fields: Vec<(Name, Option<Type>)>,
    /// True for `mutable struct`.
    pub mutable: bool,
    /// The fields declared `const`, which assignment cannot change.
    pub const_fields: Vec<Name>,
    /// True for `abstract type`.
    pub is_abstract: bool,
    /// True when the definition has inner constructors (then there is no default one).
    pub has_inner_constructor: bool,
}

impl TypeDef {
    /// Whether another definition declares the same type (same kind, parameters, supertype
    /// and fields), so redefining it is allowed.
    pub fn same_as(&self, other: &TypeDef) -> bool {
        self.params == other.params
            && self.mutable == other.mutable
            && self.const_fields == other.const_fields
            && self.is_abstract == other.is_abstract
            && self.supertype == other.supertype
            && self.fields.len() == other.fields.len()
            && self
                .fields
                .iter()
                .zip(&other.fields)
                .all(|((a, s), (b, t))| a == b && s == t)
    }

    /// The position of the field called `name`.
    pub fn field_index(&self, name: Name) -> Option<usize> {
        self.fields.iter().position(|(f, _)| *f == name)
    }
}

/// An instance of a user struct.
pub struct StructValue {
    /// Its type.
    pub def: Rc<TypeDef>,
    /// The values of the type parameters, inferred or given at construction.
    pub params: Rc<[Type]>,
    /// The field values (assignable only for mutable structs).
    pub fields: RefCell<Vec<Value>>,
    /// The text of the user's `show` method, filled in before the value is displayed.
    pub shown: RefCell<Option<String>>,
    /// The text of the user's `show(io, ::MIME"text/plain", x)` method, filled in before the
    /// value is displayed by the REPL or a notebook.
    pub displayed: RefCell<Option<String>>,
}

impl Drop for StructValue {
    fn drop(&mut self) {
        crate::value::release(self.fields.get_mut().drain(..));
    }
}

thread_local! {
    static PAIR: Rc<TypeDef> = Rc::new(TypeDef {
        name: difflab_syntax::name!("Pair"),
        params: vec![difflab_syntax::name!("A"), difflab_syntax::name!("B")],
        supertype: Type::Prim(Prim::Any),
        fields: vec![
            (difflab_syntax::name!("first"), Some(Type::Var(difflab_syntax::name!("A")))),
            (difflab_syntax::name!("second"), Some(Type::Var(difflab_syntax::name!("B")))),
        ],
        mutable: false,
        const_fields: Vec::new(),
        is_abstract: false,
        has_inner_constructor: false,
    });
}

/// Julia's `Pair{A, B}`, what `a => b` builds: an immutable struct with fields `first` and
/// `second`, defined once per thread like a user's struct, so fields, `typeof`, `isa` and
/// dispatch on `::Pair` come from the struct machinery.
pub fn pair_def() -> Rc<TypeDef> {
    PAIR.with(Rc::clone)
}

impl StructValue {
    /// Whether the value is a `Pair`.
    pub fn is_pair(&self) -> bool {
        PAIR.with(|pair| Rc::ptr_eq(pair, &self.def))
    }

    /// The concrete type of the instance.
    pub fn type_of(&self) -> Type {
        if self.params.is_empty() {
            Type::User(self.def.clone())
        } else {
            Type::UserApplied(self.def.clone(), self.params.clone())
        }
    }
}

/// The element type of an array as the language shows it: arrays carrying derivatives keep
/// their `Float64` element type (as `typeof` prints them), so methods and fields declared
/// for `Vector{Float64}` take them while a backend differentiates through them.
fn element_type(eltype: ElType) -> Type {
    Type::Prim(match eltype {
        ElType::Int64 => Prim::Int64,
        ElType::Bool => Prim::Bool,
        _ => Prim::Float64,
    })
}

impl Type {
    /// The concrete type of a value.
    pub fn of(v: &Value) -> Type {
        let applied = |p, t| Type::Applied(p, Rc::from(vec![t]));
        match v {
            Value::Nothing => Type::Prim(Prim::Nothing),
            Value::Bool(_) => Type::Prim(Prim::Bool),
            Value::Int(_) => Type::Prim(Prim::Int64),
            Value::Float(_) => Type::Prim(Prim::Float64),
            Value::Real(_) => Type::Prim(Prim::Dual),
            Value::Str(_) => Type::Prim(Prim::String),
            Value::Char(_) => Type::Prim(Prim::Char),
            Value::Symbol(_) => Type::Prim(Prim::Symbol),
            Value::Array(a) => {
                let a = a.borrow();
                let sparse = matches!(a.structure, crate::value::Structure::Sparse(_));
                if a.is_diagonal() {
                    let element = element_type(a.eltype);
                    let storage = applied(Prim::Vector, element.clone());
                    return Type::Applied(Prim::Diagonal, Rc::from(vec![element, storage]));
                }
                let rank = match a.data.shape().len() {
                    1 if sparse => Prim::SparseVector,
                    2 if sparse => Prim::SparseMatrixCSC,
                    1 if !a.row_adjoint => Prim::Vector,
                    2 => Prim::Matrix,
                    _ => Prim::Array,
                };
                if sparse {
                    let params = vec![element_type(a.eltype), Type::Prim(Prim::Int64)];
                    return Type::Applied(rank, Rc::from(params));
                }
                applied(rank, element_type(a.eltype))
            }
            Value::Range(r) => applied(
                Prim::Range,
                Type::Prim(if r.is_int { Prim::Int64 } else { Prim::Float64 }),
            ),
            Value::Tuple(items) => tuple_type(items, 0),
            Value::NamedTuple(items) => named_tuple_type(items, 0),
            Value::List(list) => applied(
                Prim::Vector,
                list.declared
                    .clone()
                    .unwrap_or_else(|| common_element_type(&list.borrow(), 0)),
            ),
            Value::Sparse(s) => {
                let s = s.borrow();
                let eltype = match s.eltype {
                    ElType::Bool => Prim::Bool,
                    _ => Prim::Float64,
                };
                let params = vec![Type::Prim(eltype), Type::Prim(Prim::Int64)];
                let kind = if s.vector {
                    Prim::SparseVector
                } else {
                    Prim::SparseMatrixCSC
                };
                Type::Applied(kind, Rc::from(params))
            }
            // Types that are also constructors (`Float64`, `Char`) are types, not functions.
            Value::Builtin(b) if Prim::from_name(b.name).is_some() => Type::Prim(Prim::DataType),
            v if crate::builtins::linalg::uniform::is_bare_identity(v) => {
                Type::Named(Rc::from("UniformScaling"))
            }
            Value::Function(_) | Value::Builtin(_) => Type::Prim(Prim::Function),
            Value::Exception(e) => Type::Named(Rc::from(e.kind.name())),
            Value::Type(_) => Type::Prim(Prim::DataType),
            Value::Struct(s) => s.type_of(),
            Value::Object(o) if o.type_of().is_some() => {
                o.type_of().unwrap_or(Type::Prim(Prim::Any))
            }
            Value::Object(o) => {
                let name = o.type_name();
                let base = name.split('{').next().unwrap_or(&name);
                match Prim::from_name(base) {
                    Some(p) => Type::Prim(p),
                    None => Type::Named(Rc::from(base)),
                }
            }
        }
    }

    /// The type a value stands for, when it is one: a type value, a builtin named like a
    /// builtin type (`Float64` is also a conversion function), or a library type name.
    pub fn from_value(v: &Value) -> Option<Type> {
        match v {
            Value::Type(t) => Some((**t).clone()),
            Value::Builtin(b) => Some(Type::named(b.name)),
            Value::Object(o) if o.type_name() == "DataType" => {
                let name = o.show();
                Some(if names_derivative_number(&name) {
                    Type::Prim(Prim::Dual)
                } else {
                    Type::named(&name)
                })
            }
            _ => None,
        }
    }

    /// The builtin type called `name`, else a library type known by that name.
    pub fn named(name: &str) -> Type {
        match Prim::from_name(name) {
            Some(p) => Type::Prim(p),
            None if name == "Pair" => Type::User(pair_def()),
            None => Type::Named(Rc::from(name)),
        }
    }

    /// `Union{members...}` as Julia simplifies it: nested unions flattened, a member that is
    /// a subtype of another dropped, and a single member standing for itself.
    pub fn union(members: Vec<Type>) -> Type {
        let mut flat: Vec<Type> = Vec::new();
        for t in members {
            match t {
                Type::Union(inner) => flat.extend(inner.iter().cloned()),
                other => flat.push(other),
            }
        }
        let mut kept: Vec<Type> = Vec::new();
        for (i, t) in flat.iter().enumerate() {
            let covered = flat
                .iter()
                .enumerate()
                .any(|(j, u)| j != i && t.is_subtype(u) && (!u.is_subtype(t) || j < i));
            if !covered {
                kept.push(t.clone());
            }
        }
        // Julia shows singleton types (`Nothing`) first, then the others by name.
        kept.sort_by_key(|t| (*t != Type::Prim(Prim::Nothing), t.to_string()));
        match kept.len() {
            1 => kept.pop().expect("one member"),
            _ => Type::Union(Rc::from(kept)),
        }
    }

    /// Whether `v` is an instance of this type.
    pub fn contains(&self, v: &Value) -> bool {
        if let Type::Union(members) = self {
            return members.iter().any(|m| m.contains(v));
        }
        // A number carrying derivatives is a `Real` but not a `Float64`, as in ForwardDiff.
        if let Type::Prim(Prim::Any) = self {
            return true;
        }
        // `Type{T}` holds the type `T` itself (invariant: `Float64` is not a `Type{Real}`), any
        // subtype of a bound for `Type{<:Real}`, and any type for a type variable.
        if let Type::Applied(Prim::DataType, params) = self {
            let (Some(wanted), Some(given)) = (params.first(), Type::from_value(v)) else {
                return false;
            };
            return match wanted {
                Type::Var(_) => true,
                Type::Within(bound) => given.is_subtype(bound),
                Type::UserApplied(_, ps) | Type::Applied(_, ps)
                    if ps
                        .iter()
                        .any(|p| matches!(p, Type::Var(_) | Type::Within(_))) =>
                {
                    given.is_subtype(wanted)
                }
                _ => given == *wanted,
            };
        }
        // A library type known by name (`typeof` of a sparse matrix) holds what prints as it.
        if let Type::Named(name) = self {
            if **name == v.type_name() {
                return true;
            }
        }
        // A vector of values without a declared element type is Julia's `Vector{Any}` (what
        // `[]` and `push!` build) and, by its elements, `Vector{String}` &c.
        if let (Value::List(list), Type::Applied(rank, params)) = (v, self) {
            if list.declared.is_some() {
                return Type::of(v).is_subtype(self);
            }
            let any = Type::Prim(Prim::Any);
            if Prim::Vector.is_subtype(*rank) && params.first() == Some(&any) {
                return true;
            }
        }
        Type::of(v).is_subtype(self)
    }

    /// Whether `self <: other`.
    pub fn is_subtype(&self, other: &Type) -> bool {
        match (self, other) {
            (_, Type::Prim(Prim::Any)) | (_, Type::Var(_)) => true,
            (Type::Union(members), _) => members.iter().all(|m| m.is_subtype(other)),
            (_, Type::Union(members)) => members.iter().any(|m| self.is_subtype(m)),
            (Type::Var(_), _) => false,
            (_, Type::Within(bound)) => self.is_subtype(bound),
            (Type::Within(bound), _) => bound.is_subtype(other),
            (Type::Prim(a), Type::Prim(b)) => a.is_subtype(*b),
            (Type::Applied(a, _), Type::Prim(b)) => a.is_subtype(*b),
            // Tuples are covariant: `Tuple{Float64} <: Tuple{Number}`.
            (Type::Applied(Prim::Tuple, p), Type::Applied(Prim::Tuple, q)) => tuple_fits(p, q),
            (Type::Applied(a, p), Type::Applied(b, q)) => a.is_subtype(*b) && params_fit(p, q),
            (Type::Named(a), Type::Named(b)) => a == b,
            // A struct's field typed with the struct itself names it (see `Interp::type_named`);
            // a struct's name is bound once per session.
            (Type::User(d) | Type::UserApplied(d, _), Type::Named(n)) => d.name.as_str() == &**n,
            (Type::Named(a), Type::User(_)) => {
                library_supertype(a).is_some_and(|s| s.is_subtype(other))
            }
            (Type::Named(a), Type::Prim(Prim::Exception)) => {
                a.ends_with("Error") || a.ends_with("Exception")
            }
            (Type::User(a), _) | (Type::UserApplied(a, _), _) => {
                let same_def = match other {
                    Type::User(b) => Rc::ptr_eq(a, b),
                    Type::UserApplied(b, q) => {
                        Rc::ptr_eq(a, b)
                            && matches!(self, Type::UserApplied(_, p) if params_fit(p, q))
                    }
                    _ => false,
                };
                same_def || a.supertype.is_subtype(other)
            }
            _ => false,
        }
    }
}

/// Whether `name` is what `typeof` of a number carrying derivatives prints: its technique's
/// number type (`Dual{Float64}`, `Tracer{Int}`, ...), a `Real`, as in those packages.
pub fn names_derivative_number(name: &str) -> bool {
    ["Dual{", "Tracer{", "TrackedReal{"]
        .iter()
        .any(|p| name.starts_with(p))
        || name == "FastDifferentiation.Node"
}

/// Whether `v` is the type of numbers carrying derivatives (`typeof(x[1])` inside a function
/// being differentiated). Such numbers are stored in `Float64` arrays and their type's
/// constants (`eps`, `typemax`, `float`) are `Float64`'s, as the packages' number types
/// forward them to the underlying float type.
pub fn is_derivative_number_type(v: &Value) -> bool {
    matches!(v, Value::Object(_) | Value::Type(_))
        && Type::from_value(v).is_some_and(|t| t == Type::Prim(Prim::Dual))
}

/// The declared supertype of a library object's type, when it is a user-visible abstract type
/// (the builtin linear solvers are `AbstractLinearSolver`s, the detectors
/// `ADTypes.AbstractSparsityDetector`s, the backends `ADTypes.AbstractADType`s).
fn library_supertype(name: &str) -> Option<Type> {
    let abstract_name = match name {
        "IterativeLinearSolver" | "DirectLinearSolver" | "IterativeLeastSquaresSolver" => {
            "AbstractLinearSolver"
        }
        "TracerSparsityDetector"
        | "TracerLocalSparsityDetector"
        | "KnownJacobianSparsityDetector"
        | "KnownHessianSparsityDetector"
        | "DenseSparsityDetector" => "AbstractSparsityDetector",
        "SecondOrder" | "MixedMode" => "AbstractADType",
        backend if backend.starts_with("Auto") => "AbstractADType",
        _ => return None,
    };
    library_abstract_type(abstract_name)
}

thread_local! {
    /// The abstract types the libraries declare, one definition each (types compare by it).
    static LIBRARY_ABSTRACT_TYPES: Vec<Rc<TypeDef>> = ["AbstractLinearSolver", "AbstractSparsityDetector", "AbstractADType"]
        .iter()
        .map(|name| {
            Rc::new(TypeDef {
                name: Name::new(name),
                params: Vec::new(),
                supertype: Type::Prim(Prim::Any),
                fields: Vec::new(),
                mutable: false,
                const_fields: Vec::new(),
                is_abstract: true,
                has_inner_constructor: false,
            })
        })
        .collect();
}

/// A library's abstract type by name (`AbstractLinearSolver`, `AbstractSparsityDetector`,
/// `AbstractADType`), which users may subtype and annotate with.
pub fn library_abstract_type(name: &str) -> Option<Type> {
    LIBRARY_ABSTRACT_TYPES.with(|types| {
        types
            .iter()
            .find(|def| def.name.as_str() == name)
            .map(|def| Type::User(def.clone()))
    })
}

/// Parameters are invariant, as in Julia, except that a type variable fits anything and a
/// bounded one (`Vector{<:Real}`) any subtype of its bound.
/// The fixed parameters of a tuple type and the element type of its trailing `Vararg`, if any
/// (a bare `Vararg` is `Vararg{Any}`).
fn split_vararg(params: &[Type]) -> (&[Type], Option<Type>) {
    match params.split_last() {
        Some((Type::Prim(Prim::Vararg), fixed)) => (fixed, Some(Type::Prim(Prim::Any))),
        Some((Type::Applied(Prim::Vararg, element), fixed)) => (
            fixed,
            Some(element.first().cloned().unwrap_or(Type::Prim(Prim::Any))),
        ),
        _ => (params, None),
    }
}

/// `Tuple{given…} <: Tuple{wanted…}`: element by element, a trailing `Vararg{T}` taking any
/// number of further elements of `T`.
fn tuple_fits(given: &[Type], wanted: &[Type]) -> bool {
    let (given_fixed, given_rest) = split_vararg(given);
    let (wanted_fixed, wanted_rest) = split_vararg(wanted);
    let Some(rest) = wanted_rest else {
        return given_rest.is_none()
            && given_fixed.len() == wanted_fixed.len()
            && given_fixed
                .iter()
                .zip(wanted_fixed)
                .all(|(g, w)| g.is_subtype(w));
    };
    given_fixed.len() >= wanted_fixed.len()
        && given_fixed
            .iter()
            .zip(wanted_fixed)
            .all(|(g, w)| g.is_subtype(w))
        && given_fixed[wanted_fixed.len()..]
            .iter()
            .all(|g| g.is_subtype(&rest))
        && given_rest.is_none_or(|g| g.is_subtype(&rest))
}

fn params_fit(given: &[Type], wanted: &[Type]) -> bool {
    // Fewer parameters leave the rest free, as Julia's `SparseMatrixCSC{Float64}` does.
    given.len() >= wanted.len()
        && given.iter().zip(wanted).all(|(g, w)| match w {
            Type::Var(_) => true,
            Type::Within(bound) => g.is_subtype(bound),
            _ => g == w,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lattice_orders_numbers_and_arrays() {
        assert!(Prim::Int64.is_subtype(Prim::Real));
        assert!(Prim::Bool.is_subtype(Prim::Integer));
        assert!(!Prim::Float64.is_subtype(Prim::Integer));
        assert!(Prim::Vector.is_subtype(Prim::Array));
        assert!(Prim::Range.is_subtype(Prim::AbstractVector));
        assert!(!Prim::Dual.is_subtype(Prim::Float64));
        let vf = Type::Applied(Prim::Vector, Rc::from(vec![Type::Prim(Prim::Float64)]));
        let avf = Type::Applied(
            Prim::AbstractVector,
            Rc::from(vec![Type::Prim(Prim::Float64)]),
        );
        let vi = Type::Applied(Prim::Vector, Rc::from(vec![Type::Prim(Prim::Int64)]));
        assert!(vf.is_subtype(&avf));
        assert!(!vi.is_subtype(&avf));
        assert!(vi.is_subtype(&Type::Prim(Prim::AbstractArray)));
    }
}
