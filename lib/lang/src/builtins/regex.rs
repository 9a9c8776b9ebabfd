//! Regular expressions as Julia has them: `r"…"` literals with flags (`i`, `m`, `s`, `x`) and
//! `Regex(pattern, flags)`, `match` and `eachmatch` giving `RegexMatch`es (`m.match`,
//! `m.captures`, `m.offset`, `m[1]`, `m[:name]`), and the string functions that take a regex
//! where they take a string: `occursin`, `startswith`, `endswith`, `replace` (with `s"\1"`
//! substitution strings or a function), `split`, `findfirst`, `findall`, `count`, `contains`.
//! Also the other string macros: `raw"…"` and `s"…"`.
//!
//! Patterns are the `regex` crate's syntax, which is Perl's without look-around and
//! back-references (Julia uses PCRE): such a pattern is an `ArgumentError` saying so. Offsets
//! are byte indices from 1, as Julia's string indices are.

use super::chars::text_of;
use super::{to_int, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::Value;
use difflab_syntax::Name;
use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;

/// A compiled regular expression with the pattern and flags it was written with.
pub struct RegexValue {
    regex: regex::Regex,
    pattern: String,
    flags: String,
}

impl Object for RegexValue {
    fn type_name(&self) -> String {
        "Regex".into()
    }

    fn show(&self) -> String {
        format!("r\"{}\"{}", self.pattern.replace('"', "\\\""), self.flags)
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl RegexValue {
    /// The byte span of the first match starting at or after byte `from`.
    pub fn find_at(&self, text: &str, from: usize) -> Option<(usize, usize)> {
        self.regex.find_at(text, from).map(|m| (m.start(), m.end()))
    }
}

/// The regex `v` is, if it is one.
pub fn as_regex(v: &Value) -> Option<&RegexValue> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<RegexValue>(),
        _ => None,
    }
}

thread_local! {
    /// Literals compiled so far, and those that failed: a `r"…"` in a loop is compiled once.
    static COMPILED: RefCell<HashMap<(String, String), Result<Value, String>>> =
        RefCell::new(HashMap::new());
}

/// The largest count PCRE accepts in a `{n}` or `{n,m}` quantifier.
const MAX_REPEAT: u64 = 65535;

/// The longest pattern accepted, in bytes. PCRE as Julia builds it addresses its compiled
/// program with 16-bit offsets, so longer patterns are too large there as well; the regex
/// engine would parse a pattern of 10⁷ characters for seconds before its size limit applies.
const MAX_PATTERN_BYTES: usize = 1 << 16;

/// The byte offset after a `{…}` quantifier of `pattern` whose count exceeds PCRE's limit, if
/// there is one (escapes and character classes skipped). The regex engine would expand such a
/// count into a program of millions of states before refusing it, without answering an
/// interrupt; PCRE refuses it at once.
fn oversized_quantifier(pattern: &str) -> Option<usize> {
    let bytes = pattern.as_bytes();
    let mut in_class = false;
    let mut k = 0;
    while k < bytes.len() {
        match bytes[k] {
            b'\\' => k += 1,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'{' if !in_class => {
                let mut count: u64 = 0;
                let mut j = k + 1;
                while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == b',') {
                    count = if bytes[j] == b',' {
                        0
                    } else {
                        (count * 10 + u64::from(bytes[j] - b'0')).min(u64::MAX / 100)
                    };
                    if count > MAX_REPEAT {
                        return Some(j + 1);
                    }
                    j += 1;
                }
            }
            _ => {}
        }
        k += 1;
    }
    None
}

/// Literals kept compiled at most.
const MAX_CACHED: usize = 1024;

/// The regex of `pattern` with Julia's `flags`.
fn compile(pattern: &str, flags: &str) -> EvalResult {
    let key = (pattern.to_string(), flags.to_string());
    if let Some(v) = COMPILED.with(|c| c.borrow().get(&key).cloned()) {
        return v.map_err(|message| fail(ErrorKind::ArgumentError, message));
    }
    let compiled = build(pattern, flags);
    COMPILED.with(|c| {
        let mut cache = c.borrow_mut();
        if cache.len() >= MAX_CACHED {
            cache.clear();
        }
        cache.insert(key, compiled.clone());
    });
    compiled.map_err(|message| fail(ErrorKind::ArgumentError, message))
}

/// The regex, or the message of the `ArgumentError` that refuses it.
fn build(pattern: &str, flags: &str) -> Result<Value, String> {
    if pattern.len() > MAX_PATTERN_BYTES {
        return Err(format!(
            "invalid regex of {} bytes: regular expression is too large (at most {MAX_PATTERN_BYTES})",
            pattern.len()
        ));
    }
    if let Some(offset) = oversized_quantifier(pattern) {
        return Err(format!("invalid regex r\"{pattern}\": number too big in {{}} quantifier at offset {offset} (at most {MAX_REPEAT})"));
    }
    let mut builder = regex::RegexBuilder::new(pattern);
    for flag in flags.chars() {
        match flag {
            'i' => builder.case_insensitive(true),
            'm' => builder.multi_line(true),
            's' => builder.dot_matches_new_line(true),
            'x' => builder.ignore_whitespace(true),
            other => {
                return Err(format!(
                    "invalid regex flag: {other} (the flags are i, m, s and x)"
                ))
            }
        };
    }
    // Patterns of pasted code are small; this bounds what a hostile one may build (and so
    // the time, about 20 ms, that building it may keep an interrupt waiting).
    builder.size_limit(1 << 22);
    let regex = builder.build().map_err(|e| {
        let message = match e {
            regex::Error::Syntax(text) if text.contains("look-around") || text.contains("backreferences") => {
                format!("{text}\n(difflab's regular expressions have no look-around or back-references, which Julia's PCRE has)")
            }
            other => other.to_string(),
        };
        format!("invalid regex r\"{pattern}\": {message}")
    })?;
    Ok(Value::object(RegexValue {
        regex,
        pattern: pattern.into(),
        flags: flags.into(),
    }))
}

/// A substitution string `s"…"`: in `replace`, `\1`, `\g<name>` and `\0` stand for captures.
struct Substitution(String);

impl Object for Substitution {
    fn type_name(&self) -> String {
        "SubstitutionString{String}".into()
    }

    fn show(&self) -> String {
        format!("s\"{}\"", self.0)
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The value of a string macro literal: `r"…"flags`, `raw"…"`, `s"…"`, `v"…"`, `MIME"…"`.
pub fn string_literal(prefix: Name, text: &str, flags: &str) -> EvalResult {
    let no_flags = || match flags {
        "" => Ok(()),
        _ => Err(fail(
            ErrorKind::ArgumentError,
            format!("{prefix}\"…\" takes no flags, got {flags}"),
        )),
    };
    match prefix.as_str() {
        "r" => compile(text, flags),
        "raw" => no_flags().map(|()| Value::str(text)),
        "v" => no_flags().and_then(|()| super::versions::literal(text)),
        "s" => no_flags().map(|()| Value::object(Substitution(text.into()))),
        "MIME" => no_flags().map(|()| super::mime::mime_type(text)),
        other => Err(fail(
            ErrorKind::UndefVarError,
            format!("macro `@{other}_str` not defined"),
        )),
    }
}

/// One match: the matched text, its captures, where they start.
struct RegexMatch {
    matched: String,
    /// Each group's text, `None` when it did not take part.
    captures: Vec<Option<String>>,
    /// 1-based byte offsets of the match and of each capture (0 for a missing one).
    offset: usize,
    offsets: Vec<usize>,
    names: Vec<Option<String>>,
    regex: Value,
}

impl RegexMatch {
    fn of(caps: &regex::Captures, regex: &Value, names: &[Option<String>]) -> RegexMatch {
        let whole = caps.get(0).expect("group 0 is the match");
        let groups: Vec<Option<regex::Match>> = caps.iter().skip(1).collect();
        RegexMatch {
            matched: whole.as_str().into(),
            captures: groups
                .iter()
                .map(|g| g.map(|m| m.as_str().into()))
                .collect(),
            offset: whole.start() + 1,
            offsets: groups
                .iter()
                .map(|g| g.map_or(0, |m| m.start() + 1))
                .collect(),
            names: names.to_vec(),
            regex: regex.clone(),
        }
    }

    fn capture(&self, k: usize) -> Value {
        self.captures[k].clone().map_or(Value::Nothing, Value::str)
    }
}

impl Object for RegexMatch {
    fn type_name(&self) -> String {
        "RegexMatch".into()
    }

    fn show(&self) -> String {
        let groups: String = self
            .captures
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let name = self.names[k].clone().unwrap_or_else(|| (k + 1).to_string());
                let value = c.as_ref().map_or("nothing".into(), |c| format!("{c:?}"));
                format!(", {name}={value}")
            })
            .collect();
        format!("RegexMatch({:?}{groups})", self.matched)
    }

    fn field(&self, name: &str) -> Option<Value> {
        Some(match name {
            "match" => Value::str(&self.matched),
            "captures" => list((0..self.captures.len()).map(|k| self.capture(k)).collect()),
            "offset" => Value::Int(self.offset as i64),
            "offsets" => list(self.offsets.iter().map(|&o| Value::Int(o as i64)).collect()),
            "regex" => self.regex.clone(),
            _ => return None,
        })
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["match", "captures", "offset", "offsets", "regex"]
    }

    fn elements(&self) -> Option<Vec<Value>> {
        Some((0..self.captures.len()).map(|k| self.capture(k)).collect())
    }

    fn get_index(&self, key: &Value) -> Option<Value> {
        let key = match key {
            Value::Symbol(s) => s.as_str().to_string(),
            Value::Str(s) => s.to_string(),
            _ => return None,
        };
        let k = self.names.iter().position(|n| n.as_deref() == Some(&key))?;
        Some(self.capture(k))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn list(items: Vec<Value>) -> Value {
    Value::list(items)
}

/// Whether `regex` (a `Regex` value; anything else never matches) matches in `text`.
pub fn is_match(regex: &Value, text: &str) -> bool {
    as_regex(regex).is_some_and(|r| r.regex.is_match(text))
}

fn group_names(r: &RegexValue) -> Vec<Option<String>> {
    r.regex
        .capture_names()
        .skip(1)
        .map(|n| n.map(str::to_string))
        .collect()
}

/// The regex and the string of `(regex, string)` arguments at `positions`.
fn regex_and_text<'a>(
    args: &'a Args,
    name: &str,
    (r, s): (usize, usize),
) -> Result<(&'a Value, &'a RegexValue, std::borrow::Cow<'a, str>), Flow> {
    let wrong = || {
        fail(
            ErrorKind::MethodError,
            format!("{name} takes a Regex and a String"),
        )
    };
    let regex_value = args.pos.get(r).ok_or_else(wrong)?;
    let regex = as_regex(regex_value).ok_or_else(wrong)?;
    let text = args.pos.get(s).and_then(text_of).ok_or_else(wrong)?;
    Ok((regex_value, regex, text))
}

/// A 1-based byte position argument, as a 0-based start on a character boundary.
fn start_at(text: &str, v: Option<&Value>, name: &str) -> Result<usize, Flow> {
    let Some(v) = v else { return Ok(0) };
    let k = to_int(v, name)?;
    let start = usize::try_from(k - 1).ok().filter(|&s| s <= text.len());
    match start {
        Some(s) if text.is_char_boundary(s) => Ok(s),
        _ => Err(fail(
            ErrorKind::BoundsError,
            format!(
                "{name}: index {k} is not a character boundary of a {}-byte string",
                text.len()
            ),
        )),
    }
}

fn regex_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Regex", 1, 2)?;
    let pattern = text_of(&args.pos[0])
        .ok_or_else(|| fail(ErrorKind::MethodError, "Regex takes a pattern string"))?;
    let flags = match args.pos.get(1) {
        Some(f) => text_of(f)
            .ok_or_else(|| fail(ErrorKind::MethodError, "Regex's flags are a string"))?
            .into_owned(),
        None => String::new(),
    };
    compile(&pattern, &flags)
}

fn match_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("match", 2, 3)?;
    let (value, r, text) = regex_and_text(&args, "match", (0, 1))?;
    let start = start_at(&text, args.pos.get(2), "match")?;
    Ok(match r.regex.captures_at(&text, start) {
        Some(caps) => Value::object(RegexMatch::of(&caps, value, &group_names(r))),
        None => Value::Nothing,
    })
}

fn eachmatch_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("eachmatch", 2, 2)?;
    args.keywords("eachmatch", &["overlap"])?;
    let overlap = args.flag("overlap", false)?;
    let (value, r, text) = regex_and_text(&args, "eachmatch", (0, 1))?;
    let names = group_names(r);
    let mut found = Vec::new();
    let mut start = 0;
    while start <= text.len() {
        let Some(caps) = r.regex.captures_at(&text, start) else {
            break;
        };
        let whole = caps.get(0).expect("group 0 is the match");
        found.push(Value::object(RegexMatch::of(&caps, value, &names)));
        interp.check_alloc(found.len())?;
        // Next search: after the match, or (overlapping, or after an empty match) one
        // character past its start.
        start = if overlap || whole.is_empty() {
            let from = whole.start();
            from + text[from..].chars().next().map_or(1, char::len_utf8)
        } else {
            whole.end()
        };
    }
    Ok(list(found))
}

/// `occursin(r, s)`, and `contains(s, r)` with `swapped`.
pub fn occursin(args: &Args, swapped: bool) -> EvalResult {
    let (name, at) = if swapped {
        ("contains", (1, 0))
    } else {
        ("occursin", (0, 1))
    };
    let (_, r, text) = regex_and_text(args, name, at)?;
    Ok(Value::Bool(r.regex.is_match(&text)))
}

/// `startswith(s, r)` and `endswith(s, r)`: whether `r` matches at the start (or end) of `s`.
pub fn anchored(args: &Args, at_end: bool) -> EvalResult {
    let name = if at_end { "endswith" } else { "startswith" };
    let (_, r, text) = regex_and_text(args, name, (1, 0))?;
    let pattern = if at_end {
        format!("(?:{})\\z", r.pattern)
    } else {
        format!("\\A(?:{})", r.pattern)
    };
    let anchored = compile(&pattern, &r.flags)?;
    let anchored = as_regex(&anchored).expect("compile makes a regex");
    Ok(Value::Bool(anchored.regex.is_match(&text)))
}

/// The 1-based range of bytes a match spans, as Julia's `findfirst` gives it: from its first
/// byte to the first byte of its last character.
fn byte_range(text: &str, m: &regex::Match) -> EvalResult {
    byte_span(text, m.start(), m.end())
}

/// The string indices (a range, Julia's) of the text at bytes `start..end`: from its first
/// character's index to its last character's; `start+1:start` when empty.
pub fn byte_span(text: &str, start: usize, end: usize) -> EvalResult {
    let last = text[start..end]
        .char_indices()
        .last()
        .map_or(start, |(k, _)| start + k);
    let stop = if start == end { start } else { last + 1 };
    crate::builtins::value_operators::make_range(
        &Value::Int(start as i64 + 1),
        None,
        &Value::Int(stop as i64),
    )
}

/// `findfirst(r, s)`: the range of the first match, or `nothing`.
pub fn findfirst(args: &Args) -> EvalResult {
    let (_, r, text) = regex_and_text(args, "findfirst", (0, 1))?;
    let start = start_at(&text, args.pos.get(2), "findfirst")?;
    match r.regex.find_at(&text, start) {
        Some(m) => byte_range(&text, &m),
        None => Ok(Value::Nothing),
    }
}

/// `findall(r, s)`: the ranges of the non-overlapping matches.
pub fn findall(interp: &mut Interp, args: &Args) -> EvalResult {
    let (_, r, text) = regex_and_text(args, "findall", (0, 1))?;
    let mut ranges = Vec::new();
    for m in r.regex.find_iter(&text) {
        ranges.push(byte_range(&text, &m)?);
        interp.check_alloc(ranges.len())?;
    }
    Ok(list(ranges))
}

/// `count(r, s)`: the number of non-overlapping matches.
pub fn count(args: &Args) -> EvalResult {
    let (_, r, text) = regex_and_text(args, "count", (0, 1))?;
    Ok(Value::Int(r.regex.find_iter(&text).count() as i64))
}

/// `replace(s, r => new; count)`: `new` a string (taken literally), a substitution string
/// (`s"\1"`), or a function of the matched text.
pub fn replace(
    interp: &mut Interp,
    text: &str,
    r: &RegexValue,
    new: &Value,
    limit: usize,
) -> EvalResult {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for caps in r.regex.captures_iter(text).take(limit) {
        let whole = caps.get(0).expect("group 0 is the match");
        out.push_str(&text[last..whole.start()]);
        match new {
            Value::Object(o) if o.as_any().is::<Substitution>() => {
                let template = &o
                    .as_any()
                    .downcast_ref::<Substitution>()
                    .expect("checked")
                    .0;
                substitute(template, &caps, &mut out)?;
            }
            v if text_of(v).is_some() => out.push_str(&text_of(v).expect("checked")),
            f => {
                let replaced =
                    interp.call_value(f, vec![Value::str(whole.as_str())], Vec::new())?;
                out.push_str(&crate::display::print_string(&replaced));
            }
        }
        interp.check_bytes(out.len() as u64, "a string")?;
        last = whole.end();
    }
    out.push_str(&text[last..]);
    Ok(Value::str(out))
}

/// Expands `\0`…`\9`, `\g<n>` and `\g<name>` of a substitution string with the captures.
fn substitute(template: &str, caps: &regex::Captures, out: &mut String) -> Result<(), Flow> {
    let mut chars = template.char_indices().peekable();
    while let Some((k, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let group = match chars.peek().map(|&(_, d)| d) {
            Some(d) if d.is_ascii_digit() => {
                chars.next();
                caps.get(d as usize - '0' as usize)
            }
            Some('g') => {
                let rest = &template[k + 2..];
                let Some(close) = rest.strip_prefix('<').and_then(|r| r.find('>')) else {
                    return Err(fail(
                        ErrorKind::ArgumentError,
                        format!(
                            "bad substitution string s\"{template}\": \\g takes <number> or <name>"
                        ),
                    ));
                };
                let key = &rest[1..=close];
                // `g`, `<`, the key and `>`.
                for _ in 0..close + 3 {
                    chars.next();
                }
                match key.parse::<usize>() {
                    Ok(n) => caps.get(n),
                    Err(_) => caps.name(key),
                }
            }
            Some('\\') => {
                chars.next();
                out.push('\\');
                continue;
            }
            _ => {
                out.push('\\');
                continue;
            }
        };
        out.push_str(group.map_or("", |g| g.as_str()));
    }
    Ok(())
}

crate::builtins! {
    "Regex" => regex_, false, "    Regex(pattern, [flags])\n    r\"pattern\"flags\n\nA regular expression. Flags: `i` (ignore case), `m` (`^` and `$` match at line breaks), `s` (`.` matches a line break), `x` (whitespace and `#` comments in the pattern are ignored). The syntax is Perl's, without look-around and back-references (Julia's PCRE has them). Use it with `match`, `eachmatch`, `occursin`, `replace`, `split`, `findfirst`, `findall`, `count`, `startswith`, `endswith`.\n\n```\njulia> occursin(r\"^\\d+$\", \"2024\"), occursin(Regex(\"ab\", \"i\"), \"xABy\")\n(true, true)\n```";
    "match" => match_, false, "    match(r, s, [start])\n\nThe first match of the regex `r` in `s` (from byte `start`) as a `RegexMatch`, or `nothing`. Fields: `match` (the text), `captures` (each group's text, `nothing` when it did not take part), `offset` and `offsets` (byte indices); `m[1]` is the first group, `m[:name]` a named one.\n\n```\njulia> m = match(r\"(?<key>\\w+)=(\\d+)\", \"x: step=25\");\n\njulia> m.match, m[:key], parse(Int, m[2]), m.offset\n(\"step=25\", \"step\", 25, 4)\n```";
    "eachmatch" => eachmatch_, false, "    eachmatch(r, s; overlap=false)\n\nEvery match of the regex `r` in `s`, in order, as `RegexMatch`es (with `overlap=true`, a match may start inside the previous one).\n\n```\njulia> [m.match for m in eachmatch(r\"\\d+\", \"a1b22c333\")]\n3-element Vector{String}:\n \"1\"\n \"22\"\n \"333\"\n```";
}
