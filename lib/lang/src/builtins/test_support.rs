//! Helpers shared by the builtins' unit tests: a quiet interpreter and calling a builtin by name.

use crate::error::EvalResult;
use crate::eval::{Config, Interp};
use crate::value::Value;
use difflab_syntax::Name;

/// An interpreter whose output is captured.
pub fn interp() -> Interp {
    Interp::new(
        Config::default(),
        Box::new(crate::output::Capture::default()),
    )
}

/// The builtin `name` applied to `args`.
pub fn call(interp: &mut Interp, name: &str, args: Vec<Value>) -> EvalResult {
    let f = Value::Builtin(crate::builtins::lookup(Name::new(name)).expect("registered"));
    interp.call(&f, args)
}
