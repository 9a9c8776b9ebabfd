//! The outbox: the one path of [`Reply`]s from the engine thread to the session, in order.
//!
//! It owns two promises about a program's output:
//! - **bounded**: at most [`LIMIT_BYTES`] of output (stream text, displayed values) waits for
//!   the frontend; a program that prints faster than the frontend shows waits for it, as a
//!   program writing to a slow terminal does, so what an interrupt leaves queued is drained
//!   within milliseconds;
//! - **coalesced**: stream text written while the frontend is busy joins the previous text of
//!   the same stream (up to [`CHUNK_BYTES`] per event), so a loop of a million `println`s
//!   reaches the frontend as a few hundred events, as a Jupyter kernel's buffered streams do.
//!
//! Output offered while an interrupt is pending and the outbox is full is dropped rather than
//! waited for (the program is about to stop; its output must not keep the client waiting);
//! how many bytes were dropped is reported as a note on stderr before the next reply that is
//! not output (the `InterruptException`). Replies that are not output (results, errors, the
//! end of an execution, completions) are never dropped.

use crate::engine::Reply;
use crate::events::{Event, StreamName};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// The most output, in bytes, waiting for the frontend before the program waits too.
pub const LIMIT_BYTES: usize = 256 * 1024;

/// The most stream text one coalesced event carries.
pub const CHUNK_BYTES: usize = 64 * 1024;

/// How often a program waiting for room looks at the interrupt flag.
const INTERRUPT_POLL: Duration = Duration::from_millis(2);

struct State {
    queue: VecDeque<Reply>,
    /// The output bytes in `queue`.
    bytes: usize,
    /// Output dropped after an interrupt and not yet reported.
    dropped: usize,
    /// The engine side is gone.
    sender_gone: bool,
    /// The session side is gone.
    receiver_gone: bool,
}

struct Shared {
    state: Mutex<State>,
    /// Signalled when a reply is queued or the sender goes.
    filled: Condvar,
    /// Signalled when replies are taken or the receiver goes.
    drained: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves the queue consistent (every update is one
        // push or pop), so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The other side is gone.
#[derive(Debug)]
pub struct Closed;

/// The engine's end.
pub struct Sender {
    shared: Arc<Shared>,
    interrupt: Arc<AtomicBool>,
}

/// The session's end.
pub struct Receiver {
    shared: Arc<Shared>,
}

/// A new outbox whose sender drops output when `interrupt` is raised and the outbox is full.
pub fn outbox(interrupt: Arc<AtomicBool>) -> (Sender, Receiver) {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            queue: VecDeque::new(),
            bytes: 0,
            dropped: 0,
            sender_gone: false,
            receiver_gone: false,
        }),
        filled: Condvar::new(),
        drained: Condvar::new(),
    });
    (
        Sender {
            shared: shared.clone(),
            interrupt,
        },
        Receiver { shared },
    )
}

/// The output bytes of a reply: what the limit counts (0 for replies that are not output).
fn output_bytes(reply: &Reply) -> usize {
    match reply {
        Reply::Event(Event::Stream { text, .. }) => text.len(),
        Reply::Event(Event::Display(bundle)) => bundle.data.iter().map(|(_, d)| d.len()).sum(),
        Reply::Event(Event::ClearOutput { .. }) => 1,
        _ => 0,
    }
}

impl Sender {
    /// Queues a reply. Output waits while the outbox is full, or is dropped if an interrupt is
    /// pending; other replies are queued at once, after a note of any dropped output.
    pub fn send(&self, reply: Reply) -> Result<(), Closed> {
        let bytes = output_bytes(&reply);
        let mut state = self.shared.lock();
        if state.receiver_gone {
            return Err(Closed);
        }
        if bytes == 0 {
            if state.dropped > 0 {
                let note = format!(
                    "[output discarded after the interrupt: {} bytes]\n",
                    std::mem::take(&mut state.dropped)
                );
                push_output(&mut state, StreamName::Stderr, note);
            }
            state.queue.push_back(reply);
        } else {
            while state.bytes > 0 && state.bytes + bytes > LIMIT_BYTES {
                if self.interrupt.load(Ordering::Relaxed) {
                    state.dropped += bytes;
                    return Ok(());
                }
                state = self
                    .shared
                    .drained
                    .wait_timeout(state, INTERRUPT_POLL)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
                if state.receiver_gone {
                    return Err(Closed);
                }
            }
            match reply {
                Reply::Event(Event::Stream { name, text }) => push_output(&mut state, name, text),
                other => {
                    state.bytes += bytes;
                    state.queue.push_back(other);
                }
            }
        }
        drop(state);
        self.shared.filled.notify_one();
        Ok(())
    }
}

/// Queues stream text, joined to the last queued reply when it is text of the same stream
/// with room left.
fn push_output(state: &mut State, name: StreamName, text: String) {
    state.bytes += text.len();
    if let Some(Reply::Event(Event::Stream {
        name: last,
        text: queued,
    })) = state.queue.back_mut()
    {
        if *last == name && queued.len() + text.len() <= CHUNK_BYTES {
            queued.push_str(&text);
            return;
        }
    }
    state
        .queue
        .push_back(Reply::Event(Event::Stream { name, text }));
}

impl Drop for Sender {
    fn drop(&mut self) {
        self.shared.lock().sender_gone = true;
        self.shared.filled.notify_all();
    }
}

impl Receiver {
    /// The next reply, waiting for one; `Err` once the engine is gone and nothing is left.
    pub fn recv(&self) -> Result<Reply, Closed> {
        let mut state = self.shared.lock();
        loop {
            if let Some(reply) = state.queue.pop_front() {
                state.bytes -= output_bytes(&reply);
                drop(state);
                self.shared.drained.notify_one();
                return Ok(reply);
            }
            if state.sender_gone {
                return Err(Closed);
            }
            state = self
                .shared
                .filled
                .wait(state)
                .unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Stops receiving: the engine's sends fail from now on instead of waiting for room.
    pub fn close(&self) {
        let mut state = self.shared.lock();
        state.receiver_gone = true;
        state.queue.clear();
        state.bytes = 0;
        drop(state);
        self.shared.drained.notify_all();
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::Outcome;

    fn text(s: &str) -> Reply {
        Reply::Event(Event::Stream {
            name: StreamName::Stdout,
            text: s.into(),
        })
    }

    fn done() -> Reply {
        Reply::Done(Outcome {
            execution_count: 1,
            failed: false,
        })
    }

    #[test]
    fn text_written_while_the_frontend_is_busy_is_coalesced_in_order() {
        let (tx, rx) = outbox(Arc::new(AtomicBool::new(false)));
        for i in 0..1000 {
            tx.send(text(&format!("{i}\n"))).unwrap();
        }
        tx.send(Reply::Event(Event::Stream {
            name: StreamName::Stderr,
            text: "e\n".into(),
        }))
        .unwrap();
        tx.send(done()).unwrap();
        drop(tx);
        let mut events = Vec::new();
        while let Ok(reply) = rx.recv() {
            events.push(reply);
        }
        let expected: String = (0..1000).map(|i| format!("{i}\n")).collect();
        assert!(
            matches!(&events[0], Reply::Event(Event::Stream { name: StreamName::Stdout, text }) if *text == expected)
        );
        assert!(
            matches!(&events[1], Reply::Event(Event::Stream { name: StreamName::Stderr, text }) if text == "e\n")
        );
        assert!(matches!(events[2], Reply::Done(_)));
        assert_eq!(events.len(), 3);
    }

    #[test]
    fn a_full_outbox_makes_the_program_wait_and_holds_at_most_the_limit() {
        let (tx, rx) = outbox(Arc::new(AtomicBool::new(false)));
        let line = "x".repeat(1000) + "\n";
        let writer = std::thread::spawn(move || {
            for _ in 0..2000 {
                tx.send(text(&line)).unwrap();
            }
            tx.send(done()).unwrap();
        });
        std::thread::sleep(Duration::from_millis(100));
        // The writer is blocked on a full outbox: no more than the limit is queued.
        assert!(rx.shared.lock().bytes <= LIMIT_BYTES);
        assert!(!writer.is_finished());
        let mut total = 0;
        loop {
            match rx.recv().unwrap() {
                Reply::Event(Event::Stream { text, .. }) => total += text.len(),
                Reply::Done(_) => break,
                _ => unreachable!(),
            }
        }
        assert_eq!(total, 2000 * 1001, "nothing is lost without an interrupt");
        writer.join().unwrap();
    }

    #[test]
    fn output_beyond_the_limit_after_an_interrupt_is_dropped_with_a_note() {
        let flag = Arc::new(AtomicBool::new(false));
        let (tx, rx) = outbox(flag.clone());
        let line = "y".repeat(1023) + "\n";
        for _ in 0..LIMIT_BYTES / 1024 {
            tx.send(text(&line)).unwrap();
        }
        flag.store(true, Ordering::Relaxed);
        // Would wait forever without the interrupt: nobody receives yet.
        for _ in 0..10 {
            tx.send(text(&line)).unwrap();
        }
        tx.send(done()).unwrap();
        drop(tx);
        let mut stdout = 0;
        let mut notes = Vec::new();
        while let Ok(reply) = rx.recv() {
            match reply {
                Reply::Event(Event::Stream {
                    name: StreamName::Stdout,
                    text,
                }) => stdout += text.len(),
                Reply::Event(Event::Stream { text, .. }) => notes.push(text),
                _ => {}
            }
        }
        assert_eq!(stdout, LIMIT_BYTES);
        assert_eq!(
            notes,
            ["[output discarded after the interrupt: 10240 bytes]\n"]
        );
    }

    #[test]
    fn a_closed_receiver_releases_a_waiting_sender() {
        let (tx, rx) = outbox(Arc::new(AtomicBool::new(false)));
        let big = "z".repeat(LIMIT_BYTES);
        tx.send(text(&big)).unwrap();
        let writer = std::thread::spawn(move || tx.send(text("more")));
        std::thread::sleep(Duration::from_millis(20));
        rx.close();
        assert!(writer.join().unwrap().is_err());
    }
}
