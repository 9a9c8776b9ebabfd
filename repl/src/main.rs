//! The `difflab` command: the interactive prompt, `difflab FILE [-i]`, `difflab -e CODE`, and
//! sessions fed through standard input.
//!
//! Everything runs through `difflab_session::Session`; this binary reads input and renders
//! events. Modules: [`interactive`] (the rustyline prompt) with [`helper`] (completion,
//! validation, highlighting through the session), [`indent`] and [`highlight`] (the prompt's
//! lexical view), [`edit`] (the key handlers' edits of the line), [`history`] (where the
//! history file lives); [`piped`] (standard input that is not a terminal); [`render`] (events as
//! terminal text).

mod edit;
mod helper;
mod highlight;
mod history;
mod indent;
mod interactive;
mod piped;
mod render;

use difflab_session::{ExecuteOptions, Session};
use std::io::IsTerminal;
use std::process::ExitCode;

const USAGE: &str = "usage: difflab [FILE [-i] | -e CODE | --help | --version]

  (no arguments)  start the interactive prompt (when standard input is not a terminal,
                  run each input it holds in order and show the values)
  FILE            run a difflab script (.dl); with -i, stay at the prompt afterwards
  -e CODE         evaluate CODE
  --help          show this help
  --version       show the version

At the prompt: ? for help, ?name for a function's documentation, Tab completes, \\alpha<Tab>
gives α, Ctrl-C interrupts a running input, Ctrl-D exits. The history is kept in
$XDG_DATA_HOME/difflab/history (~/.local/share/difflab/history); DIFFLAB_HISTORY names another
file, or turns history off when empty. NO_COLOR turns colours off.";

/// What the command line asks for.
#[derive(Debug, PartialEq)]
enum Command {
    Prompt,
    Help,
    Version,
    Eval(String),
    File { path: String, then_prompt: bool },
    Usage,
}

fn parse(args: &[String]) -> Command {
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => Command::Prompt,
        ["--help" | "-h"] => Command::Help,
        ["--version" | "-v"] => Command::Version,
        ["-e", code] => Command::Eval(code.to_string()),
        [file] if !file.starts_with('-') => Command::File {
            path: file.to_string(),
            then_prompt: false,
        },
        [file, "-i"] | ["-i", file] if !file.starts_with('-') => Command::File {
            path: file.to_string(),
            then_prompt: true,
        },
        _ => Command::Usage,
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse(&args) {
        Command::Help => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Command::Version => {
            println!("difflab {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Command::Usage => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
        Command::Prompt => prompt(new_session()),
        Command::Eval(code) => run_code(&mut new_session(), &code, "none"),
        Command::File { path, then_prompt } => {
            let mut session = new_session();
            let status = run_file(&mut session, &path);
            if then_prompt {
                prompt(session)
            } else {
                status
            }
        }
    }
}

/// A session whose running input Ctrl-C interrupts.
fn new_session() -> Session {
    let session = Session::new();
    let handle = session.interrupt_handle();
    // The handler is installed once per process; it only raises the session's flag, so the
    // input stops with `InterruptException` and the session (and the prompt) go on.
    if let Err(e) = ctrlc::set_handler(move || handle.interrupt()) {
        eprintln!("warning: Ctrl-C will not interrupt running code: {e}");
    }
    session
}

/// The prompt on a terminal; otherwise each input of standard input in turn.
fn prompt(mut session: Session) -> ExitCode {
    if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        interactive::run(session)
    } else {
        piped::run(&mut session)
    }
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
    let options = ExecuteOptions {
        store_history: false,
        show_result: false,
        source_name: Some(name.to_string()),
    };
    let mut terminal = render::Terminal::new(render::Style::detect());
    let outcome = session.execute(code, &options, &mut terminal);
    if outcome.failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::{parse, Command};

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn command_lines() {
        assert_eq!(parse(&args(&[])), Command::Prompt);
        assert_eq!(parse(&args(&["-e", "1+1"])), Command::Eval("1+1".into()));
        let file = |then_prompt| Command::File {
            path: "a.dl".into(),
            then_prompt,
        };
        assert_eq!(parse(&args(&["a.dl"])), file(false));
        assert_eq!(parse(&args(&["a.dl", "-i"])), file(true));
        assert_eq!(parse(&args(&["-i", "a.dl"])), file(true));
        assert_eq!(parse(&args(&["--help"])), Command::Help);
        assert_eq!(parse(&args(&["-x"])), Command::Usage);
        assert_eq!(parse(&args(&["-e"])), Command::Usage);
    }
}
