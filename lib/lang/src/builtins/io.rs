//! Printing and input: `println`, `print`, `display`, `show`, `string`, `repr`, `readline`,
//! `clear_output`, and `typeof`.

use super::Args;
use crate::display::{plain, print_string, repr};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::output::Stream;
use crate::value::Value;
use std::rc::Rc;

/// Where printing goes: a stream of the session, or an `IOBuffer` (the `io` of a user
/// `show` method) or an open file.
enum Target {
    Stream(Stream),
    Buffer(Value),
}

/// Whether `v` is something `print(v, …)` writes to: `stdout`, `stderr`, an `IOBuffer` or an
/// open file.
pub fn is_output(v: &Value) -> bool {
    match v {
        Value::Symbol(s) => matches!(s.as_str(), "stdout" | "stderr"),
        Value::Object(o) => {
            o.as_any().is::<IoBuffer>() || o.as_any().is::<super::files::FileStream>()
        }
        _ => false,
    }
}

/// Splits an optional leading `stdout`/`stderr`/`IOBuffer` argument off the arguments.
fn target_of(args: &mut Args) -> Target {
    match args.pos.first() {
        Some(Value::Symbol(s)) => {
            let stream = match s.as_str() {
                "stdout" => Some(Stream::Stdout),
                "stderr" => Some(Stream::Stderr),
                _ => None,
            };
            if let Some(stream) = stream {
                args.pos.remove(0);
                return Target::Stream(stream);
            }
        }
        Some(v @ Value::Object(_)) if is_output(v) => {
            let v = v.clone();
            args.pos.remove(0);
            return Target::Buffer(v);
        }
        _ => {}
    }
    Target::Stream(Stream::Stdout)
}

/// Writes `text` to `io`, one of the outputs [`is_output`] accepts, as `print(io, text)` does.
pub fn print_to(interp: &mut Interp, io: &Value, text: &str) -> Result<(), Flow> {
    let mut args = Args::positional(vec![io.clone()]);
    let target = target_of(&mut args);
    emit(interp, &target, text)
}

fn emit(interp: &mut Interp, target: &Target, text: &str) -> Result<(), Flow> {
    match target {
        Target::Stream(stream) => interp.out.write(*stream, text),
        Target::Buffer(Value::Object(o)) => {
            if let Some(buffer) = o.as_any().downcast_ref::<IoBuffer>() {
                buffer.0.borrow_mut().push_str(text);
            }
            if let Some(file) = o.as_any().downcast_ref::<super::files::FileStream>() {
                file.write_text(text)?;
            }
        }
        Target::Buffer(_) => {}
    }
    Ok(())
}

/// An in-memory text stream (`IOBuffer()`, and the `io` a user `show` method writes to).
pub struct IoBuffer(std::cell::RefCell<String>);

impl crate::object::Object for IoBuffer {
    fn type_name(&self) -> String {
        "IOBuffer".into()
    }
    fn show(&self) -> String {
        format!("IOBuffer(size={})", self.0.borrow().len())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A new empty `IOBuffer`.
pub fn buffer() -> Value {
    Value::object(IoBuffer(std::cell::RefCell::new(String::new())))
}

/// The text written to an `IOBuffer` value so far.
pub fn buffer_text(v: &Value) -> String {
    match v {
        Value::Object(o) => o
            .as_any()
            .downcast_ref::<IoBuffer>()
            .map(|b| b.0.borrow().clone())
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// The MIME type `v` names: a string (`"text/plain"`) or a `MIME` instance.
fn mime_name(v: &Value) -> Option<&str> {
    match v {
        Value::Str(name) => Some(name.as_str()),
        other => super::mime::name_of(other),
    }
}

/// `show(io, mime, x)` and `repr(mime, x)`: for arguments `[mime, x]` with a MIME type, `x` in
/// that form (`text/plain` only: the REPL's display; another type is Julia's `MethodError`);
/// `None` for other arguments.
fn display_form(
    interp: &mut Interp,
    args: &[Value],
    function: &str,
) -> Option<Result<String, Flow>> {
    let [mime, x] = args else { return None };
    Some(match mime_name(mime)? {
        "text/plain" => interp.prepare_plain_display(x).map(|()| plain(x)),
        other => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {function}(::MIME{{Symbol(\"{other}\")}}, ::{}): the text form is \"text/plain\"",
                x.type_name()
            ),
        )),
    })
}

/// Fills in the text of user `show` methods for the values about to be printed.
fn prepare(interp: &mut Interp, values: &[Value]) -> Result<(), Flow> {
    for v in values {
        interp.prepare_display(v)?;
    }
    Ok(())
}

/// The printed forms of the arguments, one after the other; `InterruptException` when an
/// interrupt stopped their formatting, before anything unfinished is written.
fn joined(interp: &Interp, args: &Args) -> Result<String, Flow> {
    let text = args.pos.iter().map(print_string).collect();
    interp.check_interrupt()?;
    Ok(text)
}

fn println_(interp: &mut Interp, mut args: Args) -> EvalResult {
    let target = target_of(&mut args);
    prepare(interp, &args.pos)?;
    let mut text = joined(interp, &args)?;
    text.push('\n');
    emit(interp, &target, &text)?;
    Ok(Value::Nothing)
}

fn print_(interp: &mut Interp, mut args: Args) -> EvalResult {
    let target = target_of(&mut args);
    prepare(interp, &args.pos)?;
    let text = joined(interp, &args)?;
    emit(interp, &target, &text)?;
    Ok(Value::Nothing)
}

fn iobuffer_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("IOBuffer", 0, 0)?;
    Ok(buffer())
}

/// `sprint(f, args...)`: what `f(io, args...)` writes, as a string.
fn sprint_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("sprint", 1, usize::MAX)?;
    let io = buffer();
    let mut call_args = vec![io.clone()];
    call_args.extend(args.pos[1..].iter().cloned());
    interp.call(&args.pos[0], call_args)?;
    Ok(Value::str(buffer_text(&io)))
}

/// `take!(io)`: the text of an `IOBuffer` (as a string, which `String(…)` keeps), emptying it.
fn take_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("take!", 1, 1)?;
    match &args.pos[0] {
        Value::Object(o) if o.as_any().is::<IoBuffer>() => {
            let buffer = o
                .as_any()
                .downcast_ref::<IoBuffer>()
                .expect("checked above");
            Ok(Value::str(std::mem::take(&mut *buffer.0.borrow_mut())))
        }
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching take!(::{})", other.type_name()),
        )),
    }
}

fn display_(interp: &mut Interp, args: Args) -> EvalResult {
    for v in &args.pos {
        interp.prepare_plain_display(v)?;
    }
    for v in &args.pos {
        interp.out.display(v);
    }
    Ok(Value::Nothing)
}

fn show_(interp: &mut Interp, mut args: Args) -> EvalResult {
    let target = target_of(&mut args);
    let text: String = match display_form(interp, &args.pos, "show") {
        Some(form) => form?,
        None => {
            prepare(interp, &args.pos)?;
            args.pos.iter().map(repr).collect()
        }
    };
    emit(interp, &target, &text)?;
    Ok(Value::Nothing)
}

fn string_(interp: &mut Interp, args: Args) -> EvalResult {
    args.keywords("string", &["base", "pad"])?;
    if args.kw("base").is_some() || args.kw("pad").is_some() {
        return integer_string(&args);
    }
    prepare(interp, &args.pos)?;
    Ok(Value::str(joined(interp, &args)?))
}

/// `string(n; base = 10, pad = 1)`: the integer `n` written in `base` (2 to 36), with at least
/// `pad` digits.
fn integer_string(args: &Args) -> EvalResult {
    args.arity("string", 1, 1)?;
    let n = super::to_int(&args.pos[0], "string")?;
    let base = args
        .kw("base")
        .map_or(Ok(10), |b| super::to_int(b, "string"))?;
    let pad = args
        .kw("pad")
        .map_or(Ok(1), |p| super::to_size(p, "string"))?;
    if !(2..=36).contains(&base) {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("base must satisfy 2 ≤ base ≤ 36, got {base}"),
        ));
    }
    let mut digits = Vec::new();
    let mut rest = n.unsigned_abs();
    while rest > 0 || digits.is_empty() {
        let d = (rest % base as u64) as u32;
        digits.push(char::from_digit(d, base as u32).unwrap_or('?'));
        rest /= base as u64;
    }
    while digits.len() < pad.min(1024) {
        digits.push('0');
    }
    let sign = if n < 0 { "-" } else { "" };
    Ok(Value::str(format!(
        "{sign}{}",
        digits.iter().rev().collect::<String>()
    )))
}

fn repr_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("repr", 1, 2)?;
    if let Some(form) = display_form(interp, &args.pos, "repr") {
        return Ok(Value::str(form?));
    }
    prepare(interp, &args.pos)?;
    match args.pos.as_slice() {
        [x] => Ok(Value::str(repr(x))),
        [mime, _] => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching repr(::{}, …): the text forms are repr(x) and repr(\"text/plain\", x)",
                mime.type_name()
            ),
        )),
        _ => unreachable!("arity checked"),
    }
}

/// `summary(x)`: Julia's one-line description: dimensions and type for arrays and ranges
/// (`2-element Vector{Float64}`), the header of a `Dict` or `Set` display, the type otherwise.
fn summary_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("summary", 1, 1)?;
    Ok(Value::str(summary_text(&args.pos[0])))
}

/// The text of `summary(x)`.
pub(crate) fn summary_text(x: &Value) -> String {
    let type_name = x.type_name();
    let is_array = matches!(
        x,
        Value::Array(_) | Value::Range(_) | Value::List(_) | Value::Sparse(_)
    );
    match super::arrays::shape_of_value(x) {
        Some(shape) if is_array => format!("{} {type_name}", crate::show::dims_string(&shape)),
        _ => match x {
            Value::Object(o) if o.elements().is_some() => {
                let shown = o.show();
                let header = shown.lines().next().unwrap_or_default();
                header.trim_end_matches(':').to_string()
            }
            _ => type_name,
        },
    }
}

fn include_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("include", 1, 1)?;
    let path = print_string(&args.pos[0]);
    interp.include_file(&path)
}

fn readline_(interp: &mut Interp, args: Args) -> EvalResult {
    if !args.pos.is_empty() {
        args.arity("readline", 1, 1)?;
        return super::files::read_line(&args);
    }
    let prompt = args.kw("prompt").map(print_string).unwrap_or_default();
    Ok(Value::str(
        interp.out.read_line(&prompt).unwrap_or_default(),
    ))
}

fn clear_output_(interp: &mut Interp, args: Args) -> EvalResult {
    let wait = matches!(
        args.pos.first().or(args.kw("wait")),
        Some(Value::Bool(true))
    );
    interp.out.clear_output(wait);
    Ok(Value::Nothing)
}

fn typeof_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("typeof", 1, 1)?;
    if let Value::Struct(s) = &args.pos[0] {
        return Ok(Value::Type(Rc::new(s.type_of())));
    }
    Ok(type_as_value(
        crate::types::Type::of(&args.pos[0]),
        &args.pos[0].type_name(),
    ))
}

/// The type `ty`, printed `name`, as a value. Types that are also constructors (`Float64`,
/// `Int64`, `Char`) are those builtins, so `typeof(x) == Float64` holds; a type the lattice
/// describes exactly (`Vector{Float64}`) is that type, so it equals the type written out and
/// `isa` works with it; other library types are known by name.
pub fn type_as_value(ty: crate::types::Type, name: &str) -> Value {
    if let Some(b) = super::lookup(difflab_syntax::Name::new(name)) {
        return Value::Builtin(b);
    }
    if ty.to_string() == name {
        return Value::Type(Rc::new(ty));
    }
    type_value(name)
}

/// `Integer(x)`: an integer stays itself (a `Bool` too), an integral float becomes an `Int`.
fn integer(x: &Value) -> EvalResult {
    match x {
        Value::Int(_) | Value::Bool(_) => Ok(x.clone()),
        other => super::to_int(other, "Integer").map(Value::Int),
    }
}

/// The type called `name` as a value.
pub fn type_value(name: &str) -> Value {
    Value::Object(std::rc::Rc::new(Box::new(TypeName(name.to_string()))))
}

/// A type, as `typeof` returns it.
pub struct TypeName(String);

impl crate::object::Object for TypeName {
    fn type_name(&self) -> String {
        "DataType".into()
    }

    fn show(&self) -> String {
        self.0.clone()
    }

    /// `Tuple(xs)`: the elements of a collection as a tuple; `T(x)` for a number type
    /// carrying derivatives.
    fn call(
        &self,
        interp: &mut Interp,
        args: Vec<Value>,
        kwargs: Vec<(difflab_syntax::Name, Value)>,
    ) -> Option<EvalResult> {
        match (self.0.as_str(), args.as_slice()) {
            ("Tuple", [x]) if kwargs.is_empty() => Some(interp.elements_of(x).map(Value::tuple)),
            // `NamedTuple{(:a, :b)}(values)`: the names arrive first, as a tuple of symbols.
            ("NamedTuple", [Value::Tuple(names), values]) if kwargs.is_empty() => {
                Some(named_tuple(interp, names, values))
            }
            // `NamedTuple(itr)`: from `Symbol => value` pairs (a `Dict`, a vector of pairs),
            // as `(; itr...)` is.
            ("NamedTuple", []) if kwargs.is_empty() => Some(Ok(Value::named_tuple(Vec::new()))),
            ("NamedTuple", [pairs]) if kwargs.is_empty() => {
                Some(named_tuple_of_pairs(interp, pairs))
            }
            // `T(x)` for the type of numbers carrying derivatives: a number carrying
            // derivatives stays itself, a plain one is a constant of that kind (a `Float64`).
            (name, [x]) if crate::types::names_derivative_number(name) && kwargs.is_empty() => {
                Some(match x {
                    Value::Real(_) => Ok(x.clone()),
                    other => super::to_float(other, name).map(|c| {
                        super::ad::tracers::constant_tracer(name, c).unwrap_or(Value::Float(c))
                    }),
                })
            }
            // `Real(x)`, `Number(x)`: a number is already one.
            ("Real" | "Number", [x]) if x.is_number() && kwargs.is_empty() => Some(Ok(x.clone())),
            ("Integer", [x]) if kwargs.is_empty() => Some(integer(x)),
            // `UInt` names `Int64` (there are no unsigned integers); a negative number is not one.
            ("UInt" | "UInt64", [x]) if kwargs.is_empty() => {
                Some(integer(x).and_then(|n| match n {
                    Value::Int(i) if i < 0 => Err(fail(
                        ErrorKind::InexactError,
                        format!("check_sign_bit(UInt64, {i})"),
                    )),
                    other => Ok(other),
                }))
            }
            _ => None,
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The names of a named tuple, which must be symbols.
fn field_names(names: &[Value]) -> Result<Vec<difflab_syntax::Name>, Flow> {
    names
        .iter()
        .map(|n| match n {
            Value::Symbol(s) => Ok(*s),
            other => Err(fail(
                ErrorKind::TypeError,
                format!(
                    "NamedTuple names must be symbols, got a {}",
                    other.type_name()
                ),
            )),
        })
        .collect()
}

/// `NamedTuple(pairs)`: the named tuple of an iterator of `Symbol => value` pairs.
fn named_tuple_of_pairs(interp: &mut Interp, pairs: &Value) -> EvalResult {
    if let Value::NamedTuple(_) = pairs {
        return Ok(pairs.clone());
    }
    let (mut keys, mut values) = (Vec::new(), Vec::new());
    for item in interp.elements_of(pairs)? {
        let (key, value) = match (item.pair_parts(), &item) {
            (Some(parts), _) => parts,
            (None, Value::Tuple(kv)) if kv.len() == 2 => (kv[0].clone(), kv[1].clone()),
            (None, other) => {
                return Err(fail(
                    ErrorKind::ArgumentError,
                    format!(
                        "NamedTuple(itr) takes `Symbol => value` pairs, got a {}",
                        other.type_name()
                    ),
                ))
            }
        };
        keys.push(key);
        values.push(value);
    }
    let names = field_names(&keys)?;
    Ok(Value::named_tuple(names.into_iter().zip(values).collect()))
}

/// The named tuple of `names` (symbols) and `values` (a collection of as many values, or a
/// named tuple holding those names, taken in the order of `names`).
fn named_tuple(interp: &mut Interp, names: &[Value], values: &Value) -> EvalResult {
    let names = field_names(names)?;
    let values = match values {
        Value::NamedTuple(fields) => names
            .iter()
            .map(|n| {
                fields
                    .iter()
                    .find(|(k, _)| k == n)
                    .map(|(_, v)| v.clone())
                    .ok_or_else(|| fail(ErrorKind::KeyError, format!("key :{n} not found")))
            })
            .collect::<Result<Vec<_>, _>>()?,
        other => interp.elements_of(other)?,
    };
    if values.len() != names.len() {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!(
                "NamedTuple names and values must have matching lengths, got {} names and {} values",
                names.len(),
                values.len()
            ),
        ));
    }
    Ok(Value::named_tuple(names.into_iter().zip(values).collect()))
}

fn joinpath_(_: &mut Interp, args: Args) -> EvalResult {
    let mut path = std::path::PathBuf::new();
    for part in &args.pos {
        path.push(print_string(part));
    }
    Ok(Value::str(path.to_string_lossy()))
}

fn displaysize_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("displaysize", 0, 1)?;
    let (rows, cols) = crate::show::screen();
    Ok(Value::tuple(vec![
        Value::Int(rows as i64),
        Value::Int(cols as i64),
    ]))
}

fn tempdir_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("tempdir", 0, 0)?;
    Ok(Value::str(std::env::temp_dir().to_string_lossy()))
}

fn isfile_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("isfile", 1, 1)?;
    Ok(Value::Bool(
        std::path::Path::new(&print_string(&args.pos[0])).is_file(),
    ))
}

fn isdir_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("isdir", 1, 1)?;
    Ok(Value::Bool(
        std::path::Path::new(&print_string(&args.pos[0])).is_dir(),
    ))
}

fn flush_(_: &mut Interp, _: Args) -> EvalResult {
    Ok(Value::Nothing)
}

crate::builtins! {
    "println" => println_, false, "    println([io,] xs...)\n\nPrints the arguments (strings without quotes) and a newline; `io` may be `stdout` or `stderr`.\n\n```\njulia> println(\"x = \", 1.5)\nx = 1.5\n```";
    "print" => print_, false, "    print([io,] xs...)\n\nPrints the arguments without a newline.\n\n```\njulia> print(\"a\", 1); println()\na1\n```";
    "display" => display_, false, "    display(x)\n\nShows `x` with its richest rendering: a table as HTML and a plot as an image in a notebook; text in the terminal.\n\n```\njulia> display([1, 2])\n2-element Vector{Int64}:\n 1\n 2\n```";
    "show" => show_, false, "    show([io,] x)\n    show(io, \"text/plain\", x)\n\nWrites the compact representation of `x` (strings quoted); with the MIME type `\"text/plain\"`, the form the REPL displays.\n\n```\njulia> show(\"a\"); println()\n\"a\"\n\njulia> sprint(show, \"text/plain\", [1, 2])\n\"2-element Vector{Int64}:\\n 1\\n 2\"\n```";
    "string" => string_, false, "    string(xs...)\n\nThe arguments printed into one string.\n\n```\njulia> string(\"n = \", 3)\n\"n = 3\"\n```";
    "repr" => repr_, false, "    repr(x)\n    repr(\"text/plain\", x)\n\nThe compact representation of `x` as a string, or with the MIME type `\"text/plain\"` its display (as the REPL shows it).\n\n```\njulia> repr(\"a\")\n\"\\\"a\\\"\"\n\njulia> repr(\"text/plain\", 'a')\n\"'a': ASCII/Unicode U+0061 (category Ll: Letter, lowercase)\"\n```";
    "summary" => summary_, false, "    summary(x)\n\nA one-line description of `x`: its dimensions and type for arrays and ranges, the size of a `Dict` or `Set`, the type of anything else.\n\n```\njulia> summary([1.0, 2.0]), summary(zeros(2, 3)), summary(1:3)\n(\"2-element Vector{Float64}\", \"2×3 Matrix{Float64}\", \"3-element UnitRange{Int64}\")\n\njulia> summary(Dict(\"a\" => 1)), summary(1.5)\n(\"Dict{String, Int64} with 1 entry\", \"Float64\")\n```";
    "readline" => readline_, false, "    readline(; prompt=\"\")\n    readline(io; keep=false)\n\nReads a line typed by the user (the terminal, or the notebook's input box), or the next line of a file opened with `open`.\n\n```\njulia> name = readline();\n```";
    "clear_output" => clear_output_, false, "    clear_output(wait=false)\n\nClears the cell's output in a notebook, or the screen in the REPL.\n\n```\njulia> clear_output()\n```";
    "IOBuffer" => iobuffer_, false, "    IOBuffer()\n\nAn in-memory text stream: `print(io, …)` writes to it, `String(take!(io))` reads it back.\n\n```\njulia> io = IOBuffer(); print(io, \"a\", 1); String(take!(io))\n\"a1\"\n```";
    "sprint" => sprint_, false, "    sprint(f, args...)\n\nCalls `f(io, args...)` with an `IOBuffer` and returns what it wrote.\n\n```\njulia> sprint(show, [1, 2])\n\"[1, 2]\"\n```";
    "take!" => take_, false, "    take!(io::IOBuffer)\n\nThe text written to `io`, which is emptied.\n\n```\njulia> io = IOBuffer(); print(io, 42); take!(io)\n\"42\"\n```";
    "typeof" => typeof_, false, "    typeof(x)\n\nThe type of `x`.\n\n```\njulia> typeof(1.0)\nFloat64\n```";
    "joinpath" => joinpath_, false, "    joinpath(parts...)\n\nThe parts joined into one file path.\n\n```\njulia> joinpath(\"data\", \"m.mtx\")\n\"data/m.mtx\"\n```";
    "displaysize" => displaysize_, false, "    displaysize([io])\n\nThe `(rows, columns)` that matrices and plots are laid out for: the terminal's size in the REPL, `(24, 80)` elsewhere.\n\n```\njulia> displaysize()\n(24, 80)\n```";
    "tempdir" => tempdir_, false, "    tempdir()\n\nThe directory for temporary files.\n\n```\njulia> isdir(tempdir())\ntrue\n```";
    "include" => include_, false, "    include(path)\n\nEvaluates the file `path` at top level, as if its code were typed there: the variables and functions it defines stay defined; the result is its last value. A relative path is taken from the directory of the file that calls `include` (or from the working directory at the prompt).\n\n```\njulia> include(\"notebooks/acopf.dl\");\n\njulia> L, x0 = acopf_lagrangian(readmatpower(\"tests/fixtures/pglib/pglib_opf_case3_lmbd.m\")); length(x0)\n24\n```";
    "isdir" => isdir_, false, "    isdir(path)\n\nWhether `path` names an existing directory.\n\n```\njulia> isdir(tempdir())\ntrue\n```";
    "isfile" => isfile_, false, "    isfile(path)\n\nWhether `path` names an existing file.\n\n```\njulia> isfile(\"no-such-file\")\nfalse\n```";
    "flush" => flush_, false, "    flush(io)\n\nFlushes an output stream (output is always flushed here).\n\n```\njulia> flush(stdout)\n```";
}
