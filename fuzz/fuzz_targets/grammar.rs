//! Fuzz target: programs generated from a grammar of the language ([`program`]) never panic
//! the evaluator. Runaway programs are stopped by the interrupt flag, deep recursion by a low
//! depth limit, large allocations by the memory limit.
#![no_main]

#[path = "limited.rs"]
mod limited;

#[path = "program.rs"]
mod program;

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fuzz_target!(|statements: Vec<program::Stmt>| {
    static BUILTINS: OnceLock<Vec<&str>> = OnceLock::new();
    let text = program::text(
        &statements,
        BUILTINS.get_or_init(|| program::callable_builtins(&[])),
    );
    // Replaying an artifact with this variable set shows the program it stands for.
    if std::env::var_os("DIFFLAB_FUZZ_SHOW").is_some() {
        eprintln!("{text}");
    }
    let Ok(parsed) = difflab_syntax::parse(&text) else {
        panic!("the generator wrote a program that does not parse:\n{text}");
    };
    limited::run(&parsed, &text, 1 << 26, 200);
});
