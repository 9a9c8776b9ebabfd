//! `execute_request`: runs a cell through the session and turns its events into IOPub messages.
//!
//! [`execute`] publishes `execute_input`, then each event as it happens (`stream`,
//! `display_data`, `clear_output`, `execute_result`, `error`), and returns the reply content.
//! A progress bar is one display updated in place: `display_data` with a `display_id` for its
//! first redraw, `update_display_data` for the others (see [`crate::progress`]).
//! `?name` and `name?` come back as a `page` payload (Markdown and text) instead of a result. `readline()` in the
//! cell becomes an `input_request` on the stdin socket when the request allows stdin.

use crate::handlers::bundle;
use crate::iopub::Iopub;
use crate::kernel::Kernel;
use crate::progress::ProgressDisplays;
use crate::wire::Message;
use difflab_session::{
    ErrorReport, Event, ExecuteOptions, Frontend, Progress, Session, StreamName,
};
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::sync::atomic::Ordering;

/// How long one wait for an `input_reply` blocks before checking for interrupts and shutdown.
const INPUT_POLL_MS: i64 = 100;

/// The parts of the shell thread an execution uses.
pub struct Context<'a> {
    /// The session running the code.
    pub session: &'a mut Session,
    /// The `text/plain` result of each stored execution, by execution count (for history).
    pub outputs: &'a mut HashMap<usize, String>,
    /// The stdin ROUTER socket, for `input_request`.
    pub stdin: &'a zmq::Socket,
    /// The kernel's shared parts.
    pub kernel: &'a Kernel,
}

/// The reply content of an execution, and whether it failed.
pub struct Executed {
    /// The `execute_reply` content.
    pub reply: Value,
    /// The execution raised an error.
    pub failed: bool,
}

/// Runs the code of `request` (an `execute_request`).
pub fn execute(cx: Context<'_>, request: &Message) -> Executed {
    let code = request.str_field("code");
    let silent = request.bool_field("silent", false);
    // Blank cells are not counted, as in IPython.
    let store_history =
        !silent && request.bool_field("store_history", true) && !code.trim().is_empty();
    let allow_stdin = request.bool_field("allow_stdin", false);
    let parent = &request.header;
    let iopub = &cx.kernel.iopub;
    let execution_count = cx.session.execution_count() + usize::from(store_history);
    if !silent {
        iopub.publish(
            parent,
            "execute_input",
            json!({"code": code, "execution_count": execution_count}),
        );
    }
    if code.trim().is_empty() {
        return Executed {
            reply: ok_reply(execution_count, Vec::new(), json!({})),
            failed: false,
        };
    }
    let mut cell = Cell {
        iopub,
        parent,
        silent,
        help: difflab_session::help::help_query(code).is_some(),
        execution_count,
        result: None,
        page: None,
        error: None,
        progress: ProgressDisplays::default(),
        stdin: allow_stdin.then_some(Stdin {
            socket: cx.stdin,
            kernel: cx.kernel,
            request,
        }),
    };
    let options = ExecuteOptions {
        store_history,
        show_result: true,
        source_name: None,
    };
    let outcome = cx.session.execute(code, &options, &mut cell);
    if outcome.failed {
        let error = cell.error.unwrap_or_else(|| ErrorReport {
            ename: "Error".into(),
            evalue: "the execution failed".into(),
            traceback: Vec::new(),
        });
        let reply = json!({
            "status": "error",
            "execution_count": outcome.execution_count,
            "ename": error.ename,
            "evalue": error.evalue,
            "traceback": error.traceback,
            "payload": [],
            "user_expressions": {},
        });
        return Executed {
            reply,
            failed: true,
        };
    }
    if let (true, Some(text)) = (store_history, cell.result) {
        cx.outputs.insert(outcome.execution_count, text);
    }
    let payload = cell
        .page
        .map(|data| json!({"source": "page", "data": data, "start": 0}))
        .into_iter()
        .collect();
    let expressions = user_expressions(cx.session, &request.content["user_expressions"]);
    Executed {
        reply: ok_reply(outcome.execution_count, payload, expressions),
        failed: false,
    }
}

fn ok_reply(execution_count: usize, payload: Vec<Value>, user_expressions: Value) -> Value {
    json!({
        "status": "ok",
        "execution_count": execution_count,
        "payload": payload,
        "user_expressions": user_expressions,
    })
}

/// Evaluates each `name: code` quietly; the value's bundle, or the error, by name.
fn user_expressions(session: &mut Session, expressions: &Value) -> Value {
    let Some(expressions) = expressions.as_object() else {
        return json!({});
    };
    let mut results = Map::new();
    for (name, code) in expressions {
        let options = ExecuteOptions {
            store_history: false,
            show_result: true,
            source_name: Some(format!("user_expressions[{name}]")),
        };
        let (_, events) = session.execute_collect(code.as_str().unwrap_or(""), &options);
        let mut result = json!({"status": "ok", "data": {"text/plain": "nothing"}, "metadata": {}});
        for event in events {
            match event {
                Event::Result(b) => {
                    result = json!({"status": "ok", "data": bundle(&b), "metadata": {}})
                }
                Event::Error(e) => {
                    result = json!({
                        "status": "error",
                        "ename": e.ename,
                        "evalue": e.evalue,
                        "traceback": e.traceback,
                    })
                }
                _ => {}
            }
        }
        results.insert(name.clone(), result);
    }
    Value::Object(results)
}

/// The frontend one cell's events go to.
struct Cell<'a> {
    iopub: &'a Iopub,
    parent: &'a Value,
    silent: bool,
    help: bool,
    execution_count: usize,
    result: Option<String>,
    page: Option<Value>,
    error: Option<ErrorReport>,
    progress: ProgressDisplays,
    stdin: Option<Stdin<'a>>,
}

impl Frontend for Cell<'_> {
    fn event(&mut self, event: Event) {
        match event {
            Event::Result(b) if self.help => self.page = Some(bundle(&b)),
            Event::Result(b) => {
                self.result = Some(b.plain().to_string());
                self.publish(
                    "execute_result",
                    json!({
                        "execution_count": self.execution_count,
                        "data": bundle(&b),
                        "metadata": {},
                    }),
                );
            }
            Event::Error(e) => {
                self.publish(
                    "error",
                    json!({"ename": e.ename, "evalue": e.evalue, "traceback": e.traceback}),
                );
                self.error = Some(e);
            }
            Event::Stream { name, text } if !self.silent => {
                let name = match name {
                    StreamName::Stdout => "stdout",
                    StreamName::Stderr => "stderr",
                };
                self.iopub.stream(self.parent, name, text);
            }
            Event::Stream { .. } => {}
            Event::Display(b) => self.publish(
                "display_data",
                json!({"data": bundle(&b), "metadata": {}, "transient": {}}),
            ),
            Event::ClearOutput { wait } => self.publish("clear_output", json!({"wait": wait})),
        }
    }

    fn progress(&mut self, progress: Progress) {
        if !self.silent {
            let (msg_type, content) = self.progress.message(&progress);
            self.publish(msg_type, content);
        }
    }

    fn input(&mut self, prompt: &str) -> Option<String> {
        // Output printed before the prompt must reach the client first.
        self.iopub.flush();
        self.stdin.as_ref()?.read_line(prompt)
    }
}

impl Cell<'_> {
    fn publish(&self, msg_type: &str, content: Value) {
        if !self.silent {
            self.iopub.publish(self.parent, msg_type, content);
        }
    }
}

/// The stdin channel of one execute request.
struct Stdin<'a> {
    socket: &'a zmq::Socket,
    kernel: &'a Kernel,
    request: &'a Message,
}

impl Stdin<'_> {
    /// Sends an `input_request` to the client that sent the execute request and waits for its
    /// `input_reply`; `None` when interrupted or shutting down.
    fn read_line(&self, prompt: &str) -> Option<String> {
        let codec = &self.kernel.codec;
        // Replies to earlier (interrupted) requests must not answer this one.
        while self.socket.recv_multipart(zmq::DONTWAIT).is_ok() {}
        let content = json!({"prompt": prompt, "password": false});
        let mut ask = codec.message(&self.request.header, "input_request", content);
        ask.identities = self.request.identities.clone();
        if let Err(e) = self.socket.send_multipart(codec.encode(&ask), 0) {
            eprintln!("difflab-kernel: cannot send input_request: {e}");
            return None;
        }
        let interrupts = self.kernel.interrupter.count();
        loop {
            if self.kernel.stop.load(Ordering::Relaxed)
                || self.kernel.interrupter.count() != interrupts
            {
                return None;
            }
            if self.socket.poll(zmq::POLLIN, INPUT_POLL_MS).ok()? == 0 {
                continue;
            }
            let frames = self.socket.recv_multipart(0).ok()?;
            match codec.decode(frames) {
                Ok(reply) if reply.msg_type() == "input_reply" => {
                    return Some(reply.str_field("value").to_string());
                }
                Ok(other) => eprintln!("difflab-kernel: ignoring {} on stdin", other.msg_type()),
                Err(e) => eprintln!("difflab-kernel: dropped a message on stdin: {e}"),
            }
        }
    }
}
