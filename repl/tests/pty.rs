//! The REPL in a real pseudo-terminal: multi-line input, completion, `\alpha` input, history
//! across restarts, interrupting a runaway loop, and errors followed by more work.

use expectrl::{Eof, Regex, Session};
use std::process::Command;
use std::time::Duration;

fn start(history: &std::path::Path) -> Session {
    let mut command = Command::new(env!("CARGO_BIN_EXE_difflab"));
    command
        .env("DIFFLAB_HISTORY", history)
        .env("TERM", "xterm")
        .env("NO_COLOR", "1");
    let mut session = Session::spawn(command).expect("the REPL starts in a pty");
    session.set_expect_timeout(Some(Duration::from_secs(20)));
    session.expect("difflab> ").expect("a prompt");
    session
}

/// Waits for the next prompt, so keys are typed only when the line editor reads them (keys
/// sent while code runs reach a cooked-mode terminal, where Ctrl-D is lost).
fn prompt(p: &mut Session) {
    p.expect("difflab> ").expect("the next prompt");
}

fn history_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("difflab-pty-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("history")
}

#[test]
fn multi_line_input_and_errors_followed_by_more_work() {
    let mut p = start(&history_file("multi"));
    p.send_line("function f(x)").unwrap();
    p.send_line("    2x + 1").unwrap();
    p.send_line("end").unwrap();
    p.expect("f (generic function with 1 method)").unwrap();
    prompt(&mut p);
    p.send_line("undefined_name + 1").unwrap();
    p.expect("UndefVarError").unwrap();
    prompt(&mut p);
    p.send_line("f(20)").unwrap();
    p.expect("41").unwrap();
    prompt(&mut p);
    p.send("\x04").unwrap();
    p.expect(Eof).unwrap();
}

#[test]
fn completion_and_latex_input() {
    let mut p = start(&history_file("complete"));
    p.send("my_long_variable = 3\r").unwrap();
    p.expect(Regex("\r\n3")).unwrap();
    prompt(&mut p);
    p.send("my_long_v\t").unwrap();
    p.expect("my_long_variable").unwrap();
    p.send(" + 1\r").unwrap();
    p.expect(Regex("\r\n4")).unwrap();
    prompt(&mut p);
    p.send("\\alpha\t").unwrap();
    p.expect("α").unwrap();
    p.send(" = 2; α * 3\r").unwrap();
    p.expect("6").unwrap();
}

#[test]
fn interrupting_a_runaway_loop_keeps_variables() {
    let mut p = start(&history_file("interrupt"));
    p.send_line("kept = 41").unwrap();
    p.expect(Regex("\r\n41")).unwrap();
    prompt(&mut p);
    p.send_line("while true end").unwrap();
    // Ctrl-C until the loop reports the interrupt (the first may arrive before it starts).
    p.set_expect_timeout(Some(Duration::from_millis(500)));
    let interrupted = (0..40).any(|_| {
        p.send("\x03").unwrap();
        p.expect("InterruptException").is_ok()
    });
    assert!(interrupted, "Ctrl-C stops the loop");
    p.set_expect_timeout(Some(Duration::from_secs(20)));
    prompt(&mut p);
    p.send_line("kept + 1").unwrap();
    p.expect("42").unwrap();
}

#[test]
fn history_survives_a_restart() {
    let history = history_file("history");
    let mut p = start(&history);
    p.send_line("remembered_value = 12345").unwrap();
    p.expect(Regex("\r\n12345")).unwrap();
    prompt(&mut p);
    p.send("\x04").unwrap();
    p.expect(Eof).unwrap();
    let saved = std::fs::read_to_string(&history).expect("the history file is written");
    assert!(saved.contains("remembered_value = 12345"), "{saved}");
    let mut p = start(&history);
    // Up arrow recalls the previous session's line.
    p.send("\x1b[A").unwrap();
    p.expect("remembered_value = 12345").unwrap();
    p.send("\r").unwrap();
    p.expect(Regex("\r\n12345")).unwrap();
}
