//! Running a parsed program under the limits users rely on: a watchdog raises the interrupt
//! flag after `millis` and again every 5 ms (a user pressing Ctrl-C again: a `catch` takes only
//! the first), recursion stops at a low depth, allocations at `memory_limit`.

use difflab_lang::{Capture, Config, Interp, LangError, Source, Value};
use difflab_syntax::Block;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub fn run(program: &Block, text: &str, memory_limit: usize, millis: u32) {
    let _ = run_in(&mut session(memory_limit), program, text, millis);
}

/// A session with the limits above.
pub fn session(memory_limit: usize) -> Interp {
    let config = Config {
        memory_limit,
        max_depth: 64,
        stack_bytes: 1 << 20,
    };
    Interp::new(config, Box::new(Capture::default()))
}

/// Runs `program` (parsed from `text`) in `interp` under the watchdog: its value or error.
pub fn run_in(
    interp: &mut Interp,
    program: &Block,
    text: &str,
    millis: u32,
) -> Result<Value, LangError> {
    let flag = interp.interrupt.clone();
    let done = Arc::new(AtomicBool::new(false));
    let finished = done.clone();
    let watchdog = std::thread::spawn(move || {
        for tick in 0.. {
            std::thread::sleep(Duration::from_millis(5));
            if finished.load(Ordering::Relaxed) {
                return;
            }
            if tick >= millis / 5 {
                flag.store(true, Ordering::Relaxed);
            }
        }
    });
    let source = Rc::new(Source {
        name: "fuzz".into(),
        text: text.to_string(),
    });
    let outcome = interp.run(program, source);
    done.store(true, Ordering::Relaxed);
    let _ = watchdog.join();
    outcome
}
