//! The kernel process: binds the five sockets and runs one thread per socket.
//!
//! ZeroMQ sockets are `Send` but not `Sync`, so each has one owning thread, and threads talk
//! through channels:
//! - `shell` ([`crate::shell`]) owns the shell and stdin ROUTERs and the [`Session`]; it runs
//!   cells, so it blocks while one runs;
//! - `control` ([`crate::control`]) owns the control ROUTER and is never blocked by a cell, so
//!   `interrupt_request` and `shutdown_request` work while one runs;
//! - `iopub` ([`crate::iopub`]) owns the IOPub XPUB, fed in order through [`Iopub`];
//! - `heartbeat` echoes every ping on its REP socket.
//!
//! Socket threads wake every [`POLL_MS`] to notice [`Kernel::stop`]; on shutdown the main thread
//! waits for them (briefly: a cell stuck outside the interpreter's interrupt checks must not keep
//! the process alive) and ends the process.

use crate::connection::ConnectionInfo;
use crate::iopub::{self, Iopub};
use crate::wire::Codec;
use difflab_session::{InterruptHandle, Session};
use serde_json::json;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a socket thread blocks before checking [`Kernel::stop`].
pub const POLL_MS: i64 = 100;

/// How long queued outgoing messages may delay closing a socket.
const LINGER_MS: i32 = 1000;

/// How long shutdown waits for the threads before ending the process anyway.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// Raises the session's interrupt flag and counts interrupts (so a wait for input can notice).
#[derive(Clone)]
pub struct Interrupter {
    handle: InterruptHandle,
    count: Arc<AtomicUsize>,
}

impl Interrupter {
    /// An interrupter for the session behind `handle`.
    pub fn new(handle: InterruptHandle) -> Interrupter {
        Interrupter {
            handle,
            count: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Interrupts the running cell (`InterruptException`) or a wait for input.
    pub fn interrupt(&self) {
        self.count.fetch_add(1, Ordering::SeqCst);
        self.handle.interrupt();
    }

    /// How many interrupts there have been.
    pub fn count(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }
}

/// What every socket thread shares.
#[derive(Clone)]
pub struct Kernel {
    /// Signs and parses messages.
    pub codec: Arc<Codec>,
    /// Publishes on IOPub, in order.
    pub iopub: Iopub,
    /// Interrupts the session.
    pub interrupter: Interrupter,
    /// Raised when the kernel shuts down; socket threads then return.
    pub stop: Arc<AtomicBool>,
    shutdown: Sender<()>,
}

impl Kernel {
    /// Starts shutting the kernel down (after a `shutdown_request`).
    pub fn shut_down(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.interrupter.interrupt();
        let _ = self.shutdown.send(());
    }

    /// Whether the kernel is shutting down.
    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }
}

/// Binds the sockets of `info`, serves until a `shutdown_request`, then returns.
pub fn run(info: &ConnectionInfo) -> Result<(), String> {
    let context = zmq::Context::new();
    let bind = |kind: zmq::SocketType, port: u16, name: &str| -> Result<zmq::Socket, String> {
        let endpoint = info.endpoint(port);
        let socket = context
            .socket(kind)
            .map_err(|e| format!("cannot create the {name} socket: {e}"))?;
        socket
            .set_linger(LINGER_MS)
            .and_then(|()| socket.bind(&endpoint))
            .map_err(|e| format!("cannot bind the {name} socket to {endpoint}: {e}"))?;
        Ok(socket)
    };
    let shell = bind(zmq::ROUTER, info.shell_port, "shell")?;
    let control = bind(zmq::ROUTER, info.control_port, "control")?;
    let stdin = bind(zmq::ROUTER, info.stdin_port, "stdin")?;
    let heartbeat = bind(zmq::REP, info.hb_port, "heartbeat")?;
    let publisher =
        iopub::publisher(&context).map_err(|e| format!("cannot create the iopub socket: {e}"))?;
    publisher
        .set_linger(LINGER_MS)
        .and_then(|()| publisher.bind(&info.endpoint(info.iopub_port)))
        .map_err(|e| format!("cannot bind the iopub socket: {e}"))?;

    let codec = Arc::new(Codec::new(&info.key, uuid::Uuid::new_v4().to_string()));
    let (iopub, writer) = iopub::spawn(publisher, codec.clone())
        .map_err(|e| format!("cannot start the iopub thread: {e}"))?;
    let session = Session::new();
    let interrupter = Interrupter::new(session.interrupt_handle());
    let on_sigint = interrupter.clone();
    // SIGINT (a terminal's Ctrl-C, or a client in signal mode) only interrupts the running cell.
    if let Err(e) = ctrlc::set_handler(move || on_sigint.interrupt()) {
        eprintln!("difflab-kernel: cannot install the SIGINT handler: {e}");
    }
    let (shutdown, shutdown_requested) = channel();
    let kernel = Kernel {
        codec,
        iopub: iopub.clone(),
        interrupter,
        stop: Arc::new(AtomicBool::new(false)),
        shutdown,
    };
    iopub.status(&json!({}), "starting");

    let (finished, finished_rx) = channel::<&'static str>();
    let spawn = |name: &'static str, body: Box<dyn FnOnce() + Send>| -> Result<(), String> {
        let finished = finished.clone();
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                body();
                let _ = finished.send(name);
            })
            .map(drop)
            .map_err(|e| format!("cannot start the {name} thread: {e}"))
    };
    let k = kernel.clone();
    spawn("heartbeat", Box::new(move || echo(&heartbeat, &k)))?;
    let k = kernel.clone();
    spawn(
        "control",
        Box::new(move || crate::control::serve(&control, &k)),
    )?;
    let k = kernel.clone();
    spawn(
        "shell",
        Box::new(move || crate::shell::serve(&shell, &stdin, session, &k)),
    )?;
    drop(finished);
    drop(kernel);

    // Every sender gone (a thread died) ends the kernel too.
    let _ = shutdown_requested.recv();
    let deadline = Instant::now() + SHUTDOWN_GRACE;
    let mut running = 3;
    while running > 0 {
        let left = deadline.saturating_duration_since(Instant::now());
        match finished_rx.recv_timeout(left) {
            Ok(_) => running -= 1,
            Err(_) => break,
        }
    }
    iopub.stop();
    let _ = writer.join();
    if running > 0 {
        eprintln!("difflab-kernel: a thread did not stop in time; exiting anyway");
        std::process::exit(0);
    }
    // Dropping the context here waits (up to the linger time) for queued replies to go out.
    drop(context);
    Ok(())
}

/// The heartbeat: echoes every message back unchanged.
fn echo(socket: &zmq::Socket, kernel: &Kernel) {
    while !kernel.stopping() {
        match socket.poll(zmq::POLLIN, POLL_MS) {
            Ok(0) => continue,
            Ok(_) => {}
            Err(_) => return,
        }
        if let Ok(ping) = socket.recv_multipart(0) {
            let _ = socket.send_multipart(ping, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    //! The kernel over loopback TCP, driven by a small client on the same `zmq` crate.

    use super::*;
    use crate::wire::Message;
    use serde_json::Value;

    fn free_port() -> u16 {
        std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    }

    struct Client {
        codec: Codec,
        shell: zmq::Socket,
        control: zmq::Socket,
        iopub: zmq::Socket,
        _context: zmq::Context,
    }

    impl Client {
        fn connect(info: &ConnectionInfo) -> Client {
            let context = zmq::Context::new();
            let socket = |kind, port| {
                let s = context.socket(kind).unwrap();
                s.set_linger(0).unwrap();
                s.connect(&info.endpoint(port)).unwrap();
                s
            };
            let iopub = socket(zmq::SUB, info.iopub_port);
            iopub.set_subscribe(b"").unwrap();
            Client {
                codec: Codec::new(&info.key, "client".into()),
                shell: socket(zmq::DEALER, info.shell_port),
                control: socket(zmq::DEALER, info.control_port),
                iopub,
                _context: context,
            }
        }

        fn send(&self, socket: &zmq::Socket, msg_type: &str, content: Value) -> Value {
            let msg = self.codec.message(&json!({}), msg_type, content);
            socket.send_multipart(self.codec.encode(&msg), 0).unwrap();
            msg.header
        }

        fn recv(&self, socket: &zmq::Socket, millis: i64) -> Option<Message> {
            (socket.poll(zmq::POLLIN, millis).unwrap() > 0).then(|| {
                self.codec
                    .decode(socket.recv_multipart(0).unwrap())
                    .unwrap()
            })
        }

        /// The IOPub messages of `request` from busy to idle, as `(msg_type, content)`; `None`
        /// if IOPub stays quiet for `millis` before the idle.
        fn iopub_of(&self, request: &Value, millis: i64) -> Option<Vec<(String, Value)>> {
            let mut seen = Vec::new();
            loop {
                let msg = self.recv(&self.iopub, millis)?;
                if msg.parent_header["msg_id"] != request["msg_id"] {
                    continue;
                }
                let idle = msg.content["execution_state"] == "idle";
                seen.push((msg.msg_type().to_string(), msg.content));
                if idle {
                    return Some(seen);
                }
            }
        }
    }

    #[test]
    fn serves_over_loopback() {
        let info = ConnectionInfo {
            transport: "tcp".into(),
            ip: "127.0.0.1".into(),
            shell_port: free_port(),
            iopub_port: free_port(),
            stdin_port: free_port(),
            control_port: free_port(),
            hb_port: free_port(),
            key: "loopback-key".into(),
            signature_scheme: "hmac-sha256".into(),
        };
        let server = {
            let info = info.clone();
            std::thread::spawn(move || run(&info))
        };
        let client = Client::connect(&info);

        // Retry until the kernel has bound and the subscription is live, as clients do. A
        // subscription that goes live in the middle of a request misses its `busy`, so only a
        // request seen whole (busy first) ends the retries.
        let info_reply = (0..100)
            .find_map(|_| {
                let request = client.send(&client.shell, "kernel_info_request", json!({}));
                let reply = client.recv(&client.shell, 200)?;
                let published = client.iopub_of(&request, 300)?;
                (published[0].1["execution_state"] == "busy").then_some(reply)
            })
            .expect("a kernel_info request answered with busy, then idle, on iopub");
        assert_eq!(info_reply.msg_type(), "kernel_info_reply");
        assert_eq!(info_reply.content["language_info"]["name"], "difflab");

        let request = client.send(&client.shell, "execute_request", json!({"code": "1 + 1"}));
        let reply = client.recv(&client.shell, 5000).unwrap();
        assert_eq!(reply.parent_header, request);
        assert_eq!(reply.content["status"], "ok");
        let published: Vec<_> = client
            .iopub_of(&request, 5000)
            .unwrap()
            .into_iter()
            .map(|(t, _)| t)
            .collect();
        assert_eq!(
            published,
            ["status", "execute_input", "execute_result", "status"]
        );

        let intruder = Codec::new("wrong-key", "intruder".into());
        let bad = intruder.message(&json!({}), "execute_request", json!({"code": "1 + 1"}));
        client
            .shell
            .send_multipart(intruder.encode(&bad), 0)
            .unwrap();
        assert!(client.recv(&client.shell, 300).is_none());

        let request = client.send(
            &client.control,
            "shutdown_request",
            json!({"restart": false}),
        );
        let reply = client.recv(&client.control, 5000).unwrap();
        assert_eq!(reply.content, json!({"status": "ok", "restart": false}));
        assert_eq!(client.iopub_of(&request, 5000).unwrap().len(), 2);
        assert_eq!(server.join().unwrap(), Ok(()));
    }
}
