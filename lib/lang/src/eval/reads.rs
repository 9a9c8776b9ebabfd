//! What a function read from the session while it was recorded: the globals, the builtins it
//! named, and the variables of frames older than the recording (captured by closures), each
//! with a copy of the value it had; and whether the function printed or assigned a global.
//!
//! A preparation that runs a recording instead of the function (`builtins::ad::recording`)
//! checks with [`Interp::reads_unchanged`] before each call that every one of them still holds
//! the same value, so that a parameter changed between calls (`p[1] = 2.0`, `c = 3.0`, a
//! redefined helper) is seen and the function is recorded again: a recording never computes a
//! stale derivative. Variables the function changed itself (a call counter) are its own state,
//! not inputs; that, printing, assigning globals and drawing random numbers are its effects
//! ([`ReadLog::effect`]), which running a recording would lose.

use super::scope::{Scope, ScopeRef};
use super::Interp;
use crate::output::{Output, Stream};
use crate::value::{Array, Value};
use difflab_ad::Tensor;
use difflab_syntax::Name;
use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::rc::Rc;

/// Where a read value lives.
#[derive(Clone)]
enum Place {
    /// A global name (or a builtin, when no global of that name existed).
    Global(Name),
    /// A variable of a frame older than the recording.
    Frame(ScopeRef, Name),
}

/// What one recording read and did.
#[derive(Default)]
pub struct ReadLog {
    /// Frames with a serial at or above this were made during the recording.
    since: u64,
    /// Each place read, with a copy of its value then (`None`: no global of that name).
    reads: Vec<(Place, Option<Value>)>,
    seen: HashSet<(usize, Name)>,
    /// Why the function cannot be replaced by a recording (it printed, assigned a global).
    effect: Option<String>,
}

impl ReadLog {
    /// Why running a recording would lose what the function does, if it does more than compute.
    pub fn effect(&self) -> Option<&str> {
        self.effect.as_deref()
    }

    fn note(&mut self, place: Place, value: Option<&Value>) {
        let key = match &place {
            Place::Global(name) => (0, *name),
            Place::Frame(frame, name) => (Rc::as_ptr(frame) as usize, *name),
        };
        if self.seen.insert(key) {
            self.reads.push((place, value.map(snapshot)));
        }
    }

    fn note_effect(&mut self, what: String) {
        self.effect.get_or_insert(what);
    }

    /// Adds what a recording nested in this one read (from frames older than this one too)
    /// and did.
    fn absorb(&mut self, inner: &ReadLog) {
        for (place, value) in &inner.reads {
            let key = match place {
                Place::Global(name) => (0, *name),
                Place::Frame(frame, _) if frame.serial() >= self.since => continue,
                Place::Frame(frame, name) => (Rc::as_ptr(frame) as usize, *name),
            };
            if self.seen.insert(key) {
                self.reads.push((place.clone(), value.clone()));
            }
        }
        if let Some(effect) = &inner.effect {
            self.note_effect(effect.clone());
        }
    }
}

/// The session's output, shared while a [`Noting`] sink stands in for it.
type SharedOutput = Rc<RefCell<Box<dyn Output>>>;

/// An [`Output`] that passes everything on and notes that something was printed.
struct Noting {
    inner: SharedOutput,
    printed: Rc<Cell<bool>>,
}

impl Output for Noting {
    fn write(&mut self, stream: Stream, text: &str) {
        self.printed.set(true);
        self.inner.borrow_mut().write(stream, text);
    }

    fn display(&mut self, value: &Value) {
        self.printed.set(true);
        self.inner.borrow_mut().display(value);
    }

    fn clear_output(&mut self, wait: bool) {
        self.printed.set(true);
        self.inner.borrow_mut().clear_output(wait);
    }

    fn read_line(&mut self, prompt: &str) -> Option<String> {
        self.printed.set(true);
        self.inner.borrow_mut().read_line(prompt)
    }
}

/// A null sink, in place of the output while it is moved into a [`Noting`].
struct Nowhere;

impl Output for Nowhere {
    fn write(&mut self, _: Stream, _: &str) {}
    fn display(&mut self, _: &Value) {}
    fn clear_output(&mut self, _: bool) {}
    fn read_line(&mut self, _: &str) -> Option<String> {
        None
    }
}

impl Interp {
    /// Runs `body` (a recording of a function) while noting what it reads and does.
    pub fn noting_reads<T>(&mut self, body: impl FnOnce(&mut Interp) -> T) -> (T, ReadLog) {
        let log = ReadLog {
            since: Scope::next_serial(),
            ..ReadLog::default()
        };
        let outer = self.reads.replace(Box::new(RefCell::new(log)));
        let printed = Rc::new(Cell::new(false));
        let shared: SharedOutput = Rc::new(RefCell::new(std::mem::replace(
            &mut self.out,
            Box::new(Nowhere),
        )));
        self.out = Box::new(Noting {
            inner: shared.clone(),
            printed: printed.clone(),
        });
        let result = body(self);
        // Dropping the stand-in leaves `shared` the only owner of the session's output.
        self.out = Box::new(Nowhere);
        if let Ok(out) = Rc::try_unwrap(shared) {
            self.out = out.into_inner();
        }
        let mut log = std::mem::replace(&mut self.reads, outer)
            .expect("installed above")
            .into_inner();
        if printed.get() {
            log.note_effect("it prints".into());
        }
        // What the function changed itself is its own state, not an input of the recording.
        let read = log.reads.len();
        log.reads
            .retain(|(place, then)| self.place_unchanged(place, then.as_ref()));
        if log.reads.len() < read {
            log.note_effect("it changes variables it reads".into());
        }
        if let Some(outer) = &self.reads {
            outer.borrow_mut().absorb(&log);
        }
        (result, log)
    }

    /// Notes that the variable `name` was read as `value`, when a recording is running.
    pub(super) fn note_read(&self, name: Name, value: Option<&Value>) {
        let Some(log) = &self.reads else { return };
        let mut log = log.borrow_mut();
        if let Some(scope) = &self.scope {
            if let Some(frame) = Scope::holder(scope, name) {
                if frame.serial() < log.since {
                    log.note(Place::Frame(frame, name), value);
                }
                return;
            }
        }
        log.note(Place::Global(name), value);
    }

    /// Notes that the global `name` was assigned, when a recording is running.
    pub(super) fn note_global_write(&self, name: Name) {
        self.note_effect(|| format!("it assigns the global `{name}`"));
    }

    /// Notes, when a recording is running, that the function does what running a recording
    /// instead would lose (`what`, such as drawing random numbers).
    pub(crate) fn note_effect(&self, what: impl FnOnce() -> String) {
        if let Some(log) = &self.reads {
            log.borrow_mut().note_effect(what());
        }
    }

    /// True when every place `log` read holds the value it had then.
    pub fn reads_unchanged(&self, log: &ReadLog) -> bool {
        log.reads
            .iter()
            .all(|(place, then)| self.place_unchanged(place, then.as_ref()))
    }

    fn place_unchanged(&self, place: &Place, then: Option<&Value>) -> bool {
        let now = match place {
            Place::Global(name) => self.global(*name).cloned(),
            Place::Frame(frame, name) => frame.get(*name),
        };
        match (then, &now) {
            (None, None) => true,
            (Some(then), Some(now)) => unchanged(then, now, 0),
            _ => false,
        }
    }
}

/// Containers are compared this deep; anything deeper counts as changed (recording again is
/// always correct).
const MAX_DEPTH: usize = 8;

/// A copy of `v` that later writes to `v` do not reach (arrays share their numbers until
/// written, so copying costs nothing until then).
fn snapshot(v: &Value) -> Value {
    snapshot_at(v, 0)
}

fn snapshot_at(v: &Value, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return v.clone();
    }
    match v {
        Value::Array(a) => {
            let a = a.borrow();
            Value::Array(Rc::new(RefCell::new(Array::new(a.eltype, a.data.clone()))))
        }
        Value::List(items) => Value::list(
            items
                .borrow()
                .iter()
                .map(|x| snapshot_at(x, depth + 1))
                .collect(),
        ),
        Value::Tuple(items) => {
            Value::tuple(items.iter().map(|x| snapshot_at(x, depth + 1)).collect())
        }
        Value::Sparse(s) => Value::Sparse(Rc::new(RefCell::new(s.borrow().clone()))),
        Value::Struct(s) => Value::Struct(Rc::new(crate::types::StructValue {
            def: s.def.clone(),
            params: s.params.clone(),
            fields: RefCell::new(
                s.fields
                    .borrow()
                    .iter()
                    .map(|x| snapshot_at(x, depth + 1))
                    .collect(),
            ),
            shown: RefCell::new(None),
            displayed: RefCell::new(None),
        })),
        // Boxes and containers the function may write into are copied; other objects (backends,
        // preparations) are kept by identity.
        Value::Object(o) => match crate::builtins::refs::as_ref(v) {
            Some(r) => crate::builtins::refs::boxed(snapshot_at(&r.get(), depth + 1)),
            None => o.copy().unwrap_or_else(|| v.clone()),
        },
        other => other.clone(),
    }
}

/// True when `now` holds what the snapshot `then` held: the same numbers bit for bit (so a NaN
/// parameter is unchanged), the same functions and objects by identity, boxes and dictionaries by contents.
fn unchanged(then: &Value, now: &Value, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let all = |a: &[Value], b: &[Value]| {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| unchanged(x, y, depth + 1))
    };
    match (then, now) {
        (Value::Array(a), Value::Array(b)) => {
            let (a, b) = (a.borrow(), b.borrow());
            a.eltype == b.eltype && same_numbers(&a.data, &b.data)
        }
        (Value::List(a), Value::List(b)) => all(&a.borrow(), &b.borrow()),
        (Value::Tuple(a), Value::Tuple(b)) => all(a, b),
        (Value::Struct(a), Value::Struct(b)) => {
            Rc::ptr_eq(&a.def, &b.def) && all(&a.fields.borrow(), &b.fields.borrow())
        }
        (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
        (Value::Real(a), Value::Real(b)) => same_numbers(a, b),
        (Value::Function(a), Value::Function(b)) => Rc::ptr_eq(a, b),
        (Value::Object(a), Value::Object(b)) => {
            use crate::builtins::refs::as_ref;
            match (as_ref(then), as_ref(now)) {
                (Some(x), Some(y)) => unchanged(&x.get(), &y.get(), depth + 1),
                _ => Rc::ptr_eq(a, b) || a.equals(b.as_ref().as_ref()) == Some(true),
            }
        }
        (Value::Sparse(a), Value::Sparse(b)) => {
            Rc::ptr_eq(a, b) || crate::value::equality::values_equal(then, now)
        }
        _ => crate::value::equality::identical(then, now),
    }
}

/// The same plain numbers, bit for bit (numbers carrying derivatives are never the same).
fn same_numbers(a: &Tensor, b: &Tensor) -> bool {
    match (a, b) {
        (Tensor::Plain(x), Tensor::Plain(y)) => {
            Rc::ptr_eq(x, y)
                || (x.shape() == y.shape()
                    && x.iter()
                        .zip(y.iter())
                        .all(|(p, q)| p.to_bits() == q.to_bits()))
        }
        _ => false,
    }
}
