//! Help: `?name` queries and inspection (docstrings of builtins and user functions).

use difflab_lang::Interp;
use difflab_syntax::Name;

/// The topic of a `?name` (or `name?`) query, if `code` is one.
pub fn help_query(code: &str) -> Option<&str> {
    let trimmed = code.trim();
    if let Some(topic) = trimmed.strip_prefix('?') {
        return Some(topic.trim());
    }
    let topic = trimmed.strip_suffix('?')?;
    (!topic.is_empty() && topic.chars().all(crate::complete::is_ident_char)).then_some(topic)
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
    if let Some(doc) = difflab_lang::eval::methods::keyword_doc(name) {
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
