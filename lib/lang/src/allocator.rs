//! The process allocator of every program that runs difflab code: mimalloc, counted.
//!
//! Array kernels allocate and free blocks of tens of kilobytes at a high rate; glibc's malloc
//! returns such blocks to the kernel and faults them back in on the next allocation, which cost
//! two thirds of a prepared gradient at n = 10⁴. mimalloc keeps them. The counting layer lets
//! `@b`, `@btime`, `@time` and `benchmark_differentiation` report allocations and bytes as
//! Julia's tools do, and tells `difflab_ad::limits` how many bytes are live, so the memory limit
//! counts what the session holds. mimalloc's default returns a freed large block to the system
//! within 10 ms, so code that frees and reallocates arrays of megabytes (a growing vector,
//! elementwise operations on 10⁶ numbers) had the kernel zero fresh pages for every array;
//! [`keep_freed_blocks`] raises that delay to a second. The counters are per thread (the evaluator's allocations are what those
//! tools report): a thread-local add costs a fraction of an atomic one, and scalar code
//! allocates for every number.

// Unsafe because `GlobalAlloc` is an unsafe trait. Each method forwards to
// mimalloc unchanged and only adds to two thread-local counters (constant-initialized, without
// a destructor, so they never allocate) and to the live count (another thread-local sum,
// added to one atomic in batches).
#![allow(unsafe_code)]

use difflab_ad::limits;
use mimalloc::MiMalloc;
use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::Once;

/// How long mimalloc keeps a freed block before returning it to the system, in milliseconds.
const PURGE_DELAY_MS: std::os::raw::c_long = 1000;

/// mimalloc's `mi_option_purge_delay`, which the binding does not name: in `mimalloc.h` (v2 and
/// v3 alike) it comes right before the option the binding calls `mi_option_use_numa_nodes`.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t =
    libmimalloc_sys::mi_option_use_numa_nodes - 1;

/// Sets the allocator's purge delay, once per process; an interpreter calls it when made.
/// A `MIMALLOC_PURGE_DELAY` in the environment still wins, for experiments.
pub fn keep_freed_blocks() {
    static SET: Once = Once::new();
    SET.call_once(|| {
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            // SAFETY: sets a plain integer option of the linked allocator; mimalloc reads its
            // options atomically, so this is sound at any time.
            unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
        }
    });
}

thread_local! {
    /// Allocations and bytes requested by this thread.
    static COUNTERS: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

struct Counting;

impl Counting {
    fn note(&self, bytes: usize) {
        // `try_with` fails only while the thread is being torn down; those are not counted.
        let _ = COUNTERS.try_with(|c| {
            let (count, total) = c.get();
            c.set((count + 1, total + bytes as u64));
        });
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.note(layout.size());
        let ptr = MiMalloc.alloc(layout);
        if !ptr.is_null() {
            limits::note_alloc(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        self.note(layout.size());
        let ptr = MiMalloc.alloc_zeroed(layout);
        if !ptr.is_null() {
            limits::note_alloc(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        limits::note_free(layout.size());
        MiMalloc.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        self.note(new_size.saturating_sub(layout.size()));
        let moved = MiMalloc.realloc(ptr, layout, new_size);
        if !moved.is_null() {
            limits::note_free(layout.size());
            limits::note_alloc(new_size);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allocations and bytes requested by the current thread since it started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Allocations {
    /// The number of allocations (a reallocation counts as one).
    pub count: u64,
    /// The bytes requested by them (what a reallocation adds).
    pub bytes: u64,
}

impl Allocations {
    /// The counters now.
    pub fn now() -> Allocations {
        let (count, bytes) = COUNTERS.try_with(Cell::get).unwrap_or_default();
        Allocations { count, bytes }
    }

    /// What was allocated between `earlier` and `self`.
    pub fn since(self, earlier: Allocations) -> Allocations {
        Allocations {
            count: self.count.saturating_sub(earlier.count),
            bytes: self.bytes.saturating_sub(earlier.bytes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_what_a_block_allocates() {
        let before = Allocations::now();
        let v: Vec<u64> = Vec::with_capacity(1000);
        let used = Allocations::now().since(before);
        drop(v);
        assert!(used.count >= 1);
        assert!(used.bytes >= 8000);
    }
}
