//! Collection literals: tuples, vectors, matrix concatenation, typed vectors, comprehensions;
//! and [`collect_values`], which turns computed elements into the right kind of array.

use super::scope::Scope;
use super::Interp;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::show::ElType;
use crate::value::convert::operand;
use crate::value::Value;
use difflab_ad::{ops, Tensor};
use difflab_syntax::{Arg, Expr, ExprKind, FunctionDef, Generator, Name};
use std::ops::ControlFlow;
use std::rc::Rc;

impl Interp {
    pub(crate) fn eval_tuple(&mut self, items: &[Arg]) -> EvalResult {
        let named = !items.is_empty()
            && items.iter().all(|a| {
                matches!(&a.value.kind, ExprKind::Assign { target, op: None, .. }
                    if matches!(target.kind, ExprKind::Ident(_)))
            });
        if named {
            let mut fields = Vec::with_capacity(items.len());
            for a in items {
                let ExprKind::Assign { target, value, .. } = &a.value.kind else {
                    unreachable!("checked above")
                };
                let ExprKind::Ident(name) = target.kind else {
                    unreachable!("checked above")
                };
                fields.push((name, self.eval(value)?));
            }
            return Ok(Value::named_tuple(fields));
        }
        Ok(Value::tuple(self.eval_args(items)?))
    }

    pub(crate) fn eval_vector(&mut self, items: &[Arg]) -> EvalResult {
        let values = self.eval_args(items)?;
        let n = values.len();
        if n == 0 {
            // `[]` is Julia's `Any[]`, which can hold anything pushed into it.
            return Ok(Value::declared_list(
                crate::types::Type::Prim(crate::types::Prim::Any),
                values,
            ));
        }
        collect_values(self, promote_items(values)?, &[n])
    }

    /// `String[]`, `Char['a']`, `Point[p, q]`: a vector declared to hold values of a type
    /// that is not a number, each converted to it as Julia's `convert` does.
    pub(crate) fn typed_list(&mut self, ty: &crate::types::Type, values: Vec<Value>) -> EvalResult {
        let values = values
            .into_iter()
            .map(|v| super::methods::convert(ty, v))
            .collect::<Result<_, _>>()?;
        Ok(Value::declared_list(ty.clone(), values))
    }

    pub(crate) fn eval_typed_vector(&mut self, eltype: Name, elements: &[Expr]) -> EvalResult {
        let mut values = Vec::with_capacity(elements.len());
        for e in elements {
            values.push(self.eval(e)?);
        }
        self.typed_vector(eltype, values)
    }

    /// `T[1 2; 3 4]`, `T[f(i) for i in 1:n]`: the literal, converted to the element type as
    /// Julia's `convert` does.
    pub(crate) fn eval_typed_literal(&mut self, eltype: Name, literal: &Expr) -> EvalResult {
        let value = self.eval(literal)?;
        if let Some(elt) = numeric_eltype(eltype.as_str()) {
            if let Some(o) = operand(&value)?.filter(|o| !o.scalar && o.tensor().is_plain()) {
                let t = o.tensor();
                let data = t.to_col_major();
                check_fits(elt, &data)?;
                return Ok(Value::array(elt, t.shape(), data));
            }
        }
        let is_vector = match &value {
            Value::List(_) => true,
            other => operand(other)?.is_some_and(|o| o.tensor().shape().len() == 1),
        };
        if !is_vector {
            return Err(fail(
                ErrorKind::MethodError,
                format!(
                    "a matrix of element type {eltype} is not available; matrices hold numbers (Float64, Int, Bool)"
                ),
            ));
        }
        let values = crate::value::iterate::elements(&value)?;
        self.typed_vector(eltype, values)
    }

    /// `T[values...]` for the element type named `eltype` (also when `T` is a variable
    /// holding the type: `T = Float64; T[]`).
    pub(crate) fn typed_vector(&mut self, eltype: Name, values: Vec<Value>) -> EvalResult {
        let elt = match (numeric_eltype(eltype.as_str()), eltype.as_str()) {
            (Some(elt), _) => elt,
            (None, "Any") => {
                return Ok(Value::declared_list(
                    crate::types::Type::Prim(crate::types::Prim::Any),
                    values,
                ))
            }
            (None, other) => {
                let ty = self
                    .lookup(eltype)
                    .ok()
                    .and_then(|v| crate::types::Type::from_value(&v))
                    .ok_or_else(|| {
                        fail(
                            ErrorKind::UndefVarError,
                            format!("`{other}` not defined as an element type"),
                        )
                    })?;
                return self.typed_list(&ty, values);
            }
        };
        let n = values.len();
        let mut data = Vec::with_capacity(n);
        for v in &values {
            data.push(scalar_f64(v)?);
        }
        check_fits(elt, &data)?;
        Ok(Value::array(elt, &[n], data))
    }

    pub(crate) fn eval_concat(&mut self, rows: &[Vec<Expr>]) -> EvalResult {
        let mut row_values = Vec::with_capacity(rows.len());
        for row in rows {
            let mut values = Vec::with_capacity(row.len());
            for e in row {
                values.push(self.eval(e)?);
            }
            row_values.push(values);
        }
        crate::builtins::concat::hvcat(self, row_values)
    }

    pub(crate) fn eval_comprehension(
        &mut self,
        body: &Expr,
        generators: &[Generator],
        filter: Option<&Expr>,
        flat: bool,
        element: &Option<Rc<FunctionDef>>,
    ) -> EvalResult {
        let frame = Scope::new(self.current_scope(), false);
        self.with_frame(frame, |me| {
            // The iterables of `for a in A, b in B` are evaluated once, before any element (as
            // in Julia, where they are the axes of a product); those of `for a in A for b in
            // f(a)` once per element of the clause before.
            let iterables = match flat {
                true => Vec::new(),
                false => generators
                    .iter()
                    .map(|g| me.eval(&g.iter))
                    .collect::<Result<Vec<_>, _>>()?,
            };
            if let Some(element) = element {
                if let Some(done) = me.comprehend_compiled(element, &iterables) {
                    return done;
                }
            }
            // An array comprehension's size is the product of its iterators' lengths, known
            // before any element is computed: `[i * j for i in 1:10^6, j in 1:10^6]` is
            // refused at once instead of after filling the memory.
            let planned = (!flat && filter.is_none()).then_some(1);
            let mut results = Vec::new();
            let mut dims = Vec::new();
            let mut collect = |_: &mut Interp, v| {
                results.push(v);
                Ok(ControlFlow::Continue(()))
            };
            let mut walk = Walk {
                body,
                filter,
                sink: &mut collect,
                dims: &mut dims,
            };
            let clauses: Vec<&Generator> = generators.iter().collect();
            walk.start(me, &clauses, planned, &iterables)?;
            // An empty clause leaves those inside it unwalked; their iterables, evaluated
            // before any element, still give their dimensions (`[f(i, j) for i in 1:0, j in
            // 1:2]` is 0×2, as in Julia).
            for iterable in iterables.iter().skip(dims.len()) {
                dims.push(
                    crate::builtins::arrays::shape_of_value(iterable).unwrap_or_else(|| {
                        vec![crate::builtins::arrays::length_of(iterable).unwrap_or(0)]
                    }),
                );
            }
            if flat || filter.is_some() || dims.is_empty() {
                let n = results.len();
                return collect_values(me, results, &[n]);
            }
            // Julia's first generator varies fastest: results were produced with the last one
            // innermost, so reorder into column-major.
            let counts: Vec<usize> = dims.iter().map(|d| d.iter().product()).collect();
            let reordered = reorder_outer_major(results, &counts);
            collect_values(me, reordered, &dims.concat())
        })
    }

    /// `[body for x in a, y in b, …]` as one loop of compiled code when every iterable is a
    /// plain array or a range and `(x, y, …) -> body` compiles for their elements
    /// ([`Interp::product_compiled`]); `None` otherwise, and the comprehension runs as written.
    fn comprehend_compiled(
        &mut self,
        element: &Rc<FunctionDef>,
        iterables: &[Value],
    ) -> Option<EvalResult> {
        let function = self.element_function(element, iterables)?;
        self.product_compiled(&function, iterables)
    }

    /// The closure `(x, y, …) -> body` of a comprehension, when its iterables are plain arrays
    /// or ranges, so that compiled code may run it over their elements.
    pub(super) fn element_function(
        &mut self,
        element: &Rc<FunctionDef>,
        iterables: &[Value],
    ) -> Option<Value> {
        if iterables.is_empty()
            || !iterables
                .iter()
                .all(|i| matches!(i, Value::Array(_) | Value::Range(_)))
        {
            return None;
        }
        self.make_closure(element.clone()).ok()
    }

    /// The elements of a generator, one at a time into `sink`, in Julia's iteration order:
    /// every combination of the clauses' elements with the first clause fastest (a product,
    /// whose iterables are all in `iterables` already). Stops when the sink says so.
    pub(super) fn stream_elements(
        &mut self,
        (body, filter): (&Expr, Option<&Expr>),
        generators: &[Generator],
        iterables: &[Value],
        sink: &mut Sink<'_>,
    ) -> Result<(), Flow> {
        let mut walk = Walk {
            body,
            filter,
            sink,
            dims: &mut Vec::new(),
        };
        // The walk nests its clauses first outermost: the product runs them the other way.
        let clauses: Vec<&Generator> = generators.iter().rev().collect();
        let iterables: Vec<Value> = iterables.iter().rev().cloned().collect();
        walk.start(self, &clauses, None, &iterables)
    }
}

/// Where a comprehension's elements go as they are computed: into the array it builds, or
/// into a reduction over a generator (`Break` stops the walk, as `any` does at its first
/// `true`).
pub(super) type Sink<'s> = dyn FnMut(&mut Interp, Value) -> Result<ControlFlow<()>, Flow> + 's;

/// One walk over a comprehension's clauses.
struct Walk<'w, 's> {
    body: &'w Expr,
    filter: Option<&'w Expr>,
    sink: &'w mut Sink<'s>,
    /// The dimensions each clause ran through (an array comprehension's shape).
    dims: &'w mut Vec<Vec<usize>>,
}

impl Walk<'_, '_> {
    /// Runs every clause, until the elements run out or the sink stops the walk.
    fn start(
        &mut self,
        me: &mut Interp,
        generators: &[&Generator],
        planned: Option<usize>,
        iterables: &[Value],
    ) -> Result<(), Flow> {
        // Stopped early or ran out, the walk is over either way.
        let _ = self.run(me, generators, 0, planned, iterables)?;
        Ok(())
    }

    /// Runs the clauses from `level` on; `iterables` holds those evaluated already. `planned`
    /// is the product of the lengths of the clauses above when the elements are kept (their
    /// number is then reserved before the first is computed).
    fn run(
        &mut self,
        me: &mut Interp,
        generators: &[&Generator],
        level: usize,
        planned: Option<usize>,
        iterables: &[Value],
    ) -> Result<ControlFlow<()>, Flow> {
        let Some((first, rest)) = generators.split_first() else {
            // Before the filter: one that never holds must not make the walk deaf.
            me.check_interrupt()?;
            if let Some(cond) = self.filter {
                if !me.truthy(cond)? {
                    return Ok(ControlFlow::Continue(()));
                }
            }
            let element = me.eval(self.body)?;
            return (self.sink)(me, element);
        };
        let iterable = match iterables.get(level) {
            Some(iterable) => iterable.clone(),
            None => me.eval(&first.iter)?,
        };
        let planned = planned
            .zip(crate::builtins::arrays::length_of(&iterable))
            .map(|(outer, n)| outer.saturating_mul(n));
        if let (Some(total), true) = (planned, self.dims.len() <= level) {
            difflab_ad::limits::reserve(
                (total as u64).saturating_mul(std::mem::size_of::<Value>() as u64),
                &format!("a comprehension of {total} elements"),
            )?;
        }
        let mut count = 0;
        let mut items = me.iterate_value(&iterable)?;
        let mark = me.iteration_mark();
        while let Some(item) = me.next_item(&mut items)? {
            me.start_iteration(mark);
            me.bind_pattern(&first.pattern, item)?;
            if self
                .run(me, rest, level + 1, planned, iterables)?
                .is_break()
            {
                return Ok(ControlFlow::Break(()));
            }
            count += 1;
        }
        if self.dims.len() <= level {
            self.dims.resize(level + 1, Vec::new());
        }
        // Each generator contributes its iterable's dimensions, as in Julia (`[f(x) for x in
        // A]` has the size of `A`; a number has none); other iterables one of their count.
        self.dims[level] = match crate::builtins::arrays::shape_of_value(&iterable) {
            Some(dims) if dims.iter().product::<usize>() == count => dims,
            _ => vec![count],
        };
        Ok(ControlFlow::Continue(()))
    }
}

/// Reorders values produced with the first dimension outermost into column-major order.
fn reorder_outer_major(values: Vec<Value>, shape: &[usize]) -> Vec<Value> {
    if shape.len() < 2 {
        return values;
    }
    let len = values.len();
    let mut out = vec![Value::Nothing; len];
    for (k, v) in values.into_iter().enumerate() {
        // k enumerates indices with the last dimension fastest.
        let mut rest = k;
        let mut index = vec![0; shape.len()];
        for d in (0..shape.len()).rev() {
            index[d] = rest % shape[d];
            rest /= shape[d];
        }
        let mut linear = 0;
        let mut stride = 1;
        for d in 0..shape.len() {
            linear += index[d] * stride;
            stride *= shape[d];
        }
        out[linear] = v;
    }
    out
}

/// The array element type a numeric type name declares (`Float64[...]`, `Int[...]`).
fn numeric_eltype(name: &str) -> Option<ElType> {
    Some(match name {
        "Float64" | "Float32" | "Real" | "Number" | "AbstractFloat" => ElType::Float64,
        "Int" | "Int64" | "Integer" => ElType::Int64,
        "Bool" => ElType::Bool,
        _ => return None,
    })
}

/// Julia's `InexactError` for a number an element type cannot hold (`Int[1.5]`, `Bool[2]`).
fn check_fits(elt: ElType, data: &[f64]) -> Result<(), Flow> {
    let fits = |x: f64| match elt {
        ElType::Int64 => x.fract() == 0.0,
        ElType::Bool => x == 0.0 || x == 1.0,
        _ => true,
    };
    match data.iter().find(|&&x| !fits(x)) {
        Some(&x) => Err(fail(
            ErrorKind::InexactError,
            format!("{}({})", elt.name(), crate::show::float(x)),
        )),
        None => Ok(()),
    }
}

/// A plain number as `f64`, or a `MethodError` for anything else.
pub fn scalar_f64(v: &Value) -> Result<f64, Flow> {
    match v {
        Value::Float(x) => Ok(*x),
        // Arrays store their numbers as Float64: integers beyond 2^53 would silently change.
        Value::Int(i) if i.unsigned_abs() > 1 << 53 => Err(fail(
            ErrorKind::InexactError,
            format!("{i} does not fit an array element exactly (arrays hold integers up to 2^53); keep it in a variable"),
        )),
        Value::Int(i) => Ok(*i as f64),
        Value::Bool(b) => Ok(f64::from(u8::from(*b))),
        other => Err(fail(
            ErrorKind::MethodError,
            format!(
                "cannot convert a value of type {} to a number",
                other.type_name()
            ),
        )),
    }
}

/// A `Vector{Any}` holding only numbers (`ret = []; push!(ret, x[1]^2)`) as the numeric
/// vector of them, as Julia's AD packages accept it for a function's output; any other value
/// unchanged.
pub fn numbers_of_any_vector(interp: &Interp, v: Value) -> EvalResult {
    let items = match &v {
        Value::List(items) if items.borrow().iter().all(Value::is_number) => items.borrow().clone(),
        _ => return Ok(v),
    };
    let n = items.len();
    collect_values(interp, items, &[n])
}

/// The value to store in `list`: converted to its declared element type when it has one, as
/// Julia's `convert` does (`push!(String[], 1)` is its conversion error).
pub fn list_element(list: &crate::value::List, v: Value) -> EvalResult {
    match &list.declared {
        Some(eltype) => super::methods::convert(eltype, v),
        None => Ok(v),
    }
}

/// The values to store in `list`, each as [`list_element`] converts it.
pub fn list_elements(list: &crate::value::List, items: Vec<Value>) -> Result<Vec<Value>, Flow> {
    items.into_iter().map(|v| list_element(list, v)).collect()
}

/// Julia's `[a, b, …]` promotes its items to one type: pairs and tuples part by part
/// (`[1 => 2.0, 3 => 4]` holds two `Pair{Int64, Float64}`, `[(1, 2.0), (3, 4)]` two
/// `Tuple{Int64, Float64}`). Numbers are promoted by `collect_values`.
fn promote_items(values: Vec<Value>) -> Result<Vec<Value>, Flow> {
    use crate::builtins::number_facts::promoted;
    use crate::types::Type;
    let parts: Option<Vec<Vec<Value>>> = values
        .iter()
        .map(|v| match v {
            Value::Tuple(items) => Some(items.to_vec()),
            other => other.pair_parts().map(|(a, b)| vec![a, b]),
        })
        .collect();
    let Some(parts) = parts else {
        return Ok(values);
    };
    let is_pair = values[0].pair_parts().is_some();
    let width = parts[0].len();
    if parts.iter().any(|p| p.len() != width)
        || values.iter().any(|v| v.pair_parts().is_some() != is_pair)
    {
        return Ok(values);
    }
    let part_types = |v: &Value, p: &[Value]| -> Vec<Type> {
        match v {
            Value::Struct(s) => s.params.to_vec(),
            _ => p.iter().map(Type::of).collect(),
        }
    };
    let mut joined = part_types(&values[0], &parts[0]);
    let mut differ = false;
    for (v, p) in values.iter().zip(&parts).skip(1) {
        for (j, t) in joined.iter_mut().zip(part_types(v, p)) {
            if *j != t {
                differ = true;
                *j = promoted(j, &t);
            }
        }
    }
    if !differ {
        return Ok(values);
    }
    parts
        .into_iter()
        .map(|p| {
            let converted = p
                .into_iter()
                .zip(&joined)
                .map(|(x, t)| super::methods::convert(t, x))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(if is_pair {
                let mut it = converted.into_iter();
                let (a, b) = (it.next(), it.next());
                let types = [joined[0].clone(), joined[1].clone()];
                Value::typed_pair(a.expect("two parts"), b.expect("two parts"), types)
            } else {
                Value::tuple(converted)
            })
        })
        .collect()
}

/// Builds an array of `shape` from computed elements: numbers become a numeric array
/// (`Int64` when all are integers, `Bool` when all are booleans, dual when any carries
/// derivatives), anything else a vector of values.
pub fn collect_values(interp: &Interp, values: Vec<Value>, shape: &[usize]) -> EvalResult {
    interp.check_alloc(values.len())?;
    let all_numbers = values.iter().all(Value::is_number);
    if !all_numbers {
        if shape.len() > 1 {
            return Err(fail(
                ErrorKind::ArgumentError,
                "multi-dimensional arrays of non-numbers are not supported",
            ));
        }
        return Ok(Value::list(values));
    }
    let eltype = if values.iter().all(|v| matches!(v, Value::Bool(_))) && !values.is_empty() {
        ElType::Bool
    } else if values
        .iter()
        .all(|v| matches!(v, Value::Int(_) | Value::Bool(_)))
        && !values.is_empty()
    {
        ElType::Int64
    } else {
        ElType::Float64
    };
    if values.iter().any(|v| matches!(v, Value::Real(_))) {
        let parts: Vec<Tensor> = values
            .iter()
            .map(|v| match v {
                Value::Real(t) => ops::reshape(t, &[1]),
                other => Ok(Tensor::from_col_major(
                    &[1],
                    vec![scalar_f64(other).unwrap_or(0.0)],
                )),
            })
            .collect::<Result<_, _>>()?;
        let stacked = ops::concat(&parts, 0)?;
        let data = ops::reshape(&stacked, shape)?;
        return Ok(Value::float_array(data));
    }
    let data = values
        .iter()
        .map(scalar_f64)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Value::array(eltype, shape, data))
}
