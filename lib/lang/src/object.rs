//! Library objects: values defined by the builtin library rather than the language core.
//!
//! Backends, preparation results, coloring results, plots and tables implement [`Object`]: they
//! print readably, expose their parts as fields (`result.colors`), and may offer rich MIME
//! renderings (HTML tables, SVG and PNG plots) that notebooks display.

use crate::value::Value;
use std::any::Any;

/// A MIME rendering of a value: (`mime type`, data). Binary data (PNG) is base64-encoded text.
pub type MimeData = (String, String);

/// A value defined by the library.
pub trait Object: Any {
    /// The type name (`AutoForwardDiff`, `ColoringResult`, ...).
    fn type_name(&self) -> String;
    /// The type, for objects whose type the language's lattice describes with its parameters
    /// (`Set{Int64}`, `Dict{String, Int64}`); others are known by [`Object::type_name`].
    fn type_of(&self) -> Option<crate::types::Type> {
        None
    }
    /// The `text/plain` display.
    fn show(&self) -> String;
    /// The one-line form of `repr` and of the value inside containers (the display by
    /// default).
    fn repr(&self) -> String {
        self.show()
    }
    /// The text `print` and `string` give (the one-line form by default).
    fn print(&self) -> String {
        self.repr()
    }
    /// The field called `name`, if there is one.
    fn field(&self, _name: &str) -> Option<Value> {
        None
    }
    /// `object[key]` for a key that is not a position (a named capture, `m[:name]`); `None`
    /// when the object has no such entry.
    fn get_index(&self, _key: &Value) -> Option<Value> {
        None
    }
    /// The names of the fields (for completion and errors).
    fn field_names(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// Renderings beyond `text/plain` (HTML, SVG, PNG).
    fn rich(&self) -> Vec<MimeData> {
        Vec::new()
    }
    /// Calls the object as a function (`implicit(x)`); `None` when it is not callable.
    fn call(
        &self,
        _interp: &mut crate::eval::Interp,
        _args: Vec<Value>,
        _kwargs: Vec<(difflab_syntax::Name, Value)>,
    ) -> Option<crate::error::EvalResult> {
        None
    }
    /// The elements, for objects that behave as vectors (tables are vectors of rows):
    /// iteration, `length` and indexing use them.
    fn elements(&self) -> Option<Vec<Value>> {
        None
    }
    /// How many elements [`Object::elements`] has, without building them: `length`, `end`
    /// in an index and broadcasting read it, so a table that knows its size overrides it
    /// (a `Dict` listing its pairs to count them made `d[k] = v` linear in its size).
    fn element_count(&self) -> Option<usize> {
        self.elements().map(|e| e.len())
    }
    /// Whether the object is an immutable value defined by what it prints (a backend, a vertex
    /// order, a coloring problem): two of one type that print the same are then `===` and
    /// `==`, as Julia's immutable structs with equal fields are. Objects with state (results,
    /// preparations, plots) are identical only to themselves.
    fn is_plain_data(&self) -> bool {
        false
    }
    /// `==` with another object, for objects compared by contents (sets); `None` leaves it to
    /// identity and [`Object::is_plain_data`].
    fn equals(&self, _other: &dyn Object) -> Option<bool> {
        None
    }
    /// The order of two objects under `isless` (version numbers); `None` when they have none.
    fn order(&self, _other: &dyn Object) -> Option<std::cmp::Ordering> {
        None
    }
    /// The values it holds that may hold closures (a lazy iterator's functions and inputs):
    /// a frame's cycle search looks through them, so a generator kept in a local variable
    /// does not keep the frame its body captured alive. Empty by default.
    fn held_values(&self) -> Vec<&Value> {
        Vec::new()
    }
    /// A copy for `copy`, for mutable containers (sets, dictionaries); `None` when `copy`
    /// returns the object itself.
    fn copy(&self) -> Option<Value> {
        None
    }
    /// For downcasting to the concrete type.
    fn as_any(&self) -> &dyn Any;
}
