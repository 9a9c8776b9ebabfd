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
//! frame is exited and nothing else refers to either, so the locals of every call are freed.

use crate::value::{Closure, Value};
use difflab_syntax::Name;
use std::cell::RefCell;
use std::rc::Rc;

/// A shared reference to a frame (closures keep their defining frame alive).
pub type ScopeRef = Rc<Scope>;

/// One frame of local variables.
pub struct Scope {
    vars: RefCell<Vec<(Name, Value)>>,
    globals: RefCell<Vec<Name>>,
    parent: Option<ScopeRef>,
    hard: bool,
}

/// Where an assignment to a name should go.
pub enum Target {
    /// The frame that holds (or will hold) the local.
    Local(ScopeRef),
    /// The global table.
    Global,
}

impl Scope {
    /// A new frame below `parent`; `hard` for function bodies.
    pub fn new(parent: Option<ScopeRef>, hard: bool) -> ScopeRef {
        Rc::new(Scope {
            vars: RefCell::new(Vec::new()),
            globals: RefCell::new(Vec::new()),
            parent,
            hard,
        })
    }

    /// Defines (or overwrites) `name` in this frame.
    pub fn define(&self, name: Name, value: Value) {
        let mut vars = self.vars.borrow_mut();
        match vars.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => vars.push((name, value)),
        }
    }

    /// Marks `name` as global within this frame (`global x`).
    pub fn declare_global(&self, name: Name) {
        self.globals.borrow_mut().push(name);
    }

    fn get_here(&self, name: Name) -> Option<Value> {
        self.vars
            .borrow()
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
    }

    fn has_here(&self, name: Name) -> bool {
        self.vars.borrow().iter().any(|(n, _)| *n == name)
    }

    /// The value of `name` in this frame or an enclosing one; `Err(())` when a frame declares it
    /// global (so the caller reads the global table).
    pub fn lookup(scope: &ScopeRef, name: Name) -> Option<Value> {
        let mut frame = Some(scope);
        while let Some(f) = frame {
            if let Some(v) = f.get_here(name) {
                return Some(v);
            }
            if f.globals.borrow().contains(&name) {
                return None;
            }
            frame = f.parent.as_ref();
        }
        None
    }

    /// Decides where assigning `name` writes; `global_exists` tells whether a global of that
    /// name is defined (for the REPL's soft scope).
    pub fn assignment_target(scope: &ScopeRef, name: Name, global_exists: bool) -> Target {
        let mut in_function = false;
        let mut frame = Some(scope);
        while let Some(f) = frame {
            if f.has_here(name) {
                return Target::Local(f.clone());
            }
            if f.globals.borrow().contains(&name) {
                return Target::Global;
            }
            in_function |= f.hard;
            frame = f.parent.as_ref();
        }
        if !in_function && global_exists {
            Target::Global
        } else {
            Target::Local(scope.clone())
        }
    }

    /// Frees the locals of an exited `frame` (the evaluator's last reference to it) when the
    /// only other references to the frame come from closures it holds itself that nothing else
    /// holds. Anything more tangled (a closure that escaped, in a container, or shared) keeps
    /// the frame alive as before: freeing is only ever skipped, never wrong.
    pub fn release(frame: ScopeRef) {
        if Rc::strong_count(&frame) == 1 {
            return;
        }
        let garbage = {
            let vars = frame.vars.borrow();
            let mut held: Vec<(&Rc<Closure>, usize)> = Vec::new();
            for (_, value) in vars.iter() {
                let Value::Function(c) = value else { continue };
                match held.iter_mut().find(|(h, _)| Rc::ptr_eq(h, c)) {
                    Some(entry) => entry.1 += 1,
                    None => held.push((c, 1)),
                }
            }
            let mut captures = 0;
            let mut only_held_here = true;
            for (closure, times) in &held {
                let refs = methods(closure)
                    .filter(|m| captures_through_private_frames(&m.scope, &frame))
                    .count();
                if refs > 0 {
                    captures += refs;
                    only_held_here &= Rc::strong_count(closure) == *times
                        && closure.methods.iter().all(|m| Rc::strong_count(m) == 1);
                }
            }
            only_held_here && captures > 0 && Rc::strong_count(&frame) == 1 + captures
        };
        if garbage {
            let locals = std::mem::take(&mut *frame.vars.borrow_mut());
            drop(locals);
        }
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
