//! Dropping values nested arbitrarily deep without recursing.
//!
//! Rust drops a container by dropping its items, so a vector nested 10⁷ deep
//! (`a = Any[a]` in a loop) would recurse 10⁷ frames and overflow the engine's stack, ending the
//! session. Every container that can hold values (vectors, tuples, structs, scopes, dictionaries,
//! sets, `Ref`s, lazy iterators, composed and partially applied functions) hands its items to [`release`]
//! instead. The outermost release drops them one at a time; a container freed meanwhile, however
//! deep, only appends its items to a worklist, which the outermost release then drains. The
//! stack depth stays constant and every item is still dropped exactly once.

use super::Value;
use difflab_syntax::Name;
use std::cell::{Cell, RefCell};

thread_local! {
    static RELEASING: Cell<bool> = const { Cell::new(false) };
    static PENDING: RefCell<Vec<Value>> = const { RefCell::new(Vec::new()) };
}

/// Drops `values` and everything only they hold, on a worklist rather than the stack.
pub(crate) fn release(values: impl IntoIterator<Item = Value>) {
    if RELEASING.with(Cell::get) {
        // During thread teardown the worklist may be gone; dropping in place is then the only
        // option (and nothing is nested deep at that point).
        let _ = PENDING.try_with(|pending| pending.borrow_mut().extend(values));
        return;
    }
    RELEASING.with(|flag| flag.set(true));
    values.into_iter().for_each(drop);
    while let Ok(batch) = PENDING.try_with(|pending| std::mem::take(&mut *pending.borrow_mut())) {
        if batch.is_empty() {
            break;
        }
        batch.into_iter().for_each(drop);
    }
    RELEASING.with(|flag| flag.set(false));
}

/// What a sequence of [`Items`] holds: plain values (a tuple) or named ones (a named tuple).
pub trait Held {
    /// The value held.
    fn into_value(self) -> Value;
}

impl Held for Value {
    fn into_value(self) -> Value {
        self
    }
}

impl Held for (Name, Value) {
    fn into_value(self) -> Value {
        self.1
    }
}

/// The immutable items of a tuple or named tuple (it dereferences to them), released through
/// [`release`] when the last reference goes.
#[derive(Clone, Default)]
pub struct Items<T: Held>(Vec<T>);

impl<T: Held> std::ops::Deref for Items<T> {
    type Target = Vec<T>;

    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T: Held> From<Vec<T>> for Items<T> {
    fn from(items: Vec<T>) -> Items<T> {
        Items(items)
    }
}

impl<T: Held> FromIterator<T> for Items<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Items<T> {
        Items(iter.into_iter().collect())
    }
}

impl<T: Held> Drop for Items<T> {
    fn drop(&mut self) {
        release(self.0.drain(..).map(Held::into_value));
    }
}
