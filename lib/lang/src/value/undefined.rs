//! `#undef`: a field that an inner constructor's `new(…)` left unset, or an entry of
//! `Vector{String}(undef, n)` not yet assigned. It prints as `#undef`; reading it is Julia's
//! `UndefRefError`.

use super::Value;
use crate::error::ErrorKind;
use crate::error::{fail, Flow};
use std::rc::Rc;

/// The content of an unassigned reference.
struct Undefined;

impl crate::object::Object for Undefined {
    fn type_name(&self) -> String {
        "#undef".into()
    }

    fn show(&self) -> String {
        "#undef".into()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

thread_local! {
    static UNDEFINED: Value = Value::Object(Rc::new(Box::new(Undefined)));
}

impl Value {
    /// An unassigned reference.
    pub fn undefined() -> Value {
        UNDEFINED.with(Value::clone)
    }

    /// Whether the value is an unassigned reference.
    pub fn is_undefined(&self) -> bool {
        matches!(self, Value::Object(o) if o.as_any().is::<Undefined>())
    }

    /// The value, or Julia's `UndefRefError` when it is an unassigned reference.
    pub fn defined(self) -> Result<Value, Flow> {
        if self.is_undefined() {
            return Err(fail(
                ErrorKind::UndefRefError,
                "access to undefined reference",
            ));
        }
        Ok(self)
    }
}
