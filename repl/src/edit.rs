//! Edits that the key handlers make to the line being edited: replacing the text from the start
//! of the current line to the cursor (a re-indented line, a dedented `end`) and leaving the
//! cursor after the new text.
//!
//! rustyline's `Cmd::Replace` cannot do this: like vi's change command, it leaves the cursor
//! *before* the text it inserts. Keys that arrive after such an edit (the rest of a chunk of
//! input from a fast typist, a terminal without bracketed paste or a program writing to the
//! terminal, or simply the next key) then landed in front of the re-indented line, scrambling
//! the input. An edit here goes through the completion command instead: the handler stores it
//! ([`PendingEdit::replace`]) and answers `Cmd::Complete`; the helper's completer offers it as
//! the only candidate ([`PendingEdit::take`]), and rustyline replaces the range with it and puts
//! the cursor after it.

use rustyline::Cmd;
use std::sync::{Arc, Mutex};

/// A replacement waiting for the completion command that applies it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Edit {
    /// The buffer it was computed for.
    buffer: String,
    /// The cursor it was computed for (the end of the replaced range).
    cursor: usize,
    /// The first byte replaced.
    start: usize,
    /// The new text.
    text: String,
}

/// The edit a key handler asked for, shared by the key handlers and the editor's helper (which
/// the line editor requires to be `Send + Sync`).
#[derive(Clone, Default)]
pub struct PendingEdit(Arc<Mutex<Option<Edit>>>);

impl PendingEdit {
    /// Asks for `buffer[start..cursor]` to become `text`, with the cursor after it: returns the
    /// command the key handler answers.
    pub fn replace(&self, buffer: &str, cursor: usize, start: usize, text: String) -> Cmd {
        *self.lock() = Some(Edit {
            buffer: buffer.to_string(),
            cursor,
            start,
            text,
        });
        Cmd::Complete
    }

    /// The replacement (first byte replaced, new text) asked for `buffer` with the cursor at
    /// `cursor`, if one is pending; it is taken either way, so a stale edit never applies to a
    /// later Tab.
    pub fn take(&self, buffer: &str, cursor: usize) -> Option<(usize, String)> {
        let edit = self.lock().take()?;
        (edit.buffer == buffer && edit.cursor == cursor).then_some((edit.start, edit.text))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Edit>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::PendingEdit;
    use rustyline::Cmd;

    #[test]
    fn an_edit_applies_once_and_only_to_its_buffer() {
        let edits = PendingEdit::default();
        let cmd = edits.replace("begin\n      en", 14, 6, "end".into());
        assert_eq!(cmd, Cmd::Complete);
        assert_eq!(edits.take("begin\n      en", 14), Some((6, "end".into())));
        assert_eq!(edits.take("begin\n      en", 14), None, "taken once");
        edits.replace("begin\n      en", 14, 6, "end".into());
        assert_eq!(edits.take("other", 5), None, "another buffer");
        assert_eq!(
            edits.take("begin\n      en", 14),
            None,
            "dropped by the miss"
        );
    }
}
