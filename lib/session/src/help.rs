//! Help: `?name` queries, `help(name)`, and inspection (docstrings of builtins and user
//! functions), as text and as Markdown.
//!
//! Docstrings are written in Julia's Markdown (an indented signature, then prose and fenced
//! examples). A terminal shows them as they are ([`help_text`]); a notebook gets
//! [`help_bundle`], where `text/markdown` ([`markdown`]) sits beside `text/plain`, so
//! JupyterLab renders the fences as code blocks instead of showing them as text.

use crate::events::MimeBundle;
use difflab_lang::Interp;
use difflab_syntax::lexer::{single_token, TokenKind};
use difflab_syntax::Name;

/// The topic of a `?name` (or `name?`) query, if `code` is one.
pub fn help_query(code: &str) -> Option<&str> {
    let trimmed = code.trim();
    if let Some(topic) = trimmed.strip_prefix('?') {
        return Some(topic.trim());
    }
    let topic = trimmed.strip_suffix('?')?;
    matches!(
        single_token(topic),
        Some(TokenKind::Ident(_) | TokenKind::Keyword(_))
    )
    .then_some(topic)
}

/// The topic of a `help()` or `help(name)` call (`help("name")` too), if `code` is one and the
/// session has no `help` of its own.
pub fn help_call<'a>(interp: &Interp, code: &'a str) -> Option<&'a str> {
    let inner = code.trim().strip_prefix("help(")?.strip_suffix(')')?.trim();
    let topic = inner
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(inner);
    let is_topic = topic.is_empty()
        || matches!(
            single_token(topic),
            Some(TokenKind::Ident(_) | TokenKind::Keyword(_) | TokenKind::Macro(_))
        )
        || difflab_lang::builtins::lookup(Name::new(topic)).is_some();
    (is_topic && interp.global(Name::new("help")).is_none()).then_some(topic)
}

/// The help of `topic` as a MIME bundle: `text/plain` (as a terminal shows it) and
/// `text/markdown`.
pub fn help_bundle(interp: &Interp, topic: &str) -> MimeBundle {
    let text = help_text(interp, topic);
    MimeBundle {
        data: vec![
            ("text/plain".into(), text.clone()),
            ("text/markdown".into(), markdown(&text)),
        ],
    }
}

/// A docstring as Markdown for notebooks: code fences are marked as Julia (which JupyterLab
/// highlights); the indented signature already is a code block.
pub fn markdown(doc: &str) -> String {
    let mut out = String::with_capacity(doc.len() + 32);
    let mut in_fence = false;
    for line in doc.lines() {
        if line.trim_start().starts_with("```") {
            let bare = line.trim() == "```";
            if !in_fence && bare {
                out.push_str(&line.replacen("```", "```julia", 1));
            } else {
                out.push_str(line);
            }
            in_fence = !in_fence;
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out.truncate(out.trim_end().len());
    out
}

/// The docstring of `name`: a user docstring, a builtin's, or `None`.
pub fn docstring(interp: &Interp, name: &str) -> Option<String> {
    let n = Name::new(name);
    if let Some(doc) = interp.docs.get(&n) {
        return Some(doc.trim_end().to_string());
    }
    if let Some(doc) = difflab_lang::eval::macros::macro_doc(name) {
        return Some(doc.to_string());
    }
    if let Some(doc) = difflab_lang::eval::keyword_help::keyword_doc(name) {
        return Some(doc.to_string());
    }
    if let Some(doc) = difflab_lang::builtins::constant_doc(name) {
        return Some(doc.to_string());
    }
    difflab_lang::builtins::lookup(n).map(|b| b.doc.to_string())
}

/// The text shown for `?topic`.
pub fn help_text(interp: &Interp, topic: &str) -> String {
    if topic.is_empty() {
        return GENERAL_HELP.to_string();
    }
    match docstring(interp, topic) {
        Some(doc) => doc,
        None => {
            let suggestions = crate::complete::similar_names(interp, topic);
            if suggestions.is_empty() {
                format!("No documentation found for `{topic}`.")
            } else {
                format!(
                    "No documentation found for `{topic}`. Perhaps you meant: {}",
                    suggestions.join(", ")
                )
            }
        }
    }
}

/// The documentation of the identifier around byte offset `cursor`.
pub fn inspect(interp: &Interp, code: &str, cursor: usize) -> Option<String> {
    let (start, end) = crate::complete::word_around(code, cursor);
    docstring(interp, code.get(start..end)?)
}

const GENERAL_HELP: &str = "difflab: an interactive lab for automatic differentiation.

Type an expression to evaluate it; `?name` shows the documentation of a function.
Start with: ?gradient  ?jacobian  ?AutoForwardDiff  ?jacobian_sparsity  ?coloring  ?ImplicitFunction";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_marks_opening_fences_as_julia() {
        let doc = "    diff(x)\n\nDifferences.\n\n```\njulia> diff([1, 4])\n1-element Vector{Int64}:\n 3\n```";
        let md = markdown(doc);
        assert_eq!(
            md,
            "    diff(x)\n\nDifferences.\n\n```julia\njulia> diff([1, 4])\n1-element Vector{Int64}:\n 3\n```"
        );
        assert_eq!(md.matches("```julia").count(), 1);
    }
}
