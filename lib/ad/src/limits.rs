//! What stops a computation before it takes the process down: the memory limit and the
//! interrupt flag of the session running on this thread.
//!
//! A session's interpreter runs on one thread and installs its limits there ([`install`]);
//! every long loop of this crate (chunks, sweeps, colors) calls [`check`], and every allocation
//! whose size comes from the input (a broadcast's result, a dense Jacobian) calls [`reserve`]
//! first, because Rust cannot recover from a failed allocation: the process aborts.
//!
//! The live count is the process's heap in use, reported by the process allocator
//! (difflab-lang's counting allocator calls [`note_alloc`] and [`note_free`]); a REPL or kernel
//! process holds one session, so that is the session's memory. Without that allocator the count
//! stays 0 and only each request's own size is checked.

use crate::error::{AdError, Result};
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::sync::Arc;

/// Heap bytes in use in the process, up to each thread's [`PENDING`] change.
static LIVE: AtomicIsize = AtomicIsize::new(0);

/// A thread adds its allocations to [`LIVE`] once they change it by this much: an atomic
/// add per allocation waits for the thread's pending stores, which cost a tenth of array
/// code that allocates many small arrays. The count is off by less than this per thread.
const FLUSH_BYTES: isize = 64 << 10;

/// Requests at least this large are checked against what is live as well as against the limit;
/// smaller ones only against the limit, so a session whose variables fill the limit can still
/// compute with small values.
const LARGE_REQUEST: u64 = 1 << 20;

thread_local! {
    /// This thread's allocations minus its frees not yet added to [`LIVE`].
    static PENDING: Cell<isize> = const { Cell::new(0) };
    /// The memory limit of the session on this thread, in bytes.
    static MEMORY_LIMIT: Cell<usize> = const { Cell::new(usize::MAX) };
    /// The live count above which [`check`] raises `OutOfMemoryError`.
    static GROWTH_THRESHOLD: Cell<usize> = const { Cell::new(usize::MAX) };
    /// The interrupt flag of the session on this thread.
    static INTERRUPT: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Records `bytes` newly allocated (called by the process allocator; never allocates).
#[inline]
pub fn note_alloc(bytes: usize) {
    note_change(bytes as isize);
}

/// Records `bytes` freed (called by the process allocator; never allocates).
#[inline]
pub fn note_free(bytes: usize) {
    note_change(-(bytes as isize));
}

#[inline]
fn note_change(delta: isize) {
    // `try_with` fails only while the thread is torn down; then the change goes straight in.
    let due = PENDING
        .try_with(|pending| {
            let total = pending.get() + delta;
            if total.abs() < FLUSH_BYTES {
                pending.set(total);
                return 0;
            }
            pending.set(0);
            total
        })
        .unwrap_or(delta);
    if due != 0 {
        LIVE.fetch_add(due, Ordering::Relaxed);
    }
}

/// Heap bytes in use in the process (0 when the process allocator does not report them),
/// exact for this thread's own allocations.
pub fn live_bytes() -> usize {
    let pending = PENDING.try_with(Cell::get).unwrap_or(0);
    (LIVE.load(Ordering::Relaxed) + pending).max(0) as usize
}

/// Makes `memory_limit` and `interrupt` this thread's limits, at the start of a top-level
/// evaluation. Growth is measured from here: [`check`] raises once the heap has grown beyond
/// the limit and by more than a sixteenth of it since, so variables that already fill the
/// limit do not make every later input fail.
pub fn install(memory_limit: usize, interrupt: Arc<AtomicBool>) {
    MEMORY_LIMIT.with(|l| l.set(memory_limit));
    GROWTH_THRESHOLD.with(|t| t.set(next_threshold(memory_limit)));
    INTERRUPT.with(|i| *i.borrow_mut() = Some(interrupt));
}

fn next_threshold(limit: usize) -> usize {
    limit.max(live_bytes().saturating_add(limit / 16))
}

/// The memory limit of the session on this thread.
pub fn memory_limit() -> usize {
    MEMORY_LIMIT.with(Cell::get)
}

fn mib(bytes: u64) -> u64 {
    bytes >> 20
}

/// Refuses, before anything is allocated, a request of `bytes` bytes for `what` ("an array of
/// 10 elements") that would exceed the memory limit, alone or together with what is live.
pub fn reserve(bytes: u64, what: &str) -> Result<()> {
    let limit = memory_limit() as u64;
    if bytes > limit {
        return Err(AdError::OutOfMemory(format!(
            "{what} ({} MiB) exceeds the memory limit of {} MiB",
            mib(bytes),
            mib(limit)
        )));
    }
    let live = live_bytes() as u64;
    if bytes >= LARGE_REQUEST && live.saturating_add(bytes) > limit {
        return Err(AdError::OutOfMemory(format!(
            "{what} ({} MiB) does not fit: {} MiB are in use of the memory limit of {} MiB",
            mib(bytes),
            mib(live),
            mib(limit)
        )));
    }
    Ok(())
}

/// [`reserve`] for an array of `elements` numbers of 8 bytes.
pub fn reserve_numbers(elements: usize) -> Result<()> {
    reserve(
        (elements as u64).saturating_mul(8),
        &format!("an array of {elements} elements"),
    )
}

/// Raises `InterruptException` when the session's interrupt was requested (clearing the
/// request), or `OutOfMemoryError` when the heap has grown beyond the memory limit since the
/// evaluation started. Cheap enough for every iteration of a loop that does real work.
pub fn check() -> Result<()> {
    let interrupted = INTERRUPT.with(|i| {
        i.borrow()
            .as_ref()
            // A load first: the flag is almost never set, and a swap would write its cache line
            // at every check.
            .is_some_and(|flag| flag.load(Ordering::Relaxed) && flag.swap(false, Ordering::Relaxed))
    });
    if interrupted {
        return Err(AdError::Interrupted);
    }
    check_memory()
}

/// The `n` elements `element(0)`, `element(1)`, …, made in blocks of 512 KiB with a [`check`]
/// between them. One pass over hundreds of megabytes (zeroing memory the allocator reuses, or
/// faulting in fresh pages) takes up to a second, too long to leave an interrupt waiting.
pub fn collected<T>(n: usize, mut element: impl FnMut(usize) -> T) -> Result<Vec<T>> {
    const BLOCK_BYTES: usize = 1 << 19;
    let block = (BLOCK_BYTES / std::mem::size_of::<T>().max(1)).max(1);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        check()?;
        let start = out.len();
        out.extend((start..n.min(start + block)).map(&mut element));
    }
    Ok(out)
}

/// Elements a scan over positions or numbers handles between two [`check`]s: a few hundred
/// microseconds of work even in unoptimized builds.
pub const POLL_BLOCK: usize = 1 << 16;

/// `items` in blocks of [`POLL_BLOCK`], each yielded after a [`check`]: a scan over 5·10⁷
/// positions (a bounds check, a search for runs) is otherwise too long to leave an interrupt
/// waiting.
pub fn polled_chunks<T>(items: &[T]) -> impl Iterator<Item = Result<&[T]>> {
    items
        .chunks(POLL_BLOCK)
        .map(|block| check().map(|()| block))
}

/// The items of `iter` in a vector, with a [`check`] every [`POLL_BLOCK`] items: listing
/// the 10⁷ characters of a string or elements of a collection is otherwise too long to leave an
/// interrupt waiting.
pub fn polled_collect<T>(iter: impl Iterator<Item = T>) -> Result<Vec<T>> {
    let mut out = Vec::with_capacity(iter.size_hint().0);
    for (k, item) in iter.enumerate() {
        if k % POLL_BLOCK == 0 {
            check()?;
        }
        out.push(item);
    }
    Ok(out)
}

/// `n` copies of `value`, made as [`collected`] makes its elements.
pub fn filled<T: Clone>(value: T, n: usize) -> Result<Vec<T>> {
    collected(n, |_| value.clone())
}

/// Whether the session's interrupt was requested, leaving the request for [`check`] to raise.
/// Work that cannot fail, such as formatting a value as text, stops early on it; whoever
/// called that work raises `InterruptException` at its next [`check`], before using the
/// unfinished result.
pub fn interrupt_requested() -> bool {
    INTERRUPT.with(|i| {
        i.borrow()
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    })
}

/// The memory half of [`check`].
#[inline]
pub fn check_memory() -> Result<()> {
    let threshold = GROWTH_THRESHOLD.with(Cell::get);
    let live = live_bytes();
    if live <= threshold {
        return Ok(());
    }
    let limit = memory_limit();
    // Raised once per step of growth: the values built so far are usually dropped as the
    // error unwinds, and if the user keeps them, later inputs can still run.
    GROWTH_THRESHOLD.with(|t| t.set(next_threshold(limit)));
    Err(AdError::OutOfMemory(format!(
        "the session's memory grew to {} MiB, beyond the memory limit of {} MiB",
        mib(live as u64),
        mib(limit as u64)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_changes_count_at_once_on_their_thread_and_for_others_in_batches() {
        // Nothing else in this crate's tests reports allocations (the counting allocator is
        // difflab-lang's), so the other thread's view is the shared count alone.
        let elsewhere = || std::thread::spawn(live_bytes).join().unwrap();
        let (here, shared) = (live_bytes(), elsewhere());
        note_alloc(1000);
        assert_eq!((live_bytes(), elsewhere()), (here + 1000, shared));
        note_alloc(FLUSH_BYTES as usize);
        let flushed = shared + 1000 + FLUSH_BYTES as usize;
        assert_eq!(
            (live_bytes(), elsewhere()),
            (here + 1000 + FLUSH_BYTES as usize, flushed)
        );
        note_free(1000 + FLUSH_BYTES as usize);
        assert_eq!((live_bytes(), elsewhere()), (here, shared));
    }

    #[test]
    fn a_request_beyond_the_limit_is_refused_before_it_is_made() {
        install(1 << 20, Arc::new(AtomicBool::new(false)));
        assert!(reserve_numbers(1000).is_ok());
        let err = reserve_numbers(1 << 20).unwrap_err();
        assert!(matches!(err, AdError::OutOfMemory(_)), "{err}");
        assert!(err
            .to_string()
            .contains("exceeds the memory limit of 1 MiB"));
    }

    #[test]
    fn a_raised_flag_is_an_interrupt_once() {
        let flag = Arc::new(AtomicBool::new(false));
        install(usize::MAX, flag.clone());
        assert!(check().is_ok());
        flag.store(true, Ordering::Relaxed);
        assert_eq!(check(), Err(AdError::Interrupted));
        assert!(check().is_ok());
    }

    #[test]
    fn a_fill_is_whole_or_stops_at_an_interrupt() {
        let flag = Arc::new(AtomicBool::new(false));
        install(usize::MAX, flag.clone());
        let n = 3 * (1 << 16) + 5;
        assert_eq!(filled(1.5_f64, n), Ok(vec![1.5; n]));
        assert_eq!(filled(7_u8, 0), Ok(vec![]));
        let doubled = collected(n, |k| 2 * k).unwrap();
        assert!(doubled.len() == n && doubled.iter().enumerate().all(|(k, &x)| x == 2 * k));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(filled(0.0_f64, n), Err(AdError::Interrupted));
    }
}
