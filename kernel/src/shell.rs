//! The shell thread: receives requests on the shell ROUTER, one at a time, and answers them.
//!
//! Every request is wrapped as the protocol asks: `busy` on IOPub, the side effects, an IOPub
//! flush (so the output precedes the reply), the reply, then `idle`, all with the request as
//! parent. A message that fails its signature check or does not parse is logged and dropped
//! without any of that. After a failed execution with `stop_on_error`, the execute requests
//! already queued are answered without running (status `error`, ename `ExecutionAborted`:
//! protocol 5.1 deprecates the `aborted` status in favour of an error). "Already queued" means
//! received before the failed reply is sent: they are taken off the socket then, so a request a
//! client sends after seeing the failure always runs, however the threads are scheduled.

use crate::execute::{self, Context};
use crate::handlers;
use crate::history;
use crate::kernel::{Kernel, POLL_MS};
use crate::wire::Message;
use difflab_session::Session;
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};

/// The state the shell thread owns.
struct Shell<'a> {
    socket: &'a zmq::Socket,
    stdin: &'a zmq::Socket,
    kernel: &'a Kernel,
    session: Session,
    outputs: HashMap<usize, String>,
    /// Requests received before a failed execution's reply; their executions are aborted.
    queued: VecDeque<Message>,
    /// The request being handled came from `queued`.
    aborting: bool,
    /// The execution just handled failed with `stop_on_error`.
    stop: bool,
}

/// Serves the shell socket until the kernel stops.
pub fn serve(socket: &zmq::Socket, stdin: &zmq::Socket, session: Session, kernel: &Kernel) {
    let mut shell = Shell {
        socket,
        stdin,
        kernel,
        session,
        outputs: HashMap::new(),
        queued: VecDeque::new(),
        aborting: false,
        stop: false,
    };
    while !kernel.stopping() {
        if let Some(request) = shell.queued.pop_front() {
            shell.aborting = true;
            shell.handle(&request);
            shell.aborting = false;
            continue;
        }
        match socket.poll(zmq::POLLIN, POLL_MS) {
            Ok(0) => continue,
            Ok(_) => {}
            Err(e) => {
                eprintln!("difflab-kernel: shell socket failed: {e}");
                kernel.shut_down();
                return;
            }
        }
        let Ok(frames) = socket.recv_multipart(0) else {
            continue;
        };
        match kernel.codec.decode(frames) {
            Ok(request) => shell.handle(&request),
            Err(e) => eprintln!("difflab-kernel: dropped a message on shell: {e}"),
        }
    }
}

impl Shell<'_> {
    fn handle(&mut self, request: &Message) {
        let parent = &request.header;
        let iopub = &self.kernel.iopub;
        iopub.status(parent, "busy");
        let reply = self.reply(request);
        if std::mem::take(&mut self.stop) {
            self.take_waiting();
        }
        iopub.flush();
        if let Some((msg_type, content)) = reply {
            let reply = self.kernel.codec.reply(request, msg_type, content);
            if let Err(e) = self
                .socket
                .send_multipart(self.kernel.codec.encode(&reply), 0)
            {
                eprintln!("difflab-kernel: cannot send {msg_type}: {e}");
            }
        }
        iopub.status(parent, "idle");
        if request.msg_type() == "shutdown_request" {
            iopub.flush();
            self.kernel.shut_down();
        }
    }

    /// Takes every request already waiting on the socket into `queued`, in order.
    fn take_waiting(&mut self) {
        while let Ok(frames) = self.socket.recv_multipart(zmq::DONTWAIT) {
            match self.kernel.codec.decode(frames) {
                Ok(request) => self.queued.push_back(request),
                Err(e) => eprintln!("difflab-kernel: dropped a message on shell: {e}"),
            }
        }
    }

    /// The reply type and content for `request`, if it has a reply.
    fn reply(&mut self, request: &Message) -> Option<(&'static str, Value)> {
        let content = &request.content;
        let reply = match request.msg_type() {
            "execute_request" if self.aborting => (
                "execute_reply",
                json!({
                    "status": "error",
                    "execution_count": self.session.execution_count(),
                    "ename": "ExecutionAborted",
                    "evalue": "not run because an earlier cell failed",
                    "traceback": [],
                }),
            ),
            "execute_request" => {
                let cx = Context {
                    session: &mut self.session,
                    outputs: &mut self.outputs,
                    stdin: self.stdin,
                    kernel: self.kernel,
                };
                let done = execute::execute(cx, request);
                let silent = request.bool_field("silent", false);
                if done.failed && !silent && request.bool_field("stop_on_error", true) {
                    self.stop = true;
                }
                ("execute_reply", done.reply)
            }
            "kernel_info_request" => ("kernel_info_reply", handlers::kernel_info()),
            "complete_request" => (
                "complete_reply",
                handlers::complete(&mut self.session, content),
            ),
            "inspect_request" => (
                "inspect_reply",
                handlers::inspect(&mut self.session, content),
            ),
            "is_complete_request" => (
                "is_complete_reply",
                handlers::is_complete(&self.session, content),
            ),
            "history_request" => {
                let history = history::query(self.session.history(), &self.outputs, content);
                ("history_reply", json!({"status": "ok", "history": history}))
            }
            "comm_info_request" => ("comm_info_reply", handlers::comm_info()),
            "comm_open" => {
                // No comm targets exist: close the comm at once, as the spec asks.
                let close = json!({"comm_id": content["comm_id"], "data": {}});
                self.kernel
                    .iopub
                    .publish(&request.header, "comm_close", close);
                return None;
            }
            "comm_msg" | "comm_close" => return None,
            // Deprecated on shell since 5.4, still honoured.
            "shutdown_request" => ("shutdown_reply", handlers::shutdown(content)),
            other => {
                eprintln!("difflab-kernel: ignoring unknown shell message type {other:?}");
                return None;
            }
        };
        Some(reply)
    }
}
