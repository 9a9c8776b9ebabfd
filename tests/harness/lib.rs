//! Shared helpers of the end-to-end tests: running transcripts through a session.
//!
//! A transcript (`tests/data/*.dl`) is what a REPL user would see: inputs after `difflab> `
//! (continuation lines indented by nine spaces), each followed by the expected output up to
//! the next prompt. [`run_transcript`] replays the inputs in one fresh session and returns the
//! transcript it actually produced, so a test compares the two texts. A progress bar appears
//! as the finished line a terminal is left with, its elapsed time written `… s`.

use difflab_session::{Event, ExecuteOptions, Frontend, Progress, Session, StreamName};
use std::path::PathBuf;

/// The `tests/` directory of the repository under test: the package directory cargo names when
/// it runs the test (`CARGO_MANIFEST_DIR` at run time, falling back to the one compiled in), so
/// that a test binary reused for a copy of the repository (`tests/self_contained`) reads the
/// copy's files.
pub fn package_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
}

/// The prompt that starts an input line.
pub const PROMPT: &str = "difflab> ";
const CONTINUATION: &str = "         ";

/// The inputs of a transcript, in order.
pub fn inputs(transcript: &str) -> Vec<String> {
    let mut inputs = Vec::new();
    let mut current: Option<String> = None;
    for line in transcript.lines() {
        if let Some(code) = line.strip_prefix(PROMPT) {
            if let Some(done) = current.take() {
                inputs.push(done);
            }
            current = Some(code.to_string());
        } else if let (Some(code), Some(rest)) = (current.as_mut(), line.strip_prefix(CONTINUATION))
        {
            code.push('\n');
            code.push_str(rest);
        } else if let Some(done) = current.take() {
            inputs.push(done);
        }
    }
    inputs.extend(current);
    inputs
}

/// What the session shows for one input, as the REPL renders it.
pub fn render(events: &[Event]) -> String {
    let mut out = String::new();
    for event in events {
        match event {
            Event::Stream { text, .. } => out.push_str(text),
            Event::Display(b) | Event::Result(b) => {
                out.push_str(b.plain());
                out.push('\n');
            }
            Event::Error(report) => {
                out.push_str(&report.rendered());
                out.push('\n');
            }
            Event::ClearOutput { .. } => {}
        }
    }
    out
}

/// Collects events as a terminal ends up showing them: a progress bar as its finished line
/// (its redraws overwrite each other), with the elapsed time, which varies, written `… s`.
#[derive(Default)]
struct Terminal {
    events: Vec<Event>,
}

impl Frontend for Terminal {
    fn event(&mut self, event: Event) {
        self.events.push(event);
    }

    fn progress(&mut self, progress: Progress) {
        if !progress.finished {
            return;
        }
        let line = match progress.line.rsplit_once(" in ") {
            Some((bar, time)) if time.ends_with(" s") => format!("{bar} in … s"),
            _ => progress.line,
        };
        self.events.push(Event::Stream {
            name: StreamName::Stderr,
            text: line + "\n",
        });
    }
}

/// Replays the inputs of `transcript` in a fresh session and returns the resulting transcript.
pub fn run_transcript(transcript: &str) -> String {
    let mut session = Session::new();
    let mut out = String::new();
    for (k, code) in inputs(transcript).iter().enumerate() {
        let options = ExecuteOptions {
            source_name: Some(format!("REPL[{}]", k + 1)),
            ..ExecuteOptions::default()
        };
        let mut terminal = Terminal::default();
        session.execute(code, &options, &mut terminal);
        let events = terminal.events;
        for (i, line) in code.lines().enumerate() {
            out.push_str(if i == 0 { PROMPT } else { CONTINUATION });
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(&render(&events));
        out.push('\n');
    }
    out
}
