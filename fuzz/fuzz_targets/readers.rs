//! Fuzz target: the file readers (Matrix Market and MATPOWER) never panic on any text; a
//! malformed file is a typed error, and huge declared sizes are refused by the memory limit.
#![no_main]

use difflab_lang::builtins::{matpower, mtx};
use difflab_lang::{Capture, Config, Interp};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let config = Config {
        memory_limit: 1 << 24,
        ..Config::default()
    };
    let interp = Interp::new(config, Box::new(Capture::default()));
    let _ = mtx::parse_mtx(&interp, "fuzz.mtx", text);
    let _ = matpower::case_value("fuzz.m", text);
});
