//! Time, waiting, memory and threads: `time()`, `time_ns()`, `sleep(seconds)`
//! (interruptible), `GC.gc()`, `Threads.nthreads()` and `Threads.threadid()`.

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::Interp;
use crate::value::Value;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

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

/// `time()`: seconds since the Unix epoch, as Julia's wall clock.
fn time_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("time", 0, 0)?;
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    Ok(Value::Float(since.as_secs_f64()))
}

/// `time_ns()`: nanoseconds of a monotonic clock (from an arbitrary start), for timing.
fn time_ns_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("time_ns", 0, 0)?;
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let start = *START.get_or_init(Instant::now);
    Ok(Value::Int(
        i64::try_from(start.elapsed().as_nanos()).unwrap_or(i64::MAX),
    ))
}

fn nthreads_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Threads.nthreads", 0, 0)?;
    Ok(Value::Int(1))
}

fn threadid_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Threads.threadid", 0, 0)?;
    Ok(Value::Int(1))
}

/// Frees what only reference cycles keep alive (a function's frame held by a closure it
/// returned, once that closure is gone); the rest is freed as soon as it is unreachable.
fn gc_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("GC.gc", 0, 1)?;
    crate::eval::scope::Scope::collect_cycles();
    Ok(Value::Nothing)
}

crate::builtins! {
    "time" => time_, false, "    time()\n\nThe wall-clock time in seconds since the Unix epoch, with fractions (`time() - t0` times a piece of code; `@elapsed` does it in one step).\n\n```\njulia> t0 = time(); time() >= t0\ntrue\n```";
    "time_ns" => time_ns_, false, "    time_ns()\n\nNanoseconds of a monotonic clock, from an arbitrary start: differences of two calls time code without being affected by changes of the wall clock.\n\n```\njulia> t0 = time_ns(); time_ns() >= t0\ntrue\n```";
    "GC.gc" => gc_, false, "    GC.gc()\n\nFrees the memory that reference cycles keep (function frames held only by closures that are gone); everything else is freed as soon as nothing refers to it, so calling it is never needed for correctness.\n\n```\njulia> GC.gc()\n```";
    "Threads.nthreads" => nthreads_, false, "    Threads.nthreads()\n\nThe number of threads running the session's code: 1 (the array kernels use the machine's cores themselves; `Threads.@threads` loops run in order).\n\n```\njulia> Threads.nthreads()\n1\n```";
    "Threads.threadid" => threadid_, false, "    Threads.threadid()\n\nThe number of the thread running this code: always 1.\n\n```\njulia> Threads.threadid()\n1\n```";
    "sleep" => sleep_, false, "    sleep(seconds)\n\nWaits `seconds` (a non-negative number, fractions allowed); an interrupt (Ctrl-C, or a notebook's interrupt) ends the wait within a few milliseconds.\n\n```\njulia> sleep(0.01)\n```";
}
