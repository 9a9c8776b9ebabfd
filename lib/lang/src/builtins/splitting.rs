//! Patterns in strings as Julia's `split` and `replace` take them: a string, a character, a
//! collection of characters, a predicate on characters or a `Regex`. `split` (whitespace by
//! default, with the `limit` and `keepempty` keywords) and `replace` of strings (several
//! `old => new` pairs in one pass, `count`) live here.

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::value::Value;

/// Where the separators are: each call gives the byte span of the next one at or after a
/// byte offset.
type FindNext<'a> = Box<dyn FnMut(&mut Interp, usize) -> Result<Option<(usize, usize)>, Flow> + 'a>;

/// A test of one character.
type CharTest<'a> = Box<dyn Fn(&mut Interp, char) -> Result<bool, Flow> + 'a>;

/// The finder of a pattern (`None`: whitespace).
fn finder<'a>(text: &'a str, sep: Option<&'a Value>) -> Result<FindNext<'a>, Flow> {
    let by_char = |test: CharTest<'a>| -> FindNext<'a> {
        Box::new(move |interp, from| {
            for (p, c) in text[from..].char_indices() {
                if test(interp, c)? {
                    return Ok(Some((from + p, from + p + c.len_utf8())));
                }
            }
            Ok(None)
        })
    };
    Ok(match sep {
        None => by_char(Box::new(|_, c| Ok(c.is_whitespace()))),
        Some(v) if super::regex::as_regex(v).is_some() => {
            let r = super::regex::as_regex(v).expect("checked");
            Box::new(move |_, from| Ok(r.find_at(text, from)))
        }
        Some(Value::Char(c)) => {
            let c = *c;
            by_char(Box::new(move |_, x| Ok(x == c)))
        }
        Some(Value::Str(s)) => Box::new(move |_, from| {
            Ok(text[from..]
                .find(s.as_str())
                .map(|p| (from + p, from + p + s.len())))
        }),
        Some(f @ (Value::Function(_) | Value::Builtin(_) | Value::Struct(_))) => {
            by_char(Box::new(move |interp, c| {
                super::predicate_holds(interp, f, &Value::Char(c))
            }))
        }
        Some(collection) => {
            let chars = crate::value::iterate::elements(collection)?
                .into_iter()
                .map(|v| match v {
                    Value::Char(c) => Ok(c),
                    other => Err(fail(
                        ErrorKind::MethodError,
                        format!(
                            "split: the separators must be characters, got a {}",
                            other.type_name()
                        ),
                    )),
                })
                .collect::<Result<Vec<char>, _>>()?;
            by_char(Box::new(move |_, c| Ok(chars.contains(&c))))
        }
    })
}

/// The pieces of `text` between separators, at most `limit` of them (`0`: any number), empty
/// ones only when `keepempty`; an empty separator splits between characters.
fn pieces(
    interp: &mut Interp,
    text: &str,
    mut find: FindNext<'_>,
    limit: usize,
    keepempty: bool,
) -> Result<Vec<String>, Flow> {
    let mut poll = interp.poll();
    let mut out: Vec<String> = Vec::new();
    let mut start = 0;
    let mut next = find(interp, 0)?;
    while let Some((j, mut k)) = next {
        if j >= text.len() || (limit > 0 && out.len() + 1 == limit) {
            break;
        }
        poll.tick()?;
        if start < k {
            if keepempty || start < j {
                interp.check_bytes((j - start) as u64, "a string")?;
                out.push(text[start..j].to_string());
            }
            start = k;
        }
        if k <= j {
            // An empty separator: look again after the next character.
            k = j + text[j..].chars().next().map_or(1, char::len_utf8);
        }
        next = find(interp, k)?;
    }
    if keepempty || start < text.len() {
        out.push(text[start..].to_string());
    }
    Ok(out)
}

fn split_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("split", 1, 2)?;
    args.keywords("split", &["limit", "keepempty"])?;
    let text = super::chars::text_of(&args.pos[0]).ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("no method matching split(::{})", args.pos[0].type_name()),
        )
    })?;
    let limit = match args.kw("limit") {
        Some(v) => super::to_size(v, "split")?,
        None => 0,
    };
    // Julia keeps empty pieces by default only when a separator is given.
    let keepempty = match args.kw("keepempty") {
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(fail(
                ErrorKind::TypeError,
                format!("keepempty must be a Bool, got a {}", other.type_name()),
            ))
        }
        None => args.pos.len() == 2,
    };
    let find = finder(&text, args.pos.get(1))?;
    let parts = pieces(interp, &text, find, limit, keepempty)?;
    Ok(Value::declared_list(
        crate::types::Type::Prim(crate::types::Prim::String),
        parts.into_iter().map(Value::str).collect(),
    ))
}

/// `replace(s, old => new, …; count)` of a string: every match of an `old` (the earliest
/// first, the first pair when two start together) replaced by its `new`, a string, a
/// character or a function of the matched text; a single `Regex` pattern also takes
/// substitution strings.
pub fn replace_in_string(interp: &mut Interp, args: &Args) -> EvalResult {
    args.arity("replace", 2, usize::MAX)?;
    args.keywords("replace", &["count"])?;
    let text = super::chars::text_of(&args.pos[0]).expect("a string or a character");
    let limit = match args.kw("count") {
        Some(v) => super::to_size(v, "replace")?,
        None => usize::MAX,
    };
    let pairs = args.pos[1..]
        .iter()
        .map(|p| {
            p.pair_parts()
                .ok_or_else(|| fail(ErrorKind::ArgumentError, "replace(s, old => new, …)"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let [(old, new)] = &pairs[..] {
        if let Some(r) = super::regex::as_regex(old) {
            return super::regex::replace(interp, &text, r, new, limit);
        }
    }
    let mut finders = pairs
        .iter()
        .map(|(old, _)| finder(&text, Some(old)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut poll = interp.poll();
    let mut out = String::with_capacity(text.len());
    let (mut pos, mut done) = (0, 0);
    while done < limit && pos <= text.len() {
        poll.tick()?;
        let mut earliest: Option<(usize, usize, usize)> = None;
        for (which, find) in finders.iter_mut().enumerate() {
            if let Some((j, k)) = find(interp, pos)? {
                if earliest.is_none_or(|(e, _, _)| j < e) {
                    earliest = Some((j, k, which));
                }
            }
        }
        let Some((j, k, which)) = earliest else { break };
        out.push_str(&text[pos..j]);
        let replacement = match &pairs[which].1 {
            new @ (Value::Str(_) | Value::Char(_)) => crate::display::print_string(new),
            f => {
                let matched = Value::str(&text[j..k]);
                crate::display::print_string(&interp.call(f, vec![matched])?)
            }
        };
        interp.check_bytes((out.len() + replacement.len()) as u64, "a string")?;
        out.push_str(&replacement);
        done += 1;
        pos = k;
        if k == j {
            // An empty match: keep the next character and look after it.
            match text[j..].chars().next() {
                Some(c) => {
                    out.push(c);
                    pos += c.len_utf8();
                }
                None => {
                    pos = text.len() + 1;
                }
            }
        }
    }
    if pos <= text.len() {
        out.push_str(&text[pos..]);
    }
    Ok(Value::str(out))
}

crate::builtins! {
    "split" => split_, false, "    split(s, [sep]; limit = 0, keepempty)\n\nThe pieces of `s` between separators: `sep` is a string, a character, a collection of characters, a predicate on characters or a `Regex` (whitespace by default). At most `limit` pieces (the last holds the rest); empty pieces are kept when a separator is given, unless `keepempty = false`.\n\n```\njulia> split(\"a b\")\n2-element Vector{String}:\n \"a\"\n \"b\"\n\njulia> split(\"a,b,,c\", \",\"; keepempty = false), split(\"a,b;c\", [',', ';']), split(\"k=v=w\", '='; limit = 2)\n([\"a\", \"b\", \"c\"], [\"a\", \"b\", \"c\"], [\"k\", \"v=w\"])\n```";
}
