//! Raising errors: `error`, `throw`, `rethrow`, and the exception constructors
//! (`ArgumentError(msg)`, `DomainError(x, msg)`, ...).

use super::Args;
use crate::display::print_string;
use crate::error::{fail, EvalResult, Flow};
use crate::error::{ErrorKind, LangError};
use crate::eval::Interp;
use crate::value::Value;
use std::rc::Rc;

fn error_(_: &mut Interp, args: Args) -> EvalResult {
    let message: String = args.pos.iter().map(print_string).collect();
    Err(fail(ErrorKind::ErrorException, message))
}

fn throw_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("throw", 1, 1)?;
    Err(raise(&args.pos[0]))
}

/// The flow that throws `v`: exceptions keep their kind, other values travel as payload.
pub fn raise(v: &Value) -> Flow {
    match v {
        Value::Exception(e) => {
            let mut e = e.as_ref().clone();
            e.location = None;
            e.trace.clear();
            Flow::Error(Box::new(e))
        }
        other => {
            let mut e = LangError::new(ErrorKind::Thrown, "");
            e.payload = Some(other.clone());
            Flow::Error(Box::new(e))
        }
    }
}

fn make(kind: ErrorKind, args: &Args) -> EvalResult {
    use ErrorKind::*;
    let message = match (kind, args.pos.as_slice()) {
        // Exceptions that hold a message take a string, as their Julia types' fields do (other
        // values are not formatted into one: a matrix would make megabytes of text).
        (
            ArgumentError | DimensionMismatch | ErrorException | AssertionError | OverflowError,
            [msg],
        ) => match msg {
            Value::Str(text) => text.to_string(),
            other => {
                return Err(fail(
                    MethodError,
                    format!(
                        "Cannot `convert` an object of type {} to an object of type AbstractString",
                        other.type_name()
                    ),
                ))
            }
        },
        (DimensionMismatch | AssertionError, []) => String::new(),
        (DomainError, [x, msg]) => {
            format!("with {}:\n{}", crate::display::repr(x), print_string(msg))
        }
        (DomainError, [x]) => format!("with {}", crate::display::repr(x)),
        (BoundsError, []) => String::new(),
        (BoundsError, [a]) => format!("attempt to access {}", super::io::summary_text(a)),
        (BoundsError, [a, index]) => {
            let at = match index {
                Value::Tuple(parts) => parts
                    .iter()
                    .map(crate::display::repr)
                    .collect::<Vec<_>>()
                    .join(", "),
                one => crate::display::repr(one),
            };
            format!(
                "attempt to access {} at index [{at}]",
                super::io::summary_text(a)
            )
        }
        (KeyError, [key]) => format!("key {} not found", crate::display::repr(key)),
        (UndefVarError, [Value::Symbol(s)]) => format!("`{s}` not defined"),
        (UndefKeywordError, [Value::Symbol(s)]) => {
            format!("keyword argument `{s}` not assigned")
        }
        (UndefRefError, []) => "access to undefined reference".into(),
        (_, parts) => parts.iter().map(print_string).collect(),
    };
    Ok(Value::Exception(Rc::new(LangError::new(kind, message))))
}

macro_rules! constructors {
    ($($fname:ident => $kind:ident),* $(,)?) => {
        $(fn $fname(_: &mut Interp, args: Args) -> EvalResult { make(ErrorKind::$kind, &args) })*
    };
}

constructors!(
    argument_error => ArgumentError, dimension_mismatch => DimensionMismatch,
    domain_error => DomainError, bounds_error => BoundsError, error_exception => ErrorException,
    assertion_error => AssertionError, method_error => MethodError, key_error => KeyError,
    undef_var_error => UndefVarError, undef_keyword_error => UndefKeywordError,
    undef_ref_error => UndefRefError,
    inexact_error => InexactError, type_error => TypeError,
    divide_error => DivideError, overflow_error => OverflowError,
    pos_def_exception => PosDefException, stack_overflow_error => StackOverflowError,
    invalid_coloring_error => InvalidColoringError,
    unsupported_decompression_error => UnsupportedDecompressionError,
    string_index_error => StringIndexError, system_error => SystemError,
    out_of_memory_error => OutOfMemoryError, interrupt_exception => InterruptException,
);

/// `showerror(io, e)`: the error as the REPL shows it after `ERROR: `.
fn showerror_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("showerror", 2, 2)?;
    let text = match &args.pos[1] {
        Value::Exception(e) => e.headline(),
        other => crate::display::repr(other),
    };
    let print = super::lookup(difflab_syntax::name!("print")).expect("print is a builtin");
    interp.call(
        &Value::Builtin(print),
        vec![args.pos[0].clone(), Value::str(text)],
    )
}

crate::builtins! {
    "showerror" => showerror_, false, "    showerror(io, e)\n\nWrites the exception `e` as the REPL shows it after `ERROR: ` to `io` (`stdout`, or an `IOBuffer`; `sprint(showerror, e)` gives it as a string).\n\n```\njulia> try sqrt(-1.0) catch e; sprint(showerror, e) end\n\"DomainError with -1.0:\\nsqrt was called outside its domain of real arguments\"\n```";
    "error" => error_, false, "    error(msg...)\n\nRaises an `ErrorException` with the message.\n\n```\njulia> error(\"bad input: \", 3)\nERROR: bad input: 3\n```";
    "throw" => throw_, false, "    throw(e)\n\nRaises the exception `e` (any value may be thrown).\n\n```\njulia> throw(ArgumentError(\"n must be positive\"))\nERROR: ArgumentError: n must be positive\n```";
    "ArgumentError" => argument_error, false, "    ArgumentError(msg)\n\nThe exception for invalid arguments.\n\n```\njulia> throw(ArgumentError(\"bad\"))\nERROR: ArgumentError: bad\n```";
    "TypeError" => type_error, false, "    TypeError(msg)\n\nThe exception for a value of the wrong type where one is required, e.g. a non-boolean condition.\n\n```\njulia> try; 1 ? 2 : 3; catch e; e isa TypeError; end\ntrue\n```";
    "DivideError" => divide_error, false, "    DivideError()\n\nThe exception for integer division by zero.\n\n```\njulia> try; 1 ÷ 0; catch e; e isa DivideError; end\ntrue\n```";
    "InvalidColoringError" => invalid_coloring_error, false, "    InvalidColoringError(msg)\n\nSparseMatrixColorings' exception for given colors that do not allow decompression (`ConstantColoringAlgorithm`).\n\n```\njulia> A = sparse([1.0 1.0; 0.0 1.0]);\n\njulia> try; coloring(A, ColoringProblem(), ConstantColoringAlgorithm(A, [1, 1])); catch e; e isa InvalidColoringError; end\ntrue\n```";
    "UnsupportedDecompressionError" => unsupported_decompression_error, false, "    UnsupportedDecompressionError(msg)\n\nSparseMatrixColorings' exception for a decompression a coloring result does not offer: one color at a time from a coloring for decompression by substitution (acyclic), where every entry depends on several colors.\n\n```\njulia> sprint(showerror, UnsupportedDecompressionError(\"hello\"))\n\"UnsupportedDecompressionError: hello\"\n```";
    "OverflowError" => overflow_error, false, "    OverflowError(msg)\n\nThe exception for an integer result that does not fit in `Int64`.\n\n```\njulia> try; factorial(21); catch e; e isa OverflowError; end\ntrue\n```";
    "PosDefException" => pos_def_exception, false, "    PosDefException(msg)\n\nThe exception for a Cholesky factorization of a matrix that is not symmetric positive definite.\n\n```\njulia> try; cholesky([1.0 2.0; 2.0 1.0]); catch e; e isa PosDefException; end\ntrue\n```";
    "StringIndexError" => string_index_error, false, "    StringIndexError(msg)\n\nThe exception for a string index inside a multi-byte character (strings are indexed by byte, as in Julia).\n\n```\njulia> try; \"héllo\"[3]; catch e; e isa StringIndexError; end\ntrue\n```";
    "StackOverflowError" => stack_overflow_error, false, "    StackOverflowError()\n\nThe exception for recursion deeper than the session allows; the session goes on.\n\n```\njulia> f(n) = f(n + 1);\n\njulia> try; f(1); catch e; e isa StackOverflowError; end\ntrue\n```";
    "SystemError" => system_error, false, "    SystemError(msg)\n\nThe exception for a failed call to the operating system: a file that cannot be opened, read or written, a directory that cannot be made or removed.\n\n```\njulia> try; open(\"/no/such/file\"); catch e; e isa SystemError; end\ntrue\n```";
    "OutOfMemoryError" => out_of_memory_error, false, "    OutOfMemoryError()\n\nThe exception for an allocation beyond the session's memory limit; the session goes on.\n\n```\njulia> try; zeros(10^12); catch e; e isa OutOfMemoryError; end\ntrue\n```";
    "InterruptException" => interrupt_exception, false, "    InterruptException()\n\nThe exception raised when the user interrupts a computation (Ctrl-C, or the notebook's stop button).\n\n```\njulia> throw(InterruptException())\nERROR: InterruptException\n```";
    "DimensionMismatch" => dimension_mismatch, false, "    DimensionMismatch(msg)\n\nThe exception for arrays whose sizes do not fit.\n\n```\njulia> throw(DimensionMismatch(\"sizes differ\"))\nERROR: DimensionMismatch: sizes differ\n```";
    "DomainError" => domain_error, false, "    DomainError(x, [msg])\n\nThe exception for an argument outside a function's domain.\n\n```\njulia> throw(DomainError(-1, \"must be positive\"))\nERROR: DomainError with -1:\nmust be positive\n```";
    "BoundsError" => bounds_error, false, "    BoundsError([msg])\n\nThe exception for an index out of bounds.\n\n```\njulia> throw(BoundsError())\nERROR: BoundsError\n```";
    "ErrorException" => error_exception, false, "    ErrorException(msg)\n\nThe generic exception raised by `error`.\n\n```\njulia> throw(ErrorException(\"oops\"))\nERROR: oops\n```";
    "AssertionError" => assertion_error, false, "    AssertionError(msg)\n\nThe exception raised by a failed `@assert`.\n\n```\njulia> throw(AssertionError(\"x > 0\"))\nERROR: AssertionError: x > 0\n```";
    "MethodError" => method_error, false, "    MethodError(msg)\n\nThe exception for a call no method accepts.\n\n```\njulia> throw(MethodError(\"no method\"))\nERROR: MethodError: no method\n```";
    "UndefKeywordError" => undef_keyword_error, false, "    UndefKeywordError(:name)\n\nThe exception for a required keyword argument that was not given.\n\n```\njulia> g(; n) = n; try; g(); catch e; e isa UndefKeywordError; end\ntrue\n```";
    "UndefRefError" => undef_ref_error, false, "    UndefRefError()\n\nThe exception for reading a field or vector entry that was never assigned (`#undef`).\n\n```\njulia> mutable struct Node; next::Node; Node() = new(); end\n\njulia> try; Node().next; catch e; e isa UndefRefError; end\ntrue\n```";
    "KeyError" => key_error, false, "    KeyError(key)\n\nThe exception for a missing key.\n\n```\njulia> throw(KeyError(:a))\nERROR: KeyError: key :a not found\n```";
    "UndefVarError" => undef_var_error, false, "    UndefVarError(:name)\n\nThe exception for an undefined name.\n\n```\njulia> throw(UndefVarError(:x))\nERROR: UndefVarError: `x` not defined\n```";
    "InexactError" => inexact_error, false, "    InexactError(msg)\n\nThe exception for a conversion that loses information.\n\n```\njulia> Int(1.5)\nERROR: InexactError: Int64(1.5)\n```";
}
