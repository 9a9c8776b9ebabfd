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
    let publisher = context
        .socket(zmq::XPUB)
        .map_err(|e| format!("cannot create the iopub socket: {e}"))?;
    // Verbose: every subscription is reported (and welcomed), not only the first of a topic.
    // No high-water mark: output is never dropped, however much a cell prints.
    publisher
        .set_xpub_verbose(true)
        .and_then(|()| publisher.set_sndhwm(0))
        .and_then(|()| publisher.set_linger(LINGER_MS))
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
