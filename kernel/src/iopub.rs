//! The IOPub writer: the one thread that owns the IOPub socket.
//!
//! Every other thread publishes through an [`Iopub`] handle, which feeds one ordered channel, so
//! messages go out in exactly the order they were published. [`Iopub::flush`] is a barrier: it
//! returns once everything published before it has been handed to ZeroMQ, which is how a
//! request's output is guaranteed to precede its reply and its `idle` status.
//!
//! Consecutive stream text of one request and stream is merged into one `stream` message
//! (for at most [`STREAM_BATCH`]), so a loop printing a thousand lines sends a few messages,
//! not a thousand. The channel to the writer holds at most [`QUEUE`] messages: a cell that
//! prints faster than the writer publishes waits for it (back through the session's bounded
//! outbox to the program itself), so output never piles up behind a reply, and an interrupted
//! cell's reply follows its interrupt within milliseconds. The socket is an XPUB in manual mode: a new subscription takes effect only
//! when the writer reads it and answers it with an `iopub_welcome` message (protocol 5.5), so
//! the welcome is always a subscriber's first message, however busy the kernel is.

use crate::wire::Codec;
use serde_json::{json, Value};
use std::sync::mpsc::{channel, sync_channel, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long stream text may wait for more text to join it.
const STREAM_BATCH: Duration = Duration::from_millis(10);

/// Stream text above this size is sent at once rather than merged further.
const STREAM_CHUNK: usize = 64 * 1024;

/// How many messages may wait for the writer before publishers wait (each stream message
/// carries at most the session's 64 KiB chunk, so a few megabytes at most).
const QUEUE: usize = 32;

/// How often an idle writer looks for new subscribers.
const SUBSCRIPTION_POLL: Duration = Duration::from_millis(50);

enum Command {
    Publish {
        parent: Value,
        msg_type: String,
        content: Value,
    },
    Stream {
        parent: Value,
        name: &'static str,
        text: String,
    },
    Flush(Sender<()>),
    Stop,
}

/// A handle for publishing on IOPub from any thread.
#[derive(Clone)]
pub struct Iopub {
    commands: SyncSender<Command>,
}

impl Iopub {
    /// Publishes a message of type `msg_type` with `parent` as its parent header.
    pub fn publish(&self, parent: &Value, msg_type: &str, content: Value) {
        let _ = self.commands.send(Command::Publish {
            parent: parent.clone(),
            msg_type: msg_type.to_string(),
            content,
        });
    }

    /// Publishes `status` with `execution_state` `state` (`busy`, `idle`, `starting`).
    pub fn status(&self, parent: &Value, state: &str) {
        self.publish(parent, "status", json!({ "execution_state": state }));
    }

    /// Publishes stream text (`stdout` or `stderr`), merged with neighbouring text.
    pub fn stream(&self, parent: &Value, name: &'static str, text: String) {
        let _ = self.commands.send(Command::Stream {
            parent: parent.clone(),
            name,
            text,
        });
    }

    /// Waits until everything published so far has been handed to the socket.
    pub fn flush(&self) {
        let (done, wait) = channel();
        if self.commands.send(Command::Flush(done)).is_ok() {
            let _ = wait.recv();
        }
    }

    /// Sends what is pending and ends the writer thread.
    pub fn stop(&self) {
        let _ = self.commands.send(Command::Stop);
    }
}

/// The IOPub socket: an XPUB whose subscriptions the writer applies itself (see
/// [`Writer::welcome_subscribers`]), without a high-water mark, so output is never dropped
/// however much a cell prints.
pub fn publisher(context: &zmq::Context) -> zmq::Result<zmq::Socket> {
    let mut socket = context.socket(zmq::XPUB)?;
    set_manual(&mut socket)?;
    socket.set_xpub_verbose(true)?;
    socket.set_sndhwm(0)?;
    Ok(socket)
}

/// Sets `ZMQ_XPUB_MANUAL`, which the `zmq` crate does not wrap.
// Unsafe only because it is a C call: the pointer is a live socket owned by `socket`, and the
// value is a C int that outlives the call.
#[allow(unsafe_code)]
fn set_manual(socket: &mut zmq::Socket) -> zmq::Result<()> {
    let on: std::os::raw::c_int = 1;
    let rc = unsafe {
        zmq_sys::zmq_setsockopt(
            socket.as_mut_ptr(),
            zmq_sys::ZMQ_XPUB_MANUAL as std::os::raw::c_int,
            (&on as *const std::os::raw::c_int).cast(),
            std::mem::size_of_val(&on),
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(zmq::Error::from_raw(unsafe { zmq_sys::zmq_errno() }))
    }
}

/// Starts the writer thread on `socket` (made by [`publisher`]).
pub fn spawn(socket: zmq::Socket, codec: Arc<Codec>) -> std::io::Result<(Iopub, JoinHandle<()>)> {
    let (commands, receiver) = sync_channel(QUEUE);
    let writer = Writer {
        socket,
        codec,
        pending: None,
    };
    let thread = std::thread::Builder::new()
        .name("iopub".into())
        .spawn(move || writer.run(receiver))?;
    Ok((Iopub { commands }, thread))
}

/// Stream text waiting to be sent.
struct Pending {
    parent: Value,
    name: &'static str,
    text: String,
    deadline: Instant,
}

struct Writer {
    socket: zmq::Socket,
    codec: Arc<Codec>,
    pending: Option<Pending>,
}

impl Writer {
    fn run(mut self, commands: Receiver<Command>) {
        loop {
            let timeout = match &self.pending {
                Some(p) => p.deadline.saturating_duration_since(Instant::now()),
                None => SUBSCRIPTION_POLL,
            };
            let command = commands.recv_timeout(timeout);
            // New subscribers are welcomed before anything else goes out, so their first
            // message is the welcome.
            self.welcome_subscribers();
            match command {
                Ok(Command::Stream { parent, name, text }) => self.stream(parent, name, text),
                Ok(Command::Publish {
                    parent,
                    msg_type,
                    content,
                }) => {
                    self.send_pending();
                    self.send(&parent, &msg_type, content);
                }
                Ok(Command::Flush(done)) => {
                    self.send_pending();
                    let _ = done.send(());
                }
                Err(RecvTimeoutError::Timeout) => {
                    if self
                        .pending
                        .as_ref()
                        .is_some_and(|p| p.deadline <= Instant::now())
                    {
                        self.send_pending();
                    }
                }
                Ok(Command::Stop) | Err(RecvTimeoutError::Disconnected) => {
                    self.send_pending();
                    return;
                }
            }
        }
    }

    fn stream(&mut self, parent: Value, name: &'static str, text: String) {
        if let Some(p) = &mut self.pending {
            if p.name == name && p.parent["msg_id"] == parent["msg_id"] {
                p.text.push_str(&text);
                if p.text.len() >= STREAM_CHUNK {
                    self.send_pending();
                }
                return;
            }
            self.send_pending();
        }
        self.pending = Some(Pending {
            parent,
            name,
            text,
            deadline: Instant::now() + STREAM_BATCH,
        });
    }

    fn send_pending(&mut self) {
        if let Some(p) = self.pending.take() {
            self.send(
                &p.parent,
                "stream",
                json!({ "name": p.name, "text": p.text }),
            );
        }
    }

    fn send(&self, parent: &Value, msg_type: &str, content: Value) {
        let mut message = self.codec.message(parent, msg_type, content);
        // The topic frame; clients subscribe to everything, so it is informational.
        message.identities = vec![topic(msg_type, &content_name(&message.content)).into_bytes()];
        if let Err(e) = self.socket.send_multipart(self.codec.encode(&message), 0) {
            eprintln!("difflab-kernel: cannot publish {msg_type} on IOPub: {e}");
        }
    }

    /// Applies each new subscription (`\x01` + topic) and answers it with an `iopub_welcome`;
    /// applies each unsubscription (`\x00` + topic). In manual mode, `set_subscribe` acts on
    /// the connection whose message was just read, which until then received nothing.
    fn welcome_subscribers(&self) {
        while let Ok(frame) = self.socket.recv_bytes(zmq::DONTWAIT) {
            match frame.split_first() {
                Some((1, topic)) => {
                    if let Err(e) = self.socket.set_subscribe(topic) {
                        eprintln!("difflab-kernel: cannot apply an IOPub subscription: {e}");
                        continue;
                    }
                    self.send(
                        &json!({}),
                        "iopub_welcome",
                        json!({ "subscription": String::from_utf8_lossy(topic) }),
                    );
                }
                Some((0, topic)) => {
                    let _ = self.socket.set_unsubscribe(topic);
                }
                _ => {}
            }
        }
    }
}

fn content_name(content: &Value) -> String {
    content["name"].as_str().unwrap_or("").to_string()
}

/// The topic frame of a message, as ipykernel names them.
fn topic(msg_type: &str, stream_name: &str) -> String {
    if msg_type == "stream" {
        format!("stream.{stream_name}")
    } else {
        format!("kernel.difflab.{msg_type}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer on a PUB socket and a SUB socket reading it, over inproc.
    fn pair() -> (Iopub, zmq::Socket, Arc<Codec>) {
        let ctx = zmq::Context::new();
        let publisher = publisher(&ctx).unwrap();
        publisher.bind("inproc://iopub-test").unwrap();
        let subscriber = ctx.socket(zmq::SUB).unwrap();
        subscriber.connect("inproc://iopub-test").unwrap();
        subscriber.set_subscribe(b"").unwrap();
        let codec = Arc::new(Codec::new("key", "s".into()));
        let (iopub, _) = spawn(publisher, codec.clone()).unwrap();
        (iopub, subscriber, codec)
    }

    fn next(sub: &zmq::Socket, codec: &Codec) -> crate::wire::Message {
        assert!(sub.poll(zmq::POLLIN, 2000).unwrap() > 0, "no message");
        codec.decode(sub.recv_multipart(0).unwrap()).unwrap()
    }

    #[test]
    fn welcomes_then_keeps_order_and_merges_streams() {
        let (iopub, sub, codec) = pair();
        let welcome = next(&sub, &codec);
        assert_eq!(welcome.msg_type(), "iopub_welcome");
        assert_eq!(welcome.content["subscription"], "");
        let parent = json!({"msg_id": "request-1"});
        iopub.status(&parent, "busy");
        for i in 0..1000 {
            iopub.stream(&parent, "stdout", format!("{i}\n"));
        }
        iopub.stream(&parent, "stderr", "oops\n".into());
        iopub.status(&parent, "idle");
        iopub.flush();
        assert_eq!(next(&sub, &codec).content["execution_state"], "busy");
        let mut stdout = String::new();
        let mut messages = 0;
        loop {
            let msg = next(&sub, &codec);
            assert_eq!(msg.parent_header, parent);
            if msg.content["name"] == "stderr" {
                break;
            }
            stdout.push_str(msg.content["text"].as_str().unwrap());
            messages += 1;
        }
        let expected: String = (0..1000).map(|i| format!("{i}\n")).collect();
        assert_eq!(stdout, expected);
        assert!(messages < 100, "{messages} stream messages for 1000 lines");
        assert_eq!(next(&sub, &codec).content["execution_state"], "idle");
    }

    /// A client that subscribes while the kernel is publishing still hears the welcome first:
    /// the subscription only takes effect when the writer answers it.
    #[test]
    fn welcome_comes_first_while_publishing() {
        let ctx = zmq::Context::new();
        let publisher = publisher(&ctx).unwrap();
        publisher.bind("inproc://iopub-busy").unwrap();
        let codec = Arc::new(Codec::new("key", "s".into()));
        let (iopub, _) = spawn(publisher, codec.clone()).unwrap();
        let parent = json!({"msg_id": "request-1"});
        let publishing = std::thread::spawn(move || {
            for _ in 0..20_000 {
                iopub.status(&parent, "busy");
            }
            iopub.flush();
        });
        for _ in 0..5 {
            let sub = ctx.socket(zmq::SUB).unwrap();
            sub.connect("inproc://iopub-busy").unwrap();
            sub.set_subscribe(b"").unwrap();
            assert_eq!(next(&sub, &codec).msg_type(), "iopub_welcome");
        }
        publishing.join().unwrap();
    }
}
