//! Fuzz target: parsing and evaluating any input never panics. Runaway programs are stopped by
//! the interrupt flag after a short time, deep recursion by a low depth limit, and large
//! allocations by a small memory limit — the same mechanisms users rely on.
#![no_main]

#[path = "limited.rs"]
mod limited;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(program) = difflab_syntax::parse(text) else {
        return;
    };
    limited::run(&program, text, 1 << 24, 100);
});
