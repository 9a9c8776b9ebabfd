//! The table behind `Dict` and `Set`: keys compared as Julia's `isequal` compares them.
//!
//! Keys with a hashable form ([`HashKey`]: numbers, strings, symbols, characters, tuples of
//! those) are found through a hash index; pairs and vectors through a coarse hash that equal
//! keys share ([`group_of`]), compared within their group; other keys (structs) by comparison
//! with every key. Entries keep their insertion order. [`convert`] and [`typejoin`] give the element types both containers
//! declare.

use crate::error::ErrorKind;
use crate::error::{fail, Flow};
use crate::types::{Prim, Type};
use crate::value::equality::values_equal;
use crate::value::Value;
use difflab_ad::Tensor;
use difflab_syntax::Name;
use std::collections::HashMap;
use std::rc::Rc;

/// A key in the hashable form `isequal` induces.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum HashKey {
    /// Integers, `Bool`s and integral floats.
    Int(i64),
    /// Other floats, by their bits.
    Float(u64),
    Str(Rc<String>),
    Symbol(Name),
    Char(char),
    Nothing,
    Tuple(Vec<HashKey>),
}

/// The hashable form of `v`; `None` for keys found by comparison (arrays, structs).
pub(super) fn hash_key(v: &Value) -> Option<HashKey> {
    Some(match v {
        Value::Int(i) => HashKey::Int(*i),
        Value::Bool(b) => HashKey::Int(i64::from(*b)),
        Value::Float(x) if x.fract() == 0.0 && x.abs() < 9.0e18 && *x != 0.0 => {
            HashKey::Int(*x as i64)
        }
        // `isequal(0.0, -0.0)` is false but `isequal(0.0, 0)` is true.
        Value::Float(x) if x.to_bits() == 0 => HashKey::Int(0),
        Value::Float(x) if x.is_nan() => HashKey::Float(f64::NAN.to_bits()),
        Value::Float(x) => HashKey::Float(x.to_bits()),
        Value::Str(s) => HashKey::Str(s.clone()),
        Value::Symbol(s) => HashKey::Symbol(*s),
        Value::Char(c) => HashKey::Char(*c),
        Value::Nothing => HashKey::Nothing,
        Value::Tuple(items) => HashKey::Tuple(items.iter().map(hash_key).collect::<Option<_>>()?),
        _ => return None,
    })
}

/// The coarse hash of a pair, array or vector key: `isequal` keys have the same one (a pair's
/// parts, an array's elements in order, whatever the container), so only keys of one group
/// need comparing. `None` for other keys.
fn group_of(v: &Value) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    match v {
        Value::Struct(s) if s.is_pair() => {
            "pair".hash(&mut hasher);
            for field in s.fields.borrow().iter() {
                match group_of(field) {
                    Some(group) => group.hash(&mut hasher),
                    None => hash_key(field).hash(&mut hasher),
                }
            }
        }
        Value::Array(a) => {
            let a = a.borrow();
            let Tensor::Plain(data) = &a.data else {
                return None;
            };
            "elements".hash(&mut hasher);
            for &x in difflab_ad::tensor::col_major_slice(data).iter() {
                hash_key(&Value::Float(x)).hash(&mut hasher);
            }
        }
        Value::List(items) => {
            "elements".hash(&mut hasher);
            for item in items.borrow().iter() {
                hash_key(item).hash(&mut hasher);
            }
        }
        _ => return None,
    }
    Some(hasher.finish())
}

/// Keys with their values, in insertion order, with an index from each hashable key to its
/// slot and the slots of each group of pair and vector keys.
#[derive(Default, Clone)]
pub(super) struct Entries {
    /// Entries in insertion order; deleted ones are `None` until the next compaction.
    slots: Vec<Option<(Value, Value)>>,
    index: HashMap<HashKey, usize>,
    groups: HashMap<u64, Vec<usize>>,
    live: usize,
}

impl Drop for Entries {
    fn drop(&mut self) {
        let pairs = self.slots.drain(..).flatten();
        crate::value::release(pairs.flat_map(|(key, value)| [key, value]));
    }
}

impl Entries {
    pub(super) fn find(&self, key: &Value) -> Option<usize> {
        let equal = |&i: &usize| {
            self.slots[i]
                .as_ref()
                .is_some_and(|(k, _)| values_equal(k, key))
        };
        if let Some(h) = hash_key(key) {
            return self.index.get(&h).copied();
        }
        if let Some(group) = group_of(key) {
            return self.groups.get(&group)?.iter().copied().find(equal);
        }
        (0..self.slots.len()).find(equal)
    }

    pub(super) fn insert(&mut self, key: Value, value: Value) {
        if let Some(i) = self.find(&key) {
            if let Some(slot) = &mut self.slots[i] {
                slot.1 = value;
            }
            return;
        }
        if let Some(h) = hash_key(&key) {
            self.index.insert(h, self.slots.len());
        } else if let Some(group) = group_of(&key) {
            self.groups.entry(group).or_default().push(self.slots.len());
        }
        self.slots.push(Some((key, value)));
        self.live += 1;
    }

    pub(super) fn remove(&mut self, key: &Value) -> Option<Value> {
        let i = self.find(key)?;
        let (k, v) = self.slots[i].take()?;
        if let Some(h) = hash_key(&k) {
            self.index.remove(&h);
        } else if let Some(group) = group_of(&k) {
            if let Some(slots) = self.groups.get_mut(&group) {
                slots.retain(|&j| j != i);
            }
        }
        self.live -= 1;
        if self.slots.len() > 32 && self.live * 2 < self.slots.len() {
            self.compact();
        }
        Some(v)
    }

    fn compact(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        self.index.clear();
        self.groups.clear();
        self.live = 0;
        for (k, v) in slots.into_iter().flatten() {
            self.insert(k, v);
        }
    }

    /// The value stored under `key`.
    pub(super) fn get(&self, key: &Value) -> Option<&Value> {
        let i = self.find(key)?;
        self.slots[i].as_ref().map(|(_, v)| v)
    }

    /// The number of entries.
    pub(super) fn len(&self) -> usize {
        self.live
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &(Value, Value)> {
        self.slots.iter().flatten()
    }
}

/// `v` converted to `ty` as `setindex!` on a typed `Dict` (or `push!` on a typed `Set`)
/// converts it.
pub(super) fn convert(ty: &Type, v: Value) -> Result<Value, Flow> {
    if ty.contains(&v) {
        return Ok(v);
    }
    match (ty, &v) {
        (Type::Prim(Prim::Float64), Value::Int(i)) => Ok(Value::Float(*i as f64)),
        (Type::Prim(Prim::Float64), Value::Bool(b)) => Ok(Value::Float(f64::from(u8::from(*b)))),
        (Type::Prim(Prim::Int64), Value::Float(x)) if x.fract() == 0.0 => Ok(Value::Int(*x as i64)),
        (Type::Prim(Prim::Int64), Value::Float(x)) => Err(fail(
            ErrorKind::InexactError,
            format!("Int64({})", crate::show::float(*x)),
        )),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!(
                "Cannot `convert` an object of type {} to an object of type {ty}",
                v.type_name()
            ),
        )),
    }
}

/// The smallest common supertype of two types, as `Dict(pairs...)` and `Set(items)`
/// infer their parameters
/// (Julia's `typejoin`: `Int64` and `Float64` give `Real`, `String` and `Symbol` give `Any`).
pub(super) fn typejoin(a: &Type, b: &Type) -> Type {
    if a.is_subtype(b) {
        return b.clone();
    }
    if b.is_subtype(a) {
        return a.clone();
    }
    if let (Type::Prim(mut p), Type::Prim(q)) = (a, b) {
        while p != Prim::Any {
            p = p.supertype();
            if q.is_subtype(p) {
                return Type::Prim(p);
            }
        }
    }
    Type::Prim(Prim::Any)
}
