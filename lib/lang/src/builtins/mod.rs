//! The builtin library, one module per family, each builtin registered with its docstring.
//!
//! A [`Builtin`] is a name, a docstring (shown by `?name`), whether `f.(x)` may call it once on
//! whole arrays (`vectorized`), and the Rust function that runs it on [`Args`]. Families:
//! [`math`], [`arrays`], [`reductions`], [`linalg`], [`sparse`], [`random`], [`io`],
//! [`strings`], [`collections`], [`functional`], [`errors`], [`bench`], [`mtx`], [`matpower`], and the
//! differentiation library [`ad`].

pub mod activations;
pub mod ad;
mod args;
pub mod arrays;
pub mod bench;
pub mod cartesian;
pub mod chars;
pub mod collections;
pub mod coloring;
mod coloring_checks;
pub(crate) mod coloring_constant;
mod coloring_explain;
pub mod coloring_forest;
pub mod coloring_graphs;
pub mod coloring_linear;
pub mod coloring_matrices;
pub mod coloring_optimal;
pub mod coloring_orders;
pub mod concat;
pub mod deepcopy;
pub mod derived_math;
pub mod dict;
pub mod element_types;
pub mod errors;
pub mod files;
pub mod functional;
pub mod growth;
pub mod hashing;
pub mod indexing;
pub mod integers;
pub mod io;
pub mod iterators;
mod keyed;
pub mod linalg;
pub mod line_plots;
pub mod markers;
pub mod math;
pub mod matpower;
pub mod mime;
pub mod modules;
pub mod mtx;
pub mod number_facts;
pub mod operator_values;
pub mod ordering;
pub mod partial;
pub mod plots;
pub mod printf;
pub mod progress;
pub mod random;
pub mod reductions;
pub mod reflection;
pub mod refs;
pub mod regex;
pub mod repeat;
pub mod rounding;
pub mod search;
pub mod set;
pub mod slices;
pub mod sparse;
pub mod special;
pub mod splitting;
pub mod statistics;
pub mod string_index;
pub mod strings;
pub mod system;
pub mod table;
#[cfg(test)]
pub(crate) mod test_support;
pub mod value_operators;
pub mod vector_edits;
pub mod versions;
pub mod views;

use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::Value;
pub use args::{call, Args};
use difflab_syntax::Name;
use std::sync::OnceLock;

/// A builtin function.
pub struct Builtin {
    /// Its name in the language.
    pub name: &'static str,
    /// Its docstring: a signature line, a description, and an example.
    pub doc: &'static str,
    /// True when `f.(arrays...)` is computed by one call on the whole arrays.
    pub vectorized: bool,
    /// The implementation.
    pub run: fn(&mut Interp, Args) -> EvalResult,
}

/// Calls the builtin `name` (which must exist) on `args`, as the language would.
pub(crate) fn call_named(interp: &mut Interp, name: &str, args: Vec<Value>) -> EvalResult {
    let builtin = lookup(Name::new(name)).expect("call_named names a builtin");
    interp.call(&Value::Builtin(builtin), args)
}

/// Calls the builtin `name` (which must exist) with keywords, elementwise when `dotted`: for
/// builtins composed from others (`std` is `sqrt.(var(x; dims))`).
pub(crate) fn call_builtin(
    interp: &mut Interp,
    name: &str,
    pos: Vec<Value>,
    kw: Vec<(Name, Value)>,
    dotted: bool,
) -> EvalResult {
    let builtin = lookup(Name::new(name)).expect("call_builtin names a builtin");
    call(interp, builtin, pos, kw, dotted)
}

/// The number of a plain `Int`, `Float64` or `Bool`; `None` for anything else (numbers
/// carrying derivatives, tracers, containers).
pub(crate) fn plain_number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(x) => Some(*x),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

/// A plain integer, or a `MethodError` naming the function.
pub fn to_int(v: &Value, name: &str) -> Result<i64, Flow> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(i64::from(*b)),
        // Integral and within Int64's range (2^63 itself is not): `Int(1e20)` is inexact.
        Value::Float(x)
            if x.fract() == 0.0 && (i64::MIN as f64..-(i64::MIN as f64)).contains(x) =>
        {
            Ok(*x as i64)
        }
        Value::Float(x) => Err(fail(
            ErrorKind::InexactError,
            format!("Int64({})", crate::show::float(*x)),
        )),
        Value::Type(t) => Err(absent_number_type(t).unwrap_or_else(|| {
            fail(
                ErrorKind::MethodError,
                format!("{name}: expected an integer, got a {}", v.type_name()),
            )
        })),
        other => match ad::tracers::local_tracer_value(other, "Int64") {
            Some(x) => to_int(&Value::Float(x?), name),
            None => Err(fail(
                ErrorKind::MethodError,
                format!("{name}: expected an integer, got a {}", other.type_name()),
            )),
        },
    }
}

/// A plain number as `f64` (dual numbers give their value), or a `MethodError`.
pub fn to_float(v: &Value, name: &str) -> Result<f64, Flow> {
    match v {
        Value::Int(i) => Ok(*i as f64),
        Value::Float(x) => Ok(*x),
        Value::Bool(b) => Ok(f64::from(u8::from(*b))),
        Value::Real(t) => {
            crate::value::convert::require_values(t, name)?;
            Ok(t.primal().first().copied().unwrap_or(f64::NAN))
        }
        other => Err(fail(
            ErrorKind::MethodError,
            format!("{name}: expected a number, got a {}", other.type_name()),
        )),
    }
}

/// The arguments of `diagm`/`spdiagm`: an optional size `(m, n)` and the `k => v` pairs.
pub(crate) type DiagonalArgs = (Option<(usize, usize)>, Vec<(i64, Value)>);

/// The arguments of `diagm`/`spdiagm` (`name`): `f(v)`, `f(k => v, ...)` or
/// `f(m, n, k => v, ...)`.
pub(crate) fn diagonal_pairs(pos: &[Value], name: &str) -> Result<DiagonalArgs, Flow> {
    let (size, pairs) = match pos {
        [m, n, rest @ ..] if m.is_number() && n.is_number() && !rest.is_empty() => {
            (Some((to_size(m, name)?, to_size(n, name)?)), rest)
        }
        [] => {
            return Err(fail(
                ErrorKind::MethodError,
                format!("no method matching {name}()"),
            ))
        }
        all => (None, all),
    };
    let pairs = pairs
        .iter()
        .map(|pair| match pair.pair_parts() {
            Some((k, v)) => Ok((to_int(&k, name)?, v)),
            None if pairs.len() == 1 => Ok((0, pair.clone())),
            None => Err(fail(
                ErrorKind::MethodError,
                format!("{name} takes pairs k => v, got a {}", pair.type_name()),
            )),
        })
        .collect::<Result<_, _>>()?;
    Ok((size, pairs))
}

/// The side of the smallest square matrix holding diagonals `k` of lengths `len`.
pub(crate) fn diagonal_square(diagonals: impl Iterator<Item = (i64, usize)>) -> usize {
    diagonals
        .map(|(k, len)| len + k.unsigned_abs() as usize)
        .max()
        .unwrap_or(0)
}

/// A non-negative size (array dimension), checked.
pub fn to_size(v: &Value, name: &str) -> Result<usize, Flow> {
    let n = to_int(v, name)?;
    usize::try_from(n).map_err(|_| {
        fail(
            ErrorKind::ArgumentError,
            format!("invalid Array dimensions: {n} is negative"),
        )
    })
}

/// Number types of Julia that code may name but difflab has no values of.
const ABSENT_NUMBER_TYPES: &[&str] = &[
    "Float16",
    "Float32",
    "Int8",
    "Int16",
    "Int32",
    "Int128",
    "UInt8",
    "UInt16",
    "UInt32",
    "UInt128",
    "BigInt",
    "BigFloat",
    "Rational",
    "Complex",
    "ComplexF32",
    "ComplexF64",
];

/// For one of Julia's number types that difflab does not have (`Float32`), used where a
/// number type is expected (`zeros(Float32, 3)`, `Float32(x)`), the error that says so.
pub fn absent_number_type(t: &crate::types::Type) -> Option<Flow> {
    let crate::types::Type::Named(name) = t else {
        return None;
    };
    ABSENT_NUMBER_TYPES.contains(&&**name).then(|| {
        fail(
            ErrorKind::ArgumentError,
            format!("difflab has no {name} numbers: its numbers are Float64, Int64 and Bool; use Float64 (or Int) instead"),
        )
    })
}

/// Dimensions given as `f(2, 3)` or `f((2, 3))`.
pub fn dims_from(args: &[Value], name: &str) -> Result<Vec<usize>, Flow> {
    if let [Value::Tuple(items)] = args {
        return items.iter().map(|v| to_size(v, name)).collect();
    }
    args.iter().map(|v| to_size(v, name)).collect()
}

/// A numeric array value of `eltype` from column-major data.
pub fn array(eltype: ElType, shape: &[usize], data: Vec<f64>) -> Value {
    Value::array(eltype, shape, data)
}

/// Declares a static table of builtins: `name => function, vectorized, "doc"`.
#[macro_export]
macro_rules! builtins {
    ($($name:literal => $run:path, $vectorized:literal, $doc:literal;)*) => {
        /// The builtins of this family.
        pub(crate) static BUILTINS: &[$crate::builtins::Builtin] = &[
            $($crate::builtins::Builtin { name: $name, doc: $doc, vectorized: $vectorized, run: $run },)*
        ];
    };
}

/// Whether the predicate `f` holds for `x`: its answer must be a `Bool`, as Julia's
/// conditions must.
pub(crate) fn predicate_holds(interp: &mut Interp, f: &Value, x: &Value) -> Result<bool, Flow> {
    predicate_holds_for(interp, f, vec![x.clone()])
}

/// [`predicate_holds`] for a predicate of several arguments.
pub(crate) fn predicate_holds_for(
    interp: &mut Interp,
    f: &Value,
    args: Vec<Value>,
) -> Result<bool, Flow> {
    match interp.call(f, args)? {
        Value::Bool(b) => Ok(b),
        other => Err(fail(
            ErrorKind::TypeError,
            format!(
                "non-boolean ({}) used in boolean context",
                other.type_name()
            ),
        )),
    }
}

/// Calls function `name` of a library written in the language, whose `text` ends with a
/// named tuple of its functions (see `Interp::eval_library`).
pub(crate) fn call_library(
    interp: &mut Interp,
    library: &'static str,
    text: &'static str,
    name: &str,
    args: Args,
) -> EvalResult {
    let functions = interp.eval_library(library, text)?;
    let Value::NamedTuple(functions) = &functions else {
        unreachable!("{library} ends with a named tuple");
    };
    let f = functions
        .iter()
        .find(|(k, _)| k.as_str() == name)
        .map(|(_, f)| f.clone())
        .unwrap_or_else(|| unreachable!("{library} defines {name}"));
    let kw = args.all_keywords();
    interp.call_value(&f, args.pos, kw)
}

fn families() -> [&'static [Builtin]; 84] {
    [
        mime::BUILTINS,
        hashing::BUILTINS,
        files::BUILTINS,
        coloring_constant::BUILTINS,
        markers::BUILTINS,
        cartesian::BUILTINS,
        ad::sparse_ad::BUILTINS,
        ad::tracers::BUILTINS,
        ad::package_apis::BUILTINS,
        coloring::BUILTINS,
        coloring_orders::BUILTINS,
        coloring_graphs::BUILTINS,
        coloring_forest::BUILTINS,
        coloring_matrices::BUILTINS,
        coloring_optimal::BUILTINS,
        regex::BUILTINS,
        modules::BUILTINS,
        rounding::BUILTINS,
        repeat::BUILTINS,
        coloring_linear::BUILTINS,
        coloring_checks::BUILTINS,
        ad::implicit::BUILTINS,
        ad::implicit_prep::BUILTINS,
        ad::implicit_solvers::BUILTINS,
        ad::compare::BUILTINS,
        ad::benchmarking::BUILTINS,
        ad::scenarios::BUILTINS,
        ad::differentiate_with::BUILTINS,
        plots::BUILTINS,
        line_plots::BUILTINS,
        ad::backends::BUILTINS,
        ad::contexts::BUILTINS,
        ad::operators::BUILTINS,
        ad::formula::BUILTINS,
        ad::explain::BUILTINS,
        ad::recommend::BUILTINS,
        math::BUILTINS,
        special::BUILTINS,
        arrays::BUILTINS,
        element_types::BUILTINS,
        ordering::BUILTINS,
        versions::BUILTINS,
        splitting::BUILTINS,
        reductions::BUILTINS,
        linalg::construct::BUILTINS,
        linalg::bands::BUILTINS,
        linalg::factorize::BUILTINS,
        linalg::decompositions::BUILTINS,
        linalg::solve::BUILTINS,
        linalg::spectral::BUILTINS,
        linalg::matrix_functions::BUILTINS,
        sparse::construct::BUILTINS,
        random::BUILTINS,
        io::BUILTINS,
        strings::BUILTINS,
        string_index::BUILTINS,
        chars::BUILTINS,
        activations::BUILTINS,
        indexing::BUILTINS,
        collections::BUILTINS,
        functional::BUILTINS,
        errors::BUILTINS,
        bench::BUILTINS,
        mtx::BUILTINS,
        matpower::BUILTINS,
        operator_values::BUILTINS,
        reflection::BUILTINS,
        search::BUILTINS,
        concat::BUILTINS,
        dict::BUILTINS,
        set::BUILTINS,
        integers::BUILTINS,
        partial::BUILTINS,
        statistics::BUILTINS,
        views::BUILTINS,
        system::BUILTINS,
        number_facts::BUILTINS,
        deepcopy::BUILTINS,
        refs::BUILTINS,
        growth::BUILTINS,
        vector_edits::BUILTINS,
        derived_math::BUILTINS,
        iterators::BUILTINS,
        slices::BUILTINS,
    ]
}

/// The builtins by [`Name::index`] (a lookup is an index, not a hash: every call of a
/// builtin the evaluator runs does one).
fn table() -> &'static [Option<&'static Builtin>] {
    static TABLE: OnceLock<Vec<Option<&'static Builtin>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Vec::new();
        for b in families().into_iter().flatten() {
            let i = Name::new(b.name).index();
            if i >= table.len() {
                table.resize(i + 1, None);
            }
            table[i] = Some(b);
        }
        table
    })
}

/// The builtin called `name`.
pub fn lookup(name: Name) -> Option<&'static Builtin> {
    table().get(name.index()).copied().flatten()
}

/// Every builtin.
pub fn all() -> impl Iterator<Item = &'static Builtin> {
    families().into_iter().flatten()
}

/// Builtins that wait for input, sleep, or read, write or list files by name whatever their
/// arguments. Sweeps that call every builtin with generated arguments leave them out (their
/// argument checking is tested in their own modules).
pub const ACTING_ON_THE_OUTSIDE: &[&str] = &[
    "readline",
    "include",
    "writemtx",
    "readmtx",
    "readmatpower",
    "sleep",
    "benchmark_differentiation",
    "isfile",
    "tempdir",
    "open",
    "write",
    "read",
    "readchomp",
    "readlines",
    "eachline",
    "countlines",
    "rm",
    "mkdir",
    "mkpath",
    "readdir",
];

/// The `:` function (a bare colon in an index).
pub fn colon() -> &'static Builtin {
    lookup(difflab_syntax::name!(":")).expect("`:` is registered")
}

/// The constants with a help page of their own (`?FIRST_ORDER`).
pub const DOCUMENTED_CONSTANTS: &[&str] = &["FIRST_ORDER", "SECOND_ORDER", "ENV"];

/// The help of a documented constant.
pub fn constant_doc(name: &str) -> Option<&'static str> {
    Some(match name {
        "FIRST_ORDER" => "    FIRST_ORDER\n\nDifferentiationInterfaceTest's first-order operators, as symbols: `:pushforward`, `:pullback`, `:derivative`, `:gradient`, `:jacobian`. Pass it as `excluded` to test second order only.\n\n```\njulia> FIRST_ORDER\n5-element Vector{Symbol}:\n :pushforward\n :pullback\n :derivative\n :gradient\n :jacobian\n\njulia> scenarios = [Scenario{:gradient, :out}(sum, [1.0]; res1=[1.0]), Scenario{:hessian, :out}(sum, [1.0]; res1=[1.0], res2=zeros(1, 1))];\n\njulia> unique(row.scenario for row in test_differentiation(AutoForwardDiff(), scenarios; excluded=FIRST_ORDER))\n1-element Vector{String}:\n \"Scenario{:hessian,:out} sum : Vector{Float64} -> Float64\"\n```",
        "ENV" => "    ENV\n\nThe environment variables of the process, as a `Dict{String, String}` read when `ENV` is used: `ENV[\"HOME\"]`, `get(ENV, \"NAME\", default)`, `haskey(ENV, \"NAME\")`. It is a copy: assigning to it sets no variable.\n\n```\njulia> get(ENV, \"A_VARIABLE_NOBODY_SETS\", \"unset\")\n\"unset\"\n```",
        "SECOND_ORDER" => "    SECOND_ORDER

DifferentiationInterfaceTest's second-order operators, as symbols: `:hvp`, `:second_derivative`, `:hessian`. Pass it as `excluded` to test first order only.

```
julia> SECOND_ORDER
3-element Vector{Symbol}:
 :hvp
 :second_derivative
 :hessian
```",
        _ => return None,
    })
}

/// Named constants (`pi`, `π`, `ℯ`, `Inf`, `NaN`, `nothing`, `stdout`, ...).
pub fn constant(name: &str) -> Option<Value> {
    Some(match name {
        "pi" | "π" => Value::Float(std::f64::consts::PI),
        "ℯ" => Value::Float(std::f64::consts::E),
        "Inf" | "Inf64" => Value::Float(f64::INFINITY),
        "NaN" | "NaN64" => Value::Float(f64::NAN),
        "nothing" => Value::Nothing,
        // DifferentiationInterfaceTest's operator lists, for `excluded=`.
        "FIRST_ORDER" | "SECOND_ORDER" => {
            let ops: &[&str] = if name == "FIRST_ORDER" {
                &[
                    "pushforward",
                    "pullback",
                    "derivative",
                    "gradient",
                    "jacobian",
                ]
            } else {
                &["hvp", "second_derivative", "hessian"]
            };
            Value::list(ops.iter().map(|o| Value::Symbol(Name::new(o))).collect())
        }
        "missing" | "undef" => Value::Nothing,
        "ENV" => dict::environment().ok()?,
        "VERSION" => versions::language_version(),
        "Main" => modules::main_module(),
        "stdout" => Value::Symbol(difflab_syntax::name!("stdout")),
        "stderr" => Value::Symbol(difflab_syntax::name!("stderr")),
        // Number types difflab has no values of, named so code can mention them, and types
        // whose values other builtins make.
        absent if ABSENT_NUMBER_TYPES.contains(&absent) => {
            Value::Type(std::rc::Rc::new(crate::types::Type::named(name)))
        }
        "SparseMatrixCSC"
        | "AbstractSparseMatrix"
        | "SparseVector"
        | "AbstractSparseVector"
        | "JVP"
        | "VJP"
        | "ImplicitFunctionPreparation" => {
            Value::Type(std::rc::Rc::new(crate::types::Type::named(name)))
        }
        "DataType" => Value::Type(std::rc::Rc::new(crate::types::Type::Prim(
            crate::types::Prim::DataType,
        ))),
        mode if mode.starts_with("Round") => {
            let (_, name) = rounding::ROUNDING_MODES.iter().find(|(n, _)| *n == mode)?;
            Value::object(rounding::RoundingMode(name))
        }
        "AbstractLinearSolver" | "AbstractSparsityDetector" | "AbstractADType" => Value::Type(
            std::rc::Rc::new(crate::types::library_abstract_type(name).expect("a library type")),
        ),
        "Any" | "Number" | "Real" | "Integer" | "AbstractArray" | "AbstractVector"
        | "AbstractMatrix" | "String" | "AbstractString" | "AbstractChar" | "Function"
        | "Nothing" | "Tuple" | "NamedTuple" | "AbstractSet" | "AbstractDict" | "AbstractRange"
        | "AbstractFloat" | "Signed" | "IO" | "IOStream" | "Exception" | "UnitRange"
        | "StepRange" | "UInt" | "UInt64" => io::type_value(name),
        _ => return None,
    })
}
