//! The `difflab` command: the interactive prompt, `difflab FILE` and `difflab -e CODE`.
//!
//! Everything runs through `difflab_session::Session`; this binary only reads input, renders
//! events as terminal text ([`render`]) and maps errors to the exit status.

mod editor;
mod render;

use difflab_session::{Completeness, ExecuteOptions, Session};
use std::cell::RefCell;
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::rc::Rc;

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

const BANNER: &str = "difflab — automatic differentiation, interactively.\nType ?gradient for help on a function, ? for an overview; Tab completes; Ctrl-D exits.";

fn repl(session: Session) -> ExitCode {
    install_interrupt(&session);
    if std::io::stdin().is_terminal() {
        interactive(session)
    } else {
        piped(session)
    }
}

/// The rustyline prompt: multi-line input, completion, history.
fn interactive(session: Session) -> ExitCode {
    println!("difflab {}\n{BANNER}", env!("CARGO_PKG_VERSION"));
    let session = Rc::new(RefCell::new(session));
    let config = rustyline::Config::builder()
        .auto_add_history(true)
        .completion_type(rustyline::CompletionType::List)
        .build();
    let mut editor = match rustyline::Editor::<
        editor::SessionHelper,
        rustyline::history::DefaultHistory,
    >::with_config(config)
    {
        Ok(e) => e,
        Err(e) => {
            eprintln!("cannot start the line editor ({e}); reading plain lines");
            return piped(
                Rc::try_unwrap(session)
                    .map(RefCell::into_inner)
                    .unwrap_or_default(),
            );
        }
    };
    editor.set_helper(Some(editor::SessionHelper {
        session: session.clone(),
    }));
    let history = editor::history_path();
    if let Some(path) = &history {
        let _ = editor.load_history(path);
    }
    loop {
        match editor.readline("difflab> ") {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => {
                session.borrow_mut().execute(
                    line.trim_end(),
                    &ExecuteOptions::default(),
                    &mut render::Terminal,
                );
                println!();
                if let Some(path) = &history {
                    if let Some(dir) = path.parent() {
                        let _ = std::fs::create_dir_all(dir);
                    }
                    if editor.append_history(path).is_err() {
                        let _ = editor.save_history(path);
                    }
                }
            }
            // Ctrl-C at the prompt clears the line; Ctrl-C while code runs interrupts it.
            Err(rustyline::error::ReadlineError::Interrupted) => continue,
            Err(_) => break,
        }
    }
    ExitCode::SUCCESS
}

/// Input that is not a terminal: complete inputs run in order as they arrive.
fn piped(mut session: Session) -> ExitCode {
    let stdin = std::io::stdin();
    let mut input = String::new();
    let mut failed = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        input.push_str(&line);
        input.push('\n');
        if input.trim().is_empty() {
            input.clear();
            continue;
        }
        if let Completeness::Incomplete(_) = session.is_complete(&input) {
            continue;
        }
        let code = std::mem::take(&mut input);
        failed |= session
            .execute(
                code.trim_end(),
                &ExecuteOptions::default(),
                &mut render::Terminal,
            )
            .failed;
        let _ = std::io::stdout().flush();
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
