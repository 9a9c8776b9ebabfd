//! The `difflab` command: the interactive prompt, `difflab FILE` and `difflab -e CODE`.
//!
//! Everything runs through `difflab_session::Session`; this binary only reads input, renders
//! events as terminal text ([`render`]) and maps errors to the exit status.

mod render;

use difflab_session::{Completeness, ExecuteOptions, Session};
use std::io::{BufRead, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: difflab [FILE [-i] | -e CODE | --help | --version]

  (no arguments)  start the interactive prompt
  FILE            run a difflab script (.dl); with -i, stay at the prompt afterwards
  -e CODE         evaluate CODE
  --help          show this help
  --version       show the version";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => repl(Session::new()),
        ["--help" | "-h"] => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        ["--version" | "-v"] => {
            println!("difflab {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        ["-e", code] => run_code(&mut Session::new(), code, "none"),
        [file] if !file.starts_with('-') => run_file(&mut Session::new(), file),
        [file, "-i"] | ["-i", file] => {
            let mut session = Session::new();
            run_file(&mut session, file);
            repl(session)
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn install_interrupt(session: &Session) {
    let handle = session.interrupt_handle();
    // A second handler cannot be installed; the first one already raises the flag.
    let _ = ctrlc::set_handler(move || handle.interrupt());
}

fn run_file(session: &mut Session, path: &str) -> ExitCode {
    match std::fs::read_to_string(path) {
        Ok(code) => run_code(session, &code, path),
        Err(e) => {
            eprintln!("ERROR: SystemError: opening file \"{path}\": {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_code(session: &mut Session, code: &str, name: &str) -> ExitCode {
    install_interrupt(session);
    let options = ExecuteOptions {
        store_history: false,
        show_result: false,
        source_name: Some(name.to_string()),
    };
    let outcome = session.execute(code, &options, &mut render::Terminal);
    if outcome.failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn repl(mut session: Session) -> ExitCode {
    install_interrupt(&session);
    println!(
        "difflab {} — automatic differentiation, interactively.\nType ?gradient for help on a function, ? for an overview; Ctrl-D exits.",
        env!("CARGO_PKG_VERSION")
    );
    let stdin = std::io::stdin();
    let mut input = String::new();
    loop {
        print!(
            "{}",
            if input.is_empty() {
                "difflab> "
            } else {
                "      ... "
            }
        );
        let _ = std::io::stdout().flush();
        let mut line = String::new();
        match stdin.lock().read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => input.push_str(&line),
        }
        if input.trim().is_empty() {
            input.clear();
            continue;
        }
        if let Completeness::Incomplete(_) = session.is_complete(&input) {
            continue;
        }
        let code = std::mem::take(&mut input);
        session.execute(
            code.trim_end(),
            &ExecuteOptions::default(),
            &mut render::Terminal,
        );
        println!();
    }
    println!();
    ExitCode::SUCCESS
}
