//! Strings: `uppercase`, `lowercase`, `split`, `join`, `replace`, `occursin`, `startswith`,
//! `endswith`, `strip`, `lpad`, `rpad`, `parse`.

use super::regex;
use super::{to_size, Args};
use crate::display::print_string;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::value::iterate::elements;
use crate::value::Value;
use std::borrow::Cow;

/// Argument `i` as text: a string, or a character where Julia takes either (a needle, a
/// separator, a prefix).
fn text<'a>(args: &'a Args, i: usize, name: &str) -> Result<Cow<'a, str>, Flow> {
    match args.pos.get(i) {
        Some(Value::Char(c)) => Ok(Cow::Owned(c.to_string())),
        _ => string_arg(args, i, name).map(Cow::Borrowed),
    }
}

/// Argument `i`, which must be a string.
pub(super) fn string_arg<'a>(args: &'a Args, i: usize, name: &str) -> Result<&'a str, Flow> {
    match args.pos.get(i) {
        Some(Value::Str(s)) => Ok(s.as_str()),
        Some(other) => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", other.type_name()),
        )),
        None => Err(fail(
            ErrorKind::MethodError,
            format!("{name} needs a string"),
        )),
    }
}

/// A character changed by `case` (one character when its case has one, as Julia's), or
/// every character of a string.
fn recased(args: &Args, name: &str, case: fn(&str) -> String) -> EvalResult {
    let changed = case(&text(args, 0, name)?);
    if let Some(Value::Char(c)) = args.pos.first() {
        let mut chars = changed.chars();
        return Ok(Value::Char(match (chars.next(), chars.next()) {
            (Some(one), None) => one,
            _ => *c,
        }));
    }
    Ok(Value::str(changed))
}

fn uppercase_(_: &mut Interp, args: Args) -> EvalResult {
    recased(&args, "uppercase", str::to_uppercase)
}

fn lowercase_(_: &mut Interp, args: Args) -> EvalResult {
    recased(&args, "lowercase", str::to_lowercase)
}

/// `titlecase(s)`: the first letter of each word upper case, the rest lower case.
fn titlecase_(_: &mut Interp, args: Args) -> EvalResult {
    recased(&args, "titlecase", |s| {
        let mut out = String::with_capacity(s.len());
        let mut word_start = true;
        for c in s.chars() {
            if c.is_alphabetic() {
                if word_start {
                    out.extend(c.to_uppercase());
                } else {
                    out.extend(c.to_lowercase());
                }
                word_start = false;
            } else {
                out.push(c);
                word_start = true;
            }
        }
        out
    })
}

/// `chop(s; head = 0, tail = 1)`: `s` without its first `head` and last `tail` characters.
fn chop_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("chop", 1, 1)?;
    args.keywords("chop", &["head", "tail"])?;
    let s = text(&args, 0, "chop")?;
    let count = |key: &str, default: usize| {
        args.kw(key)
            .map_or(Ok(default), |v| super::to_size(v, "chop"))
    };
    let (head, tail) = (count("head", 0)?, count("tail", 1)?);
    let n = s.chars().count();
    let kept: String = s
        .chars()
        .skip(head)
        .take(n.saturating_sub(head + tail))
        .collect();
    Ok(Value::str(kept))
}

/// `chomp(s)`: `s` without one trailing newline (`\n` or `\r\n`).
fn chomp_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("chomp", 1, 1)?;
    let s = text(&args, 0, "chomp")?;
    let trimmed = s
        .strip_suffix("\r\n")
        .or_else(|| s.strip_suffix('\n'))
        .unwrap_or(&s);
    Ok(Value::str(trimmed))
}

/// Which end(s) of a string `strip`, `lstrip` and `rstrip` trim.
#[derive(Clone, Copy, PartialEq)]
enum Ends {
    Both,
    Left,
    Right,
}

/// `strip(s[, chars])` and its one-sided forms: whitespace, or the characters given as a
/// character, a collection of them, or a predicate.
fn strip_ends(interp: &mut Interp, args: &Args, name: &str, ends: Ends) -> EvalResult {
    args.arity(name, 1, 2)?;
    let s = text(args, 0, name)?;
    let mut trimmed = |c: char| -> Result<bool, Flow> {
        match args.pos.get(1) {
            None => Ok(c.is_whitespace()),
            Some(Value::Char(d)) => Ok(c == *d),
            Some(f @ (Value::Function(_) | Value::Builtin(_))) => {
                super::predicate_holds(interp, f, &Value::Char(c))
            }
            Some(chars) => Ok(elements(chars)?
                .iter()
                .any(|d| matches!(d, Value::Char(d) if *d == c))),
        }
    };
    let mut start = 0;
    if ends != Ends::Right {
        start = s.len();
        for (k, c) in s.char_indices() {
            if !trimmed(c)? {
                start = k;
                break;
            }
        }
    }
    let mut end = s.len();
    if ends != Ends::Left {
        end = start;
        for (k, c) in s[start..].char_indices().rev() {
            if !trimmed(c)? {
                end = start + k + c.len_utf8();
                break;
            }
        }
    }
    Ok(Value::str(&s[start..end]))
}

fn strip_(interp: &mut Interp, args: Args) -> EvalResult {
    strip_ends(interp, &args, "strip", Ends::Both)
}

fn lstrip_(interp: &mut Interp, args: Args) -> EvalResult {
    strip_ends(interp, &args, "lstrip", Ends::Left)
}

fn rstrip_(interp: &mut Interp, args: Args) -> EvalResult {
    strip_ends(interp, &args, "rstrip", Ends::Right)
}

/// `join(xs[, sep[, last]])`: `last` goes between the last two elements.
fn join_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("join", 1, 3)?;
    let items = elements(&args.pos[0])?;
    for item in &items {
        interp.prepare_display(item)?;
    }
    let sep = args.pos.get(1).map(print_string).unwrap_or_default();
    let last = args.pos.get(2).map_or_else(|| sep.clone(), print_string);
    let mut joined = String::new();
    let mut poll = interp.poll();
    for (k, item) in items.iter().enumerate() {
        poll.tick()?;
        if k > 0 {
            push_checked(&mut joined, if k + 1 == items.len() { &last } else { &sep })?;
        }
        push_checked(&mut joined, &print_string(item))?;
    }
    Ok(Value::str(joined))
}

/// Appends `piece` to `text`, refusing with `OutOfMemoryError` a growth beyond the memory
/// limit before it is allocated (`join(A, A)` repeats a matrix's text millions of times).
fn push_checked(text: &mut String, piece: &str) -> Result<(), Flow> {
    let needed = text.len().saturating_add(piece.len());
    if needed > text.capacity() {
        let grown = needed.max(text.capacity().saturating_mul(2));
        difflab_ad::limits::reserve(grown as u64, &format!("a string of {grown} bytes"))?;
        text.reserve(grown - text.len());
    }
    text.push_str(piece);
    Ok(())
}

fn replace_(interp: &mut Interp, args: Args) -> EvalResult {
    if !matches!(args.pos.first(), Some(Value::Str(_) | Value::Char(_))) {
        return replace_elements(interp, &args);
    }
    super::splitting::replace_in_string(interp, &args)
}

/// `replace(v, old => new, ...)`: a copy of the collection `v` with each element equal to an
/// `old` replaced by its `new` (the first matching pair wins).
fn replace_elements(interp: &mut Interp, args: &Args) -> EvalResult {
    args.arity("replace", 2, usize::MAX)?;
    let pairs = args.pos[1..]
        .iter()
        .map(|p| {
            p.pair_parts()
                .ok_or_else(|| fail(ErrorKind::ArgumentError, "replace(v, old => new, ...)"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let shape = super::arrays::shape_of(&args.pos[0], "replace")?;
    let replaced: Vec<Value> = interp
        .elements_of(&args.pos[0])?
        .into_iter()
        .map(|x| {
            pairs
                .iter()
                .find(|(old, _)| crate::value::equality::values_equal(old, &x))
                .map_or(x, |(_, new)| new.clone())
        })
        .collect();
    crate::eval::collections::collect_values(interp, replaced, &shape)
}

fn occursin_(_: &mut Interp, args: Args) -> EvalResult {
    if args
        .pos
        .first()
        .is_some_and(|v| regex::as_regex(v).is_some())
    {
        return regex::occursin(&args, false);
    }
    Ok(Value::Bool(
        text(&args, 1, "occursin")?.contains(text(&args, 0, "occursin")?.as_ref()),
    ))
}

/// `contains(haystack, needle)`: `occursin(needle, haystack)`.
fn contains_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("contains", 2, 2)?;
    if regex::as_regex(&args.pos[1]).is_some() {
        return regex::occursin(&args, true);
    }
    Ok(Value::Bool(
        text(&args, 0, "contains")?.contains(text(&args, 1, "contains")?.as_ref()),
    ))
}

fn startswith_(_: &mut Interp, args: Args) -> EvalResult {
    if args
        .pos
        .get(1)
        .is_some_and(|v| regex::as_regex(v).is_some())
    {
        return regex::anchored(&args, false);
    }
    Ok(Value::Bool(
        text(&args, 0, "startswith")?.starts_with(text(&args, 1, "startswith")?.as_ref()),
    ))
}

fn endswith_(_: &mut Interp, args: Args) -> EvalResult {
    if args
        .pos
        .get(1)
        .is_some_and(|v| regex::as_regex(v).is_some())
    {
        return regex::anchored(&args, true);
    }
    Ok(Value::Bool(
        text(&args, 0, "endswith")?.ends_with(text(&args, 1, "endswith")?.as_ref()),
    ))
}

fn pad(args: &Args, left: bool) -> EvalResult {
    let name = if left { "lpad" } else { "rpad" };
    args.arity(name, 2, 3)?;
    let s = print_string(&args.pos[0]);
    let width = to_size(&args.pos[1], name)?;
    let fill = args
        .pos
        .get(2)
        .map(print_string)
        .unwrap_or_else(|| " ".into());
    let missing = width.saturating_sub(s.chars().count());
    difflab_ad::limits::reserve(
        (missing as u64).saturating_mul(fill.len() as u64),
        &format!("a padding of {missing} characters"),
    )?;
    let padding: String = fill.chars().cycle().take(missing).collect();
    Ok(Value::str(if left { padding + &s } else { s + &padding }))
}

fn lpad_(_: &mut Interp, args: Args) -> EvalResult {
    pad(&args, true)
}

fn rpad_(_: &mut Interp, args: Args) -> EvalResult {
    pad(&args, false)
}

fn parse_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("parse", 2, 2)?;
    args.keywords("parse", &["base"])?;
    if let Some(base) = args.kw("base") {
        return parse_in_base(&args, super::to_int(base, "parse")?);
    }
    let f = args.pos[0].clone();
    // `parse(Int, '7')` reads the digit; `Int('7')` would give its code point.
    let written = match &args.pos[1] {
        Value::Char(c) => Value::str(c.to_string()),
        other => other.clone(),
    };
    interp.call(&f, vec![written])
}

/// `parse(Int, s; base)`: an integer written in `base` (2 to 36).
fn parse_in_base(args: &Args, base: i64) -> EvalResult {
    let is_int = matches!(&args.pos[0], Value::Builtin(b) if matches!(b.name, "Int" | "Int64"));
    if !is_int {
        return Err(fail(
            ErrorKind::ArgumentError,
            "parse: `base` is for integer types (parse(Int, s; base = 16))",
        ));
    }
    let radix = u32::try_from(base)
        .ok()
        .filter(|b| (2..=36).contains(b))
        .ok_or_else(|| {
            fail(
                ErrorKind::ArgumentError,
                format!("invalid base: base must be 2 ≤ base ≤ 36, got {base}"),
            )
        })?;
    let s = text(args, 1, "parse")?;
    i64::from_str_radix(s.trim(), radix)
        .map(Value::Int)
        .map_err(|_| {
            fail(
                ErrorKind::ArgumentError,
                format!("invalid base {base} digits in \"{s}\""),
            )
        })
}

/// `tryparse(T, s)`: `parse(T, s)`, or `nothing` when `s` is not a `T`.
fn tryparse_(interp: &mut Interp, args: Args) -> EvalResult {
    match parse_(interp, args) {
        Err(crate::error::Flow::Error(e)) if e.kind == ErrorKind::ArgumentError => {
            Ok(Value::Nothing)
        }
        other => other,
    }
}

/// `String(x)`: a string unchanged, the text of a symbol, the UTF-8 text of a vector of
/// bytes (`take!` of a buffer gives its text already).
fn string_type(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("String", 1, 1)?;
    match &args.pos[0] {
        Value::Str(_) => Ok(args.pos[0].clone()),
        Value::Symbol(name) => Ok(Value::str(name.as_str().to_string())),
        Value::Char(c) => Ok(Value::str(c.to_string())),
        Value::List(items) if items.borrow().iter().all(|v| matches!(v, Value::Char(_))) => Ok(
            Value::str(items.borrow().iter().map(print_string).collect::<String>()),
        ),
        Value::Array(a) if a.borrow().eltype != crate::show::ElType::Float64 => {
            let bytes = a
                .borrow()
                .data
                .to_col_major()
                .into_iter()
                .map(|b| u8::try_from(b as i64))
                .collect::<Result<Vec<u8>, _>>()
                .map_err(|_| {
                    fail(
                        ErrorKind::InexactError,
                        "String: every element must be a byte (0 to 255)",
                    )
                })?;
            Ok(Value::str(String::from_utf8_lossy(&bytes).into_owned()))
        }
        other => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching String(::{}); use string(x) to print a value",
                other.type_name()
            ),
        )),
    }
}

fn symbol_(_: &mut Interp, args: Args) -> EvalResult {
    let s: String = args.pos.iter().map(print_string).collect();
    Ok(Value::Symbol(difflab_syntax::Name::new(&s)))
}

crate::builtins! {
    "String" => string_type, false, "    String(s)\n\nThe type of text, and its constructor: a string unchanged, the name of a symbol, or the UTF-8 text of a vector of bytes. Use `string(x...)` to print values into a string.\n\n```\njulia> String(:abc)\n\"abc\"\n\njulia> String([0x68, 0x69])\n\"hi\"\n\n```";
    "uppercase" => uppercase_, false, "    uppercase(s)\n\nThe string in upper case.\n\n```\njulia> uppercase(\"ad\")\n\"AD\"\n```";
    "lowercase" => lowercase_, false, "    lowercase(s)\n\nThe string in lower case.\n\n```\njulia> lowercase(\"AD\")\n\"ad\"\n```";
    "strip" => strip_, false, "    strip(s[, chars])\n\nThe string without leading and trailing whitespace, or without the characters `chars` (a character, a collection of them, or a predicate).\n\n```\njulia> strip(\"  a \")\n\"a\"\n\njulia> strip(\"xxaxx\", 'x'), strip(\"[1, 2]\", ['[', ']']), strip(\"007\", isdigit)\n(\"a\", \"1, 2\", \"\")\n```";
    "lstrip" => lstrip_, false, "    lstrip(s[, chars])\n\n`strip` at the start only.\n\n```\njulia> lstrip(\"  a \"), lstrip(\"00120\", '0')\n(\"a \", \"120\")\n```";
    "rstrip" => rstrip_, false, "    rstrip(s[, chars])\n\n`strip` at the end only.\n\n```\njulia> rstrip(\"  a \"), rstrip(\"1.500\", '0')\n(\"  a\", \"1.5\")\n```";
    "join" => join_, false, "    join(xs, [sep, [last]])\n\nThe elements printed and joined with `sep` (and `last` between the last two).\n\n```\njulia> join([1, 2, 3], \", \")\n\"1, 2, 3\"\n\njulia> join([\"a\", \"b\", \"c\"], \", \", \" and \")\n\"a, b and c\"\n```";
    "replace" => replace_, false, "    replace(s, old => new, …; [count])\n\n`s` with every `old` replaced by `new` (the first `count`), several pairs in one pass (the earliest match first). `old` is a string, a character, a collection of characters, a predicate on characters or a `Regex`; `new` a string, a character or a function of the matched text. With a `Regex` for `old`, `new` is a string taken literally, a substitution string `s\"…\"` whose `\\1`, `\\g<name>` stand for captures, or a function of the matched text: `replace(\"a1b22\", r\"\\d+\" => s\"<\\0>\")` is `\"a<1>b<22>\"`.\n\n```\njulia> replace(\"a-b\", \"-\" => \"+\")\n\"a+b\"\n```";
    "occursin" => occursin_, false, "    occursin(needle, haystack)\n\nWhether `needle` (a string, a character or a `Regex`) occurs in `haystack`.\n\n```\njulia> occursin(\"ff\", \"diff\")\ntrue\n```";
    "contains" => contains_, false, "    contains(haystack, needle)\n\nWhether `needle` (a string, a character or a `Regex`) occurs in `haystack`: `occursin(needle, haystack)`.\n\n```\njulia> contains(\"gradient\", \"rad\"), contains(\"x42\", r\"\\d\")\n(true, true)\n```";
    "startswith" => startswith_, false, "    startswith(s, prefix)\n\nWhether `s` starts with `prefix`.\n\n```\njulia> startswith(\"gradient\", \"grad\")\ntrue\n```";
    "endswith" => endswith_, false, "    endswith(s, suffix)\n\nWhether `s` ends with `suffix`.\n\n```\njulia> endswith(\"file.mtx\", \".mtx\")\ntrue\n```";
    "lpad" => lpad_, false, "    lpad(s, n, [fill])\n\n`s` printed and padded on the left to `n` characters.\n\n```\njulia> lpad(7, 3, \"0\")\n\"007\"\n```";
    "rpad" => rpad_, false, "    rpad(s, n, [fill])\n\n`s` printed and padded on the right to `n` characters.\n\n```\njulia> rpad(\"a\", 3) * \"|\"\n\"a  |\"\n```";
    "tryparse" => tryparse_, false, "    tryparse(T, s)\n\nThe number of type `T` written in the string `s`, or `nothing` when it is not one.\n\n```\njulia> tryparse(Int, \"42\"), tryparse(Int, \"4x\"), tryparse(Float64, \"1e3\")\n(42, nothing, 1000.0)\n```";
    "titlecase" => titlecase_, false, "    titlecase(s)\n\nThe string with the first letter of each word upper case and the others lower case.\n\n```\njulia> titlecase(\"the quick FOX\")\n\"The Quick Fox\"\n```";
    "chop" => chop_, false, "    chop(s; head = 0, tail = 1)\n\nThe string without its first `head` and last `tail` characters.\n\n```\njulia> chop(\"abcd\"), chop(\"abcd\"; head = 1, tail = 2)\n(\"abc\", \"b\")\n```";
    "chomp" => chomp_, false, "    chomp(s)\n\nThe string without one trailing newline.\n\n```\njulia> chomp(\"line\\n\")\n\"line\"\n```";
    "parse" => parse_, false, "    parse(T, s)\n\nThe number written in `s`, as type `T`.\n\n```\njulia> parse(Float64, \"2.5\")\n2.5\n```";
    "Symbol" => symbol_, false, "    Symbol(s)\n\nThe symbol with the given name.\n\n```\njulia> Symbol(\"central\")\n:central\n```";
}

#[cfg(test)]
mod tests {
    use super::push_checked;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    /// A joined text stops growing at the memory limit with an error, never by aborting.
    #[test]
    fn a_joined_text_grows_within_the_memory_limit() {
        let limit = 1 << 20;
        difflab_ad::limits::install(limit, Arc::new(AtomicBool::new(false)));
        let piece = "x".repeat(1000);
        let mut text = String::new();
        let appended = (0..10_000).take_while(|_| push_checked(&mut text, &piece).is_ok());
        assert!(appended.count() < 10_000);
        assert!(text.capacity() <= limit && text.len() > limit / 4);
    }
}
