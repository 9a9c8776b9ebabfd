//! A generator expression as a value: `g = (f(x) for x in xs if p(x))` is Julia's lazy
//! `Base.Generator`. Making it evaluates the iterables and closes the body and the filter over
//! the current scope, as Julia's closures do; nothing else runs until it is walked (a `for`
//! loop, `Iterators.take`, `zip`, `first`, a reduction), so a generator over an infinite
//! iterator is a value like any other and a variable the body reads is read when the element
//! is computed. Builtins that are not lazy-aware receive it collected (Julia's `collect`: the
//! shape of the iterables' product without a filter, a vector with one), through compiled
//! code when the body compiles for plain arrays and ranges; `length`, `size` and `ndims` of
//! one without a filter read its iterables' shapes only. A generator of nested `for` clauses
//! is `Iterators.flatten` of generators (the parser writes it so), as lazy as they are.

use super::Interp;
use crate::builtins::iterators::{as_lazy, Lazy};
use crate::error::{EvalResult, Flow};
use crate::value::iterate::ValueIter;
use crate::value::Value;
use difflab_syntax::{Generator, GeneratorFunctions};

/// Builtins that take a generator as it is rather than collected: the lazy combinators, those
/// that walk only what they need, those that show or inspect the value itself, and those that
/// read only its iterables' shape (a filtered one is collected when walked).
const LAZY_AWARE: &[&str] = &[
    "Base.Generator",
    "zip",
    "enumerate",
    "first",
    "typeof",
    "isa",
    "show",
    "print",
    "println",
    "repr",
    "string",
    "display",
    "summary",
    "eltype",
    "length",
    "size",
    "ndims",
];

impl Interp {
    /// The value of a generator expression with `functions`, over the iterables of
    /// `generators` evaluated now; `None` when its functions cannot be made (the caller then
    /// computes it as a comprehension).
    pub(crate) fn generator_value(
        &mut self,
        functions: &GeneratorFunctions,
        generators: &[Generator],
    ) -> Option<EvalResult> {
        // The functions first: they have no effects, so the fallback evaluates the iterables
        // only once.
        let f = self.make_closure(functions.element.clone()).ok()?;
        let filter = match &functions.filter {
            Some(def) => Some(self.make_closure(def.clone()).ok()?),
            None => None,
        };
        let factors = generators
            .iter()
            .map(|g| self.eval(&g.iter))
            .collect::<Result<Vec<_>, _>>();
        Some(factors.map(|factors| Lazy::Generator { f, filter, factors }.wrapped()))
    }

    /// The next element of a walk over a generator: `f` of the next item of `inner` (its
    /// parts as the arguments when `spread`) for which `filter` holds.
    pub(crate) fn next_generated(
        &mut self,
        f: &Value,
        filter: Option<&Value>,
        inner: &mut ValueIter,
        spread: bool,
    ) -> Result<Option<Value>, Flow> {
        let (f, filter) = (f.clone(), filter.cloned());
        loop {
            self.check_interrupt()?;
            let Some(item) = self.next_item(inner)? else {
                return Ok(None);
            };
            let args = match (spread, item) {
                (true, Value::Tuple(parts)) => parts.to_vec(),
                (_, item) => vec![item],
            };
            if let Some(filter) = &filter {
                if !crate::builtins::predicate_holds_for(self, filter, args.clone())? {
                    continue;
                }
            }
            return self.call(&f, args).map(Some);
        }
    }

    /// Whether the builtin `name` takes a generator argument collected.
    pub(crate) fn collects_generators(name: &str) -> bool {
        !name.starts_with("Iterators.") && !LAZY_AWARE.contains(&name)
    }

    /// `v` as broadcasting takes it: a generator collected (Julia's `broadcastable`).
    pub(crate) fn broadcastable(&mut self, v: Value) -> EvalResult {
        match self.collect_generator(&v) {
            Some(collected) => collected,
            None => Ok(v),
        }
    }

    /// `v` collected as Julia's `collect` does when it is a generator: an array of the shape
    /// of its iterables' product (a vector with a filter); `None` for any other value.
    pub(crate) fn collect_generator(&mut self, v: &Value) -> Option<EvalResult> {
        let lazy = as_lazy(v)?;
        let Lazy::Generator { f, filter, factors } = lazy else {
            return None;
        };
        Some(self.collect_generated(lazy, f, filter.is_some(), factors))
    }

    fn collect_generated(
        &mut self,
        lazy: &Lazy,
        f: &Value,
        filtered: bool,
        factors: &[Value],
    ) -> EvalResult {
        let plain = factors
            .iter()
            .all(|x| matches!(x, Value::Array(_) | Value::Range(_)));
        if !filtered && plain {
            if let Some(done) = self.product_compiled(f, factors) {
                return done;
            }
        }
        let items = self.collect_lazy(lazy, None)?;
        let n = items.len();
        let dims: Vec<usize> = factors
            .iter()
            .flat_map(|x| {
                crate::builtins::arrays::shape_of_value(x)
                    .unwrap_or_else(|| vec![crate::builtins::arrays::length_of(x).unwrap_or(0)])
            })
            .collect();
        let shape = match filtered || dims.iter().product::<usize>() != n {
            true => vec![n],
            false => dims,
        };
        super::collections::collect_values(self, items, &shape)
    }
}
