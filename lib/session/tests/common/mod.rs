//! Helpers shared by the session's integration tests: running a cell and reading its events.

// Each test binary compiles this module and uses only some of it.
#![allow(dead_code)]

use difflab_session::{Event, ExecuteOptions, InterruptHandle, Session};
use std::time::{Duration, Instant};

/// The events of executing `code`.
pub fn run(session: &mut Session, code: &str) -> Vec<Event> {
    session.execute_collect(code, &ExecuteOptions::default()).1
}

/// The name of the error `events` report, if any.
pub fn error_name(events: &[Event]) -> Option<String> {
    events.iter().find_map(|e| match e {
        Event::Error(r) => Some(r.ename.clone()),
        _ => None,
    })
}

/// The plain text of the result `events` report, if any.
pub fn result_text(events: &[Event]) -> Option<String> {
    events.iter().find_map(|e| match e {
        Event::Result(b) => Some(b.plain().to_string()),
        _ => None,
    })
}

/// Interrupts through `handle` after `delay`; the thread returns when it did.
pub fn interrupt_after(
    handle: InterruptHandle,
    delay: Duration,
) -> std::thread::JoinHandle<Instant> {
    std::thread::spawn(move || {
        std::thread::sleep(delay);
        let sent = Instant::now();
        handle.interrupt();
        sent
    })
}
