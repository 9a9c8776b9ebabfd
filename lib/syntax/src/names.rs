//! Interned identifiers: a [`Name`] is a small integer standing for a string.
//!
//! The parser interns every identifier, symbol and keyword so that the evaluator looks up
//! variables by integer (globals live in a table indexed by `Name`). The interner is global and
//! only grows; identifiers are few, so this costs nothing worth reclaiming.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

thread_local! {
    /// This thread's copy of the interned strings, by index (see [`Name::as_str`]).
    static SEEN: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The [`Name`] of a string literal, interned once per call site: for names the library looks
/// up while running (`name!("show")`), where [`Name::new`] would lock the interner and hash the
/// string at every call.
///
/// ```
/// use difflab_syntax::{name, Name};
/// assert_eq!(name!("show"), Name::new("show"));
/// ```
#[macro_export]
macro_rules! name {
    ($text:literal) => {{
        static NAME: ::std::sync::OnceLock<$crate::Name> = ::std::sync::OnceLock::new();
        *NAME.get_or_init(|| $crate::Name::new($text))
    }};
}

/// An interned identifier. Two names are equal exactly when their strings are.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(u32);

#[derive(Default)]
struct Interner {
    ids: HashMap<&'static str, Name>,
    strings: Vec<&'static str>,
}

fn interner() -> &'static Mutex<Interner> {
    static INTERNER: OnceLock<Mutex<Interner>> = OnceLock::new();
    INTERNER.get_or_init(Default::default)
}

impl Name {
    /// The name for `text`, interning it on first use.
    pub fn new(text: &str) -> Name {
        let mut table = interner().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&name) = table.ids.get(text) {
            return name;
        }
        // Leaking is deliberate: names live as long as the process, and there are few of them.
        let text: &'static str = Box::leak(text.to_owned().into_boxed_str());
        let name = Name(table.strings.len() as u32);
        table.strings.push(text);
        table.ids.insert(text, name);
        name
    }

    /// The string this name stands for.
    pub fn as_str(self) -> &'static str {
        let index = self.0 as usize;
        // The interner only grows, so each thread keeps a copy of the strings it has seen and
        // takes the lock only for names interned since (printing and dispatch read names often).
        let cached = SEEN.try_with(|seen| {
            let mut seen = seen.borrow_mut();
            if index >= seen.len() {
                let table = interner().lock().unwrap_or_else(|e| e.into_inner());
                let known = seen.len();
                seen.extend_from_slice(&table.strings[known..]);
            }
            seen[index]
        });
        cached.unwrap_or_else(|_| {
            let table = interner().lock().unwrap_or_else(|e| e.into_inner());
            table.strings[index]
        })
    }

    /// The dense index of this name (for tables indexed by name).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The name whose [`Name::index`] is `index`, if one was interned.
    pub fn from_index(index: usize) -> Option<Name> {
        let table = interner().lock().unwrap_or_else(|e| e.into_inner());
        (index < table.strings.len()).then_some(Name(index as u32))
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_str())
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Name;

    #[test]
    fn interning_is_stable() {
        let a = Name::new("gradient");
        assert_eq!(a, Name::new("gradient"));
        assert_ne!(a, Name::new("hessian"));
        assert_eq!(a.as_str(), "gradient");
    }
}
