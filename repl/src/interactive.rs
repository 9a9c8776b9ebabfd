//! The interactive prompt: a rustyline editor over the session.
//!
//! Reading and running alternate on the main thread. While the editor reads, the terminal is in
//! raw mode and Ctrl-C reaches rustyline as a key (the line is dropped); while an input runs, the
//! terminal is back in its normal mode, so Ctrl-C raises SIGINT and the handler installed once
//! in `main` sets the session's interrupt flag: the input stops with `InterruptException` and the
//! variables stay. Ctrl-D on an empty line exits.
//!
//! Key handlers: Enter indents the next line of an unfinished input ([`crate::indent`]); typing
//! `end`, `else`, `catch` or `finally` on its own line dedents it; Up and Down walk the history,
//! keeping to entries that start with the text typed before the cursor ([`history_step`]); Tab
//! at the start of a line indents; Alt-Enter inserts a newline.

use crate::edit::PendingEdit;
use crate::helper::{ReplHelper, SharedSession, PROMPT};
use crate::indent;
use crate::render::{Style, Terminal};
use difflab_session::{Completeness, ExecuteOptions, Session};
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::{
    Cmd, CompletionType, ConditionalEventHandler, Config, EditMode, Editor, Event, EventContext,
    EventHandler, KeyCode, KeyEvent, Modifiers, Movement, RepeatCount,
};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use terminal_size::{Height, Width};

type ReplEditor = Editor<ReplHelper, DefaultHistory>;

/// How many inputs the history file keeps.
const HISTORY_SIZE: usize = 10_000;

/// The first lines a user sees.
fn banner() -> String {
    format!(
        "difflab {} — automatic differentiation, interactively.\n\
         Type ? for help, ?gradient for the documentation of a function; Ctrl-D exits.\n",
        env!("CARGO_PKG_VERSION")
    )
}

/// Runs the prompt until Ctrl-D.
pub fn run(session: Session) -> ExitCode {
    let session = SharedSession::new(session);
    let style = Style::detect();
    println!("{}", banner());
    let recallable = Recallable::default();
    let mut editor = match editor(&session, &recallable) {
        Ok(editor) => editor,
        Err(e) => {
            eprintln!("ERROR: cannot start the line editor: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut history = HistoryFile::open(crate::history::from_env(), &mut editor, recallable);
    loop {
        match editor.readline(PROMPT) {
            Ok(line) => {
                let input = line.trim_end();
                if input.trim().is_empty() {
                    continue;
                }
                history.remember(&mut editor, input);
                let mut terminal = Terminal::new(style);
                let mut session = session.lock();
                // Matrices and plots are laid out for the terminal's current size, as in Julia.
                match terminal_size::terminal_size() {
                    // A pseudo-terminal nobody sized reports 0 × 0: keep Julia's default then.
                    Some((Width(cols), Height(rows))) if cols > 0 && rows > 0 => {
                        session.set_screen(rows.into(), cols.into());
                    }
                    _ => {}
                }
                session.execute(input, &ExecuteOptions::default(), &mut terminal);
                terminal.finish_input();
            }
            // Ctrl-C at the prompt drops the line being edited.
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => return ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("ERROR: reading input: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
}

/// The editor with its configuration, helper and key handlers.
fn editor(session: &SharedSession, recallable: &Recallable) -> rustyline::Result<ReplEditor> {
    let config = Config::builder()
        .edit_mode(EditMode::Emacs)
        // Like Julia and bash: Tab completes the common prefix, a second Tab lists candidates.
        .completion_type(CompletionType::List)
        .max_history_size(HISTORY_SIZE)?
        .history_ignore_dups(true)?
        .auto_add_history(false)
        .bracketed_paste(true)
        .build();
    let mut editor = ReplEditor::with_config(config)?;
    let edits = PendingEdit::default();
    editor.set_helper(Some(ReplHelper::new(session.clone(), edits.clone())));
    let enter = || {
        EventHandler::Conditional(Box::new(EnterIndents {
            session: session.clone(),
            edits: edits.clone(),
        }))
    };
    editor.bind_sequence(KeyEvent(KeyCode::Enter, Modifiers::NONE), enter());
    editor.bind_sequence(KeyEvent::ctrl('J'), enter());
    editor.bind_sequence(
        KeyEvent(KeyCode::Enter, Modifiers::ALT),
        EventHandler::Simple(Cmd::Newline),
    );
    for last_letter in ['d', 'e', 'h', 'y'] {
        editor.bind_sequence(
            KeyEvent(KeyCode::Char(last_letter), Modifiers::NONE),
            EventHandler::Conditional(Box::new(CloserDedents {
                session: session.clone(),
                edits: edits.clone(),
            })),
        );
    }
    editor.bind_sequence(
        KeyEvent(KeyCode::Tab, Modifiers::NONE),
        EventHandler::Conditional(Box::new(TabIndents)),
    );
    editor.bind_sequence(
        KeyEvent(KeyCode::Up, Modifiers::NONE),
        EventHandler::Conditional(Box::new(HistoryKeys {
            backward: true,
            recallable: recallable.clone(),
        })),
    );
    editor.bind_sequence(
        KeyEvent(KeyCode::Down, Modifiers::NONE),
        EventHandler::Conditional(Box::new(HistoryKeys {
            backward: false,
            recallable: recallable.clone(),
        })),
    );
    Ok(editor)
}

/// The entries of the editor's history, so the Up and Down keys can tell a recalled entry from
/// text the user typed (rustyline's key handlers cannot see the history).
#[derive(Clone, Default)]
struct Recallable(Arc<Mutex<HashSet<String>>>);

impl Recallable {
    fn insert(&self, entry: &str) {
        self.lock().insert(entry.to_string());
    }

    fn contains(&self, text: &str) -> bool {
        self.lock().contains(text)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The history file, appended after every input.
struct HistoryFile {
    path: Option<PathBuf>,
    recallable: Recallable,
    /// A failure to write is reported once, not after every input.
    warned: bool,
}

impl HistoryFile {
    /// Loads the history at `path` (a missing file is an empty history).
    fn open(path: Option<PathBuf>, editor: &mut ReplEditor, recallable: Recallable) -> HistoryFile {
        let mut file = HistoryFile {
            path,
            recallable,
            warned: false,
        };
        if let Some(path) = file.path.clone().filter(|p| p.exists()) {
            if let Err(e) = editor.load_history(&path) {
                file.warn(&path, &e);
            }
        }
        for entry in editor.history().iter() {
            file.recallable.insert(entry);
        }
        file
    }

    /// Adds `input` to the history and appends it to the file (merging entries other sessions
    /// appended meanwhile).
    fn remember(&mut self, editor: &mut ReplEditor, input: &str) {
        let _ = editor.add_history_entry(input);
        self.recallable.insert(input);
        let Some(path) = self.path.clone() else {
            return;
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = editor.append_history(&path) {
            self.warn(&path, &e);
        }
    }

    fn warn(&mut self, path: &Path, error: &ReadlineError) {
        if !self.warned {
            self.warned = true;
            eprintln!(
                "warning: history file {}: {error} (set DIFFLAB_HISTORY to another file, or to nothing to turn history off)",
                path.display()
            );
        }
    }
}

/// Enter at the end of an unfinished input: a newline with the next line's indentation, after
/// re-indenting the current line, with the cursor after them. Anywhere else, rustyline's own
/// Enter (which asks the validator) applies.
struct EnterIndents {
    session: SharedSession,
    edits: PendingEdit,
}

impl ConditionalEventHandler for EnterIndents {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext<'_>) -> Option<Cmd> {
        let buffer = ctx.line();
        if ctx.pos() != buffer.len() {
            return None;
        }
        let Completeness::Incomplete(unit) = self.session.lock().is_complete(buffer) else {
            return None;
        };
        let enter = indent::on_enter(buffer, &unit);
        Some(match enter.reindented_line {
            Some(line) => {
                let line_start = buffer.rfind('\n').map_or(0, |i| i + 1);
                self.edits
                    .replace(buffer, buffer.len(), line_start, line + &enter.insert)
            }
            None => Cmd::Insert(1, enter.insert),
        })
    }
}

/// Typing the last letter of `end`, `else`, `catch` or `finally` alone on a continuation line
/// moves the line one level out, with the cursor after the word.
struct CloserDedents {
    session: SharedSession,
    edits: PendingEdit,
}

impl ConditionalEventHandler for CloserDedents {
    fn handle(&self, evt: &Event, n: RepeatCount, _: bool, ctx: &EventContext<'_>) -> Option<Cmd> {
        let Some(KeyEvent(KeyCode::Char(typed), _)) = evt.get(0) else {
            return None;
        };
        let (buffer, pos) = (ctx.line(), ctx.pos());
        let line_start = buffer[..pos].rfind('\n')? + 1;
        let word = format!("{}{typed}", buffer[line_start..pos].trim_start());
        if n != 1 || !matches!(word.as_str(), "end" | "else" | "catch" | "finally") {
            return None;
        }
        let Completeness::Incomplete(unit) = self.session.lock().is_complete(&buffer[..line_start])
        else {
            return None;
        };
        let line = indent::on_closer_typed(buffer, pos, *typed, &unit)?;
        Some(self.edits.replace(buffer, pos, line_start, line))
    }
}

/// Tab with only spaces before the cursor on a continuation line indents instead of completing.
struct TabIndents;

impl ConditionalEventHandler for TabIndents {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext<'_>) -> Option<Cmd> {
        let before = &ctx.line()[..ctx.pos()];
        let line_start = before.rfind('\n')? + 1;
        before[line_start..]
            .trim()
            .is_empty()
            .then(|| Cmd::Insert(1, "    ".into()))
    }
}

/// What Up or Down does.
#[derive(Debug, PartialEq, Eq)]
enum HistoryStep {
    /// The previous (or next) entry.
    Plain,
    /// The previous (or next) entry starting with the text before the cursor.
    Prefix,
    /// Move the cursor a line up (or down) inside a multi-line input.
    Line,
}

/// What Up (`backward`) or Down does with the cursor at byte `pos` of `line`, which is
/// `recalled` when it is a history entry as recalled. As in Julia: on typed text, Up searches
/// for entries starting with the text before the cursor; on an empty line, or on a recalled
/// entry with the cursor at its end (where a plain recall leaves it), it walks the history; a
/// prefix search leaves the cursor after the prefix on the first line, so repeating the key goes
/// on with the same prefix. Elsewhere in a multi-line input the keys move between lines.
fn history_step(line: &str, pos: usize, recalled: bool, backward: bool) -> HistoryStep {
    let (before, after) = line.split_at(pos);
    let more_lines = if backward {
        before.contains('\n')
    } else {
        after.contains('\n')
    };
    if recalled && (pos == 0 || pos == line.len()) {
        HistoryStep::Plain
    } else if recalled && !before.contains('\n') {
        HistoryStep::Prefix
    } else if more_lines {
        HistoryStep::Line
    } else if recalled || before.is_empty() {
        HistoryStep::Plain
    } else {
        HistoryStep::Prefix
    }
}

/// Up and Down (see [`history_step`]).
struct HistoryKeys {
    backward: bool,
    recallable: Recallable,
}

impl ConditionalEventHandler for HistoryKeys {
    fn handle(&self, _: &Event, n: RepeatCount, _: bool, ctx: &EventContext<'_>) -> Option<Cmd> {
        let (line, pos) = (ctx.line(), ctx.pos());
        let recalled = !line.is_empty() && self.recallable.contains(line);
        Some(
            match (
                history_step(line, pos, recalled, self.backward),
                self.backward,
            ) {
                (HistoryStep::Plain, true) => Cmd::PreviousHistory,
                (HistoryStep::Plain, false) => Cmd::NextHistory,
                (HistoryStep::Prefix, true) => Cmd::HistorySearchBackward,
                (HistoryStep::Prefix, false) => Cmd::HistorySearchForward,
                (HistoryStep::Line, true) => Cmd::Move(Movement::LineUp(n)),
                (HistoryStep::Line, false) => Cmd::Move(Movement::LineDown(n)),
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{history_step, HistoryStep};

    #[test]
    fn up_and_down_walk_search_or_move() {
        let up = |line: &str, pos, recalled| history_step(line, pos, recalled, true);
        let down = |line: &str, pos, recalled| history_step(line, pos, recalled, false);
        // An empty line walks the history, and so does a recalled entry with the cursor at its
        // end (where a plain recall leaves it).
        assert_eq!(up("", 0, false), HistoryStep::Plain);
        assert_eq!(up("x = 1", 5, true), HistoryStep::Plain);
        assert_eq!(down("f(x) = 1\nf(2)", 13, true), HistoryStep::Plain);
        // Typed text is a prefix; a prefix search leaves the cursor after it, so it continues.
        assert_eq!(up("x", 1, false), HistoryStep::Prefix);
        assert_eq!(up("x = 1", 1, true), HistoryStep::Prefix);
        assert_eq!(down("x = 1", 1, true), HistoryStep::Prefix);
        // Inside typed multi-line input the keys move between lines.
        assert_eq!(up("begin\n    x", 11, false), HistoryStep::Line);
        assert_eq!(down("begin\n    x", 3, false), HistoryStep::Line);
        assert_eq!(up("begin\n    x", 3, false), HistoryStep::Prefix);
        // In a recalled multi-line entry, after moving the cursor into it, too.
        assert_eq!(up("begin\n    x\nend", 9, true), HistoryStep::Line);
        assert_eq!(down("begin\n    x\nend", 9, true), HistoryStep::Line);
        assert_eq!(down("begin\n    x\nend", 13, true), HistoryStep::Plain);
    }
}
