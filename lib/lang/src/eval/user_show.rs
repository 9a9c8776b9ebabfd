//! The text of the user's `show` methods, computed before printing: printing and display
//! have no interpreter, so every user value inside a value to print gets the text its
//! `Base.show(io, x)` (or, for the REPL's display, `show(io, ::MIME"text/plain", x)`) writes.

use super::Interp;
use crate::error::Flow;
use crate::value::Value;

impl Interp {
    /// Fills in the text of the user's `show` methods for every user value inside `v`, so
    /// that printing and display (which have no interpreter) use it.
    pub fn prepare_display(&mut self, v: &Value) -> Result<(), Flow> {
        if !self.extensions.contains_key(&difflab_syntax::name!("show")) {
            return Ok(());
        }
        self.prepare_display_at(v, 0)
    }

    /// [`Interp::prepare_display`] for the REPL's display of `v` (`display(v)`, the value of
    /// an input): a user value's `show(io, ::MIME"text/plain", x)` method, if it has one,
    /// gives its text.
    pub fn prepare_plain_display(&mut self, v: &Value) -> Result<(), Flow> {
        if !self.extensions.contains_key(&difflab_syntax::name!("show")) {
            return Ok(());
        }
        if let Value::Struct(s) = v {
            let io = crate::builtins::io::buffer();
            let mime = crate::builtins::mime::mime("text/plain");
            let shown = self.call_extension(
                difflab_syntax::name!("show"),
                &[io.clone(), mime, v.clone()],
                &[],
            );
            if let Some(result) = shown {
                result?;
                *s.displayed.borrow_mut() = Some(crate::builtins::io::buffer_text(&io));
            }
        }
        self.prepare_display_at(v, 0)
    }

    fn prepare_display_at(&mut self, v: &Value, depth: usize) -> Result<(), Flow> {
        if depth > 64 {
            return Ok(());
        }
        match v {
            Value::Struct(s) => {
                let io = crate::builtins::io::buffer();
                let shown = self.call_extension(
                    difflab_syntax::name!("show"),
                    &[io.clone(), v.clone()],
                    &[],
                );
                match shown {
                    Some(result) => {
                        result?;
                        *s.shown.borrow_mut() = Some(crate::builtins::io::buffer_text(&io));
                    }
                    None => {
                        let fields = s.fields.borrow().clone();
                        for f in &fields {
                            self.prepare_display_at(f, depth + 1)?;
                        }
                    }
                }
            }
            Value::Tuple(items) => {
                for item in items.iter() {
                    self.prepare_display_at(item, depth + 1)?;
                }
            }
            Value::List(items) => {
                let items = items.borrow().clone();
                for item in &items {
                    self.prepare_display_at(item, depth + 1)?;
                }
            }
            Value::NamedTuple(items) => {
                for (_, item) in items.iter() {
                    self.prepare_display_at(item, depth + 1)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}
