//! The line editor's view of the session: completion through `Session::complete` (and the
//! key handlers' edits, [`crate::edit`]), multi-line input through `Session::is_complete` (the
//! rustyline `Validator`), and syntax highlighting with bracket matching and the `help?>` prompt
//! ([`crate::highlight`]).

use crate::edit::PendingEdit;
use crate::highlight;
use difflab_session::{Completeness, Session};
use rustyline::completion::{Completer, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Helper, Hinter};
use std::borrow::Cow;
use std::cell::Cell;
use std::sync::{Arc, Mutex, MutexGuard};

/// The prompt.
pub const PROMPT: &str = "difflab> ";
/// The prompt shown while the line is a `?name` help query; as wide as [`PROMPT`], which the
/// line editor requires.
const HELP_PROMPT: &str = "  help?> ";

/// The session, shared by the input loop, the editor helper and the key handlers (which the
/// line editor requires to be `Send + Sync`). Only one of them uses it at a time.
#[derive(Clone)]
pub struct SharedSession(Arc<Mutex<Session>>);

impl SharedSession {
    /// Shares `session`.
    pub fn new(session: Session) -> SharedSession {
        SharedSession(Arc::new(Mutex::new(session)))
    }

    /// The session. A panic elsewhere cannot leave it inconsistent (it owns no editor state), so
    /// a poisoned lock is taken over.
    pub fn lock(&self) -> MutexGuard<'_, Session> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The rustyline helper of the prompt.
#[derive(Helper, Hinter)]
pub struct ReplHelper {
    session: SharedSession,
    /// An edit a key handler asked for, applied through completion.
    edits: PendingEdit,
    /// The line starts with `?`: show the help prompt.
    help_query: Cell<bool>,
    /// The bracket matching the one at the cursor, if any.
    matching_bracket: Cell<Option<usize>>,
}

impl ReplHelper {
    /// A helper asking `session` and applying the key handlers' `edits`.
    pub fn new(session: SharedSession, edits: PendingEdit) -> ReplHelper {
        ReplHelper {
            session,
            edits,
            help_query: Cell::new(false),
            matching_bracket: Cell::new(None),
        }
    }
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        if let Some((start, text)) = self.edits.take(line, pos) {
            let edit = Pair {
                display: text.clone(),
                replacement: text,
            };
            return Ok((start, vec![edit]));
        }
        let completions = self.session.lock().complete(line, pos);
        let candidates = completions
            .matches
            .into_iter()
            .map(|m| Pair {
                display: m.clone(),
                replacement: m,
            })
            .collect();
        Ok((completions.start, candidates))
    }
}

impl Validator for ReplHelper {
    fn validate(&self, ctx: &mut ValidationContext<'_>) -> rustyline::Result<ValidationResult> {
        Ok(match self.session.lock().is_complete(ctx.input()) {
            Completeness::Incomplete(_) => ValidationResult::Incomplete,
            // Invalid input runs too, so the session reports the syntax error where it is.
            Completeness::Complete | Completeness::Invalid => ValidationResult::Valid(None),
        })
    }
}

impl Highlighter for ReplHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        Cow::Owned(highlight::paint(line, self.matching_bracket.get()))
    }

    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        default: bool,
    ) -> Cow<'b, str> {
        // `default` is false for rustyline's own prompts (reverse search): leave those alone.
        if !default || prompt != PROMPT {
            return Cow::Borrowed(prompt);
        }
        if self.help_query.get() {
            Cow::Owned(format!("\x1b[1;33m{HELP_PROMPT}\x1b[0m"))
        } else {
            Cow::Owned(format!("\x1b[1;32m{PROMPT}\x1b[0m"))
        }
    }

    fn highlight_char(&self, line: &str, pos: usize, kind: CmdKind) -> bool {
        self.help_query.set(line.starts_with('?'));
        // The final refresh of an accepted line shows no bracket emphasis.
        self.matching_bracket.set(match kind {
            CmdKind::ForcedRefresh => None,
            CmdKind::MoveCursor | CmdKind::Other => highlight::matching_bracket(line, pos),
        });
        // Colours depend on the whole line (typing `d` makes `en` a keyword), so always redraw.
        true
    }
}
