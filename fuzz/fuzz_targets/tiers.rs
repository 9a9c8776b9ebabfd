//! Fuzz target: the compile tier changes no result. Each program generated from the grammar
//! ([`program`]), followed by a line writing its variables as text (`repr`, inside the run, so
//! the watchdog and the memory limit bound it too), runs in a session whose tier runs
//! compiled methods as machine code and in one whose tier is off (the evaluator runs
//! everything); their values, or their errors with message and spans, must be the same. Runs
//! that the watchdog interrupted, or that reached the memory or the stack limit, are not
//! compared: where they stop depends on how fast each runs and how much each uses (compiled
//! code takes less stack than the evaluator, much less under the sanitizer's large frames).
//! Builtins whose results depend on the clock or on the file system's state are left out of
//! the programs.
#![no_main]

// Shared with the other targets; this one runs its own sessions and needs part of it.
#[allow(dead_code)]
#[path = "limited.rs"]
mod limited;

#[path = "program.rs"]
mod program;

use difflab_lang::{ErrorKind, LangError, Value};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// Builtins whose results differ between two sessions running the same program.
const NONDETERMINISTIC: &[&str] = &["time", "time_ns", "tempname"];

fn outcome(result: &Result<Value, LangError>) -> Option<String> {
    match result {
        Ok(Value::Str(text)) => Some(text.to_string()),
        Ok(value) => Some(difflab_lang::display::repr(value)),
        Err(e)
            if matches!(
                e.kind,
                ErrorKind::InterruptException
                    | ErrorKind::OutOfMemoryError
                    | ErrorKind::StackOverflowError
            ) =>
        {
            None
        }
        Err(e) => Some(format!("error: {}", e.render())),
    }
}

fuzz_target!(|statements: Vec<program::Stmt>| {
    static BUILTINS: OnceLock<Vec<&str>> = OnceLock::new();
    let builtins = BUILTINS.get_or_init(|| program::callable_builtins(NONDETERMINISTIC));
    let text = program::text(&statements, builtins) + "\nrepr((v0, v1, v2, v3, v4, v5))";
    if std::env::var_os("DIFFLAB_FUZZ_SHOW").is_some() {
        eprintln!("{text}");
    }
    let Ok(parsed) = difflab_syntax::parse(&text) else {
        panic!("the generator wrote a program that does not parse:\n{text}");
    };
    let mut compiled = limited::session(1 << 26);
    let mut evaluated = limited::session(1 << 26);
    evaluated.compiled.enabled = false;
    let with_tier = limited::run_in(&mut compiled, &parsed, &text, 200);
    let without = limited::run_in(&mut evaluated, &parsed, &text, 200);
    if let (Some(a), Some(b)) = (outcome(&with_tier), outcome(&without)) {
        assert_eq!(a, b, "the compile tier changed the result of\n{text}");
    }
});
