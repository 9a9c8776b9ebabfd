//! Waiting and memory: `sleep(seconds)`, interruptible, and `GC.gc()`.

use super::Args;
use crate::error::ErrorKind;
use crate::eval::{fail, EvalResult, Interp};
use crate::value::Value;
use std::time::{Duration, Instant};

/// How long `sleep` waits between looks at the interrupt flag, so an interrupt ends it within
/// this time.
const POLL: Duration = Duration::from_millis(20);

fn sleep_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("sleep", 1, 1)?;
    let seconds = args.float(0, "sleep")?;
    if seconds.is_nan() || seconds < 0.0 || seconds.is_infinite() {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!(
                "cannot sleep for {} seconds",
                crate::display::repr(&args.pos[0])
            ),
        ));
    }
    let end = Instant::now() + Duration::from_secs_f64(seconds);
    loop {
        interp.check_interrupt()?;
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(Value::Nothing);
        }
        std::thread::sleep(left.min(POLL));
    }
}

/// Frees what only reference cycles keep alive (a function's frame held by a closure it
/// returned, once that closure is gone); the rest is freed as soon as it is unreachable.
fn gc_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("GC.gc", 0, 1)?;
    crate::eval::scope::Scope::collect_cycles();
    Ok(Value::Nothing)
}

crate::builtins! {
    "GC.gc" => gc_, false, "    GC.gc()\n\nFrees the memory that reference cycles keep (function frames held only by closures that are gone); everything else is freed as soon as nothing refers to it, so calling it is never needed for correctness.\n\n```\njulia> GC.gc()\n```";
    "sleep" => sleep_, false, "    sleep(seconds)\n\nWaits `seconds` (a non-negative number, fractions allowed); an interrupt (Ctrl-C, or a notebook's interrupt) ends the wait within a few milliseconds.\n\n```\njulia> sleep(0.01)\n```";
}
