//! The interactive prompt: rustyline with multi-line input decided by the session's
//! `is_complete`, completion through the session (names, fields, `\alpha` → `α`), and a
//! persistent history file.

use difflab_session::{Completeness, Session};
use rustyline::completion::{Completer, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Helper};
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

/// The editor's view of the session: completion and completeness come from it.
pub struct SessionHelper {
    /// The session, shared with the prompt loop.
    pub session: Rc<RefCell<Session>>,
}

impl Completer for SessionHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let completions = self.session.borrow_mut().complete(line, pos);
        let pairs = completions
            .matches
            .into_iter()
            .map(|m| Pair {
                display: m.clone(),
                replacement: m,
            })
            .collect();
        Ok((completions.start, pairs))
    }
}

impl Validator for SessionHelper {
    fn validate(&self, ctx: &mut ValidationContext<'_>) -> rustyline::Result<ValidationResult> {
        Ok(match self.session.borrow().is_complete(ctx.input()) {
            Completeness::Incomplete(_) => ValidationResult::Incomplete,
            // Invalid input is submitted so the session reports the error with its span.
            Completeness::Complete | Completeness::Invalid => ValidationResult::Valid(None),
        })
    }
}

impl Hinter for SessionHelper {
    type Hint = String;
}

impl Highlighter for SessionHelper {}

impl Helper for SessionHelper {}

/// Where the history is kept: `$DIFFLAB_HISTORY`, or `difflab/history` in the XDG data
/// directory (`$XDG_DATA_HOME` or `~/.local/share`).
pub fn history_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("DIFFLAB_HISTORY") {
        return Some(PathBuf::from(path));
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local").join("share"))
        })?;
    Some(data.join("difflab").join("history"))
}
