//! A user function applied to every element of plain arrays and ranges (`g.(x)`, `map(g, x)`,
//! `sum(g, 1:n)`, `[f(x) for x in v]`) or to every combination of them (`[f(i, j) for i in 1:n,
//! j in 1:m]`) as one loop over its compiled code, its results kept in an array or handed to
//! a reduction (`sum(f(x) for x in v)`): the method is chosen and its code found once, the
//! arrays its closure captured are borrowed once, and each element is a call of machine code
//! with unboxed numbers, where the evaluator would box every element, dispatch and look the
//! code up again per call.

use super::arrays::Arrays;
use super::machine::{self, Func, Trap};
use super::{Interp, Ty};
use crate::error::{EvalResult, Flow};
use crate::eval::collections::scalar_f64;
use crate::eval::dispatch::{all_methods, select};
use crate::show::ElType;
use crate::value::convert::range_element;
use crate::value::{Closure, Range, Structure, Value};
use difflab_ad::Tensor;
use ndarray::{ArrayD, IxDyn, ShapeBuilder};
use smallvec::SmallVec;
use std::ops::ControlFlow;
use std::rc::Rc;

/// An argument of the loop: a number passed to every call, an array's numbers, or a range's
/// elements (computed as iterating it computes them).
enum Operand {
    Number(u64),
    Numbers(Rc<ArrayD<f64>>, Ty),
    Range(Rc<Range>),
}

/// Where the loop reads an operand's element `k`: a vector's memory, another array's
/// iterator (in logical order), a range, or the same number every time.
enum Source<'a> {
    Number(u64),
    Slice(&'a [f64], Ty),
    Elements(ndarray::iter::Iter<'a, f64, IxDyn>, Ty),
    Range(&'a Range),
}

impl Source<'_> {
    /// How the loop reads `operand`; with `by_index`, only as a vector or a range, whose
    /// elements can be read in any order.
    fn of(operand: &Operand, by_index: bool) -> Option<Source<'_>> {
        Some(match operand {
            Operand::Number(bits) => Source::Number(*bits),
            Operand::Numbers(numbers, ty) => match numbers.as_slice() {
                Some(slice) if numbers.ndim() <= 1 => Source::Slice(slice, *ty),
                _ if by_index => return None,
                _ => Source::Elements(numbers.iter(), *ty),
            },
            Operand::Range(range) => Source::Range(range),
        })
    }

    /// The bits of element `k` (for an iterator, the next one: it is asked in order).
    fn get(&mut self, k: usize) -> Option<u64> {
        Some(match self {
            Source::Number(bits) => *bits,
            Source::Slice(numbers, ty) => element_bits(*numbers.get(k)?, *ty),
            Source::Elements(numbers, ty) => element_bits(*numbers.next()?, *ty),
            Source::Range(range) => machine::unboxed(&range_element(range, k))?.0,
        })
    }
}

/// The bits of an array element of type `ty` as compiled code holds them.
fn element_bits(x: f64, ty: Ty) -> u64 {
    match ty {
        Ty::Int => x as i64 as u64,
        Ty::Bool => u64::from(x != 0.0),
        _ => x.to_bits(),
    }
}

/// The operand `v` is, with its element type: a plain number, or a dense array of plain
/// numbers (not a view, an adjoint or a structured matrix).
fn operand(v: &Value) -> Option<(Operand, Ty, Option<Vec<usize>>)> {
    if let Some((bits, ty)) = machine::unboxed(v) {
        return Some((Operand::Number(bits), ty, None));
    }
    if let Value::Range(r) = v {
        let ty = match r.eltype() {
            ElType::Int64 => Ty::Int,
            _ => Ty::Float,
        };
        return Some((Operand::Range(r.clone()), ty, Some(vec![r.len])));
    }
    let Value::Array(cell) = v else {
        return None;
    };
    let a = cell.try_borrow().ok()?;
    let Tensor::Plain(numbers) = &a.data else {
        return None;
    };
    if a.row_adjoint || a.links.is_some() || !matches!(a.structure, Structure::Dense) {
        return None;
    }
    let ty = match a.eltype {
        ElType::Float64 => Ty::Float,
        ElType::Int64 => Ty::Int,
        ElType::Bool => Ty::Bool,
    };
    let shape = numbers.shape().to_vec();
    Some((Operand::Numbers(numbers.clone(), ty), ty, Some(shape)))
}

/// How the loop walks its operands.
enum Walk {
    /// Together, element `k` of each (in the arrays' logical order, last index fastest).
    Together,
    /// Over every combination, the first operand fastest (a comprehension with several `for`
    /// clauses): for the `k`th result, operand `d` gives element `(k / stride_d) % len_d`.
    Product(Vec<(usize, usize)>),
}

impl Interp {
    /// The user function `f`, when the tier may run a loop of it over `shape` now: it is on
    /// and no function is being recorded, or the loop is empty. An empty loop runs no code,
    /// but its result is typed by what the code would return (Julia's inference), which must
    /// not depend on whether the tier runs.
    fn loop_function<'v>(&self, f: &'v Value, shape: &[usize]) -> Option<&'v Rc<Closure>> {
        let Value::Function(function) = f else {
            return None;
        };
        let on = self.compiled.enabled && self.compiled.suspended == 0 && !self.recording();
        (on || shape.contains(&0)).then_some(function)
    }

    /// `f.(args...)` when `f` is a user function, every argument a plain number, a plain
    /// array or a range, the arrays of one shape, and `f`'s method for their element types
    /// compiles to code that returns a number (given numbers only, it reaches no array).
    /// `None` otherwise, and when the code traps: the caller then broadcasts as written
    /// (compiled code had no effect).
    pub(crate) fn broadcast_compiled(&mut self, f: &Value, args: &[Value]) -> Option<EvalResult> {
        let mut operands = Vec::with_capacity(args.len());
        let mut types: SmallVec<[Ty; 4]> = SmallVec::new();
        let mut shape: Option<Vec<usize>> = None;
        for a in args {
            let (operand, ty, dims) = operand(a)?;
            match (&shape, dims) {
                (Some(s), Some(d)) if *s != d => return None,
                (None, Some(d)) => shape = Some(d),
                _ => {}
            }
            operands.push(operand);
            types.push(ty);
        }
        let shape = shape?;
        let function = self.loop_function(f, &shape)?;
        self.compiled_loop(function, &operands, &types, &shape, Walk::Together)
    }

    /// `[f(x, y, …) for x in a, y in b, …]` as one loop of compiled code when every iterable is
    /// a plain array or a range (a vector or a range each when there are several) and `f`
    /// compiles for their element types as in [`Interp::broadcast_compiled`]; `None` otherwise.
    pub(crate) fn product_compiled(&mut self, f: &Value, args: &[Value]) -> Option<EvalResult> {
        let product = Product::of(args)?;
        let function = self.loop_function(f, &product.shape)?;
        self.compiled_loop(
            function,
            &product.operands,
            &product.types,
            &product.shape,
            product.walk,
        )
    }

    /// The element type of `f` over the combinations of the elements of `args`, when its
    /// method compiles for them (whether or not the tier runs code now): what Julia infers
    /// for a generator that turns out empty.
    pub(crate) fn product_eltype(&mut self, f: &Value, args: &[Value]) -> Option<ElType> {
        let Value::Function(function) = f else {
            return None;
        };
        let product = Product::of(args)?;
        Some(self.element_loop(function, &product.types)?.eltype)
    }

    /// The values of `f(x, y, …)` for every combination of the elements of `args`, as
    /// [`Interp::product_compiled`] computes them, handed one at a time to `each` (first
    /// argument fastest) until it says `Break`, without an array; then the element type the
    /// compiled code returns (what an empty fold's answer is typed by, as Julia infers it).
    /// `None` when the loop cannot run as compiled code, or stopped in the middle (a trap, or
    /// `each` returning `None`): the caller then starts again as written, the values already
    /// handed over being void (the compiled code had no effect).
    pub(crate) fn product_folded(
        &mut self,
        f: &Value,
        args: &[Value],
        mut each: impl FnMut(Value) -> Option<ControlFlow<()>>,
    ) -> Option<Result<ElType, Flow>> {
        let product = Product::of(args)?;
        let function = self.loop_function(f, &product.shape)?;
        let element = self.element_loop(function, &product.types)?;
        let len = product
            .shape
            .iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d))?;
        let done =
            self.run_element_loop(&element, &product.operands, len, &product.walk, |bits| {
                each(machine::boxed(bits, element.returns))
            })?;
        Some(done.map(|()| element.eltype))
    }

    /// The loop itself: `function` (a user function) called on the operands' elements as
    /// `walk` pairs them, filling an array of `shape`.
    fn compiled_loop(
        &mut self,
        function: &Rc<Closure>,
        operands: &[Operand],
        types: &[Ty],
        shape: &[usize],
        walk: Walk,
    ) -> Option<EvalResult> {
        let element = self.element_loop(function, types)?;
        let eltype = element.eltype;
        // A size beyond the address space is the evaluator's `OutOfMemoryError`.
        let len = shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d))?;
        if let Err(e) = self.check_alloc(len) {
            return Some(Err(e));
        }
        let mut results = Vec::with_capacity(len);
        let returns = element.returns;
        let done = self.run_element_loop(&element, operands, len, &walk, |bits| {
            // An integer an array cannot hold exactly is the evaluator's `InexactError`.
            results.push(scalar_f64(&machine::boxed(bits, returns)).ok()?);
            Some(ControlFlow::Continue(()))
        })?;
        if let Err(e) = done {
            return Some(Err(e));
        }
        // Results walked together are in the arrays' logical order; a product's in Julia's
        // (column-major) order.
        let column_major = matches!(walk, Walk::Product(_));
        let data = ArrayD::from_shape_vec(IxDyn(shape).set_f(column_major), results).ok()?;
        Some(Ok(crate::value::convert::from_tensor(
            Tensor::plain(data),
            eltype,
            false,
        )))
    }

    /// The compiled code of `function`'s method for arguments of `types`, when it returns a
    /// number and writes no array (a closure may read the arrays it captured).
    fn element_loop(&mut self, function: &Rc<Closure>, types: &[Ty]) -> Option<ElementLoop> {
        let samples: Vec<Value> = types.iter().map(|t| t.sample()).collect();
        let method = select(all_methods(function), &samples).ok()?.clone();
        let func = self.function_for(&method, types)?;
        let mut captured = SmallVec::new();
        let mut arrays = Arrays::default();
        self.closure_arguments(&method, func, &mut captured, &mut arrays)?;
        let Func {
            returns, writes, ..
        } = self.compiled.funcs[func];
        let eltype = match returns {
            Ty::Float => ElType::Float64,
            Ty::Int => ElType::Int64,
            Ty::Bool => ElType::Bool,
            Ty::Nothing | Ty::Array { .. } => return None,
        };
        if writes {
            return None;
        }
        Some(ElementLoop {
            func,
            returns,
            eltype,
            captured,
            arrays,
        })
    }

    /// Calls `element` on the first `len` combinations of the operands' elements as `walk`
    /// pairs them, handing each result's bits to `each` until it says `Break`; `None` on a
    /// trap or when `each` returns `None`.
    fn run_element_loop(
        &mut self,
        element: &ElementLoop,
        operands: &[Operand],
        len: usize,
        walk: &Walk,
        mut each: impl FnMut(u64) -> Option<ControlFlow<()>>,
    ) -> Option<Result<(), Flow>> {
        let depth = self.config.max_depth.saturating_sub(self.depth() + 1);
        let by_index = matches!(walk, Walk::Product(_));
        let mut sources = operands
            .iter()
            .map(|o| Source::of(o, by_index))
            .collect::<Option<Vec<_>>>()?;
        let mut parameters: SmallVec<[u64; 4]> = SmallVec::new();
        parameters.resize(operands.len(), 0);
        parameters.extend_from_slice(&element.captured);
        let mut borrowed = element.arrays.borrow(false)?;
        let mut views = borrowed
            .iter_mut()
            .map(|b| b.view())
            .collect::<Option<Vec<_>>>()?;
        let mut undo = Vec::new();
        let mut calls = self.calls(element.func, depth, (&mut views, &mut undo));
        for k in 0..len {
            if k % 4096 == 0 {
                if let Err(e) = self.check_interrupt() {
                    return Some(Err(e));
                }
            }
            for (d, (parameter, source)) in parameters.iter_mut().zip(&mut sources).enumerate() {
                let index = match walk {
                    Walk::Together => k,
                    Walk::Product(strides) => (k / strides[d].0) % strides[d].1,
                };
                *parameter = source.get(index)?;
            }
            match calls.call(&parameters) {
                Ok(bits) => {
                    if each(bits)?.is_break() {
                        break;
                    }
                }
                Err(Trap::Interrupt) => return Some(Err(self.interrupted())),
                Err(Trap::Fallback) => return None,
            }
        }
        Some(Ok(()))
    }
}

/// A user function's compiled method, ready to be called per element.
struct ElementLoop {
    func: usize,
    returns: Ty,
    /// The element type of an array of what it returns.
    eltype: ElType,
    /// The numbers its closure captured (and the places of the arrays), passed after the
    /// elements.
    captured: SmallVec<[u64; 4]>,
    /// The arrays its closure captured, read by every call.
    arrays: Arrays,
}

/// A loop over every combination of the elements of some plain arrays and ranges.
struct Product {
    operands: Vec<Operand>,
    /// The operands' element types.
    types: SmallVec<[Ty; 4]>,
    /// The result's shape: each operand's dimensions in turn.
    shape: Vec<usize>,
    walk: Walk,
}

impl Product {
    fn of(args: &[Value]) -> Option<Product> {
        let mut operands = Vec::with_capacity(args.len());
        let mut types: SmallVec<[Ty; 4]> = SmallVec::new();
        let mut shape = Vec::new();
        let mut strides = Vec::with_capacity(args.len());
        let mut stride = 1usize;
        for a in args {
            let (operand, ty, dims) = operand(a)?;
            let dims = dims?;
            let len: usize = dims.iter().product();
            strides.push((stride, len.max(1)));
            stride = stride.saturating_mul(len);
            shape.extend(dims);
            operands.push(operand);
            types.push(ty);
        }
        let walk = if args.len() == 1 {
            Walk::Together
        } else {
            Walk::Product(strides)
        };
        Some(Product {
            operands,
            types,
            shape,
            walk,
        })
    }
}
