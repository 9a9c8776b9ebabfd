//! The arguments of a builtin call, and the rule that no keyword is silently ignored.
//!
//! A builtin reads its keywords through [`Args::kw`], which records each one it reads;
//! [`call`] runs the builtin and turns any keyword it never read into Julia's "unsupported
//! keyword argument" `MethodError`, so a misspelt option (`AutoForwardDiff(chunk_size=4)`,
//! `sum(x; dim=1)`) is an error, not a silent default.

use super::{to_float, to_int, Builtin};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::value::Value;
use difflab_syntax::Name;
use std::cell::Cell;
use std::rc::Rc;

/// The arguments of a builtin call.
pub struct Args {
    /// Positional arguments.
    pub pos: Vec<Value>,
    keywords: Vec<(Name, Value)>,
    /// Bit `i` is set once keyword `i` has been read; shared with [`call`], which checks it
    /// after the builtin returns. `None` when there are no keywords (no allocation then).
    read: Option<Rc<Cell<u64>>>,
    /// True when called as `f.(...)`.
    pub dotted: bool,
}

impl Args {
    /// Positional arguments only, as when one builtin calls another.
    pub fn positional(pos: Vec<Value>) -> Self {
        Args {
            pos,
            keywords: Vec::new(),
            read: None,
            dotted: false,
        }
    }

    /// The same keywords (still tracked) with other positional arguments: for a builtin that
    /// hands its keywords on to itself or another builtin.
    pub fn with_positional(self, pos: Vec<Value>) -> Self {
        Args { pos, ..self }
    }

    /// Checks the number of positional arguments.
    pub fn arity(&self, name: &str, min: usize, max: usize) -> Result<(), Flow> {
        let n = self.pos.len();
        if n < min || n > max {
            return Err(self.no_method(name));
        }
        Ok(())
    }

    /// Julia's `MethodError: no method matching name(::T, …)` for these positional arguments.
    pub fn no_method(&self, name: &str) -> Flow {
        fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {name}({})",
                self.pos
                    .iter()
                    .map(|v| format!("::{}", v.type_name()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    }

    /// Checks up front that every keyword is one of `accepted`, for builtins whose error
    /// should list what they take (the backends and coloring options).
    pub fn keywords(&self, name: &str, accepted: &[&str]) -> Result<(), Flow> {
        match self
            .keywords
            .iter()
            .find(|(k, _)| !accepted.contains(&k.as_str()))
        {
            Some((k, _)) => Err(unsupported(name, *k, accepted)),
            None => Ok(()),
        }
    }

    /// Whether any keyword argument was given.
    pub fn has_keywords(&self) -> bool {
        !self.keywords.is_empty()
    }

    /// The keyword argument `name`, if given (and recorded as read).
    pub fn kw(&self, name: &str) -> Option<&Value> {
        let i = self.keywords.iter().position(|(k, _)| k.as_str() == name)?;
        if let Some(read) = &self.read {
            read.set(read.get() | bit(i));
        }
        Some(&self.keywords[i].1)
    }

    /// Every keyword argument (recorded as read), for a builtin that hands them all to a
    /// function written in the language, which checks them itself.
    pub fn all_keywords(&self) -> Vec<(Name, Value)> {
        if let Some(read) = &self.read {
            read.set(u64::MAX);
        }
        self.keywords.clone()
    }

    /// The `Bool` keyword `name`, `default` when not given; anything but `true` or `false` is a
    /// `TypeError`, as for a keyword declared `::Bool` in Julia.
    pub fn flag(&self, name: &str, default: bool) -> Result<bool, Flow> {
        match self.kw(name) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(fail(
                ErrorKind::TypeError,
                format!(
                    "{name} must be true or false, got {}",
                    crate::display::repr(other)
                ),
            )),
        }
    }

    /// Positional argument `i` as an `Int`.
    pub fn int(&self, i: usize, name: &str) -> Result<i64, Flow> {
        to_int(&self.pos[i], name)
    }

    /// Positional argument `i` as a plain `Float64`.
    pub fn float(&self, i: usize, name: &str) -> Result<f64, Flow> {
        to_float(&self.pos[i], name)
    }
}

/// Runs `builtin`; a keyword it did not read is a `MethodError`.
pub fn call(
    interp: &mut Interp,
    builtin: &Builtin,
    pos: Vec<Value>,
    keywords: Vec<(Name, Value)>,
    dotted: bool,
) -> EvalResult {
    let result = run(interp, builtin, pos, keywords, dotted);
    // A builtin that stopped early on a pending interrupt (formatting, which cannot fail,
    // returns the text it had) must not hand its unfinished result, or an error message
    // made from it, to the input.
    interp.check_interrupt()?;
    result
}

fn run(
    interp: &mut Interp,
    builtin: &Builtin,
    pos: Vec<Value>,
    keywords: Vec<(Name, Value)>,
    dotted: bool,
) -> EvalResult {
    let mut pos = pos;
    let walkable = |a: &Value| {
        matches!(a, Value::Struct(_))
            || super::iterators::as_lazy(a).is_some()
            || super::set::as_set(a).is_some()
    };
    if pos.iter().any(walkable) {
        if let Some(folded) = interp.fold_iterator(builtin.name, &pos, &keywords) {
            return folded;
        }
        interp.materialize_iterables(builtin.name, &mut pos)?;
    }
    if keywords.is_empty() {
        return (builtin.run)(
            interp,
            Args {
                dotted,
                ..Args::positional(pos)
            },
        );
    }
    let read = Rc::new(Cell::new(0));
    let names: Vec<Name> = keywords.iter().map(|(k, _)| *k).collect();
    let args = Args {
        pos,
        keywords,
        read: Some(read.clone()),
        dotted,
    };
    let result = (builtin.run)(interp, args)?;
    match (0..names.len().min(64)).find(|&i| read.get() & bit(i) == 0) {
        Some(i) => Err(unsupported(builtin.name, names[i], &[])),
        None => Ok(result),
    }
}

/// The flag of keyword `i`; keywords past the 64th are not tracked (no call has that many).
fn bit(i: usize) -> u64 {
    1u64.checked_shl(i as u32).unwrap_or(0)
}

/// Julia's "unsupported keyword argument" error, listing `accepted` when known.
fn unsupported(name: &str, keyword: Name, accepted: &[&str]) -> Flow {
    let takes = if accepted.is_empty() {
        String::new()
    } else {
        format!(
            "; {name} takes {}",
            accepted
                .iter()
                .map(|a| format!("`{a}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    fail(
        ErrorKind::MethodError,
        format!("no method matching {name}(...; {keyword}): unsupported keyword argument `{keyword}`{takes}"),
    )
}
