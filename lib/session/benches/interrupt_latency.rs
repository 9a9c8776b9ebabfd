//! How long every builtin of the registry takes to answer an interrupt when it works on large
//! arguments: the search for uninterruptible stretches, done over the registry rather than a
//! hand-picked list (the robustness tests keep one case per stretch found and fixed).
//!
//! Each builtin is called once with each of a few large arguments (10⁷ numbers, a 2000 × 2000
//! matrix, a string of 10⁷ characters, a range of 10⁹, a sparse matrix of 10⁷ entries, …). A
//! call still running after [`BOUND`] is interrupted then; one that ended after more than
//! [`LONG`] runs again with an interrupt sent halfway. The time from the interrupt to the end of
//! the call is its latency; calls answering later than [`LIMIT`] are listed at the end.
//!
//! Run with `cargo bench -p difflab-session --bench interrupt_latency` (about an hour; a
//! builtin's name as an argument limits the sweep to it, `--from=NAME` starts it at that name
//! in the sorted registry). Results are recorded in `docs/reliability.md`.

use difflab_session::{Event, ExecuteOptions, Session};
use std::time::{Duration, Instant};

/// Calls shorter than this cannot keep an interrupt waiting longer than [`LIMIT`] by much.
const LONG: Duration = Duration::from_millis(150);

/// Calls still running after this long are interrupted at once.
const BOUND: Duration = Duration::from_secs(2);

/// The latency the session promises.
const LIMIT: Duration = Duration::from_millis(100);

/// The large values, defined once per session, and the argument lists built from them.
const SETUP: &str = "x = rand(10^7); y = rand(10^7); A = rand(2000, 2000); \
    s = repeat(\"ab\", 5 * 10^6); r = 1:10^9; S = sprand(10^6, 10^6, 1e-5); \
    v = Any[i for i in 1:10^6]; d = Dict(i => i for i in 1:10^6); b = x .> 0.5";

/// Argument lists tried for every builtin.
const ARGUMENTS: &[&str] = &[
    "x",
    "A",
    "s",
    "r",
    "S",
    "v",
    "d",
    "b",
    "x, y",
    "A, A",
    "x, 2",
    "A, 2",
    "s, \"b\"",
    "r, 2",
    "S, S",
    "sin, x",
    "x -> x + 1, x",
    "+, x",
    "x, 10^7",
    "7000, 7000",
    "10^8",
];

fn quiet() -> ExecuteOptions {
    ExecuteOptions {
        show_result: false,
        store_history: false,
        source_name: None,
    }
}

fn interrupted(events: &[Event]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, Event::Error(r) if r.ename == "InterruptException"))
}

/// A fresh session holding the large values.
fn prepared() -> Session {
    let mut session = Session::new();
    session.execute_collect(SETUP, &quiet());
    session
}

/// Runs `code`, interrupting it after `delay` unless it ended before: how long it ran, and
/// when it was interrupted, how long after the interrupt it stopped and whether it stopped
/// with `InterruptException`.
fn run(session: &mut Session, code: &str, delay: Duration) -> (Duration, Option<(Duration, bool)>) {
    let handle = session.interrupt_handle();
    let (ended, wait) = std::sync::mpsc::channel::<()>();
    let interrupter = std::thread::spawn(move || {
        wait.recv_timeout(delay).is_err().then(|| {
            let sent = Instant::now();
            handle.interrupt();
            sent
        })
    });
    let started = Instant::now();
    let (_, events) = session.execute_collect(code, &quiet());
    let stopped = Instant::now();
    let _ = ended.send(());
    let sent = interrupter.join().expect("the interrupting thread");
    let answer = sent.map(|sent| {
        (
            stopped.saturating_duration_since(sent),
            interrupted(&events),
        )
    });
    (stopped - started, answer)
}

fn main() {
    let command_line: Vec<String> = std::env::args().skip(1).collect();
    let only: Vec<&String> = command_line
        .iter()
        .filter(|a| !a.starts_with('-'))
        .collect();
    let from = command_line
        .iter()
        .find_map(|a| a.strip_prefix("--from="))
        .unwrap_or("");
    let mut names: Vec<&str> = difflab_lang::builtins::all()
        .map(|b| b.name)
        .filter(|n| n.chars().next().is_some_and(char::is_alphabetic))
        .filter(|n| !difflab_lang::builtins::ACTING_ON_THE_OUTSIDE.contains(n))
        .filter(|n| only.is_empty() || only.iter().any(|o| o == n))
        .filter(|&n| n >= from)
        .collect();
    names.sort_unstable();
    names.dedup();
    // Builtins that write files by default (`savefig`) write them here.
    let scratch = std::env::temp_dir().join(format!("difflab-latency-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("a scratch directory");
    std::env::set_current_dir(&scratch).expect("enter the scratch directory");
    let mut session = prepared();
    let (mut long, mut late) = (0, Vec::new());
    for name in names {
        for arguments in ARGUMENTS {
            let code = format!("{name}({arguments}); nothing");
            // A first call, bounded; a long one runs again, interrupted halfway.
            let (took, mut answer) = run(&mut session, &code, BOUND);
            if took < LONG {
                continue;
            }
            long += 1;
            if answer.is_none() {
                answer = run(&mut session, &code, took / 2).1;
            }
            match answer {
                Some((latency, raised)) if latency > LIMIT || !raised => {
                    let how = if raised {
                        "answered"
                    } else {
                        "ended without raising it"
                    };
                    println!("{code}: {took:.2?} a call, {how} {latency:.2?} after the interrupt");
                    late.push((code, took, latency));
                }
                Some(_) => {}
                None => println!("{code}: {took:.2?} a call, ended before the interrupt"),
            }
        }
        if name.ends_with('!') {
            // It may have changed the values (`empty!`, `sort!`): start again.
            session = prepared();
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    println!(
        "{long} calls took over {LONG:?}; {} answered an interrupt after more than {LIMIT:?} or not at all",
        late.len()
    );
    for (code, took, l) in late {
        println!("  {code}  ({took:.2?} a call, {l:.2?})");
    }
}
