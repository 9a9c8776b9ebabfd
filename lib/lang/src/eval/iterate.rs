//! Iteration over values: what `for x in v` and comprehensions walk through.
//!
//! Ranges iterate lazily (no array is built for `1:10^7`); arrays, lists, tuples and strings
//! yield their elements in column-major order. A user struct iterates through Julia's
//! protocol, the user's `iterate(c)` and `iterate(c, state)` methods returning `nothing` or a
//! `(value, state)` tuple: lazily in loops and comprehensions ([`Interp::iterate_value`] and
//! [`Interp::next_item`]), collected for builtins that walk a collection
//! ([`Interp::materialize_iterables`]).

use super::{fail, Flow, Interp};
use crate::builtins::iterators::{as_lazy, LazyWalk};
use crate::error::ErrorKind;
use crate::show::ElType;
use crate::value::{Range, Value};
use difflab_syntax::Name;
use std::rc::Rc;

/// An iterator over the elements of a value.
pub enum ValueIter {
    /// A lazy range.
    Range {
        /// The range.
        range: Rc<Range>,
        /// The next position.
        next: usize,
    },
    /// Materialized elements.
    Items(std::vec::IntoIter<Value>),
    /// A user container walked by its `iterate` methods: only [`Interp::next_item`] advances
    /// it (as an `Iterator` it is empty).
    Protocol {
        /// The container.
        container: Value,
        /// The state the last `iterate` returned (`None` before the first call).
        state: Option<Value>,
        /// True once `iterate` returned `nothing`.
        done: bool,
    },
    /// A walk over an `Iterators` value: only [`Interp::next_item`] advances it.
    Lazy(Box<crate::builtins::iterators::LazyWalk>),
}

impl Iterator for ValueIter {
    type Item = Value;

    fn next(&mut self) -> Option<Value> {
        match self {
            ValueIter::Range { range, next } => {
                if *next >= range.len {
                    return None;
                }
                let x = range_element(range, *next);
                *next += 1;
                Some(x)
            }
            ValueIter::Items(items) => items.next(),
            ValueIter::Protocol { .. } | ValueIter::Lazy(_) => None,
        }
    }
}

/// Element `k` (0-based) of a range. Integer ranges count in integers, so elements beyond
/// 2^53 are exact and overflow wraps as Julia's `Int` does.
pub fn range_element(r: &Range, k: usize) -> Value {
    if r.is_int {
        let (start, step) = (r.start as i64, r.step as i64);
        Value::Int(start.wrapping_add(step.wrapping_mul(k as i64)))
    } else {
        Value::Float(r.get(k))
    }
}

/// A number of the given element type.
pub fn number(eltype: ElType, x: f64) -> Value {
    match eltype {
        ElType::Float64 => Value::Float(x),
        ElType::Int64 => Value::Int(x as i64),
        ElType::Bool => Value::Bool(x != 0.0),
    }
}

/// The elements of `v` as values, in iteration order; a range's are refused with
/// `OutOfMemoryError` when they would not fit in the memory limit.
pub fn elements(v: &Value) -> Result<Vec<Value>, Flow> {
    if let Value::Range(r) = v {
        difflab_ad::limits::reserve(
            (r.len as u64).saturating_mul(std::mem::size_of::<Value>() as u64),
            &format!("the {} elements of a range", r.len),
        )?;
    }
    Ok(iterate(v)?.collect())
}

/// An iterator over `v`.
pub fn iterate(v: &Value) -> Result<ValueIter, Flow> {
    let items = match v {
        Value::Range(r) => {
            return Ok(ValueIter::Range {
                range: r.clone(),
                next: 0,
            })
        }
        Value::Array(a) => {
            let a = a.borrow();
            if a.data.is_plain() {
                a.data
                    .to_col_major()
                    .into_iter()
                    .map(|x| number(a.eltype, x))
                    .collect()
            } else {
                (0..a.data.len())
                    .map(|k| {
                        difflab_ad::ops::gather(&a.data, &[k], &[])
                            .map(Value::from_scalar)
                            .map_err(Flow::from)
                    })
                    .collect::<Result<Vec<_>, Flow>>()?
            }
        }
        Value::List(items) => items.borrow().clone(),
        // A sparse matrix iterates over all its entries, zeros too, in column-major order.
        Value::Sparse(_) => return iterate(&crate::builtins::sparse::to_dense(v)?),
        Value::Tuple(items) => items.to_vec(),
        Value::NamedTuple(items) => items.iter().map(|(_, v)| v.clone()).collect(),
        Value::Struct(s) if s.is_pair() => s.fields.borrow().clone(),
        Value::Str(s) => s.chars().map(Value::Char).collect(),
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Real(_) => vec![v.clone()],
        Value::Object(o) if o.elements().is_some() => o.elements().unwrap_or_default(),
        other => {
            return Err(fail(
                ErrorKind::MethodError,
                format!("no method matching iterate(::{})", other.type_name()),
            ))
        }
    };
    Ok(ValueIter::Items(items.into_iter()))
}

/// The corresponding elements of two tuples, or of two named tuples with the same names in
/// the same order; `None` when their lengths or names differ (or they are not both tuples).
pub fn paired_fields(a: &Value, b: &Value) -> Option<Vec<(Value, Value)>> {
    match (a, b) {
        (Value::Tuple(p), Value::Tuple(q)) if p.len() == q.len() => {
            Some(p.iter().cloned().zip(q.iter().cloned()).collect())
        }
        (Value::NamedTuple(p), Value::NamedTuple(q))
            if p.len() == q.len() && p.iter().zip(q.iter()).all(|(f, g)| f.0 == g.0) =>
        {
            Some(
                p.iter()
                    .zip(q.iter())
                    .map(|(f, g)| (f.1.clone(), g.1.clone()))
                    .collect(),
            )
        }
        _ => None,
    }
}

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
        let result = match self.call_extension(Name::new("iterate"), &args, &[]) {
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
                    let n = items.len();
                    *arg = super::collections::collect_values(self, items, &[n])?;
                }
                continue;
            }
            if let Some(lazy) = as_lazy(arg) {
                if matches!(name, "zip" | "enumerate") {
                    continue;
                }
                let items = self.collect_lazy(lazy, first_count)?;
                let n = items.len();
                *arg = super::collections::collect_values(self, items, &[n])?;
                continue;
            }
            if !matches!(arg, Value::Struct(_))
                || !self.extensions.contains_key(&Name::new("iterate"))
            {
                continue;
            }
            // A container the user's `iterate` does not take stays as it is, so the builtin
            // reports its own error.
            let probe = [arg.clone()];
            let Some(first) = self.call_extension(Name::new("iterate"), &probe, &[]) else {
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
            Value::Object(o) => o.elements().map(|e| e.len()),
            _ => None,
        }
    }
}
