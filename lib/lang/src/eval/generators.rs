//! Reductions over a generator: `sum(f(x) for x in xs)`, `prod`, `maximum`, `minimum`, `any`,
//! `all`, `count`, `mean` and `first` take the generator's elements one at a time, in order,
//! as Julia's `mapfoldl` (and `Statistics.mean` of an iterator) does, and never build the
//! array. So `sum(1 / i^2 for i in 1:10^9)` runs in constant memory and gives Julia's sum (a
//! left fold, which differs in the last digits from the sum of the collected array), and
//! `any`, `all` and `first` stop at the first element that decides them. When the body
//! compiles for plain arrays and ranges, the elements come from one loop of compiled code
//! ([`Interp::product_folded`]). The lazy iterators of `Iterators` (`sum(Iterators.map(f,
//! xs))`) are folded the same way, one element at a time ([`Interp::fold_iterator`]).

use super::scope::Scope;
use super::Interp;
use crate::builtins::iterators::{as_lazy, Lazy};
use crate::error::{fail, ErrorKind, EvalResult, Flow};
use crate::show::ElType;
use crate::value::Value;
use difflab_ad::ops::BinaryFn;
use difflab_syntax::{Arg, BinOp, Expr, ExprKind, FunctionDef, Generator, Kwarg, Name};
use std::ops::ControlFlow;
use std::rc::Rc;

/// The reductions that consume a generator as it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reduction {
    Sum,
    Prod,
    Maximum,
    Minimum,
    Any,
    All,
    Count,
    Mean,
    First,
}

impl Reduction {
    fn named(name: &str) -> Option<Reduction> {
        Some(match name {
            "sum" => Reduction::Sum,
            "prod" => Reduction::Prod,
            "maximum" => Reduction::Maximum,
            "minimum" => Reduction::Minimum,
            "any" => Reduction::Any,
            "all" => Reduction::All,
            "count" => Reduction::Count,
            "mean" => Reduction::Mean,
            "first" => Reduction::First,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Reduction::Sum => "sum",
            Reduction::Prod => "prod",
            Reduction::Maximum => "maximum",
            Reduction::Minimum => "minimum",
            Reduction::Any => "any",
            Reduction::All => "all",
            Reduction::Count => "count",
            Reduction::Mean => "mean",
            Reduction::First => "first",
        }
    }

    /// Whether it combines every element into one value with an operator (`any`, `all` and
    /// `count` test them; `first` keeps one).
    fn folds(self) -> bool {
        !matches!(
            self,
            Reduction::Any | Reduction::All | Reduction::Count | Reduction::First
        )
    }

    /// Whether it may stop before the end (so it can walk an infinite iterator).
    fn stops_early(self) -> bool {
        matches!(self, Reduction::Any | Reduction::All | Reduction::First)
    }

    /// Whether it takes the `init` keyword (the fold's start).
    fn takes_init(self) -> bool {
        matches!(
            self,
            Reduction::Sum | Reduction::Prod | Reduction::Maximum | Reduction::Minimum
        )
    }
}

/// A call `reduction(generator)` or `reduction(generator; init = …)` of the builtin itself,
/// with the generator's parts.
pub(crate) struct GeneratorCall<'e> {
    reduction: Reduction,
    body: &'e Expr,
    generators: &'e [Generator],
    filter: Option<&'e Expr>,
    element: Option<&'e Rc<FunctionDef>>,
    init: Option<&'e Expr>,
}

impl Interp {
    /// The reduction a call makes over a generator written as its argument, when the callee
    /// is one of the builtins above (not a variable or a user function of that name).
    pub(crate) fn generator_call<'e>(
        &self,
        callee: &Expr,
        args: &'e [Arg],
        kwargs: &'e [Kwarg],
    ) -> Option<GeneratorCall<'e>> {
        let (ExprKind::Ident(name), [arg]) = (&callee.kind, args) else {
            return None;
        };
        let ExprKind::Comprehension {
            body,
            generators,
            filter,
            flat: false,
            generator: true,
            element,
            ..
        } = &arg.value.kind
        else {
            return None;
        };
        if arg.splat {
            return None;
        }
        // Every call of one argument passes here: the name is matched only for generators.
        let reduction = Reduction::named(name.as_str())?;
        let init = match kwargs {
            [] => None,
            [k] if !k.splat && k.name.as_str() == "init" && reduction.takes_init() => {
                Some(&k.value)
            }
            _ => return None,
        };
        match self.lookup(*name) {
            Ok(Value::Builtin(b)) if b.name == name.as_str() => Some(GeneratorCall {
                reduction,
                body,
                generators,
                filter: filter.as_deref(),
                element: element.as_ref(),
                init,
            }),
            _ => None,
        }
    }

    /// Runs `call`: the generator is made (its iterables evaluated), then `init`, then the
    /// elements are folded as they come.
    pub(crate) fn reduce_generator(&mut self, call: GeneratorCall<'_>) -> EvalResult {
        let GeneratorCall {
            reduction,
            body,
            generators,
            filter,
            element,
            init,
        } = call;
        let iterables = generators
            .iter()
            .map(|g| self.eval(&g.iter))
            .collect::<Result<Vec<_>, _>>()?;
        let init = init.map(|e| self.eval(e)).transpose()?;
        let frame = Scope::new(self.current_scope(), false);
        self.with_frame(frame, |me| {
            let function = element.and_then(|element| me.element_function(element, &iterables));
            if let Some(function) = function {
                if let Some(done) = me.fold_compiled(reduction, &init, &function, &iterables) {
                    return done;
                }
            }
            let mut fold = Fold::new(reduction, init);
            me.stream_elements((body, filter), generators, &iterables, &mut |me, x| {
                fold.element(me, x)
            })?;
            fold.finish(me)
        })
    }
}

impl Interp {
    /// `name(iterator; init)` folded one element at a time, when `name` is one of the
    /// reductions above and its one argument a lazy iterator (`Iterators.map(f, xs)`): as Julia
    /// folds it, in constant memory. `None` for anything else, and for an infinite iterator
    /// unless the reduction can stop early (the caller then reports it).
    pub(crate) fn fold_iterator(
        &mut self,
        name: &str,
        pos: &[Value],
        keywords: &[(Name, Value)],
    ) -> Option<EvalResult> {
        let reduction = Reduction::named(name)?;
        let [iterator] = pos else {
            return None;
        };
        let lazy = as_lazy(iterator)?;
        if lazy.is_infinite() && !reduction.stops_early() {
            return None;
        }
        let init = match keywords {
            [] => None,
            [(k, v)] if k.as_str() == "init" && reduction.takes_init() => Some(v.clone()),
            _ => return None,
        };
        Some(self.fold_each(reduction, iterator, init))
    }

    /// `reduction` of `f` over every combination of the elements of `factors`, as one loop of
    /// compiled code; `None` when `f` does not compile for them or the code stopped in the
    /// middle (the caller then folds as written).
    fn fold_compiled(
        &mut self,
        reduction: Reduction,
        init: &Option<Value>,
        f: &Value,
        factors: &[Value],
    ) -> Option<EvalResult> {
        let mut fold = Fold::new(reduction, init.clone());
        let done = self.product_folded(f, factors, |x| fold.number(&x))?;
        Some(done.and_then(|eltype| {
            fold.eltype = Some(eltype);
            fold.finish(self)
        }))
    }

    fn fold_each(
        &mut self,
        reduction: Reduction,
        iterator: &Value,
        init: Option<Value>,
    ) -> EvalResult {
        // A generator value without a filter folds like the generator written in the call.
        if let Some(Lazy::Generator {
            f,
            filter: None,
            factors,
        }) = as_lazy(iterator)
        {
            if let Some(done) = self.fold_compiled(reduction, &init, f, factors) {
                return done;
            }
        }
        let mut fold = Fold::new(reduction, init);
        // Decided early or ran out, the fold is over either way.
        let _ = self.fold_into(&mut fold, iterator)?;
        fold.finish(self)
    }

    /// Folds the elements of `iterator` into `fold`, in order; `Break` once the fold is
    /// decided. The parts of a flatten (a generator of nested `for`s) are folded one after the
    /// other, each generator among them through compiled code when its body compiles, carrying
    /// the running sum, product or extremum from part to part: the same left fold as one
    /// element at a time.
    fn fold_into(&mut self, fold: &mut Fold, iterator: &Value) -> Result<ControlFlow<()>, Flow> {
        match as_lazy(iterator) {
            Some(Lazy::Flatten { inner }) => {
                let mut parts = self.iterate_value(inner)?;
                while let Some(part) = self.next_item(&mut parts)? {
                    self.check_interrupt()?;
                    if self.fold_into(fold, &part)?.is_break() {
                        return Ok(ControlFlow::Break(()));
                    }
                }
                return Ok(ControlFlow::Continue(()));
            }
            // Only from a running value: the fold of an empty part without one is no value.
            Some(Lazy::Generator {
                f,
                filter: None,
                factors,
            }) if fold.reduction.takes_init() => {
                if fold.acc.is_none() {
                    fold.eltype = fold.eltype.or_else(|| self.product_eltype(f, factors));
                } else if let Some(done) = self.fold_compiled(fold.reduction, &fold.acc, f, factors)
                {
                    fold.acc = Some(done?);
                    return Ok(ControlFlow::Continue(()));
                }
            }
            _ => {}
        }
        let mut items = self.iterate_value(iterator)?;
        while let Some(item) = self.next_item(&mut items)? {
            self.check_interrupt()?;
            if fold.element(self, item)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

/// A reduction's running state.
struct Fold {
    reduction: Reduction,
    /// The sum, product or extremum so far (`init`, or nothing before the first element); the
    /// answer of `any`, `all` or `first` once an element decided it.
    acc: Option<Value>,
    /// The `true` elements seen by `count`; the elements added up by `mean`.
    count: i64,
    /// The type of the elements, when compiled code inferred it: what an empty sum is the
    /// zero of (`sum(i for i in 1:0)` is `0`, `sum(1 / i for i in 1:0)` is `0.0`, as Julia
    /// infers them).
    eltype: Option<ElType>,
}

impl Fold {
    fn new(reduction: Reduction, init: Option<Value>) -> Fold {
        Fold {
            reduction,
            acc: init,
            count: 0,
            eltype: None,
        }
    }

    /// Takes an element that is a plain number without the interpreter; `None` (the state
    /// unchanged) when it needs the interpreter or would raise an error.
    fn number(&mut self, x: &Value) -> Option<ControlFlow<()>> {
        // The common case, a sum of floats, without the general promotion rules.
        if let (Reduction::Sum | Reduction::Mean, Some(Value::Float(acc)), Value::Float(x)) =
            (self.reduction, &mut self.acc, x)
        {
            *acc += x;
            self.count += 1;
            return Some(ControlFlow::Continue(()));
        }
        let next = match (self.reduction, &self.acc) {
            (Reduction::First, _) => {
                self.acc = Some(x.clone());
                return Some(ControlFlow::Break(()));
            }
            (_, None) if self.reduction.folds() => first_element(self.reduction, x.clone()),
            (Reduction::Sum | Reduction::Mean, Some(acc)) => {
                super::operators::scalar_binary(BinOp::Add, acc, x)
                    .ok()
                    .flatten()?
            }
            (Reduction::Prod, Some(acc)) => super::operators::scalar_binary(BinOp::Mul, acc, x)
                .ok()
                .flatten()?,
            (Reduction::Maximum, Some(acc)) => extremum(BinaryFn::Max, acc, x)?,
            (Reduction::Minimum, Some(acc)) => extremum(BinaryFn::Min, acc, x)?,
            (Reduction::Any | Reduction::All | Reduction::Count, _) => {
                let Value::Bool(b) = x else {
                    return None;
                };
                return Some(self.condition(*b));
            }
            // `folds` is true of the others.
            (_, None) => return None,
        };
        self.acc = Some(next);
        self.count += 1;
        Some(ControlFlow::Continue(()))
    }

    /// Takes any element.
    fn element(&mut self, me: &mut Interp, x: Value) -> Result<ControlFlow<()>, Flow> {
        if let Some(step) = self.number(&x) {
            return Ok(step);
        }
        let next = match (self.reduction, self.acc.take()) {
            (Reduction::Any | Reduction::All | Reduction::Count, _) => {
                return Err(fail(
                    ErrorKind::TypeError,
                    format!("non-boolean ({}) used in boolean context", x.type_name()),
                ));
            }
            (Reduction::Sum | Reduction::Mean, Some(acc)) => {
                me.binary(BinOp::Add, false, &acc, &x)?
            }
            (Reduction::Prod, Some(acc)) => me.binary(BinOp::Mul, false, &acc, &x)?,
            (Reduction::Maximum, Some(acc)) => {
                crate::builtins::call_named(me, "max", vec![acc, x])?
            }
            (Reduction::Minimum, Some(acc)) => {
                crate::builtins::call_named(me, "min", vec![acc, x])?
            }
            // A fold's first element and `first`'s, which `number` has taken already.
            (reduction, _) => first_element(reduction, x),
        };
        self.acc = Some(next);
        self.count += 1;
        Ok(ControlFlow::Continue(()))
    }

    /// `any`, `all` or `count` given a `Bool` element.
    fn condition(&mut self, b: bool) -> ControlFlow<()> {
        match self.reduction {
            Reduction::Any if b => {
                self.acc = Some(Value::Bool(true));
                ControlFlow::Break(())
            }
            Reduction::All if !b => {
                self.acc = Some(Value::Bool(false));
                ControlFlow::Break(())
            }
            _ => {
                self.count += i64::from(b);
                ControlFlow::Continue(())
            }
        }
    }

    /// The result once the elements ran out (or one decided it). An empty generator without
    /// `init` gives what the builtin gives for an empty vector.
    fn finish(self, me: &mut Interp) -> EvalResult {
        Ok(match (self.reduction, self.acc) {
            (Reduction::Any, acc) => acc.unwrap_or(Value::Bool(false)),
            (Reduction::All, acc) => acc.unwrap_or(Value::Bool(true)),
            (Reduction::Count, _) => Value::Int(self.count),
            (Reduction::Mean, Some(total)) => {
                me.binary(BinOp::Div, false, &total, &Value::Int(self.count))?
            }
            (Reduction::Mean, None) => {
                return Err(empty_error("mean of empty collection undefined"))
            }
            (Reduction::First, None) => return Err(empty_error("collection must be non-empty")),
            (_, Some(acc)) => acc,
            (reduction, None) => {
                let empty = match self.eltype {
                    Some(eltype) => Value::array(eltype, &[0], Vec::new()),
                    None => super::collections::collect_values(me, Vec::new(), &[0])?,
                };
                crate::builtins::call_named(me, reduction.name(), vec![empty])?
            }
        })
    }
}

/// The fold's start from the first element: Julia's `reduce_first`, which makes the sum of
/// `Bool`s an `Int`.
fn first_element(reduction: Reduction, x: Value) -> Value {
    match (reduction, x) {
        (Reduction::Sum | Reduction::Mean, Value::Bool(b)) => Value::Int(i64::from(b)),
        (_, x) => x,
    }
}

fn empty_error(message: &str) -> Flow {
    fail(ErrorKind::ArgumentError, message.to_string())
}

/// `max` or `min` of two plain numbers of one type (Julia's, with `NaN` winning); `None` for
/// anything else.
fn extremum(f: BinaryFn, a: &Value, b: &Value) -> Option<Value> {
    match (a, b) {
        (Value::Float(a), Value::Float(b)) => Some(Value::Float(f.apply(*a, *b))),
        (Value::Int(a), Value::Int(b)) => Some(Value::Int(match f {
            BinaryFn::Max => *a.max(b),
            _ => *a.min(b),
        })),
        _ => None,
    }
}
