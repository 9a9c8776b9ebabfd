//! The engine thread: owns the interpreter (whose values are not `Send`) and answers requests.
//!
//! The [`crate::Session`] sends [`Request`]s over a channel and receives [`Reply`]s through the
//! `outbox` (ordered, bounded, coalescing stream text); printing during a run streams
//! back as events at once, and `readline` round-trips an input request.
//! The thread has a large stack so deep (but bounded) recursion in user code reaches the
//! interpreter's `StackOverflowError` long before the real stack ends.

use crate::complete::{complete, Completions};
use crate::events::{ErrorReport, Event, MimeBundle, Outcome, Progress, StreamName};
use crate::help;
use crate::outbox::Sender;
use difflab_lang::output::{Output, ProgressUpdate, Stream};
use difflab_lang::{Config, Interp, LangError, Source, Value};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Receiver;
use std::sync::Arc;

/// What the session asks of the engine.
pub enum Request {
    /// Lay values out for a display of this size `(rows, cols)` from now on.
    Screen(usize, usize),
    /// Run code.
    Execute {
        /// The code.
        code: String,
        /// How errors name this input (`In[3]`).
        source_name: String,
        /// Show the final value as a result.
        show_result: bool,
        /// The execution count to report.
        execution_count: usize,
    },
    /// Complete at a byte offset.
    Complete {
        /// The code.
        code: String,
        /// The cursor (byte offset).
        cursor: usize,
    },
    /// The documentation of the name at a byte offset.
    Inspect {
        /// The code.
        code: String,
        /// The cursor (byte offset).
        cursor: usize,
    },
    /// The answer to an input request.
    Input(Option<String>),
}

/// What the engine answers.
pub enum Reply {
    /// An event of the running execution.
    Event(Event),
    /// A progress bar of the running execution is redrawn.
    Progress(Progress),
    /// The running program asks for a line of input.
    InputRequest(String),
    /// The execution finished.
    Done(Outcome),
    /// Completion candidates.
    Completions(Completions),
    /// Documentation, if any.
    Inspection(Option<String>),
}

/// The interpreter's output sink: forwards everything as events.
struct ChannelOutput {
    replies: Rc<Sender>,
    inputs: Rc<Receiver<Request>>,
}

impl Output for ChannelOutput {
    fn write(&mut self, stream: Stream, text: &str) {
        let name = match stream {
            Stream::Stdout => StreamName::Stdout,
            Stream::Stderr => StreamName::Stderr,
        };
        let _ = self.replies.send(Reply::Event(Event::Stream {
            name,
            text: if text.len() > MAX_OUTPUT_BYTES {
                capped(text.to_string()) + "\n"
            } else {
                text.to_string()
            },
        }));
    }

    fn display(&mut self, value: &Value) {
        let _ = self
            .replies
            .send(Reply::Event(Event::Display(bundle(value))));
    }

    fn clear_output(&mut self, wait: bool) {
        let _ = self.replies.send(Reply::Event(Event::ClearOutput { wait }));
    }

    fn progress(&mut self, update: &ProgressUpdate) {
        let _ = self.replies.send(Reply::Progress(Progress {
            id: update.id,
            done: update.done,
            total: update.total,
            line: update.line.clone(),
            finished: update.finished,
            terminal_text: update.terminal_text(),
        }));
    }

    fn read_line(&mut self, prompt: &str) -> Option<String> {
        self.replies
            .send(Reply::InputRequest(prompt.to_string()))
            .ok()?;
        loop {
            match self.inputs.recv().ok()? {
                Request::Input(line) => return line,
                // Nothing else can arrive while the session waits for input.
                _ => continue,
            }
        }
    }
}

/// The most text one output (a printed string, a value's display, an error report) sends to
/// the frontend; the rest is replaced by a note, so that no value, however large, floods a
/// terminal or freezes a notebook.
pub const MAX_OUTPUT_BYTES: usize = 1 << 20;

/// `text` cut to [`MAX_OUTPUT_BYTES`] (at a character boundary) with a note of what was cut.
pub fn capped(mut text: String) -> String {
    if text.len() <= MAX_OUTPUT_BYTES {
        return text;
    }
    let mut end = MAX_OUTPUT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let cut = text.len() - end;
    text.truncate(end);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&format!("[output truncated: {cut} bytes not shown]"));
    text
}

/// The MIME bundle of a value: `text/plain` always, plus an object's rich renderings.
pub fn bundle(value: &Value) -> MimeBundle {
    let mut data = vec![(
        "text/plain".to_string(),
        capped(difflab_lang::display::plain(value)),
    )];
    if let Value::Object(obj) = value {
        data.extend(obj.rich());
    }
    MimeBundle { data }
}

/// The error report of a language error.
pub fn report(error: &LangError) -> ErrorReport {
    ErrorReport {
        ename: error.kind.name().to_string(),
        evalue: capped(error.message.clone()),
        traceback: capped(error.render()).lines().map(str::to_string).collect(),
    }
}

/// Runs the engine until the session hangs up.
pub fn run(
    config: Config,
    interrupt: Arc<AtomicBool>,
    requests: Receiver<Request>,
    replies: Sender,
) {
    let requests = Rc::new(requests);
    let replies = Rc::new(replies);
    let output = ChannelOutput {
        replies: replies.clone(),
        inputs: requests.clone(),
    };
    let mut interp = Interp::new(config, Box::new(output));
    interp.interrupt = interrupt;
    while let Ok(request) = requests.recv() {
        let reply = match request {
            Request::Execute {
                code,
                source_name,
                show_result,
                execution_count,
            } => {
                // A bug in the interpreter must not end the session: report it and go on.
                let run = std::panic::AssertUnwindSafe(|| {
                    execute(&mut interp, &replies, code, source_name, show_result)
                });
                let failed = std::panic::catch_unwind(run).unwrap_or_else(|panic| {
                    let what = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    let _ = replies.send(Reply::Event(Event::Error(internal_error(&what))));
                    true
                });
                Reply::Done(Outcome {
                    execution_count,
                    failed,
                })
            }
            Request::Complete { code, cursor } => {
                Reply::Completions(complete(&interp, &code, cursor))
            }
            Request::Inspect { code, cursor } => {
                Reply::Inspection(help::inspect(&interp, &code, cursor))
            }
            Request::Screen(rows, cols) => {
                difflab_lang::show::set_screen(rows, cols);
                continue;
            }
            Request::Input(_) => continue,
        };
        if replies.send(reply).is_err() {
            break;
        }
    }
}

/// The report of a bug in difflab itself (a panic), which the session survives.
fn internal_error(what: &str) -> ErrorReport {
    ErrorReport {
        ename: "InternalError".into(),
        evalue: what.to_string(),
        traceback: vec![format!(
            "ERROR: InternalError: {what} (this is a bug in difflab; your variables are intact)"
        )],
    }
}

/// Runs one input; true when it failed.
fn execute(
    interp: &mut Interp,
    replies: &Sender,
    code: String,
    source_name: String,
    show_result: bool,
) -> bool {
    let send = |e: Event| {
        let _ = replies.send(Reply::Event(e));
    };
    if let Some(topic) = help::help_query(&code).or_else(|| help::help_call(interp, &code)) {
        send(Event::Result(help::help_bundle(interp, topic)));
        return false;
    }
    let source = Rc::new(Source {
        name: source_name,
        text: code,
    });
    let program = match difflab_syntax::parse(&source.text) {
        Ok(p) => p,
        Err(e) => {
            let mut error = LangError::new(difflab_lang::ErrorKind::LoadError, e.message());
            error.location = Some((source.clone(), e.span));
            send(Event::Error(report(&error)));
            return true;
        }
    };
    let hide = ends_with_semicolon(&source.text);
    match interp.run(&program, source) {
        Ok(value) => {
            if show_result && !hide && !matches!(value, Value::Nothing) {
                send(Event::Result(bundle(&value)));
            }
            if !matches!(value, Value::Nothing) {
                interp.set_global(difflab_syntax::Name::new("ans"), value);
            }
            false
        }
        Err(e) => {
            send(Event::Error(report(&e)));
            true
        }
    }
}

/// True when the input's last token is `;` (comments after it do not count), which hides its
/// value as in Julia's REPL: `x = f(1);  # a note`.
fn ends_with_semicolon(text: &str) -> bool {
    use difflab_syntax::lexer::{lex, TokenKind};
    let (tokens, _) = lex(text);
    tokens
        .iter()
        .rev()
        .find(|t| !matches!(t.kind, TokenKind::Newline | TokenKind::Eof))
        .is_some_and(|t| t.kind == TokenKind::Semicolon)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_semicolon_hides_the_value_even_before_a_comment() {
        assert!(ends_with_semicolon("x = 1;"));
        assert!(ends_with_semicolon("x = 1;  # a note\n"));
        assert!(ends_with_semicolon("f(x) = x;\n#= block =#"));
        assert!(!ends_with_semicolon("x = 1  # a note;"));
        assert!(!ends_with_semicolon("s = \"a;\""));
        assert!(!ends_with_semicolon(""));
    }

    #[test]
    fn capped_cuts_at_a_character_boundary_and_says_how_much() {
        let text = "é".repeat(MAX_OUTPUT_BYTES); // two bytes each
        let cut = capped(text);
        let (kept, note) = cut.rsplit_once('\n').expect("a note line");
        assert_eq!(kept.len(), MAX_OUTPUT_BYTES);
        assert_eq!(
            note,
            format!("[output truncated: {MAX_OUTPUT_BYTES} bytes not shown]")
        );
        let odd = format!("a{}", "é".repeat(MAX_OUTPUT_BYTES / 2));
        assert!(capped(odd).starts_with('a'));
        assert_eq!(capped("small".into()), "small");
    }
}
