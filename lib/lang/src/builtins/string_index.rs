//! Strings indexed as Julia indexes them: by byte (code unit), each character at the index of
//! its first byte, so `"héllo"[2] == 'é'` and `"héllo"[4] == 'l'`, while an index inside a
//! multi-byte character (`"héllo"[3]`) is a `StringIndexError`. `length` counts characters;
//! `firstindex`, `lastindex`, `nextind`, `prevind`, `thisind` and `eachindex` walk the valid
//! indices, and `findfirst`/`findall` in a string give them.

use super::{to_int, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::Value;

/// The index of the last character (0 for the empty string): what `end` is in `s[end]`.
pub fn last_index(s: &str) -> usize {
    s.char_indices().next_back().map_or(0, |(k, _)| k + 1)
}

/// The index of each character, in order.
pub fn char_starts(s: &str) -> Vec<f64> {
    s.char_indices().map(|(k, _)| (k + 1) as f64).collect()
}

/// The character index `k` (0-based, counting characters) as a string index.
pub fn byte_index_of_char(s: &str, k: usize) -> usize {
    s.char_indices().nth(k).map_or(s.len() + 1, |(b, _)| b + 1)
}

fn out_of_bounds(s: &str, i: i64) -> Flow {
    fail(
        ErrorKind::BoundsError,
        format!(
            "attempt to access {}-codeunit String at index [{i}]",
            s.len()
        ),
    )
}

/// Julia's message for an index inside a character, naming the valid indices around it.
fn inside_character(s: &str, i: usize) -> Flow {
    let before = (1..i)
        .rev()
        .find(|&b| s.is_char_boundary(b - 1))
        .unwrap_or(1);
    let after = (i + 1..=s.len()).find(|&b| s.is_char_boundary(b - 1));
    let show = |b: usize| {
        let c = s[b - 1..].chars().next().unwrap_or_default();
        format!("[{b}]=>{}", super::chars::repr(c))
    };
    let nearby = match after {
        Some(a) => format!("{}, {}", show(before), show(a)),
        None => show(before),
    };
    fail(
        ErrorKind::StringIndexError,
        format!("invalid index [{i}], valid nearby indices {nearby}",),
    )
}

/// The byte offset of the character at index `i` (1-based), checked.
fn start_of(s: &str, i: i64) -> Result<usize, Flow> {
    let k = usize::try_from(i)
        .ok()
        .filter(|&k| (1..=s.len()).contains(&k))
        .ok_or_else(|| out_of_bounds(s, i))?;
    if !s.is_char_boundary(k - 1) {
        return Err(inside_character(s, k));
    }
    Ok(k - 1)
}

/// The character at index `i`.
fn char_at(s: &str, i: i64) -> Result<char, Flow> {
    let start = start_of(s, i)?;
    Ok(s[start..].chars().next().unwrap_or_default())
}

/// `s[index]`: a character for one index, the substring for a unit range (from the character
/// at its first index through the one at its last), the characters at a vector of indices.
pub fn index(s: &str, index: &Value) -> EvalResult {
    match index {
        Value::Range(r) if r.is_int && r.step == 1.0 => {
            if r.len == 0 {
                return Ok(Value::str(""));
            }
            let from = start_of(s, r.start as i64)?;
            let last = start_of(s, r.last() as i64)?;
            let through = last + s[last..].chars().next().map_or(0, char::len_utf8);
            Ok(Value::str(&s[from..through]))
        }
        Value::Int(_) | Value::Bool(_) | Value::Float(_) => {
            char_at(s, to_int(index, "getindex")?).map(Value::Char)
        }
        many => {
            let picked = crate::value::iterate::elements(many)?
                .iter()
                .map(|i| char_at(s, to_int(i, "getindex")?))
                .collect::<Result<String, Flow>>()?;
            Ok(Value::str(picked))
        }
    }
}

fn firstindex_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("firstindex", 1, 1)?;
    Ok(Value::Int(1))
}

fn lastindex_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("lastindex", 1, 2)?;
    if let Value::Str(s) = &args.pos[0] {
        return Ok(Value::Int(last_index(s) as i64));
    }
    let shape = super::arrays::shape_of(&args.pos[0], "lastindex")?;
    Ok(Value::Int(match args.pos.get(1) {
        Some(d) => {
            let d = to_int(d, "lastindex")?;
            usize::try_from(d - 1)
                .ok()
                .map_or(1, |k| shape.get(k).copied().unwrap_or(1)) as i64
        }
        None => shape.iter().product::<usize>() as i64,
    }))
}

/// The index `n` characters after (`forward`) or before index `i`; stepping off either end
/// gives the index just past it, as Julia's `nextind`/`prevind`.
fn step(args: &Args, name: &str, forward: bool) -> EvalResult {
    args.arity(name, 2, 3)?;
    let s = super::strings::string_arg(args, 0, name)?;
    let mut i = to_int(&args.pos[1], name)?;
    let n = args
        .pos
        .get(2)
        .map(|v| to_int(v, name))
        .transpose()?
        .unwrap_or(1);
    let len = s.len() as i64;
    if i < 0 || i > len + 1 || (forward && i > len) || (!forward && i < 1) {
        return Err(out_of_bounds(s, i));
    }
    for _ in 0..n.max(0) {
        i = if forward {
            (i + 1..=len)
                .find(|&b| s.is_char_boundary(b as usize - 1))
                .unwrap_or(len + 1)
        } else {
            (1..i)
                .rev()
                .find(|&b| s.is_char_boundary(b as usize - 1))
                .unwrap_or(0)
        };
        if i == 0 || i == len + 1 {
            break;
        }
    }
    Ok(Value::Int(i))
}

fn nextind_(_: &mut Interp, args: Args) -> EvalResult {
    step(&args, "nextind", true)
}

fn prevind_(_: &mut Interp, args: Args) -> EvalResult {
    step(&args, "prevind", false)
}

fn thisind_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("thisind", 2, 2)?;
    let s = super::strings::string_arg(&args, 0, "thisind")?;
    let i = to_int(&args.pos[1], "thisind")?;
    if i < 0 || i > s.len() as i64 + 1 {
        return Err(out_of_bounds(s, i));
    }
    let start = (1..=i.min(s.len() as i64))
        .rev()
        .find(|&b| s.is_char_boundary(b as usize - 1))
        .unwrap_or(i);
    Ok(Value::Int(start))
}

/// `eachindex(s)`: the index of each character.
pub fn eachindex(s: &str) -> Value {
    let starts = char_starts(s);
    let n = starts.len();
    super::array(ElType::Int64, &[n], starts)
}

crate::builtins! {
    "firstindex" => firstindex_, false, "    firstindex(x)\n\nThe first index of a collection or string: 1.\n\n```\njulia> firstindex(\"abc\")\n1\n```";
    "lastindex" => lastindex_, false, "    lastindex(x, [d])\n\nThe last index of a collection (along dimension `d`), or of a string: the index of its last character, which is its byte length for ASCII text.\n\n```\njulia> lastindex(\"héllo\"), length(\"héllo\")\n(6, 5)\n```";
    "nextind" => nextind_, false, "    nextind(s, i, [n])\n\nThe index of the character after the one at index `i` of the string `s` (`n` characters on); past the end, `ncodeunits(s) + 1`.\n\n```\njulia> nextind(\"héllo\", 2)\n4\n```";
    "prevind" => prevind_, false, "    prevind(s, i, [n])\n\nThe index of the character before index `i` of the string `s` (`n` characters back); before the start, 0.\n\n```\njulia> prevind(\"héllo\", 4)\n2\n```";
    "thisind" => thisind_, false, "    thisind(s, i)\n\nThe index of the character of `s` that byte `i` belongs to.\n\n```\njulia> thisind(\"héllo\", 3)\n2\n```";
}
