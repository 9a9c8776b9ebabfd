//! Sessions fed by a pipe or a file (`difflab < notes.dl`, `cmd | difflab`): standard input is
//! read line by line, each complete input (as `Session::is_complete` decides) runs in order and
//! its value is shown, as at the prompt but without prompts or a banner.
//!
//! An error does not stop the session (later inputs may not depend on it), but the exit status
//! is then 1; an interrupt (Ctrl-C) stops it with status 130, as a shell expects.

use crate::render::{Style, Terminal};
use difflab_session::{Completeness, Event, ExecuteOptions, Frontend, Session};
use std::io::BufRead;
use std::process::ExitCode;

/// Runs every input of standard input.
pub fn run(session: &mut Session) -> ExitCode {
    let style = Style::detect();
    let mut failed = false;
    let mut input = String::new();
    let stdin = std::io::stdin();
    loop {
        let mut line = String::new();
        match stdin.lock().read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => input.push_str(&line),
            Err(e) => {
                eprintln!("ERROR: reading standard input: {e}");
                return ExitCode::FAILURE;
            }
        }
        if input.trim().is_empty() {
            input.clear();
            continue;
        }
        if let Completeness::Incomplete(_) = session.is_complete(&input) {
            continue;
        }
        match execute(session, &std::mem::take(&mut input), style) {
            Run::Succeeded => {}
            Run::Failed => failed = true,
            Run::Interrupted => return ExitCode::from(130),
        }
    }
    // An unfinished last input runs too, so its syntax error is reported.
    if !input.trim().is_empty() {
        match execute(session, &input, style) {
            Run::Succeeded => {}
            Run::Failed => failed = true,
            Run::Interrupted => return ExitCode::from(130),
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// How one input ended.
enum Run {
    Succeeded,
    Failed,
    Interrupted,
}

/// Runs one input, noting whether it was interrupted.
fn execute(session: &mut Session, input: &str, style: Style) -> Run {
    struct Watch {
        terminal: Terminal,
        interrupted: bool,
    }
    impl Frontend for Watch {
        fn event(&mut self, event: Event) {
            if let Event::Error(report) = &event {
                self.interrupted = report.ename == "InterruptException";
            }
            self.terminal.event(event);
        }
        fn input(&mut self, prompt: &str) -> Option<String> {
            self.terminal.input(prompt)
        }
    }
    let mut watch = Watch {
        terminal: Terminal::new(style),
        interrupted: false,
    };
    let outcome = session.execute(input.trim_end(), &ExecuteOptions::default(), &mut watch);
    watch.terminal.end_line();
    if watch.interrupted {
        Run::Interrupted
    } else if outcome.failed {
        Run::Failed
    } else {
        Run::Succeeded
    }
}
