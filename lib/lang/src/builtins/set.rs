//! `Set`: Julia's set of distinct values, and the set operations on sets and vectors.
//!
//! A [`ValueSet`] holds any values, compared as `isequal` compares them (`1`, `1.0` and `true`
//! are one element), in the table `Dict` uses. Julia orders a set by its hash function, which
//! difflab cannot reproduce; difflab shows and iterates a set of numbers, of strings or of
//! characters sorted, and any other set in insertion order. `union`, `intersect`, `setdiff` and
//! `symdiff` give a set when their first argument is one and a vector (distinct elements, in
//! order of first appearance) otherwise, as in Julia. `push!`, `delete!`, `pop!`, `in`,
//! `copy` and `empty!` find sets through [`as_set`].

use super::keyed::{convert, typejoin, Entries};
use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::collections::collect_values;
use crate::eval::Interp;
use crate::object::Object;
use crate::types::{Prim, Type};
use crate::value::iterate::elements;
use crate::value::Value;
use std::any::Any;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::rc::Rc;

/// `Set{T}`: distinct values of element type `T`.
pub struct ValueSet {
    pub(crate) eltype: Type,
    entries: RefCell<Entries>,
}

impl ValueSet {
    fn new(eltype: Type) -> ValueSet {
        ValueSet {
            eltype,
            entries: RefCell::new(Entries::default()),
        }
    }

    /// Whether `x` is an element.
    pub fn contains(&self, x: &Value) -> bool {
        self.entries.borrow().find(x).is_some()
    }

    /// Adds `x`, converted to the element type as Julia's `push!` converts it.
    pub fn insert(&self, x: Value) -> Result<(), Flow> {
        let x = convert(&self.eltype, x)?;
        self.entries.borrow_mut().insert(x, Value::Nothing);
        Ok(())
    }

    /// Removes `x`; whether it was there.
    pub fn remove(&self, x: &Value) -> bool {
        self.entries.borrow_mut().remove(x).is_some()
    }

    /// The number of elements.
    fn len(&self) -> usize {
        self.entries.borrow().len()
    }

    /// The elements in the order difflab shows them: sorted when they are all numbers, all
    /// strings or all characters; in insertion order otherwise.
    pub fn ordered(&self) -> Vec<Value> {
        let mut items: Vec<Value> = self
            .entries
            .borrow()
            .iter()
            .map(|(k, _)| k.clone())
            .collect();
        if let Some(order) = natural_order(&items) {
            items.sort_by(order);
        }
        items
    }

    fn with_elements(eltype: Type, items: Vec<Value>) -> Result<ValueSet, Flow> {
        let set = ValueSet::new(eltype);
        for (k, x) in items.into_iter().enumerate() {
            // Hashing 4·10⁶ numbers takes seconds.
            if k % 4096 == 0 {
                difflab_ad::limits::check()?;
            }
            set.insert(x)?;
        }
        Ok(set)
    }

    fn copied(&self) -> ValueSet {
        ValueSet {
            eltype: self.eltype.clone(),
            entries: RefCell::new(self.entries.borrow().clone()),
        }
    }
}

/// How to sort `items` when they are all of one comparable kind.
fn natural_order(items: &[Value]) -> Option<fn(&Value, &Value) -> Ordering> {
    let all = |kind: fn(&Value) -> bool| items.iter().all(kind);
    if all(|v| super::plain_number(v).is_some()) {
        Some(|a, b| {
            let (x, y) = (super::plain_number(a), super::plain_number(b));
            x.unwrap_or(f64::NAN).total_cmp(&y.unwrap_or(f64::NAN))
        })
    } else if all(|v| matches!(v, Value::Str(_))) {
        Some(|a, b| match (a, b) {
            (Value::Str(x), Value::Str(y)) => x.cmp(y),
            _ => Ordering::Equal,
        })
    } else if all(|v| matches!(v, Value::Char(_))) {
        Some(|a, b| match (a, b) {
            (Value::Char(x), Value::Char(y)) => x.cmp(y),
            _ => Ordering::Equal,
        })
    } else {
        None
    }
}

impl Object for ValueSet {
    fn type_name(&self) -> String {
        format!("Set{{{}}}", self.eltype)
    }

    fn type_of(&self) -> Option<Type> {
        Some(Type::Applied(
            Prim::Set,
            Rc::from(vec![self.eltype.clone()]),
        ))
    }

    fn show(&self) -> String {
        let items = self.ordered();
        if items.is_empty() {
            return format!("{}()", self.type_name());
        }
        let n = items.len();
        let mut out = format!(
            "{} with {n} element{}:",
            self.type_name(),
            if n == 1 { "" } else { "s" }
        );
        for x in crate::display::reprs(&items) {
            out.push_str("\n  ");
            out.push_str(&x);
        }
        out
    }

    fn repr(&self) -> String {
        let items = self.ordered();
        if items.is_empty() {
            return format!("{}()", self.type_name());
        }
        let shown = crate::display::reprs(&items);
        // `Set([1, 2])` when the elements alone give the element type, `Set{Any}([1, "a"])`
        // otherwise, as Julia prints them.
        if items.iter().all(|x| Type::of(x) == self.eltype) {
            format!("Set([{}])", shown.join(", "))
        } else {
            format!("{}([{}])", self.type_name(), shown.join(", "))
        }
    }

    fn elements(&self) -> Option<Vec<Value>> {
        Some(self.ordered())
    }

    fn element_count(&self) -> Option<usize> {
        Some(self.len())
    }

    fn equals(&self, other: &dyn Object) -> Option<bool> {
        let other = other.as_any().downcast_ref::<ValueSet>()?;
        Some(self.len() == other.len() && self.ordered().iter().all(|x| other.contains(x)))
    }

    fn copy(&self) -> Option<Value> {
        Some(Value::object(self.copied()))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The set `v` is, if it is one.
pub fn as_set(v: &Value) -> Option<&ValueSet> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<ValueSet>(),
        _ => None,
    }
}

/// The element type Julia's `Set(items)` gives: the collection's element type for arrays of
/// numbers and ranges, `Char` for strings, the join of the elements' types otherwise.
fn element_type_of(collection: &Value, items: &[Value]) -> Type {
    match (collection, Type::of(collection)) {
        (Value::Array(_) | Value::Range(_), Type::Applied(_, params)) => params[0].clone(),
        (Value::Str(_), _) => Type::Prim(Prim::Char),
        _ => join_all(items.iter().map(Type::of)),
    }
}

/// The join of element types, promoting numbers as `vcat` and `union` do (`Int64` and
/// `Float64` give `Float64`), otherwise [`typejoin`].
fn join_all(types: impl IntoIterator<Item = Type>) -> Type {
    types
        .into_iter()
        .reduce(|a, b| promote_join(&a, &b))
        .unwrap_or(Type::Prim(Prim::Any))
}

fn promote_join(a: &Type, b: &Type) -> Type {
    let number = |t: &Type| match t {
        Type::Prim(p @ (Prim::Bool | Prim::Int64 | Prim::Float64)) => Some(*p),
        _ => None,
    };
    match (number(a), number(b)) {
        (Some(p), Some(q)) if p == Prim::Float64 || q == Prim::Float64 => Type::Prim(Prim::Float64),
        (Some(p), Some(q)) if p == Prim::Int64 || q == Prim::Int64 => Type::Prim(Prim::Int64),
        _ => typejoin(a, b),
    }
}

/// The element type of a set or of any collection.
fn eltype_of(v: &Value) -> Result<Type, Flow> {
    Ok(match as_set(v) {
        Some(set) => set.eltype.clone(),
        None => element_type_of(v, &elements(v)?),
    })
}

/// `Set()`, `Set(collection)`, `Set{T}()`, `Set{T}(collection)` (the parameter arrives first).
fn set_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Set", 0, 2)?;
    let (declared, rest) = match args.pos.as_slice() {
        [t, rest @ ..] if is_type(t) => (Type::from_value(t), rest),
        all => (None, all),
    };
    let (eltype, items) = match rest {
        [] => (declared.unwrap_or(Type::Prim(Prim::Any)), Vec::new()),
        [collection] => {
            let items = elements(collection)?;
            let eltype = declared.unwrap_or_else(|| element_type_of(collection, &items));
            (eltype, items)
        }
        _ => {
            return Err(fail(
                ErrorKind::MethodError,
                "Set takes one collection: Set([1, 2]) or Set{Int}([1, 2])",
            ))
        }
    };
    Ok(Value::object(ValueSet::with_elements(eltype, items)?))
}

fn is_type(v: &Value) -> bool {
    matches!(v, Value::Type(_))
        || matches!(v, Value::Builtin(b) if Prim::from_name(b.name).is_some())
        || matches!(v, Value::Object(o) if o.type_name() == "DataType")
}

/// Which elements a set operation keeps, given whether an element is in the accumulated
/// result and whether it is in the next collection.
type Keep = fn(bool, bool) -> bool;

/// `op(a, b, …)` for `union` (`keep = a || b`), `intersect`, `setdiff` and `symdiff`: a set
/// of the joined element type when `a` is a set, else a vector of the distinct elements in
/// order of first appearance.
fn set_operation(interp: &Interp, args: &Args, name: &str, keep: Keep) -> EvalResult {
    args.arity(name, 1, usize::MAX)?;
    let eltype = join_all(
        args.pos
            .iter()
            .map(eltype_of)
            .collect::<Result<Vec<_>, _>>()?,
    );
    let result = combine(&args.pos, eltype, keep)?;
    if as_set(&args.pos[0]).is_some() {
        return Ok(Value::object(result));
    }
    let items = result
        .entries
        .borrow()
        .iter()
        .map(|(k, _)| k.clone())
        .collect::<Vec<_>>();
    let n = items.len();
    collect_values(interp, items, &[n])
}

/// The elements of `collections` combined by `keep`, in order of first appearance.
fn combine(collections: &[Value], eltype: Type, keep: Keep) -> Result<ValueSet, Flow> {
    let mut acc = ValueSet::new(eltype.clone());
    for (k, collection) in collections.iter().enumerate() {
        let next = ValueSet::with_elements(eltype.clone(), members(collection)?)?;
        if k == 0 {
            acc = next;
            continue;
        }
        let combined = ValueSet::new(eltype.clone());
        for x in acc.entries.borrow().iter().map(|(x, _)| x) {
            if keep(true, next.contains(x)) {
                combined.insert(x.clone())?;
            }
        }
        for x in next.entries.borrow().iter().map(|(x, _)| x) {
            if !acc.contains(x) && keep(false, true) {
                combined.insert(x.clone())?;
            }
        }
        acc = combined;
    }
    Ok(acc)
}

/// The elements of a set (in its table's order) or of any collection.
fn members(v: &Value) -> Result<Vec<Value>, Flow> {
    match as_set(v) {
        Some(set) => Ok(set
            .entries
            .borrow()
            .iter()
            .map(|(k, _)| k.clone())
            .collect()),
        None => elements(v),
    }
}

fn union_(interp: &mut Interp, args: Args) -> EvalResult {
    set_operation(interp, &args, "union", |a, b| a || b)
}

fn intersect_(interp: &mut Interp, args: Args) -> EvalResult {
    set_operation(interp, &args, "intersect", |a, b| a && b)
}

fn setdiff_(interp: &mut Interp, args: Args) -> EvalResult {
    set_operation(interp, &args, "setdiff", |a, b| a && !b)
}

fn symdiff_(interp: &mut Interp, args: Args) -> EvalResult {
    set_operation(interp, &args, "symdiff", |a, b| a != b)
}

/// `union!(s, …)` and the other in-place operations: `s` (a set) replaced by the result.
fn in_place(args: &Args, name: &str, keep: Keep) -> EvalResult {
    args.arity(name, 1, usize::MAX)?;
    let Some(target) = as_set(&args.pos[0]) else {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {name}(::{}, ...)",
                args.pos[0].type_name()
            ),
        ));
    };
    let result = combine(&args.pos, target.eltype.clone(), keep)?;
    *target.entries.borrow_mut() = result.entries.into_inner();
    Ok(args.pos[0].clone())
}

fn union_bang(_: &mut Interp, args: Args) -> EvalResult {
    in_place(&args, "union!", |a, b| a || b)
}

fn intersect_bang(_: &mut Interp, args: Args) -> EvalResult {
    in_place(&args, "intersect!", |a, b| a && b)
}

fn setdiff_bang(_: &mut Interp, args: Args) -> EvalResult {
    in_place(&args, "setdiff!", |a, b| a && !b)
}

fn symdiff_bang(_: &mut Interp, args: Args) -> EvalResult {
    in_place(&args, "symdiff!", |a, b| a != b)
}

/// The distinct elements of `v` as a set of their own type.
fn distinct(v: &Value) -> Result<ValueSet, Flow> {
    ValueSet::with_elements(Type::Prim(Prim::Any), members(v)?)
}

/// `issubset(a, b)` (`a ⊆ b`): every element of `a` is in `b`.
fn issubset_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("issubset", 2, 2)?;
    subset(interp, &args.pos[0], &args.pos[1])
}

/// `a ⊇ b`: `b ⊆ a`.
fn superset_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("⊇", 2, 2)?;
    subset(interp, &args.pos[1], &args.pos[0])
}

/// `a ⊊ b`: a subset, and not equal as sets.
fn proper_subset_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("⊊", 2, 2)?;
    proper_subset(interp, &args.pos[0], &args.pos[1])
}

/// `a ⊋ b`: `b ⊊ a`.
fn proper_superset_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("⊋", 2, 2)?;
    proper_subset(interp, &args.pos[1], &args.pos[0])
}

/// `a ⊈ b`: not `a ⊆ b`.
fn not_subset_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("⊈", 2, 2)?;
    negated(subset(interp, &args.pos[0], &args.pos[1]))
}

/// `a ⊉ b`: not `a ⊇ b`.
fn not_superset_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("⊉", 2, 2)?;
    negated(subset(interp, &args.pos[1], &args.pos[0]))
}

fn subset(_: &mut Interp, a: &Value, b: &Value) -> EvalResult {
    let b = distinct(b)?;
    Ok(Value::Bool(members(a)?.iter().all(|x| b.contains(x))))
}

fn proper_subset(_: &mut Interp, a: &Value, b: &Value) -> EvalResult {
    let (a, b) = (distinct(a)?, distinct(b)?);
    Ok(Value::Bool(
        a.len() < b.len() && a.ordered().iter().all(|x| b.contains(x)),
    ))
}

fn negated(answer: EvalResult) -> EvalResult {
    Ok(Value::Bool(!matches!(answer?, Value::Bool(true))))
}

/// `issetequal(a, b)`: the same distinct elements.
fn issetequal_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("issetequal", 2, 2)?;
    let (a, b) = (distinct(&args.pos[0])?, distinct(&args.pos[1])?);
    Ok(Value::Bool(
        a.len() == b.len() && a.ordered().iter().all(|x| b.contains(x)),
    ))
}

/// `isdisjoint(a, b)`: no element in common.
fn isdisjoint_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("isdisjoint", 2, 2)?;
    let b = distinct(&args.pos[1])?;
    Ok(Value::Bool(
        !members(&args.pos[0])?.iter().any(|x| b.contains(x)),
    ))
}

/// `allunique(v)`: no two elements are `isequal`.
fn allunique_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("allunique", 1, 1)?;
    let items = members(&args.pos[0])?;
    let n = items.len();
    Ok(Value::Bool(distinct(&args.pos[0])?.len() == n))
}

/// `push!(s, xs...)` on a set.
pub fn push(set: &ValueSet, items: &[Value]) -> Result<(), Flow> {
    items.iter().try_for_each(|x| set.insert(x.clone()))
}

/// `pop!(s)` (the first element shown), `pop!(s, x)` (a `KeyError` when missing) and
/// `pop!(s, x, default)`.
pub fn pop(set: &ValueSet, rest: &[Value]) -> EvalResult {
    match rest {
        [] => {
            let first = set
                .ordered()
                .into_iter()
                .next()
                .ok_or_else(|| fail(ErrorKind::ArgumentError, "set must be non-empty"))?;
            set.remove(&first);
            Ok(first)
        }
        [x] if set.remove(x) => Ok(x.clone()),
        [x] => Err(super::dict::key_error(x)),
        [x, default] => Ok(if set.remove(x) {
            x.clone()
        } else {
            default.clone()
        }),
        _ => Err(fail(
            ErrorKind::MethodError,
            "pop! takes a set and at most two more arguments",
        )),
    }
}

/// `empty!(s)`.
pub fn clear(set: &ValueSet) {
    *set.entries.borrow_mut() = Entries::default();
}

/// `filter(f, s)` on a set: the set of the elements `keep` accepts.
pub fn filtered(set: &ValueSet, mut keep: impl FnMut(&Value) -> Result<bool, Flow>) -> EvalResult {
    let kept = ValueSet::new(set.eltype.clone());
    for x in set.ordered() {
        if keep(&x)? {
            kept.insert(x)?;
        }
    }
    Ok(Value::object(kept))
}

crate::builtins! {
    "Set" => set_, false, "    Set(collection)\n    Set{T}(collection)\n    Set()\n\nThe distinct elements of a collection, compared as `isequal` compares them (`1` and `1.0` are one element); `push!`, `delete!`, `pop!`, `in`, `union`, `intersect`, `setdiff` and `issubset` work on it, and `Set{Int}` makes the index sets of hand-made sparsity tracers (`Tracer(Set([1, 2]))`). Julia orders a set by its hash function; difflab shows and iterates a set of numbers, strings or characters sorted, and any other set in insertion order.\n\n```\njulia> s = Set([3, 1, 3]); push!(s, 2)\nSet{Int64} with 3 elements:\n  1\n  2\n  3\n\njulia> 2 in s, Set(\"abca\")\n(true, Set(['a', 'b', 'c']))\n```";
    "union" => union_, false, "    union(a, b, ...)\n    a ∪ b\n\nThe elements in any of the collections: a set when `a` is a set, otherwise a vector of the distinct elements in order of first appearance.\n\n```\njulia> Set([1, 2]) ∪ Set([2, 5])\nSet{Int64} with 3 elements:\n  1\n  2\n  5\n\njulia> union([3, 1], [1, 2])\n3-element Vector{Int64}:\n 3\n 1\n 2\n```";
    "intersect" => intersect_, false, "    intersect(a, b, ...)\n    a ∩ b\n\nThe elements in every one of the collections (a set when `a` is a set).\n\n```\njulia> [1, 2, 3] ∩ [2, 3, 4]\n2-element Vector{Int64}:\n 2\n 3\n```";
    "setdiff" => setdiff_, false, "    setdiff(a, b, ...)\n\nThe elements of `a` in none of the others (a set when `a` is a set, else a vector of distinct elements in `a`'s order).\n\n```\njulia> setdiff([4, 1, 2, 1], [2])\n2-element Vector{Int64}:\n 4\n 1\n```";
    "symdiff" => symdiff_, false, "    symdiff(a, b, ...)\n\nThe elements in exactly one of two collections (for more, in an odd number of them).\n\n```\njulia> symdiff([1, 2, 3], [3, 4])\n3-element Vector{Int64}:\n 1\n 2\n 4\n```";
    "union!" => union_bang, false, "    union!(s, collections...)\n\nAdds the elements of the collections to the set `s` and returns it.\n\n```\njulia> s = Set([1]); union!(s, [2, 3]); length(s)\n3\n```";
    "intersect!" => intersect_bang, false, "    intersect!(s, collections...)\n\nKeeps in the set `s` the elements that are in every collection.\n\n```\njulia> s = Set([1, 2, 3]); intersect!(s, [2, 3, 4]); s == Set([2, 3])\ntrue\n```";
    "setdiff!" => setdiff_bang, false, "    setdiff!(s, collections...)\n\nRemoves from the set `s` the elements of the collections.\n\n```\njulia> s = Set([1, 2, 3]); setdiff!(s, [2]); s\nSet{Int64} with 2 elements:\n  1\n  3\n```";
    "symdiff!" => symdiff_bang, false, "    symdiff!(s, collections...)\n\nReplaces the set `s` by its symmetric difference with the collections.\n\n```\njulia> s = Set([1, 2]); symdiff!(s, [2, 3]); s == Set([1, 3])\ntrue\n```";
    "issubset" => issubset_, false, "    issubset(a, b)\n    a ⊆ b\n    b ⊇ a\n\nWhether every element of `a` is in `b` (`⊊` and `⊋` also require them to differ, `⊈` negates).\n\n```\njulia> [1, 2] ⊆ Set([1, 2, 3]), [1, 4] ⊆ [1, 2]\n(true, false)\n```";
    "⊇" => superset_, false, "    a ⊇ b\n\nWhether every element of `b` is in `a` (`issubset(b, a)`).\n\n```\njulia> Set([1, 2, 3]) ⊇ [3, 1]\ntrue\n```";
    "⊊" => proper_subset_, false, "    a ⊊ b\n\nWhether `a ⊆ b` and the two differ as sets.\n\n```\njulia> [1, 2] ⊊ [1, 2, 3], [1, 2] ⊊ [2, 1]\n(true, false)\n```";
    "⊋" => proper_superset_, false, "    a ⊋ b\n\nWhether `b ⊊ a`.\n\n```\njulia> Set([1, 2, 3]) ⊋ Set([1])\ntrue\n```";
    "⊈" => not_subset_, false, "    a ⊈ b\n\nWhether some element of `a` is not in `b`.\n\n```\njulia> [1, 4] ⊈ [1, 2]\ntrue\n```";
    "⊉" => not_superset_, false, "    a ⊉ b\n\nWhether some element of `b` is not in `a`.\n\n```\njulia> [1, 2] ⊉ [3]\ntrue\n```";
    "issetequal" => issetequal_, false, "    issetequal(a, b)\n\nWhether `a` and `b` have the same distinct elements, whatever their order and repetitions.\n\n```\njulia> issetequal([1, 2, 2], [2, 1])\ntrue\n```";
    "isdisjoint" => isdisjoint_, false, "    isdisjoint(a, b)\n\nWhether `a` and `b` have no element in common.\n\n```\njulia> isdisjoint([1, 2], [3, 4])\ntrue\n```";
    "allunique" => allunique_, false, "    allunique(v)\n\nWhether no two elements of `v` are equal (as `isequal` compares them).\n\n```\njulia> allunique([1, 2, 3]), allunique([1, 2, 1])\n(true, false)\n```";
}
