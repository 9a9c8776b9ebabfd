//! The control thread: `interrupt_request`, `shutdown_request` and `kernel_info_request` on
//! the control ROUTER. It never runs code, so it answers while a cell runs on the shell thread;
//! each request is wrapped in `busy`/`idle` on IOPub like a shell request.
//!
//! Shutdown ends the process whether or not `restart` is set: a client restarting a kernel waits
//! for the process to exit and starts a new one, which gets a fresh session.

use crate::handlers;
use crate::kernel::{Kernel, POLL_MS};
use crate::wire::Message;
use serde_json::{json, Value};

/// Serves the control socket until the kernel stops.
pub fn serve(socket: &zmq::Socket, kernel: &Kernel) {
    while !kernel.stopping() {
        match socket.poll(zmq::POLLIN, POLL_MS) {
            Ok(0) => continue,
            Ok(_) => {}
            Err(e) => {
                eprintln!("difflab-kernel: control socket failed: {e}");
                kernel.shut_down();
                return;
            }
        }
        let Ok(frames) = socket.recv_multipart(0) else {
            continue;
        };
        match kernel.codec.decode(frames) {
            Ok(request) => handle(socket, kernel, &request),
            Err(e) => eprintln!("difflab-kernel: dropped a message on control: {e}"),
        }
    }
}

fn handle(socket: &zmq::Socket, kernel: &Kernel, request: &Message) {
    let parent = &request.header;
    kernel.iopub.status(parent, "busy");
    let reply: Option<(&str, Value)> = match request.msg_type() {
        "kernel_info_request" => Some(("kernel_info_reply", handlers::kernel_info())),
        "interrupt_request" => {
            kernel.interrupter.interrupt();
            Some(("interrupt_reply", json!({"status": "ok"})))
        }
        "shutdown_request" => {
            // Stop a running cell, so the shell thread answers it and returns before the
            // process ends.
            kernel.interrupter.interrupt();
            Some(("shutdown_reply", handlers::shutdown(&request.content)))
        }
        other => {
            eprintln!("difflab-kernel: ignoring unknown control message type {other:?}");
            None
        }
    };
    kernel.iopub.flush();
    if let Some((msg_type, content)) = reply {
        let reply = kernel.codec.reply(request, msg_type, content);
        if let Err(e) = socket.send_multipart(kernel.codec.encode(&reply), 0) {
            eprintln!("difflab-kernel: cannot send {msg_type}: {e}");
        }
    }
    kernel.iopub.status(parent, "idle");
    if request.msg_type() == "shutdown_request" {
        kernel.iopub.flush();
        kernel.shut_down();
    }
}
