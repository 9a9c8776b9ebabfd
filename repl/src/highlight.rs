//! A small lexical scanner for the prompt: token classes for syntax highlighting, bracket
//! matching, and the nesting depth that drives indentation ([`crate::indent`]).
//!
//! It is deliberately forgiving: the line being edited is usually unfinished, so an unterminated
//! string or comment simply runs to the end. Whether an input is complete is decided by the
//! session (`Session::is_complete`), never here.

use difflab_session::complete::{is_ident_char, KEYWORDS};
use std::ops::Range;

/// What a token is, for colouring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// `function`, `end`, `if`, …
    Keyword,
    /// `"…"` or `"""…"""`, interpolations included.
    String,
    /// `42`, `1.5e-3`, `0xff`.
    Number,
    /// `# …` or `#= … =#`.
    Comment,
    /// `:name`.
    Symbol,
    /// `(`, `[` or `{` in code.
    Open,
    /// `)`, `]` or `}` in code.
    Close,
}

/// A classified piece of the input (identifiers and operators are not reported).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// Its byte range.
    pub range: Range<usize>,
    /// What it is.
    pub class: Class,
}

/// The tokens of `code` worth colouring or matching, in order, and whether the code ends inside
/// a string or a comment.
pub fn scan(code: &str) -> (Vec<Token>, bool) {
    let mut tokens = Vec::new();
    let mut i = 0;
    let mut unterminated = false;
    while let Some(c) = code[i..].chars().next() {
        let rest = &code[i..];
        let mut open_literal = false;
        let (len, class) = if c == '#' {
            let (len, closed) = comment_len(rest);
            open_literal = !closed;
            (len, Some(Class::Comment))
        } else if c == '"' {
            let (len, closed) = string_len(rest);
            open_literal = !closed;
            (len, Some(Class::String))
        } else if c.is_ascii_digit() {
            (number_len(rest), Some(Class::Number))
        } else if is_ident_char(c) {
            let len = rest.find(|c| !is_ident_char(c)).unwrap_or(rest.len());
            let word = &rest[..len];
            let after_dot = code[..i].ends_with('.');
            let keyword = KEYWORDS.contains(&word) && !after_dot;
            (len, keyword.then_some(Class::Keyword))
        } else if c == ':' && starts_symbol(code, i) {
            let name = &rest[1..];
            let len = 1 + name.find(|c| !is_ident_char(c)).unwrap_or(name.len());
            (len, Some(Class::Symbol))
        } else {
            let class = match c {
                '(' | '[' | '{' => Some(Class::Open),
                ')' | ']' | '}' => Some(Class::Close),
                _ => None,
            };
            (c.len_utf8(), class)
        };
        if let Some(class) = class {
            tokens.push(Token {
                range: i..i + len,
                class,
            });
        }
        unterminated = open_literal;
        i += len;
    }
    (tokens, unterminated)
}

/// The length of the comment at the start of `rest` and whether it is closed (a line comment
/// always is; `#= … =#` nests, as in Julia).
fn comment_len(rest: &str) -> (usize, bool) {
    if !rest.starts_with("#=") {
        return (rest.find('\n').unwrap_or(rest.len()), true);
    }
    let mut depth = 0usize;
    let mut i = 0;
    while i < rest.len() {
        if rest[i..].starts_with("#=") {
            depth += 1;
            i += 2;
        } else if rest[i..].starts_with("=#") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return (i, true);
            }
        } else {
            i += rest[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    (rest.len(), false)
}

/// The length of the string literal at the start of `rest` and whether it is closed.
fn string_len(rest: &str) -> (usize, bool) {
    let triple = rest.starts_with("\"\"\"");
    let quote = if triple { "\"\"\"" } else { "\"" };
    let mut i = quote.len();
    while let Some(c) = rest[i..].chars().next() {
        if c == '\\' {
            i += 1 + rest[i + 1..].chars().next().map_or(0, char::len_utf8);
        } else if rest[i..].starts_with(quote) {
            return (i + quote.len(), true);
        } else {
            i += c.len_utf8();
        }
    }
    (rest.len(), false)
}

/// The length of the number at the start of `rest`: digits with `_` and one `.`, an exponent,
/// or a hexadecimal or binary literal. A juxtaposed name (`2x`) is not part of it.
fn number_len(rest: &str) -> usize {
    let bytes = rest.as_bytes();
    if rest.starts_with("0x") || rest.starts_with("0b") {
        return 2 + rest[2..]
            .find(|c: char| !(c.is_ascii_hexdigit() || c == '_'))
            .unwrap_or(rest.len() - 2);
    }
    let digits = |from: usize| {
        from + rest[from..]
            .find(|c: char| !(c.is_ascii_digit() || c == '_'))
            .unwrap_or(rest.len() - from)
    };
    let mut i = digits(0);
    // A `.` followed by a digit continues the number; `1.+x` and `1:n` end it.
    if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i = digits(i + 1);
    } else if bytes.get(i) == Some(&b'.')
        && !bytes
            .get(i + 1)
            .is_some_and(|b| b.is_ascii_punctuation() || b.is_ascii_alphabetic())
    {
        i += 1;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E' | b'f')) {
        let sign = usize::from(matches!(bytes.get(i + 1), Some(b'+' | b'-')));
        if bytes.get(i + 1 + sign).is_some_and(u8::is_ascii_digit) {
            i = digits(i + 1 + sign);
        }
    }
    i
}

/// True when the `:` at byte `i` starts a symbol (`f(:central)`, `x = :a`) rather than a range
/// (`1:n`) or the else-branch of `a ? b : c`.
fn starts_symbol(code: &str, i: usize) -> bool {
    let next = code[i + 1..].chars().next();
    if !next.is_some_and(|c| is_ident_char(c) && !c.is_ascii_digit()) {
        return false;
    }
    // A value before the colon makes it a range (`a:b`, `x[1]:n`); the `:` of `a ? b : c` has
    // a space after it, so it never gets here.
    let before = code[..i].trim_end().chars().next_back();
    !before.is_some_and(|p| is_ident_char(p) || matches!(p, ')' | ']' | '}' | '\''))
}

/// The SGR colour of a class, if it is coloured.
fn colour(class: Class) -> Option<&'static str> {
    match class {
        Class::Keyword => Some("\x1b[35m"),
        Class::String => Some("\x1b[32m"),
        Class::Number => Some("\x1b[36m"),
        Class::Comment => Some("\x1b[90m"),
        Class::Symbol => Some("\x1b[33m"),
        Class::Open | Class::Close => None,
    }
}

/// How the bracket matching the one at the cursor is shown.
const MATCHING_BRACKET: &str = "\x1b[1;4m";
const RESET: &str = "\x1b[0m";

/// `code` with ANSI colours: keywords, strings, numbers, comments and symbols, and the bracket
/// at byte `matching` (if any) emphasized. Only escape sequences are added, so the display width
/// is unchanged, as the line editor requires.
pub fn paint(code: &str, matching: Option<usize>) -> String {
    let (tokens, _) = scan(code);
    let mut out = String::with_capacity(code.len() * 2);
    let mut at = 0;
    for token in tokens {
        let style = if matching == Some(token.range.start) {
            Some(MATCHING_BRACKET)
        } else {
            colour(token.class)
        };
        let Some(style) = style else { continue };
        out.push_str(&code[at..token.range.start]);
        out.push_str(style);
        out.push_str(&code[token.range.clone()]);
        out.push_str(RESET);
        at = token.range.end;
    }
    out.push_str(&code[at..]);
    out
}

/// The byte offset of the bracket matching the one under the cursor (or just before it, as
/// after typing a closing bracket), ignoring brackets in strings and comments.
pub fn matching_bracket(code: &str, cursor: usize) -> Option<usize> {
    let (tokens, _) = scan(code);
    let brackets: Vec<&Token> = tokens
        .iter()
        .filter(|t| matches!(t.class, Class::Open | Class::Close))
        .collect();
    let here = brackets
        .iter()
        .position(|t| t.range.start == cursor)
        .or_else(|| {
            brackets
                .iter()
                .position(|t| cursor > 0 && t.range.start == cursor - 1)
        })?;
    let mut depth = 0i64;
    if brackets[here].class == Class::Open {
        for t in &brackets[here..] {
            depth += if t.class == Class::Open { 1 } else { -1 };
            if depth == 0 {
                return Some(t.range.start);
            }
        }
    } else {
        for t in brackets[..=here].iter().rev() {
            depth += if t.class == Class::Close { 1 } else { -1 };
            if depth == 0 {
                return Some(t.range.start);
            }
        }
    }
    None
}

/// Keywords that open a block closed by `end`.
const BLOCK_OPENERS: &[&str] = &[
    "function", "if", "for", "while", "begin", "let", "try", "macro", "quote", "struct", "module",
    "do",
];

/// How many blocks and brackets are open at the end of `code`. Keywords inside brackets do not
/// count (`[x for x in v]` is a comprehension, `v[end]` an index).
pub fn depth(code: &str) -> usize {
    let (tokens, _) = scan(code);
    let mut brackets = 0usize;
    let mut blocks = 0usize;
    for t in tokens {
        match t.class {
            Class::Open => brackets += 1,
            Class::Close => brackets = brackets.saturating_sub(1),
            Class::Keyword if brackets == 0 => {
                let word = &code[t.range];
                if BLOCK_OPENERS.contains(&word) {
                    blocks += 1;
                } else if word == "end" {
                    blocks = blocks.saturating_sub(1);
                }
            }
            _ => {}
        }
    }
    blocks + brackets
}

/// True when `code` ends inside a string or a block comment (where indentation is content).
pub fn ends_in_literal(code: &str) -> bool {
    scan(code).1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(code: &str) -> Vec<(&str, Class)> {
        scan(code)
            .0
            .into_iter()
            .map(|t| (&code[t.range], t.class))
            .collect()
    }

    #[test]
    fn keywords_strings_numbers_comments_and_symbols() {
        assert_eq!(
            classes(r#"function f(x) return "a\"b" * 2.5e-3 end # done"#),
            vec![
                ("function", Class::Keyword),
                ("(", Class::Open),
                (")", Class::Close),
                ("return", Class::Keyword),
                (r#""a\"b""#, Class::String),
                ("2.5e-3", Class::Number),
                ("end", Class::Keyword),
                ("# done", Class::Comment),
            ]
        );
        assert_eq!(
            classes("AutoFiniteDiff(fdtype=:central); 1:n; x ? :a : :b"),
            vec![
                ("(", Class::Open),
                (":central", Class::Symbol),
                (")", Class::Close),
                ("1", Class::Number),
                (":a", Class::Symbol),
                (":b", Class::Symbol),
            ]
        );
        // A juxtaposed coefficient stops before the name; `x1` is a name.
        assert_eq!(
            classes("2x + x1 + 0xff"),
            vec![("2", Class::Number), ("0xff", Class::Number)]
        );
    }

    #[test]
    fn unterminated_literals_run_to_the_end() {
        assert!(ends_in_literal("s = \"abc"));
        assert!(ends_in_literal("s = \"\"\"\nab\"\n"));
        assert!(ends_in_literal("#= a #= b =# c"));
        assert!(!ends_in_literal("s = \"abc\" # note"));
        assert!(!ends_in_literal("x = 1"));
    }

    #[test]
    fn painting_only_adds_escape_sequences() {
        let code = "for i in 1:3 println(\"α\", i) end";
        let painted = paint(code, None);
        let mut plain = String::new();
        let mut in_escape = false;
        for c in painted.chars() {
            match c {
                '\x1b' => in_escape = true,
                'm' if in_escape => in_escape = false,
                _ if in_escape => {}
                c => plain.push(c),
            }
        }
        assert_eq!(plain, code);
        assert!(painted.starts_with("\x1b[35mfor\x1b[0m"), "{painted:?}");
    }

    #[test]
    fn brackets_match_outside_strings() {
        let code = "f(a[1], \")\", (b))";
        assert_eq!(matching_bracket(code, 1), Some(code.len() - 1));
        assert_eq!(matching_bracket(code, code.len()), Some(1));
        assert_eq!(matching_bracket(code, 4), Some(5));
        assert_eq!(matching_bracket(code, 9), None, "inside the string");
        assert_eq!(matching_bracket("f(", 1), None, "unmatched");
    }

    #[test]
    fn depth_counts_blocks_and_brackets() {
        assert_eq!(depth("function f(x)"), 1);
        assert_eq!(depth("function f(x)\n    for i in 1:3"), 2);
        assert_eq!(depth("function f(x)\n    for i in 1:3\n    end"), 1);
        assert_eq!(depth("v = [x for x in 1:3]"), 0);
        assert_eq!(depth("y = v[end] + g(1,"), 1);
        assert_eq!(depth("s = \"function\""), 0);
        assert_eq!(depth("x.end"), 0);
    }
}
