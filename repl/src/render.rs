//! Renders session events as terminal text: streams to stdout/stderr, values as `text/plain`
//! (plots are braille text, so they just print), errors on stderr in red with the session's
//! source line and caret, and `clear_output()` as a screen clear.
//!
//! Colour and screen control are used only on terminals ([`Style::detect`]); piped output stays
//! plain text.

use difflab_session::{ErrorReport, Event, Frontend, StreamName};
use std::io::{IsTerminal, Write};

/// What the standard streams can show.
#[derive(Debug, Clone, Copy, Default)]
pub struct Style {
    /// Errors are coloured: stderr is a terminal, `NO_COLOR` is unset and `TERM` is not `dumb`.
    pub colour_errors: bool,
    /// Stdout is a terminal, so `clear_output()` may clear the screen.
    pub stdout_is_terminal: bool,
}

impl Style {
    /// The style of this process's standard streams and environment.
    pub fn detect() -> Style {
        let no_colour = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
            || std::env::var_os("TERM").is_some_and(|t| t == "dumb");
        Style {
            colour_errors: std::io::stderr().is_terminal() && !no_colour,
            stdout_is_terminal: std::io::stdout().is_terminal(),
        }
    }
}

/// A frontend writing to the process's standard streams.
pub struct Terminal {
    style: Style,
    /// The last character written was a newline (or nothing was written).
    at_line_start: bool,
    /// `clear_output(wait=true)` clears when the next output arrives.
    pending_clear: bool,
    /// The screen was cleared and nothing was written since.
    just_cleared: bool,
}

impl Terminal {
    /// A terminal frontend with the given style.
    pub fn new(style: Style) -> Terminal {
        Terminal {
            style,
            at_line_start: true,
            pending_clear: false,
            just_cleared: false,
        }
    }

    /// Ends the current output line, if one was started.
    pub fn end_line(&mut self) {
        if !self.at_line_start {
            out(format_args!("\n"));
            self.at_line_start = true;
        }
    }

    /// Ends the output of one prompt input as Julia does: the output ends its line, then one
    /// blank line separates it from the next prompt (none right after a screen clear).
    pub fn finish_input(&mut self) {
        self.end_line();
        if !self.just_cleared {
            out(format_args!("\n"));
        }
    }

    fn clear_screen(&mut self) {
        self.pending_clear = false;
        if self.style.stdout_is_terminal {
            out(format_args!("\x1b[H\x1b[2J"));
            self.just_cleared = true;
            self.at_line_start = true;
        }
    }

    /// Called before anything is written.
    fn before_output(&mut self) {
        if self.pending_clear {
            self.clear_screen();
        }
        self.just_cleared = false;
    }

    fn wrote(&mut self, text: &str) {
        if let Some(last) = text.chars().next_back() {
            self.at_line_start = last == '\n';
        }
    }
}

impl Frontend for Terminal {
    fn event(&mut self, event: Event) {
        if let Event::ClearOutput { wait } = event {
            if wait {
                self.pending_clear = true;
            } else {
                self.clear_screen();
            }
            return;
        }
        self.before_output();
        match event {
            Event::Stream {
                name: StreamName::Stdout,
                text,
            } => {
                out(format_args!("{text}"));
                self.wrote(&text);
            }
            Event::Stream {
                name: StreamName::Stderr,
                text,
            } => {
                let _ = std::io::stdout().flush();
                eprint!("{text}");
                self.wrote(&text);
            }
            Event::Display(bundle) | Event::Result(bundle) => {
                out(format_args!("{}\n", bundle.plain()));
                self.at_line_start = true;
            }
            Event::Error(report) => {
                let _ = std::io::stdout().flush();
                if !self.at_line_start {
                    eprintln!();
                }
                eprintln!("{}", paint_error(&report, self.style.colour_errors));
                self.at_line_start = true;
            }
            Event::ClearOutput { .. } => {}
        }
    }

    fn input(&mut self, prompt: &str) -> Option<String> {
        self.before_output();
        out(format_args!("{prompt}"));
        let mut line = String::new();
        self.at_line_start = true;
        match std::io::stdin().read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim_end_matches(['\n', '\r']).to_string()),
        }
    }
}

const RED: &str = "\x1b[31m";
const BOLD_RED: &str = "\x1b[1;31m";
const GREY: &str = "\x1b[90m";
const RESET: &str = "\x1b[0m";

/// An error report as text: with `colour`, `ERROR:` in bold red and the message in red, the
/// caret in bold red, and the locations (`@ In[3]:1:9`, `in f at …`) in grey; the source line
/// keeps its own colours.
pub fn paint_error(report: &ErrorReport, colour: bool) -> String {
    if !colour {
        return report.rendered();
    }
    let is_caret = |line: &str| {
        let trimmed = line.trim_start();
        !trimmed.is_empty() && trimmed.chars().all(|c| c == '^')
    };
    let traceback = &report.traceback;
    let lines: Vec<String> = traceback
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let trimmed = line.trim_start();
            let is_source = traceback.get(i + 1).is_some_and(|next| is_caret(next));
            if i == 0 {
                match line.strip_prefix("ERROR:") {
                    Some(message) => format!("{BOLD_RED}ERROR:{RESET}{RED}{message}{RESET}"),
                    None => format!("{RED}{line}{RESET}"),
                }
            } else if is_source {
                line.clone()
            } else if is_caret(line) {
                let indent = &line[..line.len() - trimmed.len()];
                format!("{indent}{BOLD_RED}{trimmed}{RESET}")
            } else if line.starts_with("@ ") || trimmed.starts_with("in ") {
                format!("{GREY}{line}{RESET}")
            } else {
                line.clone()
            }
        })
        .collect();
    lines.join("\n")
}

/// Writes to standard output and flushes; a reader that went away (`difflab script.dl | head`)
/// ends the program quietly, as it ends other command-line tools.
fn out(text: std::fmt::Arguments<'_>) {
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::paint_error;
    use difflab_session::ErrorReport;

    fn report() -> ErrorReport {
        ErrorReport {
            ename: "UndefVarError".into(),
            evalue: "`y` not defined".into(),
            traceback: vec![
                "ERROR: UndefVarError: `y` not defined".into(),
                "  x + y".into(),
                "      ^".into(),
                "@ In[2]:1:5".into(),
                "  in f at In[1]:1:8".into(),
            ],
        }
    }

    #[test]
    fn plain_errors_are_the_session_text() {
        assert_eq!(paint_error(&report(), false), report().rendered());
    }

    #[test]
    fn coloured_errors_keep_the_text_and_the_caret_column() {
        let painted = paint_error(&report(), true);
        let lines: Vec<&str> = painted.lines().collect();
        assert_eq!(
            lines[0],
            "\x1b[1;31mERROR:\x1b[0m\x1b[31m UndefVarError: `y` not defined\x1b[0m"
        );
        assert_eq!(lines[1], "  x + y");
        assert_eq!(lines[2], "      \x1b[1;31m^\x1b[0m");
        assert_eq!(lines[3], "\x1b[90m@ In[2]:1:5\x1b[0m");
        assert_eq!(lines[4], "\x1b[90m  in f at In[1]:1:8\x1b[0m");
    }
}
