//! Renders session events as terminal text: streams to stdout/stderr, values as `text/plain`,
//! errors on stderr.

use difflab_session::{Event, Frontend, StreamName};
use std::io::Write;

/// Errors are red when stderr is a terminal and `NO_COLOR` is unset.
fn colored() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// A frontend writing to the process's standard streams.
#[derive(Default)]
pub struct Terminal;

impl Frontend for Terminal {
    fn event(&mut self, event: Event) {
        match event {
            Event::Stream {
                name: StreamName::Stdout,
                text,
            } => {
                print!("{text}");
                let _ = std::io::stdout().flush();
            }
            Event::Stream {
                name: StreamName::Stderr,
                text,
            } => eprint!("{text}"),
            Event::Display(bundle) | Event::Result(bundle) => println!("{}", bundle.plain()),
            Event::ClearOutput { .. } => {
                print!("\x1b[2J\x1b[H");
                let _ = std::io::stdout().flush();
            }
            Event::Error(report) => {
                let _ = std::io::stdout().flush();
                if colored() {
                    eprintln!("\x1b[1;31m{}\x1b[0m", report.rendered());
                } else {
                    eprintln!("{}", report.rendered());
                }
            }
        }
    }

    fn input(&mut self, prompt: &str) -> Option<String> {
        print!("{prompt}");
        let _ = std::io::stdout().flush();
        let mut line = String::new();
        match std::io::stdin().read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim_end_matches(['\n', '\r']).to_string()),
        }
    }
}
