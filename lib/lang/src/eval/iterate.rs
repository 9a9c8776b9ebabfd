//! Iteration over values: what `for x in v` and comprehensions walk through.
//!
//! Ranges iterate lazily (no array is built for `1:10^7`); arrays, lists, tuples and strings
//! yield their elements in column-major order.

use super::{fail, Flow, Interp};
use crate::error::ErrorKind;
use crate::show::ElType;
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

/// The elements of `v` as values, in iteration order.
pub fn elements(v: &Value) -> Result<Vec<Value>, Flow> {
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
        Value::Tuple(items) => items.as_ref().clone(),
        Value::NamedTuple(items) => items.iter().map(|(_, v)| v.clone()).collect(),
        Value::Str(s) => s.chars().map(|c| Value::str(c.to_string())).collect(),
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

impl Interp {
    /// The number of elements `v` iterates over, when known without iterating.
    pub fn length_of(v: &Value) -> Option<usize> {
        match v {
            Value::Range(r) => Some(r.len),
            Value::Array(a) => Some(a.borrow().data.len()),
            Value::List(items) => Some(items.borrow().len()),
            Value::Tuple(items) => Some(items.len()),
            Value::Object(o) => o.elements().map(|e| e.len()),
            _ => None,
        }
    }
}
