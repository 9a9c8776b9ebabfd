//! `Ref(x)`: a mutable box holding one value, as Julia's `Base.RefValue`.
//!
//! Its two uses in the code users paste: shielding a container from broadcasting
//! (`in.(xs, Ref(set))` passes the whole `set` to every call) and a shared mutable cell
//! (`counter = Ref(0); counter[] += 1`). `r[]` reads the value and `r[] = v` replaces it.

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::object::Object;
use crate::value::Value;
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

/// The box `Ref(x)` makes.
pub struct RefValue {
    held: RefCell<Value>,
}

impl Drop for RefValue {
    fn drop(&mut self) {
        crate::value::release([self.held.get_mut().take()]);
    }
}

impl RefValue {
    /// The value in the box.
    pub fn get(&self) -> Value {
        self.held.borrow().clone()
    }
}

impl Object for RefValue {
    fn type_name(&self) -> String {
        format!("Base.RefValue{{{}}}", self.held.borrow().type_name())
    }

    fn show(&self) -> String {
        format!(
            "{}({})",
            self.type_name(),
            crate::display::repr(&self.held.borrow())
        )
    }

    fn field(&self, name: &str) -> Option<Value> {
        (name == "x").then(|| self.get())
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["x"]
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The box `v` is, if it is one.
pub fn as_ref(v: &Value) -> Option<&RefValue> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<RefValue>(),
        _ => None,
    }
}

/// `r[]`; a `Ref` takes no index.
pub fn index(r: &RefValue, indices: &[Value]) -> EvalResult {
    no_indices(indices)?;
    Ok(r.get())
}

/// `r[] = v`.
pub fn set_index(r: &RefValue, indices: &[Value], v: Value) -> Result<(), Flow> {
    no_indices(indices)?;
    *r.held.borrow_mut() = v;
    Ok(())
}

fn no_indices(indices: &[Value]) -> Result<(), Flow> {
    if indices.is_empty() {
        return Ok(());
    }
    Err(fail(
        ErrorKind::BoundsError,
        "a Ref holds one value: read it with r[] and replace it with r[] = v",
    ))
}

/// A new box holding `v`.
pub fn boxed(v: Value) -> Value {
    Value::Object(Rc::new(Box::new(RefValue {
        held: RefCell::new(v),
    })))
}

fn ref_(_: &mut crate::eval::Interp, args: Args) -> EvalResult {
    args.arity("Ref", 1, 1)?;
    Ok(boxed(args.pos[0].clone()))
}

crate::builtins! {
    "Ref" => ref_, false, "    Ref(x)\n\nA mutable box holding `x`: `r[]` reads it and `r[] = v` replaces it. In a broadcast, a `Ref` is a single value, so the container it holds is passed whole to every call.\n\n```\njulia> in.([1, 3], Ref([1, 2]))\n2-element BitVector:\n 1\n 0\n\njulia> r = Ref(0); r[] += 5; r[]\n5\n```";
}
