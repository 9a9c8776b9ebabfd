//! difflab-session: the one engine both frontends (the REPL and the Jupyter kernel) drive.
//!
//! A [`Session`] owns an interpreter on its own thread and offers exactly what frontends need:
//! [`Session::execute`] (an ordered stream of [`Event`]s with MIME bundles),
//! [`Session::complete`], [`Session::inspect`], [`Session::is_complete`], [`Session::history`]
//! and an [`InterruptHandle`]. Variables survive every error, interrupt, stack overflow and
//! refused allocation. Frontends never see interpreter values, only events.
//!
//! Modules: [`events`] (what executions produce), `engine` (the interpreter thread), `outbox`
//! (the bounded, coalescing path of its replies), [`complete`] (completion), [`help`] (`?name`
//! and inspection), [`latex`] (`\alpha` input).

pub mod complete;
mod engine;
pub mod events;
pub mod help;
pub mod latex;
mod outbox;

pub use complete::Completions;
pub use difflab_lang::Config;
pub use events::{ErrorReport, Event, MimeBundle, Outcome, Progress, StreamName};

use engine::{Reply, Request};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

/// The stack of the interpreter thread: deep enough for the configured recursion limit.
const ENGINE_STACK_BYTES: usize = 1 << 30;

/// Receives what an execution produces.
pub trait Frontend {
    /// One event, in order.
    fn event(&mut self, event: Event);
    /// The program asks for a line of input (`readline()`); `None` means none is available.
    fn input(&mut self, _prompt: &str) -> Option<String> {
        None
    }
    /// A progress bar is redrawn. By default it is stderr text redrawn with `\r`, as a
    /// terminal shows it; a notebook frontend updates one display in place instead.
    fn progress(&mut self, progress: Progress) {
        self.event(Event::Stream {
            name: StreamName::Stderr,
            text: progress.terminal_text,
        });
    }
}

impl<F: FnMut(Event)> Frontend for F {
    fn event(&mut self, event: Event) {
        self(event)
    }
}

/// Whether some code is a complete input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completeness {
    /// It can run as is.
    Complete,
    /// More lines are needed; the suggested indentation for the next one.
    Incomplete(String),
    /// It cannot become valid by adding more.
    Invalid,
}

/// How to run an input.
#[derive(Debug, Clone)]
pub struct ExecuteOptions {
    /// Add it to the history and give it an execution count.
    pub store_history: bool,
    /// Report the final value as a [`Event::Result`] (the REPL and notebooks do, scripts don't).
    pub show_result: bool,
    /// How errors name the input; by default `In[n]`.
    pub source_name: Option<String>,
}

impl Default for ExecuteOptions {
    fn default() -> ExecuteOptions {
        ExecuteOptions {
            store_history: true,
            show_result: true,
            source_name: None,
        }
    }
}

/// Raises the interrupt flag of a session from any thread.
#[derive(Clone)]
pub struct InterruptHandle(Arc<AtomicBool>);

impl InterruptHandle {
    /// Stops the running input with `InterruptException` (within milliseconds).
    pub fn interrupt(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// One interactive session.
pub struct Session {
    requests: Sender<Request>,
    replies: outbox::Receiver,
    interrupt: Arc<AtomicBool>,
    history: Vec<String>,
    execution_count: usize,
    engine: Option<JoinHandle<()>>,
}

impl Session {
    /// A new session with default limits.
    pub fn new() -> Session {
        Session::with_config(Config::default())
    }

    /// A new session with the given limits.
    pub fn with_config(config: Config) -> Session {
        let (request_tx, request_rx) = channel();
        let interrupt = Arc::new(AtomicBool::new(false));
        let (reply_tx, reply_rx) = outbox::outbox(interrupt.clone());
        let flag = interrupt.clone();
        let engine = std::thread::Builder::new()
            .name("difflab-engine".into())
            .stack_size(ENGINE_STACK_BYTES)
            .spawn(move || engine::run(config, flag, request_rx, reply_tx))
            .expect("the engine thread starts");
        Session {
            requests: request_tx,
            replies: reply_rx,
            interrupt,
            history: Vec::new(),
            execution_count: 0,
            engine: Some(engine),
        }
    }

    /// Lays values (matrices, plots) out for a display of `rows` × `cols` from now on, as Julia
    /// does for its terminal; the default is 24 × 80.
    pub fn set_screen(&mut self, rows: usize, cols: usize) {
        let _ = self.requests.send(Request::Screen(rows, cols));
    }

    /// Runs `code`, sending every event to `frontend` as it happens.
    pub fn execute(
        &mut self,
        code: &str,
        options: &ExecuteOptions,
        frontend: &mut dyn Frontend,
    ) -> Outcome {
        if options.store_history {
            self.execution_count += 1;
            self.history.push(code.to_string());
        }
        let count = self.execution_count;
        let request = Request::Execute {
            code: code.to_string(),
            source_name: options
                .source_name
                .clone()
                .unwrap_or_else(|| format!("In[{count}]")),
            show_result: options.show_result,
            execution_count: count,
        };
        if self.requests.send(request).is_err() {
            return self.engine_lost(frontend, count);
        }
        loop {
            match self.replies.recv() {
                Ok(Reply::Event(e)) => frontend.event(e),
                Ok(Reply::Progress(p)) => frontend.progress(p),
                Ok(Reply::InputRequest(prompt)) => {
                    let line = frontend.input(&prompt);
                    if self.requests.send(Request::Input(line)).is_err() {
                        return self.engine_lost(frontend, count);
                    }
                }
                Ok(Reply::Done(outcome)) => return outcome,
                Ok(_) => continue,
                Err(_) => return self.engine_lost(frontend, count),
            }
        }
    }

    /// Runs `code` and collects its events.
    pub fn execute_collect(
        &mut self,
        code: &str,
        options: &ExecuteOptions,
    ) -> (Outcome, Vec<Event>) {
        let mut events = Vec::new();
        let outcome = self.execute(code, options, &mut |e| events.push(e));
        (outcome, events)
    }

    fn engine_lost(&mut self, frontend: &mut dyn Frontend, count: usize) -> Outcome {
        frontend.event(Event::Error(ErrorReport {
            ename: "InternalError".into(),
            evalue: "the interpreter stopped unexpectedly".into(),
            traceback: vec![
                "ERROR: the interpreter stopped unexpectedly; restart the session".into(),
            ],
        }));
        Outcome {
            execution_count: count,
            failed: true,
        }
    }

    /// Completion candidates at byte offset `cursor`.
    pub fn complete(&mut self, code: &str, cursor: usize) -> Completions {
        let request = Request::Complete {
            code: code.to_string(),
            cursor,
        };
        match self.ask(request) {
            Some(Reply::Completions(c)) => c,
            _ => Completions::empty(cursor),
        }
    }

    /// The documentation of the name at byte offset `cursor`, if any.
    pub fn inspect(&mut self, code: &str, cursor: usize) -> Option<String> {
        let request = Request::Inspect {
            code: code.to_string(),
            cursor,
        };
        match self.ask(request) {
            Some(Reply::Inspection(doc)) => doc,
            _ => None,
        }
    }

    fn ask(&mut self, request: Request) -> Option<Reply> {
        self.requests.send(request).ok()?;
        loop {
            match self.replies.recv().ok()? {
                Reply::Event(_) | Reply::Progress(_) | Reply::InputRequest(_) | Reply::Done(_) => {
                    continue
                }
                other => return Some(other),
            }
        }
    }

    /// Whether `code` is a complete input, needs more lines, or is invalid.
    pub fn is_complete(&self, code: &str) -> Completeness {
        if help::help_query(code).is_some() {
            return Completeness::Complete;
        }
        match difflab_syntax::parse(code) {
            Ok(_) => Completeness::Complete,
            Err(e) if e.is_incomplete() => Completeness::Incomplete("    ".into()),
            Err(_) => Completeness::Invalid,
        }
    }

    /// Every input executed with `store_history`, oldest first.
    pub fn history(&self) -> &[String] {
        &self.history
    }

    /// The number of inputs executed with `store_history`.
    pub fn execution_count(&self) -> usize {
        self.execution_count
    }

    /// A handle that interrupts the running input from another thread.
    pub fn interrupt_handle(&self) -> InterruptHandle {
        InterruptHandle(self.interrupt.clone())
    }
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Closing the request channel ends the engine loop.
        let (dead, _) = channel();
        self.requests = dead;
        // An engine waiting for room in the outbox is released too.
        self.replies.close();
        if let Some(engine) = self.engine.take() {
            self.interrupt.store(true, Ordering::Relaxed);
            let _ = engine.join();
        }
    }
}
