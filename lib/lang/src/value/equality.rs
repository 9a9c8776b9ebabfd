//! Julia's `==` and `===` on any two values. Containers are compared through a stack of
//! pending pairs rather than by recursion, so nesting of any depth and vectors that contain
//! themselves compare without overflowing the stack.

use super::convert::{array_elements, operand, range_element};
use crate::types::{Prim, StructValue};
use crate::value::Value;
use std::rc::Rc;

/// Julia's `==` on any two values.
pub fn values_equal(a: &Value, b: &Value) -> bool {
    /// `==` of two values neither of which holds other values.
    fn leaf_equal(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Nothing, Value::Nothing) => true,
            (Value::Str(x), Value::Str(y)) => x == y,
            (Value::Char(x), Value::Char(y)) => x == y,
            (Value::Symbol(x), Value::Symbol(y)) => x == y,
            (Value::Object(x), Value::Object(y)) if x.equals(&***y).is_some() => {
                x.equals(&***y) == Some(true)
            }
            (Value::Sparse(x), Value::Sparse(y)) => {
                // Equal entries at equal positions; stored zeros count as zeros.
                let entries = |m: &difflab_ad::shared_sparse::SharedCsMat| {
                    let mut e: Vec<(usize, usize, f64)> = m
                        .iter()
                        .filter(|(v, _)| **v != 0.0)
                        .map(|(v, (i, j))| (j, i, *v))
                        .collect();
                    e.sort_by_key(|&(j, i, _)| (j, i));
                    e
                };
                let (x, y) = (x.borrow(), y.borrow());
                x.matrix.shape() == y.matrix.shape() && entries(&x.matrix) == entries(&y.matrix)
            }
            _ => match (operand(a).ok().flatten(), operand(b).ok().flatten()) {
                (Some(x), Some(y)) => {
                    x.tensor().shape() == y.tensor().shape()
                        && x.tensor()
                            .primal()
                            .iter()
                            .zip(y.tensor().primal().iter())
                            .all(|(p, q)| p == q)
                }
                _ => identical(a, b),
            },
        }
    }
    let holds_values = |v: &Value| match v {
        Value::Tuple(_) | Value::NamedTuple(_) | Value::List(_) => true,
        Value::Struct(s) => s.is_pair(),
        _ => false,
    };
    if !holds_values(a) && !holds_values(b) {
        return leaf_equal(a, b);
    }
    // Containers compare through a stack of pending pairs, not by recursion, so nesting of
    // any depth compares without overflowing the stack. A pair of vectors met again while
    // being compared is taken as equal (both hold the same cycle from there), so a vector
    // that contains itself equals itself rather than recursing forever, and each pair of
    // vectors is walked once.
    let mut pending = vec![(a.clone(), b.clone())];
    let mut assumed = std::collections::HashSet::new();
    while let Some((x, y)) = pending.pop() {
        match (&x, &y) {
            (Value::Tuple(_), Value::Tuple(_)) | (Value::NamedTuple(_), Value::NamedTuple(_)) => {
                match paired_fields(&x, &y) {
                    Some(pairs) => pending.extend(pairs),
                    None => return false,
                }
            }
            // Pairs compare by `==` of their parts, whatever their types (`1 => 2 == 1.0 => 2`).
            (Value::Struct(p), Value::Struct(q)) if p.is_pair() && q.is_pair() => {
                pending.extend(field_pairs(p, q));
            }
            (Value::List(p), Value::List(q)) => {
                if !assumed.insert((Rc::as_ptr(p), Rc::as_ptr(q))) {
                    continue;
                }
                let (p, q) = (p.borrow(), q.borrow());
                if p.len() != q.len() {
                    return false;
                }
                pending.extend(p.iter().cloned().zip(q.iter().cloned()));
            }
            // `Any[1, 2] == [1, 2]`: a vector of values equals a numeric vector element by element.
            (Value::List(list), other @ (Value::Array(_) | Value::Range(_)))
            | (other @ (Value::Array(_) | Value::Range(_)), Value::List(list)) => {
                let list = list.borrow();
                if crate::builtins::arrays::shape_of_value(other) != Some(vec![list.len()]) {
                    return false;
                }
                let elements = match other {
                    Value::Array(a) => match array_elements(&a.borrow()) {
                        Ok(elements) => elements,
                        Err(_) => return false,
                    },
                    Value::Range(r) => (0..r.len).map(|k| range_element(r, k)).collect(),
                    _ => unreachable!("matched an array or a range"),
                };
                pending.extend(list.iter().cloned().zip(elements));
            }
            _ if holds_values(&x) || holds_values(&y) => return false,
            _ => {
                if !leaf_equal(&x, &y) {
                    return false;
                }
            }
        }
    }
    true
}

/// The corresponding fields of two struct values.
fn field_pairs(p: &StructValue, q: &StructValue) -> Vec<(Value, Value)> {
    let (p, q) = (p.fields.borrow(), q.fields.borrow());
    p.iter().cloned().zip(q.iter().cloned()).collect()
}

/// Julia's `===`: the same object, or equal immutable values.
pub fn identical(a: &Value, b: &Value) -> bool {
    /// Whether `x === y` as far as their own fields go; the elements of two tuples still to
    /// compare are added to `pending`.
    fn step(x: &Value, y: &Value, pending: &mut Vec<(Value, Value)>) -> bool {
        match (x, y) {
            (Value::Tuple(p), Value::Tuple(q)) if Rc::ptr_eq(p, q) => true,
            (Value::NamedTuple(p), Value::NamedTuple(q)) if Rc::ptr_eq(p, q) => true,
            (Value::Tuple(_), Value::Tuple(_)) | (Value::NamedTuple(_), Value::NamedTuple(_)) => {
                match paired_fields(x, y) {
                    Some(pairs) => {
                        pending.extend(pairs);
                        true
                    }
                    None => false,
                }
            }
            (Value::Array(p), Value::Array(q)) => Rc::ptr_eq(p, q),
            (Value::Sparse(p), Value::Sparse(q)) => Rc::ptr_eq(p, q),
            (Value::List(p), Value::List(q)) => Rc::ptr_eq(p, q),
            (Value::Function(p), Value::Function(q)) => Rc::ptr_eq(p, q),
            // `Int` and `Int64` are two names of one type.
            (Value::Builtin(p), Value::Builtin(q)) => {
                std::ptr::eq(*p, *q)
                    || matches!(
                        (Prim::from_name(p.name), Prim::from_name(q.name)),
                        (Some(x), Some(y)) if x == y
                    )
            }
            // Types known by name (what `typeof` gives for library types) are equal by name.
            (Value::Object(p), Value::Object(q)) => {
                Rc::ptr_eq(p, q)
                    || (p.type_name() == "DataType"
                        && q.type_name() == "DataType"
                        && p.show() == q.show())
                    || (p.is_plain_data()
                        && q.is_plain_data()
                        && p.type_name() == q.type_name()
                        && p.repr() == q.repr())
            }
            (Value::Int(p), Value::Int(q)) => p == q,
            (Value::Float(p), Value::Float(q)) => p.to_bits() == q.to_bits(),
            (Value::Bool(p), Value::Bool(q)) => p == q,
            (Value::Nothing, Value::Nothing) => true,
            (Value::Str(p), Value::Str(q)) => p == q,
            (Value::Char(p), Value::Char(q)) => p == q,
            (Value::Symbol(p), Value::Symbol(q)) => p == q,
            (Value::Range(p), Value::Range(q)) => p == q,
            (Value::Type(p), Value::Type(q)) => p == q,
            // A type computed (`Union{Int, Real}`) and one named (`Real`) are one type.
            (Value::Type(p), named @ (Value::Builtin(_) | Value::Object(_)))
            | (named @ (Value::Builtin(_) | Value::Object(_)), Value::Type(p)) => {
                crate::types::Type::from_value(named).is_some_and(|q| **p == q)
            }
            // Immutable user values are identical when their fields are (Julia's egal);
            // mutable ones only when they are the same object.
            (Value::Struct(p), Value::Struct(q)) if Rc::ptr_eq(p, q) => true,
            (Value::Struct(p), Value::Struct(q)) => {
                let same = !p.def.mutable && Rc::ptr_eq(&p.def, &q.def) && p.params == q.params;
                if same {
                    pending.extend(field_pairs(p, q));
                }
                same
            }
            _ => false,
        }
    }
    // Tuples are immutable, so two are identical when their elements are; pending pairs live
    // on a heap stack so that nesting of any depth never overflows the call stack.
    let mut pending = Vec::new();
    if !step(a, b, &mut pending) {
        return false;
    }
    while let Some((x, y)) = pending.pop() {
        if !step(&x, &y, &mut pending) {
            return false;
        }
    }
    true
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
