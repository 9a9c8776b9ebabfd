//! Logging as Julia's `Logging` does it: `@debug`, `@info`, `@warn` and `@error` in user code,
//! and the warnings of library functions ([`Interp::warn`]), become [`LogRecord`]s. A record
//! is printed to standard error in the console logger's layout (`[ Info: msg` on one line, a
//! `┌ … └` box with the fields and, from warnings up, where it came from), or, while a test
//! collects logs (`@test_logs`, `@test_warn`, `@test_nowarn`), kept for the test instead.
//! Debug records are dropped, as by Julia's default logger.

use super::Interp;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::output::Stream;
use crate::value::Value;
use difflab_syntax::{line_col, Expr, ExprKind, Span};

/// How severe a record is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    /// `@debug`: hidden by default.
    Debug,
    /// `@info`.
    Info,
    /// `@warn`, and library warnings.
    Warn,
    /// `@error`.
    Error,
}

impl LogLevel {
    /// The level of a log macro's name.
    pub fn of_macro(name: &str) -> Option<LogLevel> {
        Some(match name {
            "debug" => LogLevel::Debug,
            "info" => LogLevel::Info,
            "warn" => LogLevel::Warn,
            "error" => LogLevel::Error,
            _ => return None,
        })
    }

    /// The symbol `@test_logs` patterns name the level by (`:warn`).
    pub fn symbol(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Warn => "warn",
            LogLevel::Error => "error",
        }
    }

    fn label(self) -> &'static str {
        match self {
            LogLevel::Debug => "Debug",
            LogLevel::Info => "Info",
            LogLevel::Warn => "Warning",
            LogLevel::Error => "Error",
        }
    }
}

/// One log message with its fields (`x = 1`) and where it came from (`Main REPL[3]:1`, or
/// the package of a library warning).
#[derive(Debug, Clone)]
pub struct LogRecord {
    /// The level.
    pub level: LogLevel,
    /// The message, printed as `print` prints it.
    pub message: String,
    /// `name = value` pairs, the values as `repr` shows them.
    pub fields: Vec<(String, String)>,
    /// The module and place that logged it.
    pub origin: String,
}

impl LogRecord {
    /// The record as Julia's console logger prints it.
    pub fn render(&self) -> String {
        let mut lines: Vec<String> = Vec::new();
        let mut message = self.message.lines();
        lines.push(format!(
            "{}: {}",
            self.level.label(),
            message.next().unwrap_or("")
        ));
        lines.extend(message.map(str::to_string));
        for (name, value) in &self.fields {
            lines.push(format!("  {name} = {value}"));
        }
        if self.level >= LogLevel::Warn {
            lines.push(format!("@ {}", self.origin));
        }
        if let [only] = lines.as_slice() {
            return format!("[ {only}\n");
        }
        let last = lines.len() - 1;
        lines
            .iter()
            .enumerate()
            .map(|(k, line)| {
                let frame = match k {
                    0 => '┌',
                    _ if k == last => '└',
                    _ => '│',
                };
                format!("{frame} {line}\n")
            })
            .collect()
    }
}

impl Interp {
    /// Emits a record: kept when a test is collecting logs, else printed to standard error
    /// (debug records are dropped).
    pub fn log(&mut self, record: LogRecord) {
        if let Some(captured) = &mut self.log_capture {
            captured.push(record);
        } else if record.level > LogLevel::Debug {
            self.out.write(Stream::Stderr, &record.render());
        }
    }

    /// A warning from a library function of `package` (as Julia's packages `@warn`).
    pub fn warn(&mut self, package: &str, message: impl Into<String>) {
        self.log(LogRecord {
            level: LogLevel::Warn,
            message: message.into(),
            fields: Vec::new(),
            origin: package.to_string(),
        });
    }

    /// Runs `f` with the records it logs kept instead of printed; returns them with its result.
    pub(crate) fn capturing_logs<T>(
        &mut self,
        f: impl FnOnce(&mut Interp) -> T,
    ) -> (T, Vec<LogRecord>) {
        let outer = self.log_capture.replace(Vec::new());
        let result = f(self);
        let captured = std::mem::replace(&mut self.log_capture, outer).unwrap_or_default();
        (result, captured)
    }

    /// `@info msg key=value …` and the other log macros.
    pub(crate) fn eval_log_macro(
        &mut self,
        level: LogLevel,
        args: &[Expr],
        span: Span,
    ) -> EvalResult {
        let Some((message, fields)) = args.split_first() else {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("@{} takes a message", level.symbol()),
            ));
        };
        let message = crate::display::print_string(&self.eval(message)?);
        let mut shown = Vec::with_capacity(fields.len());
        for field in fields {
            let (name, value) = match &field.kind {
                ExprKind::Assign {
                    target,
                    value,
                    op: None,
                    ..
                } => (self.source_text(target.span), self.eval(value)?),
                _ => (self.source_text(field.span), self.eval(field)?),
            };
            shown.push((name, crate::display::repr(&value)));
        }
        let (line, _) = line_col(&self.source().text, span.start as usize);
        let origin = format!("Main {}:{line}", self.source().name);
        self.log(LogRecord {
            level,
            message,
            fields: shown,
            origin,
        });
        Ok(Value::Nothing)
    }
}

/// The docstrings of the log macros.
pub fn log_macro_doc(name: &str) -> Option<&'static str> {
    Some(match name {
        "info" | "debug" => "    @info message [key=value ...]\n    @debug message [key=value ...]\n\nLogs a message, and the values of the keys, to standard error as Julia's console logger shows it: `@info \"starting\"` prints `[ Info: starting`, and with keys a box (`┌ Info: step`, `└   k = 1`). `@debug` messages are hidden, as by Julia's default logger. `@test_logs` checks what a call logs.\n\n```\njulia> @test_logs (:info, \"starting\") (@info \"starting\"; 1 + 1)\n2\n```",
        "warn" | "error" => "    @warn message [key=value ...]\n    @error message [key=value ...]\n\nLogs a warning or an error message to standard error, with the values of the keys and where it was logged, as Julia's console logger shows it; nothing is raised (see `error` for that). `@warn \"step too large\" h = 0.5` prints\n\n    ┌ Warning: step too large\n    │   h = 0.5\n    └ @ Main REPL[1]:1\n\nLibrary functions warn the same way (`└ @ SparseMatrixColorings`).\n\n```\njulia> @test_logs (:warn, \"step too large\") @warn(\"step too large\", h = 0.5)\n\n```",
        _ => return None,
    })
}

/// Whether `flow` is an interrupt, which tests and test sets pass on rather than record.
pub(crate) fn is_interrupt(flow: &Flow) -> bool {
    matches!(flow, Flow::Error(e) if e.kind == ErrorKind::InterruptException)
}
