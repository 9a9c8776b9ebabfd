//! Indentation of continuation lines: what Enter inserts in an unfinished input, and the
//! dedent when a block closer (`end`, `else`, `catch`, `finally`) is typed on its own line.
//!
//! The session decides *whether* an input is finished and gives the indentation unit
//! (`Completeness::Incomplete(unit)`); these pure functions decide *how many* units a line gets,
//! from the nesting depth found by [`crate::highlight::depth`]. The key handlers that apply them
//! live in [`crate::interactive`].

use crate::highlight::{depth, ends_in_literal};
use difflab_syntax::lexer::{lex_tolerant, Keyword, TokenKind};

/// True when `line` starts with a block closer (`end`, `else`, `elseif`, `catch`, `finally`),
/// which sits one level out, or a closing bracket.
fn dedents(line: &str) -> bool {
    let tokens = lex_tolerant(line).tokens;
    matches!(
        tokens[0].kind,
        TokenKind::Keyword(
            Keyword::End | Keyword::Else | Keyword::Elseif | Keyword::Catch | Keyword::Finally
        ) | TokenKind::RParen
            | TokenKind::RBracket
            | TokenKind::RBrace
    )
}

/// The indentation `line` should have after the code `before` (which ends with a newline).
fn indentation(before: &str, line: &str, unit: &str) -> String {
    unit.repeat(depth(before).saturating_sub(usize::from(dedents(line))))
}

/// What Enter does at the end of an unfinished input.
#[derive(Debug, PartialEq, Eq)]
pub struct Enter {
    /// The current line re-indented, when that changes it (never the first line, which follows
    /// the prompt, nor a line inside a string).
    pub reindented_line: Option<String>,
    /// The text to insert: a newline and the next line's indentation.
    pub insert: String,
}

/// What Enter does at the end of the unfinished input `buffer`, with the session's `unit`.
pub fn on_enter(buffer: &str, unit: &str) -> Enter {
    if ends_in_literal(buffer) {
        // Inside a string or a block comment, spaces are content: add none, change nothing.
        return Enter {
            reindented_line: None,
            insert: "\n".into(),
        };
    }
    let line_start = buffer.rfind('\n').map_or(0, |i| i + 1);
    let (before, line) = buffer.split_at(line_start);
    let reindented_line = if line_start == 0 || ends_in_literal(before) {
        None
    } else {
        let text = line.trim_start();
        let wanted = if text.is_empty() {
            String::new()
        } else {
            format!("{}{text}", indentation(before, line, unit))
        };
        (wanted != line).then_some(wanted)
    };
    Enter {
        reindented_line,
        insert: format!("\n{}", unit.repeat(depth(buffer))),
    }
}

/// The current line re-indented one level out when typing `typed` at byte `cursor` completes a
/// block closer alone on a continuation line (`    en` + `d`), including the typed character.
pub fn on_closer_typed(buffer: &str, cursor: usize, typed: char, unit: &str) -> Option<String> {
    let after = &buffer[cursor..];
    if !(after.is_empty() || after.starts_with('\n')) {
        return None;
    }
    let line_start = buffer[..cursor].rfind('\n')? + 1;
    let before = &buffer[..line_start];
    if ends_in_literal(before) {
        return None;
    }
    let line = format!("{}{typed}", &buffer[line_start..cursor]);
    let word = line.trim_start();
    if !matches!(word, "end" | "else" | "catch" | "finally") {
        return None;
    }
    let wanted = format!("{}{word}", indentation(before, &line, unit));
    (wanted != line).then_some(wanted)
}

#[cfg(test)]
mod tests {
    use super::{on_closer_typed, on_enter, Enter};

    const UNIT: &str = "    ";

    fn enter(buffer: &str) -> (Option<String>, String) {
        let Enter {
            reindented_line,
            insert,
        } = on_enter(buffer, UNIT);
        (reindented_line, insert)
    }

    #[test]
    fn enter_indents_one_level_per_open_block() {
        assert_eq!(enter("function f(x)"), (None, "\n    ".into()));
        assert_eq!(
            enter("function f(x)\n    for i in 1:3"),
            (None, "\n        ".into())
        );
        assert_eq!(enter("x = [1, 2,"), (None, "\n    ".into()));
    }

    #[test]
    fn enter_reindents_the_current_line() {
        // A line typed (or pasted without bracketed paste) with extra indentation is normalized.
        assert_eq!(
            enter("function f(x)\n        y = 2x"),
            (Some("    y = 2x".into()), "\n    ".into())
        );
        // A closer goes one level out; a blank line loses its spaces.
        assert_eq!(
            enter("if a\n    1\n    else"),
            (Some("else".into()), "\n    ".into())
        );
        assert_eq!(enter("begin\n    "), (Some("".into()), "\n    ".into()));
        // The first line follows the prompt and is left alone.
        assert_eq!(enter("  begin"), (None, "\n    ".into()));
    }

    #[test]
    fn enter_inside_a_string_adds_nothing() {
        assert_eq!(enter("s = \"\"\"\n  text"), (None, "\n".into()));
    }

    #[test]
    fn typing_a_closer_dedents_its_line() {
        let buffer = "function f(x)\n    y = 2x\n    en";
        assert_eq!(
            on_closer_typed(buffer, buffer.len(), 'd', UNIT).as_deref(),
            Some("end")
        );
        let buffer = "function f(x)\n    if x > 0\n        1\n        els";
        assert_eq!(
            on_closer_typed(buffer, buffer.len(), 'e', UNIT).as_deref(),
            Some("    else")
        );
        // Already in place, part of a longer word, or on the first line: nothing to do.
        assert_eq!(on_closer_typed("begin\nen", 8, 'd', UNIT), None);
        assert_eq!(on_closer_typed("begin\n    x = en", 16, 'd', UNIT), None);
        assert_eq!(on_closer_typed("en", 2, 'd', UNIT), None);
    }
}
