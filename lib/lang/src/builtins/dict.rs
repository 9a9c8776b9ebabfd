//! `Dict`: Julia's hash table of keys and values, as a library object.
//!
//! A [`Dict`] keeps its entries in insertion order (Julia's order follows its hash function,
//! which difflab cannot reproduce, so difflab documents insertion order instead) with an index
//! from a hashable form of each key to its slot (the table in `keyed`, shared with `Set`). Keys compare as Julia's
//! `isequal` does: `1`, `1.0` and `true` are the same key. Indexing (`d[k]`, `d[k] = v`) lives
//! in `eval::index`; iteration yields `key => value` pairs (`Pair{K, V}`, a struct defined in
//! `types`), which `Pair(a, b)` here also builds. `keys`, `values` and `haskey` (in `collections`) call [`keys_of`], [`values_of`]
//! and [`Dict::get`].

use super::keyed::{convert, typejoin, Entries};
use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::types::{Prim, Type};
use crate::value::iterate::elements;
use crate::value::Value;
use difflab_syntax::Name;
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

/// `Dict{K, V}`: a mutable table from keys to values.
pub struct Dict {
    key_type: Type,
    value_type: Type,
    entries: RefCell<Entries>,
}

impl Dict {
    fn new(key_type: Type, value_type: Type) -> Dict {
        Dict {
            key_type,
            value_type,
            entries: RefCell::new(Entries::default()),
        }
    }

    /// The value stored under `key`.
    pub fn get(&self, key: &Value) -> Option<Value> {
        self.entries.borrow().get(key).cloned()
    }

    /// `d[key] = value`, converting both to the declared types as Julia does.
    pub fn set(&self, key: Value, value: Value) -> Result<(), Flow> {
        let key = convert(&self.key_type, key)?;
        let value = convert(&self.value_type, value)?;
        self.entries.borrow_mut().insert(key, value);
        Ok(())
    }

    /// Removes `key`, returning its value.
    pub fn remove(&self, key: &Value) -> Option<Value> {
        self.entries.borrow_mut().remove(key)
    }

    /// `d[key]`, or Julia's `KeyError`.
    pub fn index(&self, key: &Value) -> EvalResult {
        self.get(key).ok_or_else(|| key_error(key))
    }

    fn pairs(&self) -> Vec<(Value, Value)> {
        self.entries.borrow().iter().cloned().collect()
    }

    fn header(&self) -> String {
        format!("Dict{{{}, {}}}", self.key_type, self.value_type)
    }
}

/// Julia's `KeyError: key "c" not found`.
pub fn key_error(key: &Value) -> Flow {
    fail(
        ErrorKind::KeyError,
        format!("key {} not found", crate::display::repr(key)),
    )
}

impl Object for Dict {
    fn type_name(&self) -> String {
        self.header()
    }

    fn type_of(&self) -> Option<Type> {
        let params = vec![self.key_type.clone(), self.value_type.clone()];
        Some(Type::Applied(Prim::Dict, Rc::from(params)))
    }

    fn show(&self) -> String {
        let entries = self.pairs();
        if entries.is_empty() {
            return format!("{}()", self.header());
        }
        let n = entries.len();
        let keys = crate::display::reprs(entries.iter().map(|(k, _)| k));
        let shown: Vec<(String, String)> = keys
            .into_iter()
            .zip(crate::display::reprs(entries.iter().map(|(_, v)| v)))
            .collect();
        let width = shown
            .iter()
            .map(|(k, _)| k.chars().count())
            .max()
            .unwrap_or(0);
        let mut out = format!(
            "{} with {n} entr{}:",
            self.header(),
            if n == 1 { "y" } else { "ies" }
        );
        for (k, v) in shown {
            let pad = width - k.chars().count();
            out.push_str(&format!("\n  {k}{} => {v}", " ".repeat(pad)));
        }
        out
    }

    fn repr(&self) -> String {
        // Written into one text, so that an interrupt leaves no million pieces to free.
        let mut out = String::from("Dict(");
        for (k, (key, value)) in self.pairs().iter().enumerate() {
            if difflab_ad::limits::interrupt_requested() {
                return String::new();
            }
            if k > 0 {
                out.push_str(", ");
            }
            out.push_str(&crate::display::repr(key));
            out.push_str(" => ");
            out.push_str(&crate::display::repr(value));
        }
        out.push(')');
        out
    }

    /// Julia's `==` of dictionaries: the same keys, with `==` values under each.
    fn equals(&self, other: &dyn Object) -> Option<bool> {
        let other = other.as_any().downcast_ref::<Dict>()?;
        let entries = self.pairs();
        Some(
            entries.len() == other.entries.borrow().len()
                && entries.iter().all(|(k, v)| {
                    other
                        .get(k)
                        .is_some_and(|w| crate::value::equality::values_equal(v, &w))
                }),
        )
    }

    fn copy(&self) -> Option<Value> {
        Some(Value::object(Dict {
            key_type: self.key_type.clone(),
            value_type: self.value_type.clone(),
            entries: RefCell::new(self.entries.borrow().clone()),
        }))
    }

    fn element_count(&self) -> Option<usize> {
        Some(self.entries.borrow().len())
    }

    fn elements(&self) -> Option<Vec<Value>> {
        Some(
            self.pairs()
                .into_iter()
                .map(|(k, v)| {
                    Value::typed_pair(k, v, [self.key_type.clone(), self.value_type.clone()])
                })
                .collect(),
        )
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The dictionary `v` is, if it is one.
pub fn as_dict(v: &Value) -> Option<&Dict> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<Dict>(),
        _ => None,
    }
}

fn expect_dict<'a>(v: &'a Value, name: &str) -> Result<&'a Dict, Flow> {
    as_dict(v).ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{}, ...)", v.type_name()),
        )
    })
}

/// An entry given to `Dict`: a pair `k => v`, or a 2-tuple `(k, v)` (as `Dict(zip(ks, vs))`
/// gives), taken apart.
fn as_pair(v: &Value) -> Option<(Value, Value)> {
    match v {
        Value::Tuple(items) if items.len() == 2 => Some((items[0].clone(), items[1].clone())),
        other => other.pair_parts(),
    }
}

fn new_dict(pairs: Vec<(Value, Value)>, declared: Option<(Type, Type)>) -> Result<Dict, Flow> {
    let (key_type, value_type) = match declared {
        Some(types) => types,
        None => {
            let join = |types: Vec<Type>| {
                types
                    .into_iter()
                    .reduce(|a, b| typejoin(&a, &b))
                    .unwrap_or(Type::Prim(Prim::Any))
            };
            (
                join(pairs.iter().map(|(k, _)| Type::of(k)).collect()),
                join(pairs.iter().map(|(_, v)| Type::of(v)).collect()),
            )
        }
    };
    let dict = Dict::new(key_type, value_type);
    for (k, v) in pairs {
        dict.set(k, v)?;
    }
    Ok(dict)
}

/// `ENV`: the environment variables of the process when it is read, as a
/// `Dict{String, String}` (a copy: assigning to it changes no variable).
pub fn environment() -> EvalResult {
    let string = || Type::Prim(Prim::String);
    let pairs = std::env::vars()
        .map(|(k, v)| (Value::str(k), Value::str(v)))
        .collect();
    Ok(Value::object(new_dict(pairs, Some((string(), string())))?))
}

/// `Dict(k => v, ...)`, `Dict(pairs)`, `Dict{K, V}(...)` (the parameters arrive first).
fn dict_(_: &mut Interp, args: Args) -> EvalResult {
    let mut pos = args.pos.as_slice();
    let mut declared = None;
    if let [k, v, rest @ ..] = pos {
        if let (Some(k), Some(v)) = (type_param(k), type_param(v)) {
            declared = Some((k, v));
            pos = rest;
        }
    }
    let items: Vec<Value> = match pos {
        [single] if as_pair(single).is_none() => elements(single)?,
        all => all.to_vec(),
    };
    let pairs = items
        .iter()
        .map(|item| {
            as_pair(item).ok_or_else(|| {
                fail(
                    ErrorKind::ArgumentError,
                    format!(
                        "Dict(kv): kv needs to be an iterator of 2-tuples or pairs, got a {}",
                        item.type_name()
                    ),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Value::object(new_dict(pairs, declared)?))
}

/// A type given as a parameter of `Dict{K, V}`.
fn type_param(v: &Value) -> Option<Type> {
    match v {
        Value::Type(_) | Value::Builtin(_) | Value::Object(_) => Type::from_value(v),
        _ => None,
    }
}

/// The keys of a `Dict`, in its order, as a vector.
pub fn keys_of(interp: &Interp, d: &Dict) -> EvalResult {
    let keys: Vec<Value> = d.entries.borrow().iter().map(|(k, _)| k.clone()).collect();
    super::element_types::collect_as(interp, keys, &d.key_type)
}

/// The values of a `Dict`, in its order, as a vector.
pub fn values_of(interp: &Interp, d: &Dict) -> EvalResult {
    let values: Vec<Value> = d.entries.borrow().iter().map(|(_, v)| v.clone()).collect();
    super::element_types::collect_as(interp, values, &d.value_type)
}

/// `get(d, k, default)` and `get(f, d, k)` (the `do` form computes the default).
fn get_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("get", 3, 3)?;
    let (f, d, key, default) = split_default(&args.pos);
    if let Value::NamedTuple(fields) = d {
        if let Some((_, v)) = fields
            .iter()
            .find(|(k, _)| matches!(key, Value::Symbol(s) if s == k))
        {
            return Ok(v.clone());
        }
        return default_value(interp, f, default);
    }
    match expect_dict(d, "get")?.get(key) {
        Some(v) => Ok(v),
        None => default_value(interp, f, default),
    }
}

/// `get!(d, k, default)` and `get!(f, d, k)`: the value, stored first when missing.
fn get_bang(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("get!", 3, 3)?;
    let (f, d, key, default) = split_default(&args.pos);
    let dict = expect_dict(d, "get!")?;
    if let Some(v) = dict.get(key) {
        return Ok(v);
    }
    let v = default_value(interp, f, default)?;
    dict.set(key.clone(), v)?;
    // The stored value, converted to the value type.
    dict.index(key)
}

/// The parts of `get(d, k, default)` or `get(f, d, k)`: (function, dict, key, default).
fn split_default(pos: &[Value]) -> (Option<&Value>, &Value, &Value, Option<&Value>) {
    match &pos[0] {
        Value::Function(_) | Value::Builtin(_) if as_dict(&pos[1]).is_some() => {
            (Some(&pos[0]), &pos[1], &pos[2], None)
        }
        _ => (None, &pos[0], &pos[1], Some(&pos[2])),
    }
}

fn default_value(interp: &mut Interp, f: Option<&Value>, default: Option<&Value>) -> EvalResult {
    match (f, default) {
        (Some(f), _) => interp.call(f, Vec::new()),
        (None, Some(v)) => Ok(v.clone()),
        (None, None) => Ok(Value::Nothing),
    }
}

fn delete_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("delete!", 2, 2)?;
    if let Some(set) = super::set::as_set(&args.pos[0]) {
        set.remove(&args.pos[1]);
        return Ok(args.pos[0].clone());
    }
    expect_dict(&args.pos[0], "delete!")?.remove(&args.pos[1]);
    Ok(args.pos[0].clone())
}

fn merge_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("merge", 1, usize::MAX)?;
    if args.pos.iter().all(|v| matches!(v, Value::NamedTuple(_))) {
        let mut fields: Vec<(Name, Value)> = Vec::new();
        for v in &args.pos {
            if let Value::NamedTuple(items) = v {
                for (k, x) in items.iter() {
                    match fields.iter_mut().find(|(f, _)| f == k) {
                        Some(slot) => slot.1 = x.clone(),
                        None => fields.push((*k, x.clone())),
                    }
                }
            }
        }
        return Ok(Value::named_tuple(fields));
    }
    merge_dicts(interp, &args.pos, None, "merge")
}

fn mergewith_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("mergewith", 2, usize::MAX)?;
    merge_dicts(interp, &args.pos[1..], Some(&args.pos[0]), "mergewith")
}

/// A new `Dict` with the entries of `dicts`; a key already present takes the later value, or
/// `combine(earlier, later)` when given.
fn merge_dicts(
    interp: &mut Interp,
    dicts: &[Value],
    combine: Option<&Value>,
    name: &str,
) -> EvalResult {
    let dicts = dicts
        .iter()
        .map(|v| expect_dict(v, name))
        .collect::<Result<Vec<_>, _>>()?;
    let join = |f: fn(&Dict) -> &Type| {
        dicts
            .iter()
            .map(|d| f(d).clone())
            .reduce(|a, b| typejoin(&a, &b))
            .unwrap_or(Type::Prim(Prim::Any))
    };
    let merged = Dict::new(join(|d| &d.key_type), join(|d| &d.value_type));
    for d in &dicts {
        for (k, v) in d.pairs() {
            let v = match (combine, merged.get(&k)) {
                (Some(f), Some(earlier)) => interp.call(f, vec![earlier, v])?,
                _ => v,
            };
            merged.set(k, v)?;
        }
    }
    Ok(Value::object(merged))
}

/// `pairs(x)`: a `Dict` iterates its pairs already; a named tuple gives `:name => value`, any
/// other collection `index => value`.
fn pairs_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("pairs", 1, 1)?;
    let x = &args.pos[0];
    if as_dict(x).is_some() {
        return Ok(x.clone());
    }
    let pairs: Vec<Value> = match x {
        Value::NamedTuple(fields) => fields
            .iter()
            .map(|(k, v)| Value::pair(Value::Symbol(*k), v.clone()))
            .collect(),
        other => {
            // A pair per element (10⁷ of them take seconds): made with looks at the flag.
            let mut poll = interp.poll();
            let items = interp.elements_of(other)?;
            let mut pairs = Vec::with_capacity(items.len());
            for (i, v) in items.into_iter().enumerate() {
                poll.tick()?;
                pairs.push(Value::pair(Value::Int(i as i64 + 1), v));
            }
            pairs
        }
    };
    Ok(Value::list(pairs))
}

/// `push!(d, k => v, ...)`: stores each pair's value under its key.
pub(crate) fn push(dict: &Dict, pairs: &[Value]) -> Result<(), Flow> {
    for pair in pairs {
        let (key, value) = pair.pair_parts().ok_or_else(|| {
            fail(
                ErrorKind::MethodError,
                format!(
                    "no method matching push!(::{}, ::{}): a Dict takes pairs k => v",
                    dict.header(),
                    pair.type_name()
                ),
            )
        })?;
        dict.set(key, value)?;
    }
    Ok(())
}

/// `filter(f, d)`: a new dictionary of the same type with the entries (pairs) `f` keeps.
pub(crate) fn filtered(
    dict: &Dict,
    mut keep: impl FnMut(&Value) -> Result<bool, Flow>,
) -> EvalResult {
    let kept = Dict::new(dict.key_type.clone(), dict.value_type.clone());
    for entry in dict.elements().unwrap_or_default() {
        if keep(&entry)? {
            let (key, value) = entry
                .pair_parts()
                .expect("a dictionary's entries are pairs");
            kept.set(key, value)?;
        }
    }
    Ok(Value::object(kept))
}

/// `Pair(a, b)`, and `Pair{A, B}(a, b)` (the two types come first), which converts `a` to
/// `A` and `b` to `B`.
fn pair_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Pair", 2, 4)?;
    if let [a, b, first, second] = &args.pos[..] {
        let types = [Type::from_value(a), Type::from_value(b)];
        let [Some(a), Some(b)] = types else {
            return Err(fail(
                ErrorKind::MethodError,
                "no method matching Pair{A, B}: A and B must be types",
            ));
        };
        let first = crate::eval::methods::convert(&a, first.clone())?;
        let second = crate::eval::methods::convert(&b, second.clone())?;
        return Ok(Value::typed_pair(first, second, [a, b]));
    }
    args.arity("Pair", 2, 2)?;
    let mut parts = args.pos.into_iter();
    let first = parts.next().expect("arity checked");
    Ok(Value::pair(first, parts.next().expect("arity checked")))
}

fn empty_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("empty!", 1, 1)?;
    match &args.pos[0] {
        Value::List(items) => items.borrow_mut().clear(),
        Value::Array(_) => super::growth::replace_items(&args.pos[0], Vec::new(), "empty!")?,
        other if super::set::as_set(other).is_some() => {
            super::set::as_set(other).map(super::set::clear);
        }
        other => *expect_dict(other, "empty!")?.entries.borrow_mut() = Entries::default(),
    }
    Ok(args.pos[0].clone())
}

crate::builtins! {
    "Dict" => dict_, false, "    Dict(k => v, ...)\n    Dict{K, V}()\n    Dict(k => v for ...)\n\nA mutable table from keys to values. Its type parameters are inferred from the pairs (or given as `Dict{String, Int}()`), and keys and values are converted to them on insertion. Keys compare as `isequal` does (`1`, `1.0` and `true` are one key); a missing key is a `KeyError`. difflab keeps entries in insertion order: Julia's order follows its hash function and cannot be matched, so iteration, `keys`, `values` and the display list entries in the order they were first inserted.\n\n```\njulia> d = Dict(\"a\" => 1, \"b\" => 2)\nDict{String, Int64} with 2 entries:\n  \"a\" => 1\n  \"b\" => 2\n\njulia> d[\"c\"] = 3; length(d)\n3\n```";
    "get" => get_, false, "    get(d, key, default)\n    get(f, d, key)\n\nThe value stored under `key` in a `Dict` (or named tuple), else `default` (or `f()`), without storing it.\n\n```\njulia> get(Dict(\"a\" => 1), \"b\", 0)\n0\n```";
    "get!" => get_bang, false, "    get!(d, key, default)\n    get!(f, d, key)\n\nThe value stored under `key`; when missing, `default` (or `f()`) is stored first and returned.\n\n```\njulia> d = Dict{String, Int}(); get!(d, \"a\", 5); d[\"a\"]\n5\n```";
    "delete!" => delete_, false, "    delete!(d, key)\n\nRemoves `key` from a `Dict` (nothing happens when it is missing) and returns `d`.\n\n```\njulia> d = Dict(:a => 1, :b => 2); delete!(d, :a); collect(keys(d))\n1-element Vector{Symbol}:\n :b\n```";
    "merge" => merge_, false, "    merge(d, others...)\n\nA new `Dict` with the entries of all arguments, later ones winning for a repeated key (also merges named tuples).\n\n```\njulia> merge(Dict(\"a\" => 1), Dict(\"a\" => 2, \"b\" => 3))[\"a\"]\n2\n```";
    "mergewith" => mergewith_, false, "    mergewith(combine, d, others...)\n\nA new `Dict` with the entries of all arguments, where a key in several takes `combine(earlier, later)` of its values.\n\n```\njulia> mergewith(+, Dict(\"a\" => 1), Dict(\"a\" => 2, \"b\" => 3))\nDict{String, Int64} with 2 entries:\n  \"a\" => 3\n  \"b\" => 3\n```";
    "pairs" => pairs_, false, "    pairs(x)\n\nThe `key => value` pairs of a `Dict`, of a named tuple (`:name => value`) or of a collection (`index => value`).\n\n```\njulia> collect(pairs([10, 20]))\n2-element Vector{Pair{Int64, Int64}}:\n 1 => 10\n 2 => 20\n```";
    "Pair" => pair_, false, "    Pair(a, b)\n    a => b\n\nThe pair of `a` and `b`, of type `Pair{typeof(a), typeof(b)}`, with fields `first` and `second`. Pairs are the entries of a `Dict` (iterating one gives them) and the arguments of `replace`, `spdiagm` and `Dict`; as a collection a pair is its two values (`first(p)`, `p[2]`, `a, b = p`).\n\n```\njulia> p = \"x\" => 1.5\n\"x\" => 1.5\n\njulia> (p.first, p[2], typeof(p))\n(\"x\", 1.5, Pair{String, Float64})\n```";
    "empty!" => empty_, false, "    empty!(d)\n\nRemoves every entry of a `Dict` (or element of a vector or set) and returns it.\n\n```\njulia> d = Dict(1 => 2); empty!(d); isempty(d)\ntrue\n```";
}
