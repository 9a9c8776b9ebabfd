//! Completion: names (variables, functions, builtins, keywords), fields of library objects and
//! LaTeX-style Unicode input (`\alpha` → `α`).

use difflab_lang::{Interp, Value};
use difflab_syntax::Name;

/// Completion candidates replacing the byte range `start..end` of the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completions {
    /// Candidates, sorted.
    pub matches: Vec<String>,
    /// First byte replaced.
    pub start: usize,
    /// One past the last byte replaced.
    pub end: usize,
}

impl Completions {
    /// No candidates at `cursor`.
    pub fn empty(cursor: usize) -> Completions {
        Completions {
            matches: Vec::new(),
            start: cursor,
            end: cursor,
        }
    }
}

const KEYWORDS: &[&str] = &[
    "begin", "break", "catch", "continue", "else", "elseif", "end", "false", "finally", "for",
    "function", "global", "if", "import", "let", "local", "return", "true", "try", "using",
    "while",
];

/// True for characters that may appear in an identifier.
pub fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '!' || (!c.is_ascii() && !c.is_whitespace())
}

/// The byte range of the identifier touching `cursor`.
pub fn word_around(code: &str, cursor: usize) -> (usize, usize) {
    let cursor = cursor.min(code.len());
    let mut start = cursor;
    while let Some(c) = code[..start].chars().next_back() {
        if !is_ident_char(c) {
            break;
        }
        start -= c.len_utf8();
    }
    let mut end = cursor;
    while let Some(c) = code[end..].chars().next() {
        if !is_ident_char(c) || c == '!' && end > start {
            break;
        }
        end += c.len_utf8();
    }
    (start, end)
}

fn all_names(interp: &Interp) -> Vec<String> {
    let mut names: Vec<String> = interp
        .global_names()
        .into_iter()
        .map(|n| n.to_string())
        .chain(difflab_lang::builtins::all().map(|b| b.name.to_string()))
        .chain(KEYWORDS.iter().map(|k| k.to_string()))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Candidates at byte offset `cursor`.
pub fn complete(interp: &Interp, code: &str, cursor: usize) -> Completions {
    let cursor = cursor.min(code.len());
    if let Some(c) = crate::latex::complete(code, cursor) {
        return c;
    }
    let (start, _) = word_around(code, cursor);
    let prefix = &code[start..cursor];
    // `object.fi|`: fields of a library object held in a global.
    if code[..start].ends_with('.') {
        let (owner_start, _) = word_around(code, start - 1);
        let owner = &code[owner_start..start - 1];
        if let Some(Value::Object(obj)) = interp.global(Name::new(owner)) {
            let matches = obj
                .field_names()
                .into_iter()
                .filter(|f| f.starts_with(prefix))
                .map(str::to_string)
                .collect();
            return Completions {
                matches,
                start,
                end: cursor,
            };
        }
    }
    if prefix.is_empty() {
        return Completions::empty(cursor);
    }
    let matches = all_names(interp)
        .into_iter()
        .filter(|n| n.starts_with(prefix))
        .collect();
    Completions {
        matches,
        start,
        end: cursor,
    }
}

/// Known names close to `word` (for "did you mean" hints).
pub fn similar_names(interp: &Interp, word: &str) -> Vec<String> {
    let lower = word.to_lowercase();
    all_names(interp)
        .into_iter()
        .filter(|n| {
            let l = n.to_lowercase();
            l != lower
                && (l.contains(&lower) || (lower.len() > 3 && lower.contains(&l) && l.len() > 3))
        })
        .take(5)
        .collect()
}
