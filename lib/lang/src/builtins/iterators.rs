//! `Iterators`: Julia's lazy iterator combinators (`Iterators.take`, `drop`, `product`,
//! `flatten`, `partition`, `repeated`, `countfrom`, `cycle`, `filter`, `map`, `takewhile`,
//! `dropwhile`, `zip`, `enumerate`).
//!
//! Each builds a [`Lazy`] value that holds its inputs and computes nothing; loops,
//! comprehensions and generators walk it one element at a time through a [`Cursor`]
//! (`Interp::next_item`), so infinite iterators (`countfrom`, `repeated(x)`, `cycle`) work
//! under `take`, `zip` and `first`. The reductions (`sum`, `prod`, `maximum`, `minimum`,
//! `mean`, `any`, `all`, `count`, `first`) fold it one element at a time, as Julia does
//! (`Interp::fold_iterator`); other builtins that walk whole collections (`collect`,
//! `length`, ...) receive its elements collected; collecting an infinite one is an error.

use super::{to_size, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::iterate::ValueIter;
use crate::value::Value;
use difflab_syntax::BinOp;
use std::any::Any;
use std::rc::Rc;

/// A lazy iterator: what it iterates over, not its elements.
pub(crate) enum Lazy {
    /// The first `n` elements of `inner`.
    Take { inner: Value, n: usize },
    /// `inner` without its first `n` elements.
    Drop { inner: Value, n: usize },
    /// `x`, `n` times or forever.
    Repeated { x: Value, n: Option<usize> },
    /// `start`, `start + step`, ... forever.
    CountFrom { start: Value, step: Value },
    /// The elements of `inner` over and over, `n` times or forever.
    Cycle { inner: Value, n: Option<usize> },
    /// The elements of each element of `inner`, in turn.
    Flatten { inner: Value },
    /// Vectors of `n` consecutive elements of `inner` (the last may be shorter).
    Partition { inner: Value, n: usize },
    /// Tuples of one element of each factor, the first varying fastest.
    Product { factors: Vec<Value> },
    /// The elements of `inner` for which `f` is true.
    Filter { f: Value, inner: Value },
    /// `f` of the corresponding elements of `inners`, up to the shortest.
    Map { f: Value, inners: Vec<Value> },
    /// The elements of `inner` while `f` is true.
    TakeWhile { f: Value, inner: Value },
    /// The elements of `inner` from the first for which `f` is false.
    DropWhile { f: Value, inner: Value },
    /// Tuples of corresponding elements, up to the shortest.
    Zip { inners: Vec<Value> },
    /// A generator expression's value, Julia's `Base.Generator`: `f` of the elements of
    /// `factors` (one argument per factor, every combination, the first fastest) for which
    /// `filter` holds (see `eval::generators`).
    Generator {
        f: Value,
        filter: Option<Value>,
        factors: Vec<Value>,
    },
    /// `(i, x)` for the elements `x` of `inner`.
    Enumerate { inner: Value },
}

/// The values a [`Lazy`] holds, by reference or mutable reference (`$each` is `iter` or
/// `iter_mut`): one list for dropping and for the cycle search.
macro_rules! held_by {
    ($lazy:expr, $each:ident) => {
        match $lazy {
            Lazy::Take { inner, .. }
            | Lazy::Drop { inner, .. }
            | Lazy::Cycle { inner, .. }
            | Lazy::Flatten { inner }
            | Lazy::Partition { inner, .. }
            | Lazy::Enumerate { inner }
            | Lazy::Repeated { x: inner, .. } => vec![inner],
            Lazy::CountFrom { start, step } => vec![start, step],
            Lazy::Filter { f, inner }
            | Lazy::TakeWhile { f, inner }
            | Lazy::DropWhile { f, inner } => vec![f, inner],
            Lazy::Product { factors: inners } | Lazy::Zip { inners } => inners.$each().collect(),
            Lazy::Map { f, inners } => std::iter::once(f).chain(inners.$each()).collect(),
            Lazy::Generator { f, filter, factors } => std::iter::once(f)
                .chain(filter.$each())
                .chain(factors.$each())
                .collect(),
        }
    };
}

impl Drop for Lazy {
    fn drop(&mut self) {
        let held: Vec<&mut Value> = held_by!(self, iter_mut);
        crate::value::release(held.into_iter().map(Value::take).collect::<Vec<_>>());
    }
}

impl Lazy {
    pub(crate) fn wrapped(self) -> Value {
        Value::Object(Rc::new(Box::new(self)))
    }

    /// The name Julia prints for the iterator's type.
    fn kind(&self) -> &'static str {
        match self {
            Lazy::Take { .. } => "Take",
            Lazy::Drop { .. } => "Drop",
            Lazy::Repeated { .. } => "Repeated",
            Lazy::CountFrom { .. } => "Count",
            Lazy::Cycle { .. } => "Cycle",
            Lazy::Flatten { .. } => "Flatten",
            Lazy::Partition { .. } => "PartitionIterator",
            Lazy::Product { .. } => "ProductIterator",
            Lazy::Filter { .. } => "Filter",
            Lazy::Map { .. } | Lazy::Generator { .. } => "Generator",
            Lazy::TakeWhile { .. } => "TakeWhile",
            Lazy::DropWhile { .. } => "DropWhile",
            Lazy::Zip { .. } => "Zip",
            Lazy::Enumerate { .. } => "Enumerate",
        }
    }

    /// The values it was built from, as they print.
    fn parts(&self) -> Vec<String> {
        let show = crate::display::repr;
        let count = |n: &Option<usize>| n.map(|n| n.to_string());
        match self {
            Lazy::Take { inner, n } | Lazy::Drop { inner, n } | Lazy::Partition { inner, n } => {
                vec![show(inner), n.to_string()]
            }
            Lazy::Repeated { x, n } => std::iter::once(show(x)).chain(count(n)).collect(),
            Lazy::CountFrom { start, step } => vec![show(start), show(step)],
            Lazy::Cycle { inner, n } => std::iter::once(show(inner)).chain(count(n)).collect(),
            Lazy::Flatten { inner } | Lazy::Enumerate { inner } => vec![show(inner)],
            Lazy::Product { factors: inners } | Lazy::Zip { inners } => {
                inners.iter().map(show).collect()
            }
            Lazy::Filter { f, inner }
            | Lazy::TakeWhile { f, inner }
            | Lazy::DropWhile { f, inner } => vec![show(f), show(inner)],
            Lazy::Map { f, inners } => std::iter::once(show(f))
                .chain(inners.iter().map(show))
                .collect(),
            Lazy::Generator { f, filter, factors } => {
                let mut inner = match &factors[..] {
                    [one] => show(one),
                    several => format!(
                        "Base.Iterators.ProductIterator({})",
                        several.iter().map(show).collect::<Vec<_>>().join(", ")
                    ),
                };
                if let Some(filter) = filter {
                    inner = format!("Base.Iterators.Filter({}, {inner})", show(filter));
                }
                vec![show(f), inner]
            }
        }
    }

    /// Whether it never ends (so collecting it cannot finish).
    pub(crate) fn is_infinite(&self) -> bool {
        let infinite = |v: &Value| as_lazy(v).is_some_and(Lazy::is_infinite);
        match self {
            Lazy::Repeated { n, .. } => n.is_none(),
            Lazy::CountFrom { .. } => true,
            Lazy::Cycle { inner, n } => {
                n.is_none() && crate::eval::Interp::length_of(inner) != Some(0)
            }
            Lazy::Take { .. } | Lazy::TakeWhile { .. } => false,
            Lazy::Drop { inner, .. }
            | Lazy::Flatten { inner }
            | Lazy::Partition { inner, .. }
            | Lazy::Filter { inner, .. }
            | Lazy::DropWhile { inner, .. }
            | Lazy::Enumerate { inner } => infinite(inner),
            Lazy::Product { factors } | Lazy::Generator { factors, .. } => {
                factors.iter().any(infinite)
            }
            Lazy::Map { inners, .. } | Lazy::Zip { inners } => inners.iter().all(infinite),
        }
    }
}

/// The shape of a generator without a filter, from its iterables' shapes alone: Julia's
/// `size` and `length` of a `Base.Generator` read its iterator and never run its body. `None`
/// for any other value, for a filtered generator and for iterables of no known shape.
pub(crate) fn generator_shape(v: &Value) -> Option<Vec<usize>> {
    let Lazy::Generator {
        filter: None,
        factors,
        ..
    } = as_lazy(v)?
    else {
        return None;
    };
    let mut shape = Vec::new();
    for factor in factors {
        shape.extend(super::arrays::shape_of_value(factor)?);
    }
    Some(shape)
}

impl Object for Lazy {
    fn type_name(&self) -> String {
        match self {
            // `Iterators.map` makes a `Base.Generator`, as a generator expression does.
            Lazy::Map { .. } | Lazy::Generator { .. } => "Base.Generator".to_string(),
            _ => format!("Base.Iterators.{}", self.kind()),
        }
    }

    fn show(&self) -> String {
        // Iterators built from iterators nest as deep as a loop makes them (`g = (x + 1 for x
        // in g)`); past a few levels the inner ones print as `…`, where the whole text would
        // grow with the square of the depth.
        thread_local! {
            static SHOWING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
        }
        const SHOWN_LEVELS: usize = 8;
        let depth = SHOWING.with(|d| d.replace(d.get() + 1));
        let parts = match depth < SHOWN_LEVELS {
            true => self.parts().join(", "),
            false => "…".to_string(),
        };
        SHOWING.with(|d| d.set(depth));
        format!("{}({parts})", self.type_name())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn held_values(&self) -> Vec<&Value> {
        held_by!(self, iter)
    }
}

/// The lazy iterator `v` is, if it is one.
pub(crate) fn as_lazy(v: &Value) -> Option<&Lazy> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<Lazy>(),
        _ => None,
    }
}

/// A walk over a lazy iterator, as loops hold it.
pub struct LazyWalk(pub(crate) Cursor);

/// Where a walk over a [`Lazy`] iterator is.
pub(crate) enum Cursor {
    Take {
        inner: ValueIter,
        left: usize,
    },
    Drop {
        inner: ValueIter,
        skip: usize,
    },
    Repeated {
        x: Value,
        left: Option<usize>,
    },
    CountFrom {
        next: Value,
        step: Value,
    },
    Cycle {
        source: Value,
        current: ValueIter,
        rounds_left: Option<usize>,
        yielded_this_round: bool,
    },
    Flatten {
        outer: ValueIter,
        current: Option<ValueIter>,
    },
    Partition {
        inner: ValueIter,
        n: usize,
    },
    Product {
        factors: Vec<Vec<Value>>,
        index: Vec<usize>,
        done: bool,
    },
    Filter {
        f: Value,
        inner: ValueIter,
    },
    Map {
        f: Value,
        inners: Vec<ValueIter>,
    },
    TakeWhile {
        f: Value,
        inner: ValueIter,
        done: bool,
    },
    DropWhile {
        f: Value,
        inner: ValueIter,
        dropping: bool,
    },
    Zip {
        inners: Vec<ValueIter>,
    },
    Enumerate {
        inner: ValueIter,
        count: i64,
    },
    Generator {
        f: Value,
        filter: Option<Value>,
        /// The factor's elements, or tuples of the factors' (`spread` over the arguments).
        inner: ValueIter,
        spread: bool,
    },
}

impl Interp {
    /// A walk over `lazy` from its start.
    pub(crate) fn lazy_cursor(&mut self, lazy: &Lazy) -> Result<Cursor, Flow> {
        let mut walk = |v: &Value| self.iterate_value(v);
        Ok(match lazy {
            Lazy::Take { inner, n } => Cursor::Take {
                inner: walk(inner)?,
                left: *n,
            },
            Lazy::Drop { inner, n } => Cursor::Drop {
                inner: walk(inner)?,
                skip: *n,
            },
            Lazy::Repeated { x, n } => Cursor::Repeated {
                x: x.clone(),
                left: *n,
            },
            Lazy::CountFrom { start, step } => Cursor::CountFrom {
                next: start.clone(),
                step: step.clone(),
            },
            Lazy::Cycle { inner, n } => Cursor::Cycle {
                source: inner.clone(),
                current: walk(inner)?,
                rounds_left: n.map(|n| n.saturating_sub(1)),
                yielded_this_round: false,
            },
            Lazy::Flatten { inner } => Cursor::Flatten {
                outer: walk(inner)?,
                current: None,
            },
            Lazy::Partition { inner, n } => Cursor::Partition {
                inner: walk(inner)?,
                n: *n,
            },
            Lazy::Product { factors } => {
                let factors = factors
                    .iter()
                    .map(|f| self.elements_of(f))
                    .collect::<Result<Vec<_>, _>>()?;
                Cursor::Product {
                    index: vec![0; factors.len()],
                    done: factors.iter().any(Vec::is_empty),
                    factors,
                }
            }
            Lazy::Filter { f, inner } => Cursor::Filter {
                f: f.clone(),
                inner: walk(inner)?,
            },
            Lazy::Map { f, inners } => Cursor::Map {
                f: f.clone(),
                inners: inners.iter().map(walk).collect::<Result<_, _>>()?,
            },
            Lazy::TakeWhile { f, inner } => Cursor::TakeWhile {
                f: f.clone(),
                inner: walk(inner)?,
                done: false,
            },
            Lazy::DropWhile { f, inner } => Cursor::DropWhile {
                f: f.clone(),
                inner: walk(inner)?,
                dropping: true,
            },
            Lazy::Zip { inners } => Cursor::Zip {
                inners: inners.iter().map(walk).collect::<Result<_, _>>()?,
            },
            Lazy::Enumerate { inner } => Cursor::Enumerate {
                inner: walk(inner)?,
                count: 0,
            },
            Lazy::Generator { f, filter, factors } => Cursor::Generator {
                f: f.clone(),
                filter: filter.clone(),
                inner: match &factors[..] {
                    [one] => walk(one)?,
                    several => walk(
                        &Lazy::Product {
                            factors: several.to_vec(),
                        }
                        .wrapped(),
                    )?,
                },
                spread: factors.len() > 1,
            },
        })
    }

    /// The next element of a walk over a lazy iterator.
    pub(crate) fn next_lazy(&mut self, cursor: &mut Cursor) -> Result<Option<Value>, Flow> {
        match cursor {
            Cursor::Take { inner, left } => {
                if *left == 0 {
                    return Ok(None);
                }
                *left -= 1;
                self.next_item(inner)
            }
            Cursor::Drop { inner, skip } => {
                while *skip > 0 {
                    self.check_interrupt()?;
                    *skip -= 1;
                    if self.next_item(inner)?.is_none() {
                        return Ok(None);
                    }
                }
                self.next_item(inner)
            }
            Cursor::Repeated { x, left } => match left {
                Some(0) => Ok(None),
                Some(n) => {
                    *n -= 1;
                    Ok(Some(x.clone()))
                }
                None => Ok(Some(x.clone())),
            },
            Cursor::CountFrom { next, step } => {
                let following = self.binary(BinOp::Add, false, next, step)?;
                Ok(Some(std::mem::replace(next, following)))
            }
            Cursor::Cycle {
                source,
                current,
                rounds_left,
                yielded_this_round,
            } => loop {
                if let Some(x) = self.next_item(current)? {
                    *yielded_this_round = true;
                    return Ok(Some(x));
                }
                // An empty source, or the last round done: the cycle ends.
                if !*yielded_this_round || *rounds_left == Some(0) {
                    return Ok(None);
                }
                if let Some(n) = rounds_left {
                    *n -= 1;
                }
                *current = self.iterate_value(source)?;
                *yielded_this_round = false;
            },
            Cursor::Flatten { outer, current } => loop {
                self.check_interrupt()?;
                if let Some(inner) = current {
                    if let Some(x) = self.next_item(inner)? {
                        return Ok(Some(x));
                    }
                }
                let Some(next) = self.next_item(outer)? else {
                    return Ok(None);
                };
                *current = Some(self.iterate_value(&next)?);
            },
            Cursor::Partition { inner, n } => {
                let mut part = Vec::with_capacity(*n);
                while part.len() < *n {
                    match self.next_item(inner)? {
                        Some(x) => part.push(x),
                        None => break,
                    }
                }
                if part.is_empty() {
                    return Ok(None);
                }
                let len = part.len();
                crate::eval::collections::collect_values(self, part, &[len]).map(Some)
            }
            Cursor::Product {
                factors,
                index,
                done,
            } => {
                if *done {
                    return Ok(None);
                }
                let tuple = index
                    .iter()
                    .zip(factors.iter())
                    .map(|(&i, f)| f[i].clone())
                    .collect();
                *done = true;
                for (i, f) in index.iter_mut().zip(factors.iter()) {
                    *i += 1;
                    if *i < f.len() {
                        *done = false;
                        break;
                    }
                    *i = 0;
                }
                Ok(Some(Value::tuple(tuple)))
            }
            Cursor::Filter { f, inner } => loop {
                self.check_interrupt()?;
                let Some(x) = self.next_item(inner)? else {
                    return Ok(None);
                };
                if self.predicate(f, &x)? {
                    return Ok(Some(x));
                }
            },
            Cursor::Map { f, inners } => {
                let Some(args) = self.next_of_each(inners)? else {
                    return Ok(None);
                };
                let f = f.clone();
                self.call(&f, args).map(Some)
            }
            Cursor::Generator {
                f,
                filter,
                inner,
                spread,
            } => self.next_generated(f, filter.as_ref(), inner, *spread),
            Cursor::TakeWhile { f, inner, done } => {
                if *done {
                    return Ok(None);
                }
                match self.next_item(inner)? {
                    Some(x) if self.predicate(f, &x)? => Ok(Some(x)),
                    _ => {
                        *done = true;
                        Ok(None)
                    }
                }
            }
            Cursor::DropWhile { f, inner, dropping } => loop {
                self.check_interrupt()?;
                let Some(x) = self.next_item(inner)? else {
                    return Ok(None);
                };
                if !*dropping || !self.predicate(f, &x)? {
                    *dropping = false;
                    return Ok(Some(x));
                }
            },
            Cursor::Zip { inners } => Ok(self.next_of_each(inners)?.map(Value::tuple)),
            Cursor::Enumerate { inner, count } => {
                let Some(x) = self.next_item(inner)? else {
                    return Ok(None);
                };
                *count += 1;
                Ok(Some(Value::tuple(vec![Value::Int(*count), x])))
            }
        }
    }

    /// The next element of every walk, or `None` once one of them ends.
    fn next_of_each(&mut self, walks: &mut [ValueIter]) -> Result<Option<Vec<Value>>, Flow> {
        let mut items = Vec::with_capacity(walks.len());
        for walk in walks {
            match self.next_item(walk)? {
                Some(x) => items.push(x),
                None => return Ok(None),
            }
        }
        Ok(Some(items))
    }

    fn predicate(&mut self, f: &Value, x: &Value) -> Result<bool, Flow> {
        super::predicate_holds(self, f, x)
    }

    /// The elements of a lazy iterator, at most `limit` of them.
    pub(crate) fn collect_lazy(
        &mut self,
        lazy: &Lazy,
        limit: Option<usize>,
    ) -> Result<Vec<Value>, Flow> {
        if limit.is_none() && lazy.is_infinite() {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!(
                    "cannot collect the infinite iterator {}; bound it with Iterators.take(it, n)",
                    lazy.type_name()
                ),
            ));
        }
        let mut cursor = self.lazy_cursor(lazy)?;
        let mut items = Vec::new();
        while limit.is_none_or(|n| items.len() < n) {
            self.check_interrupt()?;
            self.check_alloc(items.len())?;
            match self.next_lazy(&mut cursor)? {
                Some(x) => items.push(x),
                None => break,
            }
        }
        Ok(items)
    }
}

/// `name(itr, n)`: an iterator over `itr` with a count.
fn counted(args: &Args, name: &str, make: fn(Value, usize) -> Lazy) -> EvalResult {
    args.arity(name, 2, 2)?;
    let n = to_size(&args.pos[1], name)?;
    Ok(make(args.pos[0].clone(), n).wrapped())
}

/// `name(x)` or `name(x, n)`: an iterator that repeats, forever or `n` times.
fn optionally_counted(
    args: &Args,
    name: &str,
    make: fn(Value, Option<usize>) -> Lazy,
) -> EvalResult {
    args.arity(name, 1, 2)?;
    let n = args.pos.get(1).map(|n| to_size(n, name)).transpose()?;
    Ok(make(args.pos[0].clone(), n).wrapped())
}

/// `name(f, itr)`: an iterator over `itr` steered by the function `f`.
fn with_function(args: &Args, name: &str, make: fn(Value, Value) -> Lazy) -> EvalResult {
    args.arity(name, 2, 2)?;
    Ok(make(args.pos[0].clone(), args.pos[1].clone()).wrapped())
}

fn take_(_: &mut Interp, args: Args) -> EvalResult {
    counted(&args, "Iterators.take", |inner, n| Lazy::Take { inner, n })
}

fn drop_(_: &mut Interp, args: Args) -> EvalResult {
    counted(&args, "Iterators.drop", |inner, n| Lazy::Drop { inner, n })
}

fn repeated_(_: &mut Interp, args: Args) -> EvalResult {
    optionally_counted(&args, "Iterators.repeated", |x, n| Lazy::Repeated { x, n })
}

fn countfrom_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Iterators.countfrom", 0, 2)?;
    let start = args.pos.first().cloned().unwrap_or(Value::Int(1));
    let step = args.pos.get(1).cloned().unwrap_or(Value::Int(1));
    for v in [&start, &step] {
        if !v.is_number() {
            return Err(fail(
                ErrorKind::MethodError,
                format!("no method matching countfrom(::{})", v.type_name()),
            ));
        }
    }
    Ok(Lazy::CountFrom { start, step }.wrapped())
}

fn cycle_(_: &mut Interp, args: Args) -> EvalResult {
    optionally_counted(&args, "Iterators.cycle", |inner, n| Lazy::Cycle {
        inner,
        n,
    })
}

fn flatten_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Iterators.flatten", 1, 1)?;
    Ok(Lazy::Flatten {
        inner: args.pos[0].clone(),
    }
    .wrapped())
}

fn partition_(_: &mut Interp, args: Args) -> EvalResult {
    if args.pos.get(1).is_some_and(|n| matches!(n, Value::Int(0))) {
        return Err(fail(
            ErrorKind::ArgumentError,
            "cannot create partitions of length 0",
        ));
    }
    counted(&args, "Iterators.partition", |inner, n| Lazy::Partition {
        inner,
        n,
    })
}

fn product_(_: &mut Interp, args: Args) -> EvalResult {
    if args
        .pos
        .iter()
        .any(|f| as_lazy(f).is_some_and(Lazy::is_infinite))
    {
        return Err(fail(
            ErrorKind::ArgumentError,
            "Iterators.product of an infinite iterator has no end to its first factor",
        ));
    }
    Ok(Lazy::Product { factors: args.pos }.wrapped())
}

fn filter_(_: &mut Interp, args: Args) -> EvalResult {
    with_function(&args, "Iterators.filter", |f, inner| Lazy::Filter {
        f,
        inner,
    })
}

fn map_(_: &mut Interp, args: Args) -> EvalResult {
    generator_of(args, "Iterators.map")
}

fn generator_(_: &mut Interp, args: Args) -> EvalResult {
    generator_of(args, "Base.Generator")
}

/// `name(f, itrs...)`: `f` over one iterator, or over the tuples of several zipped.
fn generator_of(args: Args, name: &str) -> EvalResult {
    args.arity(name, 2, usize::MAX)?;
    let f = args.pos[0].clone();
    Ok(match &args.pos[1..] {
        // Julia's `Base.Generator(f, itr)`, as the generator expression `(f(x) for x in itr)`.
        [inner] => Lazy::Generator {
            f,
            filter: None,
            factors: vec![inner.clone()],
        },
        inners => Lazy::Map {
            f,
            inners: inners.to_vec(),
        },
    }
    .wrapped())
}

fn takewhile_(_: &mut Interp, args: Args) -> EvalResult {
    with_function(&args, "Iterators.takewhile", |f, inner| Lazy::TakeWhile {
        f,
        inner,
    })
}

fn dropwhile_(_: &mut Interp, args: Args) -> EvalResult {
    with_function(&args, "Iterators.dropwhile", |f, inner| Lazy::DropWhile {
        f,
        inner,
    })
}

/// `zip(xs...)` when one of them is lazy (and `Iterators.zip` always).
pub(crate) fn lazy_zip(inners: Vec<Value>) -> Value {
    Lazy::Zip { inners }.wrapped()
}

/// `enumerate(xs)` when `xs` is lazy (and `Iterators.enumerate` always).
pub(crate) fn lazy_enumerate(inner: Value) -> Value {
    Lazy::Enumerate { inner }.wrapped()
}

fn zip_(_: &mut Interp, args: Args) -> EvalResult {
    Ok(lazy_zip(args.pos))
}

fn enumerate_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Iterators.enumerate", 1, 1)?;
    Ok(lazy_enumerate(args.pos[0].clone()))
}

crate::builtins! {
    "Iterators.take" => take_, false, "    Iterators.take(itr, n)\n\nThe first `n` elements of `itr` (or all of them, when it has fewer), computed as they are walked. Bounds an infinite iterator.\n\n```\njulia> collect(Iterators.take(Iterators.countfrom(10, 5), 3))\n3-element Vector{Int64}:\n 10\n 15\n 20\n```";
    "Iterators.drop" => drop_, false, "    Iterators.drop(itr, n)\n\nThe elements of `itr` after its first `n`.\n\n```\njulia> collect(Iterators.drop(1:5, 3))\n2-element Vector{Int64}:\n 4\n 5\n```";
    "Iterators.repeated" => repeated_, false, "    Iterators.repeated(x)\n    Iterators.repeated(x, n)\n\n`x` over and over: `n` times, or forever.\n\n```\njulia> collect(Iterators.repeated([1, 2], 2))\n2-element Vector{Vector{Int64}}:\n [1, 2]\n [1, 2]\n```";
    "Iterators.countfrom" => countfrom_, false, "    Iterators.countfrom(start=1, step=1)\n\n`start`, `start + step`, `start + 2step`, ... forever.\n\n```\njulia> for (i, x) in zip(Iterators.countfrom(0), [:a, :b]); println(i, \" \", x); end\n0 a\n1 b\n```";
    "Iterators.cycle" => cycle_, false, "    Iterators.cycle(itr)\n    Iterators.cycle(itr, n)\n\nThe elements of `itr` over and over: `n` times, or forever.\n\n```\njulia> collect(Iterators.take(Iterators.cycle([1, 2]), 5))\n5-element Vector{Int64}:\n 1\n 2\n 1\n 2\n 1\n```";
    "Iterators.flatten" => flatten_, false, "    Iterators.flatten(itr)\n\nThe elements of each element of `itr`, in turn.\n\n```\njulia> collect(Iterators.flatten([[1, 2], [3]]))\n3-element Vector{Int64}:\n 1\n 2\n 3\n```";
    "Iterators.partition" => partition_, false, "    Iterators.partition(itr, n)\n\nVectors of `n` consecutive elements of `itr`; the last holds what is left.\n\n```\njulia> collect(Iterators.partition(1:5, 2))\n3-element Vector{Vector{Int64}}:\n [1, 2]\n [3, 4]\n [5]\n```";
    "Iterators.product" => product_, false, "    Iterators.product(itrs...)\n\nTuples of one element of each iterator, the first varying fastest (Julia's column-major order). `collect` gives them as a vector where Julia gives an array with one dimension per iterator; `vec(collect(...))` is the same in both.\n\n```\njulia> for (i, j) in Iterators.product(1:2, [:a, :b]); print((i, j), \" \"); end\n(1, :a) (2, :a) (1, :b) (2, :b) \n```";
    "Iterators.filter" => filter_, false, "    Iterators.filter(f, itr)\n\nThe elements of `itr` for which `f` is true, found as they are walked.\n\n```\njulia> first(Iterators.filter(isodd, Iterators.countfrom(10)))\n11\n```";
    "Base.Generator" => generator_, false, "    Base.Generator(f, itr)\n    (f(x) for x in itr if cond(x))\n\nThe lazy iterator of `f` applied to the elements of `itr`, which a generator expression makes. Nothing is computed until it is walked (a loop, `collect`, `first`, `Iterators.take`, a reduction), and each time from the start, so a generator over an infinite iterator is a value like any other and the body reads variables when an element is computed. Several clauses (`x in a, y in b`) walk every combination, the first fastest, and `collect` gives an array of their shapes (a vector with a filter); nested `for`s are `Iterators.flatten` of generators, each `for` with its own optional `if`.\n\n```\njulia> squares = (i^2 for i in Iterators.countfrom(1));\n\njulia> first(squares, 3)\n3-element Vector{Int64}:\n 1\n 4\n 9\n\njulia> collect(x * y for x in 1:2, y in 1:3)\n2×3 Matrix{Int64}:\n 1  2  3\n 2  4  6\n\njulia> collect((x, y) for x in 1:3 if isodd(x) for y in 1:x)\n4-element Vector{Tuple{Int64, Int64}}:\n (1, 1)\n (3, 1)\n (3, 2)\n (3, 3)\n```";
    "Iterators.map" => map_, false, "    Iterators.map(f, itrs...)\n\n`f` applied to the corresponding elements of the iterators as they are walked, up to the shortest.\n\n```\njulia> collect(Iterators.map(x -> x^2, Iterators.take(Iterators.countfrom(1), 3)))\n3-element Vector{Int64}:\n 1\n 4\n 9\n```";
    "Iterators.takewhile" => takewhile_, false, "    Iterators.takewhile(f, itr)\n\nThe elements of `itr` up to the first for which `f` is false.\n\n```\njulia> collect(Iterators.takewhile(x -> x < 4, Iterators.countfrom(1)))\n3-element Vector{Int64}:\n 1\n 2\n 3\n```";
    "Iterators.dropwhile" => dropwhile_, false, "    Iterators.dropwhile(f, itr)\n\nThe elements of `itr` from the first for which `f` is false.\n\n```\njulia> collect(Iterators.dropwhile(x -> x < 4, 1:5))\n2-element Vector{Int64}:\n 4\n 5\n```";
    "Iterators.zip" => zip_, false, "    Iterators.zip(itrs...)\n\nTuples of corresponding elements, up to the shortest iterator (the same as `zip`).\n\n```\njulia> collect(Iterators.zip(1:2, Iterators.repeated(0)))\n2-element Vector{Tuple{Int64, Int64}}:\n (1, 0)\n (2, 0)\n```";
    "Iterators.enumerate" => enumerate_, false, "    Iterators.enumerate(itr)\n\nPairs `(i, x)` of a count from 1 and each element (the same as `enumerate`).\n\n```\njulia> first(Iterators.enumerate(Iterators.countfrom(5)))\n(1, 5)\n```";
}
