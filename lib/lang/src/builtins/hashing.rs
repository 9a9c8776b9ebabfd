//! `hash(x[, h])`: a hash consistent with `isequal`, as Julia's: `hash(1) == hash(1.0)`, an
//! array and a vector of values holding equal elements hash alike, and a mutable struct hashes
//! by identity.
//!
//! The walk keeps its pending values on a heap stack and visits each container once, so
//! nesting of any depth and a vector that contains itself hash in bounded time and stack.
//! There are no unsigned integers: the hash is the `Int` with the bits of Julia's `UInt`, and
//! `UInt` names `Int64` (so `Base.hash(x::T, h::UInt) = hash(x.a, h)` methods can be written).

use super::keyed::hash_key;
use super::Args;
use crate::error::{EvalResult, Flow};
use crate::eval::Interp;
use crate::value::Value;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// How many values are hashed between looks at the interrupt flag.
const INTERRUPT_EVERY: usize = 1 << 12;

/// What a value contributes before its parts: a tag per kind (arrays of every storage share
/// one, with their shape), so values `isequal` treats as different kinds hash differently.
#[derive(Hash)]
enum Tag<'a> {
    Array(Vec<usize>),
    Tuple(usize),
    Named(Vec<&'a str>),
    Struct(String),
    Identity(usize),
    Seen,
    Text(String),
}

fn hash_into(interp: &Interp, root: &Value, hasher: &mut DefaultHasher) -> Result<(), Flow> {
    let mut pending = vec![root.clone()];
    let mut seen: HashSet<usize> = HashSet::new();
    let mut visited = 0usize;
    while let Some(v) = pending.pop() {
        visited += 1;
        if visited.is_multiple_of(INTERRUPT_EVERY) {
            interp.check_interrupt()?;
        }
        if let Some(key) = hash_key(&v) {
            key.hash(hasher);
            continue;
        }
        match &v {
            Value::List(list) => {
                if !seen.insert(Rc::as_ptr(list) as *const () as usize) {
                    Tag::Seen.hash(hasher);
                    continue;
                }
                let items = list.borrow();
                Tag::Array(vec![items.len()]).hash(hasher);
                pending.extend(items.iter().rev().cloned());
            }
            Value::Array(_) | Value::Range(_) | Value::Sparse(_) => {
                Tag::Array(super::arrays::shape_of_value(&v).unwrap_or_default()).hash(hasher);
                let mut items = crate::value::iterate::elements(&v)?;
                items.reverse();
                pending.extend(items);
            }
            Value::Tuple(items) => {
                Tag::Tuple(items.len()).hash(hasher);
                pending.extend(items.iter().rev().cloned());
            }
            Value::NamedTuple(fields) => {
                Tag::Named(fields.iter().map(|(k, _)| k.as_str()).collect()).hash(hasher);
                pending.extend(fields.iter().rev().map(|(_, x)| x.clone()));
            }
            Value::Struct(s) if s.def.mutable => {
                Tag::Identity(Rc::as_ptr(s) as *const () as usize).hash(hasher);
            }
            Value::Struct(s) => {
                if !seen.insert(Rc::as_ptr(s) as *const () as usize) {
                    Tag::Seen.hash(hasher);
                    continue;
                }
                Tag::Struct(s.type_of().to_string()).hash(hasher);
                pending.extend(s.fields.borrow().iter().rev().cloned());
            }
            Value::Object(o) if o.is_plain_data() => {
                Tag::Text(format!("{}:{}", o.type_name(), o.repr())).hash(hasher);
            }
            Value::Object(o) => Tag::Identity(Rc::as_ptr(o) as *const () as usize).hash(hasher),
            other => Tag::Text(format!(
                "{}:{}",
                other.type_name(),
                crate::display::repr(other)
            ))
            .hash(hasher),
        }
    }
    Ok(())
}

fn hash_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("hash", 1, 2)?;
    let seed = match args.pos.get(1) {
        Some(h) => super::to_int(h, "hash")?,
        None => 0,
    };
    let mut hasher = DefaultHasher::new();
    seed.hash(&mut hasher);
    hash_into(interp, &args.pos[0], &mut hasher)?;
    Ok(Value::Int(hasher.finish() as i64))
}

crate::builtins! {
    "hash" => hash_, false, "    hash(x[, h])\n\nA hash of `x` (mixed with `h`) consistent with `isequal`: equal values hash alike (`hash(1) == hash(1.0)`, `hash([1, 2]) == hash(Any[1, 2])`). It is an `Int` with the bits of Julia's `UInt` (difflab has no unsigned integers; `UInt` names `Int64`), so methods `Base.hash(x::T, h::UInt)` can be written; the numbers differ from Julia's.\n\n```\njulia> hash(1) == hash(1.0), hash([1, 2]) == hash(Any[1, 2]), hash(1) == hash(2)\n(true, true, false)\n\njulia> struct Key; a::Int; end\n\njulia> Base.hash(k::Key, h::UInt) = hash(k.a, h);\n\njulia> hash(Key(3), UInt(7)) == hash(3, 7)\ntrue\n```";
}
