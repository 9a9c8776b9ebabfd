//! Shared by the language benchmarks: runs a snippet that prints a median time in seconds and
//! reports it as one JSON line in the format of the peer benchmark, `tests/peers/peers.py`.

// Each benchmark compiles this module on its own and uses only some of it.
#![allow(dead_code)]

use difflab_session::{Event, ExecuteOptions, Session};

/// A session for benchmarks (no history, no result display).
pub struct Bench {
    session: Session,
    options: ExecuteOptions,
}

impl Bench {
    /// A fresh session.
    pub fn new() -> Bench {
        Bench {
            session: Session::new(),
            options: ExecuteOptions {
                show_result: false,
                store_history: false,
                source_name: None,
            },
        }
    }

    /// Runs `code`, which must print the median time in seconds, and reports it for `peer`,
    /// `task` and size `n`; errors go to stderr.
    pub fn report(&mut self, peer: &str, task: &str, n: usize, code: &str) {
        let (_, events) = self.session.execute_collect(code, &self.options);
        for e in events {
            match e {
                Event::Stream { text, .. } => println!(
                    "{{\"peer\": \"{peer}\", \"task\": \"{task}\", \"n\": {n}, \"seconds_median\": {}}}",
                    text.trim()
                ),
                Event::Error(r) => eprintln!("{}", r.rendered()),
                _ => {}
            }
        }
    }

    /// Runs code that prints its own report (a table), passing its output through.
    pub fn print(&mut self, code: &str) {
        let (_, events) = self.session.execute_collect(code, &self.options);
        for e in events {
            match e {
                Event::Stream { text, .. } => print!("{text}"),
                Event::Error(r) => eprintln!("{}", r.rendered()),
                _ => {}
            }
        }
    }

    /// Runs setup code whose output is not a measurement.
    pub fn run(&mut self, code: &str) {
        let (_, events) = self.session.execute_collect(code, &self.options);
        for e in events {
            if let Event::Error(r) = e {
                eprintln!("{}", r.rendered());
            }
        }
    }
}
