//! Drives the real `difflab` binary in a pseudo-terminal, as a person at a terminal would.
//!
//! [`Repl::start`] spawns the binary with the pty as its controlling terminal (so Ctrl-C sent as
//! a byte raises SIGINT while code runs, and reaches the line editor as a key at the prompt). A
//! reader thread keeps a transcript: the raw bytes, and the text with escape sequences and
//! carriage returns removed. [`Repl::expect`] waits on a condition variable until the text shows
//! what a person would wait for, with a generous timeout; a failure prints the transcript.

#![allow(dead_code)] // Each test binary uses part of the driver.

use ptyprocess::{PtyProcess, WaitStatus};
use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long any one expected output may take (the machine may be busy building).
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// Bracketed paste, as a terminal sends a pasted text to a program that enabled it.
pub fn bracketed_paste(text: &str) -> String {
    format!("\x1b[200~{text}\x1b[201~")
}

/// The transcript of the terminal so far.
#[derive(Default)]
struct Transcript {
    raw: Vec<u8>,
    text: String,
    /// Bytes of a UTF-8 character split across reads.
    partial: Vec<u8>,
    escape: Escape,
    closed: bool,
}

/// Where the text filter is inside an escape sequence.
#[derive(Default, Clone, Copy, PartialEq)]
enum Escape {
    #[default]
    None,
    /// After ESC.
    Start,
    /// In `ESC [ …` until a final byte.
    Csi,
    /// In `ESC ] …` until BEL or `ESC \`.
    Osc,
    /// After ESC inside an OSC (the start of its `ESC \` end).
    OscEnd,
}

impl Transcript {
    fn push(&mut self, bytes: &[u8]) {
        self.raw.extend_from_slice(bytes);
        self.partial.extend_from_slice(bytes);
        let mut decoded = String::new();
        loop {
            match std::str::from_utf8(&self.partial) {
                Ok(s) => {
                    decoded.push_str(s);
                    self.partial.clear();
                    break;
                }
                Err(e) => {
                    let valid = e.valid_up_to();
                    decoded.push_str(std::str::from_utf8(&self.partial[..valid]).unwrap());
                    match e.error_len() {
                        // An incomplete character: wait for its other bytes.
                        None => {
                            self.partial.drain(..valid);
                            break;
                        }
                        Some(bad) => {
                            decoded.push('\u{fffd}');
                            self.partial.drain(..valid + bad);
                        }
                    }
                }
            }
        }
        for c in decoded.chars() {
            self.escape = match (self.escape, c) {
                (Escape::None, '\x1b') => Escape::Start,
                (Escape::None, '\n' | '\t') => {
                    self.text.push(c);
                    Escape::None
                }
                (Escape::None, c) if c.is_control() => Escape::None,
                (Escape::None, c) => {
                    self.text.push(c);
                    Escape::None
                }
                (Escape::Start, '[') => Escape::Csi,
                (Escape::Start, ']') => Escape::Osc,
                (Escape::Start, _) => Escape::None,
                (Escape::Csi, c) if ('\x40'..='\x7e').contains(&c) => Escape::None,
                (Escape::Csi, _) => Escape::Csi,
                (Escape::Osc, '\x07') => Escape::None,
                (Escape::Osc, '\x1b') => Escape::OscEnd,
                (Escape::Osc, _) => Escape::Osc,
                (Escape::OscEnd, _) => Escape::None,
            };
        }
    }
}

/// A running `difflab` in a pseudo-terminal.
pub struct Repl {
    process: PtyProcess,
    input: File,
    transcript: Arc<(Mutex<Transcript>, Condvar)>,
    /// How much of the text [`Repl::expect`] has consumed.
    consumed: usize,
}

impl Repl {
    /// Starts `difflab args…` with its history in `history` (an empty path turns it off), in a
    /// colour terminal, after `configure` adjusts the command.
    pub fn start(args: &[&str], history: &Path, configure: impl FnOnce(&mut Command)) -> Repl {
        let mut command = Command::new(env!("CARGO_BIN_EXE_difflab"));
        command
            .args(args)
            .env("TERM", "xterm-256color")
            .env("DIFFLAB_HISTORY", history)
            .env_remove("NO_COLOR");
        configure(&mut command);
        let process = PtyProcess::spawn(command).expect("difflab starts in a pseudo-terminal");
        let input = process.get_raw_handle().expect("the pty can be written");
        let mut output = process.get_raw_handle().expect("the pty can be read");
        let transcript = Arc::new((Mutex::new(Transcript::default()), Condvar::new()));
        let shared = transcript.clone();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            loop {
                // Linux reports the end of a pty whose other side closed as an error (EIO).
                let n = output.read(&mut buffer).unwrap_or(0);
                let (lock, changed) = &*shared;
                let mut t = lock.lock().unwrap();
                if n == 0 {
                    t.closed = true;
                } else {
                    t.push(&buffer[..n]);
                }
                changed.notify_all();
                if n == 0 {
                    return;
                }
            }
        });
        Repl {
            process,
            input,
            transcript,
            consumed: 0,
        }
    }

    /// Resizes the terminal, as a user dragging the window would.
    pub fn resize(&mut self, cols: u16, rows: u16) {
        self.process
            .set_window_size(cols, rows)
            .expect("the pty can be resized");
    }

    /// Writes `keys` in one write, as a fast typist, a terminal without bracketed paste or a
    /// program sending code to the terminal does (`\r` is Enter, `\t` Tab, `\x03` Ctrl-C,
    /// `\x04` Ctrl-D, `\x1b[A` Up).
    pub fn send(&mut self, keys: &str) {
        self.input.write_all(keys.as_bytes()).unwrap();
        self.input.flush().unwrap();
    }

    /// Types `keys` one character at a time, as a person does: each character is written
    /// alone and the next one only after the program has answered it (every key the prompt
    /// reads redraws the line), so no two keys arrive in one read. No escape sequences.
    pub fn type_keys(&mut self, keys: &str) {
        let mut buffer = [0u8; 4];
        for c in keys.chars() {
            let before = self.transcript.0.lock().unwrap().raw.len();
            self.input
                .write_all(c.encode_utf8(&mut buffer).as_bytes())
                .unwrap();
            self.input.flush().unwrap();
            let deadline = Instant::now() + TIMEOUT;
            let (lock, changed) = &*self.transcript;
            let mut t = lock.lock().unwrap();
            while t.raw.len() == before {
                let now = Instant::now();
                assert!(
                    now < deadline && !t.closed,
                    "no answer to the key {c:?}; the terminal shows:\n{}",
                    &t.text[self.consumed..]
                );
                t = changed.wait_timeout(t, deadline - now).unwrap().0;
            }
        }
    }

    /// Waits until `needle` appears after what was already expected, and returns the text
    /// before it; panics with the transcript after [`TIMEOUT`].
    pub fn expect(&mut self, needle: &str) -> String {
        match self.expect_within(needle, TIMEOUT) {
            Some(before) => before,
            None => panic!(
                "expected {needle:?} within {TIMEOUT:?}; the terminal shows after the last match:\n{}",
                self.unconsumed()
            ),
        }
    }

    /// Like [`Repl::expect`] with a timeout; `None` when the needle did not appear in time
    /// (panics if the program ended first).
    pub fn expect_within(&mut self, needle: &str, timeout: Duration) -> Option<String> {
        let deadline = Instant::now() + timeout;
        let (lock, changed) = &*self.transcript;
        let mut t = lock.lock().unwrap();
        loop {
            if let Some(at) = t.text[self.consumed..].find(needle) {
                let before = t.text[self.consumed..self.consumed + at].to_string();
                self.consumed += at + needle.len();
                return Some(before);
            }
            assert!(
                !t.closed,
                "difflab ended while {needle:?} was expected; it showed:\n{}",
                &t.text[self.consumed..]
            );
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            t = changed.wait_timeout(t, deadline - now).unwrap().0;
        }
    }

    /// The text not consumed yet.
    pub fn unconsumed(&self) -> String {
        let t = self.transcript.0.lock().unwrap();
        t.text[self.consumed..].to_string()
    }

    /// Every byte the program wrote, escape sequences included.
    pub fn raw(&self) -> Vec<u8> {
        self.transcript.0.lock().unwrap().raw.clone()
    }

    /// Waits for the program to exit after it was asked to (Ctrl-D) and returns its status.
    pub fn exit_status(self) -> i32 {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            match self.process.status() {
                Ok(WaitStatus::Exited(_, code)) => return code,
                Ok(WaitStatus::StillAlive) if Instant::now() < deadline => {
                    // Poll the child's status: no pipe tells its exit but the pty's end.
                    let (lock, changed) = &*self.transcript;
                    let t = lock.lock().unwrap();
                    let _ = changed.wait_timeout(t, Duration::from_millis(20)).unwrap();
                }
                other => panic!(
                    "difflab did not exit normally: {other:?}\n{}",
                    self.unconsumed()
                ),
            }
        }
    }
}

/// A fresh directory for one test's files.
pub fn temp_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("difflab-pty-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
