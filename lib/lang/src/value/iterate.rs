//! The elements of a value as builtins and loops walk them: ranges lazily (no array is built
//! for `1:10^7`), arrays, lists, tuples, sparse matrices and strings in column-major order. A
//! user container (Julia's `iterate` protocol) and an `Iterators` value are walked by the
//! interpreter (`eval/iterate.rs`), since that calls the user's methods.

use crate::error::{fail, ErrorKind, Flow};
use crate::value::convert::{array_elements, range_element};
use crate::value::{Range, Value};
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

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            // No lower bound: collecting must not reserve 10¹² slots at once before the
            // memory checks of whoever walks the range.
            ValueIter::Range { range, next } => (0, Some(range.len.saturating_sub(*next))),
            ValueIter::Items(items) => items.size_hint(),
            ValueIter::Protocol { .. } | ValueIter::Lazy(_) => (0, Some(0)),
        }
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
    Ok(difflab_ad::limits::polled_collect(iterate(v)?)?)
}

fn not_iterable(v: &Value) -> Flow {
    fail(
        ErrorKind::MethodError,
        format!("no method matching iterate(::{})", v.type_name()),
    )
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
        Value::Array(a) => array_elements(&a.borrow())?,
        Value::List(items) => items.borrow().clone(),
        // A sparse matrix iterates over all its entries, zeros too, in column-major order.
        Value::Sparse(_) => return iterate(&crate::builtins::sparse::to_dense(v)?),
        Value::Tuple(items) => items.to_vec(),
        Value::NamedTuple(items) => items.iter().map(|(_, v)| v.clone()).collect(),
        Value::Struct(s) if s.is_pair() => s.fields.borrow().clone(),
        Value::Str(s) => difflab_ad::limits::polled_collect(s.chars().map(Value::Char))?,
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Real(_) => vec![v.clone()],
        Value::Object(o) => match o.elements() {
            Some(items) => items,
            None => return Err(not_iterable(v)),
        },
        other => return Err(not_iterable(other)),
    };
    Ok(ValueIter::Items(items.into_iter()))
}
