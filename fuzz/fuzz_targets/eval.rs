//! Fuzz target: parsing and evaluating any input never panics. Runaway programs are stopped by
//! the interrupt flag after a short time, deep recursion by a low depth limit, and large
//! allocations by a small memory limit — the same mechanisms users rely on.
#![no_main]

use difflab_lang::{Capture, Config, Interp, Source};
use libfuzzer_sys::fuzz_target;
use std::rc::Rc;
use std::sync::atomic::Ordering;
use std::time::Duration;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(program) = difflab_syntax::parse(text) else {
        return;
    };
    let config = Config {
        memory_limit: 1 << 24,
        max_depth: 64,
        stack_bytes: 1 << 20,
    };
    let mut interp = Interp::new(config, Box::new(Capture::default()));
    let flag = interp.interrupt.clone();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let finished = done.clone();
    let watchdog = std::thread::spawn(move || {
        for _ in 0..20 {
            std::thread::sleep(Duration::from_millis(5));
            if finished.load(Ordering::Relaxed) {
                return;
            }
        }
        flag.store(true, Ordering::Relaxed);
    });
    let source = Rc::new(Source {
        name: "fuzz".into(),
        text: text.to_string(),
    });
    let _ = interp.run(&program, source);
    done.store(true, Ordering::Relaxed);
    let _ = watchdog.join();
});
