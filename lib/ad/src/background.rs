//! Long kernels that cannot look at the session's limits themselves (faer's factorizations, a
//! large matrix product) run on a thread of their own while the session's thread polls its
//! interrupt flag and memory limit, so an interrupt is answered within milliseconds however
//! busy the machine is.
//!
//! The inputs are copied for the worker (the session's arrays are not shared across threads),
//! in blocks with a look at the limits between them. An interrupted kernel is told it was
//! abandoned ([`Abandoned`]); one that can stop early (a product by panels) does, one that
//! cannot (a factorization) finishes and its result is dropped; kernels run one at a time, so
//! a new one waits (interruptibly) for an abandoned one to end.

use crate::error::{AdError, Result};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// Numbers copied between two looks at the limits.
const COPY_BLOCK: usize = 1 << 16;

/// Held by the worker that is computing; the next waits for it.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// How often the session's thread looks at its limits while the worker runs.
const POLL: Duration = Duration::from_millis(2);

/// Set once nobody waits for the worker's result any more (the session was interrupted):
/// long work looks at it between steps and stops.
#[derive(Clone, Default)]
pub struct Abandoned(Arc<AtomicBool>);

impl Abandoned {
    /// Whether the result will be dropped.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Marks the work abandoned when the waiting side returns, whichever way it returns.
struct AbandonOnDrop(Abandoned);

impl Drop for AbandonOnDrop {
    fn drop(&mut self) {
        (self.0).0.store(true, Ordering::Relaxed);
    }
}

/// Runs `work` on copies of `inputs` on a worker thread and waits for its result, answering
/// the session's interrupt and memory limit ([`crate::limits::check`]) every few milliseconds.
pub fn run<T: Send + 'static>(
    inputs: &[&[f64]],
    work: impl FnOnce(&[&[f64]], &Abandoned) -> T + Send + 'static,
) -> Result<T> {
    let mut copies = Vec::with_capacity(inputs.len());
    for input in inputs {
        let mut copy = Vec::with_capacity(input.len());
        for block in input.chunks(COPY_BLOCK) {
            crate::limits::check()?;
            copy.extend_from_slice(block);
        }
        copies.push(copy);
    }
    let abandoned = AbandonOnDrop(Abandoned::default());
    let flag = abandoned.0.clone();
    let (sender, receiver) = channel();
    std::thread::Builder::new()
        .name("difflab-kernel".into())
        .spawn(move || {
            // One kernel at a time: an interrupted factorization runs on until it ends, and
            // kernels piling up behind interrupts would starve the session's thread of a core.
            let _turn = ONE_AT_A_TIME
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let slices: Vec<&[f64]> = copies.iter().map(Vec::as_slice).collect();
            // The receiver is gone when the computation was interrupted.
            let _ = sender.send(work(&slices, &flag));
        })
        .map_err(|e| AdError::Argument(format!("cannot start a worker thread: {e}")))?;
    loop {
        match receiver.recv_timeout(POLL) {
            Ok(result) => return Ok(result),
            Err(RecvTimeoutError::Timeout) => crate::limits::check()?,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(AdError::Argument("the computation failed".into()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_sees_copies_of_the_inputs() {
        let (a, b) = (vec![1.0, 2.0], vec![3.0; 100_000]);
        let total = run(&[&a, &b], |inputs, _| {
            inputs.iter().map(|x| x.iter().sum::<f64>()).sum::<f64>()
        })
        .unwrap();
        assert_eq!(total, 300_003.0);
    }

    #[test]
    fn an_interrupt_abandons_the_work_and_the_worker_sees_it() {
        let interrupt = Arc::new(AtomicBool::new(false));
        crate::limits::install(usize::MAX, interrupt.clone());
        let (told, heard) = channel();
        let raiser = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            interrupt.store(true, Ordering::Relaxed);
        });
        let outcome = run(&[], move |_, abandoned| {
            while !abandoned.is_set() {
                std::thread::sleep(Duration::from_millis(1));
            }
            let _ = told.send(());
        });
        raiser.join().unwrap();
        assert!(matches!(outcome, Err(AdError::Interrupted)));
        heard.recv_timeout(Duration::from_secs(10)).unwrap();
    }
}
