//! Iteration that calls user code: a user struct iterates through Julia's protocol, the
//! user's `iterate(c)` and `iterate(c, state)` methods returning `nothing` or a
//! `(value, state)` tuple, lazily in loops and comprehensions ([`Interp::iterate_value`] and
//! [`Interp::next_item`]) and collected for builtins that walk a collection
//! ([`Interp::materialize_iterables`]); `Iterators` values walk the same way. Everything else
//! iterates by `value::iterate`.

use super::Interp;
use crate::builtins::iterators::{as_lazy, LazyWalk};
use crate::error::ErrorKind;
use crate::error::{fail, Flow};
use crate::value::iterate::{iterate, ValueIter};
use crate::value::Value;

/// What one call of a user's `iterate` returned: the next element (remembering the state), or
/// `None` at the end.
fn protocol_step(
    result: Value,
    state: &mut Option<Value>,
    done: &mut bool,
) -> Result<Option<Value>, Flow> {
    match result {
        Value::Nothing => {
            *done = true;
            Ok(None)
        }
        Value::Tuple(pair) if pair.len() == 2 => {
            *state = Some(pair[1].clone());
            Ok(Some(pair[0].clone()))
        }
        other => Err(fail(
            ErrorKind::TypeError,
            format!(
                "iterate must return nothing or a (value, state) tuple, got a {}",
                other.type_name()
            ),
        )),
    }
}

/// Julia's `MethodError: no method matching f(::T, ::Int64)` for a user container.
pub(crate) fn no_method(function: &str, args: &[Value]) -> Flow {
    let types: Vec<String> = args
        .iter()
        .map(|a| format!("::{}", a.type_name()))
        .collect();
    fail(
        ErrorKind::MethodError,
        format!("no method matching {function}({})", types.join(", ")),
    )
}

/// Builtins that walk the elements of a collection: given a user container that has
/// `iterate` methods, they receive its elements (collected through the protocol).
const WALKING_BUILTINS: &[&str] = &[
    "collect",
    "sum",
    "prod",
    "length",
    "isempty",
    "maximum",
    "minimum",
    "extrema",
    "map",
    "foreach",
    "filter",
    "reduce",
    "mapreduce",
    "foldl",
    "foldr",
    "any",
    "all",
    "count",
    "first",
    "last",
    "enumerate",
    "zip",
    "Set",
    "Dict",
    "sort",
    "unique",
    "join",
    "mean",
    "pairs",
    "vcat",
    "in",
    "argmax",
    "argmin",
    "findfirst",
    "cumsum",
];

impl Interp {
    /// An iterator over `v`, through the user's `iterate` methods for a user struct.
    pub(crate) fn iterate_value(&mut self, v: &Value) -> Result<ValueIter, Flow> {
        match v {
            Value::Struct(s) if !s.is_pair() => Ok(ValueIter::Protocol {
                container: v.clone(),
                state: None,
                done: false,
            }),
            Value::Object(_) if as_lazy(v).is_some() => {
                let lazy = as_lazy(v).expect("checked above");
                let cursor = self.lazy_cursor(lazy)?;
                Ok(ValueIter::Lazy(Box::new(LazyWalk(cursor))))
            }
            other => iterate(other),
        }
    }

    /// The next element of `it` (running the user's `iterate` for a user container).
    #[inline]
    pub(crate) fn next_item(&mut self, it: &mut ValueIter) -> Result<Option<Value>, Flow> {
        match it {
            ValueIter::Protocol { .. } => self.next_by_protocol(it),
            ValueIter::Lazy(walk) => self.next_lazy(&mut walk.0),
            _ => Ok(it.next()),
        }
    }

    /// The next element of a user container, from its `iterate` method.
    #[inline(never)]
    fn next_by_protocol(&mut self, it: &mut ValueIter) -> Result<Option<Value>, Flow> {
        let ValueIter::Protocol {
            container,
            state,
            done,
        } = it
        else {
            return Ok(it.next());
        };
        if *done {
            return Ok(None);
        }
        let mut args = vec![container.clone()];
        args.extend(state.take());
        let result = match self.call_extension(difflab_syntax::name!("iterate"), &args, &[]) {
            Some(result) => result?,
            None => return Err(no_method("iterate", &args)),
        };
        protocol_step(result, state, done)
    }

    /// The elements of `v` in iteration order, through the protocol for a user struct.
    pub(crate) fn elements_of(&mut self, v: &Value) -> Result<Vec<Value>, Flow> {
        let mut it = self.iterate_value(v)?;
        let first = self.next_item(&mut it)?;
        self.collect_rest(first, it)
    }

    /// `first` and the elements `it` yields after it.
    fn collect_rest(
        &mut self,
        first: Option<Value>,
        mut it: ValueIter,
    ) -> Result<Vec<Value>, Flow> {
        let mut items = Vec::new();
        let mut next = first;
        while let Some(item) = next {
            self.check_interrupt()?;
            self.check_alloc(items.len())?;
            items.push(item);
            next = self.next_item(&mut it)?;
        }
        Ok(items)
    }

    /// Before the builtin `name` runs: user containers among `args` that have `iterate`
    /// methods, sets, and lazy `Iterators` values, are replaced by their elements (a vector),
    /// when `name` walks collections. `first(itr, n)` takes only the elements it returns; `zip` and
    /// `enumerate` of a lazy iterator stay lazy.
    pub(crate) fn materialize_iterables(
        &mut self,
        name: &str,
        args: &mut [Value],
    ) -> Result<(), Flow> {
        if Interp::collects_generators(name) {
            for arg in args.iter_mut() {
                if let Some(collected) = self.collect_generator(arg) {
                    *arg = collected?;
                }
            }
        }
        if !WALKING_BUILTINS.contains(&name) {
            return Ok(());
        }
        let first_count = match (name, args.get(1)) {
            ("first", None) => Some(1),
            ("first", Some(n)) => Some(crate::builtins::to_size(n, "first")?),
            _ => None,
        };
        for arg in args.iter_mut() {
            // A pair walked as a collection is its two parts (`first(p)`, `collect(p)`); where
            // pairs are entries (`Dict`, `in`, `pairs`) or elements (`map`, `vcat`) it stays.
            if let Some((first, second)) = arg.pair_parts() {
                if !matches!(
                    name,
                    "Dict" | "in" | "pairs" | "map" | "foreach" | "filter" | "vcat" | "sort"
                ) {
                    *arg = Value::tuple(vec![first, second]);
                }
                continue;
            }
            // Sets answer membership and filtering themselves; the other walkers see their
            // elements as a vector.
            if let Some(set) = crate::builtins::set::as_set(arg) {
                if !matches!(name, "in" | "filter" | "length" | "isempty" | "Set") {
                    let items = set.ordered();
                    *arg = crate::builtins::element_types::collect_as(self, items, &set.eltype)?;
                }
                continue;
            }
            if let Some(lazy) = as_lazy(arg) {
                let shaped = crate::builtins::iterators::generator_shape(arg).is_some();
                if matches!(name, "zip" | "enumerate") || (shaped && name == "length") {
                    continue;
                }
                let items = self.collect_lazy(lazy, first_count)?;
                let n = items.len();
                *arg = super::collections::collect_values(self, items, &[n])?;
                continue;
            }
            if !matches!(arg, Value::Struct(_))
                || !self
                    .extensions
                    .contains_key(&difflab_syntax::name!("iterate"))
            {
                continue;
            }
            // A container the user's `iterate` does not take stays as it is, so the builtin
            // reports its own error.
            let probe = [arg.clone()];
            let Some(first) = self.call_extension(difflab_syntax::name!("iterate"), &probe, &[])
            else {
                continue;
            };
            let (mut state, mut done) = (None, false);
            let first = protocol_step(first?, &mut state, &mut done)?;
            let it = ValueIter::Protocol {
                container: arg.clone(),
                state,
                done,
            };
            let items = self.collect_rest(first, it)?;
            let n = items.len();
            *arg = super::collections::collect_values(self, items, &[n])?;
        }
        Ok(())
    }

    /// The number of elements `v` iterates over, when known without iterating.
    pub fn length_of(v: &Value) -> Option<usize> {
        match v {
            Value::Range(r) => Some(r.len),
            Value::Array(a) => Some(a.borrow().data.len()),
            Value::List(items) => Some(items.borrow().len()),
            Value::Tuple(items) => Some(items.len()),
            Value::Struct(s) if s.is_pair() => Some(2),
            Value::Object(o) => o.element_count(),
            _ => None,
        }
    }
}
