//! Local scopes: the chain of frames a function body or loop body sees, and Julia's rules for
//! which frame an assignment writes to.
//!
//! Top-level code has no frame (it reads and writes globals). A function call pushes a *hard*
//! frame; loops, `let` and comprehensions push *soft* frames. An assignment writes to the
//! nearest frame that already has the name; otherwise, inside a function it creates a local, and
//! at top level (REPL soft scope) it writes an existing global or creates a loop-local.
//!
//! A function defined inside a frame and stored there (`lap(w) = …` in a function body)
//! captures the frame that holds it: a reference cycle. [`Scope::release`] breaks it when the
//! frame is exited and nothing else refers to either; when a closure escaped the call, the
//! frame is kept as a suspect and [`Scope::collect_cycles`] breaks the cycle once the closure
//! is dropped, so the locals of every call are freed.

use crate::value::{Closure, Value};
use difflab_syntax::Name;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

/// A shared reference to a frame (closures keep their defining frame alive).
pub type ScopeRef = Rc<Scope>;

/// One frame of local variables.
pub struct Scope {
    vars: RefCell<Vec<(Name, Value)>>,
    globals: RefCell<Vec<Name>>,
    /// A filter over the names in `vars`: the bit of each (see [`bit`]). A lookup skips a frame
    /// whose filter lacks the name's bit without scanning it (most lookups in a loop body find
    /// their name a frame or two further up).
    var_bits: Cell<u64>,
    /// The same filter over `globals`.
    global_bits: Cell<u64>,
    parent: Option<ScopeRef>,
    hard: bool,
    /// The order frames were made in (see [`Scope::next_serial`]).
    serial: u64,
}

thread_local! {
    /// The serial of the next frame made on this thread.
    static NEXT_SERIAL: Cell<u64> = const { Cell::new(0) };
}

/// The bit of `name` in a frame's filter.
fn bit(name: Name) -> u64 {
    1 << (name.index() % 64)
}

impl Drop for Scope {
    fn drop(&mut self) {
        crate::value::release(self.vars.get_mut().drain(..).map(|(_, value)| value));
    }
}

impl Scope {
    /// A new frame below `parent`; `hard` for function bodies.
    pub fn new(parent: Option<ScopeRef>, hard: bool) -> ScopeRef {
        let serial = NEXT_SERIAL.with(|next| next.replace(next.get() + 1));
        Rc::new(Scope {
            serial,
            vars: RefCell::new(Vec::new()),
            globals: RefCell::new(Vec::new()),
            var_bits: Cell::new(0),
            global_bits: Cell::new(0),
            parent,
            hard,
        })
    }

    /// How many bindings this frame holds: a mark for [`Scope::forget_after`] and
    /// [`Scope::next_iteration`].
    pub fn binding_count(&self) -> usize {
        self.vars.borrow().len()
    }

    /// Drops the bindings made after the first `mark` (a loop iteration's locals, which Julia
    /// does not carry into the next iteration).
    pub fn forget_after(&self, mark: usize) {
        let mut vars = self.vars.borrow_mut();
        if vars.len() <= mark {
            return;
        }
        let forgotten = vars.split_off(mark);
        self.var_bits
            .set(vars.iter().fold(0, |bits, (name, _)| bits | bit(*name)));
        // Dropping the values may free frames: not while this one is borrowed.
        drop(vars);
        drop(forgotten);
    }

    /// The frame a loop's next iteration runs in when something made by this iteration (a
    /// closure, a generator) captured this one: same parent, kind and `global` declarations,
    /// holding only the first `mark` bindings (the loop variables of the enclosing clauses).
    /// Each iteration's closures thus keep their own variables, as in Julia, and captured
    /// frames never chain.
    pub fn next_iteration(&self, mark: usize) -> ScopeRef {
        let frame = Scope::new(self.parent.clone(), self.hard);
        for (name, value) in self.vars.borrow().iter().take(mark) {
            frame.define(*name, value.clone());
        }
        for name in self.globals.borrow().iter() {
            frame.declare_global(*name);
        }
        frame
    }

    /// The serial the next frame will have: frames made before now have smaller ones.
    pub fn next_serial() -> u64 {
        NEXT_SERIAL.with(Cell::get)
    }

    /// This frame's serial.
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// The value of `name` in this very frame.
    pub fn get(&self, name: Name) -> Option<Value> {
        self.get_here(name)
    }

    /// The frame that [`Scope::lookup`] finds `name` in.
    pub fn holder(scope: &ScopeRef, name: Name) -> Option<ScopeRef> {
        let mut frame = Some(scope);
        while let Some(f) = frame {
            if f.get_here(name).is_some() {
                return Some(f.clone());
            }
            if f.declares_global(name) {
                return None;
            }
            frame = f.parent.as_ref();
        }
        None
    }

    /// Defines (or overwrites) `name` in this frame.
    pub fn define(&self, name: Name, value: Value) {
        let mut vars = self.vars.borrow_mut();
        match vars.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => self.push(&mut vars, name, value),
        }
    }

    fn push(&self, vars: &mut Vec<(Name, Value)>, name: Name, value: Value) {
        vars.push((name, value));
        self.var_bits.set(self.var_bits.get() | bit(name));
    }

    /// Marks `name` as global within this frame (`global x`).
    pub fn declare_global(&self, name: Name) {
        if self.declares_global(name) {
            return;
        }
        self.globals.borrow_mut().push(name);
        self.global_bits.set(self.global_bits.get() | bit(name));
    }

    fn get_here(&self, name: Name) -> Option<Value> {
        if self.var_bits.get() & bit(name) == 0 {
            return None;
        }
        self.vars
            .borrow()
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
    }

    fn declares_global(&self, name: Name) -> bool {
        self.global_bits.get() & bit(name) != 0 && self.globals.borrow().contains(&name)
    }

    /// The value of `name` in this frame or an enclosing one; `Err(())` when a frame declares it
    /// global (so the caller reads the global table).
    pub fn lookup(scope: &ScopeRef, name: Name) -> Option<Value> {
        let mut frame = Some(scope);
        while let Some(f) = frame {
            if let Some(v) = f.get_here(name) {
                return Some(v);
            }
            if f.declares_global(name) {
                return None;
            }
            frame = f.parent.as_ref();
        }
        None
    }

    /// Assigns `value` to `name` in the frame that holds it, or creates it where Julia's rules
    /// say: inside a function a new local here; at top level (the REPL's soft scope) the global
    /// when `global_exists`, else a loop-local. Gives the value back when it belongs in the
    /// global table.
    pub fn assign(
        scope: &ScopeRef,
        name: Name,
        value: Value,
        global_exists: bool,
    ) -> Option<Value> {
        let mut in_function = false;
        let mut frame = Some(scope);
        while let Some(f) = frame {
            if f.var_bits.get() & bit(name) != 0 {
                let mut vars = f.vars.borrow_mut();
                if let Some(slot) = vars.iter_mut().find(|(n, _)| *n == name) {
                    let old = std::mem::replace(&mut slot.1, value);
                    // Dropping the old value may free frames: not while this one is borrowed.
                    drop(vars);
                    drop(old);
                    return None;
                }
            }
            if f.declares_global(name) {
                return Some(value);
            }
            in_function |= f.hard;
            frame = f.parent.as_ref();
        }
        if !in_function && global_exists {
            Some(value)
        } else {
            scope.push(&mut scope.vars.borrow_mut(), name, value);
            None
        }
    }

    /// Frees the locals of an exited `frame` (the evaluator's last reference to it) when the
    /// only other references to the frame come from closures it holds itself (directly, or in
    /// tuples only it holds) that nothing else holds. A frame whose closure escaped
    /// (`return x -> x + a`, after `g = x -> …`) is kept, and looked at again by
    /// [`Scope::collect_cycles`] once the closure may have been dropped. Freeing is only ever
    /// skipped, never wrong.
    pub fn release(frame: ScopeRef) {
        if Rc::strong_count(&frame) == 1 {
            return;
        }
        match cycle_state(&frame) {
            Cycle::Unreachable => free_locals(&frame),
            Cycle::HeldFromOutside => SUSPECTS.with(|suspects| {
                let mut suspects = suspects.borrow_mut();
                suspects.frames.push(Rc::downgrade(&frame));
                if suspects.frames.len() >= suspects.next_sweep {
                    let pending = std::mem::take(&mut suspects.frames);
                    drop(suspects);
                    sweep(pending);
                }
            }),
            Cycle::None => {}
        }
    }

    /// Frees the locals of every exited frame kept alive only by its own closures now that
    /// whatever held them from outside let go: the cycles [`Scope::release`] had to keep.
    pub fn collect_cycles() {
        let pending = SUSPECTS.with(|s| std::mem::take(&mut s.borrow_mut().frames));
        sweep(pending);
    }

    /// The names visible from this frame (for completion).
    pub fn visible_names(scope: &ScopeRef) -> Vec<Name> {
        let mut names = Vec::new();
        let mut frame = Some(scope);
        while let Some(f) = frame {
            names.extend(f.vars.borrow().iter().map(|(n, _)| *n));
            frame = f.parent.as_ref();
        }
        names
    }
}

/// Exited frames that closures of their own still referred to from outside.
struct Suspects {
    frames: Vec<Weak<Scope>>,
    /// How many suspects trigger a sweep: twice what survived the last one, so sweeping costs
    /// O(1) per exited frame.
    next_sweep: usize,
}

thread_local! {
    static SUSPECTS: RefCell<Suspects> = const {
        RefCell::new(Suspects {
            frames: Vec::new(),
            next_sweep: MIN_SWEEP,
        })
    };
}

/// The fewest suspects that trigger a sweep.
const MIN_SWEEP: usize = 256;

/// Frees the frames of `pending` that have become unreachable cycles; keeps the others.
fn sweep(pending: Vec<Weak<Scope>>) {
    let mut kept = Vec::new();
    for weak in pending {
        let Some(frame) = weak.upgrade() else {
            continue;
        };
        match cycle_state(&frame) {
            Cycle::Unreachable => free_locals(&frame),
            Cycle::HeldFromOutside => kept.push(weak),
            Cycle::None => {}
        }
    }
    SUSPECTS.with(|suspects| {
        let mut suspects = suspects.borrow_mut();
        suspects.next_sweep = (2 * (kept.len() + suspects.frames.len())).max(MIN_SWEEP);
        suspects.frames.extend(kept);
    });
}

/// How an exited frame (held once by the caller) relates to the closures it holds.
enum Cycle {
    /// Only its own closures, held by nothing else, refer to it: a garbage cycle.
    Unreachable,
    /// Its own closures refer to it, but something else holds them or it.
    HeldFromOutside,
    /// No closure of its own refers to it.
    None,
}

fn cycle_state(frame: &ScopeRef) -> Cycle {
    let vars = frame.vars.borrow();
    let mut search = HeldClosures {
        held: Vec::new(),
        budget: SEARCH_BUDGET,
        shared: false,
    };
    for (_, value) in vars.iter() {
        search.look_in(value, CONTAINER_DEPTH);
    }
    drop(vars);
    let HeldClosures { held, shared, .. } = search;
    let mut captures = 0;
    let mut only_held_here = !shared;
    for (closure, times) in &held {
        let refs = methods(closure)
            .filter(|m| captures_through_private_frames(&m.scope, frame))
            .count();
        if refs > 0 {
            captures += refs;
            // `held` keeps one reference of its own to each closure.
            only_held_here &= Rc::strong_count(closure) == *times + 1
                && closure.methods.iter().all(|m| Rc::strong_count(m) == 1);
        }
    }
    if captures == 0 {
        Cycle::None
    } else if only_held_here && Rc::strong_count(frame) == 1 + captures {
        Cycle::Unreachable
    } else {
        Cycle::HeldFromOutside
    }
}

/// How deep inside containers the closures of a frame are looked for.
const CONTAINER_DEPTH: usize = 8;
/// How many values one look at a frame visits at most; beyond, the frame is treated as held
/// from outside (kept as a suspect and looked at again by later sweeps).
const SEARCH_BUDGET: usize = 4096;

/// The closures a frame holds, directly or in containers (tuples, vectors, struct instances),
/// with how many times each is held.
struct HeldClosures {
    held: Vec<(Rc<Closure>, usize)>,
    /// Values still to visit.
    budget: usize,
    /// Set when a container on the way is also held elsewhere (or the search gave up): the
    /// closures found may then be reachable from outside.
    shared: bool,
}

impl HeldClosures {
    fn look_in(&mut self, value: &Value, depth: usize) {
        if self.budget == 0 {
            self.shared = true;
            return;
        }
        self.budget -= 1;
        match value {
            Value::Function(c) => match self.held.iter_mut().find(|(h, _)| Rc::ptr_eq(h, c)) {
                Some(entry) => entry.1 += 1,
                None => self.held.push((c.clone(), 1)),
            },
            Value::Tuple(items) => {
                self.note_sharing(Rc::strong_count(items));
                self.look_in_all(items.iter(), depth);
            }
            Value::List(items) => {
                self.note_sharing(Rc::strong_count(items));
                match items.try_borrow() {
                    Ok(items) => self.look_in_all(items.iter(), depth),
                    Err(_) => self.shared = true,
                }
            }
            Value::Struct(s) => {
                self.note_sharing(Rc::strong_count(s));
                match s.fields.try_borrow() {
                    Ok(fields) => self.look_in_all(fields.iter(), depth),
                    Err(_) => self.shared = true,
                }
            }
            Value::Object(o) => {
                let held = o.held_values();
                if !held.is_empty() {
                    self.note_sharing(Rc::strong_count(o));
                    self.look_in_all(held, depth);
                }
            }
            _ => {}
        }
    }

    fn note_sharing(&mut self, references: usize) {
        self.shared |= references != 1;
    }

    fn look_in_all<'v>(&mut self, items: impl IntoIterator<Item = &'v Value>, depth: usize) {
        let mut items = items.into_iter().peekable();
        if depth == 0 {
            self.shared |= items.peek().is_some();
            return;
        }
        for item in items {
            self.look_in(item, depth - 1);
        }
    }
}

fn free_locals(frame: &ScopeRef) {
    let locals = std::mem::take(&mut *frame.vars.borrow_mut());
    drop(locals);
}

fn methods(closure: &Rc<Closure>) -> impl Iterator<Item = &Rc<Closure>> {
    std::iter::once(closure).chain(closure.methods.iter())
}

/// True when `scope` is `frame`, or a chain of frames referenced only by their child (the
/// closure's own loop or `let` frames) that ends in `frame`.
fn captures_through_private_frames(scope: &Option<ScopeRef>, frame: &ScopeRef) -> bool {
    let mut current = scope.as_ref();
    while let Some(s) = current {
        if Rc::ptr_eq(s, frame) {
            return true;
        }
        if Rc::strong_count(s) != 1 {
            return false;
        }
        current = s.parent.as_ref();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(k: usize) -> Name {
        Name::new(&format!("scope_test_{k}"))
    }

    #[test]
    fn every_name_is_found_in_its_frame_whatever_its_filter_bit() {
        // More names than filter bits: some share a bit, and sharing must only cost a scan.
        let outer = Scope::new(None, true);
        for k in 0..130 {
            outer.define(name(k), Value::Int(k as i64));
        }
        let inner = Scope::new(Some(outer.clone()), false);
        inner.define(name(7), Value::Int(-7));
        assert!(matches!(
            Scope::lookup(&inner, name(7)),
            Some(Value::Int(-7))
        ));
        for k in (0..130).filter(|&k| k != 7) {
            assert!(matches!(Scope::lookup(&inner, name(k)), Some(Value::Int(i)) if i == k as i64));
        }
        assert!(Scope::lookup(&inner, name(200)).is_none());
        // Assignment writes the frame that holds the name; a declared global goes back out.
        assert!(Scope::assign(&inner, name(100), Value::Int(1), false).is_none());
        assert!(matches!(
            Scope::lookup(&outer, name(100)),
            Some(Value::Int(1))
        ));
        inner.declare_global(name(300));
        assert!(Scope::assign(&inner, name(300), Value::Int(2), false).is_some());
        assert!(Scope::assign(&inner, name(301), Value::Int(3), false).is_none());
        assert!(matches!(
            Scope::lookup(&inner, name(301)),
            Some(Value::Int(3))
        ));
        assert!(Scope::lookup(&outer, name(301)).is_none());
    }
}
